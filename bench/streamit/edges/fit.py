#!/usr/bin/env python3
"""What an edge between two cores costs, fitted from bench/streamit/edges/run.sh's measurements:

    fit.py DIR OUT [DFGC]

For each batch and mapping it asks `dfgc map --evaluate` (on OUT/profile_BATCH.json, the one-core
profile of that batch) for each core's firings, the number of blocks the core reads from other
cores and their bytes (the model's core reads, docs/costs.md `cores`, evaluated at a latency of
1 us and at a bandwidth of 1 GB/s), and finds the latency and bandwidth of a core read that make
the predicted period, max over cores of (firings + reads x latency + bytes / bandwidth) + the
cycle overhead, closest to the measured median (least squares of the log ratio). It prints each
mapping's measured and predicted period at the fit and with reads costing nothing, and writes
OUT/fit.json.
"""
import csv
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile


def evaluate(dfgc, spec, app, batch, costs):
    out = subprocess.run([dfgc, "map", spec, f"--app={app}", "-D", f"BATCH={batch}", "--no-actors",
                          "--evaluate"] + [f"--costs={c}" for c in costs],
                         check=True, capture_output=True, text=True).stdout
    o = json.loads(out)["overlap"]
    return o["loads_ms"], o["overhead_ms"], o["period_ms"]


def neighbours(dfgc, spec, app, batch, cores):
    """Per core (in `cores`' order), how many other cores it shares an edge with (dfgc dump-ir)."""
    text = subprocess.run([dfgc, "dump-ir", spec, f"--app={app}", "-D", f"BATCH={batch}", "--no-actors"],
                          check=True, capture_output=True, text=True).stdout
    pe = {}
    pairs = set()
    for line in text.splitlines():
        words = line.split()
        if len(words) > 5 and words[0] == "node" and words[4] == "@":
            pe[words[1]] = words[5]
        elif len(words) > 3 and words[0] == "edge" and words[2] == "->":
            a, b = pe[words[1].split(".")[0]], pe[words[3].split(".")[0]]
            if a != b:
                pairs |= {(a, b), (b, a)}
    return [sum(1 for a, _ in pairs if a == c.split()[0]) for c in cores]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    dirname, outdir = sys.argv[1], sys.argv[2]
    dfgc = sys.argv[3] if len(sys.argv) > 3 else os.path.join(here, "../../../build/release/bin/dfgc")
    spec = os.path.join(dirname, "mappings.dfg")
    rows = list(csv.DictReader(open(os.path.join(outdir, "periods.csv"))))
    tmp = tempfile.mkdtemp()
    figures = {"zero": {"latency_us": 0, "bandwidth_GB_s": 1e6},
               "latency": {"latency_us": 1, "bandwidth_GB_s": 1e6},
               "bytes": {"latency_us": 0, "bandwidth_GB_s": 1}}
    files = {}
    for k, v in figures.items():
        files[k] = os.path.join(tmp, k + ".json")
        json.dump({"cores": {"A": v}}, open(files[k], "w"))
    cases = []
    for batch in sorted({int(r["batch"]) for r in rows}):
        profile = os.path.join(outdir, f"profile_{batch}.json")
        for m in dict.fromkeys(r["mapping"] for r in rows):
            if m == "one_core":
                continue
            us = [1e6 / float(r["iterations_per_s"]) for r in rows
                  if int(r["batch"]) == batch and r["mapping"] == m and r["iterations_per_s"]]
            zero, overhead, _ = evaluate(dfgc, spec, m, batch, [profile, files["zero"]])
            lat, _, _ = evaluate(dfgc, spec, m, batch, [profile, files["latency"]])
            byt, _, _ = evaluate(dfgc, spec, m, batch, [profile, files["bytes"]])
            cores = sorted(zero)
            cases.append({
                "batch": batch, "mapping": m, "measured_ms": statistics.median(us) * batch / 1000,
                "overhead_ms": overhead,
                "fire": [zero[c] for c in cores],
                "reads": [round((lat[c] - zero[c]) / 1e-3) for c in cores],
                "bytes": [round((byt[c] - zero[c]) * 1e-3 * 1e9) for c in cores],
                "neighbours": neighbours(dfgc, spec, m, batch, cores)})

    def predict(case, latency_us, gb_s, sync_us=0):
        return case["overhead_ms"] + max(
            f + n * latency_us * 1e-3 + (b / (gb_s * 1e9) * 1e3 if gb_s else 0) + k * sync_us * 1e-3
            for f, n, b, k in zip(case["fire"], case["reads"], case["bytes"], case["neighbours"]))

    def error(*figures):
        return sum(math.log(predict(c, *figures) / c["measured_ms"]) ** 2 for c in cases)

    def rms(*figures):
        return math.sqrt(error(*figures) / len(cases))

    grid_l = [i * 0.01 for i in range(0, 201)]
    grid_bw = [0, 1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 100]
    _, l, bw = min((error(l, bw), l, bw) for l, bw in itertools.product(grid_l, grid_bw))
    print(f"fit: a core read costs {l:.2f} us + bytes / {bw or 'inf'} GB/s "
          f"(rms log error {rms(l, bw):.3f}; {rms(0, 0):.3f} with reads costing nothing)")
    grid_s = [i * 0.02 for i in range(0, 51)]
    _, l3, bw3, s3 = min((error(l, bw, s), l, bw, s) for l, bw, s in
                         itertools.product(grid_l[::2], grid_bw, grid_s))
    print(f"with a cost per neighbouring core as well: {l3:.2f} us + bytes / {bw3 or 'inf'} GB/s a read, "
          f"{s3:.2f} us a neighbour (rms log error {rms(l3, bw3, s3):.3f})")
    print(f"{'batch':>5} {'mapping':>10} {'reads':>6} {'max/core':>8} {'nbrs':>5} {'measured':>9} {'fit':>9} "
          f"{'fit+nbr':>9} {'free':>9}   (ms a cycle)")
    for c in cases:
        print(f"{c['batch']:>5} {c['mapping']:>10} {sum(c['reads']):>6} {max(c['reads']):>8} "
              f"{max(c['neighbours']):>5} {c['measured_ms']:>9.4f} {predict(c, l, bw):>9.4f} "
              f"{predict(c, l3, bw3, s3):>9.4f} {predict(c, 0, 0):>9.4f}")
    # the ranking each model gives, per batch
    for batch in sorted({c["batch"] for c in cases}):
        mine = [c for c in cases if c["batch"] == batch]
        for name, f in (("measured", lambda c: c["measured_ms"]), ("fit", lambda c: predict(c, l, bw)),
                        ("free", lambda c: predict(c, 0, 0))):
            print(f"batch {batch} {name:>8}: " + " ".join(c["mapping"] for c in sorted(mine, key=f)))
    json.dump({"latency_us": l, "bandwidth_GB_s": bw,
               "with_neighbours": {"latency_us": l3, "bandwidth_GB_s": bw3, "neighbour_us": s3},
               "cases": cases},
              open(os.path.join(outdir, "fit.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
