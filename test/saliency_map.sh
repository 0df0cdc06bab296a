#!/usr/bin/env bash
# `dfgc map` on the saliency application of the journal paper (section 5.3), with the costs of its
# table 2 at 720x576 and its PCIe 2.0 link figures (samples/saliency/costs.json), on two GPUs
# without peer access (bench/saliency/paper_2010.dfg): saliency_map.sh DFGC ROOT
#  - with a latency bound of 300 ms (a real-time pipeline; the placements that send the frame
#    back and forth between the GPUs take 10 cycles, 327 ms), dfgc picks the paper's cut: the
#    window, the FFTs, the Gabor bank and the interactions on one GPU, the normalisations on the
#    other; period 30.657 ms (the paper measured 33 fps), the second GPU busy 55.7% (paper: 55%);
#  - without the bound, the paper's cut is the best pipeline cut and within 3.3% of the best
#    placement, which runs the window on the normalisations' GPU.
set -euo pipefail
dfgc=$1 root=$2
cd "$root"
fail() { echo "FAIL: $*" >&2; exit 1; }
map() { "$dfgc" map bench/saliency/paper_2010.dfg --costs samples/saliency/costs.json "$@"; }

out=$(map --max-latency=300ms --explain)
echo "$out"
chosen=$(echo "$out" | sed -n '/^chosen/,/^$/p' | grep '^  node' | sed 's/  */ /g')
first=$(echo "$chosen" | awk '$2 == "retina" {print $NF}')
for node in gabor inter; do
  [[ $(echo "$chosen" | awk -v n=$node '$2 == n {print $NF}') == "$first" ]] || fail "$node is not on the GPU of retina"
done
[[ $(echo "$chosen" | awk '$2 == "norm" {print $NF}') != "$first" ]] || fail "norm is on the GPU of retina"
echo "$out" | grep -q '^  period  *30.657 ms' || fail "the period of the paper's cut is not 30.657 ms"
echo "$out" | grep -Eq '^  A\.g[01] firings +17\.074 ms +55\.7%' || fail "the second GPU is not busy 55.7%"

out=$(map)
echo "$out"
echo "$out" | grep -Eq '^  [0-9]+\. period 30\.657 ms \(\+3\.2%\), latency 7 cycles .*: gabor @ A\.g0, inter @ A\.g0, norm @ A\.g1$' ||
  fail "the paper's cut is not among the alternatives"
echo "ok: dfgc map picks the paper's cut"
