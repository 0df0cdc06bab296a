"""The benchmark suite: every figure dfgc is judged by, each beside its anchor in one call, as
ratios, compared with the committed baseline of the GPU it ran on.

Blocks (every program repeated `reps` times; a ratio is the median of its runs, its spread the
range of its runs over the median):
  tokens       the samples of small tokens between a CPU and a GPU (iir, migration, multirate,
  islands      packets; the dynamic islands of dyn_fir, its mapping m2, its parallel actions and
               dyn_idct), each compiled with the mapped-token rule (the default: mapped where the
               ports are `mappable`) and with --mapped-tokens=0 (every token copied): ratio rule /
               copied.
  islands_cpu  the same islands on one CPU core (the FIR's parallel actions also against its
  dynamic_*    steps), and bench/dynamic's hand-written programs (the FIR's mapping m2 with
               zero-copy rings, the IDCT on one thread and as a GPU island): the GPU island over
               one core, generated over hand-written, per sample or block.
  granulometry samples/granulometry on one GPU (bench/granulometry/single_gpu.dfg) both ways, and
               bench/granulometry/torch_openings.py (PyTorch eager and torch.compile, the same
               algorithm on volumes already on the GPU): ratios dfgc / torch.compile, dfgc / eager.
  saliency     samples/saliency on one GPU at 720x576 and 1920x1080, frames from host memory (its
               first map checked against the CPU reference in a run of its own), and
               bench/saliency/anchor.sh (PyTorch eager, in a CUDA graph, torch.compile a frame at a
               time and on batches of 8, frames on the GPU, its maps checked against the CPU
               reference): dfgc's time a frame over each.
  jpeg         samples/jpeg's decoders (one core, pixels on a second core, pixels on the GPU) over
               make_images' test images, against libjpeg-turbo on one thread and nvJPEG
               (bench/jpeg): time an image over libjpeg-turbo's and nvJPEG's.
  cpu          the CPU pipelines against plain loops of the same actors (bench/rates'
               reference_iir, reference_multirate; samples/fir_bank/reference.cpp), the FIR bank
               on ten cores over one, and multirate on one GPU against its hand-written loop
               (reference_multirate_gpu.cu).
  overlap      the overlap benchmark on one GPU (bench/experiments/overlap.py) at a few nb_loop
               points: generated / hand-written reference (bench/reference/overlap_ref.cu).
  touch        bench/mapped/touch.cu: a kernel's time on a small token in mapped host memory over
               device memory plus its one copy, by how it touches the token (what the rule rests on).
  peers        bench/experiments/peers.py: dfgc's cost per hop against oneTBB's flow graph and
               Taskflow on the same machine.

The report writes ratios.csv (metric, value, spread, runs, lower_is_better, note) and compares it
with bench/baselines/suite-<gpu>.csv: a ratio worse than its baseline by more than both spreads
(at least 3%) is a regression, named in summary.txt. `bench/suite.py compare RESULTS` exits 1 on
one; `bench/suite.py baseline RESULTS` makes RESULTS the baseline of its GPU; `bench/suite.py
record RESULTS` keeps its summary in bench/results/suite/<gpu>/ and its ratios in the history.

The suite is longer than one device call may run: PARTS splits its runs in three, one call each
(`harness.py run DIR --part K`), joined by `harness.py merge`.

Knobs (harness.py generate suite DIR --set KEY=VALUE): iterations, reps, nb, token_iterations,
island_iterations, volumes, frames, torch_frames, images, cpu_iterations."""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
from pathlib import Path

from harness import ROOT, Experiment, Generated, Reference, load_experiment, median_spread

peers = load_experiment("peers")
# The peers' knobs (bench/experiments/peers.py: tokens, threads, taskflow, ...) are the suite's too.
KNOBS = {**peers.KNOBS, "iterations": "2000", "reps": "3", "nb": "5 160 2560", "token_iterations": "20000",
         "island_iterations": "2000", "volumes": "200", "frames": "3000", "torch_frames": "300",
         "images": "7000", "cpu_iterations": "20000"}

# Programs of small tokens: {label: (spec, block)}; the islands cycle in about a millisecond, the
# others in tens of microseconds, so they run fewer iterations.
TOKENS = {"iir": ("samples/iir/one_gpu.dfg", "tokens"), "migration": ("samples/migration/one_gpu.dfg", "tokens"),
          "multirate": ("samples/multirate/one_gpu.dfg", "tokens"),
          "packets": ("samples/packets/one_gpu.dfg", "tokens"),
          "dyn_fir": ("samples/dyn_fir/one_gpu.dfg", "islands"),
          "dyn_fir_m2": ("samples/dyn_fir/m2.dfg", "islands"),
          "dyn_idct": ("samples/dyn_idct/idct_gpu.dfg", "islands"),
          "dyn_fir_parallel": ("samples/dyn_fir/parallel_gpu.dfg", "islands")}
RULE = {"tokens": {"rule": [], "copied": ["--mapped-tokens=0"]}}
# The islands on one core: {label: (spec, the GPU program it is the CPU side of)}.
ISLANDS_CPU = {"dyn_fir_core": ("samples/dyn_fir/one_core.dfg", "dyn_fir"),
               "dyn_idct_core": ("samples/dyn_idct/idct_core.dfg", "dyn_idct"),
               "dyn_fir_parallel_core": ("samples/dyn_fir/parallel_core.dfg", "dyn_fir_parallel")}
# What an iteration of the islands holds (the specs' defaults: dyn_fir.dfg's N, coefficients.dfg's
# B), to compare with the hand-written programs, which time a whole stream.
FIR_SAMPLES, IDCT_BLOCKS = 64, 4
HANDWRITTEN_SAMPLES, HANDWRITTEN_BLOCKS = 262144, 65536
SALIENCY_SIZES = ("720x576", "1920x1080")
JPEG = {"jpeg_one_core": "samples/jpeg/one_core.dfg", "jpeg_cpu_pixels": "samples/jpeg/cpu_pixels.dfg",
        "jpeg_one_gpu": "samples/jpeg/one_gpu.dfg"}
MULTIRATE_N = (64, 4096)
# The runs of each device call, the suite being longer than one call may run (harness.py run
# --part K: PARTS[K] is an --only regex over run ids, which start with their block's name).
PARTS = (r"^(?!(torch_|saliency|overlap_))", r"^overlap_", r"^(torch_|saliency)")
# SUITE_BASELINES, SUITE_RESULTS: elsewhere than in the repository (the suite's self-test).
BASELINES = Path(os.environ.get("SUITE_BASELINES") or ROOT / "bench" / "baselines")
RESULTS = Path(os.environ.get("SUITE_RESULTS") or ROOT / "bench" / "results" / "suite")


def torch_anchors(knobs: dict, reps: int) -> list:
    """PyTorch's programs of the applications: volumes and frames already on the GPU."""
    torch_metric = r"^{}: .*median ([0-9.]+) ms"
    fps = r"{} ([0-9.]+) fps"
    return [
        Reference("torch_granulometry", "bench/granulometry", "torch_openings.py",
                  axes={"side": {"256": ["--side", "256"]}}, flags=["--reps", "5"], repetitions=reps,
                  build=["install", "-m", "755", "{src}/torch_openings.py", "{build}/torch_openings.py"],
                  launcher=["python3"],
                  metrics={"eager_ms": torch_metric.format("torch eager"),
                           "compile_ms": torch_metric.format(r"torch\.compile")}),
        Reference("torch_saliency", "bench/saliency", "anchor.sh",
                  axes={"size": {s: [] for s in SALIENCY_SIZES}}, flags=["{size}", knobs["torch_frames"]],
                  repetitions=reps,
                  build=["sh", "-c", "g++ -std=c++20 -O2 -I{src}/../../samples/saliency/actors "
                         "{src}/reference_dump.cpp -o {build}/refdump && "
                         "install -m 755 {src}/anchor.sh {src}/torch_saliency.py {build}/"],
                  expect=r"against the CPU reference: .*: ok$",
                  metrics={"eager_fps": fps.format(r"^torch \S+: eager"), "graph_fps": fps.format("CUDA graph"),
                           "compile_fps": fps.format(r"torch\.compile"),
                           "batch8_fps": fps.format("batches of 8")}),
    ]


def handwritten(knobs: dict, reps: int) -> list:
    """The hand-written programs the generated ones are compared with."""
    nvcc = "nvcc -std=c++20 -O2 -arch=native -I{src}/../../runtime/include"
    gxx = "g++ -std=c++20 -O3 -DNDEBUG -I{src}/../../runtime/include"
    return [
        Reference("dynamic_fir", "bench/dynamic", "fir", axes={"mapping": {"m2": ["--mappings", "m2"]}},
                  flags=["--samples", str(HANDWRITTEN_SAMPLES), "--reps", "3"], repetitions=reps,
                  build=["sh", "-c", f"{nvcc} {{src}}/fir.cu -o {{build}}/fir"],
                  metrics={"zero_copy_ms": r"^\s+m2\s+\d+\s+([0-9.]+)\s", "copied_ms": r"^\s+m2\s+\d+\s+\S+\s+([0-9.]+)"}),
        Reference("dynamic_idct", "bench/dynamic", "idct", axes={"blocks": {str(HANDWRITTEN_BLOCKS): []}},
                  flags=["--blocks", str(HANDWRITTEN_BLOCKS), "--reps", "3"], repetitions=reps,
                  build=["sh", "-c", f"{nvcc} {{src}}/idct.cu -o {{build}}/idct"],
                  metrics={"cpu_ms": r"cpu loop \(one thread\)\s+([0-9.]+) ms",
                           "serial_ms": r"idct serial \(1 thread\)\s+([0-9.]+) ms",
                           "parallel_ms": r"idct parallel \(n thr\.\)\s+([0-9.]+) ms"}),
        Reference("loop_iir", "bench/rates", "reference_iir", axes={"n": {"256": []}},
                  flags=[knobs["cpu_iterations"], "256"], gpus=0, repetitions=reps,
                  build=["sh", "-c", f"{gxx} -I{{src}}/../../samples/iir {{src}}/reference_iir.cpp "
                         "-o {build}/reference_iir"],
                  metrics={"loop_ms": r"^reference: ([0-9.]+) ms"}),
        Reference("loop_multirate", "bench/rates", "reference_multirate",
                  axes={"N": {str(n): [] for n in MULTIRATE_N}}, flags=[knobs["cpu_iterations"], "{N}", "0"],
                  gpus=0, repetitions=reps,
                  build=["sh", "-c", f"{gxx} -I{{src}}/../../samples/multirate {{src}}/reference_multirate.cpp "
                         "-o {build}/reference_multirate"],
                  metrics={"loop_ms": r"^reference: ([0-9.]+) ms"}),
        Reference("loop_multirate_gpu", "bench/rates", "reference_multirate_gpu", axes={"N": {"64": []}},
                  flags=[knobs["token_iterations"], "{N}", "0"], repetitions=reps,
                  build=["sh", "-c", f"{nvcc} -I{{src}}/../../samples/multirate {{src}}/reference_multirate_gpu.cu "
                         "-o {build}/reference_multirate_gpu"],
                  metrics={"loop_ms": r"^reference: ([0-9.]+) ms"}),
        Reference("loop_fir_bank", "samples/fir_bank", "reference", axes={"N": {"65536": []}},
                  flags=["300", "{N}"], gpus=0, repetitions=reps,
                  build=["sh", "-c", f"{gxx} {{src}}/reference.cpp -o {{build}}/reference"],
                  expect=r"^fir_bank:"),
        Reference("libjpeg", "bench/jpeg", "libjpeg_bench", axes={"rounds": {"2000": []}},
                  flags=["{generated}/jpeg_images", "{rounds}"], gpus=0, repetitions=reps,
                  build=["sh", "-c", "g++ -O2 -I{generated}/deps/libjpeg/include {src}/libjpeg_bench.cpp "
                         "{generated}/deps/libjpeg/lib/libjpeg.so.62 -Wl,-rpath,{generated}/deps/libjpeg/lib "
                         "-o {build}/libjpeg_bench"],
                  metrics={"images_per_s": r"^libjpeg-turbo: .*: ([0-9.]+) images/s"}),
        Reference("nvjpeg", "bench/jpeg", "nvjpeg_bench", axes={"rounds": {"1000": []}},
                  flags=["{generated}/jpeg_images", "{rounds}"], repetitions=reps,
                  build=["sh", "-c", "nvcc -O2 -arch=native {src}/nvjpeg_bench.cu -lnvjpeg -o {build}/nvjpeg_bench"],
                  metrics={"images_per_s": r"^nvjpeg: .*: ([0-9.]+) images/s"}),
    ]


def experiment(knobs: dict) -> Experiment:
    reps = int(knobs["reps"])
    overlap = load_experiment("overlap").experiment({"nb": knobs["nb"], "iterations": knobs["iterations"], "gpus": "1"})
    for block in overlap.blocks:
        block.name = "overlap_" + block.name
        block.repetitions = max(reps, 5)  # the 160 point moves by several percent between runs
        if isinstance(block, Generated):  # the suite's overlap point: neighbours sync
            block.axes = {"strategy": {"overlap_neighbours": ["--sync=neighbours"]}}
        else:
            block.axes["mode"] = {k: v for k, v in block.axes["mode"].items() if k in ("overlap", "serial")}
    period = ["--stats=period"]
    return Experiment("suite", "the benchmark suite: every figure beside its anchor, as ratios", [
        *(Generated(block, {k: (spec, 1) for k, (spec, b) in TOKENS.items() if b == block}, options=RULE,
                    flags=["--iterations", knobs[f"{block[:-1]}_iterations"], *period], repetitions=reps)
          for block in ("tokens", "islands")),
        Generated("islands_cpu", {k: (spec, 0) for k, (spec, _) in ISLANDS_CPU.items()},
                  flags=["--iterations", knobs["island_iterations"], *period], repetitions=reps),
        Generated("granulometry", {"granulometry": ("bench/granulometry/single_gpu.dfg", 1)}, options=RULE,
                  flags=["--iterations", knobs["volumes"], *period], repetitions=reps,
                  app="granulometry_single_gpu"),
        Generated("saliency", {"saliency": ("samples/saliency/one_gpu.dfg", 1)},
                  axes={"size": {s: ["--set", f"W={s.split('x')[0]}", "--set", f"H={s.split('x')[1]}"]
                                 for s in SALIENCY_SIZES}},
                  flags=["--iterations", knobs["frames"], "--set", "CHECK=0", *period], repetitions=reps),
        Generated("saliency_check", {"saliency": ("samples/saliency/one_gpu.dfg", 1)},
                  axes={"size": {s: ["--set", f"W={s.split('x')[0]}", "--set", f"H={s.split('x')[1]}"]
                                 for s in SALIENCY_SIZES}},
                  flags=["--iterations", "1", "--set", "CHECK=1"], expect=r"against the CPU reference"),
        Generated("jpeg", {k: (spec, 1 if "gpu" in k else 0) for k, spec in JPEG.items()},
                  flags=["--iterations", knobs["images"], *period], env={"JPEG_DIR": "{generated}/jpeg_images"},
                  repetitions=reps),
        Generated("cpu", {"iir_cpu": ("samples/iir/cpu_only.dfg", 0)},
                  flags=["--iterations", knobs["cpu_iterations"], *period], repetitions=reps),
        Generated("cpu_multirate", {"multirate_cpu": ("samples/multirate/cpu_only.dfg", 0)},
                  defines={"N": list(MULTIRATE_N)}, flags=["--iterations", knobs["cpu_iterations"], *period],
                  repetitions=reps),
        Generated("cpu_fir_bank", {"fir_bank_one_core": ("samples/fir_bank/one_core.dfg", 0),
                                   "fir_bank_cores": ("samples/fir_bank/cores.dfg", 0)},
                  flags=["--iterations", "300", *period], expect=r"^fir_bank:", repetitions=reps),
        *torch_anchors(knobs, reps),
        *handwritten(knobs, reps),
        *overlap.blocks,
        Reference("touch", "bench/mapped", "touch", axes={"blocks": {"1024": ["--blocks", "1024"]}},
                  expect=r"^case=accumulate"),
        *peers.blocks(knobs),
    ])


def prepare(out: Path, knobs: dict) -> None:
    """The JPEG test images and libjpeg-turbo (headers and library, which the GPU machine lacks),
    and the peers' libraries, into the generated directory."""
    images, lib = out / "jpeg_images", out / "deps" / "libjpeg"
    (lib / "include").mkdir(parents=True, exist_ok=True)
    (lib / "lib").mkdir(exist_ok=True)
    images.mkdir(parents=True, exist_ok=True)
    tool = out / "deps" / "make_images"
    subprocess.run(["g++", "-O2", str(ROOT / "samples/jpeg/make_images.cpp"), "-ljpeg", "-o", str(tool)], check=True)
    subprocess.run([str(tool), str(images)], check=True, capture_output=True)
    tool.unlink()
    for header in ("jpeglib.h", "jmorecfg.h", "jerror.h", "x86_64-linux-gnu/jconfig.h"):
        shutil.copy(Path("/usr/include") / header, lib / "include")
    shutil.copy(Path("/usr/lib/x86_64-linux-gnu/libjpeg.so.62").resolve(), lib / "lib" / "libjpeg.so.62")
    peers.prepare(out, knobs)


def median_of(rows: list[dict], key: str) -> tuple[float, float, int] | None:
    """The median of `key` over `rows`, its spread ((max - min) / median) and the count."""
    return median_spread([float(r[key]) for r in rows if r.get(key)])


def scaled(t: tuple | None, k: float) -> tuple | None:
    """A median (median, spread, runs) times k."""
    return (t[0] * k, t[1], t[2]) if t else None


def per_ms(t: tuple | None, unit: float = 1e3) -> tuple | None:
    """A median rate (per second) as ms per item."""
    return (unit / t[0], t[1], t[2]) if t and t[0] > 0 else None


def ratios(rows: list[dict], out_dir: Path) -> list[dict]:
    ok = [r for r in rows if r["status"] == "ok"]
    out = []

    def add(metric: str, num: tuple | None, den: tuple | None, note: str, lower_is_better: bool = True):
        if num and den and den[0] > 0:
            out.append({"metric": metric, "value": f"{num[0] / den[0]:.4f}", "spread": f"{num[1] + den[1]:.4f}",
                        "runs": f"{num[2]}/{den[2]}", "lower_is_better": int(lower_is_better), "note": note})

    def of(block: str, key: str = "period_ms", **labels) -> tuple | None:
        return median_of([r for r in ok if r["block"] == block and all(r.get(k) == v for k, v in labels.items())],
                         key)

    def both(a: tuple | None, b: tuple | None, fmt: str) -> str:
        return fmt.format(a[0], b[0]) if a and b else ""

    for program, (_, block) in TOKENS.items():
        rule, copied = of(block, program=program, tokens="rule"), of(block, program=program, tokens="copied")
        add(f"tokens/{program}/rule_over_copied", rule, copied, both(rule, copied, "rule {:.4g} ms, copied {:.4g} ms"))
    # The islands: the GPU against one core, and against the hand-written programs.
    for core, (_, gpu) in ISLANDS_CPU.items():
        island, alone = of("islands", program=gpu, tokens="rule"), of("islands_cpu", program=core)
        add(f"islands/{gpu}/gpu_over_one_core", island, alone,
            both(island, alone, "GPU island {:.4g} ms, one core {:.4g} ms an iteration"))
    # The FIR of parallel actions (its delays in rings) against the FIR of steps, each on one core
    # and on the GPU against the stepping core (the "one core").
    parallel, steps = of("islands_cpu", program="dyn_fir_parallel_core"), of("islands_cpu", program="dyn_fir_core")
    add("islands/dyn_fir_parallel_core/over_steps", parallel, steps,
        both(parallel, steps, "parallel actions {:.4g} ms, steps {:.4g} ms an iteration on one core"))
    island = of("islands", program="dyn_fir_parallel", tokens="rule")
    add("islands/dyn_fir_parallel/gpu_over_stepping_core", island, steps,
        both(island, steps, "GPU island of parallel actions {:.4g} ms, steps on one core {:.4g} ms"))
    m2 = scaled(of("islands", program="dyn_fir_m2", tokens="rule"), 1e3 / FIR_SAMPLES)
    hand = scaled(of("dynamic_fir", "zero_copy_ms"), 1e3 / HANDWRITTEN_SAMPLES)
    add("islands/dyn_fir_m2/generated_over_handwritten", m2, hand,
        both(m2, hand, "generated {:.4g} us, bench/dynamic/fir.cu zero-copy {:.4g} us a sample"))
    idct = scaled(of("islands", program="dyn_idct", tokens="rule"), 1e3 / IDCT_BLOCKS)
    hand = scaled(of("dynamic_idct", "serial_ms"), 1e3 / HANDWRITTEN_BLOCKS)
    add("islands/dyn_idct/generated_over_handwritten", idct, hand,
        both(idct, hand, "generated {:.4g} us, bench/dynamic/idct.cu serial island {:.4g} us a block"))
    core = scaled(of("islands_cpu", program="dyn_idct_core"), 1e3 / IDCT_BLOCKS)
    loop = scaled(of("dynamic_idct", "cpu_ms"), 1e3 / HANDWRITTEN_BLOCKS)
    add("islands/dyn_idct_core/generated_over_loop", core, loop,
        both(core, loop, "one core {:.4g} us, bench/dynamic/idct.cu's loop {:.4g} us a block"))
    # The applications against PyTorch.
    rule, copied = of("granulometry", tokens="rule"), of("granulometry", tokens="copied")
    add("granulometry/rule_over_copied", rule, copied, both(rule, copied, "rule {:.4g} ms, copied {:.4g} ms a volume"))
    for column, label in (("compile_ms", "torch_compile"), ("eager_ms", "torch_eager")):
        anchor = of("torch_granulometry", column)
        add(f"granulometry/dfgc_over_{label}", rule, anchor,
            f"{label.replace('_', '.')} {anchor[0]:.4g} ms a volume" if anchor else "")
    for size in SALIENCY_SIZES:
        dfgc = of("saliency", size=size)
        for column, label in (("compile_fps", "torch_compile"), ("batch8_fps", "torch_compile_batch8"),
                              ("graph_fps", "torch_cuda_graph"), ("eager_fps", "torch_eager")):
            anchor = per_ms(of("torch_saliency", column, size=size))
            add(f"saliency/{size}/dfgc_over_{label}", dfgc, anchor,
                both(per_ms(dfgc), per_ms(anchor), "dfgc {:.0f} fps, " + label.replace("_", " ") + " {:.0f} fps"))
    for program in JPEG:
        dfgc = of("jpeg", program=program)
        for block, label in (("libjpeg", "libjpeg_turbo"), ("nvjpeg", "nvjpeg")):
            anchor = per_ms(of(block, "images_per_s"))
            add(f"jpeg/{program.removeprefix('jpeg_')}/over_{label}", dfgc, anchor,
                both(per_ms(dfgc), per_ms(anchor), "dfgc {:.0f}, " + label.replace("_", "-") + " {:.0f} images/s"))
    # The CPU pipelines against plain loops of their actors.
    pairs = [("iir", of("cpu", program="iir_cpu"), of("loop_iir", "loop_ms"))]
    pairs += [(f"multirate_N{n}", of("cpu_multirate", program="multirate_cpu", N=str(n)),
               of("loop_multirate", "loop_ms", N=str(n))) for n in MULTIRATE_N]
    pairs.append(("fir_bank", of("cpu_fir_bank", program="fir_bank_one_core"),
                  scaled(of("loop_fir_bank", "wall_s"), 1e3 / 300)))
    pairs.append(("multirate_gpu_N64", of("tokens", program="multirate", tokens="rule"),
                  of("loop_multirate_gpu", "loop_ms", N="64")))
    for name, generated, loop in pairs:
        add(f"cpu/{name}/generated_over_loop", generated, loop, both(generated, loop, "generated {:.4g} ms, loop {:.4g} ms"))
    one, ten = of("cpu_fir_bank", program="fir_bank_one_core"), of("cpu_fir_bank", program="fir_bank_cores")
    add("cpu/fir_bank/cores_over_one_core", ten, one, both(ten, one, "ten cores {:.4g} ms, one {:.4g} ms"))
    for nb in sorted({int(r["NB"]) for r in ok if r["block"].startswith("overlap_") and r.get("NB")}):
        gen = of("overlap_generated", NB=str(nb))
        ref = of("overlap_reference", NB=str(nb), mode="overlap")
        add(f"overlap/nb{nb}/generated_over_reference", gen, ref, both(gen, ref, "generated {:.4g} ms, reference {:.4g} ms"))
    for r in (r for r in ok if r["block"] == "touch"):
        log = out_dir / "logs" / f"{r['run']}.log"
        for m in re.finditer(r"^case=(\w+) bytes=(\d+) blocks=(\d+) device_us=\S+ mapped_us=(\S+) copied_us=(\S+)",
                             log.read_text() if log.exists() else "", re.M):
            case, size, blocks, mapped, copied_us = m.groups()
            metric = f"touch/{case}/{size}B/mapped_over_copied"
            if not any(x["metric"] == metric for x in out):  # the first repetition: a property of the GPU
                add(metric, (float(mapped), 0.0, 1), (float(copied_us), 0.0, 1),
                    f"mapped {mapped} us, device + one copy {copied_us} us ({blocks} blocks)")
    return out + peers.ratios(rows, out_dir)


def baseline_path(gpu: str) -> Path:
    return BASELINES / ("suite-" + re.sub(r"[^A-Za-z0-9]+", "-", gpu).strip("-").lower() + ".csv")


def read_csv(path: Path) -> list[dict]:
    with path.open() as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


# Figures of the machine and of the anchors, not of dfgc: kept beside the ratios, never a regression.
ANCHORS = re.compile(r"^touch/|^peers/.*/(?!dfgc_)\w+_ns_per_hop$")


def compare(current: list[dict], baseline: list[dict]) -> list[str]:
    """The regressions: a ratio worse than its baseline by more than both spreads (at least 3%)."""
    base = {b["metric"]: b for b in baseline}
    lines = []
    for c in current:
        b = base.get(c["metric"])
        if not b or not int(b["lower_is_better"]) or ANCHORS.search(c["metric"]):
            continue
        margin = max(0.03, float(b["spread"]), float(c["spread"]))
        if float(c["value"]) > float(b["value"]) * (1 + margin):
            lines.append(f"  REGRESSION {c['metric']}: {c['value']} against the baseline's {b['value']} "
                         f"(beyond a spread of {margin:.1%})")
    missing = sorted(set(base) - {c["metric"] for c in current})
    lines += [f"  not measured: {m} (in the baseline)" for m in missing]
    return lines


def report(rows: list[dict], out_dir: Path) -> list[str]:
    import json
    # The peers' table (peers.csv); their report's ratios.csv is replaced by the suite's below.
    table = [line for line in peers.report(rows, out_dir) if "ratios in ratios.csv" not in line]
    measured = ratios(rows, out_dir)
    gpu = json.loads((out_dir / "provenance.json").read_text()).get("gpu", "")
    with (out_dir / "ratios.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["metric", "value", "spread", "runs", "lower_is_better", "note"])
        writer.writeheader()
        writer.writerows(measured)
    lines = [f"  {len(measured)} ratios in ratios.csv (value: the median of the runs; spread: their range)"]
    lines += [f"    {m['metric']:<48} {m['value']:>8}  ±{float(m['spread']):.1%}  {m['note']}" for m in measured]
    lines += ["  peers: dfgc's cost per hop against oneTBB and Taskflow (peers.csv)"] + table
    baseline = baseline_path(gpu)
    if baseline.is_file():
        found = compare(measured, read_csv(baseline))
        lines.append(f"  against {baseline}: " +
                     (f"{sum('REGRESSION' in x for x in found)} regression(s)" if found else "no regression"))
        lines += found
    else:
        lines.append(f"  no baseline for '{gpu}' ({baseline}): "
                     f"bench/suite.py baseline {out_dir} makes one")
    return lines
