"""The overlap benchmark of the PACCO journal paper (section 3, figure 4): P (CPU) -> Inc (GPU 0)
[-> peer copy -> Inc (GPU 1)] -> C (CPU), 16 MiB float tokens, the incrementer's load nb_loop
swept. Per point: the generated program (bench/overlap/*.dfg, -D NB=<nb_loop>) with overlap in
both sync modes and without, and the hand-written CUDA reference (bench/reference/overlap_ref.cu)
with overlap (P and C on 2 threads, and on 1 like the generated CPU worker) and serial. Every run
checks every token. The report writes overlap-<gpus>gpu.csv (the columns of
bench/plot_overlap.py), its plot and summary.

Knobs (harness.py generate overlap DIR --set KEY=VALUE): nb (the nb_loop points, spaces between),
iterations (per run), gpus (1: leave out two_gpus and the reference's two-GPU runs)."""

from __future__ import annotations

import csv
import json
import statistics
import subprocess
import sys
from pathlib import Path

from harness import Experiment, Generated, Reference, labelled

KNOBS = {"nb": "5 10 20 40 80 160 320 640 1280 2560 5120 10240", "iterations": "200", "gpus": "2"}

STAGES = {"kernel_ms": "kernel gpu0", "kernel1_ms": "kernel gpu1", "h2d_ms": "H2D", "d2h_ms": "D2H",
          "peer_ms": r"peer gpu0>gpu1", "p_ms": "P", "c_ms": "C", "duplex_ms": r"H2D\+D2H at once"}


def experiment(knobs: dict) -> Experiment:
    nb = [int(v) for v in knobs["nb"].split()]
    if not nb or min(nb) < 5:
        raise SystemExit("overlap: nb: the points must be integers >= 5 (below 5 the kernel's series rounds to 0)")
    gpus = [1, 2] if int(knobs["gpus"]) >= 2 else [1]
    specs = {"one_gpu": ("bench/overlap/one_gpu.dfg", 1)}
    if 2 in gpus:
        specs["two_gpus"] = ("bench/overlap/two_gpus.dfg", 2)
    metrics = {"period_ms": r"^iteration period: ([0-9.]+) ms"}
    metrics.update({k: rf"?^stage {v}: ([0-9.]+) ms$" for k, v in STAGES.items()})
    return Experiment("overlap", "the overlap benchmark: nb_loop sweep, generated against the reference", [
        Generated("generated", specs, defines={"NB": nb},
                  axes={"strategy": {"overlap_neighbours": ["--sync=neighbours"], "overlap_barrier": ["--sync=barrier"],
                                     "no_overlap": ["--no-overlap"]}},
                  flags=["--iterations", knobs["iterations"], "--stats=period"]),
        Reference("reference", "bench/reference", "overlap_ref",
                  axes={"gpus": labelled(gpus), "NB": labelled(nb),
                        "mode": {"overlap": [], "overlap_1cpu": ["--cpu-threads", "1"], "serial": ["--no-overlap"]}},
                  flags=["--gpus", "{gpus}", "--iterations", knobs["iterations"], "--nb-loop", "{NB}"],
                  metrics=metrics, expect=r"^tokens checked: .*every element as expected", gpus_axis="gpus"),
    ])


COLUMNS = ["nb_loop", "kernel_ms", "ref_overlap_ms", "ref_no_overlap_ms", "gen_overlap_neighbours_ms",
           "gen_overlap_barrier_ms", "gen_no_overlap_ms", "speedup_gen", "gen_over_ref", "bound_ms",
           "ref_overlap_1cpu_ms", "speedup_ref", "h2d_ms", "d2h_ms", "peer_ms", "p_ms", "c_ms", "bound_cpu_ms",
           "bound_1cpu_ms", "duplex_ms", "bound_duplex_ms", "gen_over_duplex", "barrier_over_ref"]


def ratio(a: str, b: str) -> str:
    return f"{float(a) / float(b):.3f}" if a and b and float(b) > 0 else ""


def median_row(rows: list[dict]) -> dict:
    """One row of several runs of the same point (results.csv files of several sweeps joined): each
    measured column is its median over the runs, so that a burst of noise in one sweep moves
    nothing."""
    if len(rows) <= 1:
        return rows[0] if rows else {}
    out = dict(rows[0])
    for key in ["period_ms"] + list(STAGES):
        values = sorted(float(r[key]) for r in rows if r.get(key))
        if values:
            out[key] = f"{statistics.median(values):.6g}"
    return out


def table(rows: list[dict], gpus: int) -> list[dict]:
    """The sweep on `gpus` GPUs, one row a point (the median of its runs), in the columns of
    bench/plot_overlap.py."""
    program = "one_gpu" if gpus == 1 else "two_gpus"
    ok = [r for r in rows if r["status"] == "ok"]
    out = []
    for nb in sorted({int(r["NB"]) for r in ok if r.get("gpus") == str(gpus)}):
        def ref(mode):
            return median_row([r for r in ok if r["program"] == "reference" and r["gpus"] == str(gpus)
                               and r["NB"] == str(nb) and r["mode"] == mode])

        def gen(strategy):
            return median_row([r for r in ok if r["program"] == program and r["NB"] == str(nb)
                               and r["strategy"] == strategy]).get("period_ms", "")

        serial = ref("serial")
        if not serial:
            continue
        stage = {k: float(serial[k]) for k in STAGES if serial.get(k)}
        bound = max(v for k, v in stage.items() if k not in ("p_ms", "c_ms", "duplex_ms"))
        # A token in and a token out share the link: the bound of a transfer-bound point.
        duplex = max([bound] + [stage[k] for k in ("duplex_ms",) if k in stage])
        row = {"nb_loop": nb, "kernel_ms": serial.get("kernel_ms", ""), "ref_overlap_ms": ref("overlap").get("period_ms", ""),
               "ref_no_overlap_ms": serial["period_ms"], "ref_overlap_1cpu_ms": ref("overlap_1cpu").get("period_ms", ""),
               "gen_overlap_neighbours_ms": gen("overlap_neighbours"), "gen_overlap_barrier_ms": gen("overlap_barrier"),
               "gen_no_overlap_ms": gen("no_overlap"), "bound_ms": f"{bound:.4f}", "bound_duplex_ms": f"{duplex:.4f}",
               "bound_cpu_ms": f"{max(bound, stage.get('p_ms', 0), stage.get('c_ms', 0)):.4f}",
               "bound_1cpu_ms": f"{max(bound, stage.get('p_ms', 0) + stage.get('c_ms', 0)):.4f}"}
        for k in ("h2d_ms", "d2h_ms", "peer_ms", "p_ms", "c_ms", "duplex_ms"):
            row[k] = serial.get(k, "")
        row["speedup_gen"] = ratio(row["gen_no_overlap_ms"], row["gen_overlap_neighbours_ms"])
        row["gen_over_ref"] = ratio(row["gen_overlap_neighbours_ms"], row["ref_overlap_ms"])
        row["gen_over_duplex"] = ratio(row["gen_overlap_neighbours_ms"], row["bound_duplex_ms"])
        row["barrier_over_ref"] = ratio(row["gen_overlap_barrier_ms"], row["ref_overlap_ms"])
        row["speedup_ref"] = ratio(row["ref_no_overlap_ms"], row["ref_overlap_ms"])
        out.append(row)
    return out


def report(rows: list[dict], results: Path) -> list[str]:
    lines = []
    provenance = json.loads((results / "provenance.json").read_text())
    for gpus in (1, 2):
        points = table(rows, gpus)
        if not points:
            continue
        csv_path = results / f"overlap-{gpus}gpu.csv"
        with csv_path.open("w", newline="") as f:
            for key in ("gpu", "date", "commit", "command"):
                f.write(f"# {key}: {provenance.get(key, '')}\n")
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(points)
        lines.append(f"  overlap on {gpus} GPU(s): {len(points)} points in {csv_path.name}")
        lines.append("    nb_loop  generated  reference  bound(H2D+D2H at once, kernel)  gen/ref  gen/bound"
                     "  barrier/ref  speedup(gen)")
        for r in points:
            lines.append(f"    {r['nb_loop']:>7}  {r['gen_overlap_neighbours_ms']:>9}  {r['ref_overlap_ms']:>9}"
                         f"  {r['bound_duplex_ms']:>30}  {r['gen_over_ref']:>7}  {r['gen_over_duplex']:>9}"
                         f"  {r['barrier_over_ref']:>11}  {r['speedup_gen']:>12}")
        plot = subprocess.run([sys.executable, str(Path(__file__).resolve().parent.parent / "plot_overlap.py"),
                               str(csv_path), "-o", str(csv_path.with_suffix(".png"))], capture_output=True, text=True)
        lines += ["    " + line for line in (plot.stdout + plot.stderr).splitlines()]
    return lines
