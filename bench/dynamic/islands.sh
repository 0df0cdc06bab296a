#!/bin/bash
# The spec-level dynamic islands on a GPU against the same islands on one CPU core, with each of
# the GPU island's two kernels (DFG_GPU_ISLAND_KERNEL=block, the default, and grid), at the
# samples' sizes and at 64 times the tokens an iteration:
#
#     bench/dynamic/islands.sh generate DIR    # here: every project (dfgc compile)
#     bench/dynamic/islands.sh run DIR OUT     # on the lent machine
#
# The programs: samples/dyn_fir (the 13-actor FIR, N samples an iteration: 64 and 4096;
# one_core.dfg against parallel_core.dfg, one_gpu.dfg and parallel_gpu.dfg: its actors as
# parallel actions, the delays in rings), samples/dyn_idct (the decoder, B 8x8 blocks an iteration:
# 4 and 256; dyn_idct.dfg against one_gpu.dfg and parallel_gpu.dfg), and the IDCT alone
# (idct_core.dfg, idct_parallel_core.dfg against idct_gpu.dfg, idct_parallel_gpu.dfg). Every
# sink checks every output against the sequential computation on the CPU.
#
# run builds every project (nvcc and g++ warnings as errors), then runs each REPEATS times (3),
# interleaved, --iterations ITERATIONS (2000; a tenth at the larger size) --stats=period
# --pin-cpus; KERNELS="block" runs the GPU islands with that kernel alone. Results under OUT:
# log.txt, times.csv (program,size,mapping,kernel,repeat,ms_per_iteration,check) and
# summary.txt (islands_summary.py: medians, and each run's time over one core's).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# program:sample directory:size param:sizes:mappings (the first on one core)
programs=(
  "fir:dyn_fir:N:64 4096:one_core parallel_core one_gpu parallel_gpu"
  "decoder:dyn_idct:B:4 256:dyn_idct one_gpu parallel_gpu"
  "idct:dyn_idct:B:4 256:idct_core idct_parallel_core idct_gpu idct_parallel_gpu"
)
case ${1:-} in
  generate)
    dir=${2:?usage: islands.sh generate DIR}
    dfgc=${DFGC:-$root/build/release/bin/dfgc}
    rm -rf "$dir" && mkdir -p "$dir"
    for p in "${programs[@]}"; do
      IFS=: read -r name sample param sizes mappings <<<"$p"
      for s in $sizes; do
        for m in $mappings; do
          "$dfgc" compile "$root/samples/$sample/$m.dfg" -D "$param=$s" -o "$dir/${name}_${s}_$m" ||
            exit 1
        done
      done
    done
    exit 0
    ;;
  run) ;;
  *)
    echo "usage: islands.sh generate DIR | islands.sh run DIR OUT" >&2
    exit 2
    ;;
esac
dir=${2:?usage: islands.sh run DIR OUT} out=${3:?usage: islands.sh run DIR OUT}
repeats=${REPEATS:-3}
iterations=${ITERATIONS:-2000}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
fails=0
# shellcheck disable=SC2317  # called through xargs
build() {
  cmake -S "$1" -B "$1/build" --no-warn-unused-cli -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DCMAKE_CXX_FLAGS=-Werror -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null &&
    cmake --build "$1/build" -j 2 2>&1 | grep -iE "warning|error"
  [ -x "$1/build/app" ] || echo "FAIL: build $1"
}
export -f build
printf '%s\0' "$dir"/*/ | xargs -0 -P "$(($(nproc) / 2))" -I{} bash -c 'build {}' | tee "$out/build.txt"
grep -q FAIL "$out/build.txt" && fails=1
echo "program,size,mapping,kernel,repeat,ms_per_iteration,check" >"$out/times.csv"
for ((r = 0; r < repeats; ++r)); do
  for p in "${programs[@]}"; do
    IFS=: read -r name sample param sizes mappings <<<"$p"
    n=$iterations
    for s in $sizes; do
      for m in $mappings; do
        kernels=(-)
        # shellcheck disable=SC2206  # KERNELS is a list of words
        [[ $m == *gpu* ]] && kernels=(${KERNELS:-block grid})
        for k in "${kernels[@]}"; do
          app="$dir/${name}_${s}_$m/build/app"
          [ -x "$app" ] || continue
          DFG_GPU_ISLAND_KERNEL=$([ "$k" = - ] || echo "$k") timeout 120 "$app" \
            --iterations "$n" --stats=period --pin-cpus >"$out/run.txt" 2>&1 ||
            { echo "FAIL: $name $s $m $k: $(tail -3 "$out/run.txt")"; fails=1; }
          throughput=$(sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p' "$out/run.txt")
          ms=$(python3 -c "import sys; t = sys.argv[1]; print(f'{1000 / float(t):.5f}' if t else '')" "$throughput")
          check=$(grep -m1 -E "checked" "$out/run.txt" | tr ',' ';')
          echo "$name,$s,$m,$k,$r,$ms,$check" >>"$out/times.csv"
        done
      done
      n=$((iterations / 10))
    done
  done
done
python3 "$here/islands_summary.py" "$out/times.csv" | tee "$out/summary.txt" || fails=1
exit $fails
