#!/bin/bash
# A GPU window's firing time and period, two dfgc builds side by side (a change to
# dfg/cuda/peek_window.hpp against the committed one):
#
#     bench/peek/run.sh generate BEFORE DFGC_BEFORE    # here, for each build
#     bench/peek/run.sh generate AFTER DFGC_AFTER
#     bench/peek/firings.sh BEFORE AFTER OUT           # on the lent machine
#
# For B = 4096 and 65536, interleaved REPEATS times (5): the FIR through a window from each build
# and the FIR with its own history (bench/peek/fir.dfg, on the GPU), each run once with --stats
# (call by call, no CUDA graphs: the firing's mean, min and max ms) and once with --stats=period
# (CUDA graphs: us an iteration); the sink's checksum must be equal in all of them. Results under
# OUT: log.txt, firings.csv (b,build,fir,repeat,firing_mean_ms,firing_min_ms,us_per_iteration,
# checksum) and the medians.
set -u
here=$(cd "$(dirname "$0")" && pwd)
before=${1:?usage: firings.sh BEFORE AFTER OUT} after=${2:?usage: firings.sh BEFORE AFTER OUT}
out=${3:?usage: firings.sh BEFORE AFTER OUT}
repeats=${REPEATS:-5}
# shellcheck source=bench/gpu_project.sh
. "$here/../gpu_project.sh"
start_results "$before" "$out" "firings.sh BEFORE AFTER OUT"
fails=0
runs=()
for b in 4096 65536; do
  runs+=("$b before window_gpu_$b" "$b after window_gpu_$b" "$b before own_gpu_$b")
done
for run in "${runs[@]}"; do
  read -r b build project <<<"$run"
  dir=$before
  [ "$build" = after ] && dir=$after
  build_gpu_project "$dir/$project" >/dev/null || { echo "FAIL: build $dir/$project"; fails=1; }
done
echo "b,build,fir,repeat,firing_mean_ms,firing_min_ms,us_per_iteration,checksum" >"$out/firings.csv"
for ((r = 0; r < repeats; ++r)); do
  for run in "${runs[@]}"; do
    read -r b build project <<<"$run"
    dir=$before
    [ "$build" = after ] && dir=$after
    app=$dir/$project/build/app
    iterations=$(((1 << 26) / b))
    "$app" --iterations "$iterations" --stats >"$out/run.txt" 2>&1 || fails=1
    # firing  f (FirWindow)  A.g0  COUNT MEAN MIN MAX
    read -r mean min < <(awk '$1 == "firing" && $2 == "f" && $4 == "A.g0" { print $6, $7 }' "$out/run.txt")
    sum1=$(sed -n 's/^checksum: //p' "$out/run.txt")
    "$app" --iterations "$iterations" --stats=period >"$out/run.txt" 2>&1 || fails=1
    throughput=$(sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p' "$out/run.txt")
    sum2=$(sed -n 's/^checksum: //p' "$out/run.txt")
    [ "$sum1" = "$sum2" ] || { echo "FAIL: $build $project: checksums $sum1 $sum2"; fails=1; }
    echo "$b,$build,${project%%_*},$r,$mean,$min,$(python3 -c "print(1e6 / float('${throughput:-nan}'))"),$sum1" >>"$out/firings.csv"
  done
done
python3 - "$out/firings.csv" <<'PYEOF' || fails=1
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = False
print(f"{'B':>6} {'run':>14} {'firing ms':>10} {'min ms':>8} {'us/iter':>9}")
for b in sorted({int(r["b"]) for r in rows}):
    sel = [r for r in rows if int(r["b"]) == b]
    for key in (("before", "window"), ("after", "window"), ("before", "own")):
        mine = [r for r in sel if (r["build"], r["fir"]) == key]
        med = lambda f: statistics.median(float(r[f]) for r in mine)
        print(f"{b:>6} {key[0] + ' ' + key[1]:>14} {med('firing_mean_ms'):>10.4f} "
              f"{med('firing_min_ms'):>8.4f} {med('us_per_iteration'):>9.2f}")
    sums = {r["checksum"] for r in sel}
    bad |= len(sums) != 1
    print(f"{b:>6} checksums {'equal' if len(sums) == 1 else 'DIFFER: ' + ' '.join(sums)}")
sys.exit(1 if bad else 0)
PYEOF
echo "fails=$fails"
