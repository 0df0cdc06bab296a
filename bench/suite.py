#!/usr/bin/env python3
"""The benchmark suite's baseline and its check (bench/experiments/suite.py measures).

    bench/suite.py compare RESULTS_DIR   the ratios of RESULTS_DIR (ratios.csv) against the baseline
                                         of its GPU: prints every regression, exits 1 if any
    bench/suite.py baseline RESULTS_DIR  makes those ratios the baseline of its GPU
                                         (bench/baselines/suite-<gpu>.csv, with their provenance)
    bench/suite.py record RESULTS_DIR    keeps the run in the repository: its summary.txt,
                                         ratios.csv, results.csv and provenance.json as
                                         bench/results/suite/<gpu>/ (the latest run of that GPU),
                                         and its ratios appended to bench/results/suite/history.csv
                                         with date, commit and GPU; logs stay out

The baseline is per GPU kind: ratios from another GPU are not compared.
"""

from __future__ import annotations

import csv
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import load_experiment  # noqa: E402

suite = load_experiment("suite")


HISTORY_COLUMNS = ["date", "commit", "gpu", "metric", "value", "spread", "runs"]


def record(results: Path, provenance: dict, current: list[dict]) -> int:
    home = suite.RESULTS
    latest = home / suite.baseline_path(provenance.get("gpu", "")).stem.removeprefix("suite-")
    if latest.exists():
        shutil.rmtree(latest)
    latest.mkdir(parents=True)
    for name in ("summary.txt", "ratios.csv", "results.csv", "provenance.json"):
        if (results / name).is_file():
            shutil.copy(results / name, latest / name)
    history = home / "history.csv"
    fresh = not history.is_file()
    with history.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=HISTORY_COLUMNS, extrasaction="ignore")
        if fresh:
            writer.writeheader()
        for row in current:
            writer.writerow({**row, "date": provenance.get("date", ""), "commit": provenance.get("commit", ""),
                             "gpu": provenance.get("gpu", "")})
    print(f"suite: {results} kept as {latest}, {len(current)} ratios added to {history}")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] not in ("compare", "baseline", "record"):
        sys.stderr.write(__doc__)
        return 2
    results = Path(argv[2])
    ratios_csv, provenance_json = results / "ratios.csv", results / "provenance.json"
    for f in (ratios_csv, provenance_json):
        if not f.is_file():
            sys.exit(f"suite: error: {f}: no such file (run bench/harness.py run on the suite first)")
    provenance = json.loads(provenance_json.read_text())
    # The commit the projects were generated from (the GPU machine's copy may not know its own).
    provenance["commit"] = provenance.get("generated", {}).get("commit") or provenance.get("commit", "")
    baseline = suite.baseline_path(provenance.get("gpu", ""))
    current = suite.read_csv(ratios_csv)
    if argv[1] == "record":
        return record(results, provenance, current)
    if argv[1] == "baseline":
        baseline.parent.mkdir(parents=True, exist_ok=True)
        header = [f"# {k}: {provenance.get(k, '')}" for k in ("gpu", "date", "commit", "command")]
        header.append(f"# results: {results.name}")
        baseline.write_text("\n".join(header) + "\n" + ratios_csv.read_text())
        print(f"suite: {len(current)} ratios are the baseline of {provenance.get('gpu')} in {baseline}")
        return 0
    if not baseline.is_file():
        sys.exit(f"suite: error: no baseline for '{provenance.get('gpu')}' ({baseline})")
    lines = suite.compare(current, suite.read_csv(baseline))
    print("\n".join(lines) if lines else f"suite: no regression against {baseline}")
    return 1 if any("REGRESSION" in line for line in lines) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
