#!/usr/bin/env python3
"""The runtime's own cost per cycle (README.md beside this file): empty actors and 4-byte tokens
(empty.dfg) on 1 to 4 PEs, every strategy and sync mode, against a hand-written loop doing the
same actor work; the GPU programs also built with another copy of the runtime's headers, side by
side.

    runtime_cost.py generate DIR [--before RUNTIME_INCLUDE] [--dfgc PATH]
        here: writes one mapping of empty.dfg per PE kind and count into DIR/specs and compiles
        each into DIR/gen/NAME (with --before, each also into DIR/gen/NAME.before, whose
        runtime/ is RUNTIME_INCLUDE); copies gpu_floor.cu, mpi_bench.py and this script into DIR.
          cpu_N      one host, N CPU cores (`cpu c N;`): a chain Source -> Pass ... -> Sink, one
                     node per core (N = 1: Source -> Pass -> Sink on the one core);
          ranks_N    the same chain over N hosts of one `cpu` each, one rank each (N = 2 .. 4;
                     one rank is cpu_1);
          gpu_N      one GPU and N - 1 CPU cores: N = 1 Source -> Pass -> Sink on the GPU (the
                     host's CPU core, which a host needs, holds no node and shares nothing), N = 2
                     Source and Sink on c0 around it, N = 3 Source on c0, Sink on c1, N = 4 a Pass
                     on c1 between them and the Sink on c2; no GPU node launches anything;
          gpuk_N     the same, the GPU's Pass launching one empty kernel a cycle.
    runtime_cost.py run DIR [--out RESULTS] [--repeats R] [--only PREFIXES] [--version-flags V=FLAGS]
        there (cmake, g++, nvcc and a GPU, Open MPI): builds the programs (those whose names begin
        with one of PREFIXES, comma-separated: default cpu,ranks,gpu) and gpu_floor, and prints
        1. the floor (gpu_floor.cu): each CUDA call back to back (launch_empty: the empty kernel),
           hand-written cycles, and CUDA graphs of K cycles' launches relaunched;
        2. per program, version (DIR/gen/NAME: after; DIR/gen/NAME.V: V, e.g. before; copies
           made by hand with another runtime count as versions too; --version-flags V=FLAGS runs
           each GPU program's own binary once more as version V with FLAGS added, e.g.
           streams=--no-graphs for the cycles enqueued call by call) and strategy: us per cycle
           (--stats=period: 20000 cycles on CPUs, 10000 with a GPU; the median of R runs, default
           3, every program and version interleaved in each round), us per cycle per PE, the
           hand-written loop's us per cycle (an empty firing costs nothing; a launching GPU
           node's launch: launch_empty of the same call) and the runtime's own cost, the period
           minus that loop, also per PE; for the strategies that wait for each cycle's end
           (--sync=barrier, --no-overlap), also against the loop that waits so (one round trip a
           cycle: event_ahead1, launch_event_ahead1). A run that fails or outlasts 60 s is left
           out of its median (failures.txt); FAIL where all did.
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
COUNTS = (1, 2, 3, 4)


def chain(n: int, pes: list[str]) -> str:
    """Source -> Pass ... -> Sink, node k on pes[k]; where n is 1, Source -> Pass -> Sink on pes[0]."""
    if n == 1:
        return chain(3, pes * 3)
    kinds = ["Source"] + ["Pass"] * (n - 2) + ["Sink"]
    text = "".join(f"  node n{k} : {kinds[k]} @ {pes[k]};\n" for k in range(n))
    for k in range(n - 1):
        text += f"  n{k}.{'m' if k == 0 else 'b'} -> n{k + 1}.{'m' if k == n - 2 else 'a'};\n"
    return text


def gpu_app(n: int, actor: str) -> str:
    """The GPU node `g` (`actor`) with n - 1 CPU cores around it."""
    if n == 1:
        return (f"  node src : Source @ A.g0;\n  node g : {actor} @ A.g0;\n  node snk : Sink @ A.g0;\n"
                "  src.m -> g.a;\n  g.b -> snk.m;\n")
    sink = "A.c0" if n == 2 else f"A.c{n - 2}"
    text = f"  node src : Source @ A.c0;\n  node g : {actor} @ A.g0;\n  node snk : Sink @ {sink};\n"
    text += "  src.m -> g.a;\n"
    if n == 4:
        return text + "  node mid : Pass @ A.c1;\n  g.b -> mid.a;\n  mid.b -> snk.m;\n"
    return text + "  g.b -> snk.m;\n"


def specs() -> dict[str, tuple[int, str]]:
    """name -> (PEs, the mapping's text)."""
    out = {}
    for n in COUNTS:
        out[f"cpu_{n}"] = (n, f"arch a {{\n  host A {{ cpu c {n}; }}\n}}\n\napp cpu_{n} on a {{\n"
                              + chain(n, [f"A.c{k}" for k in range(n)]) + "}\n")
    for n in COUNTS[1:]:
        hosts = [chr(ord("A") + k) for k in range(n)]
        arch = "".join(f"  host {h} {{ cpu; }}\n" for h in hosts)
        arch += "".join(f"  link {hosts[k]}.cpu <-> {hosts[k + 1]}.cpu net (9 GB/s, 2 us);\n"
                        for k in range(n - 1))
        out[f"ranks_{n}"] = (n, f"arch a {{\n{arch}}}\n\napp ranks_{n} on a {{\n"
                                + chain(n, [f"{h}.cpu" for h in hosts]) + "}\n")
    for prefix, actor in (("gpu", "Pass"), ("gpuk", "PassKernel")):
        for n in COUNTS:
            cores = max(1, n - 1)
            arch = (f"arch a {{\n  host A {{ cpu c {cores}; gpu g0 = 0; }}\n"
                    f"  link A.c0 <-> A.g0 pcie (25 GB/s);\n}}\n")
            out[f"{prefix}_{n}"] = (n, f"{arch}\napp {prefix}_{n} on a {{\n" + gpu_app(n, actor) + "}\n")
    return out


def generate(args) -> None:
    out = Path(args.dir).resolve()
    (out / "specs" / "actors").mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "empty.dfg", out / "specs" / "empty.dfg")
    for f in ("empty.hpp", "empty.cuh"):
        shutil.copy(HERE / "actors" / f, out / "specs" / "actors" / f)
    gen = out / "gen"
    shutil.rmtree(gen, ignore_errors=True)
    gen.mkdir()
    for name, (_, text) in specs().items():
        spec = out / "specs" / f"{name}.dfg"
        spec.write_text(f"// {name}: written by runtime_cost.py\nimport \"empty.dfg\";\n\n{text}")
        subprocess.run([args.dfgc, "compile", str(spec), "-o", str(gen / name)], check=True)
        if args.before:
            before = gen / f"{name}.before"
            shutil.copytree(gen / name, before)
            shutil.rmtree(before / "runtime")
            shutil.copytree(Path(args.before), before / "runtime")
    shutil.copy(HERE / "gpu_floor.cu", out / "gpu_floor.cu")
    shutil.copy(ROOT / "bench" / "hosts" / "mpi_bench.py", out / "mpi_bench.py")
    shutil.copy(Path(__file__), out / "runtime_cost.py")
    print(f"generated into {out}")


def period_us(text: str) -> float:
    values = [float(v) for v in re.findall(r"^throughput: ([0-9.]+) iterations/s", text, re.M)]
    if not values or min(values) <= 0:
        raise RuntimeError("no throughput in:\n" + text)
    return 1e6 / min(values)


def build(d: Path, sh, only: tuple[str, ...]) -> None:
    procs = [subprocess.Popen(
        f"cmake -S {p} -B {p}/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ "
        f"-DCMAKE_CUDA_ARCHITECTURES=native >/dev/null && cmake --build {p}/build -j 2 >/dev/null",
        shell=True) for p in sorted((d / "gen").iterdir()) if p.name.startswith(only)]
    sh(["nvcc", "-O2", "-std=c++17", "-arch=native", str(d / "gpu_floor.cu"), "-o", str(d / "gpu_floor")],
       timeout=300)
    failed = [p.args for p in procs if p.wait() != 0]
    if failed:
        raise RuntimeError("failed to build:\n" + "\n".join(failed))


def run(args) -> None:
    d = Path(args.dir).resolve()
    sys.path.insert(0, str(d))
    import mpi_bench  # copied beside this script by generate

    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H-%M-%SZ")
    out = Path(args.out).resolve() if args.out else d / f"runtime_cost-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []

    def say(s: str) -> None:
        print(s, flush=True)
        lines.append(s)
        (out / "summary.txt").write_text("\n".join(lines) + "\n")

    build(d, mpi_bench.sh, tuple(args.only.split(",")))
    gpu = mpi_bench.sh(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"]).strip()
    say(f"# runtime_cost {stamp}: {os.cpu_count()} cores, GPU {gpu}")
    say("\n## 1. floor (gpu_floor.cu)")
    floor: dict[str, float] = {}
    for line in mpi_bench.sh([str(d / "gpu_floor")], timeout=120).splitlines():
        say(line)
        m = re.match(r"^([a-z0-9_]+),([0-9.]+)$", line)
        if m:
            floor[m.group(1)] = float(m.group(2))

    pes = {name: n for name, (n, _) in specs().items() if name.startswith(tuple(args.only.split(",")))}
    # (program, version, project): every project of the program, NAME ("after") and NAME.VERSION
    programs = [(p.name.split(".")[0], p.name.partition(".")[2] or "after", p, [])
                for p in (d / "gen").iterdir() if p.name.split(".")[0] in pes]
    # --version-flags V=FLAGS: every GPU program once more as version V, its own binary with FLAGS
    for spec in args.version_flags or []:
        version, _, flags = spec.partition("=")
        programs += [(name, version, p, flags.split()) for name, v, p, _ in list(programs)
                     if v == "after" and name.startswith("gpu")]
    programs.sort(key=lambda x: (x[0], x[1] != "before", x[1] == "after", x[1]))  # before .. after
    runs: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(args.repeats):  # every program and version in each round: drifts hit all
        for name, v, project, extra in programs:
            app = str(project / "build" / "app")
            cycles = "10000" if name.startswith("gpu") else "20000"
            for k, flags in STRATEGIES.items():
                cmd = [app, "--iterations", cycles, "--stats=period"] + flags + extra
                if name.startswith("ranks"):
                    cmd = mpi_bench.MPIRUN + ["--oversubscribe", "-np", str(pes[name])] + cmd
                try:
                    us = period_us(mpi_bench.sh(cmd, timeout=60))
                except (RuntimeError, subprocess.TimeoutExpired) as e:  # a FAIL row, not the end
                    with open(out / "failures.txt", "a") as f:
                        f.write(f"{name} {v} {k}: {e}\n")
                    us = float("nan")
                runs.setdefault((name, v, k), []).append(us)

    say(f"\n## 2. us per cycle (median of {args.repeats} interleaved runs); hand: the hand-written loop of "
        "the same actor work, free-running (0 for empty firings; launch_empty above for a launching GPU node); "
        "runtime = us - hand; sync_hand: the same loop waiting for each cycle's end, as --sync=barrier and "
        "--no-overlap do (a GPU: event_ahead1, launch_event_ahead1 with a launch; 0 on CPUs); "
        "sync_runtime = us - sync_hand, for those strategies")
    say("program,pes,version,strategy,us,us_per_pe,hand_us,runtime_us,runtime_us_per_pe,sync_hand_us,sync_runtime_us")
    for name, v, _, _ in programs:
        hand = floor.get("launch_empty", 0.0) if name.startswith("gpuk") else 0.0
        sync_hand = floor.get("launch_event_ahead1" if name.startswith("gpuk") else "event_ahead1", 0.0) \
            if name.startswith("gpu") else 0.0
        for k in STRATEGIES:
            ok = [x for x in runs[(name, v, k)] if x == x]
            n = pes[name]
            if not ok:
                say(f"{name},{n},{v},{k},FAIL,,,,,,")
                continue
            us = statistics.median(ok)
            waits = k != "overlap"
            say(f"{name},{n},{v},{k},{us:.3f},{us / n:.3f},{hand:.3f},{us - hand:.3f},{(us - hand) / n:.3f},"
                + (f"{sync_hand:.3f},{us - sync_hand:.3f}" if waits else ","))
    print(f"results in {out}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("dir")
    g.add_argument("--before", help="the runtime/include of the runtime to compare against")
    g.add_argument("--dfgc", default="dfgc")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--out")
    r.add_argument("--repeats", type=int, default=3)
    r.add_argument("--only", default="cpu,ranks,gpu", help="the programs whose names begin so (comma-separated)")
    r.add_argument("--version-flags", action="append", metavar="V=FLAGS",
                   help="also run each GPU program as version V, with FLAGS added (e.g. streams=--no-graphs)")
    args = ap.parse_args()
    generate(args) if args.cmd == "generate" else run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
