#!/usr/bin/env python3
"""The saliency benchmark's table from one run's files (run.sh writes them):
dfgc-<size>.json (the dfgc program's --stats-json) and torch-<size>.json (torch_saliency.py).

    report.py RESULTS_DIR        prints the table (markdown) and writes RESULTS_DIR/summary.csv
"""
import csv
import json
import pathlib
import sys

SIZES = ["512x512", "720x576", "1920x1080"]


def main():
    root = pathlib.Path(sys.argv[1])
    rows = []
    for size in SIZES:
        dfgc_file, torch_file = root / f"dfgc-{size}.json", root / f"torch-{size}.json"
        if not dfgc_file.exists() or not torch_file.exists():
            continue
        d, t = json.loads(dfgc_file.read_text()), json.loads(torch_file.read_text())
        fps = d["iterations_per_s"]
        rows.append({"size": size, "dfgc_fps": round(fps, 1), "dfgc_ms": round(1e3 * d["period_s"], 3),
                     "torch_eager_fps": round(t["eager_fps"], 1), "torch_graph_fps": round(t["graph_fps"], 1),
                     "ratio_eager": round(fps / t["eager_fps"], 2), "ratio_graph": round(fps / t["graph_fps"], 2)})
        for key in ("compile", "compile_batch8"):  # torch.compile, a frame at a time and on batches of 8
            if f"{key}_fps" in t:
                rows[-1][f"torch_{key}_fps"] = round(t[f"{key}_fps"], 1)
                rows[-1][f"ratio_{key}"] = round(fps / t[f"{key}_fps"], 2)
    with open(root / "summary.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["size"])
        w.writeheader()
        w.writerows(rows)
    print("| size | dfgc fps (ms) | PyTorch eager fps | PyTorch CUDA graph fps | torch.compile fps | "
          "torch.compile batches of 8 fps | dfgc / eager | dfgc / graph | dfgc / torch.compile | dfgc / batches of 8 |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['size']} | {r['dfgc_fps']} ({r['dfgc_ms']}) | {r['torch_eager_fps']} | {r['torch_graph_fps']} | "
              f"{r.get('torch_compile_fps', '')} | {r.get('torch_compile_batch8_fps', '')} | {r['ratio_eager']} | "
              f"{r['ratio_graph']} | {r.get('ratio_compile', '')} | {r.get('ratio_compile_batch8', '')} |")


if __name__ == "__main__":
    main()
