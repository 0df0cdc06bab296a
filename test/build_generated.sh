#!/usr/bin/env bash
# Build tests of generated projects (ctest runs each case as its own test):
#   build_generated.sh DFGC ROOT WORK CASE [MAPPING]
# CASE:
#   cpu_run      compile samples/overlap/cpu_only.dfg, build it with g++ -Wall -Wextra -Werror,
#                run 1,000 iterations with and without overlap, with --sync=neighbours and
#                barrier (the consumer checks every element of every token), --stats, --trace
#   cpu_tsan     the same, built and run with ThreadSanitizer
#   gpu_build    compile samples/overlap/MAPPING.dfg and build it with nvcc (host compiler
#                warnings as errors); compile and link only (CI has no GPU); skipped without nvcc
#   determinism  two compiles give byte-identical trees; a second compile into the same
#                directory changes nothing
#   refusals     -o into a foreign non-empty directory, an app on two hosts, a spec with an
#                error: exit 1, nothing written
set -euo pipefail
dfgc=$1 root=$2 work=$3 case=$4 mapping=${5:-}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
work="$work/$case${mapping:+_$mapping}"
rm -rf "$work"
mkdir -p "$work"
cd "$root"

fail() { echo "FAIL: $*" >&2; exit 1; }

compile() {  # compile SPEC OUT [dfgc args...]
  local spec=$1 out=$2
  shift 2
  "$dfgc" compile "$spec" -o "$out" "$@"
}

run_all() {  # run_all APP: both strategies, both sync modes
  local app=$1
  for strategy in "" --no-overlap; do
    for sync in neighbours barrier; do
      echo "== app --iterations 1000 $strategy --sync=$sync"
      "$app" --iterations 1000 $strategy --sync=$sync || fail "run $strategy --sync=$sync"
    done
  done
  "$app" --iterations 200 --stats | tee "$work/stats.txt"
  grep -q "^iteration period: [0-9.]* ms" "$work/stats.txt" || fail "--stats printed no period"
  grep -q "^firing " "$work/stats.txt" || fail "--stats printed no firing times"
  "$app" --iterations 200 --stats=period | tee "$work/period.txt"
  grep -q "^iteration period: [0-9.]* ms" "$work/period.txt" || fail "--stats=period printed no period"
  if grep -q "^firing " "$work/period.txt"; then fail "--stats=period timed the firings"; fi
  "$app" --iterations 10 --trace "$work/trace.json"
  python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/trace.json" || fail "bad trace"
  "$app" --help | grep -q -- "--sync=barrier|neighbours" || fail "--help"
  if "$app" --migrate i1:A.cpu@3 2>"$work/migrate.txt"; then fail "--migrate accepted"; fi
  grep -q "no alternative mappings" "$work/migrate.txt" || fail "--migrate message"
}

build_cpu() {  # build_cpu DIR CXXFLAGS
  cmake -S "$1" -B "$1/build" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_FLAGS="$2" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$1/build" -j 2
}

case $case in
  cpu_run)
    compile samples/overlap/cpu_only.dfg "$work/gen" -D N=64
    build_cpu "$work/gen" "-Werror"
    run_all "$work/gen/build/app"
    ;;
  cpu_tsan)
    compile samples/overlap/cpu_only.dfg "$work/gen" -D N=64
    build_cpu "$work/gen" "-Werror -fsanitize=thread -g -O1"
    export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
    run_all "$work/gen/build/app"
    ;;
  gpu_build)
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    if [[ ! -x $nvcc ]]; then echo "nvcc not found: skipped"; exit 77; fi
    compile "samples/overlap/$mapping.dfg" "$work/gen"
    cmake -S "$work/gen" -B "$work/gen/build" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CXX_COMPILER=g++ \
      -DCMAKE_CUDA_HOST_COMPILER=g++ -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CXX_FLAGS=-Werror \
      -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null
    cmake --build "$work/gen/build" -j 2
    [[ -x $work/gen/build/app ]] || fail "no executable"
    ;;
  determinism)
    compile samples/overlap/one_gpu.dfg "$work/a/gen"
    compile samples/overlap/one_gpu.dfg "$work/b/gen"
    diff -r "$work/a/gen" "$work/b/gen" || fail "two compiles differ"
    touch -d '2000-01-01' "$work/a/gen/app.hpp"
    compile samples/overlap/one_gpu.dfg "$work/a/gen"
    [[ $(stat -c %Y "$work/a/gen/app.hpp") == $(date -d '2000-01-01' +%s) ]] ||
      fail "an unchanged file was rewritten"
    ! grep -rn "$root\|/tmp/" "$work/a/gen" --exclude-dir=runtime || fail "an absolute path in the project"
    ;;
  refusals)
    mkdir -p "$work/foreign" && echo mine >"$work/foreign/notes.txt"
    if compile samples/overlap/cpu_only.dfg "$work/foreign" 2>"$work/err.txt"; then fail "foreign dir accepted"; fi
    grep -q "refusing to write into" "$work/err.txt" || fail "foreign dir message"
    [[ $(ls "$work/foreign") == notes.txt ]] || fail "foreign dir touched"
    status=0
    compile samples/overlap/two_hosts.dfg "$work/hosts" 2>"$work/err.txt" || status=$?
    [[ $status == 1 ]] || fail "two hosts: exit $status"
    grep -q "two_hosts.dfg:[0-9]*:[0-9]*: error: app 'overlap_two_hosts' spans 2 hosts; generating MPI programs is not supported yet" \
      "$work/err.txt" || fail "two hosts message: $(cat "$work/err.txt")"
    [[ ! -e $work/hosts ]] || fail "two hosts: something written"
    printf 'import "%s/samples/overlap/overlap.dfg";\narch a { host A { cpu; } }\napp x on a { node p : Producer @ A.cpu; node q : Nope @ A.cpu; }\n' "$root" >"$work/bad.dfg"
    status=0
    compile "$work/bad.dfg" "$work/bad" 2>"$work/err.txt" || status=$?
    [[ $status == 1 ]] || fail "bad spec: exit $status"
    [[ ! -e $work/bad ]] || fail "bad spec: something written"
    ls "$work" | grep -q dfgc-tmp && fail "a temporary directory was left"
    ;;
  *) fail "unknown case '$case'" ;;
esac
echo "ok: $case $mapping"
