#!/usr/bin/env bash
# The FIR bank (samples/fir_bank) on one CPU core against ten cores of one host.
#   bench/fir_bank/run.sh generate DIR [DFGC]   here: dfgc compile of each mapping into DIR, with
#                                               the sequential reference's source and this script
#   bench/fir_bank/run.sh run DIR [OUT]         on the measuring machine: builds every project and
#                                               the reference with cmake and g++ (Release), runs
#                                               each program (both strategies; the ten cores also
#                                               with --pin-cpus), checks that every checksum line
#                                               equals the reference's, prints the periods and the
#                                               speedups, and writes OUT/fir_bank.txt and .csv
# ITERATIONS (default 300) and N (default 65536 samples a block) may be set in the environment.
set -euo pipefail
mode=$1 dir=$2
iterations=${ITERATIONS:-300}
n=${N:-65536}
root=$(cd "$(dirname "$0")/../.." && pwd)

if [[ $mode == generate ]]; then
  dfgc=${3:-$root/build/test/compiler/driver/dfgc}
  mkdir -p "$dir"
  for mapping in one_core cores; do
    "$dfgc" compile "$root/samples/fir_bank/$mapping.dfg" -o "$dir/$mapping"
  done
  mkdir -p "$dir/reference/actors" "$dir/reference/dfg"
  cp "$root/samples/fir_bank/reference.cpp" "$dir/reference/"
  cp "$root/samples/fir_bank/actors/fir_bank.hpp" "$dir/reference/actors/"
  cp "$root/runtime/include/dfg/context.hpp" "$dir/reference/dfg/"
  cp "$0" "$dir/run.sh"
  (cd "$root" && git rev-parse --short HEAD) >"$dir/commit.txt"
  exit 0
fi

out=${3:-$dir/results}
mkdir -p "$out"
jobs=$(nproc)
g++ -std=c++20 -O3 -I "$dir/reference" "$dir/reference/reference.cpp" -o "$dir/reference/reference"
for mapping in one_core cores; do
  cmake -S "$dir/$mapping" -B "$dir/$mapping/build" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$dir/$mapping/build" -j "$jobs" >/dev/null
done

log=$out/fir_bank.txt csv=$out/fir_bank.csv
{
  echo "FIR bank: 8 filters x 64 taps over blocks of $n samples, $iterations iterations"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "commit: $(cat "$dir/commit.txt" 2>/dev/null || echo unknown)"
} | tee "$log"
start=$(date +%s.%N)
"$dir/reference/reference" "$iterations" "$n" >"$out/reference.out"
end=$(date +%s.%N)
want=$(cat "$out/reference.out")
ref_ms=$(python3 -c "print(f'{($end - $start) * 1e3 / $iterations:.3f}')")
echo "reference (sequential, one thread): $ref_ms ms an iteration (wall time / iterations); $want" | tee -a "$log"
echo "variant,mapping,flags,period_ms" >"$csv"
declare -A period
for variant in "one_core|" "one_core|--no-overlap" "cores|" "cores|--no-overlap" "cores|--pin-cpus" \
  "cores|--no-overlap --pin-cpus"; do
  mapping=${variant%%|*} flags=${variant#*|}
  got=$("$dir/$mapping/build/app" --iterations "$iterations" --set N="$n" --stats=period $flags 2>&1) || {
    echo "$got"; echo "FAIL: $mapping $flags"; exit 1; }
  line=$(grep '^fir_bank:' <<<"$got")
  [[ $line == "$want" ]] || { echo "FAIL: $mapping $flags printed '$line', the reference '$want'"; exit 1; }
  ms=$(sed -n 's/^iteration period: \([0-9.]*\) ms.*/\1/p' <<<"$got")
  period["$mapping $flags"]=$ms
  printf '%-10s %-26s period %8s ms  (checksum equal to the reference)\n' "$mapping" "${flags:-(overlap)}" "$ms" |
    tee -a "$log"
  echo "$mapping ${flags:-overlap},$mapping,${flags:-},$ms" >>"$csv"
done
python3 - "${period[one_core ]}" "${period[cores ]}" "${period[cores --pin-cpus]}" \
  "${period[one_core --no-overlap]}" "${period[cores --no-overlap]}" <<'PY' | tee -a "$log"
import sys
one, cores, pinned, one_no, cores_no = map(float, sys.argv[1:])
print(f"speedup, ten cores over one (overlap): {one / cores:.2f}x unpinned, {one / pinned:.2f}x pinned")
print(f"speedup, ten cores over one (--no-overlap): {one_no / cores_no:.2f}x")
PY
