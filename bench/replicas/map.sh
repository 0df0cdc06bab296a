#!/usr/bin/env bash
# bench/replicas/map.sh: dfgc map chooses replica sets for the saliency pipeline over eight cores
# from a measured profile, and the periods it predicts are set against measured ones. Four steps,
# dfgc where its Clang libraries are, the programs on the machine that runs them:
#
#   map.sh profile-project DFGC OUT        # here: OUT/profile, each stage on a core (profile.dfg)
#   map.sh profile OUT                     # there: builds and runs it with --profile OUT/profile.json
#   map.sh projects DFGC OUT PROFILE       # here: dfgc map's choices and three hand mappings
#   map.sh run OUT RESULTS                 # there: builds and runs each REPS times, compares
#
# The mappings (OUT/specs/NAME.dfg, each compiled into OUT/NAME, with dfgc map --evaluate's
# figures in OUT/NAME.evaluate.json and its batch in OUT/NAME.batch):
#   period    choose.dfg as `dfgc map --apply` writes it for the shortest period
#   gabor4    the Gabor bank over A.c1..A.c4, the other stages on A.c0 (the choice for 1 to 4)
#   pipeline  profile.dfg: one stage a core
#   four      every stage over A.c1..A.c4 (samples/saliency/cores_replicas.dfg on eight cores)
#   core      everything on A.c0
# RESULTS/compare.csv: per mapping, the predicted and measured period of an iteration (the
# evaluation's cycle period over the batch; --stats=period's median) and the error.
# Knobs (environment): SIZE (180x144), ITERATIONS (168: a multiple of the batches, 4 and 7), REPS (3).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
size=${SIZE:-180x144}
w=${size%x*} h=${size#*x}
iterations=${ITERATIONS:-168}
reps=${REPS:-3}

build() {  # build PROJECT BUILD_DIR LOG
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >"$3" 2>&1
  cmake --build "$2" -j 8 >>"$3" 2>&1 || { tail -20 "$3"; return 1; }
}

# A spec beside OUT's others: choose.dfg or profile.dfg with the sample's import made absolute,
# and the placements of `app` replaced by those given (lines "node @ placement").
spec() {  # spec FROM TO [PLACEMENT...]
  local from=$1 to=$2
  shift 2
  sed "s|import \"../../../samples/saliency/|import \"$root/samples/saliency/|" "$here/map/$from" >"$to"
  for p in "$@"; do
    local node=${p%% @*}
    sed -i -E "s|^(  $node +@ ).*;|\\1${p#* @ };|" "$to"
  done
}

case ${1:-} in
  profile-project)
    dfgc=$2 out=$3
    rm -rf "$out" && mkdir -p "$out/specs"
    spec profile.dfg "$out/specs/profile.dfg"
    "$dfgc" compile "$out/specs/profile.dfg" -o "$out/profile"
    ;;
  profile)
    out=$2
    build "$out/profile" "$out/build/profile" "$out/build_profile.log"
    "$out/build/profile/app" --iterations 60 --set W="$w" --set H="$h" --set CHECK=0 \
      --profile "$out/profile.json" >"$out/profile_run.txt" 2>&1
    cat "$out/profile.json"
    ;;
  projects)
    dfgc=$2 out=$3 profile=$4
    mkdir -p "$out/specs"
    spec choose.dfg "$out/specs/period.dfg"
    "$dfgc" map "$out/specs/period.dfg" --costs "$profile" --apply >"$out/map_period.txt"
    spec choose.dfg "$out/specs/gabor4.dfg" "retina @ A.c0" "gabor @ {A.c1, A.c2, A.c3, A.c4}" \
      "inter @ A.c0" "norm @ A.c0"
    spec profile.dfg "$out/specs/pipeline.dfg"
    spec choose.dfg "$out/specs/four.dfg" "retina @ {A.c1, A.c2, A.c3, A.c4}" \
      "gabor @ {A.c1, A.c2, A.c3, A.c4}" "inter @ {A.c1, A.c2, A.c3, A.c4}" \
      "norm @ {A.c1, A.c2, A.c3, A.c4}"
    spec choose.dfg "$out/specs/core.dfg" "retina @ A.c0" "gabor @ A.c0" "inter @ A.c0" \
      "norm @ A.c0"
    for name in period gabor4 pipeline four core; do
      "$dfgc" compile "$out/specs/$name.dfg" -o "$out/$name"
      "$dfgc" map --evaluate --costs "$profile" "$out/specs/$name.dfg" >"$out/$name.evaluate.json"
      "$dfgc" dump-ir "$out/specs/$name.dfg" | sed -n 's/^batch \([0-9]*\):.*/\1/p' >"$out/$name.batch"
      [[ -s $out/$name.batch ]] || echo 1 >"$out/$name.batch"
    done
    grep "@" "$out/specs/period.dfg" | grep -v "^//"
    ;;
  run)
    out=$2 results=$3
    mkdir -p "$results"
    nproc >"$results/machine.txt"
    echo "mapping,rep,period_ms" >"$results/periods.csv"
    for name in period gabor4 pipeline four core; do
      build "$out/$name" "$results/build/$name" "$results/build_$name.log"
      for rep in $(seq 1 "$reps"); do
        "$results/build/$name/app" --iterations "$iterations" --set W="$w" --set H="$h" \
          --set CHECK=0 --stats=period >"$results/$name-$rep.txt" 2>&1 ||
          { cat "$results/$name-$rep.txt"; exit 1; }
        period=$(sed -n 's/^iteration period: \([0-9.]*\) ms.*/\1/p' "$results/$name-$rep.txt")
        echo "$name $rep: $period ms an iteration"
        echo "$name,$rep,$period" >>"$results/periods.csv"
      done
      # Every 7th map against the CPU reference: the display stops the program on a mismatch.
      "$results/build/$name/app" --iterations 84 --set W="$w" --set H="$h" --set CHECK=7 \
        >"$results/$name-check.txt" 2>&1 || { tail -5 "$results/$name-check.txt"; exit 1; }
    done
    python3 - "$out" "$results" <<'PY' | tee "$results/compare.txt"
import csv, json, statistics, sys
out, results = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(results + "/periods.csv")))
with open(results + "/compare.csv", "w") as f:
    f.write("mapping,batch,predicted_ms,measured_ms,error_percent\n")
    print(f"{'mapping':<10} {'batch':>5} {'predicted ms':>13} {'measured ms':>12} {'error':>8}")
    for name in ["period", "gabor4", "pipeline", "four", "core"]:
        batch = int(open(f"{out}/{name}.batch").read())
        predicted = json.load(open(f"{out}/{name}.evaluate.json"))["overlap"]["period_ms"] / batch
        measured = statistics.median(float(r["period_ms"]) for r in rows if r["mapping"] == name)
        error = 100 * (predicted / measured - 1)
        f.write(f"{name},{batch},{predicted:.3f},{measured:.3f},{error:.1f}\n")
        print(f"{name:<10} {batch:>5} {predicted:>13.3f} {measured:>12.3f} {error:>+7.1f}%")
PY
    ;;
  *)
    sed -n '2,22p' "$0"
    exit 2
    ;;
esac
