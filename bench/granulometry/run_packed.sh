#!/usr/bin/env bash
# run_packed.sh: on a GPU machine, in one go: builds and runs packed_check (the packed openings
# against the unpacked definition on random volumes, then their time per 256^3 volume for each
# tiling), builds and runs dfgc's one-GPU program (bench/granulometry/single_gpu.dfg, both halves on
# A.g0, split 20) in both strategies, runs the PyTorch version (eager and torch.compile), checks
# that the three agree on the curves of the Reader's volumes 0 and 4, and prints the ratios.
#
#   bench/granulometry/run_packed.sh GENERATED_DIR
#
# GENERATED_DIR: `dfgc compile bench/granulometry/single_gpu.dfg --app granulometry_single_gpu -o DIR`
# made where dfgc runs. Results (logs, CSVs, summary.md) under $OUT, else under
# bench/results/granulometry-packed-<date>/, which git ignores: what is kept goes to
# bench/results/granulometry/<device>-<date>-packed/ (bench/results/README.md).
# Environment: ITERATIONS (dfgc program, default 1000), TORCH_REPS (default 10), GIT_COMMIT.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# -eq 1 && -f $1/CMakeLists.txt ]] || { echo "usage: $0 GENERATED_DIR (a dfgc project of single_gpu.dfg)" >&2; exit 1; }
generated=$(cd "$1" && pwd)
out=${OUT:-$here/../results/granulometry-packed-$(date -u +%Y-%m-%d)}
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
iterations=${ITERATIONS:-1000}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | sed -n 1p)
{
  echo "gpu=$gpu (driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | sed -n 1p))"
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit=${GIT_COMMIT:-unknown}"
  echo "nvcc=$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
  echo "torch=$(python3 -c 'import torch; print(torch.__version__)')"
} | tee "$out/machine.txt"

build=$(mktemp -d)
nvcc -std=c++20 -O3 -arch=sm_90 -Xcompiler=-Wall,-Wextra "$here/packed_check.cu" -o "$build/packed_check" 2>&1 |
  tee "$out/build-check.log"
status=0
"$build/packed_check" --csv "$out/packed_check.csv" 2>&1 | tee "$out/packed_check.log" || status=1

# The program with the fastest tiling of packed_check (PACKED_TILE_EDGE/STEPS: the actors' default
# unless set).
tiling=$(awk -F, '$1 == "packed" && (best == "" || $4 < best) { best = $4; e = $2; s = $3 } END { print e, s }' \
  "$out/packed_check.csv")
read -r edge steps <<<"$tiling"
echo "tiling=$edge/$steps (fastest of packed_check)" | tee -a "$out/machine.txt"
(cmake -S "$generated" -B "$build/app" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_FLAGS="-DPACKED_TILE_EDGE=$edge -DPACKED_TILE_STEPS=$steps" &&
  cmake --build "$build/app" -j 8) >"$out/build-app.log" 2>&1 || { tail -n 30 "$out/build-app.log"; exit 1; }
grep -i warning "$out/build-app.log" && { echo "run_packed: warnings building the dfgc program" >&2; exit 1; }
for strategy in overlap no-overlap; do
  flag=()
  [[ $strategy == no-overlap ]] && flag=(--no-overlap)
  "$build/app/app" --iterations "$iterations" "${flag[@]}" --stats 2>&1 | tee "$out/app-$strategy.log" || status=1
done

PYTHONUNBUFFERED=1 python3 "$here/torch_openings.py" --reps "${TORCH_REPS:-10}" --csv "$out/torch.csv" 2>&1 |
  tee "$out/torch.log" || status=1

python3 - "$out" "$iterations" <<'EOF'
import csv, re, sys
out, iterations = sys.argv[1], sys.argv[2]
log = open(f"{out}/app-overlap.log").read()
period = {s: float(re.search(r"iteration period: ([0-9.]+) ms", open(f"{out}/app-{s}.log").read()).group(1))
          for s in ("overlap", "no-overlap")}
firing = {n: float(re.search(rf"firing\s+{n} \(\w+\)\s+\S+\s+\d+\s+([0-9.]+)", log).group(1))
          for n in ("read", "head", "tail")}
app_curves = dict(re.findall(r"granulometry: iteration (\d+), curve ([0-9a-f]+)", log))
torch_log = open(f"{out}/torch.log").read()
torch_curves = dict(re.findall(r"curve volume (\d+) ([0-9a-f]+)", torch_log))
same = app_curves.get("0") == torch_curves.get("0") and app_curves.get("100") == torch_curves.get("4")
t = {r["variant"]: float(r["median_ms"]) for r in csv.DictReader(open(f"{out}/torch.csv"))}
p = [r for r in csv.DictReader(open(f"{out}/packed_check.csv")) if r["variant"] == "packed"]
best = min(p, key=lambda r: float(r["median_ms"]))
unpacked = [float(r["median_ms"]) for r in csv.DictReader(open(f"{out}/packed_check.csv")) if r["variant"] == "unpacked"]
bound = 0.5
lines = [
    "| what | ms per 256^3 volume | torch.compile / this | this / 0.5 ms bound |",
    "| --- | --- | --- | --- |",
]
def row(name, ms):
    lines.append(f"| {name} | {ms:.3f} | {t['torch.compile'] / ms:.1f}x | {ms / bound:.1f}x |")
row(f"dfgc one GPU, packed (period, overlap, {iterations} iterations)", period["overlap"])
row("dfgc one GPU, packed (period, no overlap)", period["no-overlap"])
row("dfgc one GPU, packed (GPU firings: head + tail, overlap)", firing["head"] + firing["tail"])
lines.append(f"| (Reader firing on the CPU, overlapped: {firing['read']:.3f} ms) | | | |")
row(f"packed openings alone (pack + 40 openings, tiling {best['edge']}/{best['steps']})", float(best["median_ms"]))
for r in p:
    row(f"  tiling edge {r['edge']}, {r['steps']} steps per launch", float(r["median_ms"]))
if unpacked:
    row("former unpacked kernels alone (40 openings)", unpacked[0])
row("PyTorch eager", t["torch eager"])
row("torch.compile", t["torch.compile"])
lines.append("")
lines.append(f"curves: dfgc program {app_curves.get('0')}/{app_curves.get('100')} (iterations 0/100), "
             f"PyTorch {torch_curves.get('0')}/{torch_curves.get('4')} (volumes 0/4): {'identical' if same else 'DIFFERENT'}")
text = "\n".join(lines)
open(f"{out}/summary.md", "w").write(text + "\n")
print(text)
sys.exit(0 if same else 1)
EOF
exit "$status"
