#!/usr/bin/env python3
"""Overlap on several ranks, and the runtime's own cost per cycle: CPU-only programs as MPI ranks
on one machine (bench/hosts/spin_*.dfg, README.md beside this file).

    overlap_sweep.py generate DIR [--dfgc PATH]
        here (where dfgc runs): `dfgc compile` of spin_one .. spin_four into DIR/gen/, and a copy of
        mpi_ping.cpp, mpi_progress.cpp, the runtime headers and this script into DIR.
    overlap_sweep.py run DIR [--out RESULTS] [--quick]
        there (Open MPI, cmake, g++): builds every project and the two MPI programs, runs
        1. mpi_progress: the three ways to progress MPI during a firing (inline, the comm thread,
           MPI_THREAD_MULTIPLE with a polling thread), 4 MiB tokens, firing times 0 .. 4x the transfer;
        2. the overlap sweep: spin_two (A -> B) and spin_three (A -> B -> C), tokens of S bytes,
           every CPU actor firing for F us (DFG_BENCH_FIRE_US), F from well below to well above the
           transfer time, with overlap (--sync=neighbours and barrier) and without;
        3. the runtime's cost: spin_one .. spin_four with empty firings and 1-byte tokens, the
           period per cycle in microseconds, every strategy and sync mode;
        prints every number and ratio and writes them under RESULTS (CSV files and summary.txt).

The busiest resource of a sweep point is max(F, link), with link the one-way time of one S-byte
MPI_Issend between two ranks (mpi_ping); the goals: overlap period <= 1.1 x busiest at every
point, overlap never slower than no overlap; the runtime's cost <= 2 us per cycle per CPU PE.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPECS = {"one": 1, "two": 2, "three": 3, "four": 4}
ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
# Open MPI: without --bind-to none it pins each rank, all its threads, to one core. DFG_BENCH_MPIRUN
# replaces the whole launcher (e.g. "mpiexec" for MPICH).
MPIRUN = os.environ.get("DFG_BENCH_MPIRUN", "mpirun --allow-run-as-root --bind-to none").split()
STRATEGIES = {"overlap": [], "overlap_barrier": ["--sync=barrier"], "no_overlap": ["--no-overlap"],
              "no_overlap_barrier": ["--no-overlap", "--sync=barrier"]}


def generate(args) -> None:
    out = Path(args.dir).resolve()
    (out / "gen").mkdir(parents=True, exist_ok=True)
    for name in SPECS:
        subprocess.run([args.dfgc, "compile", str(HERE / f"spin_{name}.dfg"), "-o", str(out / "gen" / f"spin_{name}")],
                       check=True)
    for f in ("mpi_ping.cpp", "mpi_progress.cpp", "overlap_sweep.py"):
        shutil.copy(HERE / f, out / f)
    shutil.copytree(HERE.parent.parent / "runtime" / "include", out / "runtime_include", dirs_exist_ok=True)
    print(f"generated into {out}")


def sh(cmd: list[str], env: dict | None = None, timeout: int = 120) -> str:
    e = dict(os.environ, **ENV, **(env or {}))
    r = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r.stdout + r.stderr


def mpirun(np: int, cmd: list[str]) -> list[str]:
    return cmd if np == 1 else MPIRUN + ["-np", str(np)] + cmd


def build(d: Path) -> None:
    jobs = max(1, (os.cpu_count() or 2) // 4)
    procs = []
    for name in SPECS:
        p = d / "gen" / f"spin_{name}"
        procs.append(subprocess.Popen(
            f"cmake -S {p} -B {p}/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >/dev/null && "
            f"cmake --build {p}/build -j {jobs} >/dev/null", shell=True))
    inc = d / "runtime_include"
    for prog in ("mpi_ping", "mpi_progress"):
        sh(["mpicxx", "-std=c++20", "-O2", "-Wall", "-Wextra", "-Werror", f"-I{inc}", str(d / f"{prog}.cpp"), "-o",
            str(d / prog), "-pthread"])
    for p in procs:
        if p.wait() != 0:
            raise RuntimeError("a generated project failed to build")


def metric(text: str, regex: str) -> float:
    m = re.search(regex, text, re.M)
    if m is None:
        raise RuntimeError(f"no match of {regex!r} in:\n{text}")
    return float(m.group(1))


def period_ms(text: str) -> float:
    """The longest period of the ranks' --stats outputs, from their throughput (iterations/s,
    printed to 0.1: microsecond periods keep their digits)."""
    values = [float(v) for v in re.findall(r"^throughput: ([0-9.]+) iterations/s", text, re.M)]
    if not values or min(values) <= 0:
        raise RuntimeError("no throughput in:\n" + text)
    return 1000.0 / min(values)


def app(d: Path, name: str) -> list[str]:
    return mpirun(SPECS[name], [str(d / "gen" / f"spin_{name}" / "build" / "app")])


def run(args) -> None:
    d = Path(args.dir).resolve()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H-%M-%SZ")
    out = Path(args.out).resolve() if args.out else d / f"hosts_overlap-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []

    def say(s: str) -> None:
        print(s, flush=True)
        lines.append(s)

    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                             text=True).stdout.strip() or "none"
    except OSError:
        gpu = "none"
    say(f"# hosts_overlap {stamp}: {os.cpu_count()} cores, GPU {gpu}, {sh(['mpirun', '--version']).splitlines()[0]}")
    build(d)
    token = 4 << 20
    link_ms = metric(sh(mpirun(2, [str(d / "mpi_ping"), str(token), "50", "5"])), r"mpi one-way: ([0-9.]+) ms")
    say(f"# link: one 4 MiB MPI_Issend between two ranks takes {link_ms:.4f} ms (mpi_ping, one-way)")
    link_us = link_ms * 1000
    fires = [0, 0.1, 0.25, 0.5, 1, 2, 4] if not args.quick else [0, 1, 4]
    fires_us = [round(f * link_us) for f in fires]

    # 1. The ways to progress MPI during a firing.
    say("\n## 1. progress during a firing (mpi_progress, 4 MiB A -> B each cycle, both ranks fire F us)")
    say("mode,fire_us,period_us,period/max(F;link),period/(F+link)")
    csv = ["mode,bytes,fire_us,period_us,link_us"]
    for f in fires_us:
        for mode in ("inline", "thread", "multiple"):
            text = sh(mpirun(2, [str(d / "mpi_progress"), mode, str(token), str(f), "100"]))
            p = metric(text, r"period_us=([0-9.]+)")
            csv.append(f"{mode},{token},{f},{p:.2f},{link_us:.2f}")
            say(f"{mode},{f},{p:.1f},{p / max(f, link_us):.3f},{p / (f + link_us):.3f}")
    say("per-cycle cost of a 1-byte token, F = 0:")
    for mode in ("inline", "thread", "multiple"):
        text = sh(mpirun(2, [str(d / "mpi_progress"), mode, "1", "0", "20000"]))
        p = metric(text, r"period_us=([0-9.]+)")
        csv.append(f"{mode},1,0,{p:.3f},")
        say(f"  {mode}: {p:.2f} us per cycle")
    (out / "progress.csv").write_text("\n".join(csv) + "\n")

    # 2. The overlap sweep of the generated programs.
    say(f"\n## 2. overlap sweep (generated programs, S = {token} bytes, every CPU actor fires F us; "
        "busiest = max(F, link))")
    say("ranks,fire_us,overlap_ms,barrier_ms,no_overlap_ms,busiest_ms,overlap/busiest,barrier/busiest,"
        "overlap/no_overlap")
    csv = ["ranks,fire_us,strategy,period_ms,busiest_ms"]
    worst = {"overlap/busiest": 0.0, "overlap/no_overlap": 0.0}
    iterations = "100" if args.quick else "200"
    for name in ("two", "three"):
        for f in fires_us:
            periods = {}
            for label in ("overlap", "overlap_barrier", "no_overlap"):
                text = sh(app(d, name) + ["--iterations", iterations, "--set", f"S={token}", "--stats=period"]
                          + STRATEGIES[label], env={"DFG_BENCH_FIRE_US": str(f)})
                periods[label] = period_ms(text)
            busiest = max(f / 1000, link_ms)
            for label, p in periods.items():
                csv.append(f"{SPECS[name]},{f},{label},{p:.4f},{busiest:.4f}")
            r1 = periods["overlap"] / busiest
            r2 = periods["overlap_barrier"] / busiest
            r3 = periods["overlap"] / periods["no_overlap"]
            worst["overlap/busiest"] = max(worst["overlap/busiest"], r1, r2)
            worst["overlap/no_overlap"] = max(worst["overlap/no_overlap"], r3, periods["overlap_barrier"] / periods["no_overlap"])
            say(f"{SPECS[name]},{f},{periods['overlap']:.4f},{periods['overlap_barrier']:.4f},"
                f"{periods['no_overlap']:.4f},{busiest:.4f},{r1:.3f},{r2:.3f},{r3:.3f}")
    (out / "sweep.csv").write_text("\n".join(csv) + "\n")
    say(f"worst overlap/busiest (both sync modes): {worst['overlap/busiest']:.3f} (goal <= 1.1); "
        f"worst overlap/no_overlap: {worst['overlap/no_overlap']:.3f} (goal <= 1.0)")

    # 3. The runtime's own cost per cycle.
    say("\n## 3. runtime cost (empty firings, 1-byte tokens; period per cycle, one CPU PE per rank)")
    say("cpu_pes,strategy,period_us")
    csv = ["cpu_pes,strategy,period_us"]
    cycles = "20000" if args.quick else "100000"
    for name, pes in SPECS.items():
        for label, flags in STRATEGIES.items():
            text = sh(app(d, name) + ["--iterations", cycles, "--set", "S=1", "--stats=period"] + flags,
                      env={"DFG_BENCH_FIRE_US": "0"})
            us = period_ms(text) * 1000
            csv.append(f"{pes},{label},{us:.3f}")
            say(f"{pes},{label},{us:.3f}")
    (out / "cost.csv").write_text("\n".join(csv) + "\n")
    (out / "summary.txt").write_text("\n".join(lines) + "\n")
    print(f"results in {out}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("dir")
    g.add_argument("--dfgc", default="dfgc")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--out")
    r.add_argument("--quick", action="store_true", help="fewer points and cycles")
    args = ap.parse_args()
    generate(args) if args.cmd == "generate" else run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
