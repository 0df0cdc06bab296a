#!/bin/bash
# Parallel actions on a CPU (docs/language.md, "Parallel actions on a CPU") against the same
# actors as steps, on one core: the IDCT's two passes (samples/dyn_idct/idct_parallel_core.dfg
# against idct_core.dfg, B = 4, 64 and 256 blocks an iteration) and the FIR with every actor a
# parallel action and its delays in rings (samples/dyn_fir/parallel_core.dfg against
# one_core.dfg, N = 64 and 4096 samples an iteration).
#
#     bench/dynamic/cpu_parallel.sh generate DIR [DFGC]   # here
#     bench/dynamic/cpu_parallel.sh run DIR OUT           # on the lent machine (or here)
#
# Each program at each size runs REPEATS times (5), interleaved, 2^20 blocks or 2^24 samples a
# run (--stats=period); the sink checks every output, and its line must be equal for both forms.
# Prints the median us an iteration and steps / parallel per size; OUT/log.txt, OUT/periods.csv
# (program,size,form,repeat,iterations_per_s,check).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# name:sample directory:size param:sizes:steps program:parallel program:elements a run:check line
programs=(
  "idct:dyn_idct:B:4 64 256:idct_core:idct_parallel_core:1048576:idct checked:"
  "fir:dyn_fir:N:64 4096:one_core:parallel_core:16777216:fir checked:"
)
case ${1:-} in
  generate)
    dir=${2:?usage: cpu_parallel.sh generate DIR [DFGC]}
    dfgc=${3:-$root/build/release/bin/dfgc}
    rm -rf "$dir" && mkdir -p "$dir"
    for p in "${programs[@]}"; do
      IFS=: read -r name sample param sizes steps parallel _ _ <<<"$p"
      for size in $sizes; do
        for program in "$steps" "$parallel"; do
          "$dfgc" compile "$root/samples/$sample/$program.dfg" -D "$param=$size" \
            -o "$dir/${name}_${size}_$program" || exit 1
        done
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
echo "program,size,form,repeat,iterations_per_s,check" >"$out/periods.csv"
for p in "${programs[@]}"; do
  IFS=: read -r name _ _ sizes steps parallel elements check_line <<<"$p"
  for size in $sizes; do
    iterations=$((elements / size))
    for ((r = 0; r < repeats; ++r)); do
      for form in steps parallel; do
        program=$steps
        [ "$form" = parallel ] && program=$parallel
        "$dir/${name}_${size}_$program/build/app" --iterations "$iterations" --stats=period \
          >"$out/run.txt" 2>&1 || { echo "FAIL: $name $program $size: $(tail -2 "$out/run.txt")"; fails=1; }
        throughput=$(sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p' "$out/run.txt")
        check=$(grep "^$check_line" "$out/run.txt")
        echo "$name,$size,$form,$r,$throughput,$check" >>"$out/periods.csv"
      done
    done
  done
done
python3 - "$out/periods.csv" <<'PYEOF' || fails=1
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = False
print(f"{'program':>8} {'size':>5} {'steps us':>10} {'parallel us':>12} {'steps/parallel':>15}  check")
for name, size in sorted({(r["program"], int(r["size"])) for r in rows}):
    sel = [r for r in rows if r["program"] == name and int(r["size"]) == size]
    med = {f: statistics.median(1e6 / float(r["iterations_per_s"]) for r in sel if r["form"] == f)
           for f in ("steps", "parallel")}
    checks = {r["check"] for r in sel}
    bad |= len(checks) != 1 or "" in checks
    print(f"{name:>8} {size:>5} {med['steps']:>10.3f} {med['parallel']:>12.3f} "
          f"{med['steps'] / med['parallel']:>15.2f}  {'equal' if len(checks) == 1 else 'DIFFER'}")
sys.exit(1 if bad else 0)
PYEOF
echo "fails=$fails"
