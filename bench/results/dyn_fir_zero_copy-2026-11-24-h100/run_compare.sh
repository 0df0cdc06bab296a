#!/usr/bin/env bash
# The FIR mappings m2, m3, m6 generated from their specs twice: zero-copy (mapped rings, the
# default) and copied (dfgc compile --fifos=copied). Builds all six, then runs each in both
# strategies, twice, timing the period; the sink checks every output against the sequential FIR
# (a difference exits non-zero).
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/zc_out}
mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv > "$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
maps="m2 m3 m6"
for m in $maps; do
  for f in zero_copy copied; do
    d="$here/gen/${m}_$f"
    ( cmake -S "$d" -B "$d/build" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CUDA_HOST_COMPILER=g++ \
        -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CXX_FLAGS=-Werror \
        -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" > "$out/build_${m}_$f.log" 2>&1 &&
      cmake --build "$d/build" -j 3 >> "$out/build_${m}_$f.log" 2>&1; echo "build ${m} $f rc=$?" ) &
  done
done
wait
status=0
echo "mapping,fifos,strategy,run,iterations,period_ms,rc" > "$out/periods.csv"
for m in $maps; do
  for s in overlap no-overlap; do
    flag=""; [[ $s == no-overlap ]] && flag=--no-overlap
    for r in 1 2; do
      for f in zero_copy copied; do
        app="$here/gen/${m}_$f/build/app"
        [[ -x $app ]] || { echo "no app ${m}_$f"; status=1; continue; }
        timeout 30 "$app" --iterations 2000 $flag --stats=period > "$out/run_${m}_${f}_${s}_$r.txt" 2>&1
        rc=$?; [[ $rc == 0 ]] || { status=1; tail -3 "$out/run_${m}_${f}_${s}_$r.txt"; }
        p=$(grep -ho "iteration period: [0-9.]* ms" "$out/run_${m}_${f}_${s}_$r.txt" | grep -o "[0-9.]*" | head -1)
        echo "$m,$f,$s,$r,2000,${p:-},$rc" | tee -a "$out/periods.csv"
      done
    done
  done
done
exit $status
