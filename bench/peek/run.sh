#!/bin/bash
# The cost of a peek window (docs/language.md, "Peek windows") against an actor that keeps its own
# history, and test/generated/peek_gpu.dfg's windows on a GPU:
#
#     bench/peek/run.sh generate DIR [DFGC]   # here: the projects, for B = 256, 4096, 65536
#     bench/peek/run.sh run DIR OUT           # on the lent machine
#
# run builds every project (warnings as errors), then, for each B, runs the FIR through a window
# and the FIR with its own history (bench/peek/fir.dfg) on a CPU core and on the GPU, interleaved,
# REPEATS times each (5; --iterations so that a run moves 2^26 samples): each run's throughput
# (--stats=period) and the sink's checksum, which must be equal for both FIRs. It prints the
# median periods (us an iteration) and window / own per B and PE kind. Then test/generated/peek_gpu.dfg: both
# filters on the GPU checked against the formula with CUDA graphs, --no-graphs, --no-overlap and
# --sync=barrier, a checkpoint and its restart (the windows' histories on the device), and under
# compute-sanitizer memcheck and racecheck; samples/decimate/one_gpu.dfg
# (the low-pass filter's window on the GPU, the smoother's on a core) against its reference.
# Results under OUT: log.txt, periods.csv (b,pe,fir,repeat,iterations_per_s,checksum).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
sizes=(256 4096 65536)
case ${1:-} in
  generate)
    dir=${2:?usage: run.sh generate DIR [DFGC]}
    dfgc=${3:-$root/build/release/bin/dfgc}
    rm -rf "$dir" && mkdir -p "$dir"
    for b in "${sizes[@]}"; do
      for pe in cpu gpu; do
        for fir in window own; do
          "$dfgc" compile "$here/fir_$pe.dfg" --app="${fir}_$pe" -D B="$b" -o "$dir/${fir}_${pe}_$b" || exit 1
        done
      done
    done
    "$dfgc" compile "$root/test/generated/peek_gpu.dfg" -o "$dir/peek_gpu" || exit 1
    "$dfgc" compile "$root/samples/decimate/one_gpu.dfg" -o "$dir/decimate_gpu" || exit 1
    exit 0
    ;;
  run) ;;
  *)
    echo "usage: run.sh generate DIR [DFGC] | run.sh run DIR OUT" >&2
    exit 2
    ;;
esac
dir=${2:?usage: run.sh run DIR OUT} out=${3:?usage: run.sh run DIR OUT}
repeats=${REPEATS:-5}
# shellcheck source=bench/gpu_project.sh
. "$here/../gpu_project.sh"
start_results "$dir" "$out" "run.sh run DIR OUT"
fails=0
for project in "$dir"/*/; do
  build_gpu_project "${project%/}" >/dev/null || { echo "FAIL: build ${project%/}"; fails=1; }
done
echo "b,pe,fir,repeat,iterations_per_s,checksum" >"$out/periods.csv"
for b in "${sizes[@]}"; do
  iterations=$(((1 << 26) / b))
  for pe in cpu gpu; do
    for ((r = 0; r < repeats; ++r)); do
      for fir in window own; do
        app=$dir/${fir}_${pe}_$b/build/app
        "$app" --iterations "$iterations" --stats=period >"$out/run.txt" 2>&1 || {
          echo "FAIL: $fir $pe B=$b: $(tail -3 "$out/run.txt")"
          fails=1
        }
        throughput=$(sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p' "$out/run.txt")
        checksum=$(sed -n 's/^checksum: //p' "$out/run.txt")
        echo "$b,$pe,$fir,$r,$throughput,$checksum" >>"$out/periods.csv"
      done
    done
  done
done
python3 - "$out/periods.csv" <<'PYEOF' || fails=1
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = False
print(f"{'B':>6} {'pe':>4} {'window us':>10} {'own us':>10} {'window/own':>10}  checksums")
for b in sorted({int(r["b"]) for r in rows}):
    for pe in ("cpu", "gpu"):
        sel = [r for r in rows if int(r["b"]) == b and r["pe"] == pe]
        med = {f: statistics.median(1e6 / float(r["iterations_per_s"]) for r in sel if r["fir"] == f)
               for f in ("window", "own")}
        sums = {r["checksum"] for r in sel}
        same = len(sums) == 1
        bad |= not same
        print(f"{b:>6} {pe:>4} {med['window']:>10.4f} {med['own']:>10.4f} "
              f"{med['window'] / med['own']:>10.3f}  {'equal' if same else 'DIFFER: ' + ' '.join(sums)}")
sys.exit(1 if bad else 0)
PYEOF
app=$dir/peek_gpu/build/app
for mode in "" "--no-graphs" "--no-overlap" "--sync=barrier"; do
  for iterations in 1 3 1000; do
    # shellcheck disable=SC2086
    "$app" --iterations $iterations $mode >"$out/run.txt" 2>&1 || fails=1
    grep -qx "check: $iterations iterations, all equal" "$out/run.txt" ||
      { echo "FAIL: peek_gpu '$mode' $iterations: $(tail -2 "$out/run.txt")"; fails=1; }
  done
  echo "peek_gpu '$mode': checked"
done
app=$dir/decimate_gpu/build/app
for mode in "" "--no-graphs" "--no-overlap"; do
  # shellcheck disable=SC2086
  "$app" --iterations 1000 $mode >"$out/run.txt" 2>&1 || fails=1
  grep -x "decimate: 256000 samples checked, all equal" "$out/run.txt" ||
    { echo "FAIL: decimate '$mode': $(tail -2 "$out/run.txt")"; fails=1; }
done
app=$dir/peek_gpu/build/app
rm -f "$out/ck"
"$app" --iterations 57 --checkpoint "$out/ck" --checkpoint-every 10 >"$out/run.txt" 2>&1 || fails=1
"$app" --iterations 57 --restart "$out/ck" >"$out/run.txt" 2>&1 || fails=1
grep -qx "check: 57 iterations, all equal" "$out/run.txt" ||
  { echo "FAIL: peek_gpu restart: $(tail -2 "$out/run.txt")"; fails=1; }
echo "peek_gpu checkpoint at 50 and restart: $(grep check: "$out/run.txt")"
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool "$app" --iterations 200 >"$out/$tool.txt" 2>&1 || fails=1
  grep -x "check: 200 iterations, all equal" "$out/$tool.txt" || fails=1
  tail -1 "$out/$tool.txt"
done
echo "fails=$fails"
