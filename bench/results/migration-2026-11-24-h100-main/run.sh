#!/usr/bin/env bash
set -u
F=${OUT:-/tmp/out}
rm -rf /tmp/b-one_gpu /tmp/b-two_gpu /tmp/migres; OUT=/tmp/migres bash .dev/final/mig.sh > /tmp/mig_run.txt 2>&1; echo "migration rc=$?"
grep "rc=\|builds" /tmp/mig_run.txt
cd /tmp/migres && { cat gpu.txt; python3 "$OLDPWD/bench/results/migration-2026-11-24-h100/summarize.py" 2>&1 || true; echo "memcheck: $(grep 'ERROR SUMMARY' sanitizer.txt)"; grep -h "check:\|migrate:" *.log | sort | uniq -c; } > "$F/summary.txt"
cat "$F/summary.txt"
