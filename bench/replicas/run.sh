#!/usr/bin/env bash
# bench/replicas/run.sh GEN OUT: replicas against one PE, side by side in one call.
#
# GEN holds projects that bench/replicas/generate.sh wrote (dfgc runs where the Clang libraries
# are; this script only builds and runs):
#   saliency_core       samples/saliency/cpu_only.dfg: the whole pipeline on one core
#   saliency_cores      samples/saliency/cores_replicas.dfg: the four stages over four cores
#   saliency_gpu        samples/saliency/one_gpu.dfg
#   saliency_gpus       samples/saliency/two_gpus_replicas.dfg: the four stages over two GPUs
# Each runs REPS times (default 3) at each frame size (CPU_SIZES, GPU_SIZES); a last run per program checks every
# CHECK-th map against the CPU reference (the display stops the program on a mismatch). The GPU
# programs run where nvidia-smi lists enough GPUs (two for saliency_gpus). Prints one line per
# run and the ratios (throughput of the replicas over one PE, medians) into OUT/summary.txt and
# OUT/results.csv.
set -euo pipefail
gen=$1 out=$2
reps=${REPS:-3}
mkdir -p "$out"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU" || true)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
echo "gpus $gpus" | tee "$out/machine.txt"
nproc >>"$out/machine.txt"

build() {  # build NAME
  local dir=$gen/$1
  local flags=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++)
  if grep -q "LANGUAGES.*CUDA" "$dir/CMakeLists.txt"; then
    flags+=(-DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_HOST_COMPILER=g++)
  fi
  cmake -S "$dir" -B "$out/build/$1" "${flags[@]}" >"$out/build_$1.log" 2>&1
  cmake --build "$out/build/$1" -j 8 >>"$out/build_$1.log" 2>&1 || { tail -20 "$out/build_$1.log"; return 1; }
}

echo "program,size,iterations,rep,period_ms,throughput" >"$out/results.csv"
run() {  # run NAME SIZE ITERATIONS
  local name=$1 size=$2 iterations=$3 w=${2%x*} h=${2#*x}
  local app=$out/build/$name/app
  for rep in $(seq 1 "$reps"); do
    "$app" --iterations "$iterations" --set W="$w" --set H="$h" --set CHECK=0 --stats=period \
      >"$out/$name-$size-$rep.txt" 2>&1 || { cat "$out/$name-$size-$rep.txt"; return 1; }
    local period throughput
    period=$(sed -n 's/^iteration period: \([0-9.]*\) ms.*/\1/p' "$out/$name-$size-$rep.txt")
    throughput=$(sed -n 's/^throughput: \([0-9.]*\) iterations.*/\1/p' "$out/$name-$size-$rep.txt")
    echo "$name $size rep $rep: $period ms an iteration, $throughput iterations/s"
    echo "$name,$size,$iterations,$rep,$period,$throughput" >>"$out/results.csv"
  done
  "$app" --iterations 28 --set W="$w" --set H="$h" --set CHECK=7 \
    >"$out/$name-$size-check.txt" 2>&1 || { tail -5 "$out/$name-$size-check.txt"; return 1; }
  echo "$name $size checked: $(grep -c "against the CPU reference" "$out/$name-$size-check.txt") maps equal to the reference"
}

programs=(saliency_core saliency_cores)
(( gpus >= 1 )) && programs+=(saliency_gpu)
(( gpus >= 2 )) && programs+=(saliency_gpus)
for p in "${programs[@]}"; do build "$p"; done
# nvcc builds the two-GPU program even where it cannot run.
(( gpus == 1 )) && build saliency_gpus && echo "saliency_gpus built (not run: one GPU)"
# One core takes about 2.4 s a frame at 720x576 (H200 host): the CPU programs run smaller frames.
for size in ${CPU_SIZES:-180x144}; do
  run saliency_core "$size" "${CPU_ITERATIONS:-40}"
  run saliency_cores "$size" "${CPU_ITERATIONS:-40}"
done
for size in ${GPU_SIZES:-720x576 1920x1080}; do
  if (( gpus >= 1 )); then run saliency_gpu "$size" "${GPU_ITERATIONS:-2000}"; fi
  if (( gpus >= 2 )); then run saliency_gpus "$size" "${GPU_ITERATIONS:-2000}"; fi
done
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/results.csv")))
med = {}
for r in rows:
    med.setdefault((r["program"], r["size"]), []).append(float(r["throughput"]))
med = {k: statistics.median(v) for k, v in med.items()}
for (p, s), v in sorted(med.items()):
    print(f"{p} {s}: {v:.1f} iterations/s (median of {sum(1 for r in rows if (r['program'], r['size']) == (p, s))})")
for one, many, what in (("saliency_core", "saliency_cores", "four cores of replicas / one core"),
                        ("saliency_gpu", "saliency_gpus", "two GPUs of replicas / one GPU")):
    for (p, s), v in sorted(med.items()):
        if p == many and (one, s) in med:
            print(f"ratio {s} {what}: {v / med[(one, s)]:.2f}")
PY
