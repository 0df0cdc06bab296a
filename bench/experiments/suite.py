"""The benchmark suite: every GPU figure dfgc is judged by, each beside its anchor in one call, as
ratios, compared with the committed baseline of the GPU it ran on.

Blocks (every program repeated `reps` times; a ratio is the median of its runs, its spread the
range of its runs over the median):
  tokens       the samples of small tokens between a CPU and a GPU (iir, migration, multirate,
  islands      packets; the dynamic islands of dyn_fir and dyn_idct), each compiled with the
               mapped-token rule (the default: mapped where the ports are `mappable`) and with
               --mapped-tokens=0 (every token copied): ratio rule / copied.
  granulometry samples/granulometry on one GPU (bench/granulometry/single_gpu.dfg) both ways, and
               bench/granulometry/torch_openings.py (PyTorch eager and torch.compile, the same
               algorithm on volumes already on the GPU): ratios dfgc / torch.compile, dfgc / eager.
  overlap      the overlap benchmark on one GPU (bench/experiments/overlap.py) at a few nb_loop
               points: generated / hand-written reference (bench/reference/overlap_ref.cu).
  touch        bench/mapped/touch.cu: a kernel's time on a small token in mapped host memory over
               device memory plus its one copy, by how it touches the token (what the rule rests on).

The report writes ratios.csv (metric, value, spread, runs, lower_is_better, note) and compares it
with bench/baselines/suite-<gpu>.csv: a ratio worse than its baseline by more than both spreads
(at least 3%) is a regression, named in summary.txt. `bench/suite.py compare RESULTS` exits 1 on
one; `bench/suite.py baseline RESULTS` makes RESULTS the baseline of its GPU; `bench/suite.py
record RESULTS` keeps its summary in bench/results/suite/<gpu>/ and its ratios in the history.

Knobs (harness.py generate suite DIR --set KEY=VALUE): iterations, reps, nb."""

from __future__ import annotations

import csv
import os
import re
import statistics
from pathlib import Path

from harness import ROOT, Experiment, Generated, Reference, load_experiment

KNOBS = {"iterations": "2000", "reps": "3", "nb": "5 160 2560", "token_iterations": "20000",
         "island_iterations": "2000", "volumes": "200"}

# Programs of small tokens: {label: (spec, block)}; the islands cycle in about a millisecond, the
# others in tens of microseconds, so they run fewer iterations.
TOKENS = {"iir": ("samples/iir/one_gpu.dfg", "tokens"), "migration": ("samples/migration/one_gpu.dfg", "tokens"),
          "multirate": ("samples/multirate/one_gpu.dfg", "tokens"),
          "packets": ("samples/packets/one_gpu.dfg", "tokens"),
          "dyn_fir": ("samples/dyn_fir/one_gpu.dfg", "islands"),
          "dyn_idct": ("samples/dyn_idct/idct_gpu.dfg", "islands")}
RULE = {"tokens": {"rule": [], "copied": ["--mapped-tokens=0"]}}
# SUITE_BASELINES, SUITE_RESULTS: elsewhere than in the repository (the suite's self-test).
BASELINES = Path(os.environ.get("SUITE_BASELINES") or ROOT / "bench" / "baselines")
RESULTS = Path(os.environ.get("SUITE_RESULTS") or ROOT / "bench" / "results" / "suite")


def experiment(knobs: dict) -> Experiment:
    reps = int(knobs["reps"])
    overlap = load_experiment("overlap").experiment({"nb": knobs["nb"], "iterations": knobs["iterations"], "gpus": "1"})
    for block in overlap.blocks:
        block.name = "overlap_" + block.name
        block.repetitions = reps
        if isinstance(block, Generated):  # the suite's overlap point: neighbours sync
            block.axes = {"strategy": {"overlap_neighbours": ["--sync=neighbours"]}}
        else:
            block.axes["mode"] = {k: v for k, v in block.axes["mode"].items() if k in ("overlap", "serial")}
    torch_metric = r"^{}: .*median ([0-9.]+) ms"
    return Experiment("suite", "the benchmark suite: every GPU figure beside its anchor, as ratios", [
        *(Generated(block, {k: (spec, 1) for k, (spec, b) in TOKENS.items() if b == block}, options=RULE,
                    flags=["--iterations", knobs[f"{block[:-1]}_iterations"], "--stats=period"], repetitions=reps)
          for block in ("tokens", "islands")),
        Generated("granulometry", {"granulometry": ("bench/granulometry/single_gpu.dfg", 1)}, options=RULE,
                  flags=["--iterations", knobs["volumes"], "--stats=period"], repetitions=reps,
                  app="granulometry_single_gpu"),
        Reference("torch_granulometry", "bench/granulometry", "torch_openings.py",
                  axes={"side": {"256": ["--side", "256"]}}, flags=["--reps", "5"],
                  build=["install", "-m", "755", "{src}/torch_openings.py", "{build}/torch_openings.py"],
                  launcher=["python3"],
                  metrics={"eager_ms": torch_metric.format("torch eager"),
                           "compile_ms": torch_metric.format(r"torch\.compile")}),
        *overlap.blocks,
        Reference("touch", "bench/mapped", "touch", axes={"blocks": {"1024": ["--blocks", "1024"]}},
                  expect=r"^case=accumulate"),
    ])


def median_of(rows: list[dict], key: str) -> tuple[float, float, int] | None:
    """The median of `key` over `rows`, its spread ((max - min) / median) and the count."""
    values = [float(r[key]) for r in rows if r.get(key)]
    if not values:
        return None
    m = statistics.median(values)
    return m, (max(values) - min(values)) / m if m > 0 else 0.0, len(values)


def ratios(rows: list[dict], out_dir: Path) -> list[dict]:
    ok = [r for r in rows if r["status"] == "ok"]
    out = []

    def add(metric: str, num: tuple | None, den: tuple | None, note: str, lower_is_better: bool = True):
        if num and den and den[0] > 0:
            out.append({"metric": metric, "value": f"{num[0] / den[0]:.4f}", "spread": f"{num[1] + den[1]:.4f}",
                        "runs": f"{num[2]}/{den[2]}", "lower_is_better": int(lower_is_better), "note": note})

    def period(block: str, **labels) -> tuple | None:
        return median_of([r for r in ok if r["block"] == block and all(r.get(k) == v for k, v in labels.items())],
                         "period_ms")

    for program, (_, block) in TOKENS.items():
        rule, copied = period(block, program=program, tokens="rule"), period(block, program=program,
                                                                              tokens="copied")
        add(f"tokens/{program}/rule_over_copied", rule, copied, f"rule {rule and rule[0]:.4g} ms, copied "
            f"{copied and copied[0]:.4g} ms" if rule and copied else "")
    rule, copied = period("granulometry", tokens="rule"), period("granulometry", tokens="copied")
    add("granulometry/rule_over_copied", rule, copied,
        f"rule {rule[0]:.4g} ms, copied {copied[0]:.4g} ms a volume" if rule and copied else "")
    torch_rows = [r for r in ok if r["block"] == "torch_granulometry"]
    for column, label in (("compile_ms", "torch_compile"), ("eager_ms", "torch_eager")):
        anchor = median_of(torch_rows, column)
        add(f"granulometry/dfgc_over_{label}", rule, anchor,
            f"{label.replace('_', '.')} {anchor[0]:.4g} ms a volume" if anchor else "")
    for nb in sorted({int(r["NB"]) for r in ok if r["block"].startswith("overlap_") and r.get("NB")}):
        gen = period("overlap_generated", NB=str(nb))
        ref = median_of([r for r in ok if r["block"] == "overlap_reference" and r.get("NB") == str(nb)
                         and r.get("mode") == "overlap"], "period_ms")
        add(f"overlap/nb{nb}/generated_over_reference", gen, ref,
            f"generated {gen[0]:.4g} ms, reference {ref[0]:.4g} ms" if gen and ref else "")
    for r in (r for r in ok if r["block"] == "touch"):
        log = out_dir / "logs" / f"{r['run']}.log"
        for m in re.finditer(r"^case=(\w+) bytes=(\d+) blocks=(\d+) device_us=\S+ mapped_us=(\S+) copied_us=(\S+)",
                             log.read_text() if log.exists() else "", re.M):
            case, size, blocks, mapped, copied_us = m.groups()
            metric = f"touch/{case}/{size}B/mapped_over_copied"
            if not any(x["metric"] == metric for x in out):  # the first repetition: a property of the GPU
                add(metric, (float(mapped), 0.0, 1), (float(copied_us), 0.0, 1),
                    f"mapped {mapped} us, device + one copy {copied_us} us ({blocks} blocks)")
    return out


def baseline_path(gpu: str) -> Path:
    return BASELINES / ("suite-" + re.sub(r"[^A-Za-z0-9]+", "-", gpu).strip("-").lower() + ".csv")


def read_csv(path: Path) -> list[dict]:
    with path.open() as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def compare(current: list[dict], baseline: list[dict]) -> list[str]:
    """The regressions: a ratio worse than its baseline by more than both spreads (at least 3%)."""
    base = {b["metric"]: b for b in baseline}
    lines = []
    for c in current:
        b = base.get(c["metric"])
        if not b or not int(b["lower_is_better"]) or c["metric"].startswith("touch/"):
            continue
        margin = max(0.03, float(b["spread"]), float(c["spread"]))
        if float(c["value"]) > float(b["value"]) * (1 + margin):
            lines.append(f"  REGRESSION {c['metric']}: {c['value']} against the baseline's {b['value']} "
                         f"(beyond a spread of {margin:.1%})")
    missing = sorted(set(base) - {c["metric"] for c in current})
    lines += [f"  not measured: {m} (in the baseline)" for m in missing]
    return lines


def report(rows: list[dict], out_dir: Path) -> list[str]:
    import json
    measured = ratios(rows, out_dir)
    gpu = json.loads((out_dir / "provenance.json").read_text()).get("gpu", "")
    with (out_dir / "ratios.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["metric", "value", "spread", "runs", "lower_is_better", "note"])
        writer.writeheader()
        writer.writerows(measured)
    lines = [f"  {len(measured)} ratios in ratios.csv (value: the median of the runs; spread: their range)"]
    lines += [f"    {m['metric']:<48} {m['value']:>8}  ±{float(m['spread']):.1%}  {m['note']}" for m in measured]
    baseline = baseline_path(gpu)
    if baseline.is_file():
        found = compare(measured, read_csv(baseline))
        lines.append(f"  against {baseline}: " +
                     (f"{sum('REGRESSION' in x for x in found)} regression(s)" if found else "no regression"))
        lines += found
    else:
        lines.append(f"  no baseline for '{gpu}' ({baseline}): "
                     f"bench/suite.py baseline {out_dir} makes one")
    return lines
