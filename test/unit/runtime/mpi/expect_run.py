#!/usr/bin/env python3
"""Runs an MPI job and checks how it ended: its exit status, lines that must appear exactly once,
and how long it took. Used by ctest for the runs that must fail (wrong rank count, bad hostmap,
a rank that throws) and for the runs that must succeed.

  expect_run.py --status 0|1|nonzero [--once LINE]... [--count-prefix PREFIX=N]... \
                [--max-seconds S] [--env NAME=VALUE]... -- mpiexec -n 2 prog args...
"""
import argparse
import os
import subprocess
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--status", required=True, help="0, 1, or nonzero")
    ap.add_argument("--once", action="append", default=[], help="a line that must appear exactly once")
    ap.add_argument("--count-prefix", action="append", default=[],
                    help="PREFIX=N: exactly N lines start with PREFIX")
    ap.add_argument("--max-seconds", type=float, default=0.0)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command and a.command[0] == "--" else a.command
    env = dict(os.environ)
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v

    start = time.monotonic()
    try:
        p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                           timeout=max(a.max_seconds * 4, 120.0))
    except subprocess.TimeoutExpired as e:
        sys.stdout.write((e.stdout or b"").decode(errors="replace"))
        print(f"FAILED: the job did not end within {e.timeout:.0f} s (a hang)")
        return 1
    elapsed = time.monotonic() - start
    out = p.stdout.decode(errors="replace")
    sys.stdout.write(out)
    lines = out.splitlines()
    failures = []

    if a.status == "nonzero":
        if p.returncode == 0:
            failures.append("expected a non-zero exit status, got 0")
    elif p.returncode != int(a.status):
        failures.append(f"expected exit status {a.status}, got {p.returncode}")
    for want in a.once:
        n = sum(1 for line in lines if line == want)
        if n != 1:
            failures.append(f"expected exactly one line {want!r}, found {n}")
    for spec in a.count_prefix:
        prefix, _, count = spec.rpartition("=")
        n = sum(1 for line in lines if line.startswith(prefix))
        if n != int(count):
            failures.append(f"expected {count} line(s) starting with {prefix!r}, found {n}")
    if a.max_seconds > 0 and elapsed > a.max_seconds:
        failures.append(f"took {elapsed:.1f} s, more than {a.max_seconds:.0f} s")

    print(f"-- exit status {p.returncode}, {elapsed:.2f} s")
    for f in failures:
        print("FAILED: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
