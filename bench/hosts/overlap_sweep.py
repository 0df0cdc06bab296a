#!/usr/bin/env python3
"""Overlap on several ranks, and the runtime's own cost per cycle: CPU-only programs as MPI ranks
on one machine (bench/hosts/spin_*.dfg, README.md beside this file).

    overlap_sweep.py generate DIR [--dfgc PATH] [--before-dfgc PATH]
        here (where dfgc runs): `dfgc compile` of spin_one .. spin_four into DIR/gen/, and a copy of
        mpi_ping.cpp, mpi_progress.cpp, mpi_chain.cpp, the runtime headers and this script into DIR;
        with --before-dfgc, spin_two and spin_three compiled by that dfgc too, as
        DIR/gen/spin_NAME.before, which the sweep runs beside them.
    overlap_sweep.py run DIR [--out RESULTS] [--quick] [--sections 1,2,3,4] [--ranks 2,3]
                     [--repeats N] [--fires 0,0.25,...] [--cases ...]
        there (Open MPI, cmake, g++): builds every project and the MPI programs, runs
        1. mpi_progress: the three ways to progress MPI during a firing (inline, the comm thread,
           MPI_THREAD_MULTIPLE with a polling thread), 4 MiB tokens, firing times 0 .. 4x the transfer;
        2. the overlap sweep: spin_two (A -> B) and spin_three (A -> B -> C), tokens of S bytes,
           every CPU actor firing for F us (DFG_BENCH_FIRE_US), F from well below to well above the
           transfer time, with overlap (--sync=neighbours and barrier, two lanes and one) and
           without, the .before projects where there are, and mpi_chain's hand-written reference;
           each point N times, interleaved, medians;
        3. the runtime's cost: spin_one .. spin_four with empty firings and 1-byte tokens, the
           period per cycle in microseconds, every strategy and sync mode, with the communication
           thread's two lanes and with one (DFG_MPI_LANES=1); on one rank, chains over 1 to 4
           CPU cores of one host (cost_cores_K) and, where nvidia-smi lists a GPU, P -> Inc -> C
           with a 4-byte token and an almost empty kernel on one GPU (cost_gpu);
        4. the CPU-only samples on several hosts (samples/*/two_hosts_cpu.dfg, three_hosts_cpu.dfg,
           fir_bank/two_hosts.dfg), with overlap against without;
        prints every number and ratio and writes them under RESULTS (CSV files and summary.txt).

The sweep's bound. A point's busiest resource is max(F, chain), with chain the period of the same
ranks' transfers alone: mpi_chain `serial` (every rank posts its cycle's sends, then its receive,
and waits, nothing else) at F = 0, measured in the same call. On two ranks that is one S-byte
MPI_Issend (mpi_ping's one-way time, printed beside it); on three it is what the chain's copies take
when the middle rank's receive and the last rank's receive run at once (over Open MPI's shared
memory each receiver copies the token out of its sender's memory), which one ping does not see.
The reference is mpi_chain `thread` at the same F: a progress thread of its own per rank, posting
sends then the receive and blocking in MPI_Waitall while the rank computes: the best hand-written
program of the same cycle, double-buffered as the generated one. The sweep prints, per point,
overlap / busiest, overlap / reference and overlap / no overlap (and the .before projects' same
ratios). The goals: overlap period <= 1.1 x busiest at every point, overlap never slower than no
overlap (the sweep and the samples); the runtime's cost <= 2 us per cycle per CPU PE, <= 5 us per
GPU PE. Where F is close to the chain's period, a cycle of coupled ranks takes the slowest of
several ranks' firings and copies, each of which varies from cycle to cycle on a shared machine:
the reference shows what is reachable there (bench/hosts/README.md).
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import mpi_bench
from mpi_bench import MPIRUN, SINGLE_COPY, STRATEGIES, sh

HERE = Path(__file__).resolve().parent
SPECS = {"one": 1, "two": 2, "three": 3, "four": 4}
SWEPT = {2: "two", 3: "three"}  # the sweep's ranks and their specs
# The sweep's runs of a generated program: flags and environment.
SWEEP_CASES = {"overlap": ([], {}), "overlap_barrier": (["--sync=barrier"], {}), "no_overlap": (["--no-overlap"], {}),
               "overlap_one_lane": ([], {"DFG_MPI_LANES": "1"}), "overlap_two_lanes": ([], {"DFG_MPI_LANES": "2"})}
CORES = (1, 2, 3, 4)
ROOT = HERE.parent.parent
# The CPU-only samples on several hosts: (project name, spec, dfgc defines, ranks, run flags).
SAMPLES = [("overlap_two_hosts_cpu", "samples/overlap/two_hosts_cpu.dfg", ["-D", "N=256"], 2, []),
           ("overlap_three_hosts_cpu", "samples/overlap/three_hosts_cpu.dfg", ["-D", "N=256"], 3, []),
           ("fir_bank_two_hosts", "samples/fir_bank/two_hosts.dfg", [], 2, ["--set", "N=65536"]),
           ("iir_two_hosts_cpu", "samples/iir/two_hosts_cpu.dfg", [], 2, []),
           ("multirate_two_hosts_cpu", "samples/multirate/two_hosts_cpu.dfg", [], 2, []),
           ("packets_two_hosts_cpu", "samples/packets/two_hosts_cpu.dfg", [], 2, [])]


def cores_spec(k: int) -> str:
    """A chain over k CPU cores of one host: Source on c0, a Pass on each of c1 .. c(k-2), the Sink
    on c(k-1) (on c0 too for k = 1)."""
    nodes = ["p : Source @ A.c0"] + [f"i{i} : Pass @ A.c{i}" for i in range(1, k - 1)]
    nodes.append(f"c : Sink @ A.c{max(k - 1, 0)}")
    names = [n.split(" : ")[0] for n in nodes]
    edges = [f"{a}.{'m' if a == 'p' else 'b'} -> {b}.{'m' if b == 'c' else 'a'}" for a, b in zip(names, names[1:])]
    body = "".join(f"  node {n};\n" for n in nodes) + "".join(f"  {e};\n" for e in edges)
    return (f'import "{HERE / "spin.dfg"}";\n\narch cores {{ host A {{ cpu c {k}; }} }}\n\n'
            f"app cost_cores_{k} on cores {{\n{body}}}\n")


def generate(args) -> None:
    out = Path(args.dir).resolve()
    (out / "gen").mkdir(parents=True, exist_ok=True)
    for name in SPECS:
        subprocess.run([args.dfgc, "compile", str(HERE / f"spin_{name}.dfg"), "-o", str(out / "gen" / f"spin_{name}")],
                       check=True)
    (out / "specs").mkdir(exist_ok=True)
    for k in CORES:
        spec = out / "specs" / f"cost_cores_{k}.dfg"
        spec.write_text(cores_spec(k))
        subprocess.run([args.dfgc, "compile", str(spec), "-o", str(out / "gen" / f"cost_cores_{k}")], check=True)
    subprocess.run([args.dfgc, "compile", str(ROOT / "bench/overlap/one_gpu.dfg"), "-o", str(out / "gen" / "cost_gpu"),
                    "-D", "N=1", "-D", "NB=5"], check=True)
    for name, spec, defines, _, _ in SAMPLES:
        subprocess.run([args.dfgc, "compile", str(ROOT / spec), "-o", str(out / "gen" / name)] + defines, check=True)
    if args.before_dfgc:
        for name in SWEPT.values():
            subprocess.run([args.before_dfgc, "compile", str(HERE / f"spin_{name}.dfg"), "-o",
                            str(out / "gen" / f"spin_{name}.before")], check=True)
    for f in ("mpi_ping.cpp", "mpi_progress.cpp", "mpi_chain.cpp", "overlap_sweep.py", mpi_bench.FILE.name):
        shutil.copy(HERE / f, out / f)
    shutil.copytree(HERE.parent.parent / "runtime" / "include", out / "runtime_include", dirs_exist_ok=True)
    print(f"generated into {out}")


def mpirun(np: int, cmd: list[str]) -> list[str]:
    return cmd if np == 1 else MPIRUN + ["-np", str(np)] + cmd


def build(d: Path) -> None:
    jobs = max(1, (os.cpu_count() or 2) // 4)
    procs = []
    gpu = shutil.which("nvcc") is not None and shutil.which("nvidia-smi") is not None
    for p in sorted((d / "gen").iterdir()):
        if p.name == "cost_gpu" and not gpu:
            continue
        procs.append(subprocess.Popen(
            f"cmake -S {p} -B {p}/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >/dev/null && "
            f"cmake --build {p}/build -j {jobs} >/dev/null", shell=True))
    inc = d / "runtime_include"
    for prog in ("mpi_ping", "mpi_progress", "mpi_chain"):
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


def app(d: Path, name: str, version: str = "") -> list[str]:
    return mpirun(SPECS[name], [str(d / "gen" / f"spin_{name}{version}" / "build" / "app")])


def median(values: list[float]) -> float:
    return statistics.median(values)


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
    if not args.no_build:
        build(d)
    if args.build_only:
        return
    say(f"# hosts_overlap {stamp}: {os.cpu_count()} cores, GPU {gpu}, {sh(['mpirun', '--version']).splitlines()[0]}")
    token = 4 << 20
    link_ms = metric(sh(mpirun(2, [str(d / "mpi_ping"), str(token), "50", "5"])), r"mpi one-way: ([0-9.]+) ms")
    say(f"# link: one 4 MiB MPI_Issend between two ranks takes {link_ms:.4f} ms (mpi_ping, one-way)")
    none_ms = metric(sh(mpirun(2, [str(d / "mpi_ping"), str(token), "50", "5"]), env={SINGLE_COPY: "none"}),
                     r"mpi one-way: ([0-9.]+) ms")
    say(f"# {SINGLE_COPY} was {os.environ.get(SINGLE_COPY, 'unset')} here; every run leaves it unset (the "
        f"library's choice); with it none the same message takes {none_ms:.4f} ms")
    link_us = link_ms * 1000

    sections = {int(s) for s in args.sections.split(",")}

    def save() -> None:
        (out / "summary.txt").write_text("\n".join(lines) + "\n")

    if 1 in sections:
        progress(d, out, say, token, link_us)
    if 2 in sections:
        fires = [float(f) for f in args.fires.split(",")] if args.fires else (
            [0, 0.1, 0.25, 0.5, 1, 2, 4] if not args.quick else [0, 1, 4])
        sweep(d, out, say, args, token, link_us, fires)
        save()
    if 3 in sections:
        cost(d, out, say, args)
        save()
    if 4 in sections:
        samples(d, out, say)
    save()
    print(f"results in {out}")


def progress(d: Path, out: Path, say, token: int, link_us: float) -> None:
    """1. The ways to progress MPI during a firing."""
    say("\n## 1. progress during a firing (mpi_progress, 4 MiB A -> B each cycle, both ranks fire F us)")
    say("mode,fire_us,period_us,period/max(F;link),period/(F+link)")
    csv = ["mode,bytes,fire_us,period_us,link_us"]
    for f in (round(x * link_us) for x in (0, 0.5, 1, 2)):
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


def sweep(d: Path, out: Path, say, args, token: int, link_us: float, fires: list[float]) -> None:
    """2. The overlap sweep of the generated programs, against the chain's bound and mpi_chain's
    hand-written reference (the file comment)."""
    cases = args.cases.split(",")
    repeats = args.repeats
    iterations = "100" if args.quick else "200"
    say(f"\n## 2. overlap sweep (S = {token} bytes, every CPU actor fires F us; {repeats} runs a point, interleaved, "
        f"medians; busiest = max(F, chain); chain = mpi_chain serial at F = 0, the ranks' transfers alone; "
        f"reference = mpi_chain thread at F; one_lane / two_lanes: DFG_MPI_LANES; before: the .before projects)")
    csv = ["ranks,fire_us,case,run,period_us"]

    def chain(mode: str, np: int, f: float) -> float:
        return metric(sh(mpirun(np, [str(d / "mpi_chain"), mode, str(token), str(f), iterations])),
                      r"period_us=([0-9.]+)")

    def generated(np: int, version: str, case: str, f: float) -> float:
        flags, env = SWEEP_CASES[case]
        text = sh(app(d, SWEPT[np], version) + ["--iterations", iterations, "--set", f"S={token}",
                                                "--stats=period"] + flags, env={"DFG_BENCH_FIRE_US": str(f), **env})
        return period_ms(text) * 1000

    worst: dict[str, float] = {}
    for np in (int(r) for r in args.ranks.split(",")):
        before = (d / "gen" / f"spin_{SWEPT[np]}.before").is_dir()
        chain_runs = [chain("serial", np, 0) for _ in range(repeats)]
        chain_us = median(chain_runs)
        csv += [f"{np},0,chain,{i},{v:.2f}" for i, v in enumerate(chain_runs)]
        say(f"\n{np} ranks: chain {chain_us:.1f} us (runs {', '.join(f'{v:.0f}' for v in chain_runs)}); "
            f"one ping {link_us:.1f} us")
        runs = {"reference": lambda f: chain("thread", np, f)}
        for case in cases:
            runs[case] = lambda f, case=case: generated(np, "", case, f)
        if before:
            for case in ("overlap", "no_overlap"):
                runs[f"before_{case}"] = lambda f, case=case: generated(np, ".before", case, f)
        ratios = [f"{c}/busiest" for c in runs if c.startswith("overlap") or c == "before_overlap"]
        ratios += ["overlap/reference", "overlap/no_overlap"] + (["before_overlap/no_overlap"] if before else [])
        say("fire_us,busiest_us," + ",".join(f"{c}_us" for c in runs) + "," + ",".join(ratios))
        for f in (round(x * chain_us) for x in fires):
            got: dict[str, list[float]] = {c: [] for c in runs}
            for i in range(repeats):
                for c, fn in runs.items():
                    got[c].append(fn(f))
                    csv.append(f"{np},{f},{c},{i},{got[c][-1]:.2f}")
            m = {c: median(v) for c, v in got.items()}
            busiest = max(f, chain_us)
            r = {c: m[c.split("/")[0]] / busiest for c in ratios if c.endswith("/busiest")}
            r["overlap/reference"] = m["overlap"] / m["reference"]
            r["overlap/no_overlap"] = m["overlap"] / m["no_overlap"]
            if before:
                r["before_overlap/no_overlap"] = m["before_overlap"] / m["before_no_overlap"]
            for k, v in r.items():
                worst[f"{np} ranks {k}"] = max(worst.get(f"{np} ranks {k}", 0.0), v)
            say(f"{f},{busiest:.1f}," + ",".join(f"{m[c]:.1f}" for c in runs) + "," +
                ",".join(f"{r[c]:.3f}" for c in ratios))
    (out / "sweep.csv").write_text("\n".join(csv) + "\n")
    say("worst over the points: " + "; ".join(f"{k} {v:.3f}" for k, v in worst.items()))


def cost(d: Path, out: Path, say, args) -> None:
    """3. The runtime's own cost per cycle."""
    say("\n## 3. runtime cost (empty firings, 1-byte tokens; period per cycle in us; one CPU PE per rank, "
        "lanes: the communication thread's, DFG_MPI_LANES)")
    say("ranks,lanes,overlap,overlap_barrier,no_overlap,no_overlap_barrier")
    csv = ["pes,kind,lanes,strategy,period_us"]
    cycles = "20000" if args.quick else "50000"

    def periods(cmd: list[str], env: dict) -> dict:
        out_us = {}
        for label, flags in STRATEGIES.items():
            out_us[label] = period_ms(sh(cmd + ["--iterations", cycles, "--stats=period"] + flags, env=env)) * 1000
        return out_us

    for name, pes in SPECS.items():
        for lanes in ("2", "1"):
            if pes == 1 and lanes == "1":
                continue
            us = periods(app(d, name) + ["--set", "S=1"], {"DFG_BENCH_FIRE_US": "0", "DFG_MPI_LANES": lanes})
            csv += [f"{pes},cpu_ranks,{lanes},{k},{v:.3f}" for k, v in us.items()]
            say(f"{pes},{lanes if pes > 1 else '-'}," + ",".join(f"{v:.3f}" for v in us.values()))
    say("one rank, a chain over K CPU cores of one host (every core a PE):")
    say("cores,overlap,overlap_barrier,no_overlap,no_overlap_barrier")
    for k in CORES:
        us = periods([str(d / "gen" / f"cost_cores_{k}" / "build" / "app"), "--set", "S=1"], {"DFG_BENCH_FIRE_US": "0"})
        csv += [f"{k},cpu_cores,,{label},{v:.3f}" for label, v in us.items()]
        say(f"{k}," + ",".join(f"{v:.3f}" for v in us.values()))
    gpu_app = d / "gen" / "cost_gpu" / "build" / "app"
    if gpu_app.exists():
        say("one GPU PE (P -> Inc -> C, a 4-byte token, the kernel's series 6 terms; P and C on the CPU PE):")
        say("gpu_pes,overlap,overlap_barrier,no_overlap,no_overlap_barrier")
        us = periods([str(gpu_app)], {})
        csv += [f"1,gpu,,{label},{v:.3f}" for label, v in us.items()]
        say("1," + ",".join(f"{v:.3f}" for v in us.values()))
    (out / "cost.csv").write_text("\n".join(csv) + "\n")


def samples(d: Path, out: Path, say) -> None:
    """4. The samples on several hosts: overlap against no overlap."""
    say("\n## 4. CPU-only samples on several hosts (iterations for about 0.5 s a run): period ms, overlap / no overlap")
    say("sample,ranks,overlap_ms,overlap_barrier_ms,no_overlap_ms,overlap/no_overlap,barrier/no_overlap")
    csv = ["sample,ranks,strategy,period_ms"]
    worst_sample = 0.0
    for name, _, _, np, flags in SAMPLES:
        periods = {}
        probe = period_ms(sh(mpirun(np, [str(d / "gen" / name / "build" / "app")]) + ["--iterations", "300",
                                                                                        "--stats=period"] + flags))
        iterations = str(max(300, min(50000, round(500 / probe))))
        for label in ("overlap", "overlap_barrier", "no_overlap"):
            text = sh(mpirun(np, [str(d / "gen" / name / "build" / "app")]) + ["--iterations", iterations, "--stats=period"]
                      + flags + STRATEGIES[label])
            periods[label] = period_ms(text)
            csv.append(f"{name},{np},{label},{periods[label]:.4f}")
        r1 = periods["overlap"] / periods["no_overlap"]
        r2 = periods["overlap_barrier"] / periods["no_overlap"]
        worst_sample = max(worst_sample, r1, r2)
        say(f"{name},{np},{periods['overlap']:.4f},{periods['overlap_barrier']:.4f},{periods['no_overlap']:.4f},"
            f"{r1:.3f},{r2:.3f}")
    say(f"worst sample overlap/no_overlap (both sync modes): {worst_sample:.3f} (goal <= 1.0)")
    (out / "samples.csv").write_text("\n".join(csv) + "\n")


def run_options(r) -> None:
    r.add_argument("--quick", action="store_true", help="fewer points and cycles")
    r.add_argument("--build-only", action="store_true", help="build the projects and MPI programs, run nothing")
    r.add_argument("--no-build", action="store_true", help="run what an earlier --build-only built")
    r.add_argument("--sections", default="1,2,3,4", help="the sections to run (1 progress, 2 sweep, 3 cost, 4 samples)")
    r.add_argument("--ranks", default="2,3", help="the sweep's rank counts")
    r.add_argument("--repeats", type=int, default=3, help="the sweep's runs a point (medians)")
    r.add_argument("--fires", help="the sweep's firing times, in chains (default 0,0.1,0.25,0.5,1,2,4)")
    r.add_argument("--cases", default="overlap,overlap_barrier,no_overlap,overlap_one_lane",
                   help=f"the sweep's runs of the generated programs, of {','.join(SWEEP_CASES)}")


def generate_options(g) -> None:
    g.add_argument("--before-dfgc", help="a second dfgc: spin_two and spin_three from it as gen/spin_NAME.before")


def main() -> int:
    return mpi_bench.main(__doc__, generate, run, generate_options=generate_options, run_options=run_options)


if __name__ == "__main__":
    sys.exit(main())
