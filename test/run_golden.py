#!/usr/bin/env python3
"""Golden tests: runs dfgc on every input and compares its output with the expected file.

Bad inputs: every test/errors/**/*.dfg (except under a directory named `inputs`, which holds
imported specs and actor headers) is run as `dfgc check <file>`, from the repository root, with
the extra arguments of an optional first line `// ARGS: ...`; a first line `// COMMAND: map ...`
runs `dfgc map <file> ...` instead. A case states what it expects in one of two ways:

- Comments in the spec (clang's -verify style), for a case whose output is only located
  diagnostics. `// expected-error {{message}}` (or expected-warning, expected-note) on the line a
  diagnostic points at; `{{...}}` is the whole message after `error: `, matched exactly (it ends
  at the `}}` that ends the line or comes before the next expectation, so it may hold braces).
  Several on one line are allowed. `expected-error:9` also checks the column (the converted cases
  give it everywhere); `expected-error@+1` / `@-2` puts the line N below / above the comment's;
  `expected-error@inputs/x.hpp:12` (path relative to the spec's directory, line, optional :col)
  expects it in another file (an actor header, an imported spec, a costs file), the comment
  staying in the spec. `// expected-no-diagnostics` expects no output at all. The run must print
  exactly these diagnostics and nothing else (each followed by its source line and caret, not
  checked), then "N errors generated." with the counts of the expected errors and warnings, and
  exit 1 if an error is expected, else 0. They are compared in file order: the spec's own first,
  then each other file's by path; within a file by line; on one line in the order dfgc prints
  them and the comments give them (the order across lines is not checked). A mismatch prints a
  diff of `file:line[:col]: kind: message` lines.
- A sidecar beside it with the suffix `.expected`, holding stdout then stderr and a last line
  `exit: N`, for what is not only located diagnostics: command-line errors (`dfgc: error: ...`),
  `dfgc map` reports, dumps, diagnostics without a line or whose source line shows control
  characters, an error at the end of the file (a comment would move it).

A spec with expected-* comments must not also have a sidecar. test/errors/inputs/ holds the
architectures that many cases import instead of declaring them (cpu.dfg, gpu.dfg, one_gpu.dfg).

Samples: every samples/*/*.dfg (and samples/streamit/*/*.dfg: <sample> is then streamit/<name>)
that declares an app that runs (not a graph alone) is compiled once, reading its actors once:
`dfgc compile <spec> -o build/golden/<sample>/<stem> --dump-after=sema,plan_names`. Its dumps are
compared with test/golden/<sample>/<spec stem>.<name>.txt, each as its command prints it (the
output, then `exit: N`): dump-ir (the sema dump: what `dfgc dump-ir` prints) and plan (the host plan
code generation prints: the plan_names dump, what `dfgc schedule --emit=plan` prints); the tree's
schedule.txt with <stem>.schedule.txt (what `dfgc schedule` prints). The specs of AGREE are also
run through those commands, which must print the same files. Each copy under actors/ must equal
the sample's own file of that path under its directory (samples/<sample>/actors/X for actors/X),
and dfgc-manifest.txt must list runtime/ as it was written. A spec dfgc cannot compile, or that
it compiles with diagnostics, has its output in test/golden/<sample>/<stem>.compile.txt.

The samples of FULL_TREES also have their whole generated tree in test/golden/<sample>/<stem>/
(except the copied runtime/ and actors/, and the manifest's runtime/ lines); there the tree's
schedule.txt stands for <stem>.schedule.txt. The code is printed from the plan alone, so the
plans of every sample and the trees of these, which print every section of templates/parts/
between them, show any change of the generated code.

--update rewrites the expected files instead of comparing (tools/update-golden); it leaves the
bad inputs with expected-* comments as they are: those are edited by hand.
"""
import argparse
import difflib
import os
import pathlib
import re
import shutil
import subprocess
import sys

# (name, the stage whose dump it is, the command that prints it): what a sample's compile dumps.
DUMPS = [("dump-ir", "sema", ["dump-ir"]), ("plan", "plan_names", ["schedule", "--emit=plan"])]

# <sample>/<stem>: specs also run through the commands of DUMPS, `dfgc schedule` and
# `dfgc compile --emit=plan`, which must print the files the compile's dumps were compared with.
AGREE = ["overlap/one_gpu", "streamit/fmradio/cores", "migration/two_hosts_gpu"]

# <sample>/<stem>: what its tree stands for. Between them these print every section of
# templates/parts/ that any sample prints (measured when the list was drawn up; a new section
# belongs in a tree here).
FULL_TREES = {
    "decimate/one_gpu": "inputs that peek, on a GPU and on a core",
    "dyn_fir/m3": "a dynamic island on a GPU with zero-copy rings",
    "dyn_fir/split_cores": "islands over two cores, bounded ports between them",
    "dyn_fir/parallel_m2": "rings with initial elements: in islands and in mapped memory",
    "dyn_idct/dyn_idct": "an island on a core whose actors have init",
    "dyn_idct/idct_parallel_core": "an island of parallel actors on a core, fired in batches",
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


# `// expected-error {{message}}`, with an optional @+N, @-N or @path:line (path relative to the
# spec's directory) and an optional :column after it. The message ends at the `}}` that ends the
# line or comes before the next expectation, so a message may hold braces.
EXPECTATION = re.compile(r"expected-(error|warning|note)(?:@([+-]\d+|[^\s:{}]+:\d+))?(?::(\d+))?"
                         r"\s*\{\{(.*?)\}\}(?=\s*(?:$|//|expected-))", re.M)
DIAGNOSTIC = re.compile(r"(\S[^:]*):(\d+):(\d+): (error|warning|note): (.*)")
CARET = re.compile(r"\s*\^~*\s*")


def inline(spec):
    """Whether the spec holds its expectations in comments (then it has no sidecar)."""
    text = spec.read_text(encoding="utf-8", errors="replace")
    return "expected-no-diagnostics" in text or EXPECTATION.search(text) is not None


def expectations(spec, root):
    """[(file, line, column or None, kind, text)] of the spec's comments; file is relative to
    `root`."""
    rel = spec.relative_to(root).as_posix()
    out = []
    lines = spec.read_text(encoding="utf-8", errors="replace").split("\n")
    for number, line in enumerate(lines, 1):
        comment = line.find("//")
        if comment < 0:
            continue
        for m in EXPECTATION.finditer(line, comment):
            kind, where, column, text = m.groups()
            file, at = rel, number
            if where and where[0] in "+-":
                at = number + int(where)
            elif where:
                path, _, at = where.rpartition(":")
                file = os.path.relpath(os.path.normpath(spec.parent / path), root)
                file, at = pathlib.Path(file).as_posix(), int(at)
            out.append((file, at, int(column) if column else None, kind, text))
    return out


def diagnostics(output):
    """([(file, line, column, kind, text)], [lines that are not part of a diagnostic])."""
    found, stray = [], []
    lines = output.splitlines()
    i = 0
    while i < len(lines):
        m = DIAGNOSTIC.fullmatch(lines[i])
        if not m:
            stray.append(lines[i])
            i += 1
            continue
        file, line, column, kind, text = m.groups()
        found.append((os.path.normpath(file), int(line), int(column), kind, text))
        # The source line and the caret under the column.
        i += 3 if i + 2 < len(lines) and CARET.fullmatch(lines[i + 2]) else 1
    return found, stray


def plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(expected):
    errors = sum(1 for e in expected if e[3] == "error")
    warnings = sum(1 for e in expected if e[3] == "warning")
    if warnings and errors:
        return [plural(warnings, "warning") + " and " + plural(errors, "error") + " generated."]
    if errors or warnings:
        return [plural(errors or warnings, "error" if errors else "warning") + " generated."]
    return []


def verify(dfgc, args, root, spec):
    """Runs a case whose expectations are comments; returns the failure message or None."""
    expected = expectations(spec, root)
    p = subprocess.run([dfgc] + args, cwd=root, capture_output=True, text=True, timeout=120)
    found, stray = diagnostics(p.stdout + p.stderr)
    rel = spec.relative_to(root).as_posix()

    # Compared in file order: the spec's own diagnostics first, then each other file's; within a
    # file by line; on one line in the order dfgc prints them (and the comments give them).
    def order(d):
        return (d[0] != rel, d[0], d[1])

    columnless = {(f, l, k, t) for f, l, c, k, t in expected if c is None}

    def show(d, actual):
        f, l, c, k, t = d
        if actual and (f, l, k, t) in columnless:
            c = None
        return f"{f}:{l}" + (f":{c}" if c is not None else "") + f": {k}: {t}\n"

    want = [show(d, False) for d in sorted(expected, key=order)]
    got = [show(d, True) for d in sorted(found, key=order)]
    want += [x + "\n" for x in summary(expected)] + [f"exit: {int(any(e[3] == 'error' for e in expected))}\n"]
    got += [x + "\n" for x in stray] + [f"exit: {p.returncode}\n"]
    if want == got:
        return None
    return (f"FAIL: dfgc {' '.join(args)}: the diagnostics differ from the spec's expected-* comments\n"
            + "".join(difflib.unified_diff(want, got, f"{rel} (expected)", "actual")))


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
    for spec in compile_cases(root):
        if f"{sample_dir(spec)}/{spec.stem}" not in AGREE:
            continue
        rel = spec.relative_to(root).as_posix()
        golden = root / "test" / "golden" / sample_dir(spec)
        for name, _, command in DUMPS:
            yield [command[0], rel] + command[1:], golden / f"{spec.stem}.{name}.txt"
        yield ["compile", rel, "--emit=plan"], golden / f"{spec.stem}.plan.txt"
        if not full_tree(spec):
            yield ["schedule", rel], golden / f"{spec.stem}.schedule.txt"


# `app x on a {` or `app x : graph on a {`, not a graph (`app graph {`) alone.
RUNNABLE_APP = re.compile(r"^[ \t]*app[ \t]+\w+\b\s*(?::\s*\w+\s+)?on\s", re.M)


def runs_an_app(spec):
    return RUNNABLE_APP.search(spec.read_text(encoding="utf-8")) is not None


def sample_specs(root):
    """samples/<sample>/*.dfg, and samples/streamit/<benchmark>/*.dfg."""
    samples = root / "samples"
    return sorted(samples.glob("*/*.dfg")) + sorted(samples.glob("streamit/*/*.dfg"))


def sample_dir(spec):
    """The sample's directory under samples/: fir_bank, streamit/filterbank."""
    parent = spec.parent
    return f"{parent.parent.name}/{parent.name}" if parent.parent.name == "streamit" else parent.name


def full_tree(spec):
    return f"{sample_dir(spec)}/{spec.stem}" in FULL_TREES


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
    for spec in sample_specs(root):
        if runs_an_app(spec):
            yield spec


def split_dumps(stderr):
    """The text before the first dump, and {stage: its dump} of `// after <stage>` sections."""
    parts = re.split(r"^// after (\w+)\n", stderr, flags=re.M)
    return parts[0], dict(zip(parts[1::2], parts[2::2]))


def check_compile(dfgc, root, spec, update):
    """Compiles one sample; returns the list of failure messages (diffs)."""
    rel = spec.relative_to(root).as_posix()
    out_dir = root / "build" / "golden" / sample_dir(spec) / spec.stem
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    gen_rel = out_dir.relative_to(root).as_posix()
    stages = ",".join(stage for _, stage, _ in DUMPS)
    p = subprocess.run([dfgc, "compile", rel, "-o", gen_rel, f"--dump-after={stages}"], cwd=root,
                       capture_output=True, text=True, timeout=300)
    stray, dumps = split_dumps(p.stderr)
    golden_dir = root / "test" / "golden" / sample_dir(spec) / spec.stem
    golden_txt = golden_dir.with_name(spec.stem + ".compile.txt")
    schedule_txt = golden_dir.with_name(spec.stem + ".schedule.txt")
    whole = full_tree(spec)
    clean = p.returncode == 0 and not p.stdout and not stray
    actual = {} if p.returncode != 0 else tree(out_dir)
    # A compile that fails or says something: all it printed, dumps included, is kept whole.
    actual_txt = "" if clean else p.stdout + p.stderr + f"exit: {p.returncode}\n"
    # Each dump as its own command prints it; none for a compile that is not clean.
    dump_paths = {name: golden_dir.with_name(f"{spec.stem}.{name}.txt") for name, _, _ in DUMPS}
    actual_dumps = {}
    if clean:
        for name, stage, _ in DUMPS:
            actual_dumps[dump_paths[name]] = dumps.get(stage, "") + "exit: 0\n"
    if not whole:
        # The schedule the tree holds is the one `dfgc schedule` printed; the rest is not kept.
        actual = {k: v for k, v in actual.items() if k == "schedule.txt"}
    if update:
        for path in dump_paths.values():
            if path in actual_dumps:
                path.write_text(actual_dumps[path])
            else:
                path.unlink(missing_ok=True)
        if actual_txt:
            golden_txt.write_text(actual_txt)
        else:
            golden_txt.unlink(missing_ok=True)
        if not whole:
            shutil.rmtree(golden_dir, ignore_errors=True)
            if "schedule.txt" in actual:
                schedule_txt.write_text(actual["schedule.txt"] + "exit: 0\n")
            else:
                schedule_txt.unlink(missing_ok=True)
            print(f"updated {golden_txt.relative_to(root)}" if actual_txt else
                  f"checked {rel}: its tree is not kept")
            return []
        schedule_txt.unlink(missing_ok=True)
        shutil.rmtree(golden_dir, ignore_errors=True)
        for path, text in actual.items():
            (golden_dir / path).parent.mkdir(parents=True, exist_ok=True)
            (golden_dir / path).write_text(text)
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
    for name, stage, command in DUMPS:
        path = dump_paths[name]
        expected_dump = path.read_text() if path.exists() else ""
        if actual_dumps.get(path, "") != expected_dump:
            failures.append((f"--dump-after={stage} (what `dfgc {' '.join(command)}` prints)",
                             expected_dump, actual_dumps.get(path, ""), path))
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
    messages = []
    for what, exp, act, where in failures:
        messages.append(f"FAIL: dfgc compile {rel}: {what}\n" + "".join(difflib.unified_diff(
            exp.splitlines(True), act.splitlines(True), str(where.relative_to(root)), "actual")))
    return messages


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dfgc", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--update", action="store_true",
                    help="rewrite the expected files; a bad input with expected-* comments is "
                         "left as it is (edit its comments by hand)")
    ap.add_argument("filter", nargs="?", default="", help="only inputs whose path contains this")
    a = ap.parse_args()
    root = pathlib.Path(a.root).resolve()
    failures, count = [], 0
    for args, expected_path in cases(root):
        if a.filter and not any(a.filter in x for x in args):
            continue
        count += 1
        spec = expected_path.with_suffix(".dfg")
        if expected_path.suffix == ".expected" and spec.is_file() and inline(spec):
            if expected_path.exists():
                failures.append(expected_path)
                print(f"FAIL: {spec.relative_to(root)} has expected-* comments and a sidecar "
                      f"{expected_path.relative_to(root)}: keep one of them")
                continue
            if a.update:
                continue  # its comments are written by hand
            message = verify(a.dfgc, args, root, spec)
            if message:
                failures.append(spec)
                print(message)
            continue
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
              f"  tools/update-golden\nand review the diff (a bad input with expected-* comments is "
              f"fixed by hand: --update leaves it as it is).")
        return 1
    print(f"{count} golden files match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
