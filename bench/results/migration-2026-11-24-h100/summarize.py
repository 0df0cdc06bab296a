#!/usr/bin/env python3
"""Per-iteration output intervals around each live move against the steady period (the median
of the unmigrated run over the same iterations) and against the model (schedule.txt: pause 0,
gap 0 iterations for these alternatives, so the model's interval is the steady period of the
placement on each side)."""
import statistics, sys, os

def read(path):
    out = {}
    for line in open(path):
        j, us = line.split()
        out[int(j)] = float(us)
    return out

def window_median(iv, lo, hi):
    return statistics.median(iv[j] for j in range(lo, hi) if j in iv)

rows = []
for case, moves in (("one", (1000, 2000)), ("two", (1000, 2000))):
    for s in ("overlap", "no-overlap"):
        steady = read(f"{case}_steady_{s}.txt")
        live = read(f"{case}_live_{s}.txt")
        base = window_median(steady, 100, 2900)
        before = window_median(live, 100, 990)
        during = window_median(live, 1010, 1990)
        after = window_median(live, 2010, 2900)
        print(f"{case} {s}: steady (no move) median {base:.0f} us; live run: before the first move "
              f"{before:.0f}, between the moves {during:.0f}, after the move back {after:.0f}")
        for m in moves:
            side = max(before if m == 1000 else during, during if m == 1000 else after)
            near = [(j, live[j]) for j in range(m - 10, m + 11) if j in live]
            worst = max(near, key=lambda x: x[1])
            print(f"  move at {m}: largest interval in {m-10}..{m+10}: {worst[1]:.0f} us at {worst[0]}, "
                  f"{worst[1] / side:.2f}x the slower steady period of the two sides ({side:.0f} us)")
            print("   ", " ".join(f"{j}:{v:.0f}" for j, v in near))
