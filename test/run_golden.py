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
(`dfgc compile <spec> -o build/golden/<sample>/<stem>`): the generated tree, except the copied
runtime/ and the copies of the actor headers under actors/ (dfgc-manifest.txt lists both), is
compared with test/golden/<sample>/<stem>/; each copy under actors/ must equal the sample's own
file of that path under its directory (samples/<sample>/actors/X for actors/X); a
spec dfgc cannot compile has its output in test/golden/<sample>/<stem>.compile.txt instead.
`dfgc compile <spec> --emit=plan` must print the plan of <stem>.plan.txt, the one the project
was printed from.

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
            out = root / "test" / "golden" / spec.parent.name / f"{spec.stem}.{name}.txt"
            yield [command, rel] + args, out


def tree(directory):
    """path -> text of every file under `directory` except runtime/ and actors/."""
    out = {}
    if not directory.is_dir():
        return out
    for path in sorted(directory.rglob("*")):
        rel = path.relative_to(directory).as_posix()
        if path.is_file() and not rel.startswith(("runtime/", "actors/", "build/")):
            out[rel] = path.read_text(encoding="utf-8", errors="replace")
    return out


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
    actual = {} if p.returncode != 0 else tree(out_dir)
    actual_txt = "" if p.returncode == 0 else p.stdout + p.stderr + f"exit: {p.returncode}\n"
    if update:
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
    expected = tree(golden_dir)
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
