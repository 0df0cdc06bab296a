#!/bin/bash
# StreamIt's FilterBank and FMRadio (samples/streamit/filterbank, fmradio) on eight CPU cores
# against one, per batch:
#
#     bench/streamit/run.sh generate DIR [DFGC]   # here: one_core and cores, -D BATCH=64, 256, 1024
#     bench/streamit/run.sh run DIR OUT           # on the lent machine (16 cores or more)
#
# With COSTS_filterbank=FILE or COSTS_fmradio=FILE (a --profile of one_core's batch 64, or any
# costs file), generate also writes `dfgc map`'s choice for the program's free mapping (free.dfg,
# fm_free.dfg: every node `@ any cpu` on eight cores) at batch 64, which run times beside the
# others (mapping "mapped").
#
# run builds every project (warnings as errors) and checks each mapping's outputs against
# StreamIt's reference.out (FilterBank's first 800 lines equal; FMRadio's first line equal and at
# least 9300 of its 10000, samples/streamit/README.md); then, for each program and batch, runs
# one_core and cores interleaved, REPEATS times each (5), with --set PRINT=0 (the sink sums the
# outputs' bits instead of printing them) and --iterations ITERATIONS (262144): each run's
# throughput (--stats=period) and the sink's checksum, which must be equal across mappings and
# batches. It prints the median microseconds an iteration per program, batch and mapping and the
# speed-up one_core / cores (the goal: at least 5 on eight cores). Results under OUT: log.txt,
# periods.csv (program,batch,mapping,repeat,iterations_per_s,checksum).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
programs=(filterbank fmradio)
batches=(64 256 1024)
mappings=(one_core cores)
case ${1:-} in
  generate)
    dir=${2:?usage: run.sh generate DIR [DFGC]}
    dfgc=${3:-$root/build/release/bin/dfgc}
    rm -rf "$dir" && mkdir -p "$dir"
    for p in "${programs[@]}"; do
      for b in "${batches[@]}"; do
        for m in "${mappings[@]}"; do
          "$dfgc" compile "$root/samples/streamit/$p/$m.dfg" -D BATCH="$b" -o "$dir/${p}_${m}_$b" || exit 1
        done
      done
      cp "$root/samples/streamit/$p/reference.out" "$dir/$p.out"
      costs_var=COSTS_$p
      if [ -n "${!costs_var:-}" ]; then
        free=$here/free.dfg
        [ "$p" = fmradio ] && free=$here/fm_free.dfg
        "$dfgc" map "$free" --costs "${!costs_var}" -D BATCH=64 --emit=code -o "$dir/${p}_mapped_64" \
          >"$dir/${p}_mapped_64.txt" || exit 1
      fi
    done
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
iterations=${ITERATIONS:-262144}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
fails=0
for p in "${programs[@]}"; do
  for project in "$dir/${p}"_*/; do
    cmake -S "$project" -B "$project/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-Werror >/dev/null &&
      cmake --build "$project/build" -j 8 2>&1 | grep -iE "warning|error"
    app=$project/build/app
    [ -x "$app" ] || { echo "FAIL: build $project"; fails=1; continue; }
    if [ "$p" = filterbank ]; then
      "$app" --iterations 1024 >"$out/run.txt" 2>&1 || fails=1
      head -800 "$out/run.txt" | cmp -s - <(head -800 "$dir/$p.out") ||
        { echo "FAIL: $project differs from StreamIt's reference.out"; fails=1; }
    else
      "$app" --iterations 11264 >"$out/run.txt" 2>&1 || fails=1
      head -10000 "$out/run.txt" | paste -d ' ' - "$dir/$p.out" |
        awk 'NR == 1 && $1 != $2 { exit 1 } $1 == $2 { n++ } END { exit !(NR == 10000 && n >= 9300) }' ||
        { echo "FAIL: $project differs from StreamIt's reference.out"; fails=1; }
    fi
  done
done
echo "program,batch,mapping,repeat,iterations_per_s,checksum" >"$out/periods.csv"
for p in "${programs[@]}"; do
  for b in "${batches[@]}"; do
    for ((r = 0; r < repeats; ++r)); do
      for m in "${mappings[@]}" mapped; do
        [ -d "$dir/${p}_${m}_$b" ] || continue
        "$dir/${p}_${m}_$b/build/app" --iterations "$iterations" --set PRINT=0 --stats=period \
          >"$out/run.txt" 2>&1 || { echo "FAIL: $p $m batch $b: $(tail -3 "$out/run.txt")"; fails=1; }
        throughput=$(sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p' "$out/run.txt")
        checksum=$(sed -n "s/^$p: [0-9]* samples, checksum //p" "$out/run.txt")
        echo "$p,$b,$m,$r,$throughput,$checksum" >>"$out/periods.csv"
      done
    done
  done
done
python3 - "$out/periods.csv" <<'PYEOF' || fails=1
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = False
print(f"{'program':>10} {'batch':>6} {'one_core us':>12} {'cores us':>10} {'speed-up':>9} {'mapped us':>10} {'speed-up':>9}"
      "   (us an iteration, median)")
for p in sorted({r["program"] for r in rows}):
    mine = [r for r in rows if r["program"] == p]
    if len({r["checksum"] for r in mine}) != 1 or any(not r["iterations_per_s"] for r in mine):
        bad = True
        print(f"{p}: checksums DIFFER " + " ".join(sorted({r['checksum'] for r in mine})))
    for b in sorted({int(r["batch"]) for r in mine}):
        med = {m: statistics.median(1e6 / float(r["iterations_per_s"]) for r in mine
                                    if int(r["batch"]) == b and r["mapping"] == m and r["iterations_per_s"])
               for m in ("one_core", "cores", "mapped")
               if any(int(r["batch"]) == b and r["mapping"] == m for r in mine)}
        line = f"{p:>10} {b:>6} {med['one_core']:>12.3f} {med['cores']:>10.3f} {med['one_core'] / med['cores']:>9.2f}"
        if "mapped" in med:
            line += f" {med['mapped']:>10.3f} {med['one_core'] / med['mapped']:>9.2f}"
            line += f"   mapped / cores {med['mapped'] / med['cores']:.3f}"
        print(line)
print("checksums:", "equal within each program" if not bad else "DIFFER")
sys.exit(1 if bad else 0)
PYEOF
echo "fails=$fails"
