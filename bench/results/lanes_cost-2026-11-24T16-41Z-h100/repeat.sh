#!/bin/bash
# The cost per cycle of spin_two and spin_three (1-byte tokens, empty firings, overlap and
# --sync=barrier), before (aa39c8b's runtime) and after, five times each, interleaved.
cd "$(dirname "$0")/w"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_btl_vader_single_copy_mechanism
for p in spin_two spin_two.before spin_three spin_three.before; do
  (cmake -S gen/$p -B gen/$p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >/dev/null &&
   cmake --build gen/$p/build -j 4 >/dev/null) &
done
wait
echo "ranks,version,run,overlap_us,overlap_barrier_us"
for np in 2 3; do
  name=$([ $np = 2 ] && echo spin_two || echo spin_three)
  for r in 1 2 3 4 5; do
    for v in before after; do
      dir=gen/$name$([ $v = before ] && echo .before)
      o=$(mpirun --allow-run-as-root --bind-to none -np $np $dir/build/app --iterations 30000 --set S=1 --stats=period | awk '/^throughput/{print 1e6/$2}' | sort -g | tail -1)
      b=$(mpirun --allow-run-as-root --bind-to none -np $np $dir/build/app --iterations 30000 --set S=1 --stats=period --sync=barrier | awk '/^throughput/{print 1e6/$2}' | sort -g | tail -1)
      echo "$np,$v,$r,$o,$b"
    done
  done
done | tee "$OUT/repeat.csv"
