#!/usr/bin/env python3
"""Random programs with loops (edges with initial tokens) and migration alternatives, compiled,
built and run (a property test of the migration union around delay lines).

    migrate_loops.py DFGC WORK [--programs N] [--seed S]

Each program is a chain s -> b1 -> ... -> bm -> k on three cores of one host; each body node is a
Pass or a Loop whose second input closes a loop with 1 to 4 initial tokens, either on itself or
through a Pass node off the chain. Every node is placed on a random core; one or two nodes list one
or two other cores as alternatives. For every program, dfgc either refuses it with a located
error (a move that would lose a delay line's tokens, a loop without enough initial tokens for its
latency), or its project builds with g++ -Wall
-Wextra -Werror and every move (at iterations 0, 5 and 13, with and without overlap) prints the
sink's stream of the run without a move, token for token; so does every pair of two nodes' moves
(the same iteration or two: neighbours switch to their joint alternative), unless --migrate
refuses it at launch with one line. At least a third of the programs must
build (the generator's mix makes most of them movable).
"""
import argparse
import concurrent.futures
import pathlib
import random
import shutil
import subprocess
import sys

ACTORS = r"""#pragma once
#include <cstdio>
#include <dfg/context.hpp>
struct Src {
  void fire(float* o, dfg::Context& ctx) { o[0] = static_cast<float>(ctx.iteration() % 97); }
};
struct Loop {
  void fire(const float* x, const float* s, float* y, float* n) {
    n[0] = static_cast<float>(static_cast<int>(s[0] * 3 + x[0]) % 1009);
    y[0] = n[0] + x[0];
  }
};
struct Pass {
  void fire(const float* x, float* y) { y[0] = static_cast<float>(static_cast<int>(x[0] * 7 + 1) % 1013); }
};
struct Snk {
  void fire(const float* x, dfg::Context& ctx) {
    std::printf("%lld %.1f\n", static_cast<long long>(ctx.iteration()), static_cast<double>(x[0]));
  }
};
"""

HEADER = """type T = float[1];
actor Src { out T o; cpu "a.hpp"; }
actor Loop { in T x; in T s; out T y; out T n; cpu "a.hpp"; }
actor Pass { in T x; out T y; cpu "a.hpp"; }
actor Snk { in T x; cpu "a.hpp"; }
arch tri { host A { cpu c 3; } }
"""

PES = ["A.c0", "A.c1", "A.c2"]
ITERATIONS = 40


def program(rng):
    """(spec text, [(node, pe)] the moves to try)."""
    nodes = [("s", "Src")]
    edges = []
    prev = "s.o"
    for i in range(rng.randint(1, 4)):
        name = f"b{i}"
        if rng.random() < 0.6:
            nodes.append((name, "Loop"))
            edges.append(f"{prev} -> {name}.x")
            delay = rng.choice([1, 2, 3, 3, 4])
            if rng.random() < 0.5:
                edges.append(f"{name}.n -> {name}.s delay {delay}")
            else:
                nodes.append((f"h{i}", "Pass"))
                edges.append(f"{name}.n -> h{i}.x")
                edges.append(f"h{i}.y -> {name}.s delay {delay}")
            prev = f"{name}.y"
        else:
            nodes.append((name, "Pass"))
            edges.append(f"{prev} -> {name}.x")
            prev = f"{name}.y"
    nodes.append(("k", "Snk"))
    edges.append(f"{prev} -> k.x")
    place = {name: rng.choice(PES) for name, _ in nodes}
    movers = rng.sample([name for name, _ in nodes], rng.randint(1, 2))
    alternatives = {}
    for name in movers:
        others = [pe for pe in PES if pe != place[name]]
        alternatives[name] = rng.sample(others, rng.randint(1, 2))
    lines = [HEADER, "app r on tri {"]
    for name, actor in nodes:
        alt = f" migrates {', '.join(alternatives[name])}" if name in alternatives else ""
        lines.append(f"  node {name} : {actor} @ {place[name]}{alt};")
    lines += [f"  {e};" for e in edges]
    lines.append("}")
    moves = [(name, pe) for name, pes in alternatives.items() for pe in pes]
    return "\n".join(lines) + "\n", moves


def check(dfgc, work, index, seed):
    rng = random.Random(seed * 1000 + index)
    spec, moves = program(rng)
    d = work / f"p{index}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    (d / "a.hpp").write_text(ACTORS)
    (d / "r.dfg").write_text(spec)
    c = subprocess.run([dfgc, "compile", "r.dfg", "-o", "gen"], cwd=d, capture_output=True,
                       text=True, timeout=300)
    if c.returncode != 0:
        if c.returncode == 1 and "may not move to" in c.stderr and "r.dfg:" in c.stderr:
            return "refused", None
        if c.returncode == 1 and "initial token" in c.stderr and "it lacks" in c.stderr:
            return "not live", None
        return "failed", f"p{index}: dfgc compile exit {c.returncode}:\n{spec}\n{c.stderr}"
    gen = d / "gen"
    b = subprocess.run(["g++", "-std=c++20", "-O1", "-Wall", "-Wextra", "-Werror",
                        "-I", str(gen / "runtime"), "-I", str(gen / "actors"),
                        str(gen / "rank_A.cpp"), "-pthread", "-o", str(d / "app")],
                       capture_output=True, text=True, timeout=600)
    if b.returncode != 0:
        return "failed", f"p{index}: the project does not build:\n{spec}\n{b.stderr[:4000]}"

    def run(*flags):
        r = subprocess.run([str(d / "app"), "--iterations", str(ITERATIONS), *flags],
                           capture_output=True, text=True, timeout=120)
        return r.returncode, r.stdout, r.stderr

    status, reference, err = run()
    if status != 0 or len(reference.splitlines()) != ITERATIONS:
        return "failed", f"p{index}: the run without a move: exit {status}\n{spec}\n{err}"
    for node, pe in moves:
        for at in (0, 5, 13):
            for strategy in ([], ["--no-overlap"]):
                flags = strategy + ["--migrate", f"{node}:{pe}@{at}"]
                status, out, err = run(*flags)
                if status != 0 or out != reference:
                    return "failed", (f"p{index}: {' '.join(flags)}: exit {status}, "
                                      f"{'the same' if out == reference else 'another'} stream\n"
                                      f"{spec}\n{err}")
    # Two nodes' moves together (neighbours through their joint alternative): the same stream,
    # or a refusal at launch with one line and nothing run.
    for (n1, pe1), (n2, pe2) in ((a, b) for a in moves for b in moves if a[0] < b[0]):
        for at1, at2 in ((5, 5), (5, 13), (13, 0)):
            for strategy in ([], ["--no-overlap"]):
                flags = strategy + ["--migrate", f"{n1}:{pe1}@{at1}", "--migrate", f"{n2}:{pe2}@{at2}"]
                status, out, err = run(*flags)
                refused = (status == 1 and not out and len(err.splitlines()) == 1
                           and err.startswith("error: --migrate "))
                if not refused and (status != 0 or out != reference):
                    return "failed", (f"p{index}: {' '.join(flags)}: exit {status}, "
                                      f"{'the same' if out == reference else 'another'} stream\n"
                                      f"{spec}\n{err}")
    return "built", None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dfgc")
    ap.add_argument("work", type=pathlib.Path)
    ap.add_argument("--programs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    a.dfgc = str(pathlib.Path(a.dfgc).resolve())
    a.work.mkdir(parents=True, exist_ok=True)
    counts = {"built": 0, "refused": 0, "not live": 0, "failed": 0}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for outcome, why in pool.map(lambda i: check(a.dfgc, a.work, i, a.seed),
                                     range(a.programs)):
            counts[outcome] += 1
            if why:
                failures.append(why)
    print(f"{a.programs} programs: {counts['built']} built and moved correctly, "
          f"{counts['refused']} refused (a move would lose a delay line's tokens), "
          f"{counts['not live']} refused (a loop without enough initial tokens), "
          f"{counts['failed']} failed")
    for why in failures:
        print("FAIL " + why, file=sys.stderr)
    if failures or counts["built"] * 3 < a.programs:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
