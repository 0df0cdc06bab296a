#!/bin/bash
# On the device: FilterBank's dfgc map choice (from a profile of this checkout's machine) against
# the hand mapping on eight cores and one core, interleaved, batch 64; and a profile of one_core
# on the device for the next map.
set -u
cd "$(dirname "$0")"
out=${OUT:-/tmp/out}
for p in one_core_64 cores_64 mapped_64; do
  cmake -S $p -B $p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-Werror >/dev/null &&
    cmake --build $p/build -j 16 2>&1 | grep -iE "warning|error"
  $p/build/app --iterations 1024 > run.txt 2>&1
  head -800 run.txt | cmp -s - <(head -800 reference.out) && echo "$p: equal to reference.out" || echo "FAIL: $p differs"
done
one_core_64/build/app --iterations 262144 --set PRINT=0 --profile "$out/device_profile.json" > /dev/null
echo "mapping,repeat,iterations_per_s,checksum" > "$out/map_periods.csv"
for r in 0 1 2 3 4; do
  for p in one_core_64 cores_64 mapped_64; do
    $p/build/app --iterations 262144 --set PRINT=0 --stats=period > run.txt 2>&1
    t=$(sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p' run.txt)
    c=$(sed -n 's/^filterbank: [0-9]* samples, checksum //p' run.txt)
    echo "$p,$r,$t,$c" >> "$out/map_periods.csv"
  done
done
python3 - "$out/map_periods.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
med = {m: statistics.median(1e6 / float(r["iterations_per_s"]) for r in rows if r["mapping"] == m)
       for m in ("one_core_64", "cores_64", "mapped_64")}
for m, v in med.items(): print(f"{m:12} {v:8.3f} us an iteration, speed-up over one core {med['one_core_64'] / v:5.2f}")
print(f"map's choice over the hand mapping (time): {med['mapped_64'] / med['cores_64']:.3f}")
print("checksums:", "equal" if len({r['checksum'] for r in rows}) == 1 else "DIFFER")
PY
