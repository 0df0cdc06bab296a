#!/usr/bin/env bash
# merged main on one GPU: gpu_check (tokens both strategies and sync modes, trace, memcheck and
# racecheck) and the two GPU islands (dyn_idct, dyn_fir one_gpu: every output checked by the
# sink, memcheck).
set -u
D=.dev/final
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/gpu_check" "$OUT/islands"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/machine.txt"
for p in idct_gpu fir_gpu; do
  { cmake -S $D/$p -B $D/$p/build -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=$NVCC &&
    cmake --build $D/$p/build -j 6; } > "$OUT/islands/$p.build.txt" 2>&1 &
done
python3 bench/harness.py run $D/gc --results "$OUT/gpu_check" > "$OUT/gpu_check/run.txt" 2>&1; echo "gpu_check rc=$?"
wait
f=$OUT/islands/summary.txt
for p in idct_gpu fir_gpu; do
  for m in overlap no-overlap; do
    for s in neighbours barrier; do
      echo "== $p --$m --sync=$s --iterations 2000" >> $f
      flag=; [ $m = no-overlap ] && flag=--no-overlap
      timeout 60 $D/$p/build/app --iterations 2000 --stats=period $flag --sync=$s >> $f 2>&1; echo "exit $?" >> $f
    done
  done
  echo "== memcheck $p --iterations 40" >> $f
  timeout 100 $CS --tool memcheck --leak-check full $D/$p/build/app --iterations 40 2>&1 | tail -3 >> $f
done
tail -12 "$OUT/gpu_check/run.txt"; grep -E "==|exit|period|ERROR SUMMARY|error" $f | head -60
