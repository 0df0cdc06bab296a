"""dfgc's cost per hop against its CPU peers (bench/peers/README.md): one chain, a source, H stages
that add 1 to every element of a 64-byte token and a sink that checks every token, run by dfgc and
written by hand with oneTBB's flow graph and Taskflow, on the same machine, for three kinds of hop:

  core_to_core  dfgc: the stages alternate between two cores of one host (core_to_core.dfg); the
                peers: chain_peers on --threads threads, with the default policy of a serial
                function_node (tbb_function_node), with queueing_lightweight (tbb_lightweight), a
                tf::ScalablePipeline (taskflow_pipeline), and one thread calling the stages (loop,
                the floor).
  gpu_mapped    the odd stages on a GPU, the token crossing in mapped host memory
                (gpu_mapped.dfg); the same peers, whose GPU stages copy the token into mapped
                memory, launch one kernel and wait for it (chain_peers --gpu).
  mpi_edge      the stages alternate between two hosts, one MPI rank each (mpi_edge.dfg); the
                peer: mpi_chain, blocking MPI_Send and MPI_Recv a hop (mpi_blocking), which TBB and
                Taskflow, being of one process, have no counterpart of.

A hop's cost is the time per token per stage with every stage streaming: dfgc's iteration period
(--stats-json, steady state) over H; a peer's streaming time of its N tokens over N * H (the
median of --reps repetitions in one process). dfgc runs each chain twice: token by token, as the
peers do (dfgc), and with the apps' `batch B` at B = the knob batch (dfgc_batched: each cycle
runs B iterations, the same actors; the GPU stage is a `block` implementation, one launch a
cycle). The report writes peers.csv (the table) and ratios.csv: dfgc / the best peer and
dfgc_batched / the best peer (the goal: at most 0.5), and every program's ns per hop.

The GPU machine has neither oneTBB nor Taskflow: prepare() copies their headers and libtbb into
the generated directory (deps/), from which the peers' build takes them; a library that is not
found here is left out there, and its runs print "skipped".

Knobs (harness.py generate peers DIR --set KEY=VALUE): hops (the values of H: 2, 8 or both), batch
(dfgc_batched's B),
tokens, gpu_tokens, mpi_tokens (a run's N: the iterations of dfgc's), reps (runs of every
program), peer_reps (repetitions inside one peer run), threads (the peers'; dfgc's chains run on
2 PEs), lines (Taskflow's), mpirun, mpicxx, tbb (the prefix of oneTBB's include/ and lib/),
taskflow (the directory holding taskflow/taskflow.hpp; default $TASKFLOW_INCLUDE_DIR)."""

from __future__ import annotations

import csv
import glob
import os
import shutil
from pathlib import Path

from harness import Experiment, Generated, Reference, labelled, median_spread

KNOBS = {"hops": "2 8", "batch": "32", "tokens": "200000", "gpu_tokens": "5000", "mpi_tokens": "50000", "reps": "3",
         "peer_reps": "5", "threads": "2", "lines": "4", "mpirun": "mpirun --allow-run-as-root --bind-to none",
         "mpicxx": "mpicxx", "tbb": "/usr", "taskflow": os.environ.get("TASKFLOW_INCLUDE_DIR", "")}

# The kinds of hop: the dfgc spec, the knob of its tokens, the peer block and its peers.
KINDS = {
    "core_to_core": ("bench/peers/core_to_core.dfg", "tokens", "peers_cpu"),
    "gpu_mapped": ("bench/peers/gpu_mapped.dfg", "gpu_tokens", "peers_gpu"),
    "mpi_edge": ("bench/peers/mpi_edge.dfg", "mpi_tokens", "peers_mpi"),
}
THREADED = ["tbb_function_node", "tbb_lightweight", "taskflow_pipeline"]  # the peers dfgc is judged against
BATCHED = "peers_dfgc_batched_"  # the blocks of dfgc's chains with `batch B` (the knob batch)
FLOOR = "loop"
PEERS = {"peers_cpu": [FLOOR] + THREADED, "peers_gpu": [FLOOR] + THREADED, "peers_mpi": ["mpi_blocking"]}
GOAL = 0.5  # the issue's: dfgc's hop at most half of the best peer's
# Open MPI refuses to run as root without these (the GPU machine runs as root).
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
# A peer's line (bench/peers/chain.hpp): "peer=NAME hops=H ... ns_per_hop=X best_ns_per_hop=Y checked=ok".
METRICS = {"ns_per_hop": r"?(?:^| )ns_per_hop=([0-9.]+)", "best_ns_per_hop": r"?best_ns_per_hop=([0-9.]+)",
           "skipped": r"?^peer=\S+ skipped: (.*)$"}
EXPECT = r"^peer=\S+ (.* checked=ok$|skipped: )"


def hops_of(knobs: dict) -> list[int]:
    hops = sorted({int(h) for h in knobs["hops"].split()})
    if not hops or any(h not in (2, 8) for h in hops):
        raise SystemExit(f"peers: hops: '{knobs['hops']}': the specs hold chains of 2 and 8 stages")
    return hops


def blocks(knobs: dict) -> list:
    """The experiment's blocks, for the suite too: knobs missing from `knobs` take KNOBS' values."""
    k = {**KNOBS, **knobs}
    hops, reps = hops_of(k), int(k["reps"])
    mpirun = k["mpirun"].split() + ["-np", "2"]
    out: list = []
    for kind, (spec, tokens, _) in KINDS.items():
        n = k[tokens]
        on_hosts = dict(hosts=["A", "B"], launcher=mpirun, env=MPI_ENV) if kind == "mpi_edge" else {}
        for h in hops:
            for block, batch in ((f"peers_dfgc_{kind}_h{h}", 1), (f"{BATCHED}{kind}_h{h}", int(k["batch"]))):
                iterations = -(-int(n) // batch) * batch  # a batched program runs whole cycles
                out.append(Generated(block, {f"{kind}_h{h}": (spec, int(kind == "gpu_mapped"))},
                                     defines={"B": [batch]} if batch > 1 else {}, app=f"{kind}_h{h}",
                                     flags=["--iterations", str(iterations), "--stats=period"], repetitions=reps,
                                     expect=rf"^chain sink: {iterations} tokens checked", **on_hosts))
    common = ["--hops", "{hops}", "--reps", k["peer_reps"]]
    threaded = common + ["--peer", "{peer}", "--threads", k["threads"], "--lines", k["lines"]]
    # cmake, with the libraries prepare() copied beside the projects ({build} is generated/<project>).
    cmake = ["bash", "{src}/build.sh", "{src}", "{build}", "-DPEERS_DEPS={build}/../deps"]
    out += [
        Reference("peers_cpu", "bench/peers", "chain_peers", axes={"peer": labelled(PEERS["peers_cpu"]),
                                                                   "hops": labelled(hops)},
                  flags=threaded + ["--tokens", k["tokens"]], metrics=METRICS, expect=EXPECT, gpus=0,
                  repetitions=reps, build=cmake),
        Reference("peers_gpu", "bench/peers", "chain_peers", axes={"peer": labelled(PEERS["peers_gpu"]),
                                                                   "hops": labelled(hops)},
                  flags=threaded + ["--tokens", k["gpu_tokens"], "--gpu"], metrics=METRICS, expect=EXPECT, gpus=1,
                  repetitions=reps, build=cmake + ["-DPEERS_CUDA=ON"]),
        Reference("peers_mpi", "bench/peers", "mpi_chain", axes={"hops": labelled(hops)},
                  flags=common + ["--tokens", k["mpi_tokens"]], metrics=METRICS, expect=EXPECT, gpus=0,
                  repetitions=reps, launcher=mpirun, env=MPI_ENV,
                  build=[k["mpicxx"], "-std=c++20", "-O2", "-Wall", "-Wextra", "{src}/mpi_chain.cpp", "-o",
                         "{build}/mpi_chain"]),
    ]
    return out


def experiment(knobs: dict) -> Experiment:
    return Experiment("peers", "dfgc's cost per hop against oneTBB's flow graph and Taskflow", blocks(knobs))


# --- the libraries that travel ------------------------------------------------------------------

def prepare(out_dir: Path, knobs: dict) -> None:
    """Copies oneTBB's headers and libraries (deps/tbb/include, deps/tbb/lib) and Taskflow's
    headers (deps/taskflow/taskflow) into out_dir, for bench/peers/CMakeLists.txt's PEERS_DEPS
    (out_dir/deps); says what it did not find."""
    k = {**KNOBS, **knobs}
    deps = Path(out_dir) / "deps"
    prefix = Path(k["tbb"])
    headers = [prefix / "include" / d for d in ("oneapi", "tbb")]
    # The libraries under their SONAMEs, as regular files (the directory travels; links may not).
    found = [sorted(glob.glob(str(d / name))) for name in ("libtbb.so.12", "libtbbmalloc.so.2")
             for d in (prefix / "lib" / "x86_64-linux-gnu", prefix / "lib64", prefix / "lib")]
    libraries = {Path(f[0]).name: Path(f[0]) for f in reversed(found) if f}  # the first directory wins
    if all(h.is_dir() for h in headers) and "libtbb.so.12" in libraries:
        for h in headers:
            shutil.copytree(h, deps / "tbb" / "include" / h.name, dirs_exist_ok=True)
        (deps / "tbb" / "lib").mkdir(parents=True, exist_ok=True)
        for name, path in libraries.items():
            shutil.copyfile(path, deps / "tbb" / "lib" / name)
        print(f"peers: oneTBB from {prefix} into {deps / 'tbb'}")
    else:
        print(f"peers: no oneTBB under {prefix} (apt-get install libtbb-dev, or --set tbb=PREFIX): "
              "the tbb_* peers will print 'skipped'")
    taskflow = Path(k["taskflow"]) if k["taskflow"] else None
    if taskflow and (taskflow / "taskflow" / "taskflow.hpp").is_file():
        shutil.copytree(taskflow / "taskflow", deps / "taskflow" / "taskflow", dirs_exist_ok=True)
        print(f"peers: Taskflow from {taskflow} into {deps / 'taskflow'}")
    else:
        print(f"peers: no Taskflow (taskflow/taskflow.hpp under --set taskflow=DIR or $TASKFLOW_INCLUDE_DIR, "
              f"'{k['taskflow']}'): the taskflow_pipeline peer will print 'skipped'")


# --- the table and the ratios -------------------------------------------------------------------

def measured(rows: list[dict]) -> dict[tuple[str, int], dict[str, tuple | str]]:
    """{(kind, H): {program: (median ns per hop, spread, runs) or the reason it was skipped}}, over
    the ok rows of the experiment's blocks: "dfgc", the peers by name."""
    ok = [r for r in rows if r.get("status") == "ok"]
    out: dict[tuple[str, int], dict] = {}
    for kind, (_, _, block) in KINDS.items():
        generated = [r for r in ok
                     if r["block"].startswith("peers_dfgc_") and r["program"].startswith(kind + "_h")]
        for h in sorted({int(r["hops"]) for r in ok if r["block"] == block} |
                        {int(r["program"].rpartition("_h")[2]) for r in generated}):
            cell: dict = {}
            for column, batched in (("dfgc", False), ("dfgc_batched", True)):
                dfgc = [float(r["period_ms"]) * 1e6 / h for r in generated
                        if r["program"] == f"{kind}_h{h}" and r.get("period_ms")
                        and r["block"].startswith(BATCHED) == batched]
                if dfgc:
                    cell[column] = median_spread(dfgc)
            for peer in PEERS[block]:
                mine = [r for r in ok if r["block"] == block and r.get("hops") == str(h)
                        and (r.get("peer") or "mpi_blocking") == peer]  # mpi_chain has no peer axis
                values = [float(r["ns_per_hop"]) for r in mine if r.get("ns_per_hop")]
                skipped = next((r["skipped"] for r in mine if r.get("skipped")), "")
                if values:
                    cell[peer] = median_spread(values)
                elif skipped:
                    cell[peer] = skipped
            out[(kind, h)] = cell
    return out


def best_peer(cell: dict) -> tuple[str, tuple] | None:
    """The fastest of the peers dfgc is judged against (the threaded ones, or MPI's)."""
    judged = [(p, v) for p, v in cell.items()
              if p not in ("dfgc", "dfgc_batched", FLOOR) and isinstance(v, tuple)]
    return min(judged, key=lambda pv: pv[1][0]) if judged else None


def ratios(rows: list[dict], out_dir: Path) -> list[dict]:
    """The suite's ratios (metric, value, spread, runs, lower_is_better, note): per kind and H,
    dfgc / the best peer, then each program's ns per hop."""
    out = []
    for (kind, h), cell in measured(rows).items():
        base = f"peers/{kind}/h{h}"
        best = best_peer(cell)
        for column in ("dfgc", "dfgc_batched"):
            dfgc = cell.get(column)
            if not (isinstance(dfgc, tuple) and best):
                continue
            name, value = best
            out.append({"metric": f"{base}/{column}_over_best_peer", "value": f"{dfgc[0] / value[0]:.4f}",
                        "spread": f"{dfgc[1] + value[1]:.4f}", "runs": f"{dfgc[2]}/{value[2]}", "lower_is_better": 1,
                        "note": f"{column} {dfgc[0]:.4g} ns a hop, best peer {name} {value[0]:.4g} ns; goal <= {GOAL}"})
        for program, value in cell.items():
            if isinstance(value, tuple):
                out.append({"metric": f"{base}/{program}_ns_per_hop", "value": f"{value[0]:.4f}",
                            "spread": f"{value[1]:.4f}", "runs": str(value[2]), "lower_is_better": 1,
                            "note": "the floor: one thread, no runtime" if program == FLOOR else ""})
    return out


def shown(cell: dict, program: str) -> str:
    """A cell of the table: ns per hop, "skipped" or "-"."""
    v = cell.get(program)
    return f"{v[0]:.1f}" if isinstance(v, tuple) else ("skipped" if v else "-")


def report(rows: list[dict], out_dir: Path) -> list[str]:
    """The table (printed, and peers.csv) and the ratios (ratios.csv)."""
    table = measured(rows)
    programs = ["dfgc", "dfgc_batched", FLOOR] + THREADED + ["mpi_blocking"]
    widths = [max(len(p), 8) for p in programs]
    lines = ["  ns per hop (time per token per stage, median of the runs); ratio: dfgc / the best peer "
             f"(not the loop), goal <= {GOAL}; batched: dfgc's chain with `batch B` (B = the knob batch)",
             "    " + f"{'hop':<13} {'H':>2} " + " ".join(f"{p:>{w}}" for p, w in zip(programs, widths)) +
             f" {'ratio':>7} {'batched':>7}  best peer"]
    csv_rows = []
    for (kind, h), cell in table.items():
        best = best_peer(cell)
        ratio, batched = (cell[c][0] / best[1][0] if isinstance(cell.get(c), tuple) and best else None
                          for c in ("dfgc", "dfgc_batched"))
        verdict = "" if batched is None else ("goal met batched" if batched <= GOAL else "goal not met")
        lines.append("    " + f"{kind:<13} {h:>2} " +
                     " ".join(f"{shown(cell, p):>{w}}" for p, w in zip(programs, widths)) +
                     f" {'-' if ratio is None else f'{ratio:.3f}':>7} {'-' if batched is None else f'{batched:.3f}':>7}"
                     f"  {best[0] if best else '-'} {verdict}".rstrip())
        csv_rows.append({"hop": kind, "hops": h, **{f"{p}_ns": shown(cell, p) for p in programs},
                         "best_peer": best[0] if best else "",
                         "dfgc_over_best_peer": "" if ratio is None else f"{ratio:.4f}",
                         "dfgc_batched_over_best_peer": "" if batched is None else f"{batched:.4f}"})
        lines += [f"    {kind} h{h}: {p} skipped: {v}" for p, v in cell.items() if isinstance(v, str)]
    for kind, (_, _, block) in KINDS.items():
        if not any(k == kind for k, _ in table):
            why = sorted({r["status"] for r in rows
                          if r["block"] == block or r["block"].startswith(f"peers_dfgc_{kind}_h")})
            lines.append(f"    {kind:<13} not measured: {', '.join(why) or 'no runs'}")
    if csv_rows:
        with (out_dir / "peers.csv").open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(csv_rows[0]))
            writer.writeheader()
            writer.writerows(csv_rows)
    found = ratios(rows, out_dir)
    with (out_dir / "ratios.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["metric", "value", "spread", "runs", "lower_is_better", "note"])
        writer.writeheader()
        writer.writerows(found)
    lines.append(f"  the table in peers.csv, {len(found)} ratios in ratios.csv")
    return lines
