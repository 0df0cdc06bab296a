#!/usr/bin/env bash
# PyTorch's saliency beside dfgc's, for the benchmark suite: anchor.sh SIZE ITERATIONS. Beside it:
# refdump (reference_dump.cpp built) and torch_saliency.py. Renders 16 frames of the synthetic
# camera and the CPU reference's map of frame 0, checks PyTorch's map against it, then times
# PyTorch eager, in a CUDA graph and under torch.compile (a frame at a time and on batches of 8),
# its frames on the GPU; prints torch_saliency.py's lines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
size=${1:?usage: anchor.sh WxH ITERATIONS} iterations=${2:?usage: anchor.sh WxH ITERATIONS}
w=${size%x*} h=${size#*x}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/refdump" check "$w" "$h" 0 "$work/ref.bin"
"$here/refdump" frames "$w" "$h" 16 "$work/frames.bin"
PYTHONUNBUFFERED=1 python3 "$here/torch_saliency.py" --size "$size" --frames "$work/frames.bin" \
  --check "$work/ref.bin" --iterations "$iterations"
