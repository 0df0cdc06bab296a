#!/usr/bin/env python3
"""The benchmark suite without a GPU: its plan (one project per spec and mapped-token option, run
ids unique, every block there, the two parts covering every run once), its ratios from a
results.csv written here (the small tokens, saliency against PyTorch, a CPU pipeline against its
loop), harness.py merge of parts run apart, and bench/suite.py's baseline, compare (a ratio worse
than the baseline beyond both spreads fails, one within them does not) and record. The baselines
and kept results go to a temporary directory (SUITE_BASELINES, SUITE_RESULTS). A run of part of
the suite replaces only its ratios in the baseline and is kept beside the latest whole run."""

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
tmp = Path(tempfile.mkdtemp(prefix="suite_selftest_"))
os.environ["SUITE_BASELINES"] = str(tmp / "baselines")
os.environ["SUITE_RESULTS"] = str(tmp / "kept")
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402

suite = harness.load_experiment("suite")


def fail(message: str) -> None:
    sys.exit(f"suite selftest: FAIL: {message}")


# The plan: every small-token program twice, with the rule and with every token copied.
projects, runs = harness.plan(suite.experiment(dict(suite.KNOBS)))
by_id = {p["id"]: p for p in projects}
for program in suite.TOKENS:
    if by_id.get(f"{program}-rule", {}).get("options") != [] or \
            by_id.get(f"{program}-copied", {}).get("options") != ["--mapped-tokens=0"]:
        fail(f"{program}: expected the projects {program}-rule and {program}-copied")
if len({r["id"] for r in runs}) != len(runs):
    fail("run ids repeat")
blocks = {r["block"] for r in runs}
for block in ("tokens", "islands", "islands_cpu", "granulometry", "saliency", "jpeg", "cpu", "cpu_multirate",
              "cpu_fir_bank", "torch_granulometry", "torch_saliency", "dynamic_fir", "dynamic_idct", "loop_iir",
              "loop_multirate", "loop_fir_bank", "libjpeg", "nvjpeg", "overlap_generated", "overlap_reference",
              "touch", "peers_cpu", "peers_gpu", "peers_mpi", "peers_dfgc_core_to_core_h8"):
    if block not in blocks:
        fail(f"no run of block {block} in the plan")
for r in runs:
    parts = [k for k, part in enumerate(suite.PARTS) if re.search(part, r["id"])]
    if len(parts) != 1:
        fail(f"run {r['id']} is in parts {parts} of suite.PARTS, not in exactly one")
if {r["labels"].get("size") for r in runs if r["block"] == "saliency"} != set(suite.SALIENCY_SIZES):
    fail("the saliency runs are not at every size")


def results(dir_name: str, iir_rule: list[float]) -> Path:
    """A results directory whose iir rule periods are `iir_rule` (copied: 1.0 ms)."""
    out = tmp / dir_name
    (out / "logs").mkdir(parents=True)
    rows = []
    for k, ms in enumerate(iir_rule):
        rows.append({"block": "tokens", "program": "iir", "tokens": "rule", "period_ms": ms, "status": "ok",
                     "run": f"rule-{k}"})
        rows.append({"block": "tokens", "program": "iir", "tokens": "copied", "period_ms": 1.0, "status": "ok",
                     "run": f"copied-{k}"})
    (out / "provenance.json").write_text(json.dumps({"gpu": "Test GPU", "date": "today", "commit": "abc",
                                                     "generated": {"commit": "def"}}))
    lines = suite.report([{k: str(v) for k, v in r.items()} for r in rows], out)
    if not any("tokens/iir/rule_over_copied" in line for line in lines):
        fail(f"no iir ratio in the report: {lines}")
    return out


def rows_ratios(rows: list[dict]) -> dict:
    out = tmp / "ratios"
    (out / "logs").mkdir(parents=True, exist_ok=True)
    return {r["metric"]: r for r in suite.ratios([{k: str(v) for k, v in r.items()} for r in rows], out)}


# Saliency: dfgc's period over PyTorch's time a frame (1000 / fps); a CPU pipeline over its loop.
got = rows_ratios([{"block": "saliency", "program": "saliency", "size": "720x576", "period_ms": 0.4, "status": "ok"},
                   {"block": "torch_saliency", "size": "720x576", "compile_fps": 2000, "batch8_fps": 4000,
                    "graph_fps": 1000, "eager_fps": 500, "status": "ok"},
                   {"block": "cpu", "program": "iir_cpu", "period_ms": 0.03, "status": "ok"},
                   {"block": "loop_iir", "n": "256", "loop_ms": 0.02, "status": "ok"}])
for metric, want in (("saliency/720x576/dfgc_over_torch_compile", 0.8),
                     ("saliency/720x576/dfgc_over_torch_compile_batch8", 1.6),
                     ("saliency/720x576/dfgc_over_torch_eager", 0.2), ("cpu/iir/generated_over_loop", 1.5)):
    if metric not in got or abs(float(got[metric]["value"]) - want) > 1e-9:
        fail(f"{metric}: {got.get(metric)}, expected {want}")
if any(m.startswith("saliency/1920x1080") for m in got):
    fail("a ratio of a size that did not run")


def part(name: str, rows: list[dict], gpu: str = "Test GPU") -> Path:
    """A results directory of part of one generated directory."""
    out = tmp / name
    (out / "logs").mkdir(parents=True)
    (out / "logs" / f"{rows[0]['run']}.log").write_text("log\n")
    manifest = {"experiment": "suite", "description": "the suite", "provenance": {"date": "d", "commit": "c"}}
    (out / "manifest.json").write_text(json.dumps(manifest))
    (out / "provenance.json").write_text(json.dumps({"gpu": gpu, "date": name, "commit": "abc",
                                                     "generated": manifest["provenance"]}))
    harness.write_csv(out / "results.csv", rows, ["run", "status"], ["experiment: suite"])
    return out


def harness_tool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "harness.py"), *args], capture_output=True, text=True)


first = part("part1", [{"run": "cpu-1", "block": "cpu", "program": "iir_cpu", "period_ms": "0.03", "status": "ok"}])
second = part("part2", [{"run": "loop-1", "block": "loop_iir", "n": "256", "loop_ms": "0.02", "status": "ok"}])
done = harness_tool("merge", str(tmp / "merged"), str(first), str(second))
merged = harness.read_rows(tmp / "merged") if (tmp / "merged" / "results.csv").is_file() else []
if done.returncode != 0 or [r["run"] for r in merged] != ["cpu-1", "loop-1"] or \
        not (tmp / "merged" / "logs" / "loop-1.log").is_file():
    fail(f"merge of two parts: exit {done.returncode}, rows {merged}: {done.stderr}")
if "cpu/iir/generated_over_loop" not in (tmp / "merged" / "ratios.csv").read_text():
    fail("merge wrote no ratios of the joined rows")
again = part("part3", [{"run": "cpu-1", "block": "cpu", "status": "ok"}])
done = harness_tool("merge", str(tmp / "merged2"), str(first), str(again))
if done.returncode == 0 or "run cpu-1 is in both" not in done.stderr:
    fail(f"merge of parts that share a run: exit {done.returncode}: {done.stderr}")
other = part("part4", [{"run": "x-1", "block": "cpu", "status": "ok"}], gpu="Another GPU")
done = harness_tool("merge", str(tmp / "merged3"), str(first), str(other))
if done.returncode == 0 or "ran on 'Another GPU'" not in done.stderr:
    fail(f"merge of parts from two GPUs: exit {done.returncode}: {done.stderr}")


# The anchors' own figures are kept, never a regression; dfgc's are compared.
for metric, anchor in (("touch/accumulate/8B/mapped_over_copied", True),
                       ("peers/core_to_core/h8/taskflow_pipeline_ns_per_hop", True),
                       ("peers/core_to_core/h8/dfgc_ns_per_hop", False),
                       ("peers/core_to_core/h8/dfgc_over_best_peer", False)):
    row = {"metric": metric, "value": "2.0", "spread": "0.0", "lower_is_better": "1"}
    if bool(suite.compare([row], [{**row, "value": "1.0"}])) == anchor:
        fail(f"{metric}: {'an anchor compared' if anchor else 'a ratio of dfgc not compared'}")


def tool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "suite.py"), *args], capture_output=True, text=True)


base = results("base", [0.50, 0.51, 0.50])
with (base / "ratios.csv").open() as f:
    ratio = next(r for r in csv.DictReader(f) if r["metric"] == "tokens/iir/rule_over_copied")
if abs(float(ratio["value"]) - 0.50) > 1e-9 or abs(float(ratio["spread"]) - 0.02) > 1e-9:
    fail(f"iir ratio {ratio}, expected 0.50 with a spread of 0.02")
if tool("compare", str(base)).returncode == 0:
    fail("compare without a baseline succeeded")
if tool("baseline", str(base)).returncode != 0 or not (tmp / "baselines" / "suite-test-gpu.csv").is_file():
    fail("baseline wrote no bench/baselines/suite-test-gpu.csv")
if "# commit: def" not in (tmp / "baselines" / "suite-test-gpu.csv").read_text():
    fail("the baseline does not name the commit the projects were generated from")
within = results("within", [0.51, 0.51, 0.51])  # 2% worse, within the baseline's 2% spread + 3%
worse = results("worse", [0.60, 0.60, 0.60])    # 20% worse
done = tool("compare", str(within))
if done.returncode != 0:
    fail(f"a ratio within the spread is called a regression: {done.stdout}")
done = tool("compare", str(worse))
if done.returncode != 1 or "REGRESSION tokens/iir/rule_over_copied: 0.6000" not in done.stdout:
    fail(f"a ratio 20% worse is not named: {done.returncode} {done.stdout}")
if tool("record", str(worse)).returncode != 0 or tool("record", str(within)).returncode != 0:
    fail("record failed")
history = (tmp / "kept" / "history.csv").read_text().splitlines()
if len(history) != 3 or not history[0].startswith("date,commit,gpu,metric"):
    fail(f"history: {history}")
if not (tmp / "kept" / "test-gpu" / "ratios.csv").is_file() or (tmp / "kept" / "test-gpu" / "logs").exists():
    fail("record kept no ratios.csv, or kept the logs")
# A run of part of the suite: the baseline takes the ratios it measured and keeps the others;
# record keeps it beside the latest whole run, not over it.
part_dir = tmp / "part-only"
part_dir.mkdir()
(part_dir / "provenance.json").write_text(json.dumps({"gpu": "Test GPU", "date": "later", "generated": {"commit": "ghi"}}))
(part_dir / "ratios.csv").write_text("metric,value,spread,runs,lower_is_better,note\n"
                                      "saliency/720x576/dfgc_over_torch_compile,0.6600,0.0200,3/3,1,\n")
if tool("baseline", str(part_dir)).returncode != 0:
    fail("baseline of a part of the suite failed")
kept = {r["metric"]: r for r in suite.read_csv(tmp / "baselines" / "suite-test-gpu.csv")}
if kept.get("tokens/iir/rule_over_copied", {}).get("value") != "0.5000" or \
        kept.get("saliency/720x576/dfgc_over_torch_compile", {}).get("value") != "0.6600":
    fail(f"a part's baseline: {kept}")
if "at ghi: the 1 ratios of part-only" not in (tmp / "baselines" / "suite-test-gpu.csv").read_text():
    fail("the baseline does not say which ratios the part replaced")
if tool("record", str(part_dir)).returncode != 0 or not (tmp / "kept" / "test-gpu-part" / "ratios.csv").is_file() \
        or "saliency" in (tmp / "kept" / "test-gpu" / "ratios.csv").read_text():
    fail("record of a part replaced the latest whole run")
shutil.rmtree(tmp)
print("suite selftest: ok")
