#!/usr/bin/env bash
# samples/jpeg on the device: the generated decoders (one CPU core; the pixels on a second core;
# the pixels on the GPU) against libjpeg-turbo and nvJPEG, images/s over the seven test images.
set -u
D=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"; B=/tmp/jpegbench; mkdir -p $B
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O/device.txt"; nproc >>"$O/device.txt"
export JPEG_DIR=$D/images
( cmake -S $D/gpu -B $B/gpu -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc >/dev/null && cmake --build $B/gpu -j 6 >$B/gpu.log 2>&1 ) &
( cmake -S $D/cpu -B $B/cpu -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build $B/cpu -j 3 >$B/cpu.log 2>&1 ) &
( cmake -S $D/pixels -B $B/pixels -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build $B/pixels -j 3 >$B/pixels.log 2>&1 ) &
/usr/local/cuda/bin/nvcc -O2 -arch=sm_90 $D/nvjpeg_bench.cu -lnvjpeg -o $B/nvjpeg_bench >$B/nv.log 2>&1 &
g++ -O2 -I$D/inc $D/libjpeg_bench.cpp $D/lib/libjpeg.so.62 -Wl,-rpath,$D/lib -o $B/libjpeg_bench >$B/lj.log 2>&1 &
wait
tail -n 3 $B/*.log >"$O/build_logs.txt"
{
  $B/libjpeg_bench $D/images 2000
  $B/nvjpeg_bench $D/images 1000
  for app in cpu pixels gpu; do
    for strategy in "" --no-overlap; do
      t0=$(date +%s.%N)
      out=$($B/$app/app --iterations 7000 $strategy 2>&1 | tail -1)
      t1=$(date +%s.%N)
      awk -v a="$t0" -v b="$t1" -v n="dfgc $app ${strategy:-overlap}" -v o="$out" 'BEGIN { printf "%s: 7000 images in %.3f s: %.0f images/s (the sink comparing every pixel); %s\n", n, b - a, 7000 / (b - a), o }'
    done
  done
} 2>&1 | tee "$O/results.txt"
