"""GPU self-check of the generated programs: the overlap sample's one_gpu mapping (and two_gpus
on two GPUs) run 200 iterations in both strategies and both sync modes (the consumer checks every
element of every token, a bad one fails the run), once with --trace, and under compute-sanitizer
memcheck and racecheck on a short run (20 iterations, -D N=256) in both strategies.

Knobs (harness.py generate gpu_check DIR --set KEY=VALUE): gpus (1: leave out two_gpus),
iterations (of the token checks), n (-D N of the token checks and the trace: the matrix side; the
sample's 2048 when empty; N <= 32 gives tokens of at most 4 KiB, which dfgc maps into host memory
by default), sanitize_n (-D N of the compute-sanitizer runs, 256 by default)."""

from harness import Experiment, Generated, Tool

KNOBS = {"gpus": "2", "iterations": "200", "n": "", "sanitize_n": "256"}

STRATEGY = {"overlap": [], "no-overlap": ["--no-overlap"]}
SYNC = {"neighbours": ["--sync=neighbours"], "barrier": ["--sync=barrier"]}
# memcheck ends with "ERROR SUMMARY: 0 errors", racecheck with "RACECHECK SUMMARY: 0 hazards".
SANITIZERS = [
    Tool("memcheck", ["compute-sanitizer", "--tool", "memcheck", "--error-exitcode", "3"], r"ERROR SUMMARY: 0 errors"),
    Tool("racecheck", ["compute-sanitizer", "--tool", "racecheck", "--error-exitcode", "3"],
         r"RACECHECK SUMMARY: 0 hazards displayed \(0 errors"),
]


def experiment(knobs: dict) -> Experiment:
    specs = {"one_gpu": ("samples/overlap/one_gpu.dfg", 1)}
    n = {"N": [int(knobs["n"])]} if knobs["n"] else {}
    if int(knobs["gpus"]) >= 2:
        specs["two_gpus"] = ("samples/overlap/two_gpus.dfg", 2)
    return Experiment("gpu_check", "token checks, trace and compute-sanitizer of the overlap sample", [
        Generated("tokens", specs, defines=n, axes={"strategy": STRATEGY, "sync": SYNC},
                  flags=["--iterations", knobs["iterations"], "--stats"]),
        Generated("trace", specs, defines=n, flags=["--iterations", "20", "--trace", "{out}.trace.json"]),
        Generated("sanitize", specs, defines={"N": [int(knobs["sanitize_n"])]}, axes={"strategy": STRATEGY},
                  flags=["--iterations", "20"], tools=SANITIZERS),
    ])
