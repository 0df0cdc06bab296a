"""The multi-host experiment of the PACCO journal paper (section 5.1) on one machine with two
GPUs: P on A.cpu -> Inc on A.g0 -> MPI -> Inc on B.g0 -> C on B.cpu (bench/hosts/two_hosts.dfg,
16 MiB tokens) as two MPI ranks (hosts A and B), each on a GPU of its own (host B's GPU is CUDA
device 1 in that spec). For each nb_loop of the sweep it times the generated program with and
without overlap (--stats=period; the consumer checks every token), measures what the paper's
model needs (MPI between the two ranks with bench/hosts/mpi_ping.cpp; the PCIe copies and the
kernels from the program's own per-entry times, serial strategy, at the first and last points)
and compares:

  T_without = Th + Tib + a*nb_loop      T_with = max(Tib, Th, a*nb_loop)
  peak speedup = (Tib + Th) / max(Tib, Th) + 1   (where a*nb_loop = max(Tib, Th))

with Th the longest of the four 16 MiB PCIe copies, Tib the one-way MPI time of 16 MiB, and
a*nb_loop the kernel time (a line through the two calibration points). The report writes
hosts.csv and the measured peak speedup against the model's.

Knobs (harness.py generate hosts DIR --set KEY=VALUE): nb (the points, at least two), iterations
(per run, default 200), mpirun (default "mpirun --allow-run-as-root --bind-to none": without
--bind-to none Open MPI pins each rank, all its threads, to one core), mpicxx (default mpicxx)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from harness import Experiment, Generated, Reference

KNOBS = {"nb": "5 10 20 40 80 160 320 640 1280 2560 5120 10240", "iterations": "200",
         "mpirun": "mpirun --allow-run-as-root --bind-to none", "mpicxx": "mpicxx"}
# Open MPI refuses to run as root without these (the GPU machine runs as root).
ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def experiment(knobs: dict) -> Experiment:
    nb = sorted(int(v) for v in knobs["nb"].split())
    if len(nb) < 2:
        raise SystemExit("hosts: nb: the sweep needs at least two nb_loop points")
    launcher = knobs["mpirun"].split() + ["-np", "2"]
    spec = {"two_hosts": ("bench/hosts/two_hosts.dfg", 2)}
    common = dict(hosts=["A", "B"], launcher=launcher, env=ENV)
    return Experiment("hosts", "two hosts as two MPI ranks against the paper's speedup model", [
        Reference("mpi_ping", "bench/hosts/mpi_ping.cpp", "mpi_ping", axes={}, flags=["16777216", "50", "5"],
                  metrics={"tib_ms": r"^mpi one-way: ([0-9.]+) ms"}, gpus=0, launcher=launcher, env=ENV,
                  build=[knobs["mpicxx"], "-std=c++20", "-O2", "-Wall", "-Wextra", "-Werror", "{src}", "-o",
                         "{build}/mpi_ping"]),
        Generated("calibration", spec, defines={"NB": [nb[0], nb[-1]]},
                  flags=["--iterations", "60", "--no-overlap"], **common),
        Generated("sweep", spec, defines={"NB": nb}, axes={"strategy": {"with": [], "without": ["--no-overlap"]}},
                  flags=["--iterations", knobs["iterations"], "--stats=period"], **common),
    ])


def calibration(rows: list[dict], results: Path) -> dict | None:
    """Th, its shortest, the program's net transfer, the kernel line, from the serial runs."""
    runs = {r["run"]: int(r["NB"]) for r in rows if r["block"] == "calibration" and r["status"] == "ok"}
    if len(set(runs.values())) != 2:
        return None
    means: dict[int, dict] = {nb: {} for nb in runs.values()}
    with (results / "entries.csv").open() as f:
        for e in csv.DictReader(line for line in f if not line.startswith("#")):
            if e["run"] in runs:  # an entry seen by both hosts (the net transfer) is the same one
                means[runs[e["run"]]][(e["kind"], e["pe"], e["name"])] = float(e["mean_ms"])
    lo_nb, hi_nb = sorted(means)
    lo, hi = means[lo_nb], means[hi_nb]
    pcie = [v for (k, pe, _), v in lo.items() if k == "transfer" and ".g" in pe]
    net = [v for (k, pe, _), v in lo.items() if k == "transfer" and pe == "A.cpu>B.cpu"]
    if len(pcie) != 4 or not net:
        return None

    def kernel(d):
        return max(v for (k, pe, _), v in d.items() if k == "firing" and pe in ("A.g0", "B.g0"))

    a = (kernel(hi) - kernel(lo)) / (hi_nb - lo_nb)
    return {"th": max(pcie), "th_min": min(pcie), "tib_prog": max(net), "a": a, "k0": kernel(lo) - a * lo_nb}


def report(rows: list[dict], results: Path) -> list[str]:
    ping = next((r for r in rows if r["program"] == "mpi_ping" and r["status"] == "ok"), None)
    c = calibration(rows, results)
    if ping is None or c is None:
        return ["  hosts: no model (mpi_ping or the calibration runs failed, or the calibration lacks the 4 PCIe "
                "copies and the net transfer)"]
    tib, th, a, k0 = float(ping["tib_ms"]), c["th"], c["a"], c["k0"]
    sweep = {}
    for r in rows:
        if r["block"] == "sweep" and r["status"] == "ok" and r.get("period_ms"):
            sweep.setdefault(int(r["NB"]), {})[r["strategy"]] = float(r["period_ms"])
    provenance = json.loads((results / "provenance.json").read_text())
    out = [f"# {key}: {provenance.get(key, '')}" for key in ("gpu", "date", "commit", "command")]
    out += [f"# measured: Th = {th:.4f} ms (longest 16 MiB PCIe copy; shortest {c['th_min']:.4f}), Tib = {tib:.4f} ms "
           f"(mpi_ping one-way 16 MiB; the program's own net transfer: {c['tib_prog']:.4f} ms), kernel = a*nb_loop "
           f"with a = {a:.6f} ms (+ {k0:.4f} ms at nb_loop 0)",
           "# model: T_without = Th + Tib + kernel, T_with = max(Tib, Th, kernel), speedup = T_without / T_with",
           "nb_loop,kernel_ms,period_with_ms,period_without_ms,speedup,model_with_ms,model_without_ms,model_speedup"]
    best = (0.0, 0)
    for nb, p in sorted(sweep.items()):
        if "with" not in p or "without" not in p:
            continue
        k = k0 + a * nb
        m_with, m_without = max(tib, th, k), th + tib + k
        s = p["without"] / p["with"] if p["with"] > 0 else 0.0
        best = max(best, (s, nb))
        out.append(f"{nb},{k:.4f},{p['with']:.4f},{p['without']:.4f},{s:.3f},{m_with:.4f},{m_without:.4f},"
                   f"{m_without / m_with:.3f}")
    (results / "hosts.csv").write_text("\n".join(out) + "\n")
    model_peak = (tib + th) / max(tib, th) + 1
    nb_peak = max(tib, th) / a if a > 0 else float("nan")
    return [f"  hosts: measured peak speedup {best[0]:.3f} at nb_loop {best[1]}; model peak {model_peak:.3f} at "
            f"nb_loop ~{nb_peak:.0f} (Th {th:.3f} ms, Tib {tib:.3f} ms); measured / model "
            f"{best[0] / model_peak:.3f} (hosts.csv)"]
