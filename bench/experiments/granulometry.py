"""Run once, map, run again, on two GPUs, for the granulometry application (samples/granulometry:
40 openings of a 256^3 volume; openings 1..split on A.g0, the rest on A.g1):

  1. the spec's own mapping (split 20) runs once with --profile, in both strategies;
  2. from that profile alone, `dfgc map` with samples/granulometry/fit.json fits the cost of an
     opening and of an erosion/dilation pass (docs/costs.md, "Fitted formulas"), chooses the split
     (granulometry.dfg's tunable `split`) and, in bench/granulometry/free.dfg, the GPU of each half
     as well (`@ any gpu`), and predicts (--evaluate) the period of every measured variant;
  3. every variant is measured (--stats=period, the period --stats-json's): the two-GPU mapping at
     splits 12 ... 36, and both halves on A.g0 (bench/granulometry/one_gpu.dfg, split 20).
Every variant must print the same granulometric curves (the Curve actor's hash every 100
iterations): the split changes where openings run, not what they compute.

Steps 2 and the comparison are the report, where dfgc runs (DFGC=... bench/harness.py report
RESULTS): granulometry.csv (one row per variant and strategy) and granulometry.txt (dfgc map's
reports: the fit, the chosen split and placements) in the results directory.

Knobs (harness.py generate granulometry DIR --set KEY=VALUE): iterations, profile_iterations."""

import csv
import json
import os
import subprocess

from harness import ROOT, Experiment, Generated

KNOBS = {"iterations": "200", "profile_iterations": "100"}

SAMPLE = "samples/granulometry/granulometry.dfg"
ONE_GPU = "bench/granulometry/one_gpu.dfg"
FIT = "samples/granulometry/fit.json"
SPLITS = [12, 16, 20, 24, 26, 27, 28, 29, 30, 32, 36]
STRATEGY = {"overlap": [], "no-overlap": ["--no-overlap"]}


def experiment(knobs: dict) -> Experiment:
    measure = ["--iterations", knobs["iterations"], "--stats=period"]
    return Experiment("granulometry", "run once (split 20, --profile), map, run again: granulometry on two GPUs", [
        Generated("profile", {"granulometry": (SAMPLE, 2)}, defines={"split": [20]}, axes={"strategy": STRATEGY},
                  flags=["--iterations", knobs["profile_iterations"], "--profile", "{out}.profile.json"]),
        Generated("measure", {"granulometry": (SAMPLE, 2)}, defines={"split": SPLITS}, axes={"strategy": STRATEGY},
                  flags=measure),
        Generated("measure", {"one_gpu": (ONE_GPU, 1)}, defines={"split": [20]}, axes={"strategy": STRATEGY},
                  flags=measure, app="granulometry_one_gpu"),
    ])


def dfgc_map(dfgc: str, args: list[str]) -> str:
    return subprocess.run([dfgc, "map"] + args, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          check=True, cwd=ROOT).stdout


def curves(log) -> list[str]:
    """The Curve actor's lines of a run: what the application computed."""
    if not log.exists():
        return []
    return [line for line in log.read_text().splitlines() if line.startswith("granulometry: iteration")]


def report(rows: list[dict], out_dir) -> list[str]:
    ok = [r for r in rows if r["status"] == "ok"]
    lines = []
    measured = [r for r in ok if r["block"] == "measure"]
    reference = None
    for r in measured:
        mine = curves(out_dir / "logs" / f"{r['run']}.log")
        if not mine:
            lines.append(f"  FAIL curves: {r['run']} printed none")
        elif reference is None:
            reference = (r["run"], mine)
        elif mine != reference[1]:
            lines.append(f"  FAIL curves: {r['run']} computed other curves than {reference[0]}")
    if reference and len(lines) == 0:
        lines.append(f"  curves: identical in every variant and strategy ({len(reference[1])} per run)")
    dfgc = os.environ.get("DFGC")
    if not dfgc:
        return lines + [f"  predictions: where dfgc runs, DFGC=... bench/harness.py report {out_dir}"]
    profiles = {r["strategy"]: out_dir / "stats" / f"{r['run']}.profile.json" for r in ok if r["block"] == "profile"}
    text = []
    for strategy, profile in profiles.items():
        costs = ["--costs", FIT, "--costs", str(profile), f"--strategy={strategy}"]
        text.append(f"## {strategy}: dfgc map {SAMPLE} --costs {FIT} --costs <profile of split 20> --explain")
        text.append(dfgc_map(dfgc, [SAMPLE] + costs + ["--explain"]))
        text.append(f"## {strategy}: dfgc map bench/granulometry/free.dfg --app granulometry_free --costs {FIT} "
                    "--costs <profile of split 20>")
        text.append(dfgc_map(dfgc, ["bench/granulometry/free.dfg", "--app", "granulometry_free"] + costs))
    (out_dir / "granulometry.txt").write_text("\n".join(text))
    table = []
    for r in measured:
        profile = profiles.get(r["strategy"])
        if profile is None:
            continue
        spec, app = (ONE_GPU, ["--app", "granulometry_one_gpu"]) if r["program"] == "one_gpu" else (SAMPLE, [])
        e = json.loads(dfgc_map(dfgc, [spec] + app + ["-D", f"split={r['split']}", "--costs", FIT, "--costs",
                                                      str(profile), "--evaluate"]))[r["strategy"]]
        p, ms = e["period_ms"], float(r["period_ms"])
        what = e["bottleneck"] if r["strategy"] == "overlap" else " + ".join(x["resource"] for x in e["phases_ms"])
        variant = f"{r['program'] if r['program'] == 'one_gpu' else 'split'}_{r['split']}"
        table.append({"variant": variant, "split": r["split"], "strategy": r["strategy"], "predicted_ms": f"{p:.4f}",
                      "measured_ms": f"{ms:.4f}", "error_pct": f"{100 * (p - ms) / ms:+.1f}",
                      "predicted_bottleneck": what})
    with (out_dir / "granulometry.csv").open("w", newline="") as f:
        f.write("# predicted vs measured iteration period: granulometry (SIDE 256, 40 openings), "
                "bench/experiments/granulometry.py\n")
        f.write(f"# predicted_ms: dfgc map --evaluate -D split=S --costs {FIT} --costs <the split 20 profile of the "
                "same strategy>; only split 20 ran before the prediction\n")
        f.write("# measured_ms: --stats-json's period; error_pct = 100 * (predicted - measured) / measured; "
                "dfgc map's reports: granulometry.txt\n")
        writer = csv.DictWriter(f, fieldnames=["variant", "split", "strategy", "predicted_ms", "measured_ms",
                                               "error_pct", "predicted_bottleneck"])
        writer.writeheader()
        writer.writerows(table)
    return lines + ["  predicted vs measured (granulometry.csv):"] + [
        f"    {t['variant']:<10} {t['strategy']:<10} predicted {t['predicted_ms']:>9} ms, measured "
        f"{t['measured_ms']:>9} ms ({t['error_pct']}%)" for t in table]
