#!/usr/bin/env python3
"""Plots a CSV of the overlap benchmark (bench/experiments/overlap.py) and prints its summary.

    python3 bench/plot_overlap.py bench/results/overlap/<device>-<date>/overlap-1gpu.csv [-o out.png]

The figure is the paper's figure 4: the iteration period with and without overlap against
nb_loop (left axis), the speedup on a second axis (right), for the generated program and the
hand-written reference, with the physical bound max(H2D, kernel, D2H). Without matplotlib it
writes an SVG beside the PNG's name instead. The summary: the largest speedup, the worst
generated/reference ratio, and the ratio to the physical bound where transfers dominate.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from pathlib import Path

PERIODS = [  # column, label, colour, dashed
    ("gen_no_overlap_ms", "generated, no overlap", "#d62728", False),
    ("gen_overlap_neighbours_ms", "generated, overlap", "#1f77b4", False),
    ("gen_overlap_barrier_ms", "generated, overlap (barrier)", "#17becf", False),
    ("ref_no_overlap_ms", "reference, serial", "#ff9896", True),
    ("ref_overlap_ms", "reference, overlap", "#2ca02c", True),
    ("ref_overlap_1cpu_ms", "reference, overlap, P+C on 1 thread", "#98df8a", True),
    ("bound_ms", "bound max(H2D, kernel, D2H)", "#7f7f7f", True),
]
SPEEDUPS = [
    ("speedup_gen", "speedup, generated", "#9467bd", False),
    ("speedup_ref", "speedup, reference", "#c5b0d5", True),
]
# Targets of the benchmark: the generated program within 3% of the reference at every point and
# within 10% of the physical bound where transfers dominate.
TARGET_REF = 1.03
TARGET_BOUND = 1.10


def read(path: Path) -> tuple[list[str], list[dict[str, float | None]]]:
    header: list[str] = []
    lines: list[str] = []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            header.append(line[1:].strip())
        elif line.strip():
            lines.append(line)
    rows: list[dict[str, float | None]] = []
    for raw in csv.DictReader(lines):
        row: dict[str, float | None] = {}
        for key, value in raw.items():
            value = (value or "").strip()
            row[key] = float(value) if value else None
        rows.append(row)
    if not rows:
        raise SystemExit(f"plot_overlap: {path}: no data rows")
    rows.sort(key=lambda r: r["nb_loop"] or 0)
    return header, rows


def column(rows, key):
    return [r.get(key) for r in rows]


def has(rows, key) -> bool:
    return any(r.get(key) is not None for r in rows)


def summary(path: Path, header: list[str], rows) -> str:
    out = [f"== {path.name}"]
    out += [f"   {h}" for h in header if h.split(":")[0] in ("gpu", "date", "commit", "command")]

    def best(key, pick=max):
        pts = [(r[key], r["nb_loop"]) for r in rows if r.get(key) is not None]
        return pick(pts) if pts else None

    def transfer_bound(r) -> bool:  # the point's bound is a transfer, not the kernel
        transfers = max(v for v in (r.get("h2d_ms"), r.get("d2h_ms"), r.get("peer_ms")) if v is not None)
        return (r.get("kernel_ms") or 0.0) < transfers

    for key, label in (("speedup_gen", "generated"), ("speedup_ref", "reference")):
        b = best(key)
        if b:
            out.append(f"max speedup ({label}, no overlap / overlap): {b[0]:.2f}x at nb_loop {b[1]:.0f}")
    # The two baselines differ: the reference's serial run copies in, computes and copies out one
    # after the other; the generated program without overlap runs a cycle's H2D and D2H in one
    # transfer step, at once, then the kernel. Its speedup is bounded by
    # (duplex + kernel) / max(duplex, kernel), 2 where they are equal, not 3.
    serial = [(r["ref_no_overlap_ms"] / r["gen_overlap_neighbours_ms"], r["nb_loop"]) for r in rows
              if r.get("ref_no_overlap_ms") and r.get("gen_overlap_neighbours_ms")]
    if serial:
        b = max(serial)
        out.append(f"max speedup (generated overlap against the reference's serial run): {b[0]:.2f}x at nb_loop {b[1]:.0f}")
    bounds = [((r["duplex_ms"] + r["kernel_ms"]) / max(r["duplex_ms"], r["kernel_ms"]), r["speedup_gen"], r["nb_loop"])
              for r in rows if r.get("duplex_ms") and r.get("kernel_ms") and r.get("speedup_gen") and not r.get("peer_ms")]
    if bounds:
        b = max(bounds)
        out.append(f"bound of the generated speedup, (H2D+D2H at once + kernel) / max of the two: {b[0]:.2f}x at "
                   f"nb_loop {b[2]:.0f} (measured {b[1]:.2f}x)")
    verdicts = []
    worst = best("gen_over_ref")
    if worst:
        ok = worst[0] <= TARGET_REF
        out.append(f"worst generated/reference ratio (overlap): {worst[0]:.3f} at nb_loop {worst[1]:.0f}"
                   f" (target <= {TARGET_REF}: {'met' if ok else 'NOT met'})")
        verdicts.append(ok)
        ratios = [(r["gen_overlap_barrier_ms"] / r["ref_overlap_ms"], r["nb_loop"]) for r in rows
                  if r.get("gen_overlap_barrier_ms") and r.get("ref_overlap_ms")]
        if ratios:
            w = max(ratios)
            out.append(f"worst generated (--sync=barrier)/reference ratio: {w[0]:.3f} at nb_loop {w[1]:.0f}")
        ratios = [(r["gen_overlap_neighbours_ms"] / r["ref_overlap_1cpu_ms"], r["nb_loop"]) for r in rows
                  if r.get("gen_overlap_neighbours_ms") and r.get("ref_overlap_1cpu_ms")]
        if ratios:
            w = max(ratios)
            out.append(f"worst generated/reference-with-P+C-on-1-thread ratio: {w[0]:.3f} at nb_loop {w[1]:.0f}")
    dominated = [r for r in rows if transfer_bound(r)]
    if not dominated:
        out.append("no point where transfers dominate (the kernel is longer than every transfer at every point)")
    # The CPU-inclusive bound of each: the generated program runs P and C on one CPU worker, the
    # reference on two threads.
    for key, label, cpu_key, cpu_label in (
            ("gen_overlap_neighbours_ms", "generated", "bound_1cpu_ms", "max(bound, P + C), P and C on one CPU worker"),
            ("ref_overlap_ms", "reference", "bound_cpu_ms", "max(bound, P, C), P and C on two threads")):
        pts = [(r[key] / r["bound_ms"], r["nb_loop"], r[key] / r[cpu_key]) for r in dominated
               if r.get(key) and r.get("bound_ms") and r.get(cpu_key)]
        if not pts:
            continue
        w = max(pts)
        line = (f"{label} overlap period / physical bound max(H2D, kernel, D2H), where transfers dominate"
                f" ({len(pts)} points): worst {w[0]:.2f} at nb_loop {w[1]:.0f}, best {min(pts)[0]:.2f}")
        if key.startswith("gen"):
            ok = w[0] <= TARGET_BOUND
            line += f" (target <= {TARGET_BOUND}: {'met' if ok else 'NOT met'})"
            verdicts.append(ok)
        out.append(line)
        out.append(f"  the same over {cpu_label}: worst {max(p[2] for p in pts):.2f}")
    r0 = rows[0]
    if r0.get("p_ms") is not None:
        out.append(f"stage times at nb_loop {r0['nb_loop']:.0f}: P {r0['p_ms']:.3f} ms, C {r0['c_ms']:.3f} ms, "
                   f"H2D {r0['h2d_ms']:.3f} ms, D2H {r0['d2h_ms']:.3f} ms"
                   + (f", peer {r0['peer_ms']:.3f} ms" if r0.get("peer_ms") is not None else "")
                   + f", kernel {r0['kernel_ms']:.4f} ms; kernel at nb_loop {rows[-1]['nb_loop']:.0f}: {rows[-1]['kernel_ms']:.3f} ms")
    if verdicts:
        out.append("targets: " + ("all met" if all(verdicts) else "NOT all met"))
    return "\n".join(out)


def title_of(header: list[str], path: Path) -> str:
    gpu = next((h.split(":", 1)[1].strip() for h in header if h.startswith("gpu:")), "")
    date = next((h.split(":", 1)[1].strip()[:10] for h in header if h.startswith("date:")), "")
    kind = "two GPUs" if "2gpus" in path.name else "one GPU"
    return f"Overlap benchmark, {kind}, 16 MiB tokens: {gpu} {date}".strip()


def plot_matplotlib(path: Path, header, rows, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = column(rows, "nb_loop")
    fig, ax = plt.subplots(figsize=(10, 7), dpi=120)
    for key, label, colour, dashed in PERIODS:
        if has(rows, key):
            ys = column(rows, key)
            pts = [(a, b) for a, b in zip(x, ys) if b is not None]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "--" if dashed else "-", marker="o", markersize=3,
                    color=colour, label=label)
    ax.set_xscale("log")
    ax.set_xlabel("nb_loop (kernel load)")
    ax.set_ylabel("iteration period (ms)")
    ax.set_ylim(bottom=0)
    ax.grid(True, which="both", alpha=0.3)
    ax2 = ax.twinx()
    for key, label, colour, dashed in SPEEDUPS:
        if has(rows, key):
            pts = [(a, b) for a, b in zip(x, column(rows, key)) if b is not None]
            ax2.plot([p[0] for p in pts], [p[1] for p in pts], ":" if dashed else "-.", marker="s", markersize=3,
                     color=colour, label=label)
    ax2.set_ylabel("speedup (no overlap / overlap)")
    ax2.set_ylim(bottom=0)
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="upper center", bbox_to_anchor=(0.5, -0.12),
              ncol=3, fontsize=8, frameon=False)
    ax.set_title(title_of(header, path), fontsize=10)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def plot_svg(path: Path, header, rows, out: Path) -> None:
    """The same figure drawn by hand, for machines without matplotlib."""
    w, h, left, right, top, bottom = 960, 560, 70, 70, 40, 60
    xs = [math.log10(max(r["nb_loop"], 1)) for r in rows]
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    ymax = max((v for k, *_ in PERIODS for v in column(rows, k) if v is not None), default=1.0) * 1.05
    smax = max([v for k, *_ in SPEEDUPS for v in column(rows, k) if v is not None] + [1.0]) * 1.1

    def px(v):
        return left + (math.log10(max(v, 1)) - x0) / (x1 - x0) * (w - left - right)

    def py(v, top_value):
        return h - bottom - v / top_value * (h - top - bottom)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="13">{title_of(header, path)}</text>',
             f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}" stroke="black"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}" stroke="black"/>',
             f'<line x1="{w - right}" y1="{top}" x2="{w - right}" y2="{h - bottom}" stroke="black"/>',
             f'<text x="{w / 2}" y="{h - 15}" text-anchor="middle">nb_loop (kernel load, log scale)</text>',
             f'<text x="15" y="{h / 2}" transform="rotate(-90 15 {h / 2})" text-anchor="middle">iteration period (ms)</text>',
             f'<text x="{w - 15}" y="{h / 2}" transform="rotate(90 {w - 15} {h / 2})" text-anchor="middle">speedup</text>']
    for r in rows:
        parts.append(f'<text x="{px(r["nb_loop"]):.1f}" y="{h - bottom + 15}" text-anchor="middle" font-size="9">{r["nb_loop"]:.0f}</text>')
    for i in range(6):
        v, s = ymax * i / 5, smax * i / 5
        parts.append(f'<text x="{left - 5}" y="{py(v, ymax) + 4:.1f}" text-anchor="end">{v:.2f}</text>')
        parts.append(f'<text x="{w - right + 5}" y="{py(s, smax) + 4:.1f}">{s:.2f}</text>')
    legend_y = top + 10
    for series, scale in ((PERIODS, ymax), (SPEEDUPS, smax)):
        for key, label, colour, dashed in series:
            pts = [(px(r["nb_loop"]), py(r[key], scale)) for r in rows if r.get(key) is not None]
            if not pts:
                continue
            dash = ' stroke-dasharray="6,4"' if dashed else ""
            path_d = " ".join(f"{'M' if i == 0 else 'L'}{a:.1f},{b:.1f}" for i, (a, b) in enumerate(pts))
            parts.append(f'<path d="{path_d}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
            parts += [f'<circle cx="{a:.1f}" cy="{b:.1f}" r="2.5" fill="{colour}"/>' for a, b in pts]
            parts.append(f'<line x1="{left + 10}" y1="{legend_y}" x2="{left + 40}" y2="{legend_y}" stroke="{colour}" stroke-width="2"{dash}/>')
            parts.append(f'<text x="{left + 45}" y="{legend_y + 4}">{label}</text>')
            legend_y += 14
    parts.append("</svg>")
    out.write_text("\n".join(parts) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", type=Path)
    ap.add_argument("-o", "--output", type=Path, help="PNG to write (default: the CSV's name, .png)")
    args = ap.parse_args()
    header, rows = read(args.csv)
    out = args.output or args.csv.with_suffix(".png")
    try:
        import matplotlib  # noqa: F401

        have_matplotlib = True
    except ImportError:
        have_matplotlib = False
    if have_matplotlib:
        plot_matplotlib(args.csv, header, rows, out)
    else:
        out = out.with_suffix(".svg")
        plot_svg(args.csv, header, rows, out)
        print("plot_overlap: matplotlib not found: wrote an SVG instead of the PNG", file=sys.stderr)
    print(summary(args.csv, header, rows))
    print(f"figure: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
