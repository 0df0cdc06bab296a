"""The granulometry of samples/granulometry in PyTorch, eager and torch.compile, for comparison with
dfgc's program: the same algorithm and boundary as actors/openings.cuh. Opening k erodes the volume
eroded k - 1 times (carried over) once more, dilates it k times and counts the voxels left; one
erosion or dilation is the min or max over the voxel and its 6 neighbours, voxels outside the
volume counting as 0. The volume is uint8 on the GPU, made as the Reader makes it.

    python3 torch_openings.py [--side 256] [--openings 40] [--reps 5] [--csv FILE]

Prints the curve hash of the Reader's volumes 0 and 4 (the Curve actor's FNV-1a, which dfgc's
program prints at iterations 0 and 100) and the median time per volume of each variant.
"""

import argparse
import statistics
import sys
import time

import torch
import torch.nn.functional as F


def reader_volume(side: int, v: int, device: str) -> torch.Tensor:
    cell, radius = 32, 4 + v
    c = torch.arange(side, device=device) % cell
    d = (c - cell // 2).abs()
    d2 = d * d
    r2 = d2[:, None, None] + d2[None, :, None] + d2[None, None, :]  # (z, y, x)
    return (r2 <= radius * radius).to(torch.uint8).contiguous()


def morpho_step(v: torch.Tensor, erode: bool) -> torch.Tensor:
    p = F.pad(v, (1, 1, 1, 1, 1, 1))  # zeros outside the volume
    c = p[1:-1, 1:-1, 1:-1]
    neighbours = (p[2:, 1:-1, 1:-1], p[:-2, 1:-1, 1:-1], p[1:-1, 2:, 1:-1],
                  p[1:-1, :-2, 1:-1], p[1:-1, 1:-1, 2:], p[1:-1, 1:-1, :-2])
    out = c
    for n in neighbours:
        out = torch.minimum(out, n) if erode else torch.maximum(out, n)
    return out


def erode(v):
    return morpho_step(v, True)


def dilate(v):
    return morpho_step(v, False)


def count(v):
    return (v != 0).sum()


def granulometry(volume, openings, erode_fn, dilate_fn, count_fn):
    eroded = volume
    counts = []
    for k in range(1, openings + 1):
        eroded = erode_fn(eroded)
        v = eroded
        for _ in range(k):
            v = dilate_fn(v)
        counts.append(count_fn(v))
    return torch.stack(counts)


def curve_hash(counts) -> str:
    h = 1469598103934665603
    for c in counts:
        h = ((h ^ (int(c) & 0xFFFFFFFFFFFFFFFF)) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def time_per_volume(fn, volumes, reps):
    times = []
    for r in range(reps):
        v = volumes[r % len(volumes)]
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn(v)
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", type=int, default=256)
    ap.add_argument("--openings", type=int, default=40)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--csv")
    a = ap.parse_args()
    dev = "cuda"
    volumes = [reader_volume(a.side, v, dev) for v in range(12)]

    c_erode, c_dilate, c_count = torch.compile(erode), torch.compile(dilate), torch.compile(count)
    variants = {
        "torch eager": lambda v: granulometry(v, a.openings, erode, dilate, count),
        "torch.compile": lambda v: granulometry(v, a.openings, c_erode, c_dilate, c_count),
    }
    rows = []
    hashes = {}
    for name, fn in variants.items():
        t0 = time.perf_counter()
        curves = [fn(volumes[i]).cpu().tolist() for i in (0, 4)]  # warm-up (compiles)
        warm = time.perf_counter() - t0
        hashes[name] = [curve_hash(c) for c in curves]
        med, lo = time_per_volume(fn, volumes, a.reps)
        rows.append((name, med, lo))
        print(f"{name}: curves {hashes[name][0]} (volume 0) {hashes[name][1]} (volume 4), "
              f"last count {curves[0][-1]}; warm-up {warm:.1f} s; median {med:.3f} ms, min {lo:.3f} ms",
              flush=True)
    if hashes["torch eager"] != hashes["torch.compile"]:
        print("torch_openings: eager and torch.compile curves differ", file=sys.stderr)
        sys.exit(1)
    print(f"curve volume 0 {hashes['torch eager'][0]}")
    print(f"curve volume 4 {hashes['torch eager'][1]}")
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("variant,median_ms,min_ms\n")
            for name, med, lo in rows:
                f.write(f"{name},{med:.4f},{lo:.4f}\n")


if __name__ == "__main__":
    main()
