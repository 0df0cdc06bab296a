#!/usr/bin/env bash
# The overhead of rates: the generated multirate and IIR programs against hand-written sequential
# loops of the same computation (the samples' own actors called in schedule order, one thread:
# reference_*.cpp, reference_multirate_gpu.cu), and the sum called once per firing (two a cycle)
# against one call on its whole block (`Sum block`).
#   bench/rates/run.sh generate DIR cpu|gpu [DFGC]   here: dfgc compile of each variant into DIR,
#                                                    with the references' sources and this script
#   bench/rates/run.sh run DIR [OUT]                 on the measuring machine: builds every project
#                                                    (Release) and reference (-O3), runs each
#                                                    program in both strategies (the checker
#                                                    compares every sample), prints the periods and
#                                                    the ratios, writes OUT/rates.txt and rates.csv
# ITERATIONS (default 20000) and REPEAT (default 5: each figure the least of that many runs) may
# be set in the environment. Not a timed test: numbers to read.
set -euo pipefail
mode=$1 dir=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
iterations=${ITERATIONS:-20000}

if [[ $mode == generate ]]; then
  kind=$3
  dfgc=${4:-$root/build/test/bin/dfgc}
  mkdir -p "$dir"
  echo "$kind" >"$dir/kind.txt"
  # The sum declared block: one call (one launch) a cycle for its two firings.
  mkdir -p "$dir/block"
  cp -r "$root/samples/multirate/actors" "$root/samples/multirate/"*.dfg "$dir/block/"
  sed -i -e 's|"actors/sum.hpp" Sum;|"actors/sum.hpp" Sum block;|' -e 's|"actors/sum.cuh" SumGpu;|"actors/sum.cuh" SumGpu block;|' \
    "$dir/block/multirate.dfg"
  grep -q 'Sum block;' "$dir/block/multirate.dfg" || { echo "the block variant was not made"; exit 1; }
  if [[ $kind == cpu ]]; then
    for n in 64 4096; do
      "$dfgc" compile "$root/samples/multirate/cpu_only.dfg" -D N=$n -o "$dir/multirate_$n"
      "$dfgc" compile "$dir/block/cpu_only.dfg" -D N=$n -o "$dir/multirate_block_$n"
    done
    "$dfgc" compile "$root/samples/iir/cpu_only.dfg" -o "$dir/iir_256"
  else
    for n in 64 65536; do
      "$dfgc" compile "$root/samples/multirate/one_gpu.dfg" -D N=$n -o "$dir/multirate_$n"
      "$dfgc" compile "$dir/block/one_gpu.dfg" -D N=$n -o "$dir/multirate_block_$n"
    done
  fi
  mkdir -p "$dir/reference/multirate/actors" "$dir/reference/iir/actors" "$dir/reference/dfg"
  cp "$root/samples/multirate/actors/"* "$dir/reference/multirate/actors/"
  cp "$root/samples/iir/actors/"* "$dir/reference/iir/actors/"
  cp "$root/bench/rates/reference_multirate.cpp" "$root/bench/rates/reference_multirate_gpu.cu" "$dir/reference/multirate/"
  cp "$root/bench/rates/reference_iir.cpp" "$dir/reference/iir/"
  cp "$root/runtime/include/dfg/context.hpp" "$dir/reference/dfg/"
  cp "$0" "$dir/run.sh"
  (cd "$root" && git rev-parse --short HEAD) >"$dir/commit.txt"
  exit 0
fi

out=${3:-$dir/results}
mkdir -p "$out"
kind=$(cat "$dir/kind.txt")
jobs=$(nproc)
ref=$dir/reference
if [[ $kind == cpu ]]; then
  g++ -std=c++20 -O3 -DNDEBUG -I "$ref" -I "$ref/multirate" "$ref/multirate/reference_multirate.cpp" -o "$ref/multirate/reference"
  g++ -std=c++20 -O3 -DNDEBUG -I "$ref" -I "$ref/iir" "$ref/iir/reference_iir.cpp" -o "$ref/iir/reference"
  sizes="64 4096"
else
  nvcc -std=c++20 -O3 -DNDEBUG -arch=native -I "$ref" -I "$ref/multirate" "$ref/multirate/reference_multirate_gpu.cu" \
    -o "$ref/multirate/reference"
  sizes="64 65536"
fi
projects=$(cd "$dir" && ls -d multirate_* iir_* 2>/dev/null || true)
for p in $projects; do  # all at once
  (cmake -S "$dir/$p" -B "$dir/$p/build" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build "$dir/$p/build" -j "$jobs" >/dev/null) &
done
wait

log=$out/rates.txt csv=$out/rates.csv
{
  echo "rates: generated programs against sequential loops of the same actors, $iterations iterations ($kind)"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  [[ $kind == gpu ]] && echo "gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "commit: $(cat "$dir/commit.txt" 2>/dev/null || echo unknown)"
} | tee "$log"
echo "program,n,strategy,period_ms,reference_ms,ratio" >"$csv"

# Each figure is the least of REPEAT runs (default 5): the machine may be shared.
repeat=${REPEAT:-5}
least() { python3 -c "import sys; print(f'{min(map(float, sys.argv[1:])):.6f}')" "$@"; }
# The generated program's period in ms (--stats-json: period_s).
period() {
  local app=$1 flags=$2 json all=()
  json=$(mktemp)
  for _ in $(seq "$repeat"); do
    "$app" --iterations "$iterations" --stats=period --stats-json "$json" $flags >/dev/null || { echo "FAIL: $app $flags" >&2; exit 1; }
    all+=("$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['period_s'] * 1e3)" "$json")")
  done
  rm -f "$json"
  least "${all[@]}"
}
reference() {
  local all=()
  for _ in $(seq "$repeat"); do all+=("$("$@" | sed -n 's/^reference: \([0-9.]*\) ms.*/\1/p')"); done
  least "${all[@]}"
}
row() {  # program n strategy generated reference
  local ratio
  ratio=$(python3 -c "print(f'{$4 / $5:.2f}')")
  printf '%-22s N=%-6s %-12s generated %12s ms  reference %12s ms  ratio %6s\n' "$1" "$2" "$3" "$4" "$5" "$ratio" | tee -a "$log"
  echo "$1,$2,$3,$4,$5,$ratio" >>"$csv"
}

declare -A got
for n in $sizes; do
  for variant in multirate multirate_block; do
    block=0
    [[ $variant == multirate_block ]] && block=1
    r=$(reference "$ref/multirate/reference" "$iterations" "$n" "$block")
    for strategy in overlap no-overlap; do
      flags=""
      [[ $strategy == no-overlap ]] && flags=--no-overlap
      g=$(period "$dir/${variant}_$n/build/app" "$flags")
      got["$variant $n $strategy"]=$g
      got["$variant $n reference"]=$r
      row "$variant" "$n" "$strategy" "$g" "$r"
    done
  done
  for strategy in overlap no-overlap reference; do
    python3 -c "
a, b = $(printf '%s' "${got[multirate $n $strategy]}"), $(printf '%s' "${got[multirate_block $n $strategy]}")
print(f'N=$n $strategy: the sum per firing (2 calls a cycle) against one call a cycle: {a:.6f} / {b:.6f} ms = {a / b:.3f}x')" |
      tee -a "$log"
  done
done
if [[ $kind == cpu ]]; then
  r=$(reference "$ref/iir/reference" "$iterations" 256)
  for strategy in overlap no-overlap; do
    flags=""
    [[ $strategy == no-overlap ]] && flags=--no-overlap
    row iir 256 "$strategy" "$(period "$dir/iir_256/build/app" "$flags")" "$r"
  done
fi
