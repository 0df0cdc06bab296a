#!/usr/bin/env python3
"""The cost of a GPU PE's cycle, one runtime against another (README.md beside this file): the
same generated projects built with two copies of the runtime's headers, run side by side.

    gpu_cycle.py generate DIR --before RUNTIME_INCLUDE [--before-flags FLAGS] [--dfgc PATH]
        here: `dfgc compile` of the overlap benchmark with 4-byte tokens and nb_loop 5 (cost_gpu:
        P -> Inc -> C, P and C on the CPU PE) and a GPU PE alone (cost_gpu_alone: Inc fed back to
        itself through a delay) into DIR/gen/NAME, each with this checkout's
        runtime/include (its tokens mapped into host memory: dfgc's default), NAME.copied the same
        compiled with --mapped-tokens=0 (every token copied), and NAME.before with RUNTIME_INCLUDE,
        compiled with FLAGS (e.g. "--mapped-tokens=0": the code of a dfgc before mapped tokens);
        the size sweep: cost_gpu at N = 1 .. 256 (4 B to 256 KiB tokens), every token mapped
        (sweep_N.mapped) or copied (sweep_N.copied); gpu_floor.cu and this script.
    gpu_cycle.py run DIR [--out RESULTS]
        there (cmake, g++, nvcc, a GPU): builds everything and prints
        1. the floor (gpu_floor.cu): each CUDA call of a cycle, and hand-written cycles;
        2. us per cycle (10000 iterations, --stats=period, the median of 3 runs) of each program,
           before, copied and after, in both strategies and both sync modes;
        3. the sweep: us per cycle of P -> Inc -> C with overlap (5000 iterations, median of 3),
           every token mapped against every token copied, by token size: where mapping stops
           paying (dfgc's default threshold stays below it).
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
STRATEGIES = {"overlap": [], "overlap_barrier": ["--sync=barrier"], "no_overlap": ["--no-overlap"],
              "no_overlap_barrier": ["--no-overlap", "--sync=barrier"]}
VERSIONS = {"before": ".before", "copied": ".copied", "after": ""}
SWEEP_N = (1, 8, 16, 32, 64, 128, 256)  # tokens of 4 * N * N bytes: 4 B .. 256 KiB


def generate(args) -> None:
    out = Path(args.dir).resolve()
    gen = out / "gen"
    gen.mkdir(parents=True, exist_ok=True)
    alone = ROOT / "bench/overlap/gpu_alone.dfg"
    jobs = [("cost_gpu", [str(ROOT / "bench/overlap/one_gpu.dfg"), "-D", "N=1", "-D", "NB=5"]),
            ("cost_gpu_alone", [str(alone), "-D", "N=1"])]
    here = ROOT / "runtime" / "include"
    builds = []  # (project, spec and defines, dfgc flags, runtime)
    for name, spec in jobs:
        builds += [(name, spec, [], here), (f"{name}.copied", spec, ["--mapped-tokens=0"], here),
                   (f"{name}.before", spec, args.before_flags.split(), Path(args.before))]
    for n in SWEEP_N:
        spec = [str(ROOT / "bench/overlap/one_gpu.dfg"), "-D", f"N={n}", "-D", "NB=5"]
        builds += [(f"sweep_{n}.mapped", spec, [f"--mapped-tokens={1 << 30}"], here),
                   (f"sweep_{n}.copied", spec, ["--mapped-tokens=0"], here)]
    for name, spec, flags, runtime in builds:
        d = gen / name
        subprocess.run([args.dfgc, "compile", spec[0], "-o", str(d)] + spec[1:] + flags, check=True)
        shutil.rmtree(d / "runtime")
        shutil.copytree(runtime, d / "runtime")
    shutil.copy(HERE / "gpu_floor.cu", out / "gpu_floor.cu")
    shutil.copy(Path(__file__), out / "gpu_cycle.py")
    print(f"generated into {out}")


def sh(cmd: list[str], env: dict | None = None, timeout: int = 60) -> str:
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **(env or {})),
                       timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r.stdout + r.stderr


def period_us(text: str) -> float:
    values = [float(v) for v in re.findall(r"^throughput: ([0-9.]+) iterations/s", text, re.M)]
    if not values or min(values) <= 0:
        raise RuntimeError("no throughput in:\n" + text)
    return 1e6 / min(values)


def build(d: Path) -> None:
    procs = [subprocess.Popen(
        f"cmake -S {p} -B {p}/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >/dev/null && "
        f"cmake --build {p}/build -j 4 >/dev/null", shell=True) for p in sorted((d / "gen").iterdir())]
    sh(["nvcc", "-O2", "-std=c++17", "-arch=native", str(d / "gpu_floor.cu"), "-o", str(d / "gpu_floor")],
       timeout=300)
    for p in procs:
        if p.wait() != 0:
            raise RuntimeError("a generated project failed to build")


def run(args) -> None:
    d = Path(args.dir).resolve()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H-%M-%SZ")
    out = Path(args.out).resolve() if args.out else d / f"gpu_cycle-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []

    def say(s: str) -> None:
        print(s, flush=True)
        lines.append(s)
        (out / "summary.txt").write_text("\n".join(lines) + "\n")

    build(d)
    gpu = sh(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"]).strip()
    say(f"# gpu_cycle {stamp}: {os.cpu_count()} cores, GPU {gpu}")
    say("\n## 1. floor (gpu_floor.cu)")
    for line in sh([str(d / "gpu_floor")], timeout=120).splitlines():
        say(line)
    say("\n## 2. us per cycle (10000 iterations, median of 3 runs; before: the runtime and code before mapped "
        "tokens, copied: this one with every token copied, after: small tokens mapped)")
    say("program,version," + ",".join(STRATEGIES))
    for name in ("cost_gpu", "cost_gpu_alone"):
        rows = {v: {k: [] for k in STRATEGIES} for v in VERSIONS}
        for _ in range(3):  # the versions interleaved, so that drifts of the machine hit all
            for v, suffix in VERSIONS.items():
                app = d / "gen" / f"{name}{suffix}" / "build" / "app"
                for k, flags in STRATEGIES.items():
                    rows[v][k].append(period_us(sh([str(app), "--iterations", "10000", "--stats=period"] + flags)))
        for v in VERSIONS:
            say(f"{name},{v}," + ",".join(f"{statistics.median(x):.3f}" for x in rows[v].values()))
    say("\n## 3. us per cycle by token size, P -> Inc -> C with overlap (5000 iterations, median of 3)")
    say("token_bytes,mapped_us,copied_us,mapped/copied")
    for n in SWEEP_N:
        runs = {"mapped": [], "copied": []}
        for _ in range(3):
            for v in runs:
                app = d / "gen" / f"sweep_{n}.{v}" / "build" / "app"
                runs[v].append(period_us(sh([str(app), "--iterations", "5000", "--stats=period"])))
        m, c = statistics.median(runs["mapped"]), statistics.median(runs["copied"])
        say(f"{4 * n * n},{m:.3f},{c:.3f},{m / c:.3f}")
    print(f"results in {out}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("dir")
    g.add_argument("--before", required=True, help="the runtime/include of the runtime to compare against")
    g.add_argument("--before-flags", default="", help="dfgc flags of the before projects")
    g.add_argument("--dfgc", default="dfgc")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--out")
    args = ap.parse_args()
    generate(args) if args.cmd == "generate" else run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
