#!/bin/bash
# `dfgc map` against the mappings by hand with everything on one machine: the profile it chooses
# from, its choice and the timing of every mapping. The lent machines differ up to 2x in what one
# core does, so a profile from one machine does not predict another.
#
#     bench/bundle_dfgc.sh build/dfgc.tar.xz                       # here
#     bench/streamit/edges/map_there.sh build/dfgc.tar.xz DIR OUT  # there (16 cores or more)
#
# There, from the bundled dfgc: for each batch (64, 256), FMRadio on one core is built and profiled
# (OUT/map_profile_BATCH.json, 16384 iterations; run.sh profiles again into profile_BATCH.json),
# and `dfgc map bench/streamit/fm_free.dfg` chooses from that profile alone (OUT/map_BATCH.txt:
# the report). Then run.sh generates the mappings by
# hand and the two choices (choice_64, choice_256) into DIR and times them all (run.sh run DIR OUT).
# Results: OUT/log.txt and periods.csv as run.sh writes them, the profiles and the reports.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
bundle=${1:?usage: map_there.sh BUNDLE DIR OUT} dir=${2:?usage: map_there.sh BUNDLE DIR OUT}
out=${3:?usage: map_there.sh BUNDLE DIR OUT}
mkdir -p "$out" "$dir"
unpacked=$(mktemp -d)
tar -xJf "$bundle" -C "$unpacked" || exit 1
dfgc=$unpacked/dfgc/dfgc
log=$out/map_log.txt
fail() {
  echo "FAIL: $*"
  tail "$log"
  exit 1
}
step() { "$@" >>"$log" 2>&1 || fail "$@"; } # runs a command into the log
step "$dfgc" --version
for b in 64 256; do
  step "$dfgc" compile "$root/samples/streamit/fmradio/one_core.dfg" -D BATCH="$b" -o "$dir/profile_$b"
  step cmake -S "$dir/profile_$b" -B "$dir/profile_$b/build" -DCMAKE_BUILD_TYPE=Release
  step cmake --build "$dir/profile_$b/build" -j "$(nproc)"
  step "$dir/profile_$b/build/app" --iterations 16384 --set PRINT=0 --profile "$out/map_profile_$b.json"
  "$dfgc" map "$root/bench/streamit/fm_free.dfg" --costs "$out/map_profile_$b.json" -D BATCH="$b" \
    >"$out/map_$b.txt" 2>>"$log" || fail dfgc map at batch "$b"
done
DFGC=$dfgc step "$here/run.sh" generate "$dir/mappings" choice_64="$out/map_64.txt" \
  choice_256="$out/map_256.txt"
exec "$here/run.sh" run "$dir/mappings" "$out"
