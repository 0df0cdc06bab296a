#!/bin/bash
# graphs after a delay's initial cycles: every check, then periods graphs vs --no-graphs
set -u
bash bench/overlap/graph_cycles_run.sh build/dev/gc "$OUT/graph_cycles" >/dev/null 2>&1
grep -E "checked:|fails=|SUMMARY|default" "$OUT/graph_cycles/log.txt"
for p in iir iir_d3 gac; do
  (cmake -S build/dev/$p -B build/dev/$p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DCMAKE_CXX_FLAGS=-Werror -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null &&
    cmake --build build/dev/$p/build -j 5 2>&1 | grep -iE "warning|error") &
done
wait
mkdir -p "$OUT/periods"
for n in 1 2 3 4 5 7 1000; do
  for p in iir iir_d3 gac; do
    for f in "" --no-graphs; do
      build/dev/$p/build/app --iterations $n $f >"$OUT/periods/o.txt" 2>&1 || { echo "FAIL $p $n $f: $(tail -2 "$OUT/periods/o.txt")"; }
    done
  done
done
echo "== periods us (20000 iterations), 3 rounds"
for r in 1 2 3; do
  for p in iir iir_d3 gac; do
    for f in "" --no-graphs; do
      if build/dev/$p/build/app --iterations 20000 --stats=period --stats-json "$OUT/periods/s.json" $f >"$OUT/periods/o.txt" 2>&1; then
        echo "round $r $p ${f:-graphs}: $(python3 -c 'import json,sys; print("%.3f" % (json.load(open(sys.argv[1]))["period_s"]*1e6))' "$OUT/periods/s.json")"
      else echo "round $r $p ${f:-graphs}: FAIL $(tail -2 "$OUT/periods/o.txt")"; fi
    done
  done
done
timeout 120 compute-sanitizer --tool memcheck build/dev/iir_d3/build/app --iterations 200 2>&1 | tail -1
timeout 120 compute-sanitizer --tool racecheck build/dev/iir_d3/build/app --iterations 200 2>&1 | tail -1
bash bench/checkpoint/gpu_run.sh build/dev/ck "$OUT/checkpoint" >/dev/null 2>&1
grep -vE "^\s*$" "$OUT/checkpoint/log.txt" | tail -14
