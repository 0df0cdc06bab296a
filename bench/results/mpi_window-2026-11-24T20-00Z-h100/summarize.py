#!/usr/bin/env python3
"""Medians of runs.csv (run.sh's rows), the range in brackets: summary.txt."""
import collections
import csv
import statistics
import sys
from pathlib import Path

here = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
runs = collections.defaultdict(list)
for r in csv.DictReader(open(here / "runs.csv")):
    if r["period_us"] != "nan":
        runs[(r["section"], r["program"], r["ranks"], r["version"], r["strategy"], r["param"])].append(
            float(r["period_us"]))


def med(*key):
    return statistics.median(runs[key])


def cell(*key, scale=1.0, digits=2):
    v = runs.get(key)
    if not v:
        return "-"
    return f"{statistics.median(v) / scale:.{digits}f} ({min(v) / scale:.{digits}f}-{max(v) / scale:.{digits}f})"


out = [f"# mpi_window: {(here / 'machine.txt').read_text().strip().replace(chr(10), ', ')}",
       "# before = 714b31d's runtime, after = this branch's, the same generated sources; medians of the",
       "# interleaved repeats (runs.csv), range in brackets. after_w0: DFG_MPI_WINDOW=0 (every token by",
       "# MPI_Issend); after_ser: DFG_MPI_LANES=1 (MPI_THREAD_SERIALIZED, one lane)", "",
       "## floor: mpi_progress inline, 1-byte token, no thread, built with this runtime (a windowed transfer)",
       (here / "floor.txt").read_text().strip(), "",
       "## 1. cost per cycle, us (spin_two..four: empty firings, 1-byte tokens, 30000 cycles, one CPU PE per rank)"]
strategies = ("overlap", "overlap_barrier", "no_overlap", "no_overlap_barrier")
out.append("ranks,version," + ",".join(strategies))
names = {"2": "spin_two", "3": "spin_three", "4": "spin_four"}
for np, name in names.items():
    for v in ("before", "after", "after_w0", "after_ser"):
        out.append(f"{np},{v}," + ",".join(cell("cost", name, np, v, s, "1") for s in strategies))
out.append("ranks,after/before overlap,after/before overlap_barrier,after/before no_overlap,after_w0/after overlap,after_ser/after overlap")
for np, name in names.items():
    k = ("cost", name, np)
    out.append(f"{np},{med(*k, 'after', 'overlap', '1') / med(*k, 'before', 'overlap', '1'):.2f},"
               f"{med(*k, 'after', 'overlap_barrier', '1') / med(*k, 'before', 'overlap_barrier', '1'):.2f},"
               f"{med(*k, 'after', 'no_overlap', '1') / med(*k, 'before', 'no_overlap', '1'):.2f},"
               f"{med(*k, 'after_w0', 'overlap', '1') / med(*k, 'after', 'overlap', '1'):.2f},"
               f"{med(*k, 'after_ser', 'overlap', '1') / med(*k, 'after', 'overlap', '1'):.2f}")
out += ["", "## 2. CPU-only samples on two hosts, period us (iir, multirate, packets: 20000 iterations; overlap N=256: 3000)",
        "sample,version,overlap,overlap_barrier,no_overlap,overlap/no_overlap,barrier/no_overlap"]
for p in ("iir_two_hosts_cpu", "multirate_two_hosts_cpu", "packets_two_hosts_cpu", "overlap_two_hosts_cpu"):
    for v in ("before", "after"):
        k = ("sample", p, "2", v)
        out.append(f"{p},{v}," + ",".join(cell(*k, s, "-") for s in ("overlap", "overlap_barrier", "no_overlap")) +
                   f",{med(*k, 'overlap', '-') / med(*k, 'no_overlap', '-'):.3f}"
                   f",{med(*k, 'overlap_barrier', '-') / med(*k, 'no_overlap', '-'):.3f}")
out += ["", "## 3. 4 MiB tokens (not windowed), every CPU actor firing F us, period ms (200 iterations);"
        " busiest = max(F, link), link 0.501 ms (hosts_overlap-2026-11-24T16-09Z-h100's mpi_ping)",
        "ranks,F_us,version,overlap,overlap_barrier,no_overlap,overlap/no_overlap,overlap/busiest,barrier/busiest"]
for np, name in (("2", "spin_two"), ("3", "spin_three")):
    for f in ("0", "251"):
        for v in ("before", "after"):
            k = ("sweep", name, np, v)
            busiest = max(float(f), 501.1)
            out.append(f"{np},{f},{v}," + ",".join(cell(*k, s, f, scale=1000, digits=3)
                                                   for s in ("overlap", "overlap_barrier", "no_overlap")) +
                       f",{med(*k, 'overlap', f) / med(*k, 'no_overlap', f):.3f}"
                       f",{med(*k, 'overlap', f) / busiest:.3f},{med(*k, 'overlap_barrier', f) / busiest:.3f}")
out += ["", "## 4. the window's size limit: spin_three, S-byte tokens, overlap, us (the call's time ran out after one run of S = 1024)",
        "bytes,after,after_w0"]
for s in ("1024", "4096", "16384"):
    out.append(f"{s},{cell('size', 'spin_three', '3', 'after', 'overlap', s)},{cell('size', 'spin_three', '3', 'after_w0', 'overlap', s)}")
(here / "summary.txt").write_text("\n".join(out) + "\n")
print("\n".join(out))
