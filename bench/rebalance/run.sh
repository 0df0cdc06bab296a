#!/bin/bash
# --rebalance against a real load (docs/language.md, "Switching while the stream runs"):
#
#     bench/rebalance/run.sh generate DIR [DFGC]   # here: bench/rebalance/rebalance.dfg's two apps
#     bench/rebalance/run.sh run DIR OUT           # on the lent machine
#
# Each app runs on cores 0-2 (taskset, --pin-cpus: A.c0, A.c1, A.c2 on cores 0, 1, 2) for about
# 16 s, with and without --rebalance. From 4 s to 10 s another process takes the node's PE: a busy
# loop pinned to core 1 (cores: the node on A.c1, its alternative A.c2 shared with the sink), or
# matrix products on the GPU (gpu: the node on A.g0, its alternative the idle core A.c1). Every
# iteration is checked; the sink records when each arrived. Prints the median period (ms an
# iteration, over 100 ms windows) before, during and after the load, and the worst window during
# and after it; log.txt, each run's stderr (the policy's lines) and times under OUT. APPS="cores"
# (or "gpu") runs one app only.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
case ${1:-} in
  generate)
    dir=${2:?usage: run.sh generate DIR [DFGC]}
    dfgc=${3:-$root/build/release/bin/dfgc}
    rm -rf "$dir" && mkdir -p "$dir"
    for app in cores gpu; do
      "$dfgc" compile "$here/rebalance.dfg" --app="$app" -o "$dir/$app" || exit 1
    done
    exit 0
    ;;
  run) ;;
  *)
    echo "usage: run.sh generate DIR [DFGC] | run.sh run DIR OUT" >&2
    exit 2
    ;;
esac
dir=${2:?usage: run.sh run DIR OUT} out=${3:?usage: run.sh run DIR OUT}
# shellcheck source=bench/gpu_project.sh
. "$here/../gpu_project.sh"
start_results "$dir" "$out" "run.sh run DIR OUT"
fails=0
for app in cores gpu; do
  build_gpu_project "$dir/$app" >/dev/null || { echo "FAIL: build $app"; fails=1; }
done
now() { date +%s.%N; }
# run APP POLICY HOG...: one run with the load HOG (given a file to create once it runs) from
# 4 s on for 6 s.
run() {
  local app=$1 policy=$2
  shift 2
  local bin=$dir/$app/build/app name=${app}_$policy
  # About 16 s: the iterations of 16 s at the unloaded rate of a short run.
  local rate
  rate=$(taskset -c 0-2 "$bin" --pin-cpus --iterations 3000 --stats=period 2>&1 |
    sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p')
  local iterations
  iterations=$(python3 -c "print(int(16 * float('${rate:-1000}')))")
  local flags=(--pin-cpus --iterations "$iterations")
  [ "$policy" = policy ] && flags+=(--rebalance)
  REBALANCE_TIMES=$out/$name.times taskset -c 0-2 "$bin" "${flags[@]}" >"$out/$name.out" 2>"$out/$name.err" &
  local pid=$!
  sleep 4
  rm -f "$out/ready"
  "$@" "$out/ready" &
  local hog=$!
  for _ in $(seq 300); do
    [ -e "$out/ready" ] && break
    sleep 0.05
  done
  echo "load_on $(now)" >"$out/$name.events"
  sleep 6
  kill "$hog"
  wait "$hog" 2>/dev/null
  echo "load_off $(now)" >>"$out/$name.events"
  wait $pid || { echo "FAIL: $name exited $?: $(tail -2 "$out/$name.err")"; fails=1; }
  grep -qx "check: $iterations iterations, all equal" "$out/$name.out" ||
    { echo "FAIL: $name: $(tail -2 "$out/$name.out")"; fails=1; }
  python3 "$here/phases.py" "$out/$name.times" "$out/$name.events" "$name" || fails=1
}
printf "%-22s %9s %9s %9s %12s %11s\n" run "before ms" "during" "after" "worst during" "worst after"
apps=${APPS:-cores gpu}
for policy in policy none; do
  [[ $apps == *cores* ]] && run cores "$policy" taskset -c 1 python3 "$here/cpu_hog.py"
done
for policy in policy none; do
  [[ $apps == *gpu* ]] && run gpu "$policy" taskset -c 3 python3 "$here/gpu_hog.py"
done
for name in cores_policy gpu_policy; do
  [ -e "$out/$name.err" ] || continue
  echo "== $name: the policy's lines"
  cat "$out/$name.err"
done
echo "fails=$fails"
