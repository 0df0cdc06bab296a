#!/bin/bash
set -u
for p in iir iir_d3; do
  (cmake -S build/dev/$p -B build/dev/$p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DCMAKE_CXX_FLAGS=-Werror -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null &&
    cmake --build build/dev/$p/build -j 8 2>&1 | grep -iE "warning|error") &
done
wait
fails=0
for n in 1 2 3 4 5 7 1000; do for f in "" --no-graphs; do
  build/dev/iir_d3/build/app --iterations $n $f >/tmp/o.txt 2>&1 || { fails=1; echo "FAIL iir_d3 $n $f: $(tail -1 /tmp/o.txt)"; }
done; done
echo "iir_d3 checked at 1 2 3 4 5 7 1000 both ways: fails=$fails"
for r in 1 2 3; do for f in "" --no-graphs; do
  build/dev/iir_d3/build/app --iterations 20000 --stats=period --stats-json /tmp/s.json $f >/tmp/o.txt 2>&1 &&
    echo "round $r iir_d3 ${f:-graphs}: $(python3 -c 'import json,sys; print("%.3f" % (json.load(open(sys.argv[1]))["period_s"]*1e6))' /tmp/s.json)" || echo "round $r ${f:-graphs} FAIL"
done; done
for p in iir iir_d3; do
  timeout 60 compute-sanitizer --tool memcheck build/dev/$p/build/app --iterations 200 2>&1 | tail -1
  timeout 60 compute-sanitizer --tool racecheck build/dev/$p/build/app --iterations 200 2>&1 | tail -1
done
timeout 300 bash bench/checkpoint/gpu_run.sh build/dev/ck "$OUT/checkpoint" >/dev/null 2>&1
grep -vE "^\s*$" "$OUT/checkpoint/log.txt" | tail -14
