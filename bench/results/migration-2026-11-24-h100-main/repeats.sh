#!/usr/bin/env bash
# Repeats of the live GPU <-> CPU-core move (one_gpu, 2 MiB blocks): the largest interval near each
# move against the slower side's median, per run.
set -u
F=${OUT:-/tmp/out}; app=/tmp/b-one_gpu/app
[[ -x $app ]] || { cmake -S .dev/final/one_gpu -B /tmp/b-one_gpu -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/b-one_gpu -j 16 >/dev/null; }
printf 'g:A.c1@1000\ng:A.g0@2000\n' > /tmp/ctl
for rep in 1 2 3 4; do for s in "" --no-overlap; do
  tag=${s:-overlap}; tag=${tag#--}
  DFG_INTERVALS=/tmp/iv_${tag}_$rep.txt timeout 60 $app --iterations 3000 $s --migrate-control /tmp/ctl > /tmp/log_${tag}_$rep.txt 2>&1 || echo "run failed $tag $rep"
  grep -q "each once and in order" /tmp/log_${tag}_$rep.txt || echo "check missing $tag $rep"
done; done
python3 - <<'PY' | tee "$F/repeats.txt"
import statistics
for tag in ("overlap", "no-overlap"):
    for rep in (1, 2, 3, 4):
        iv = {int(a): float(b) for a, b in (l.split() for l in open(f"/tmp/iv_{tag}_{rep}.txt"))}
        med = lambda lo, hi: statistics.median(iv[j] for j in range(lo, hi) if j in iv)
        before, during, after = med(100, 990), med(1010, 1990), med(2010, 2900)
        out = []
        for m, side in ((1000, max(before, during)), (2000, max(during, after))):
            worst = max(iv[j] for j in range(m - 10, m + 11) if j in iv)
            out.append(f"move {m}: {worst:.0f} us = {worst / side:.2f}x")
        print(f"{tag} run {rep}: medians {before:.0f}/{during:.0f}/{after:.0f} us; " + "; ".join(out))
PY
