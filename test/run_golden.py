#!/usr/bin/env python3
"""Golden tests: runs dfgc on every input and compares its output with the expected file.

Bad inputs: every test/errors/**/*.dfg (except under a directory named `inputs`, which holds
imported specs and actor headers) is run as `dfgc check <file>`, from the repository root, with
the extra arguments of an optional first line `// ARGS: ...`; a first line `// COMMAND: map ...`
runs `dfgc map <file> ...` instead. Its expected file, beside it with the suffix `.expected`,
holds stdout then stderr and a last line `exit: N`.

Samples: every samples/*/*.dfg that declares an app is run through each command of COMMANDS; the
output goes to test/golden/<sample>/<spec stem>.<name>.txt (dump-ir, schedule, and plan: the host
plan code generation prints, `dfgc schedule --emit=plan`). Each is also compiled
(`dfgc compile <spec> -o build/golden/<sample>/<stem>`) and must print the plan of
<stem>.plan.txt (`dfgc compile --emit=plan`) and write the schedule of <stem>.schedule.txt; each
copy under actors/ must equal the sample's own file of that path under its directory
(samples/<sample>/actors/X for actors/X), and dfgc-manifest.txt must list runtime/ as it was
written. A spec dfgc cannot compile has its output in test/golden/<sample>/<stem>.compile.txt.

The samples of FULL_TREES also have their whole generated tree in test/golden/<sample>/<stem>/
(except the copied runtime/ and actors/, and the manifest's runtime/ lines); there the tree's
schedule.txt stands for <stem>.schedule.txt. The code is printed from the plan alone, so the
plans of every sample and the trees of these, which print every section of templates/parts/
between them, show any change of the generated code.

--update rewrites the expected files instead of comparing (tools/update-golden).
"""
import argparse
import difflib
import pathlib
import re
import shutil
import subprocess
import sys

# (name, command, arguments after the spec)
COMMANDS = [("dump-ir", "dump-ir", []), ("schedule", "schedule", []), ("plan", "schedule", ["--emit=plan"])]

# <sample>/<stem>: what its tree stands for. Between them these print every section of
# templates/parts/ that any sample prints (measured when the list was drawn up; a new section
# belongs in a tree here).
FULL_TREES = {
    "dyn_fir/m3": "a dynamic island on a GPU with zero-copy rings",
    "dyn_fir/split_cores": "islands over two cores, bounded ports between them",
    "dyn_idct/dyn_idct": "an island on a core whose actors have init",
    "dyn_idct/idct_parallel_gpu": "a GPU island of parallel actors",
    "fir_bank/cores": "a filter bank over four cores",
    "iir/loop_two_hosts_cpu": "a loop through a delay across two hosts",
    "iir/state_method": "initial tokens filled by an actor's method",
    "migration/cores": "migration between two cores",
    "migration/two_hosts_gpu": "migration between hosts with GPUs",
    "migration/two_hosts_longer": "a migration that lengthens the schedule",
    "multirate/batched": "rates and a batch of iterations a cycle",
    "overlap/one_gpu": "a plain pipeline over a core and a GPU",
    "overlap/two_gpus": "two GPUs of one host, peer copies",
    "overlap/two_hosts_gpudirect": "MPI from GPU memory",
    "packets/one_gpu": "bounded tokens on a GPU",
    "saliency/cpu_only": "runtime params and sizes computed from them",
}


def run(dfgc, args, root):
    p = subprocess.run([dfgc] + args, cwd=root, capture_output=True, text=True, timeout=120)
    return p.stdout + p.stderr + f"exit: {p.returncode}\n"


def cases(root):
    for path in sorted((root / "test" / "errors").rglob("*.dfg")):
        if "inputs" in path.relative_to(root).parts:
            continue
        rel = path.relative_to(root).as_posix()
        first = path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0]
        m = re.match(r"\s*//\s*(ARGS|COMMAND):(.*)", first)
        words = m.group(2).split() if m else []
        if m and m.group(1) == "COMMAND":
            yield words[:1] + [rel] + words[1:], path.with_suffix(".expected")
        else:
            yield ["check", rel] + words, path.with_suffix(".expected")
    for spec in sorted((root / "samples").glob("*/*.dfg")):
        if not re.search(r"^\s*app\s", spec.read_text(encoding="utf-8"), re.M):
            continue
        rel = spec.relative_to(root).as_posix()
        for name, command, args in COMMANDS:
            if name == "schedule" and full_tree(spec):
                continue  # the tree's schedule.txt (check_compile)
            out = root / "test" / "golden" / spec.parent.name / f"{spec.stem}.{name}.txt"
            yield [command, rel] + args, out


def full_tree(spec):
    return f"{spec.parent.name}/{spec.stem}" in FULL_TREES


MANIFEST = "dfgc-manifest.txt"


def tree(directory):
    """path -> text of every file under `directory` except runtime/ and actors/, the manifest
    without its runtime/ lines."""
    out = {}
    if not directory.is_dir():
        return out
    for path in sorted(directory.rglob("*")):
        rel = path.relative_to(directory).as_posix()
        if path.is_file() and not rel.startswith(("runtime/", "actors/", "build/")):
            out[rel] = path.read_text(encoding="utf-8", errors="replace")
    if MANIFEST in out:
        out[MANIFEST] = "".join(line for line in out[MANIFEST].splitlines(True)
                                if not line.startswith("runtime/"))
    return out


def manifest_runtime(directory):
    """The runtime/ lines of the manifest and the files under runtime/: the two must agree."""
    manifest = (directory / MANIFEST).read_text(encoding="utf-8").splitlines()
    listed = sorted(line for line in manifest if line.startswith("runtime/"))
    written = sorted(p.relative_to(directory).as_posix()
                     for p in (directory / "runtime").rglob("*") if p.is_file())
    return "".join(x + "\n" for x in listed), "".join(x + "\n" for x in written)


def compile_cases(root):
    for spec in sorted((root / "samples").glob("*/*.dfg")):
        if re.search(r"^\s*app\s", spec.read_text(encoding="utf-8"), re.M):
            yield spec


def check_compile(dfgc, root, spec, update):
    """Compiles one sample; returns the list of failure messages (diffs)."""
    rel = spec.relative_to(root).as_posix()
    out_dir = root / "build" / "golden" / spec.parent.name / spec.stem
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    gen_rel = out_dir.relative_to(root).as_posix()
    p = subprocess.run([dfgc, "compile", rel, "-o", gen_rel], cwd=root, capture_output=True,
                       text=True, timeout=300)
    golden_dir = root / "test" / "golden" / spec.parent.name / spec.stem
    golden_txt = golden_dir.with_name(spec.stem + ".compile.txt")
    schedule_txt = golden_dir.with_name(spec.stem + ".schedule.txt")
    whole = full_tree(spec)
    actual = {} if p.returncode != 0 else tree(out_dir)
    actual_txt = "" if p.returncode == 0 else p.stdout + p.stderr + f"exit: {p.returncode}\n"
    if not whole:
        # The schedule the tree holds is the one `dfgc schedule` printed; the rest is not kept.
        actual = {k: v for k, v in actual.items() if k == "schedule.txt"}
    if update:
        if not whole:
            shutil.rmtree(golden_dir, ignore_errors=True)
            if actual_txt:
                golden_txt.write_text(actual_txt)
            else:
                golden_txt.unlink(missing_ok=True)
            print(f"updated {golden_txt.relative_to(root)}" if actual_txt else
                  f"checked {rel}: its tree is not kept")
            return []
        schedule_txt.unlink(missing_ok=True)
        if actual:
            shutil.rmtree(golden_dir, ignore_errors=True)
            for path, text in actual.items():
                (golden_dir / path).parent.mkdir(parents=True, exist_ok=True)
                (golden_dir / path).write_text(text)
            golden_txt.unlink(missing_ok=True)
        else:
            shutil.rmtree(golden_dir, ignore_errors=True)
            golden_txt.write_text(actual_txt)
        print(f"updated {golden_dir.relative_to(root)}")
        return []
    failures = []
    # The copies of the actor headers: each the sample's own file, byte for byte.
    copies = out_dir / "actors"
    if p.returncode == 0 and copies.is_dir():
        for path in sorted(copies.rglob("*")):
            if not path.is_file():
                continue
            original = spec.parent / path.relative_to(out_dir)
            copy = path.read_text(encoding="utf-8", errors="replace")
            text = original.read_text(encoding="utf-8", errors="replace") if original.is_file() else ""
            if copy != text:
                failures.append((f"copy of {original.relative_to(root)}", text, copy, original))
    expected_txt = golden_txt.read_text() if golden_txt.exists() else ""
    if actual_txt != expected_txt:
        failures.append(("compile output", expected_txt, actual_txt, golden_txt))
    if p.returncode == 0:
        listed, written = manifest_runtime(out_dir)
        if listed != written:
            failures.append((f"{MANIFEST}'s runtime/ lines", written, listed, out_dir / MANIFEST))
    expected = tree(golden_dir)
    if not whole:
        expected = {}
        if p.returncode == 0:
            text = schedule_txt.read_text() if schedule_txt.exists() else ""
            expected["schedule.txt"] = text.removesuffix("exit: 0\n")
    for path in sorted(set(expected) | set(actual)):
        if expected.get(path) != actual.get(path):
            failures.append((path, expected.get(path, ""), actual.get(path, ""), golden_dir / path))
    plan_txt = golden_dir.with_name(spec.stem + ".plan.txt")
    if p.returncode == 0 and plan_txt.exists():
        plan = run(dfgc, ["compile", rel, "--emit=plan"], root)
        if plan != plan_txt.read_text():
            failures.append(("compile --emit=plan", plan_txt.read_text(), plan, plan_txt))
    messages = []
    for what, exp, act, where in failures:
        messages.append(f"FAIL: dfgc compile {rel}: {what}\n" + "".join(difflib.unified_diff(
            exp.splitlines(True), act.splitlines(True), str(where.relative_to(root)), "actual")))
    return messages


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dfgc", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("filter", nargs="?", default="", help="only inputs whose path contains this")
    a = ap.parse_args()
    root = pathlib.Path(a.root).resolve()
    failures, count = [], 0
    for args, expected_path in cases(root):
        if a.filter and not any(a.filter in x for x in args):
            continue
        count += 1
        actual = run(a.dfgc, args, root)
        if a.update:
            expected_path.parent.mkdir(parents=True, exist_ok=True)
            if not expected_path.exists() or expected_path.read_text() != actual:
                expected_path.write_text(actual)
                print(f"updated {expected_path.relative_to(root)}")
            continue
        expected = expected_path.read_text() if expected_path.exists() else ""
        if actual != expected:
            failures.append(expected_path)
            print(f"FAIL: dfgc {' '.join(args)}")
            sys.stdout.writelines(difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True),
                str(expected_path.relative_to(root)), "actual"))
    for spec in compile_cases(root):
        if a.filter and a.filter not in spec.relative_to(root).as_posix():
            continue
        count += 1
        messages = check_compile(a.dfgc, root, spec, a.update)
        for m in messages:
            print(m)
        if messages:
            failures.append(spec)
    if a.update:
        return 0
    if failures:
        print(f"\n{len(failures)} of {count} golden files differ. If the new output is right, run:\n"
              f"  tools/update-golden\nand review the diff.")
        return 1
    print(f"{count} golden files match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
