#!/usr/bin/env python3
"""Reads divisible_bench's JSON lines and reports them against the closed forms.

    report.py RESULTS.jsonl [--table TABLE.txt] [--markdown TABLE.md] [--png FIG9.png]

Prints (and writes to --table) every configuration: algorithm, N, m, β, measured ms, the closed
form with the measured per-installment cost o, their ratio, and whether the model holds there;
then how many are within 5% of the model and the worst ones. --markdown writes a shorter table
(m = 1, 2, 4, 8, 16). --png redraws the report's Fig. 9: the speed-ups of P and F over C (C with
one installment, on the same N) against m, at β = 100 and β = 0.1 (the nearest β measured),
measured as markers and the closed forms as lines (dashed: the report's, o = 0).
"""
import argparse
import json
import sys

TOLERANCE = 0.05


def load(path):
    platform, betas, runs = None, [], []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            kind = row.get("kind")
            if kind == "platform":
                platform = row
            elif kind == "beta":
                betas.append(row)
            elif kind == "run":
                runs.append(row)
    if platform is None or not runs:
        sys.exit(f"report.py: {path} has no platform line or no run")
    return platform, betas, runs


def table(platform, betas, runs):
    out = [
        f"device: {platform['device']} ({platform['visible']} visible), load "
        f"{platform['bytes'] / 2**20:.0f} MiB, H2D alone {platform['h2d_gbps']:.1f} GB/s, "
        f"aggregate by N {platform['aggregate_gbps']} GB/s, peer {platform['peer_gbps']:.1f} GB/s, "
        f"o = {platform['o_us']:.2f} us per copy or kernel",
        "betas: " + ", ".join(f"{b['target']:g} -> {b['beta']:.3f} ({b['iters']} FMAs/float)"
                              for b in betas),
        "",
        f"{'alg':>3} {'N':>2} {'m':>3} {'beta':>8} {'measured_ms':>12} {'model_ms':>10} "
        f"{'model_o_ms':>11} {'ratio':>7}  holds",
    ]
    for r in runs:
        out.append(f"{r['algorithm']:>3} {r['n']:>2} {r['m']:>3} {r['beta']:>8.3f} "
                   f"{r['measured_ms']:>12.4f} {r['model_ms']:>10.4f} {r['model_o_ms']:>11.4f} "
                   f"{r['ratio']:>7.3f}  {'yes' if r['model_holds'] else 'no'}")
    held = [r for r in runs if r["model_holds"]]
    within = [r for r in held if abs(r["ratio"] - 1) <= TOLERANCE]
    out.append("")
    out.append(f"within {TOLERANCE:.0%} of the closed form (with o): {len(within)} of {len(held)} "
               "configurations where the model holds")
    by_beta = {}
    for r in held:
        by_beta.setdefault((r["algorithm"], r["beta_target"]), []).append(r)
    for (alg, beta), rows in sorted(by_beta.items()):
        ratios = [r["ratio"] for r in rows]
        out.append(f"  {alg} beta {beta:>5g}: ratio {min(ratios):.3f} .. {max(ratios):.3f}, "
                   f"{sum(abs(x - 1) <= TOLERANCE for x in ratios)}/{len(ratios)} within")
    worst = sorted(held, key=lambda r: -abs(r["ratio"] - 1))[:8]
    out.append("worst: " + "; ".join(
        f"{r['algorithm']} N={r['n']} m={r['m']} beta={r['beta']:.2f}: {r['ratio']:.3f}"
        for r in worst))
    return "\n".join(out) + "\n"


def markdown(platform, runs):
    out = [f"Measured on {platform['device']}, {platform['bytes'] / 2**20:.0f} MiB, o = "
           f"{platform['o_us']:.2f} us.", "",
           "| alg | N | m | β | measured ms | closed form ms (o = 0) | closed form ms (with o) | ratio |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in runs:
        if r["m"] in (1, 2, 4, 8, 16):
            out.append(f"| {r['algorithm']} | {r['n']} | {r['m']} | {r['beta']:.3f} | "
                       f"{r['measured_ms']:.3f} | {r['model_ms']:.3f} | {r['model_o_ms']:.3f} | "
                       f"{r['ratio']:.3f}{'' if r['model_holds'] else ' (model does not hold)'} |")
    return "\n".join(out) + "\n"


def figure(runs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    targets = sorted({r["beta_target"] for r in runs})
    panels = [min(targets, key=lambda b: abs(b - want)) for want in (100, 0.1)]
    ns = sorted({r["n"] for r in runs})
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, target, label in zip(axes, panels, ("(a)", "(b)")):
        for n in ns:
            rows = [r for r in runs if r["beta_target"] == target and r["n"] == n]
            base = [r for r in rows if r["algorithm"] == "C" and r["m"] == 1]
            if not base:
                continue
            base = base[0]
            for alg, colour in (("F", "tab:blue"), ("P", "tab:red")):
                sel = sorted((r for r in rows if r["algorithm"] == alg), key=lambda r: r["m"])
                ms = [r["m"] for r in sel]
                tag = f"{alg}, N={n}" if len(ns) > 1 else alg
                ax.plot(ms, [base["measured_ms"] / r["measured_ms"] for r in sel], "o",
                        color=colour, label=f"{tag} measured")
                ax.plot(ms, [base["model_o_ms"] / r["model_o_ms"] for r in sel], "-",
                        color=colour, label=f"{tag} closed form, measured o")
                ax.plot(ms, [base["model_ms"] / r["model_ms"] for r in sel], "--",
                        color=colour, alpha=0.6, label=f"{tag} closed form, o = 0 (report)")
        beta = next(r["beta"] for r in runs if r["beta_target"] == target)
        ax.set_title(f"{label} β = {target:g} (measured {beta:.3g})")
        ax.set_xlabel("installments m")
        ax.set_ylabel("speed-up over C (m = 1)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Speed-up of P and F over C (the report's Fig. 9, measured)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--table")
    ap.add_argument("--markdown")
    ap.add_argument("--png")
    args = ap.parse_args()
    platform, betas, runs = load(args.results)
    text = table(platform, betas, runs)
    sys.stdout.write(text)
    if args.table:
        with open(args.table, "w") as f:
            f.write(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(platform, runs))
    if args.png:
        figure(runs, args.png)


if __name__ == "__main__":
    main()
