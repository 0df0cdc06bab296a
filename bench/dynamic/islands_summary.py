#!/usr/bin/env python3
"""The summary of bench/dynamic/islands.sh's times.csv: per program and size, the median ms an
iteration of each mapping and kernel, and its time over the one-core mapping's (the first of the
size: > 1 is slower than one core). Exits 1 when a program's runs printed different checks.

    bench/dynamic/islands_summary.py OUT/times.csv
"""
import csv
import statistics
import sys


def main(path):
    rows = list(csv.DictReader(open(path)))
    runs = {}
    for r in rows:
        if r["ms_per_iteration"]:
            key = (r["program"], r["size"], r["mapping"], r["kernel"])
            runs.setdefault(key, []).append(float(r["ms_per_iteration"]))
    bad = False
    for key in dict.fromkeys((r["program"], r["size"]) for r in rows):
        checks = {r["check"] for r in rows if (r["program"], r["size"]) == key}
        if len(checks) != 1:
            print(f"{key[0]} {key[1]}: outputs differ: {sorted(checks)}")
            bad = True
        mine = {k: statistics.median(v) for k, v in runs.items() if k[:2] == key}
        base = next((m for k, m in mine.items() if k[3] == "-"), None)
        print(f"{key[0]} at {key[1]} an iteration")
        for k, m in mine.items():
            rel = f"  {m / base:8.2f}x one core's time" if base else ""
            print(f"  {k[2]:20} {k[3]:6} {m:10.5f} ms/iteration{rel}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
