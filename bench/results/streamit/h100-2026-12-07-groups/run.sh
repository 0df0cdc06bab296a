#!/bin/bash
# Port groups on a GPU, and BeamFormer on one core and eight: builds, checks, timings.
set -u
d=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/out}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
cmake -S "$d/groups_gpu" -B "$d/groups_gpu/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CXX_FLAGS=-Werror -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null &&
  cmake --build "$d/groups_gpu/build" -j 16 2>&1 | grep -iE "warning|error"
for p in bf_one bf_cores rx_one; do
  cmake -S "$d/$p" -B "$d/$p/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-Werror >/dev/null &&
    cmake --build "$d/$p/build" -j 16 2>&1 | grep -iE "warning|error"
done
cmake -S "$d/rx_gpu" -B "$d/rx_gpu/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CXX_FLAGS=-Werror -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null &&
  cmake --build "$d/rx_gpu/build" -j 16 2>&1 | grep -iE "warning|error"
"$d/rx_one/build/app" --iterations 1000 >"$out/rx_one.txt" 2>&1; echo "rx one core: exit $? $(tail -1 "$out/rx_one.txt")"
for mode in "" "--no-overlap" "--sync=barrier"; do
  # shellcheck disable=SC2086
  "$d/rx_gpu/build/app" --iterations 1000 $mode >"$out/rx_gpu.txt" 2>&1
  echo "rx gpu '$mode': exit $? $(cmp -s "$out/rx_one.txt" "$out/rx_gpu.txt" && echo "same as one core" || tail -2 "$out/rx_gpu.txt")"
done
compute-sanitizer --tool memcheck "$d/rx_gpu/build/app" --iterations 100 >"$out/s.txt" 2>&1
echo "rx gpu memcheck: exit $? $(grep -E 'ERROR SUMMARY' "$out/s.txt")"
app=$d/groups_gpu/build/app
for mode in "" "--no-graphs" "--sync=barrier" "--no-overlap"; do
  # shellcheck disable=SC2086
  "$app" --iterations 1000 $mode >"$out/g.txt" 2>&1
  echo "groups gpu '$mode': exit $? $(tr '\n' ' ' <"$out/g.txt")"
done
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool "$app" --iterations 200 >"$out/s.txt" 2>&1
  echo "groups gpu $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|check' "$out/s.txt" | tr '\n' ' ')"
done
for p in bf_one bf_cores; do
  "$d/$p/build/app" --iterations 100 >"$out/$p.txt" 2>&1
  echo "$p: exit $? $(paste -d ' ' "$out/$p.txt" "$d/reference.out" | awk '{e = ($1 - $2) / $2; if (e < 0) e = -e; if (e > m) m = e; if ($1 == $2) s++} END {print NR " lines, " s " equal, max rel err " m}')"
done
cmp "$out/bf_one.txt" "$out/bf_cores.txt" && echo "bf: one core and eight print the same bytes"
echo "mapping,repeat,iterations_per_s" >"$out/bf_periods.csv"
for r in 0 1 2 3 4; do
  for p in bf_one bf_cores; do
    "$d/$p/build/app" --iterations 32768 --stats=period >"$out/run.txt" 2>&1
    t=$(sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p' "$out/run.txt")
    echo "$p,$r,$t" >>"$out/bf_periods.csv"
  done
done
python3 - "$out/bf_periods.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
med = {m: statistics.median(1e6 / float(r["iterations_per_s"]) for r in rows if r["mapping"] == m and r["iterations_per_s"]) for m in ("bf_one", "bf_cores")}
print(f"beamformer us an iteration (median of 5): one core {med['bf_one']:.3f}, eight cores {med['bf_cores']:.3f}, speed-up {med['bf_one'] / med['bf_cores']:.2f}")
PY
