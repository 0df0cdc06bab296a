#!/usr/bin/env python3
"""Golden tests: runs dfgc on every input and compares its output with the expected file.

Bad inputs: every test/errors/**/*.dfg (except under a directory named `inputs`, which holds
imported specs and actor headers) is run as `dfgc check <file>`, from the repository root, with
the extra arguments of an optional first line `// ARGS: ...`. Its expected file, beside it with
the suffix `.expected`, holds stdout then stderr and a last line `exit: N`.

Samples: every samples/*/*.dfg that declares an app is run through each command of COMMANDS; the
output goes to test/golden/<sample>/<spec stem>.<command>.txt.

--update rewrites the expected files instead of comparing (tools/update-golden).
"""
import argparse
import difflib
import pathlib
import re
import subprocess
import sys

COMMANDS = [["dump-ir"], ["schedule"]]


def run(dfgc, args, root):
    p = subprocess.run([dfgc] + args, cwd=root, capture_output=True, text=True, timeout=120)
    return p.stdout + p.stderr + f"exit: {p.returncode}\n"


def cases(root):
    for path in sorted((root / "test" / "errors").rglob("*.dfg")):
        if "inputs" in path.relative_to(root).parts:
            continue
        rel = path.relative_to(root).as_posix()
        first = path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0]
        m = re.match(r"\s*//\s*ARGS:(.*)", first)
        extra = m.group(1).split() if m else []
        yield ["check", rel] + extra, path.with_suffix(".expected")
    for spec in sorted((root / "samples").glob("*/*.dfg")):
        if not re.search(r"^\s*app\s", spec.read_text(encoding="utf-8"), re.M):
            continue
        rel = spec.relative_to(root).as_posix()
        for cmd in COMMANDS:
            out = root / "test" / "golden" / spec.parent.name / f"{spec.stem}.{cmd[0]}.txt"
            yield cmd[:1] + [rel] + cmd[1:], out


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
    if failures:
        print(f"\n{len(failures)} of {count} golden files differ. If the new output is right, run:\n"
              f"  tools/update-golden\nand review the diff.")
        return 1
    print(f"{count} golden files match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
