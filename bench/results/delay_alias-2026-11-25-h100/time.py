"""us per cycle of gpu_alone before (delay copied) and after (read in place), side by side."""
import re, statistics, subprocess, sys
from pathlib import Path

gen, out = Path(sys.argv[1]), Path(sys.argv[2])
MODES = {"overlap": [], "overlap_barrier": ["--sync=barrier"], "no_overlap": ["--no-overlap"],
         "no_overlap_barrier": ["--no-overlap", "--sync=barrier"]}


def period_us(app, iters, flags):
    r = subprocess.run([str(app), "--iterations", str(iters), "--stats=period"] + flags,
                       capture_output=True, text=True, timeout=120)
    text = r.stdout + r.stderr
    v = [float(x) for x in re.findall(r"^throughput: ([0-9.]+) iterations/s", text, re.M)]
    if r.returncode != 0 or not v:
        raise RuntimeError(f"{app} {flags}: rc {r.returncode}\n{text}")
    return 1e6 / min(v)


print("program,version," + ",".join(MODES))
for name, iters in (("alone1", 10000), ("alone1024", 2000)):
    rows = {v: {m: [] for m in MODES} for v in ("before", "after")}
    for _ in range(3):
        for v in rows:
            app = gen / (f"{name}.before" if v == "before" else name) / "build" / "app"
            for m, flags in MODES.items():
                rows[v][m].append(period_us(app, iters, flags))
    for v in rows:
        print(f"{name},{v}," + ",".join(f"{statistics.median(x):.3f}" for x in rows[v].values()),
              flush=True)
    print(f"{name},after/before," + ",".join(
        f"{statistics.median(rows['after'][m]) / statistics.median(rows['before'][m]):.3f}"
        for m in MODES), flush=True)
