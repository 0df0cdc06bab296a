"""The cost model of `dfgc map` against measured periods: the overlap pipeline with light producer
and consumer (bench/predict/light.dfg: Inc nb_loop 400, N = 2048, 16 MiB tokens) in three mappings,
both strategies: one_gpu (both incrementers on A.g0, the profiled mapping), two_gpus (one per GPU,
NVLink between them) and two_gpus_host (the same without NVLink: i1's token goes A.g0 -> A.cpu ->
A.g1). Each mapping and strategy runs once with --profile (profile_iterations) and once measured
(iterations, --stats=period; the period is --stats-json's).

The prediction (the report, where dfgc runs: DFGC=... bench/harness.py report RESULTS): the costs
of every mapping come from the profile of one_gpu of the same strategy (the "run once, map, run
again" loop: the mappings compared have not run). Nodes take the time their own node had on a PE
of the same kind in one_gpu, links the figures measured on a link of the same kind and direction
class (CPU -> GPU, GPU -> CPU, GPU -> GPU; the spec's where none was measured: NVLink), the cycle
overhead one_gpu's. predicted_own uses each mapping's own measured item times with one_gpu's
overhead: it separates the model's rule from how well item times carry over between mappings.
predict.csv in the results directory: one row per mapping and strategy.

Knobs (harness.py generate predict DIR --set KEY=VALUE): gpus (1: one_gpu only), iterations,
profile_iterations."""

import csv
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

from harness import ROOT, Experiment, Generated

KNOBS = {"gpus": "2", "iterations": "200", "profile_iterations": "100"}

SPECS = {"one_gpu": ("bench/predict/one_gpu.dfg", 1), "two_gpus": ("bench/predict/two_gpus.dfg", 2),
         "two_gpus_host": ("bench/predict/two_gpus_host.dfg", 2)}
STRATEGY = {"overlap": [], "no-overlap": ["--no-overlap"]}


def experiment(knobs: dict) -> Experiment:
    specs = {k: v for k, v in SPECS.items() if v[1] <= int(knobs["gpus"])}
    return Experiment("predict", "dfgc map's predicted period against the measured one, three mappings", [
        Generated("profile", specs, axes={"strategy": STRATEGY},
                  flags=["--iterations", knobs["profile_iterations"], "--profile", "{out}.profile.json"]),
        Generated("measure", specs, axes={"strategy": STRATEGY},
                  flags=["--iterations", knobs["iterations"], "--stats=period"]),
    ])


def read_spec(path: Path):
    """The nodes ({name: (actor, pe)}) and links ([(a, b, kind)]) of a mapping's spec."""
    text = path.read_text()
    nodes = {m[0]: (m[1], m[2]) for m in re.findall(r"\bnode\s+(\w+)\s*:\s*(\w+)\s*@\s*([\w.]+)", text)}
    links = re.findall(r"\blink\s+([\w.]+)\s*<->\s*([\w.]+)\s+(\w+)", text)
    return nodes, links


def kind(pe: str) -> str:
    return "cpu" if pe.endswith(".cpu") else "gpu"


def derived_costs(cal: dict, cal_spec: Path, spec: Path) -> dict:
    """The costs of `spec` from one_gpu's profile `cal` (see the module's comment)."""
    cal_nodes, cal_links = read_spec(cal_spec)
    nodes, links = read_spec(spec)
    by_node, by_actor = {}, {}
    for node, per_pe in cal["nodes"].items():
        for pe, t in per_pe.items():
            by_node[(node, kind(pe))] = t["ms"]
            by_actor.setdefault((cal_nodes[node][0], kind(pe)), []).append(t["ms"])
    costs = {"nodes": {}, "links": {}, "cycle_overhead_ms": cal["cycle_overhead_ms"]}
    for node, (actor, pe) in sorted(nodes.items()):
        ms = by_node.get((node, kind(pe)))
        if ms is None:
            times = by_actor.get((actor, kind(pe)))
            if not times:
                raise ValueError(f"the one_gpu profile has no time for {node} ({actor}) on a {kind(pe)}")
            ms = sum(times) / len(times)
        costs["nodes"][node] = {pe: {"ms": ms}}
    cal_kind = {}
    for a, b, k in cal_links:
        cal_kind[(a, b)] = cal_kind[(b, a)] = k
    by_class = {}
    for name, figures in cal["links"].items():
        a, b = name.split(" -> ")
        by_class[(cal_kind[(a, b)], kind(a) + ">" + kind(b))] = figures
    for a, b, k in links:
        for x, y in ((a, b), (b, a)):
            figures = by_class.get((k, kind(x) + ">" + kind(y)))
            if figures:
                costs["links"][f"{x} -> {y}"] = figures
    return costs


def evaluate(dfgc: str, spec: Path, costs: dict, strategy: str) -> tuple[float, str]:
    """dfgc map --evaluate: the predicted period and what sets it."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(costs, f, indent=2, sort_keys=True)
    try:
        out = subprocess.run([dfgc, "map", str(spec), "--costs", f.name, "--evaluate"], capture_output=True,
                             text=True, stdin=subprocess.DEVNULL, check=True).stdout
    finally:
        os.unlink(f.name)
    s = json.loads(out)[strategy]
    what = s["bottleneck"] if strategy == "overlap" else " + ".join(p["resource"] for p in s["phases_ms"])
    return s["period_ms"], what


def report(rows: list[dict], out_dir: Path) -> list[str]:
    dfgc = os.environ.get("DFGC")
    if not dfgc:
        return [f"  predictions: where dfgc runs, DFGC=... bench/harness.py report {out_dir}"]
    ok = [r for r in rows if r["status"] == "ok"]
    profiles = {(r["program"], r["strategy"]): json.loads((out_dir / "stats" / f"{r['run']}.profile.json").read_text())
                for r in ok if r["block"] == "profile"}
    measured = [(r["program"], r["strategy"], float(r["period_ms"])) for r in ok if r["block"] == "measure"]
    table = []
    for program, strategy, ms in measured:
        cal = profiles.get(("one_gpu", strategy))
        own = profiles.get((program, strategy))
        if cal is None or own is None:
            continue
        spec = ROOT / SPECS[program][0]
        p, what = evaluate(dfgc, spec, derived_costs(cal, ROOT / SPECS["one_gpu"][0], spec), strategy)
        q, _ = evaluate(dfgc, spec, {"nodes": own["nodes"], "links": own["links"],
                                     "cycle_overhead_ms": cal["cycle_overhead_ms"]}, strategy)
        err = lambda x: f"{100 * (x - ms) / ms:+.1f}"
        table.append({"mapping": program, "strategy": strategy, "predicted_ms": f"{p:.4f}", "measured_ms": f"{ms:.4f}",
                      "error_pct": err(p), "predicted_own_ms": f"{q:.4f}", "error_own_pct": err(q),
                      "predicted_bottleneck": what})
    provenance = json.loads((out_dir / "provenance.json").read_text()) if (out_dir / "provenance.json").exists() else {}
    with (out_dir / "predict.csv").open("w", newline="") as f:
        f.write(f"# predicted vs measured iteration period, bench/experiments/predict.py; ran on "
                f"{provenance.get('gpu', '?')} x{provenance.get('gpus', '?')} at {provenance.get('date', '?')}\n")
        f.write("# predicted_ms: dfgc map --evaluate with the costs of one_gpu's profile of the same strategy; "
                "predicted_own_ms: the mapping's own item times with one_gpu's cycle overhead\n")
        f.write("# measured_ms: --stats-json's period; error_pct = 100 * (predicted - measured) / measured\n")
        writer = csv.DictWriter(f, fieldnames=["mapping", "strategy", "predicted_ms", "measured_ms", "error_pct",
                                               "predicted_own_ms", "error_own_pct", "predicted_bottleneck"])
        writer.writeheader()
        writer.writerows(table)
    return ["  predicted vs measured (predict.csv):"] + [
        f"    {t['mapping']:<14} {t['strategy']:<10} predicted {t['predicted_ms']:>9} ms, measured "
        f"{t['measured_ms']:>9} ms ({t['error_pct']}%), own {t['predicted_own_ms']} ms" for t in table]
