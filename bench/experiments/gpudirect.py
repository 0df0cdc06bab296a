"""A gpudirect link against host staging by the IG, on one machine with two GPUs run as two MPI
ranks (hosts A and B, one GPU each): bench/hosts/two_hosts.dfg (i1's 16 MiB token goes
A.g0 -> A.cpu -> B.cpu -> B.g0, three IG transfers in three cycles) against
bench/hosts/two_hosts_gpudirect.dfg (one transfer A.g0 -> B.g0 over the gpudirect link), at a few
nb_loop points, both strategies, --stats=period (the consumer checks every token). The gpudirect
program prints which path its rank took (column `path`): device buffers straight to MPI where the
library is CUDA-aware, else staging through pinned memory inside the one transfer; the gpudirect
runs are repeated with --no-cuda-aware-mpi, which forces staging. The report prints the periods.

Knobs (harness.py generate gpudirect DIR --set KEY=VALUE): nb (default "5 640 2560"), iterations
(default 200), mpirun (the launcher, default "mpirun --allow-run-as-root --bind-to none")."""

from __future__ import annotations

from pathlib import Path

from harness import Experiment, Generated

KNOBS = {"nb": "5 640 2560", "iterations": "200", "mpirun": "mpirun --allow-run-as-root --bind-to none"}

STRATEGY = {"overlap": [], "no-overlap": ["--no-overlap"]}


def experiment(knobs: dict) -> Experiment:
    nb = [int(v) for v in knobs["nb"].split()]
    common = dict(defines={"NB": nb}, flags=["--iterations", knobs["iterations"], "--stats=period"], hosts=["A", "B"],
                  launcher=knobs["mpirun"].split() + ["-np", "2"],
                  metrics={"path": r"?^(gpudirect: MPI is[^:\n]*)"},
                  env={"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"})
    return Experiment("gpudirect", "a gpudirect link against host staging by the IG, two MPI ranks", [
        Generated("staged", {"staged": ("bench/hosts/two_hosts.dfg", 2)}, axes={"strategy": STRATEGY}, **common),
        Generated("gpudirect", {"gpudirect": ("bench/hosts/two_hosts_gpudirect.dfg", 2)},
                  axes={"strategy": STRATEGY, "mpi": {"cuda-aware": [], "forced-staging": ["--no-cuda-aware-mpi"]}},
                  **common),
    ])


def report(rows: list[dict], results: Path) -> list[str]:
    lines = ["  variant    nb_loop  strategy    mpi              period ms  path"]
    for r in rows:
        if r["status"] != "ok":
            continue
        lines.append(f"  {r['program']:<10} {r['NB']:>7}  {r['strategy']:<11} {r.get('mpi') or '-':<16} "
                     f"{r.get('period_ms', ''):>9}  {r.get('path') or 'host staging (IG)'}")
    return lines
