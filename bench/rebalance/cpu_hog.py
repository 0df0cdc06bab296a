"""Another process's work on a core (bench/rebalance/run.sh, under taskset): a busy loop until
killed.

    cpu_hog.py READY    # READY is created once the loop runs"""
import sys

open(sys.argv[1], "w").close()
while True:
    pass
