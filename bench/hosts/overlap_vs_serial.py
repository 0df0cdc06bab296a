#!/usr/bin/env python3
"""Overlap against no overlap on every mapping that runs without a GPU (README.md beside this file).

    overlap_vs_serial.py generate DIR [--dfgc PATH] [--before-dfgc PATH] [--only REGEX]
        here: finds every CPU-only mapping among samples/*/*.dfg and bench/hosts/*.dfg (a spec
        with an app whose plan, `dfgc compile --emit=plan`, has no GPU PE), with its number of
        hosts (one MPI rank each), and writes each project into DIR/gen/NAME (NAME: the sample's
        directory and file, e.g. multirate_two_hosts_cpu); with --before-dfgc, the same from
        another dfgc into DIR/gen/NAME.before (its own runtime too); DIR/mappings.json lists them.
    overlap_vs_serial.py run DIR [--out RESULTS] [--repeats N] [--seconds S] [--budget S] [--count]
        there (cmake, g++, Open MPI): builds every project, skips (and names) those that do not
        run with their defaults, picks each mapping's iterations for about S seconds a run (one
        probe), then runs every mapping with overlap and --no-overlap, with --sync=neighbours and
        --sync=barrier, each version (after, before), N times interleaved, and prints per mapping
        and sync mode the medians (us a cycle, from the `throughput:` line of --stats=period) and
        overlap / no overlap, flagged LOSS where it is above 1.02 and every overlap run was slower
        than every no-overlap run of the same mapping and mode (a loss beyond this machine's
        noise; at least 3 runs of each). --count adds one run of each multi-rank mapping with every MPI call counted
        (mpi_count.c, LD_PRELOAD): calls per cycle per rank. Writes runs.csv, summary.txt and
        counts.txt into RESULTS.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import mpi_bench
from mpi_bench import MPIRUN, STRATEGIES

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SYNC_PAIRS = (("neighbours", "overlap", "no_overlap"), ("barrier", "overlap_barrier", "no_overlap_barrier"))
COUNTED = ("MPI_Test", "MPI_Testall", "MPI_Isend", "MPI_Issend", "MPI_Irecv", "MPI_Ibarrier")


def mapping_of(dfgc: str, spec: Path) -> dict | None:
    """The spec's name and ranks when its app runs on CPUs only, else None."""
    r = subprocess.run([dfgc, "compile", str(spec), "--emit=plan"], capture_output=True, text=True)
    if r.returncode != 0:
        return None  # a library of actors (no app) or a spec that dfgc refuses
    if re.search(r"^  pe \S+ gpu", r.stdout, re.M):
        return None
    ranks = len(re.findall(r"^host ", r.stdout, re.M))
    return {"name": f"{spec.parent.name}_{spec.stem}", "spec": str(spec.relative_to(ROOT)), "ranks": ranks}


def generate(args) -> None:
    out = Path(args.dir).resolve()
    gen = out / "gen"
    gen.mkdir(parents=True, exist_ok=True)
    specs = sorted(ROOT.glob("samples/*/*.dfg")) + sorted((HERE).glob("*.dfg"))
    mappings = []
    for spec in specs:
        m = mapping_of(args.dfgc, spec)
        if m is None or (args.only and not re.search(args.only, m["name"])):
            continue
        versions = [("", args.dfgc)] + ([(".before", args.before_dfgc)] if args.before_dfgc else [])
        for suffix, dfgc in versions:
            target = gen / (m["name"] + suffix)
            shutil.rmtree(target, ignore_errors=True)
            subprocess.run([dfgc, "compile", str(spec), "-o", str(target)], check=True)
        mappings.append(m)
        print(f"{m['name']}: {m['ranks']} rank(s)")
    (out / "mappings.json").write_text(json.dumps(mappings, indent=1) + "\n")
    for f in ("overlap_vs_serial.py", "mpi_count.c"):
        shutil.copy(HERE / f, out / f)
    shutil.copy(mpi_bench.FILE, out / mpi_bench.FILE.name)
    print(f"generated {len(mappings)} mappings into {out}")


def build(d: Path) -> list[str]:
    """Builds every project, a few at once; returns the names of those that failed."""
    jobs = max(1, (os.cpu_count() or 2) // 8)
    projects = sorted(p for p in (d / "gen").iterdir() if p.is_dir())
    failed, running = [], []
    for p in projects + [None]:
        while running and (p is None or len(running) >= 8):
            q, proc = running.pop(0)
            if proc.wait() != 0:
                failed.append(q.name)
        if p is not None:
            cmd = (f"cmake -S {p} -B {p}/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >{p}/build.log 2>&1"
                   f" && cmake --build {p}/build -j {jobs} >>{p}/build.log 2>&1")
            running.append((p, subprocess.Popen(cmd, shell=True)))
    mpi_bench.sh(["mpicc", "-O2", "-shared", "-fPIC", str(d / "mpi_count.c"), "-o", str(d / "libmpi_count.so")])
    return failed


def command(d: Path, name: str, ranks: int, iterations: int, flags: list[str], env: list[str] = ()) -> list[str]:
    app = [str(d / "gen" / name / "build" / "app"), "--iterations", str(iterations), "--stats=period"] + flags
    if ranks == 1:
        return app
    exports = [a for e in env for a in ("-x", e)]
    return MPIRUN + exports + ["-np", str(ranks)] + app


def period_us(text: str) -> float:
    values = [float(v) for v in re.findall(r"^throughput: ([0-9.]+) iterations/s", text, re.M)]
    if not values or min(values) <= 0:
        raise RuntimeError("no throughput in:\n" + text[-2000:])
    return 1e6 / min(values)  # the slowest rank's


def run(args) -> None:
    d = Path(args.dir).resolve()
    out = Path(args.out or d / "results").resolve()
    out.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []

    def say(s: str) -> None:
        print(s, flush=True)
        lines.append(s)

    t0 = time.time()
    mappings = json.loads((d / "mappings.json").read_text())
    failed = build(d)
    say(f"# overlap_vs_serial: {len(mappings)} CPU-only mappings, built in {time.time() - t0:.0f} s"
        + (f"; build failed: {' '.join(failed)}" if failed else ""))
    versions = ["after"] + (["before"] if any((d / "gen" / (m["name"] + ".before")).is_dir() for m in mappings) else [])
    suffix = {"after": "", "before": ".before"}
    runnable = []
    for m in mappings:
        if any(m["name"] + suffix[v] in failed for v in versions):
            say(f"skipped {m['name']}: build failed")
            continue
        try:
            p = period_us(mpi_bench.sh(command(d, m["name"], m["ranks"], args.min_iterations, []), timeout=20))
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            say(f"skipped {m['name']}: does not run with its defaults ({str(e).strip().splitlines()[-1][:160]})")
            continue
        m["iterations"] = int(min(args.max_iterations, max(args.min_iterations, args.seconds * 1e6 / p)))
        runnable.append(m)
    csv = ["mapping,ranks,version,strategy,run,period_us"]
    t1 = time.time()
    runs: dict[tuple, list[float]] = {}
    repeats = 0
    for r in range(args.repeats):
        if r > 0 and (time.time() - t1) * (r + 1) / r > args.budget:
            say(f"stopped after {r} repeats: the budget of {args.budget} s is spent")
            break
        for m in runnable:
            for v in versions:
                for s, flags in STRATEGIES.items():
                    name = m["name"] + suffix[v]
                    try:
                        p = period_us(mpi_bench.sh(command(d, name, m["ranks"], m["iterations"], flags), timeout=60))
                    except (RuntimeError, subprocess.TimeoutExpired) as e:
                        say(f"FAILED {name} {s}: {str(e).strip().splitlines()[-1][:160]}")
                        p = float("nan")
                    runs.setdefault((m["name"], v, s), []).append(p)
                    csv.append(f"{m['name']},{m['ranks']},{v},{s},{r},{p:.4f}")
        (out / "runs.csv").write_text("\n".join(csv) + "\n")
        repeats = r + 1
    say(f"\n## medians of {repeats} interleaved runs, us a cycle (iterations a run for about {args.seconds} s);"
        " ratio = overlap / no overlap; LOSS: ratio > 1.02 and every overlap run slower than every no-overlap run")
    say("mapping,ranks,iterations,version,sync,overlap_us,no_overlap_us,ratio,verdict")
    losses, worst = [], {}
    for m in runnable:
        for v in versions:
            for sync, o, n in SYNC_PAIRS:
                ov = [x for x in runs.get((m["name"], v, o), []) if x == x]
                nv = [x for x in runs.get((m["name"], v, n), []) if x == x]
                if not ov or not nv:
                    continue
                ratio = statistics.median(ov) / statistics.median(nv)
                loss = ratio > 1.02 and min(ov) > max(nv) and min(len(ov), len(nv)) >= 3
                verdict = "LOSS" if loss else ("tie" if ratio > 1.0 else "ok")
                if ratio > 1.02 and not loss and min(len(ov), len(nv)) < 3:
                    verdict = "slower (too few runs to tell)"
                if loss:
                    losses.append(f"{m['name']} {v} {sync} {ratio:.3f}")
                worst[v] = max(worst.get(v, 0.0), ratio)
                say(f"{m['name']},{m['ranks']},{m['iterations']},{v},{sync},{statistics.median(ov):.3f},"
                    f"{statistics.median(nv):.3f},{ratio:.3f},{verdict}")
    for v in versions:
        say(f"{v}: worst overlap / no overlap {worst.get(v, float('nan')):.3f}")
    say("losses beyond the noise: " + ("; ".join(losses) if losses else "none"))
    if args.count:
        counts(d, out, runnable, versions, suffix, say)
    say(f"total {time.time() - t0:.0f} s")
    (out / "summary.txt").write_text("\n".join(lines) + "\n")


def counts(d: Path, out: Path, runnable: list[dict], versions: list[str], suffix: dict, say) -> None:
    """One run of each multi-rank mapping with its MPI calls counted: calls a cycle, per rank."""
    say("\n## MPI calls a cycle per rank (one run each, mpi_count.c): " + ", ".join(COUNTED))
    say("mapping,version,strategy,rank," + ",".join(COUNTED))
    text_all = []
    lib = f"LD_PRELOAD={d / 'libmpi_count.so'}"
    for m in (m for m in runnable if m["ranks"] > 1):
        for v in versions:
            for s, flags in STRATEGIES.items():
                try:
                    text = mpi_bench.sh(command(d, m["name"] + suffix[v], m["ranks"], m["iterations"], flags, [lib]),
                                        timeout=60)
                except (RuntimeError, subprocess.TimeoutExpired) as e:
                    say(f"FAILED {m['name']} {v} {s}: {str(e).strip().splitlines()[-1][:160]}")
                    continue
                text_all.append(f"### {m['name']} {v} {s}\n{text}")
                for rank, rest in sorted(re.findall(r"^mpi_count rank (\d+):(.*)$", text, re.M)):
                    got = dict(re.findall(r"(MPI_\w+) (\d+)", rest))
                    per = [int(got.get(c, 0)) / m["iterations"] for c in COUNTED]
                    say(f"{m['name']},{v},{s},{rank}," + ",".join(f"{x:.2f}" for x in per))
    (out / "counts.txt").write_text("\n".join(text_all) + "\n")


def run_options(r) -> None:
    r.add_argument("--repeats", type=int, default=5, help="runs of each mapping, strategy and version (medians)")
    r.add_argument("--seconds", type=float, default=0.25, help="about how long a run lasts")
    r.add_argument("--min-iterations", type=int, default=300, help="also the probe's iterations")
    r.add_argument("--max-iterations", type=int, default=200000)
    r.add_argument("--budget", type=float, default=420,
                   help="seconds of runs: no repeat begins that would end after them")
    r.add_argument("--count", action="store_true", help="count the MPI calls of the multi-rank mappings")


def generate_options(g) -> None:
    g.add_argument("--before-dfgc", help="a second dfgc: every project from it too, as gen/NAME.before")
    g.add_argument("--only", help="the mappings whose NAME matches this regular expression")


def main() -> int:
    return mpi_bench.main(__doc__, generate, run, generate_options=generate_options, run_options=run_options)


if __name__ == "__main__":
    sys.exit(main())
