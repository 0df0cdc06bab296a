"""What overlap_sweep.py, lanes_cost.py and overlap_vs_serial.py share: their command line
(`generate DIR` where dfgc runs, `run DIR [--out RESULTS]` on the machine that builds and runs the
programs), the MPI launcher
and environment of their runs, the strategies' flags, and sh(). `generate` copies this file into
DIR beside the script, which imports it from there."""

from __future__ import annotations

import argparse
import os
import subprocess
from pathlib import Path
from typing import Callable

FILE = Path(__file__).resolve()
ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
# Open MPI: without --bind-to none it pins each rank, all its threads, to one core. DFG_BENCH_MPIRUN
# replaces the whole launcher (e.g. "mpiexec" for MPICH).
MPIRUN = os.environ.get("DFG_BENCH_MPIRUN", "mpirun --allow-run-as-root --bind-to none").split()
# Open MPI's shared-memory transport: with a single-copy mechanism (CMA, its default where the
# kernel allows it) the receiver copies a large message straight from the sender's memory; with
# "none" both ends copy it through shared buffers, inside MPI's progress, and a rank that receives
# and sends every cycle makes both copies, one after the other. The lent machine's environment
# sets "none"; the runs leave the choice to the library (overlap_sweep.py's mpi_ping measures both).
SINGLE_COPY = "OMPI_MCA_btl_vader_single_copy_mechanism"
STRATEGIES = {"overlap": [], "overlap_barrier": ["--sync=barrier"], "no_overlap": ["--no-overlap"],
              "no_overlap_barrier": ["--no-overlap", "--sync=barrier"]}


def sh(cmd: list[str], env: dict | None = None, timeout: int = 120) -> str:
    """Runs `cmd` with ENV and `env`, SINGLE_COPY unset; its stdout then stderr, or RuntimeError."""
    e = dict(os.environ, **ENV)
    e.pop(SINGLE_COPY, None)
    e.update(env or {})
    r = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r.stdout + r.stderr


def main(doc: str, generate: Callable, run: Callable,
         generate_options: Callable[[argparse.ArgumentParser], None] = lambda p: None,
         run_options: Callable[[argparse.ArgumentParser], None] = lambda p: None) -> int:
    """`SCRIPT generate DIR [options] [--dfgc PATH]` calls generate(args), `SCRIPT run DIR [--out
    RESULTS] [options]` run(args); each `*_options(parser)` adds the script's own options."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("dir")
    generate_options(g)
    g.add_argument("--dfgc", default="dfgc")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--out")
    run_options(r)
    args = ap.parse_args()
    generate(args) if args.cmd == "generate" else run(args)
    return 0
