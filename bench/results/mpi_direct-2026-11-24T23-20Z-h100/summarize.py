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
    v = runs.get(key)
    return statistics.median(v) if v else float("nan")


def cell(*key):
    v = runs.get(key)
    if not v:
        return "-"
    return f"{statistics.median(v):.2f} ({min(v):.2f}-{max(v):.2f})"


machine = (here / "machine.txt").read_text().strip().replace(chr(10), ", ")
out = [f"# mpi_direct: {machine}",
       "# before = b6b6e4b's runtime, after = this branch's, the same generated sources; medians of the",
       "# interleaved repeats (runs.csv), range in brackets. after: the CPU worker posts and tests its",
       "# windowed transfers and its --sync=barrier barrier itself; after_handoff: DFG_MPI_DIRECT=0 (every",
       "# call on the comm thread, MPI_THREAD_MULTIPLE asked); after_ser: DFG_MPI_LANES=1",
       "# (MPI_THREAD_SERIALIZED: handed over too)", "",
       "## floor: mpi_progress inline, 1-byte token, no thread (a windowed transfer made by the computing thread)",
       (here / "floor.txt").read_text().strip(), "",
       "## 1. cost per cycle, us (spin_two..four: empty firings, 1-byte tokens, 30000 cycles, one CPU PE per rank)"]
strategies = ("overlap", "overlap_barrier", "no_overlap", "no_overlap_barrier")
out.append("ranks,version," + ",".join(strategies))
names = {"2": "spin_two", "3": "spin_three", "4": "spin_four"}
for np, name in names.items():
    for v in ("before", "after", "after_handoff", "after_ser"):
        out.append(f"{np},{v}," + ",".join(cell("cost", name, np, v, s, "1") for s in strategies))
out.append("ranks," + ",".join(f"after/before {s}" for s in strategies) + ",after_handoff/after overlap,after_ser/after_handoff overlap")
for np, name in names.items():
    k = ("cost", name, np)
    out.append(f"{np}," + ",".join(f"{med(*k, 'after', s, '1') / med(*k, 'before', s, '1'):.2f}" for s in strategies) +
               f",{med(*k, 'after_handoff', 'overlap', '1') / med(*k, 'after', 'overlap', '1'):.2f}"
               f",{med(*k, 'after_ser', 'overlap', '1') / med(*k, 'after_handoff', 'overlap', '1'):.2f}")
out += ["", "## 2. the window's size limit: S-byte tokens, empty firings, overlap, us (10000 cycles); "
        "window: DFG_MPI_WINDOW_BYTES=1048576 (every size windowed), w0: DFG_MPI_WINDOW=0 (MPI_Issend)",
        "ranks,bytes,window,w0,window/w0"]
for np, name in (("3", "spin_three"), ("2", "spin_two")):
    for size in sorted({int(k[5]) for k in runs if k[0] == "size" and k[2] == np}):
        w, w0 = med("size", name, np, "after", "overlap", str(size)), med("size", name, np, "after_w0", "overlap", str(size))
        out.append(f"{np},{size},{cell('size', name, np, 'after', 'overlap', str(size))},"
                   f"{cell('size', name, np, 'after_w0', 'overlap', str(size))},{w / w0:.2f}")
out += ["", "## 3. CPU-only samples on two hosts, period us (20000 iterations)",
        "sample,version,overlap,overlap_barrier,no_overlap,overlap/no_overlap,barrier/no_overlap"]
for prog in ("iir_two_hosts_cpu", "multirate_two_hosts_cpu", "packets_two_hosts_cpu"):
    for v in ("before", "after"):
        k = ("sample", prog, "2", v)
        out.append(f"{prog},{v}," + ",".join(cell(*k, s, "-") for s in ("overlap", "overlap_barrier", "no_overlap")) +
                   f",{med(*k, 'overlap', '-') / med(*k, 'no_overlap', '-'):.3f},"
                   f"{med(*k, 'overlap_barrier', '-') / med(*k, 'no_overlap', '-'):.3f}")
out += ["", "## 4. 4 MiB tokens (not windowed), empty firings, 3 ranks, period us (200 iterations)",
        "version,overlap,overlap_barrier,no_overlap"]
for v in ("before", "after"):
    out.append(f"{v}," + ",".join(cell("large", "spin_three", "3", v, s, "0") for s in ("overlap", "overlap_barrier", "no_overlap")))
(here / "summary.txt").write_text("\n".join(out) + "\n")
print("\n".join(out))
