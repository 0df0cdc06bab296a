"""The period of a run before, during and after a load (bench/rebalance/run.sh).

    phases.py TIMES EVENTS LABEL

TIMES: `iteration seconds` lines (the sink's REBALANCE_TIMES); EVENTS: `load_on SECONDS` and
`load_off SECONDS` lines. Prints one row: LABEL, the median period (ms an iteration, over windows
of 100 ms) in each phase, and the worst window of the load and after it. The first second and the
500 ms after each event are left out (the pipeline's start, the policy's reaction)."""
import statistics
import sys


def main():
    times = [float(line.split()[1]) for line in open(sys.argv[1]) if line.strip()]
    events = dict(line.split() for line in open(sys.argv[2]) if line.strip())
    on, off = float(events["load_on"]), float(events["load_off"])
    start, end = times[0] + 1.0, times[-1]
    windows = {"before": [], "during": [], "after": []}
    worst = {"during": 0.0, "after": 0.0}
    i = 0
    t = start
    while t + 0.1 <= end:
        lo = t
        hi = t + 0.1
        while i < len(times) and times[i] < lo:
            i += 1
        j = i
        while j < len(times) and times[j] < hi:
            j += 1
        if j - i >= 2:
            period = (times[j - 1] - times[i]) / (j - 1 - i) * 1e3
            phase = "before" if hi <= on else "during" if lo >= on and hi <= off else "after" if lo >= off else ""
            if phase in worst:
                worst[phase] = max(worst[phase], period)
            settled = (phase == "during" and lo >= on + 0.5) or (phase == "after" and lo >= off + 0.5) or phase == "before"
            if phase and settled:
                windows[phase].append(period)
        t = hi
    med = {k: statistics.median(v) if v else float("nan") for k, v in windows.items()}
    print(f"{sys.argv[3]:<22} {med['before']:>9.3f} {med['during']:>9.3f} {med['after']:>9.3f} "
          f"{worst['during']:>12.3f} {worst['after']:>11.3f}")


main()
