#!/bin/bash
# A parallel action on a CPU (docs/language.md, "Parallel actions on a CPU") against the same
# passes as steps: samples/dyn_idct/idct_parallel_core.dfg against idct_core.dfg on one core.
#
#     bench/dynamic/cpu_parallel.sh generate DIR [DFGC]   # here: B = 4, 64 and 256 blocks
#     bench/dynamic/cpu_parallel.sh run DIR OUT           # on the lent machine (or here)
#
# Each program at each B runs REPEATS times (5), interleaved, 2^20 blocks a run (--stats=period);
# the sink checks every pixel, and its line must be equal for both programs. Prints the median us
# an iteration and steps / parallel per B; OUT/log.txt, OUT/periods.csv (b,program,repeat,
# iterations_per_s,check).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
sizes=(4 64 256)
case ${1:-} in
  generate)
    dir=${2:?usage: cpu_parallel.sh generate DIR [DFGC]}
    dfgc=${3:-$root/build/release/bin/dfgc}
    rm -rf "$dir" && mkdir -p "$dir"
    for b in "${sizes[@]}"; do
      for program in idct_core idct_parallel_core; do
        "$dfgc" compile "$root/samples/dyn_idct/$program.dfg" -D B="$b" -o "$dir/${program}_$b" || exit 1
      done
    done
    exit 0
    ;;
  run) ;;
  *)
    echo "usage: cpu_parallel.sh generate DIR [DFGC] | cpu_parallel.sh run DIR OUT" >&2
    exit 2
    ;;
esac
dir=${2:?usage: cpu_parallel.sh run DIR OUT} out=${3:?usage: cpu_parallel.sh run DIR OUT}
repeats=${REPEATS:-5}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
echo "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
fails=0
for project in "$dir"/*/; do
  if ! cmake -S "$project" -B "$project/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-Werror >/dev/null ||
    ! cmake --build "$project/build" -j 8 >/dev/null; then
    echo "FAIL: build $project"
    fails=1
  fi
done
echo "b,program,repeat,iterations_per_s,check" >"$out/periods.csv"
for b in "${sizes[@]}"; do
  iterations=$(((1 << 20) / b))
  for ((r = 0; r < repeats; ++r)); do
    for program in idct_core idct_parallel_core; do
      "$dir/${program}_$b/build/app" --iterations "$iterations" --stats=period >"$out/run.txt" 2>&1 ||
        { echo "FAIL: $program B=$b: $(tail -2 "$out/run.txt")"; fails=1; }
      throughput=$(sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p' "$out/run.txt")
      check=$(grep '^idct checked:' "$out/run.txt")
      echo "$b,$program,$r,$throughput,$check" >>"$out/periods.csv"
    done
  done
done
python3 - "$out/periods.csv" <<'PYEOF' || fails=1
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = False
print(f"{'B':>5} {'steps us':>10} {'parallel us':>12} {'steps/parallel':>15}  check")
for b in sorted({int(r["b"]) for r in rows}):
    sel = [r for r in rows if int(r["b"]) == b]
    med = {p: statistics.median(1e6 / float(r["iterations_per_s"]) for r in sel if r["program"] == p)
           for p in ("idct_core", "idct_parallel_core")}
    checks = {r["check"] for r in sel}
    bad |= len(checks) != 1
    print(f"{b:>5} {med['idct_core']:>10.3f} {med['idct_parallel_core']:>12.3f} "
          f"{med['idct_core'] / med['idct_parallel_core']:>15.2f}  {'equal' if len(checks) == 1 else 'DIFFER'}")
sys.exit(1 if bad else 0)
PYEOF
echo "fails=$fails"
