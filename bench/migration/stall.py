#!/usr/bin/env python3
"""The stall of a move: how long the stream waits for its outputs around each move, from a run's
--trace. The output interval of iteration i is the time between the ends of the sink's firings
i - 1 and i; a move at iteration m is judged by its worst interval over iterations m - 2 .. m + W,
against the median interval of the iterations far from every move (the steady period).

    stall.py TRACE --sink NAME --moves M1,M2,... [--window W]

TRACE: the program's --trace file (one host); NAME: the sink node ("k"); M1, ...: the iterations
of the moves (--migrate NODE:PE@M). Prints one line a move: its worst interval, where it fell,
and the ratio to the steady period. The issue's goal is a ratio of at most 1.3.
"""

import argparse
import json
import statistics
import sys


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--sink", required=True)
    ap.add_argument("--moves", default="")
    ap.add_argument("--window", type=int, default=20)
    a = ap.parse_args()
    with open(a.trace) as f:
        events = json.load(f)
    ends = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "firing" and e["name"].split(" ")[0] == a.sink:
            ends[e["args"]["iteration"]] = e["ts"] + e.get("dur", 0.0)
    if len(ends) < 3:
        sys.exit(f"stall: fewer than 3 firings of '{a.sink}' in {a.trace}")
    its = sorted(ends)
    interval = {i: ends[i] - ends[p] for p, i in zip(its, its[1:]) if i == p + 1}
    moves = [int(m) for m in a.moves.split(",") if m]
    near = lambda i: any(m - 2 <= i <= m + a.window for m in moves)  # noqa: E731
    steady = statistics.median(v for i, v in interval.items() if not near(i) and i > 10)
    print(f"stall: {len(ends)} firings of {a.sink}; steady interval {steady:.1f} us (median away from moves)")
    for m in moves:
        around = {i: v for i, v in interval.items() if m - 2 <= i <= m + a.window}
        if not around:
            print(f"  move @{m}: no firings around it")
            continue
        worst = max(around, key=around.get)
        print(f"  move @{m}: worst interval {around[worst]:.1f} us at iteration {worst}, "
              f"{around[worst] / steady:.2f}x the steady interval")
    return 0


if __name__ == "__main__":
    sys.exit(main())
