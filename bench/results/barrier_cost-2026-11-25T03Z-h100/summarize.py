#!/usr/bin/env python3
"""Medians (range) of the runs.csv and floor.txt of the calls named (default: call1 call2), pooled:
us per cycle, per ranks, version and strategy; and us per barrier of the floor."""
import csv
import re
import statistics
import sys
from collections import defaultdict

dirs = sys.argv[1:] or ["call1", "call2"]
runs = defaultdict(list)
floor = defaultdict(list)
for d in dirs:
    for row in csv.DictReader(open(f"{d}/runs.csv")):
        if row["period_us"] != "nan":
            key = (int(row["ranks"]), row["version"], row["strategy"])
            runs[key].append(float(row["period_us"]))
    text = open(f"{d}/floor.txt").read()
    for m in re.finditer(r"way=(\w+) ranks=(\d+) round=\d+ us=([\d.]+)", text):
        floor[(int(m[2]), m[1])].append(float(m[3]))
print("# calls: " + " ".join(dirs))


def med(v):
    return statistics.median(v) if v else float("nan")


def cell(v):
    return f"{med(v):.2f} ({min(v):.2f}-{max(v):.2f})" if v else "-"


ways = [w for w in ["ibarrier", "barrier", "dissemination", "shared", "shared_release"]
        if any(k[1] == w for k in floor)]
print("## floor: us per barrier, hand-written loop (mpi_barrier.cpp), rounds of 100000")
print("ranks," + ",".join(ways))
for r in (2, 3, 4):
    print(f"{r}," + ",".join(cell(floor[(r, w)]) for w in ways))
print()
print("## generated spin_{two,three,four}: us per cycle (30000 cycles, empty firings, 1-byte tokens)")
versions = [v for v in ["before", "after", "after_ibarrier", "after_release"]
            if any(k[1] == v for k in runs)]
print("ranks,version,overlap,overlap_barrier,barrier_cost,repeats")
for r in (2, 3, 4):
    for v in versions:
        o, b = runs[(r, v, "overlap")], runs[(r, v, "overlap_barrier")]
        print(f"{r},{v},{cell(o)},{cell(b)},{med(b) - med(o):.2f},{len(b)}")
print()
print("ranks,after/before overlap_barrier,after_ibarrier/before overlap_barrier,"
      "after barrier_cost - floor shared,before barrier_cost - floor ibarrier")
for r in (2, 3, 4):
    b0, b1 = med(runs[(r, "before", "overlap_barrier")]), med(runs[(r, "after", "overlap_barrier")])
    bi = med(runs[(r, "after_ibarrier", "overlap_barrier")])
    c0 = b0 - med(runs[(r, "before", "overlap")])
    c1 = b1 - med(runs[(r, "after", "overlap")])
    print(f"{r},{b1 / b0:.2f},{bi / b0:.2f},{c1 - med(floor[(r, 'shared')]):.2f},"
          f"{c0 - med(floor[(r, 'ibarrier')]):.2f}")
