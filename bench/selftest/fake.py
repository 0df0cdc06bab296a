#!/usr/bin/env python3
"""Stand-ins for dfgc, cmake, nvidia-smi, nvcc, compute-sanitizer, mpirun, mpicxx, mpi_ping, the
overlap reference and the generated `app`, for testing bench/harness.py on a machine without a GPU (bench/selftest/run).
The programs print (and `app` writes with --stats-json) what the real ones do, with times from a
model of the overlap pipeline: H2D, D2H, peer copy, P and C fixed, the kernel linear in nb_loop.
Which program it is comes from the name it is run by.

FAKE_GPUS=N: how many GPUs nvidia-smi lists. FAKE_FAIL: dfgc-<NB>, app-<NB>, ref-<NB> (that
program fails at that point, as a bad spec or a failed token check would), or racecheck (it finds
a hazard)."""
import json
import os
import shutil
import sys

NAME = os.path.basename(sys.argv[0])
ARGS = sys.argv[1:]
H2D, D2H, PEER, P, C = 0.31, 0.30, 0.05, 1.7, 1.1


def opt(flag, default=None):
    for i, a in enumerate(ARGS):
        if a == flag:
            return ARGS[i + 1]
        if a.startswith(flag + "="):
            return a.split("=", 1)[1]
    return default


def kernel(nb):
    return 0.01 + 0.0021 * nb


def failing(what):
    return os.environ.get("FAKE_FAIL") == what


def reference():
    nb, gpus, iterations = int(opt("--nb-loop", "100")), int(opt("--gpus", "1")), int(opt("--iterations", "200"))
    if failing(f"ref-{nb}"):
        sys.exit("overlap_ref: error: token check failed: consumer: iteration 3, element 0: got 3, expected 4")
    k = kernel(nb)
    stages = [("P", P), ("H2D", H2D), ("kernel gpu0", k)]
    if gpus == 2:
        stages += [("peer gpu0>gpu1", PEER), ("kernel gpu1", k)]
    stages += [("D2H", D2H), ("C", C)]
    if "--no-overlap" in ARGS:
        for s, t in stages:
            print(f"stage {s}: {t:.4f} ms")
        print(f"stage H2D+D2H at once: {max(H2D, D2H) * 1.18:.4f} ms")  # measured after the iterations
        period = sum(t for _, t in stages)
    elif opt("--cpu-threads", "2") == "1":
        period = max(P + C, H2D, D2H, k)
    else:
        period = max(P, C, H2D, D2H, k) * 1.01
    print(f"iteration period: {period:.3f} ms over {iterations - 9} iterations (after 8 warm-up cycles)")
    print(f"tokens checked: {iterations} of {iterations}, every element as expected")


def app():
    project = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), "..")
    defines = json.load(open(os.path.join(project, "DEFINES")))
    nb = int(defines.get("NB", "100"))
    gpus = 2 if "two" in open(os.path.join(project, "SPEC")).read() else 1
    if failing(f"app-{nb}"):
        sys.exit("error: consumer c: iteration 7, element 12: got 7, expected 8")
    k = kernel(nb)
    if "--no-overlap" in ARGS:
        period = max(H2D, D2H) + (PEER if gpus == 2 else 0) + max(P + C, k)
    else:
        period = max(P + C, H2D, D2H, k) * (1.02 if "--sync=barrier" in ARGS else 1.005)
    iterations = int(opt("--iterations", "100"))
    if opt("--stats") is not None or "--stats" in ARGS:
        print(f"iteration period: {period:.3f} ms over {iterations - 3} iterations (after 2 warm-up cycles)")
    if "gpudirect" in open(os.path.join(project, "SPEC")).read():
        aware = "--no-cuda-aware-mpi" not in ARGS
        print("gpudirect: MPI is CUDA-aware: device buffers go straight to MPI" if aware else
              "gpudirect: MPI is not CUDA-aware (or --no-cuda-aware-mpi): staging through pinned host memory")
    if opt("--trace"):
        open(opt("--trace"), "w").write('{"traceEvents": []}\n')
    if opt("--stats-json"):
        per_item = opt("--stats") != "period"
        entries = two_hosts_entries(k, iterations) if "two_hosts.dfg" in open(os.path.join(project, "SPEC")).read() else [{"kind": "firing", "name": "i1 (Inc)", "pe": "A.g0", "count": iterations, "min_s": k * 0.9e-3,
                    "median_s": k * 1e-3, "mean_s": k * 1e-3, "max_s": k * 1.2e-3},
                   {"kind": "transfer", "name": "p.m -> i1.a", "pe": "A.cpu>A.g0", "count": iterations,
                    "min_s": H2D * 1e-3, "median_s": H2D * 1e-3, "mean_s": H2D * 1e-3, "max_s": H2D * 1e-3}]
        host = os.environ.get("FAKE_HOST", "A")
        stats = {"format": "dfg-stats", "version": 1, "host": host,
                 "strategy": "no-overlap" if "--no-overlap" in ARGS else "overlap",
                 "sync": "barrier" if "--sync=barrier" in ARGS else "neighbours", "iterations": iterations,
                 "warmup_cycles": 2, "params": {}, "period_s": period * 1e-3, "periods": iterations - 3,
                 "iterations_per_s": 1e3 / period, "bytes_per_s": 16.0 * 2**20 * 1e3 / period,
                 "entries": entries if per_item else [], "peak_memory": [{"pe": "A.cpu", "bytes": 1 << 25}]}
        path = opt("--stats-json")
        if "FAKE_HOST" in os.environ:  # one file per host: FILE with the host before the extension
            path = path[:-len(".json")] + f".{host}.json"
        open(path, "w").write(json.dumps(stats))


def two_hosts_entries(k, count):
    """bench/hosts/two_hosts.dfg's kernels, its 4 PCIe copies (1.4 ms the longest) and its net transfer."""
    def entry(kind, name, pe, ms):
        return {"kind": kind, "name": name, "pe": pe, "count": count, "min_s": ms * 1e-3, "median_s": ms * 1e-3,
                "mean_s": ms * 1e-3, "max_s": ms * 1e-3}
    return [entry("firing", "i1 (Inc)", "A.g0", k), entry("firing", "i2 (Inc)", "B.g0", k),
            entry("transfer", "p.m -> i1.a", "A.cpu>A.g0", 1.3), entry("transfer", "i1.b@A.g0 -> A.cpu", "A.g0>A.cpu", 1.4),
            entry("transfer", "i1.b@A.cpu -> B.cpu", "A.cpu>B.cpu", 2.6),
            entry("transfer", "i1.b@B.cpu -> i2.a", "B.cpu>B.g0", 1.3), entry("transfer", "i2.b -> c.a", "B.g0>B.cpu", 1.2)]


def mpicxx():
    shutil.copy(os.path.realpath(sys.argv[0]), opt("-o"))


def mpi_ping():
    print("mpi one-way: 2.5000 ms for 16777216 bytes (6.71 GB/s), 50 round trips")


def dfgc():
    if "--version" in ARGS:
        print("dfgc (stand-in)")
        return
    spec, out = ARGS[1], opt("-o")
    defines = dict(ARGS[i + 1].split("=", 1) for i, a in enumerate(ARGS) if a == "-D")
    if failing(f"dfgc-{defines.get('NB')}"):
        sys.exit(f"{spec}:1:1: error: injected failure")
    os.makedirs(out)
    for name, text in (("DEFINES", json.dumps(defines)), ("SPEC", spec), ("CMakeLists.txt", "")):
        with open(os.path.join(out, name), "w") as f:
            f.write(text)


def cmake():
    if ARGS[0] == "--build":  # "builds" the program: a copy of this file under the name it runs by
        build = ARGS[1]
        exe = "overlap_ref" if os.path.exists(os.path.join(build, "REFERENCE")) else "app"
        shutil.copy(os.path.realpath(sys.argv[0]), os.path.join(build, exe))
    else:
        build = opt("-B")
        os.makedirs(build, exist_ok=True)
        if opt("-S").rstrip("/").endswith("bench/reference"):
            open(os.path.join(build, "REFERENCE"), "w").close()


def compute_sanitizer():
    tool = opt("--tool")
    rest = ARGS[ARGS.index("--error-exitcode") + 2:]
    sys.argv = rest
    globals()["ARGS"] = rest[1:]
    {"app": app, "overlap_ref": reference}[os.path.basename(rest[0])]()
    if tool == "racecheck":
        if failing("racecheck"):
            print("========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)")
            sys.exit(3)
        print("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)")
    else:
        print("========= ERROR SUMMARY: 0 errors")


def mpirun():
    np_at = ARGS.index("-np")
    ranks, program = int(ARGS[np_at + 1]), ARGS[np_at + 2:]
    if os.environ.get("OMPI_ALLOW_RUN_AS_ROOT") != "1":
        sys.exit("mpirun: OMPI_ALLOW_RUN_AS_ROOT is not set")
    for rank in range(ranks):
        os.environ["FAKE_HOST"] = "AB"[rank]
        sys.argv, globals()["ARGS"] = program, program[1:]
        if os.path.basename(program[0]) == "mpi_ping":
            if rank == 0:
                mpi_ping()
        else:
            app()


def nvidia_smi():
    gpus = int(os.environ.get("FAKE_GPUS", "1"))
    if any(a.startswith("--query-gpu") for a in ARGS):
        print("\n".join(["NVIDIA H100 80GB HBM3, 580.00, 9.0"] * gpus))
    else:
        print("| NVIDIA-SMI 580.00    Driver Version: 580.00    CUDA Version: 13.0 |")


def nvcc():
    print("Cuda compilation tools, release 13.0, V13.0.48")


{"overlap_ref": reference, "app": app, "dfgc": dfgc, "cmake": cmake, "nvidia-smi": nvidia_smi, "nvcc": nvcc,
 "compute-sanitizer": compute_sanitizer, "mpirun": mpirun, "mpicxx": mpicxx}[NAME]()
