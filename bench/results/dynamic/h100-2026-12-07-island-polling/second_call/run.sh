#!/bin/bash
# One call: build every variant's projects, then interleaved rounds of islands.sh run.
set -u
cd "$(dirname "$0")/../.."
build() {
  cmake -S "$1" -B "$1/build" --no-warn-unused-cli -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DCMAKE_CXX_FLAGS=-Werror -DCMAKE_CUDA_FLAGS="-lineinfo -Xcompiler=-Werror -Werror all-warnings" >/dev/null &&
    cmake --build "$1/build" -j 2 2>&1 | grep -iE "warning|error"
  [ -x "$1/build/app" ] || echo "FAIL: build $1"
}
export -f build
start=$(date +%s)
printf '%s\0' build/ab2/*/*/ | xargs -0 -P 8 -I{} bash -c 'build {}'
echo "built in $(( $(date +%s) - start )) s"
export ITERATIONS=1000 KERNELS=block REPEATS=1
for round in 1 2; do
  for v in main all norings; do
    bash bench/dynamic/islands.sh run build/ab2/$v $OUT/${v}_$round > /dev/null 2>&1
    echo "== $v round $round ($(( $(date +%s) - start )) s)"; cat $OUT/${v}_$round/summary.txt
  done
done
for v in all norings; do
  for p in fir_64_one_gpu decoder_4_parallel_gpu; do
    echo "== racecheck $v $p"
    timeout 60 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 20 build/ab2/$v/$p/build/app --iterations 5 > $OUT/racecheck_${v}_$p.txt 2>&1
    tail -3 $OUT/racecheck_${v}_$p.txt
  done
done
echo "== memcheck all decoder_4_parallel_gpu"
timeout 60 compute-sanitizer --tool memcheck build/ab2/all/decoder_4_parallel_gpu/build/app --iterations 20 2>&1 | tail -3
cd $OUT && tar czf results.tgz */summary.txt */times.csv racecheck_* && rm -rf */ racecheck_*
