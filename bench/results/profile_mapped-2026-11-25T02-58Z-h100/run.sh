#!/usr/bin/env bash
# One H100 call: build the one_gpu overlap sample at N=16 (1 KiB tokens) with mapped tokens (the
# default) and copied (--mapped-tokens=0), run each strategy with --profile.
set -u
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name --format=csv,noheader > "$OUT/device.txt" 2>&1
for v in mapped copied; do
  P="$here/$v"
  (cmake -S "$P" -B "$P/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null &&
   cmake --build "$P/build" -j16 >/dev/null) > "$OUT/build_$v.log" 2>&1 || { echo "build $v failed"; tail -20 "$OUT/build_$v.log"; continue; }
  for s in overlap no-overlap; do
    flag=""; [ "$s" = no-overlap ] && flag="--no-overlap"
    timeout 40 "$P/build/app" --iterations 20000 $flag --profile "$OUT/profile_${v}_$s.json" > "$OUT/run_${v}_$s.txt" 2>&1
    echo "$v $s rc=$?"
  done
done
ls -la "$OUT"
