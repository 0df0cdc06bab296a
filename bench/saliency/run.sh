#!/usr/bin/env bash
# The saliency benchmark on the GPU machine: run.sh DIR OUT. DIR holds bench/saliency's files and
# one_gpu/, the project `dfgc compile samples/saliency/one_gpu.dfg` wrote (the machine has no
# dfgc); OUT receives saliency.tgz (every result) and summary.txt.
# For each of 512x512, 720x576 and 1920x1080: the dfgc program checks its first maps against the
# CPU reference (--set CHECK=1), the PyTorch pipeline checks its map against the same reference,
# then both are timed: the dfgc program with frames from host memory (--stats-json), PyTorch with
# its frames on the GPU, eager, in a CUDA graph and under torch.compile (a frame at a time and on
# batches of 8). SIZES="720x576 ..." runs fewer sizes. Then one --profile run at 720x576.
set -euo pipefail
dir=$(cd "$1" && pwd) out=$2
res=$(mktemp -d)
export PYTHONUNBUFFERED=1
cd "$dir"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1
  python3 -c 'import torch; print("torch", torch.__version__)'
  nproc
} | tee "$res/machine.txt"
cmake -S one_gpu -B one_gpu/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$res/build.log" 2>&1
cmake --build one_gpu/build -j "$(nproc)" >>"$res/build.log" 2>&1 || { tail -40 "$res/build.log"; exit 1; }
g++ -std=c++20 -O2 -I one_gpu/actors -I . reference_dump.cpp -o "$res/refdump"
app=one_gpu/build/app
for size in ${SIZES:-512x512 720x576 1920x1080}; do
  w=${size%x*} h=${size#*x}
  checks=2
  [[ $size == 1920x1080 ]] && checks=1
  echo "== $size"
  "$app" --iterations "$checks" --set "W=$w" --set "H=$h" --set CHECK=1 2>&1 | tee -a "$res/check.txt" ||
    echo "FAILED: the dfgc program's check at $size" | tee -a "$res/check.txt"
  "$res/refdump" check "$w" "$h" 0 "$res/ref.bin"
  "$res/refdump" frames "$w" "$h" 16 "$res/frames.bin"
  python3 torch_saliency.py --size "$size" --frames "$res/frames.bin" --check "$res/ref.bin" --iterations 500 \
    --json "$res/torch-$size.json" 2>&1 | tee -a "$res/torch.txt" ||
    echo "FAILED: the PyTorch check at $size" | tee -a "$res/torch.txt"
  "$app" --iterations 3000 --set "W=$w" --set "H=$h" --set CHECK=0 --stats --stats-json "$res/dfgc-$size.json" \
    | tee -a "$res/dfgc.txt"
done
"$app" --iterations 1000 --set CHECK=0 --profile "$res/profile-720x576.json" >/dev/null
rm -f "$res/ref.bin" "$res/frames.bin" "$res/refdump"
python3 report.py "$res" | tee "$res/summary.txt"
cp "$res/summary.txt" "$out/summary.txt"
tar czf "$out/saliency.tgz" -C "$res" .
