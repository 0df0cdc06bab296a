#!/usr/bin/env python3
"""The benchmark suite's baseline and its check (bench/experiments/suite.py measures).

    bench/suite.py compare RESULTS_DIR   the ratios of RESULTS_DIR (ratios.csv) against the baseline
                                         of its GPU: prints every regression, exits 1 if any
    bench/suite.py baseline RESULTS_DIR  makes those ratios the baseline of its GPU
                                         (bench/baselines/suite-<gpu>.csv, with their provenance);
                                         a run of part of the suite (harness.py run --part) replaces
                                         the ratios it measured and keeps the others
    bench/suite.py record RESULTS_DIR    keeps the run in the repository: its summary.txt,
                                         ratios.csv, results.csv and provenance.json as
                                         bench/results/suite/<gpu>/ (the latest whole run of that
                                         GPU; a run of part of it: <gpu>-part/), and its ratios
                                         appended to bench/results/suite/history.csv with date,
                                         commit and GPU; logs stay out

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


def partial(current: list[dict], baseline: Path) -> bool:
    """Whether the run measured only part of the baseline's ratios."""
    if not baseline.is_file():
        return False
    return bool({b["metric"] for b in suite.read_csv(baseline)} - {c["metric"] for c in current})


def record(results: Path, provenance: dict, current: list[dict]) -> int:
    home = suite.RESULTS
    baseline = suite.baseline_path(provenance.get("gpu", ""))
    latest = home / (baseline.stem.removeprefix("suite-") + ("-part" if partial(current, baseline) else ""))
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


def make_baseline(baseline: Path, results: Path, provenance: dict, current: list[dict]) -> int:
    """RESULTS' ratios as the baseline; those of the old baseline it did not measure stay."""
    header = [f"# {k}: {provenance.get(k, '')}" for k in ("gpu", "date", "commit", "command")]
    header.append(f"# results: {results.name}")
    kept: list[dict] = []
    if partial(current, baseline):
        measured = {c["metric"] for c in current}
        kept = [b for b in suite.read_csv(baseline) if b["metric"] not in measured]
        old = [line.rstrip("\n") for line in baseline.open() if line.startswith("#")]
        header = old + [f"# then {provenance.get('date', '')} at {provenance.get('commit', '')}: the "
                        f"{len(current)} ratios of {results.name}"]
        # The old baseline's order, the new values in place.
        by_metric = {**{b["metric"]: b for b in kept}, **{c["metric"]: c for c in current}}
        order = [b["metric"] for b in suite.read_csv(baseline)]
        rows = [by_metric[m] for m in order]
        rows += [c for c in current if c["metric"] not in set(order)]
    else:
        rows = current
    baseline.parent.mkdir(parents=True, exist_ok=True)
    with baseline.open("w", newline="") as f:
        f.write("\n".join(header) + "\n")
        writer = csv.DictWriter(f, fieldnames=["metric", "value", "spread", "runs", "lower_is_better", "note"],
                                extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    print(f"suite: {len(current)} ratios are the baseline of {provenance.get('gpu')} in {baseline}"
          + (f" ({len(kept)} kept from before)" if kept else ""))
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
        return make_baseline(baseline, results, provenance, current)
    if not baseline.is_file():
        sys.exit(f"suite: error: no baseline for '{provenance.get('gpu')}' ({baseline})")
    lines = suite.compare(current, suite.read_csv(baseline))
    print("\n".join(lines) if lines else f"suite: no regression against {baseline}")
    return 1 if any("REGRESSION" in line for line in lines) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
