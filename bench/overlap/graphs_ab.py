#!/usr/bin/env python3
"""GPU cycles as CUDA graphs against the same cycles enqueued call by call, side by side.

    bench/overlap/graphs_ab.py DIR [--repeats R] [--out FILE] [--only REGEX]

DIR is a generated benchmark directory (bench/harness.py generate suite DIR); the projects it
needs that have no build/app yet are built first (cmake, in parallel). For every project whose
GPU worker relaunches
its cycles as graphs (`items.graphs(` in a generated rank file), the first repetition of each of
its runs in the manifest runs R times (default 3) with its own arguments and R times with
`--no-graphs` added, interleaved, and the script prints, per run, the median period of each
(--stats=period's throughput), their ratio (graphs / streams: below 1 is faster) and whether
every run exited 0 (each program checks its outputs against its reference); a run whose
arguments have no --stats gets --stats=period, and one too short for a period (saliency's check
of one frame) counts by its exit status alone. FILE (default
DIR/graphs_ab.csv) keeps the table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path


def period_us(text: str) -> float:
    values = [float(v) for v in re.findall(r"^throughput: ([0-9.]+) iterations/s", text, re.M)]
    if not values or min(values) <= 0:
        raise RuntimeError("no throughput in:\n" + text[-2000:])
    return 1e6 / min(values)


def graph_projects(d: Path) -> set[str]:
    return {p.name for p in d.iterdir()
            if p.is_dir() and any("items.graphs(" in f.read_text() for f in p.glob("rank_*.cu"))}


def table(runs: list[dict], periods: dict, failures: list[str], repeats: int) -> str:
    lines = ["run,graphs_us,streams_us,ratio,runs_ok"]
    for r in runs:
        g, s = periods.get((r["id"], "graphs"), []), periods.get((r["id"], "streams"), [])
        if not g or not s:
            lines.append(f"{r['id']},,,,FAIL")
            continue
        if any(x != x for x in g + s):  # NaN: a run too short for a period, its exit 0 the check
            lines.append(f"{r['id']},,,,{len(g) + len(s)}/{2 * repeats} exited 0 (no period)")
            continue
        mg, ms = statistics.median(g), statistics.median(s)
        lines.append(f"{r['id']},{mg:.3f},{ms:.3f},{mg / ms:.3f},{len(g) + len(s)}/{2 * repeats}")
    text = "\n".join(lines) + "\n"
    if failures:
        text += "\n# failures\n" + "\n".join("# " + f for f in failures) + "\n"
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out")
    ap.add_argument("--only", metavar="REGEX", help="only the runs whose id matches")
    args = ap.parse_args()
    d = Path(args.dir).resolve()
    manifest = json.loads((d / "manifest.json").read_text())
    projects = graph_projects(d)
    runs = [r for r in manifest["runs"] if r["project"] in projects and r["labels"].get("repetition") == 0
            and not r.get("prefix") and (not args.only or re.search(args.only, r["id"]))]
    missing = sorted({r["project"] for r in runs if not list((d / r["project"] / "build").rglob("app"))})
    builds = [subprocess.Popen(
        f"cmake -S '{d / p}' -B '{d / p}/build' -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native "
        f">/dev/null && cmake --build '{d / p}/build' -j 4 >/dev/null", shell=True) for p in missing]
    for b in builds:
        b.wait()
    periods: dict[tuple[str, str], list[float]] = {}
    failures: list[str] = []
    out = Path(args.out or d / "graphs_ab.csv")
    for _ in range(args.repeats):
        for r in runs:
            exe = sorted((d / r["project"] / "build").rglob("app"))
            if not exe:
                failures.append(f"{r['id']}: no build/app")
                continue
            env = dict(os.environ, **{k: v.replace("{generated}", str(d)) for k, v in r["env"].items()})
            # A run without --stats (saliency's check) is asked for the period all the same.
            stats = [] if any(a.startswith("--stats") for a in r["args"]) else ["--stats=period"]
            for version, extra in (("graphs", []), ("streams", ["--no-graphs"])):
                cmd = [str(exe[0])] + r["args"] + stats + extra
                p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                   timeout=300)
                if p.returncode != 0:
                    failures.append(f"{r['id']} {version}: exit {p.returncode}: {p.stderr[-500:]}")
                    continue
                try:
                    periods.setdefault((r["id"], version), []).append(period_us(p.stdout))
                except RuntimeError:  # too few cycles for a period (a check run): its exit counts
                    periods.setdefault((r["id"], version), []).append(float("nan"))
        out.write_text(table(runs, periods, failures, args.repeats))  # each round: a cut run keeps it
    text = table(runs, periods, failures, args.repeats)
    print(text, end="")
    out.write_text(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
