#!/usr/bin/env bash
# Builds the generated FIR mappings (m1 = one_gpu, m2, m3, m6), runs each in both strategies
# (every output checked by the sink), times them, and runs bench/dynamic/fir.cu's hand-written
# zero-copy vs copied comparison on the same mappings.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(pwd)
out=${OUT:-/tmp/zc_out}
mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv > "$out/gpu.txt" 2>&1
nvcc --version | tail -2 >> "$out/gpu.txt"
lscpu | grep "Model name" >> "$out/gpu.txt"
cat "$out/gpu.txt"
maps="m1 m2 m3 m6"
for m in $maps; do
  ( cmake -S "$here/gen/$m" -B "$here/gen/$m/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ \
      -DCMAKE_CUDA_HOST_COMPILER=g++ -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CXX_FLAGS=-Werror \
      -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" > "$out/build_$m.log" 2>&1 &&
    cmake --build "$here/gen/$m/build" -j 4 >> "$out/build_$m.log" 2>&1; echo "build $m rc=$?" ) &
done
nvcc -std=c++20 -O2 -arch=sm_90 -I"$root/runtime/include" "$root/bench/dynamic/fir.cu" -o "$here/fir" > "$out/build_fir.log" 2>&1 &
wait
echo "fir bench build rc=$([[ -x $here/fir ]] && echo 0 || echo 1)"
status=0
for m in $maps; do
  app="$here/gen/$m/build/app"
  [[ -x $app ]] || { echo "no app for $m"; tail -20 "$out/build_$m.log"; status=1; continue; }
  for s in overlap no-overlap; do
    flag=""; [[ $s == no-overlap ]] && flag=--no-overlap
    # correctness: the sink checks every sample against the sequential filter
    timeout 60 "$app" --iterations 3000 $flag > "$out/run_${m}_$s.log" 2>&1
    rc=$?; echo "run $m $s rc=$rc"; [[ $rc == 0 ]] || { tail -5 "$out/run_${m}_$s.log"; status=1; }
    # timing: three runs, period only
    for r in 1 2 3; do
      timeout 60 "$app" --iterations 5000 $flag --stats=period --stats-json "$out/stats_${m}_${s}_$r.json" > "$out/period_${m}_${s}_$r.txt" 2>&1
      grep -h "iteration period" "$out/period_${m}_${s}_$r.txt" | sed "s/^/$m $s run $r: /"
    done
  done
done
if [[ -x $here/fir ]]; then
  timeout 240 "$here/fir" --samples 320000 --reps 3 --mappings m1,m2,m3,m6 --csv "$out/fir_bench.csv" > "$out/fir_bench.txt" 2>&1
  echo "fir bench rc=$?"; cat "$out/fir_bench.txt" | tail -30
fi
exit $status
