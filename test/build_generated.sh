#!/usr/bin/env bash
# Build tests of generated projects (ctest runs each case as its own test):
#   build_generated.sh DFGC ROOT WORK CASE [MAPPING]
# CASE:
#   cpu_run      compile samples/overlap/cpu_only.dfg, build it with g++ -Wall -Wextra -Werror,
#                run 1,000 iterations with and without overlap, with --sync=neighbours and
#                barrier (the consumer checks every element of every token), --stats, --trace;
#                --profile in both strategies: the costs file parses, names every node, and
#                `dfgc map --costs` accepts it and predicts for the profiled mapping what the
#                profile measured (period = the model's load + the measured overhead)
#   cpu_tsan     the same, built and run with ThreadSanitizer
#   gpu_build    compile samples/overlap/MAPPING.dfg and build it with nvcc (host compiler
#                warnings as errors); compile and link only (CI has no GPU); skipped without nvcc
#   granulometry_gpu_build
#                the same for samples/granulometry/granulometry.dfg (the packed openings), and
#                bench/granulometry/packed_check.cu built by nvcc with warnings as errors
#   determinism  two compiles give byte-identical trees; a second compile into the same
#                directory changes nothing
#   refusals     -o into a foreign non-empty directory, a spec with an
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

find_nvcc() {  # sets nvcc, or skips the case
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if [[ ! -x $nvcc ]]; then echo "nvcc not found: skipped"; exit 77; fi
}

build_gpu() {  # build_gpu DIR: a generated GPU project, nvcc, warnings as errors
  local dir=$1
  cmake -S "$dir" -B "$dir/build" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CXX_COMPILER=g++ \
    -DCMAKE_CUDA_HOST_COMPILER=g++ -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CXX_FLAGS=-Werror \
    -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null
  cmake --build "$dir/build" -j 2
  [[ -x $dir/build/app ]] || fail "no executable"
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

check_profile() {  # check_profile APP SPEC [dfgc args]: --profile, read back by dfgc map
  local app=$1 spec=$2
  shift 2
  for strategy in overlap no-overlap; do
    local profile="$work/profile-$strategy.json" flag=""
    [[ $strategy == no-overlap ]] && flag=--no-overlap
    "$app" --iterations 200 $flag --profile "$profile" >"$work/profile-run.txt" || fail "--profile $flag"
    [[ ! -s $work/profile-run.txt ]] || fail "--profile printed: $(head -3 "$work/profile-run.txt")"
    cat "$profile"
    "$dfgc" map "$spec" "$@" --costs "$profile" >"$work/map.txt" || fail "dfgc map rejected the profile"
    grep -q "^predicted:" "$work/map.txt" || fail "dfgc map predicted nothing"
    "$dfgc" map "$spec" "$@" --costs "$profile" --evaluate >"$work/evaluate.json" || fail "dfgc map --evaluate"
    python3 - "$profile" "$work/evaluate.json" "$strategy" p i1 i2 c <<'EOF' || fail "profile $strategy: see above"
import json, sys
profile, evaluation = (json.load(open(f)) for f in sys.argv[1:3])
strategy, nodes = sys.argv[3], sys.argv[4:]
assert sorted(profile["nodes"]) == sorted(nodes), profile["nodes"]
for n in nodes:
    assert profile["nodes"][n]["A.cpu"]["ms"] > 0, n
assert profile["links"] == {}, "a CPU-only run has no link"
run = profile["profile"]
assert run["strategy"] == strategy and run["iterations"] == 200, run
overhead = profile["cycle_overhead_ms"][strategy]
assert overhead >= 0 and list(profile["cycle_overhead_ms"]) == [strategy]
# The model applied to the profile gives back the measured period (or its load, if larger).
predicted = evaluation[strategy]["period_ms"]
expected = max(run["period_ms"], run["model_ms"])
assert abs(predicted - expected) <= 1e-4 * expected + 1e-6, (predicted, expected)
print(f"profile {strategy}: period {run['period_ms']} ms, model {run['model_ms']} ms, "
      f"overhead {overhead} ms; dfgc map predicts {predicted} ms")
EOF
  done
  "$app" --iterations 50 --stats=period --profile "$work/profile.json" | tee "$work/period.txt"
  if grep -q "^firing " "$work/period.txt"; then fail "--stats=period --profile printed the firings"; fi
  if "$app" --iterations 5 --profile /nonexistent/p.json 2>"$work/err.txt"; then fail "--profile to a bad path"; fi
  grep -q "error: --profile: cannot write '/nonexistent/p.json'" "$work/err.txt" || fail "--profile message"
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
    check_profile "$work/gen/build/app" samples/overlap/cpu_only.dfg -D N=64
    ;;
  cpu_tsan)
    compile samples/overlap/cpu_only.dfg "$work/gen" -D N=64
    build_cpu "$work/gen" "-Werror -fsanitize=thread -g -O1"
    export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
    run_all "$work/gen/build/app"
    ;;
  gpu_build)
    find_nvcc
    compile "samples/overlap/$mapping.dfg" "$work/gen"
    build_gpu "$work/gen"
    ;;
  granulometry_gpu_build)
    find_nvcc
    compile samples/granulometry/granulometry.dfg "$work/gen"
    build_gpu "$work/gen"
    "$nvcc" -std=c++20 -arch=sm_90 -Xcompiler=-Wall,-Wextra,-Werror -Werror all-warnings \
      bench/granulometry/packed_check.cu -o "$work/packed_check" || fail "packed_check does not build"
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
