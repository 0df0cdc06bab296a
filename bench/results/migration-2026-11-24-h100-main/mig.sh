#!/usr/bin/env bash
# Migration on the lent GPU: a GPU node moved to a CPU core and back live (one_gpu), and between
# two ranks sharing the GPU live (two_hosts_gpu), per-iteration output intervals; compute-sanitizer
# on one live back-and-forth.
set -u
here=$(cd "$(dirname "$0")" && pwd)
final=${OUT:-/tmp/out}
out=/tmp/res
rm -rf "$out"
mkdir -p "$out" "$final"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
build() {
  cmake -S "$here/$1" -B "/tmp/b-$1" -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >"$out/cmake-$1.txt" 2>&1 &&
    cmake --build "/tmp/b-$1" -j 16 >"$out/build-$1.txt" 2>&1 || { tail -30 "$out/build-$1.txt" "$out/cmake-$1.txt"; return 1; }
}
r1=0 r2=0
if [[ ! -x /tmp/b-one_gpu/app || ! -x /tmp/b-two_gpu/app ]]; then
  build one_gpu & b1=$!
  build two_gpu & b2=$!
  wait $b1; r1=$?; wait $b2; r2=$?
fi
echo "builds: $r1 $r2"
app=/tmp/b-one_gpu/app
if [[ $r1 == 0 ]]; then
  for s in "" --no-overlap; do
    tag=${s:-overlap}; tag=${tag#--}
    DFG_INTERVALS="$out/one_steady_$tag.txt" timeout 60 $app --iterations 3000 $s > "$out/one_steady_$tag.log" 2>&1; echo "one steady $tag rc=$?"
    printf 'g:A.c1@1000\ng:A.g0@2000\n' > /tmp/ctl1
    DFG_INTERVALS="$out/one_live_$tag.txt" timeout 60 $app --iterations 3000 $s --migrate-control /tmp/ctl1 > "$out/one_live_$tag.log" 2>&1; echo "one live $tag rc=$?"
  done
  printf 'g:A.c1@100\ng:A.g0@200\n' > /tmp/ctl2
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  timeout 100 $cs --tool memcheck --error-exitcode 9 $app --iterations 300 --migrate-control /tmp/ctl2 > "$out/sanitizer.txt" 2>&1; echo "memcheck rc=$?"
  tail -n 4 "$out/sanitizer.txt"
fi
app=/tmp/b-two_gpu/app
mpi=$(command -v mpiexec || command -v mpirun)
echo "mpi: $mpi"
if [[ $r2 == 0 && -n $mpi ]]; then
  for s in "" --no-overlap; do
    tag=${s:-overlap}; tag=${tag#--}
    DFG_INTERVALS="$out/two_steady_$tag.txt" timeout 60 $mpi -n 2 $app --iterations 3000 $s > "$out/two_steady_$tag.log" 2>&1; echo "two steady $tag rc=$?"
    printf 'g:A.g0@1000\ng:B.g0@2000\n' > /tmp/ctl3
    DFG_INTERVALS="$out/two_live_$tag.txt" timeout 60 $mpi -n 2 $app --iterations 3000 $s --migrate-control /tmp/ctl3 > "$out/two_live_$tag.log" 2>&1; echo "two live $tag rc=$?"
  done
fi
tail -n 3 "$out"/*.log

cp -r "$out"/. "$final"/
