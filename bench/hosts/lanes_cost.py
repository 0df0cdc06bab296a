#!/usr/bin/env python3
"""The runtime's cost per cycle and the communication thread's lanes, one runtime against another
(README.md beside this file): the same generated projects built with two copies of the runtime's
headers, run side by side in one call.

    lanes_cost.py generate DIR --before RUNTIME_INCLUDE [--dfgc PATH]
        here: `dfgc compile` of spin_two .. spin_four, the overlap benchmark's one GPU PE with its
        CPU neighbour (cost_gpu) and a GPU PE alone (cost_gpu_alone: Inc fed back to itself through
        a delay), into DIR/gen/NAME; a copy of each as DIR/gen/NAME.before whose runtime/ is
        RUNTIME_INCLUDE (another checkout's runtime/include); mpi_progress.cpp and this script.
    lanes_cost.py run DIR [--out RESULTS]
        there (Open MPI, cmake, g++, nvcc where a GPU is): builds everything and prints
        1. the floor: one 1-byte MPI_Issend round between two processes, no thread (mpi_progress inline);
        2. the cost per cycle (empty firings, 1-byte tokens) of 2 to 4 ranks, one CPU PE each,
           every strategy and sync mode, before and after, with the lanes each runtime picks;
        3. the lanes' threshold: spin_three (A -> B -> C) with tokens of S bytes, empty firings,
           one lane, two lanes (DFG_MPI_LANES) and the runtime's choice;
        4. one GPU PE with its CPU neighbour, and alone, before and after;
        5. the overlap sweep's worst points, 4 MiB tokens on 2 and 3 ranks, F = 0 and 251 us,
           before and after, and --stats at F = 0 on 3 ranks (per transfer, each end).
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import mpi_bench
from mpi_bench import MPIRUN, STRATEGIES

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SPECS = {"two": 2, "three": 3, "four": 4}
VERSIONS = ("before", "after")


def generate(args) -> None:
    out = Path(args.dir).resolve()
    gen = out / "gen"
    gen.mkdir(parents=True, exist_ok=True)
    jobs = [(f"spin_{n}", [str(HERE / f"spin_{n}.dfg")]) for n in SPECS]
    jobs.append(("cost_gpu", [str(ROOT / "bench/overlap/one_gpu.dfg"), "-D", "N=1", "-D", "NB=5"]))
    alone = ROOT / "bench/overlap/gpu_alone.dfg"
    jobs.append(("cost_gpu_alone", [str(alone), "-D", "N=1"]))
    for name, spec in jobs:
        subprocess.run([args.dfgc, "compile", spec[0], "-o", str(gen / name)] + spec[1:], check=True)
        before = gen / f"{name}.before"
        shutil.rmtree(before, ignore_errors=True)
        shutil.copytree(gen / name, before)
        shutil.rmtree(before / "runtime")
        shutil.copytree(Path(args.before), before / "runtime")
    shutil.copy(HERE / "mpi_progress.cpp", out / "mpi_progress.cpp")
    shutil.copytree(ROOT / "runtime" / "include", out / "runtime_include", dirs_exist_ok=True)
    shutil.copy(Path(__file__), out / "lanes_cost.py")
    shutil.copy(mpi_bench.FILE, out / mpi_bench.FILE.name)
    print(f"generated into {out}")


def sh(cmd: list[str], env: dict | None = None, timeout: int = 60) -> str:
    """mpi_bench.sh() with this script's shorter time limit."""
    return mpi_bench.sh(cmd, env, timeout)


def mpirun(np: int, cmd: list[str]) -> list[str]:
    return MPIRUN + ["-np", str(np)] + cmd


def period_us(text: str) -> float:
    values = [float(v) for v in re.findall(r"^throughput: ([0-9.]+) iterations/s", text, re.M)]
    if not values or min(values) <= 0:
        raise RuntimeError("no throughput in:\n" + text)
    return 1e6 / min(values)


def build(d: Path) -> None:
    gpu = shutil.which("nvcc") is not None and shutil.which("nvidia-smi") is not None
    procs = []
    for p in sorted((d / "gen").iterdir()):
        if p.name.startswith("cost_gpu") and not gpu:
            continue
        procs.append(subprocess.Popen(
            f"cmake -S {p} -B {p}/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >/dev/null && "
            f"cmake --build {p}/build -j 2 >/dev/null", shell=True))
    sh(["mpicxx", "-std=c++20", "-O2", "-Wall", "-Wextra", "-Werror", f"-I{d / 'runtime_include'}",
        str(d / "mpi_progress.cpp"), "-o", str(d / "mpi_progress"), "-pthread"])
    for p in procs:
        if p.wait() != 0:
            raise RuntimeError("a generated project failed to build")


def run(args) -> None:
    d = Path(args.dir).resolve()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H-%M-%SZ")
    out = Path(args.out).resolve() if args.out else d / f"lanes_cost-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []

    def say(s: str) -> None:
        print(s, flush=True)
        lines.append(s)
        (out / "summary.txt").write_text("\n".join(lines) + "\n")

    build(d)
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                         text=True).stdout.strip() if shutil.which("nvidia-smi") else "none"
    say(f"# lanes_cost {stamp}: {os.cpu_count()} cores, GPU {gpu}, {sh(['mpirun', '--version']).splitlines()[0]}")

    def app(name: str, version: str) -> Path:
        return d / "gen" / (name if version == "after" else f"{name}.before") / "build" / "app"

    say("\n## 1. floor: one 1-byte MPI_Issend round between two processes (mpi_progress inline, no thread)")
    floor = float(re.search(r"period_us=([0-9.]+)",
                            sh(mpirun(2, [str(d / "mpi_progress"), "inline", "1", "0", "50000"]))).group(1))
    say(f"floor_us,{floor:.3f}")

    say("\n## 2. cost per cycle, us (empty firings, 1-byte tokens, 30000 cycles; lanes: each runtime's choice; "
        "after_serialized: DFG_MPI_LANES=1, MPI_THREAD_SERIALIZED)")
    say("ranks,version," + ",".join(STRATEGIES) + ",overlap/floor")
    for name, np in SPECS.items():
        for v, env in (("before", {}), ("after", {}), ("after_serialized", {"DFG_MPI_LANES": "1"})):
            us = {k: period_us(sh(mpirun(np, [str(app(f"spin_{name}", v.split("_")[0]))]) + [
                "--iterations", "30000", "--set", "S=1", "--stats=period"] + f, env=env))
                  for k, f in STRATEGIES.items()}
            say(f"{np},{v}," + ",".join(f"{x:.3f}" for x in us.values()) + f",{us['overlap'] / floor:.2f}")

    say("\n## 3. lanes on spin_three (A -> B -> C), empty firings, overlap: period us by token size")
    say("bytes,one_lane,two_lanes,chosen,chosen/best")
    for size in (1024, 16 << 10, 32 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20):
        its = str(max(200, min(20000, (2 << 30) // max(size, 1) // 20)))
        res = {}
        for label, env in (("one", {"DFG_MPI_LANES": "1"}), ("two", {"DFG_MPI_LANES": "2"}), ("chosen", {})):
            res[label] = period_us(sh(mpirun(3, [str(app("spin_three", "after"))]) + [
                "--iterations", its, "--set", f"S={size}", "--stats=period"], env=env))
        say(f"{size},{res['one']:.2f},{res['two']:.2f},{res['chosen']:.2f},{res['chosen'] / min(res['one'], res['two']):.3f}")

    if app("cost_gpu", "after").exists():
        say("\n## 4. GPU PE, us per cycle (20000 cycles): with its CPU neighbour (P -> Inc -> C), and alone (Inc -> Inc, delay 1)")
        say("program,version," + ",".join(STRATEGIES))
        for name in ("cost_gpu", "cost_gpu_alone"):
            for v in VERSIONS:
                us = {k: period_us(sh([str(app(name, v)), "--iterations", "20000", "--stats=period"] + f))
                      for k, f in STRATEGIES.items()}
                say(f"{name},{v}," + ",".join(f"{x:.3f}" for x in us.values()))
    say("\n## 5. 4 MiB tokens, period ms (200 iterations), before and after")
    say("ranks,fire_us,version,overlap,overlap_barrier,no_overlap,overlap/no_overlap")
    for name in ("two", "three"):
        for f in (0, 251):
            for v in VERSIONS:
                ms = {k: period_us(sh(mpirun(SPECS[name], [str(app(f"spin_{name}", v))]) + [
                    "--iterations", "200", "--stats=period"] + STRATEGIES[k], env={"DFG_BENCH_FIRE_US": str(f)})) / 1000
                      for k in ("overlap", "overlap_barrier", "no_overlap")}
                say(f"{SPECS[name]},{f},{v},{ms['overlap']:.4f},{ms['overlap_barrier']:.4f},{ms['no_overlap']:.4f},"
                    f"{ms['overlap'] / ms['no_overlap']:.3f}")
    for k in ("overlap", "no_overlap"):
        text = sh(mpirun(3, [str(app("spin_three", "after"))]) + ["--iterations", "200", "--stats"] + STRATEGIES[k])
        (out / f"three_f0_{k}_stats.txt").write_text(text)

    print(f"results in {out}")


def generate_options(g) -> None:
    g.add_argument("--before", required=True, help="the runtime/include of the runtime to compare against")


def main() -> int:
    return mpi_bench.main(__doc__, generate, run, generate_options=generate_options)


if __name__ == "__main__":
    sys.exit(main())
