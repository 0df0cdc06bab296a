#!/usr/bin/env python3
"""Stand-ins for nvidia-smi, cmake, dfgc, the reference and the generated `app`, for testing
tools/gpu-bench on a machine without a GPU (bench/overlap/selftest/run). The programs print
what the real ones print, with times from a model of the pipeline: H2D, D2H, peer copy, P and C
fixed, the kernel linear in nb_loop. Which program it is comes from the name it is run by.

FAKE_GPUS=N: how many GPUs nvidia-smi lists. FAKE_FAIL=ref-<nb> or dfgc-<nb> or app-<nb>: that
program fails at that point, as a failed token check or a bad spec would."""
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
        period = sum(t for _, t in stages)
    elif opt("--cpu-threads", "2") == "1":
        period = max(P + C, H2D, D2H, k)
    else:
        period = max(P, C, H2D, D2H, k) * 1.01
    print(f"iteration period: {period:.3f} ms over {iterations - 9} iterations (after 8 warm-up cycles)")
    print(f"tokens checked: {iterations} of {iterations}, every element as expected")


def app():
    if "--help" in ARGS:
        print("  --sync=barrier|neighbours")
        return
    project = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), "..")
    if os.path.exists(os.path.join(project, "NB")):  # made by the stand-in dfgc
        nb = int(open(os.path.join(project, "NB")).read())
        gpus = int(open(os.path.join(project, "GPUS")).read())
    else:  # made by a real dfgc: NB is a constant of app.hpp
        line = next(x for x in open(os.path.join(project, "app.hpp")) if "constexpr std::int64_t NB =" in x)
        nb = int(line.split("=")[1].strip(" ;\n"))
        gpus = 2 if os.path.exists(os.path.join(project, "rank_A_g1.cu")) else 1
    if failing(f"app-{nb}"):
        sys.exit("error: consumer c: iteration 7, element 12: got 7, expected 8")
    k = kernel(nb)
    if "--no-overlap" in ARGS:
        period = max(H2D, D2H) + (PEER if gpus == 2 else 0) + max(P + C, k)
    else:
        period = max(P + C, H2D, D2H, k) * (1.02 if "--sync=barrier" in ARGS else 1.005)
    print(f"iteration period: {period:.3f} ms over 190 iterations (after 2 warm-up cycles)")


def dfgc():
    if "--help" in ARGS:
        print("commands:\n  compile    write the project")
        return
    spec, out, nb = ARGS[1], opt("-o"), opt("-D", "NB=100").split("=")[1]
    if failing(f"dfgc-{nb}"):
        sys.exit(f"{spec}:1:1: error: injected failure")
    os.makedirs(out)
    for name, text in (("NB", nb), ("GPUS", "2" if "two" in spec else "1"), ("CMakeLists.txt", "")):
        with open(os.path.join(out, name), "w") as f:
            f.write(text)


def cmake():
    if ARGS[0] == "--build":  # "builds" the program: a copy of this file under the name it runs by
        build = ARGS[1]
        os.makedirs(build, exist_ok=True)
        exe = "overlap_ref" if os.path.exists(os.path.join(build, "REFERENCE")) else "app"
        shutil.copy(os.path.realpath(sys.argv[0]), os.path.join(build, exe))
    else:
        build = opt("-B")
        os.makedirs(build, exist_ok=True)
        if opt("-S").rstrip("/").endswith("bench/reference"):
            open(os.path.join(build, "REFERENCE"), "w").close()


def nvidia_smi():
    gpus = int(os.environ.get("FAKE_GPUS", "1"))
    if "-L" in ARGS:
        for i in range(gpus):
            print(f"GPU {i}: NVIDIA H100 80GB HBM3 (UUID: GPU-{i})")
    elif "--query-gpu=name" in ARGS:
        print("\n".join(["NVIDIA H100 80GB HBM3"] * gpus))
    else:
        print("\n".join(["580.00"] * gpus))


{"overlap_ref": reference, "app": app, "dfgc": dfgc, "cmake": cmake, "nvidia-smi": nvidia_smi}[NAME]()
