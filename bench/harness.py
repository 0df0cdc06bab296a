#!/usr/bin/env python3
"""The GPU experiments of dfgc in two steps: generate the projects where dfgc runs, build and run
them on the GPU machine (which has no dfgc), from one manifest.

    bench/harness.py generate EXPERIMENT DIR [--dfgc PATH] [--set KEY=VALUE ...]
        here: `dfgc compile` of every variant of bench/experiments/EXPERIMENT.py into DIR, and
        DIR/manifest.json: the projects, the runs, and where they came from (commit, date,
        command). Keep DIR inside the repository: the projects name the actor headers by paths
        relative to themselves. --set overrides a knob of the experiment (its KNOBS).
    bench/harness.py run DIR... [--results DIR] [--only REGEX | --part K]
        there: builds every project of each DIR with cmake, runs every run (the generated programs with
        --stats-json), writes build/results/<experiment>/<device>-<date>/ (kept results go to
        bench/results/ by its README's rule): results.csv (one row a run, its
        labels, status, period, throughput), entries.csv (every firing, transfer and copy of every
        run: min/median/mean/max), stats/*.json, logs/*.log, provenance.json (GPU, driver, CUDA,
        date, commit, command), then the experiment's report. Exits 1 when a run failed.
    bench/harness.py report RESULTS_DIR
        the experiment's report again (summary.txt, its own tables and plots) from results.csv;
        an experiment whose report runs dfgc (predict, granulometry) needs DFGC=PATH here.
    bench/harness.py merge RESULTS_DIR PART...
        one results directory of parts of one generated directory run apart (run --part or
        --only in several device calls, when one call cannot hold them): their rows, stats and
        provenance (each part's), then the experiment's report. Exits 1 when a run failed.

An experiment (bench/experiments/*.py) declares EXPERIMENT = Experiment(...) of Generated blocks
(specs x -D defines x runtime-param sets x strategies/sync x tools x repetitions) and Reference
blocks (a hand-written CMake program and its runs), optionally report(rows, out_dir), and
optionally prepare(dir, knobs): what its runs need beside the projects (inputs, libraries the GPU
machine lacks), written into the generated directory by `generate`. In a run's flags, env and a
Reference's build command, "{generated}" is the generated directory on the machine that runs it.
Environment: GIT_COMMIT names the commit where the tree has no .git; HARNESS_JOBS the parallel
builds (default: half the cores); CUDA_ARCHITECTURES the cmake value (default: the first GPU's).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import datetime
import importlib.util
import itertools
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = ROOT / "bench" / "experiments"
MANIFEST_VERSION = 1


# --- declarations -------------------------------------------------------------------------------

@dataclass
class Tool:
    """A wrapper of the program, e.g. compute-sanitizer; `expect`: a regex its output must match."""
    name: str
    prefix: list[str]
    expect: str = ""


@dataclass
class Generated:
    """The generated programs of `specs` ({label: (path, gpus needed)}) at every combination of
    `defines` ({NAME: [values]}, one project each), run at every combination of `axes`
    ({axis: {label: [flags]}}, e.g. strategy and sync), `sets` ({param: [values]}, --set) and
    `tools`, `repetitions` times, with `flags`. Every run also gets --stats-json. A program on
    several `hosts` runs under `launcher` (e.g. mpirun -np 2) and writes one stats file per host;
    its row's period is the longest of its hosts'. `metrics` as a Reference's; `env` is added to
    the environment of its runs; `app` chooses the app of a spec that declares several (dfgc
    compile --app). `options` ({axis: {label: [dfgc compile flags]}}, e.g. --mapped-tokens=0):
    one project per combination, as `defines`."""
    name: str
    specs: dict[str, tuple[str, int]]
    defines: dict[str, list] = field(default_factory=dict)
    axes: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    sets: dict[str, list] = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    tools: list[Tool | None] = field(default_factory=lambda: [None])
    repetitions: int = 1
    expect: str = ""  # a regex the output of every run must match
    hosts: list[str] = field(default_factory=list)
    launcher: list[str] = field(default_factory=list)
    metrics: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    app: str = ""
    options: dict[str, dict[str, list[str]]] = field(default_factory=dict)


@dataclass
class Reference:
    """A hand-written CMake program (`source`, a directory of the repository; executable
    `executable`) run at every combination of `axes` ({axis: {label: [flags]}}); "{axis}" in a
    flag is replaced by that axis' label. `metrics` ({column: regex with one group}) are read from
    its output (a regex that starts with '?' may find nothing); `expect` must match it.
    `gpus_axis`: the axis whose label is the GPUs it needs (else `gpus`). `build`: a command that builds it
    instead of cmake ("{src}": `source`, "{build}": its build directory), e.g. an MPI program
    built by mpicxx. `launcher` and `env` as a Generated's."""
    name: str
    source: str
    executable: str
    axes: dict[str, dict[str, list[str]]]
    flags: list[str] = field(default_factory=list)
    metrics: dict[str, str] = field(default_factory=dict)
    expect: str = ""
    gpus_axis: str = ""
    gpus: int = 1
    tools: list[Tool | None] = field(default_factory=lambda: [None])
    repetitions: int = 1
    build: list[str] = field(default_factory=list)
    launcher: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class Experiment:
    name: str
    description: str
    blocks: list


def median_spread(values: list[float]) -> tuple[float, float, int] | None:
    """The median of `values`, their spread ((max - min) / median) and their count; None for none:
    how the experiments' reports summarise repeated runs."""
    if not values:
        return None
    m = statistics.median(values)
    return m, (max(values) - min(values)) / m if m > 0 else 0.0, len(values)


def labelled(values) -> dict[str, list[str]]:
    """An axis of plain values: {str(v): []}, for defines or axes whose flags use "{axis}"."""
    return {str(v): [] for v in values}


# --- provenance ---------------------------------------------------------------------------------

def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def commit() -> str:
    if os.environ.get("GIT_COMMIT"):
        return os.environ["GIT_COMMIT"]
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + (" (with local changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def output_of(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine() -> dict:
    """The GPUs (nvidia-smi), the driver and CUDA versions, the host."""
    gpus = [line.split(", ") for line in output_of(
        ["nvidia-smi", "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader"]).splitlines() if line]
    smi = output_of(["nvidia-smi"])
    cuda = re.search(r"CUDA Version: *([0-9.]+)", smi)
    nvcc = re.search(r"release ([0-9.]+)", output_of([nvcc_path(), "--version"]))
    return {
        "gpu": gpus[0][0] if gpus else "",
        "gpus": len(gpus),
        "driver": gpus[0][1] if gpus and len(gpus[0]) > 1 else "",
        "compute_cap": gpus[0][2] if gpus and len(gpus[0]) > 2 else "",
        "cuda_driver": cuda.group(1) if cuda else "",
        "nvcc": nvcc.group(1) if nvcc else "",
        "host": os.uname().nodename,
    }


def device_name(gpu: str) -> str:
    """The device part of a results directory's name (bench/results/README.md): h100, h200, cpu."""
    name = re.sub(r"[^a-z0-9]+", "-", gpu.lower().removeprefix("nvidia ")).strip("-")
    return name or "cpu"


def nvcc_path() -> str:
    return shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"


# --- generate -----------------------------------------------------------------------------------

def load_experiment(name: str):
    path = EXPERIMENTS / f"{name}.py"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in EXPERIMENTS.glob("*.py") if not p.stem.startswith("_")))
        sys.exit(f"harness: error: no experiment '{name}' (known: {known})")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    spec = importlib.util.spec_from_file_location(f"experiment_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Labels(dict):
    """Axis labels for str.format_map: a placeholder that is not an axis ("{generated}", "{out}")
    stays for the machine that runs it."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def combinations(axes: dict[str, dict[str, list[str]]]):
    """Every combination of the axes: ({axis: label}, flags)."""
    names = list(axes)
    for labels in itertools.product(*(list(axes[n]) for n in names)):
        chosen = dict(zip(names, labels))
        flags = [f for n, l in chosen.items() for f in axes[n][l]]
        yield chosen, [f.format_map(_Labels(chosen)) for f in flags]


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")


def plan(experiment: Experiment) -> tuple[list[dict], list[dict]]:
    """The projects to build and the runs, as the manifest lists them."""
    projects: list[dict] = []
    runs: list[dict] = []

    def add_runs(block, project: dict, labels: dict, flags: list[str], gpus: int, stats_json: bool,
                 metrics: dict, expect: str, hosts=(), launcher=(), env=None):
        for tool in block.tools:
            for rep in range(block.repetitions):
                run_labels = {**labels, "tool": tool.name if tool else "", "repetition": rep}
                rid = slug("-".join([run_labels["block"], project["id"]] +
                                    [str(v) for k, v in run_labels.items()
                                     if k not in project["labels"] and k != "block" and v != ""]))
                runs.append({
                    "id": rid, "block": block.name, "project": project["id"], "labels": run_labels,
                    "args": flags, "prefix": (tool.prefix if tool else []) + list(launcher),
                    "hosts": list(hosts), "env": env or {},
                    "expect": [e for e in (expect, tool.expect if tool else "") if e],
                    "gpus": gpus, "stats_json": stats_json, "metrics": metrics,
                })

    for block in experiment.blocks:
        if isinstance(block, Generated):
            define_names = list(block.defines)
            for (spec_label, (spec, gpus)), values, (option_labels, options) in itertools.product(
                    block.specs.items(), itertools.product(*(block.defines[d] for d in define_names)),
                    combinations(block.options)):
                defines = dict(zip(define_names, (str(v) for v in values)))
                # One project per spec, defines and options, whichever blocks run it.
                pid = slug("-".join([spec_label] + [f"{k}={v}" for k, v in defines.items()] +
                                    list(option_labels.values())))
                project = next((p for p in projects if p["id"] == pid), None)
                if project is None:
                    project = {"id": pid, "kind": "generated", "source": spec, "dir": pid, "gpus": gpus,
                               "labels": {"program": spec_label, **defines, **option_labels},
                               "defines": defines, "options": options,
                               "executable": "app", "app": block.app}
                    projects.append(project)
                elif project["source"] != spec:
                    raise ValueError(f"experiment {experiment.name}: program '{spec_label}' is both "
                                     f"{project['source']} and {spec}")
                set_names = list(block.sets)
                for set_values in itertools.product(*(block.sets[s] for s in set_names)):
                    sets = dict(zip(set_names, (str(v) for v in set_values)))
                    set_flags = [f for k, v in sets.items() for f in ("--set", f"{k}={v}")]
                    for axis_labels, flags in combinations(block.axes):
                        add_runs(block, project, {"block": block.name, **project["labels"], **sets, **axis_labels},
                                 block.flags + set_flags + flags, gpus, True, block.metrics, block.expect,
                                 block.hosts, block.launcher, block.env)
        elif isinstance(block, Reference):
            pid = slug(block.name)
            project = {"id": pid, "kind": "reference", "source": block.source, "dir": pid, "gpus": 1,
                       "labels": {"program": block.name}, "defines": {}, "executable": block.executable,
                       "build": block.build}
            projects.append(project)
            for axis_labels, flags in combinations(block.axes):
                gpus = int(axis_labels[block.gpus_axis]) if block.gpus_axis else block.gpus
                add_runs(block, project, {"block": block.name, **project["labels"], **axis_labels},
                         [f.format_map(_Labels(axis_labels)) for f in block.flags] + flags, gpus, False, block.metrics,
                         block.expect, launcher=block.launcher, env=block.env)
        else:
            raise TypeError(f"experiment {experiment.name}: unknown block {block!r}")
    ids = [r["id"] for r in runs]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        sys.exit(f"harness: error: experiment {experiment.name}: runs with the same id: {', '.join(duplicates)}")
    return projects, runs


def generate(args) -> int:
    module = load_experiment(args.experiment)
    knobs = dict(getattr(module, "KNOBS", {}))
    for item in args.set or []:
        key, _, value = item.partition("=")
        if key not in knobs:
            sys.exit(f"harness: error: --set {item}: unknown knob '{key}' (known: {', '.join(knobs) or 'none'})")
        knobs[key] = value
    experiment = module.experiment(knobs) if hasattr(module, "experiment") else module.EXPERIMENT
    projects, runs = plan(experiment)
    out = Path(args.dir).resolve()
    if out.exists() and any(out.iterdir()):
        sys.exit(f"harness: error: {args.dir}: not an empty directory")
    dfgc = args.dfgc or os.environ.get("DFGC") or str(ROOT / "build" / "release" / "bin" / "dfgc")
    out.mkdir(parents=True, exist_ok=True)
    for p in projects:
        if p["kind"] != "generated":
            continue
        cmd = [dfgc, "compile", str(ROOT / p["source"]), "-o", str(out / p["dir"])]
        for k, v in p["defines"].items():
            cmd += ["-D", f"{k}={v}"]
        if p.get("app"):
            cmd += ["--app", p["app"]]
        cmd += p.get("options", [])
        p["command"] = "dfgc compile " + shlex.join([p["source"], "-o", p["dir"]] + cmd[5:])
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            sys.stderr.write(result.stdout + result.stderr)
            sys.exit(f"harness: error: {p['command']} failed (exit {result.returncode})")
    if hasattr(module, "prepare"):
        module.prepare(out, knobs)
    manifest = {
        "version": MANIFEST_VERSION, "experiment": experiment.name, "description": experiment.description,
        "knobs": knobs,
        "provenance": {"commit": commit(), "date": now(),
                       "command": "bench/harness.py " + shlex.join(sys.argv[1:]),
                       "dfgc": output_of([dfgc, "--version"]) or dfgc},
        "projects": projects, "runs": runs,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    rel = os.path.relpath(out, ROOT)
    print(f"harness: {len(projects)} projects, {len(runs)} runs in {rel}; on the GPU machine: "
          f"bench/harness.py run {rel}")
    return 0


# --- run ----------------------------------------------------------------------------------------

def build(src: Path, build_dir: Path, arch: str, log: Path, command: list[str], generated: Path) -> str:
    """cmake configure + build, or `command`; "" or the error."""
    cmake_args = ["-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_CUDA_ARCHITECTURES={arch}",
                  # CMake 3.25 does not know nvcc 13's C++20 flag; newer ones use the same.
                  "-DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20",
                  "-DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20"]
    commands = [["cmake", "-S", str(src), "-B", str(build_dir)] + cmake_args,
                ["cmake", "--build", str(build_dir), "-j", "2"]]
    if command:
        build_dir.mkdir(parents=True, exist_ok=True)
        commands = [[a.replace("{src}", str(src)).replace("{build}", str(build_dir)).replace(
            "{generated}", str(generated)) for a in command]]
    with log.open("w") as f:
        for cmd in commands:
            f.write("$ " + shlex.join(cmd) + "\n")
            f.flush()
            if subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode != 0:
                return f"{shlex.join(cmd[:2])} failed (log {log})"
    return ""


def find_executable(build_dir: Path, name: str) -> Path | None:
    found = sorted(p for p in build_dir.rglob(name) if p.is_file() and os.access(p, os.X_OK))
    return min(found, key=lambda p: len(p.parts)) if found else None


def execute(run: dict, exe: Path, results: Path, timeout: int, generated: Path) -> tuple[dict, list[dict]]:
    """Runs one run; its row and its entries."""
    log = results / "logs" / f"{run['id']}.log"
    # "{out}" in a flag: a file name of this run's own under stats/ (e.g. --trace {out}.trace.json).
    own = str(results / "stats" / run["id"])
    cmd = run["prefix"] + [str(exe)] + [a.replace("{out}", own).replace("{generated}", str(generated))
                                        for a in run["args"]]
    stats_file = results / "stats" / f"{run['id']}.json"
    if run["stats_json"]:
        cmd += ["--stats-json", str(stats_file)]
    # On several hosts each writes FILE with its name before the extension (dfg/outputs.hpp).
    stats_files = [stats_file.with_suffix(f".{h}.json") for h in run.get("hosts", [])] or [stats_file]
    def short(arg: str) -> str:  # paths as the results directory and the repository name them
        for base in (results, ROOT):
            if arg.startswith(str(base) + os.sep):
                return os.path.relpath(arg, base)
        return arg

    row = {**run["labels"], "run": run["id"], "command": shlex.join(short(c) for c in cmd)}
    start = datetime.datetime.now()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, **{k: v.replace("{generated}", str(generated))
                                                    for k, v in run.get("env", {}).items()}})
        output, rc = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as e:
        output, rc = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or ""), 124
    row["wall_s"] = f"{(datetime.datetime.now() - start).total_seconds():.2f}"
    log.write_text("$ " + shlex.join(cmd) + "\n" + output)
    failures = [f"exit {rc}" + (" (timed out)" if rc == 124 else "")] if rc != 0 else []
    failures += [f"output does not match /{e}/" for e in run["expect"] if not re.search(e, output, re.M)]
    entries: list[dict] = []
    if run["stats_json"] and rc == 0:
        try:
            every = [json.loads(f.read_text()) for f in stats_files]
            # The slowest host's period: the rate of the whole program.
            stats = max(every, key=lambda s: s["period_s"] if s.get("period_s") is not None else -1.0)
            if stats.get("period_s") is not None:
                row["period_ms"] = f"{stats['period_s'] * 1e3:.6g}"
                row["iterations_per_s"] = f"{stats['iterations_per_s']:.6g}"
                row["bytes_per_s"] = f"{stats['bytes_per_s']:.6g}"
            for k in ("periods", "iterations"):
                row[k] = stats[k]
            row["host"] = " ".join(s["host"] for s in every)
            # As the program ran them (the labels name them as the experiment does).
            row["stats_strategy"], row["stats_sync"] = stats["strategy"], stats["sync"]
            row["params"] = " ".join(f"{k}={v}" for k, v in stats["params"].items())
            for e in (e for s in every for e in s["entries"]):
                entries.append({"run": run["id"], **{k: e[k] for k in ("kind", "name", "pe", "count")},
                                **{k.replace("_s", "_ms"): f"{e[k] * 1e3:.6g}" for k in
                                   ("min_s", "median_s", "mean_s", "max_s")}})
        except (OSError, ValueError, KeyError, TypeError) as e:
            failures.append(f"--stats-json: {e}")
    for column, regex in run["metrics"].items():
        optional = regex.startswith("?")
        matches = re.findall(regex[1:] if optional else regex, output, re.M)
        if matches:
            row[column] = matches[-1]
        elif not optional and rc == 0:
            failures.append(f"no {column} (/{regex}/) in the output")
    row["status"] = "ok" if not failures else "FAIL: " + "; ".join(failures)
    return row, entries


def write_csv(path: Path, rows: list[dict], first: list[str], header: list[str] = ()) -> None:
    columns = list(first)
    for row in rows:
        columns += [k for k in row if k not in columns]
    with path.open("w", newline="") as f:
        for line in header:
            f.write(f"# {line}\n")
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def run(args) -> int:
    status = 0
    for d in args.dirs:
        if args.results and len(args.dirs) > 1:
            sys.exit("harness: error: --results with several directories")
        status = max(status, run_one(Path(d).resolve(), args))
    return status


def run_one(generated: Path, args) -> int:
    manifest = json.loads((generated / "manifest.json").read_text())
    if manifest.get("version") != MANIFEST_VERSION:
        sys.exit(f"harness: error: {generated}/manifest.json: version {manifest.get('version')}, expected "
                 f"{MANIFEST_VERSION}")
    os.environ["PATH"] = os.environ.get("PATH", "") + os.pathsep + "/usr/local/cuda/bin"
    info = machine()
    if info["gpus"] == 0:
        print("harness: warning: nvidia-smi lists no GPU", file=sys.stderr)
    date = now()
    results = Path(args.results).resolve() if args.results else \
        ROOT / "build" / "results" / manifest["experiment"] / f"{device_name(info['gpu'])}-{date.replace(':', '-')}"
    for sub in ("logs", "stats"):
        (results / sub).mkdir(parents=True, exist_ok=True)
    provenance = {"experiment": manifest["experiment"], "date": date, "commit": commit(),
                  "command": "bench/harness.py " + shlex.join(sys.argv[1:]), **info,
                  "generated": manifest["provenance"], "knobs": manifest.get("knobs", {})}
    (results / "provenance.json").write_text(json.dumps(provenance, indent=1) + "\n")
    shutil.copy(generated / "manifest.json", results / "manifest.json")

    if args.part is not None:  # the experiment's own split of its runs over device calls
        parts = getattr(load_experiment(manifest["experiment"]), "PARTS", ())
        if not 0 <= args.part < len(parts):
            sys.exit(f"harness: error: --part {args.part}: experiment {manifest['experiment']} has "
                     f"{len(parts)} parts")
        args.only = parts[args.part]
    only = re.compile(args.only) if args.only else None
    runs = [r for r in manifest["runs"] if not only or only.search(r["id"])]
    needed = {r["project"] for r in runs}
    projects = {p["id"]: p for p in manifest["projects"] if p["id"] in needed}
    arch = os.environ.get("CUDA_ARCHITECTURES") or (info["compute_cap"].replace(".", "") or "native")
    jobs = int(os.environ.get("HARNESS_JOBS") or max(1, (os.cpu_count() or 2) // 2))
    print(f"harness: {info['gpu'] or 'no GPU'} x{info['gpus']}, building {len(projects)} projects "
          f"({jobs} at a time)", file=sys.stderr)

    def build_one(p: dict) -> str:
        src = generated / p["dir"] if p["kind"] == "generated" else ROOT / p["source"]
        build_dir = generated / p["dir"] / "build" if p["kind"] == "generated" else generated / p["dir"]
        return build(src, build_dir, arch, results / "logs" / f"build-{p['id']}.log", p.get("build", []),
                     generated)

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        errors = dict(zip(projects, pool.map(build_one, projects.values())))
    header = [f"{k}: {provenance[k]}" for k in ("experiment", "date", "commit", "command", "gpu", "gpus", "driver",
                                                 "cuda_driver", "nvcc", "host")]
    header.append(f"generated: {manifest['provenance']['date']} at {manifest['provenance']['commit']} by "
                  f"{manifest['provenance']['command']}")
    rows: list[dict] = []
    entries: list[dict] = []
    for r in runs:
        p = projects[r["project"]]
        build_dir = generated / p["dir"] / "build" if p["kind"] == "generated" else generated / p["dir"]
        exe = find_executable(build_dir, p["executable"]) if not errors[p["id"]] else None
        if r["gpus"] > info["gpus"]:
            row = {**r["labels"], "run": r["id"], "status": f"skipped (needs {r['gpus']} GPUs)"}
        elif errors[p["id"]] or exe is None:
            row = {**r["labels"], "run": r["id"],
                   "status": "FAIL: build: " + (errors[p["id"]] or f"no {p['executable']} under {build_dir}")}
        else:
            row, run_entries = execute(r, exe, results, args.timeout, generated)
            entries += run_entries
        rows.append(row)
        print(f"harness: {row['status']:<8.60} {r['id']}" + (f"  period {row['period_ms']} ms"
                                                              if row.get("period_ms") else ""), file=sys.stderr)
        # Written after every run, so that a run stopped midway keeps what it measured.
        write_csv(results / "results.csv", rows, ["run", "status"], header)
        write_csv(results / "entries.csv", entries, ["run", "kind", "name", "pe", "count", "min_ms", "median_ms",
                                                     "mean_ms", "max_ms"], header)
    failed = [r for r in rows if r["status"].startswith("FAIL")]
    report_dir(results)
    print(f"harness: {len(rows) - len(failed)} of {len(rows)} runs ok"
          f"{', ' + str(len(failed)) + ' FAILED' if failed else ''}; results in {os.path.relpath(results, ROOT)}",
          file=sys.stderr)
    return 1 if failed else 0


# --- report -------------------------------------------------------------------------------------

def read_rows(results: Path) -> list[dict]:
    with (results / "results.csv").open() as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def report_dir(results: Path) -> int:
    """Writes and prints summary.txt; 1 when a run failed."""
    manifest = json.loads((results / "manifest.json").read_text())
    rows = read_rows(results)
    lines = [f"{manifest['experiment']}: {manifest['description']}"]
    for block in dict.fromkeys(r["block"] for r in rows):
        mine = [r for r in rows if r["block"] == block]
        ok = sum(r["status"] == "ok" for r in mine)
        skipped = sum(r["status"].startswith("skipped") for r in mine)
        lines.append(f"  {block}: {ok} ok, {skipped} skipped, {len(mine) - ok - skipped} failed of {len(mine)}")
        lines += [f"    FAIL {r['run']}: {r['status'][6:]}" for r in mine if r["status"].startswith("FAIL")]
    module = load_experiment(manifest["experiment"])
    # The experiment's own checks: a line "FAIL ..." fails the report too.
    own = (module.report(rows, results) or []) if hasattr(module, "report") else []
    lines += own
    (results / "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    failed = any(r["status"].startswith("FAIL") for r in rows) or any(l.lstrip().startswith("FAIL") for l in own)
    return 1 if failed else 0


def merge(args) -> int:
    """One results directory of the parts of one generated directory, each run apart (--only)."""
    out, parts = Path(args.results).resolve(), [Path(d).resolve() for d in args.parts]
    if out.exists() and any(out.iterdir()):
        sys.exit(f"harness: error: {args.results}: not an empty directory")
    manifests = [json.loads((d / "manifest.json").read_text()) for d in parts]
    provenances = [json.loads((d / "provenance.json").read_text()) for d in parts]
    for d, m, pr in zip(parts, manifests, provenances):
        if m["provenance"] != manifests[0]["provenance"]:
            sys.exit(f"harness: error: {d}: not generated with {parts[0]} ({m['provenance']['date']} against "
                     f"{manifests[0]['provenance']['date']})")
        if pr.get("gpu") != provenances[0].get("gpu"):
            sys.exit(f"harness: error: {d}: ran on '{pr.get('gpu')}', {parts[0]} on '{provenances[0].get('gpu')}'")
    rows, entries, seen = [], [], {}
    for d in parts:
        for row in read_rows(d):
            if row["run"] in seen:
                sys.exit(f"harness: error: run {row['run']} is in both {seen[row['run']]} and {d}")
            seen[row["run"]] = d
            rows.append(row)
        if (d / "entries.csv").is_file():
            with (d / "entries.csv").open() as f:
                entries += list(csv.DictReader(line for line in f if not line.startswith("#")))
        for sub in ("logs", "stats"):
            if (d / sub).is_dir():
                shutil.copytree(d / sub, out / sub, dirs_exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    provenance = {**provenances[0], "command": "bench/harness.py " + shlex.join(sys.argv[1:]),
                  "parts": [{k: pr.get(k) for k in ("date", "commit", "command")} for pr in provenances]}
    (out / "provenance.json").write_text(json.dumps(provenance, indent=1) + "\n")
    shutil.copy(parts[0] / "manifest.json", out / "manifest.json")
    with (parts[0] / "results.csv").open() as f:
        header = [line[2:].rstrip("\n") for line in f if line.startswith("# ")]
    header.append("merged from: " + " ".join(os.path.basename(d) for d in parts))
    write_csv(out / "results.csv", rows, ["run", "status"], header)
    write_csv(out / "entries.csv", entries, ["run", "kind", "name", "pe", "count", "min_ms", "median_ms",
                                              "mean_ms", "max_ms"], header)
    return report_dir(out)


def main() -> int:
    # The experiments import this file as `harness`: the same classes as the script's.
    sys.modules.setdefault("harness", sys.modules[__name__])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="dfgc compile every variant of an experiment, and its manifest")
    g.add_argument("experiment")
    g.add_argument("dir")
    g.add_argument("--dfgc", help="the dfgc binary (default: $DFGC, else build/release/bin/dfgc)")
    g.add_argument("--set", action="append", metavar="KEY=VALUE", help="a knob of the experiment")
    r = sub.add_parser("run", help="build and run a generated directory, collect the results")
    r.add_argument("dirs", nargs="+", metavar="DIR")
    r.add_argument("--results", help="the results directory (default build/results/<experiment>/<device>-<date>)")
    r.add_argument("--only", metavar="REGEX", help="only the runs whose id matches")
    r.add_argument("--part", type=int, metavar="K",
                   help="only the runs of part K (from 0) of the experiment's PARTS, for one device call each")
    r.add_argument("--timeout", type=int, default=300, help="seconds a run may take (default 300)")
    p = sub.add_parser("report", help="the experiment's report of a results directory")
    p.add_argument("results")
    m = sub.add_parser("merge", help="one results directory of parts run apart (run --only)")
    m.add_argument("results")
    m.add_argument("parts", nargs="+", metavar="PART")
    args = parser.parse_args()
    if args.command == "generate":
        return generate(args)
    if args.command == "run":
        return run(args)
    if args.command == "merge":
        return merge(args)
    return report_dir(Path(args.results).resolve())


if __name__ == "__main__":
    sys.exit(main())
