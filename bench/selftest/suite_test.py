#!/usr/bin/env python3
"""The benchmark suite without a GPU: its plan (one project per spec and mapped-token option, run
ids unique), its ratios from a results.csv written here, and bench/suite.py's baseline, compare
(a ratio worse than the baseline beyond both spreads fails, one within them does not) and record.
The baselines and kept results go to a temporary directory (SUITE_BASELINES, SUITE_RESULTS)."""

import csv
import json
import os
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
shutil.rmtree(tmp)
print("suite selftest: ok")
