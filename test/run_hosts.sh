#!/usr/bin/env bash
# Run tests of generated programs on several hosts, one MPI rank per host (ctest runs each case
# as its own test; CI has MPICH's mpiexec):
#   run_hosts.sh DFGC ROOT WORK CASE
# CASE:
#   cpu2        samples/overlap/two_hosts_cpu.dfg built with g++ -Wall -Wextra -Werror, run under
#               mpiexec -n 2 for 1,000 iterations with and without overlap, --sync=neighbours and
#               barrier (the consumer on host B checks every element of every token); --stats
#               (each table headed by its host, the transfer between them marked sender and
#               receiver), --trace and --stats-json (one file per host, the transfer between
#               them with its end) on both ranks, the traces joined by tools/merge-traces on one
#               time base (each transfer received after it was sent; a rank given twice refused); --profile: the link between the hosts only in the receiver's file, and `dfgc map` given the
#               two files in either order predicts the same; a permuted --hostmap; wrong rank counts (-n 3, -n 1)
#               and a bad --hostmap fail at once, with their message printed exactly once
#   cpu3        samples/overlap/three_hosts_cpu.dfg, a chain of three hosts (host B receives and
#               sends every cycle), mpiexec -n 3, the same four runs, DFG_HOSTMAP permuted, and
#               both strategies with the communication thread on one lane (DFG_MPI_LANES=1), and
#               --sync=barrier with the ranks meeting by MPI_Ibarrier (DFG_MPI_BARRIER=ibarrier) and
#               as on two nodes (DFG_MPI_NODE_RANKS=2)
#   cores       samples/fir_bank/two_hosts.dfg: two hosts of three CPU cores each (the filters on
#               the second and third cores, the first cores running MPI), mpiexec -n 2, 1,000
#               iterations of 1,024 samples with and without overlap, --sync=neighbours and
#               barrier, and with --pin-cpus: the sink on host B checks sampled outputs of every
#               iteration, and its checksum of all outputs equals the sequential reference's
#   iir         samples/iir/two_hosts_cpu.dfg (the filter and its self-loop on host B) and
#               loop_two_hosts_cpu.dfg (a loop across the hosts, 4 initial tokens, which cover its
#               4 cycles with overlap) built with g++ -Werror, mpiexec -n 2, both strategies and
#               sync modes, the checker on host A comparing every sample with its sequential
#               reference
#   peek        test/generated/peek_two_hosts.dfg (a window fed over the network, its node moving to
#               the other host with its history): mpiexec -n 2, both strategies and sync modes,
#               with and without the move, every output against the formula
#   multirate   samples/multirate/two_hosts_cpu.dfg (the two bands of the filter bank cross to
#               host B one block a cycle each) built with g++ -Werror, mpiexec -n 2, both
#               strategies and sync modes, the checker on host B comparing every sample
#   migration   samples/migration/two_hosts_{equal,longer,shorter}.dfg (the scaler moving between
#               the hosts: paths of equal length, a longer one with a gap, a shorter one padded) and
#               the shorter one again with --short-path=pause, built with g++ -Werror, mpiexec -n 2,
#               2,000 iterations with the move at launch (--migrate g:PE@700) and without, both
#               strategies and sync modes: the checker sees every iteration once, in order, equal
#               to the sequential reference; a bad --migrate is refused on every rank, exit 1, the
#               message printed exactly once; two_hosts_state.dfg (the running sum, whose state
#               moves with it, between the ranks): at launch in both strategies and sync modes,
#               and live (--migrate-control) back and forth, 19 moves, in both strategies and
#               sync modes, the sums equal to the unmigrated reference, malformed or impossible
#               lines refused once each; ranks started with different --migrate requests or
#               --migrate-control on one rank only stop at start-up, the message printed once
#   packets     samples/packets/two_hosts_cpu.dfg (run-length coded packets of a bounded type, each
#               crossing to host B as its used bytes, received at the capacity) built with g++
#               -Werror, mpiexec -n 2, both strategies and sync modes, the checker on host B
#               comparing every packet's length and bytes with the source's; and
#               test/hosts/packets_migrate_hosts.dfg (the encoder moving from A to B, the masked
#               packets then crossing into the alternative's own buffer) without a move and with
#               --migrate e:B.cpu@0 and @999; samples/receiver/two_hosts.dfg (lists of hits of a
#               bounded type crossing back to host A), both strategies and sync modes, its output
#               equal to one core's
#   abort       test/hosts/failing_hosts.dfg: the consumer on host B throws at iteration 17 of
#               a run of 10^8 iterations; the job ends within seconds, non-zero, the error with
#               rank and host printed once (with overlap, without, and with --sync=barrier, the
#               ranks meeting in shared memory and by MPI_Ibarrier: DFG_MPI_BARRIER=ibarrier);
#               with --trace, --stats-json and --profile, host B's files are written before
#               the job ends, marked incomplete, and host A's hold the reports marked unwritten
#               that its start-up wrote
#   flags       samples/overlap/two_hosts_cpu.dfg started with different --iterations,
#               --no-overlap or --sync on its two ranks (mpiexec's MPMD form): every rank stops
#               at start-up with exit status 1, the message printed exactly once, no hang;
#               --checkpoint and --restart refused the same way (checkpoints: one host only)
#   params      test/hosts/square_two_hosts.dfg (type Square = float[N * N], N a runtime param)
#               run with the same --set on both ranks; started with different --set values
#               (MPMD form), a size that overflows, --iterations INT64_MAX, an unknown --hostmap
#               host, --trace into a special file: every rank stops at start-up with exit
#               status 1 and the message printed exactly once
#   replicas    samples/overlap/two_hosts_replicas_cpu.dfg (both incrementers on both hosts,
#               iteration by iteration): copy 1's tokens cross to host B and back, run in both
#               strategies and sync modes, the consumer checking every token
#   gpu_build   samples/overlap/two_hosts.dfg (a GPU on each host) and two_hosts_gpudirect.dfg
#               (the same with a gpudirect link between the GPUs) built with nvcc and MPI,
#               warnings as errors; compile and link, then a run on this machine without GPUs
#               must stop at start-up with the GPU check's message; skipped without nvcc
set -euo pipefail
dfgc=$1 root=$2 work=$3 case=$4
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
work="$work/$case"
rm -rf "$work"
mkdir -p "$work"
cd "$root"
mpiexec=${MPIEXEC:-mpiexec}

fail() { echo "FAIL: $*" >&2; exit 1; }

build_spec() {  # build_spec SPEC DIR [DFGC ARGS...]: compile, build with g++, warnings as errors
  "$dfgc" compile "$1" -o "$2" "${@:3}"
  cmake -S "$2" -B "$2/build" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_FLAGS=-Werror \
    -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$2/build" -j 2
}

build_cpu() {  # build_cpu SPEC DIR: compile with N=64 and build
  build_spec "$1" "$2" -D N=64
}

run_all() {  # run_all NP APP: both strategies, both sync modes, 1,000 iterations
  local np=$1 app=$2
  for strategy in "" --no-overlap; do
    for sync in neighbours barrier; do
      echo "== mpiexec -n $np app --iterations 1000 $strategy --sync=$sync"
      timeout 120 "$mpiexec" -n "$np" "$app" --iterations 1000 $strategy --sync=$sync ||
        fail "run $strategy --sync=$sync"
    done
  done
}

# expect_failure NAME STATUS SECONDS LINE -- COMMAND...: the command exits with STATUS ("nonzero":
# any but 0) within SECONDS, and its output holds LINE exactly once.
expect_failure() {
  local name=$1 status=$2 seconds=$3 line=$4
  shift 5
  local start=$SECONDS rc=0
  timeout "$((seconds + 30))" "$@" >"$work/$name.txt" 2>&1 || rc=$?
  local took=$((SECONDS - start))
  cat "$work/$name.txt"
  if [[ $status == nonzero ]]; then
    [[ $rc != 0 && $rc != 124 ]] || fail "$name: exit $rc"
  else
    [[ $rc == "$status" ]] || fail "$name: exit $rc, expected $status"
  fi
  ((took <= seconds)) || fail "$name: took ${took}s"
  [[ $(grep -cxF -- "$line" "$work/$name.txt") == 1 ]] || fail "$name: '$line' not printed exactly once"
}

case $case in
  cores)
    g++ -std=c++20 -O2 -Wall -Wextra -Werror -I runtime/include samples/fir_bank/reference.cpp -o "$work/reference"
    want=$("$work/reference" 1000 1024)
    build_cpu samples/fir_bank/two_hosts.dfg "$work/gen"
    for flags in "" "--no-overlap" "--sync=barrier" "--no-overlap --sync=barrier" "--pin-cpus"; do
      echo "== mpiexec -n 2 app --iterations 1000 --set N=1024 $flags"
      timeout 120 "$mpiexec" -n 2 "$work/gen/build/app" --iterations 1000 --set N=1024 $flags >"$work/out.txt" ||
        { cat "$work/out.txt"; fail "run $flags"; }
      [[ $(grep -cxF "$want" "$work/out.txt") == 1 ]] ||
        fail "checksum: $(cat "$work/out.txt"), the reference: $want"
    done
    ;;
  replicas)
    build_cpu samples/overlap/two_hosts_replicas_cpu.dfg "$work/gen"
    grep -q "transfer p#1.m@A.cpu -> p#1.m@B.cpu" "$work/gen/schedule.txt" || fail "copy 1's token does not go to B"
    run_all 2 "$work/gen/build/app"
    ;;
  cpu2)
    build_cpu samples/overlap/two_hosts_cpu.dfg "$work/gen"
    app="$work/gen/build/app"
    run_all 2 "$app"
    "$mpiexec" -n 2 "$app" --iterations 200 --stats >"$work/stats.txt"
    cat "$work/stats.txt"
    [[ $(grep -c "^iteration period: [0-9.]* ms" "$work/stats.txt") == 2 ]] || fail "--stats: a period per rank"
    grep -q "^transfer  i1.b@A.cpu -> i1.b@B.cpu  A.cpu>B.cpu *200 " "$work/stats.txt" || fail "--stats: the net transfer"
    [[ $(grep -cx "host [AB]" "$work/stats.txt") == 2 ]] || fail "--stats: a table headed by its host per rank"
    [[ $(grep -c "^transfer  i1.b@A.cpu -> i1.b@B.cpu .* sender$" "$work/stats.txt") == 1 &&
       $(grep -c "^transfer  i1.b@A.cpu -> i1.b@B.cpu .* receiver$" "$work/stats.txt") == 1 ]] ||
      fail "--stats: the net transfer's two ends"
    "$mpiexec" -n 2 "$app" --iterations 200 --profile "$work/profile.json" || fail "--profile"
    python3 - "$work/profile.A.json" "$work/profile.B.json" <<'EOF' || fail "--profile on two hosts"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a["profile"]["host"] == "A" and b["profile"]["host"] == "B", (a["profile"], b["profile"])
assert "A.cpu -> B.cpu" not in a["links"], a["links"]  # the sender's time is not the link's
assert b["links"]["A.cpu -> B.cpu"]["bandwidth_GB_s"] > 0, b["links"]
EOF
    "$dfgc" map samples/overlap/two_hosts_cpu.dfg -D N=64 --costs "$work/profile.A.json" --costs "$work/profile.B.json" \
      --evaluate >"$work/map_ab.json" || fail "dfgc map --costs A B"
    "$dfgc" map samples/overlap/two_hosts_cpu.dfg -D N=64 --costs "$work/profile.B.json" --costs "$work/profile.A.json" \
      --evaluate >"$work/map_ba.json" || fail "dfgc map --costs B A"
    cmp "$work/map_ab.json" "$work/map_ba.json" || fail "dfgc map: the profiles' order changed the prediction"
    "$mpiexec" -n 2 "$app" --iterations 10 --trace "$work/trace.json"
    for h in A B; do
      python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/trace.$h.json" || fail "trace of host $h"
      # Each host's file names its own process: host A as pid 0, host B as pid 1.
      pid=0; [[ $h == A ]] || pid=1
      grep -qF "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":$pid,\"tid\":0,\"args\":{\"name\":\"host $h\"}}" \
        "$work/trace.$h.json" || fail "trace of host $h: $(head -1 "$work/trace.$h.json")"
    done
    # One time base: joined, each transfer from A to B is received after it was sent.
    tools/merge-traces "$work/trace.A.json" "$work/trace.B.json" -o "$work/trace.json" || fail "merge-traces"
    python3 - "$work/trace.json" <<'EOF' || fail "the merged trace"
import json, sys
events = json.load(open(sys.argv[1]))
assert {e["pid"] for e in events} == {0, 1}, "both ranks"
sent = {e["args"]["iteration"]: e for e in events if e.get("ph") == "X" and e["pid"] == 0 and e["cat"] == "transfer"}
got = {e["args"]["iteration"]: e for e in events if e.get("ph") == "X" and e["pid"] == 1 and e["cat"] == "transfer"}
assert sent and sorted(sent) == sorted(got), (sorted(sent), sorted(got))
# The receiver's end of iteration k cannot end before the sender's began (a skew of the barrier's
# exit, microseconds on one machine, is allowed).
late = [k for k in sent if got[k]["ts"] + got[k]["dur"] < sent[k]["ts"] - 100]
assert not late, [(k, sent[k], got[k]) for k in late]
EOF
    ! tools/merge-traces "$work/trace.A.json" "$work/trace.A.json" -o "$work/x.json" 2>"$work/err.txt" || fail "merged one rank twice"
    grep -q "process 0 is in" "$work/err.txt" || fail "merge-traces: $(cat "$work/err.txt")"
    "$mpiexec" -n 2 "$app" --iterations 200 --stats-json "$work/stats.json" || fail "--stats-json"
    [[ ! -e $work/stats.json ]] || fail "--stats-json wrote FILE itself on several hosts"
    for h in A B; do
      python3 - "$work/stats.$h.json" "$h" <<'EOF' || fail "--stats-json of host $h"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["host"] == sys.argv[2] and s["iterations"] == 200 and s["period_s"] > 0, s
assert all(e["pe"].startswith(sys.argv[2] + ".") for e in s["entries"] if e["kind"] == "firing"), s["entries"]
link = [e for e in s["entries"] if e["name"] == "i1.b@A.cpu -> i1.b@B.cpu"]
assert len(link) == 1 and link[0]["count"] == 200, s["entries"]
assert link[0]["end"] == {"A": "sender", "B": "receiver"}[sys.argv[2]], link
assert all("end" not in e for e in s["entries"] if e["kind"] != "transfer"), s["entries"]
EOF
    done
    "$mpiexec" -n 2 "$app" --iterations 1000 --hostmap A=1,B=0 || fail "--hostmap A=1,B=0"
    [[ $("$mpiexec" -n 2 "$app" --help | grep -c -- "--sync=barrier|neighbours") == 1 ]] || fail "--help once"
    expect_failure ranks3 1 20 "error: this program runs 2 hosts (A, B) and needs exactly 2 MPI ranks; mpirun started 3" \
      -- "$mpiexec" -n 3 "$app" --iterations 1000
    expect_failure ranks1 1 20 "error: this program runs 2 hosts (A, B) and needs exactly 2 MPI ranks; mpirun started 1" \
      -- "$mpiexec" -n 1 "$app" --iterations 1000
    expect_failure hostmap 1 20 "error: --hostmap: rank 1 is given to both A and B" \
      -- "$mpiexec" -n 2 "$app" --hostmap A=1,B=1
    expect_failure migrate 1 20 "error: --migrate: this program has no alternative mappings" \
      -- "$mpiexec" -n 2 "$app" --migrate i1:A.cpu@3
    ;;
  iir)
    for spec in two_hosts_cpu loop_two_hosts_cpu; do
      build_cpu "samples/iir/$spec.dfg" "$work/$spec"
      run_all 2 "$work/$spec/build/app"
    done
    ;;
  migration)
    for spec in equal longer shorter pause; do
      if [[ $spec == pause ]]; then
        "$dfgc" compile samples/migration/two_hosts_shorter.dfg -o "$work/$spec" --short-path=pause
        cmake -S "$work/$spec" -B "$work/$spec/build" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_FLAGS=-Werror \
          -DCMAKE_BUILD_TYPE=Release >/dev/null
        cmake --build "$work/$spec/build" -j 2
      else
        build_cpu "samples/migration/two_hosts_$spec.dfg" "$work/$spec"
      fi
      to=B.cpu
      [[ $spec == shorter || $spec == pause ]] && to=A.cpu
      for strategy in "" --no-overlap; do
        for sync in neighbours barrier; do
          for move in "" "--migrate g:$to@700"; do
            echo "== $spec: mpiexec -n 2 app --iterations 2000 $strategy --sync=$sync $move"
            timeout 120 "$mpiexec" -n 2 "$work/$spec/build/app" --iterations 2000 $strategy --sync=$sync $move \
              >"$work/out.txt" || { cat "$work/out.txt"; fail "run $spec $strategy $sync $move"; }
            grep -qx "check: 2000 iterations, each once and in order, equal to the sequential reference" \
              "$work/out.txt" || fail "$spec: no check line: $(tail -3 "$work/out.txt")"
          done
        done
      done
    done
    expect_failure bad_migrate 1 20 \
      "error: --migrate g:B.g0@5: B.g0 is not an alternative of node 'g' (its alternatives: B.cpu)" \
      -- "$mpiexec" -n 2 "$work/equal/build/app" --migrate g:B.g0@5
    # Ranks that would move at different iterations, or not all take part in live moves, stop at
    # start-up instead of waiting for each other for ever.
    app="$work/equal/build/app"
    : >"$work/empty_control"
    expect_failure migrate_one_rank 1 30 \
      "error: rank 1 (host B) was started with no --migrate, rank 0 (host A) with --migrate g:B.cpu@5; every rank needs the same --iterations, --no-overlap, --sync, --migrate and --migrate-control" \
      -- "$mpiexec" -n 1 "$app" --migrate g:B.cpu@5 : -n 1 "$app"
    expect_failure migrate_iterations 1 30 \
      "error: rank 1 (host B) was started with --migrate g:B.cpu@7, rank 0 (host A) with --migrate g:B.cpu@5; every rank needs the same --iterations, --no-overlap, --sync, --migrate and --migrate-control" \
      -- "$mpiexec" -n 1 "$app" --migrate g:B.cpu@5 : -n 1 "$app" --migrate g:B.cpu@7
    expect_failure migrate_control_one_rank 1 30 \
      "error: rank 1 (host B) was started without --migrate-control, rank 0 (host A) with it; every rank needs the same --iterations, --no-overlap, --sync, --migrate and --migrate-control" \
      -- "$mpiexec" -n 1 "$app" --migrate-control "$work/empty_control" : -n 1 "$app"
    # The running sum moves between the ranks with its state: at launch in every mode, and live,
    # back and forth, the ranks agreeing on each move's iteration.
    build_cpu samples/migration/two_hosts_state.dfg "$work/state"
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        for move in "" "--migrate a:A.cpu@700"; do
          echo "== state: mpiexec -n 2 app --iterations 2000 $strategy --sync=$sync $move"
          timeout 120 "$mpiexec" -n 2 "$work/state/build/app" --iterations 2000 $strategy --sync=$sync $move \
            >"$work/out.txt" || { cat "$work/out.txt"; fail "run state $strategy $sync $move"; }
          grep -qx "check: 2000 iterations, each once and in order, equal to the sequential reference" \
            "$work/out.txt" || fail "state: no check line: $(tail -3 "$work/out.txt")"
        done
      done
    done
    {
      for i in $(seq 1 19); do
        if ((i % 2)); then echo "a:A.cpu@$((i * 1000))"; else echo "a:B.cpu@$((i * 1000))"; fi
      done
      echo "bogus"
      echo "g:A.cpu"
      echo "a:A.cpu@@5"
    } >"$work/control"
    # The moves ask for iterations 1000 .. 19000; a run of 200,000 leaves room for the control
    # thread to be late on a loaded machine (a late move is applied at a later iteration).
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        echo "== state: mpiexec -n 2 app --iterations 200000 $strategy --sync=$sync --migrate-control control"
        timeout 120 "$mpiexec" -n 2 "$work/state/build/app" --iterations 200000 $strategy --sync=$sync \
          --migrate-control "$work/control" >"$work/out.txt" 2>"$work/err.txt" ||
          { cat "$work/out.txt" "$work/err.txt"; fail "live moves between the ranks $strategy $sync"; }
        grep -qx "check: 200000 iterations, each once and in order, equal to the sequential reference" \
          "$work/out.txt" || fail "live state $strategy $sync: no check line: $(tail -3 "$work/out.txt")"
        moved=$(grep -c "node moved from iteration" "$work/err.txt" || true)
        ((moved == 19)) || { cat "$work/err.txt"; fail "live state $strategy $sync: $moved moves, expected 19"; }
        for line in "migrate: bogus: refused: expected NODE:PE or NODE:PE@ITERATION, got 'bogus'" \
          "migrate: g:A.cpu: refused: no node 'g' has migration alternatives (those that do: a)" \
          "migrate: a:A.cpu@@5: refused: expected NODE:PE@ITERATION, got 'a:A.cpu@@5'"; do
          [[ $(grep -cxF "$line" "$work/err.txt") == 1 ]] || fail "live state: not once: $line"
        done
      done
    done
    ;;
  peek)
    build_spec test/generated/peek_two_hosts.dfg "$work/gen"
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        for move in "" "--migrate f:A.cpu@333"; do
          # shellcheck disable=SC2086
          timeout 120 "$mpiexec" -n 2 "$work/gen/build/app" --iterations 1000 $strategy --sync=$sync $move \
            >"$work/out.txt" || { cat "$work/out.txt"; fail "peek $strategy $sync $move"; }
          grep -qx "check: 1000 iterations, all equal" "$work/out.txt" ||
            fail "peek $strategy $sync $move: $(tail -3 "$work/out.txt")"
        done
      done
    done
    ;;
  multirate)
    build_cpu samples/multirate/two_hosts_cpu.dfg "$work/gen"
    run_all 2 "$work/gen/build/app"
    ;;
  cpu3)
    build_cpu samples/overlap/three_hosts_cpu.dfg "$work/gen"
    run_all 3 "$work/gen/build/app"
    DFG_HOSTMAP=C=0,A=1,B=2 "$mpiexec" -n 3 "$work/gen/build/app" --iterations 1000 || fail "DFG_HOSTMAP"
    for strategy in "" --no-overlap; do  # the communication thread on one lane (MPI_THREAD_SERIALIZED)
      DFG_MPI_LANES=1 timeout 120 "$mpiexec" -n 3 "$work/gen/build/app" --iterations 1000 $strategy ||
        fail "DFG_MPI_LANES=1 $strategy"
    done
    for barrier in "DFG_MPI_BARRIER=ibarrier" "DFG_MPI_NODE_RANKS=2"; do  # the ranks' barrier's other ways
      env "$barrier" timeout 120 "$mpiexec" -n 3 "$work/gen/build/app" --iterations 1000 --sync=barrier ||
        fail "$barrier --sync=barrier"
    done
    ;;
  packets)
    build_spec samples/packets/two_hosts_cpu.dfg "$work/gen"
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        "$mpiexec" -n 2 "$work/gen/build/app" --iterations 1000 $strategy --sync=$sync >"$work/out.txt" ||
          fail "packets $strategy --sync=$sync"
        grep -qx "packets checked: 1000, 128308 bytes" "$work/out.txt" || fail "packets: $(cat "$work/out.txt")"
      done
    done
    "$dfgc" compile test/hosts/packets_migrate_hosts.dfg -o "$work/migrate"
    cmake -S "$work/migrate" -B "$work/migrate/build" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_FLAGS=-Werror \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$work/migrate/build" -j 2
    for run in ":" ":e:B.cpu@0" "--no-overlap:e:B.cpu@0" "--sync=barrier:e:B.cpu@999"; do
      flags=${run%%:*} move=${run#*:}
      # shellcheck disable=SC2086
      timeout 120 "$mpiexec" -n 2 "$work/migrate/build/app" --iterations 1000 $flags \
        ${move:+--migrate $move} >"$work/out.txt" || fail "packets_migrate $flags $move"
      grep -qx "packets checked: 1000, 128308 bytes" "$work/out.txt" ||
        fail "packets_migrate $flags $move: $(cat "$work/out.txt")"
    done
    # samples/receiver on two hosts: the AGC's blocks cross to the channels on host B, the lists
    # of hits come back to the report on host A; it prints what one core prints.
    build_spec samples/receiver/one_core.dfg "$work/rx_one"
    "$work/rx_one/build/app" --iterations 1000 >"$work/rx.txt" || fail "receiver one_core"
    build_spec samples/receiver/two_hosts.dfg "$work/rx_hosts"
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        timeout 120 "$mpiexec" -n 2 "$work/rx_hosts/build/app" --iterations 1000 $strategy \
          --sync=$sync >"$work/out.txt" || fail "receiver two hosts $strategy --sync=$sync"
        cmp -s "$work/rx.txt" "$work/out.txt" ||
          fail "receiver two hosts $strategy --sync=$sync: not one core's output: $(tail -2 "$work/out.txt")"
      done
    done
    ;;
  abort)
    build_cpu test/hosts/failing_hosts.dfg "$work/gen"
    line="error: rank 1 (host B): node c (FailingConsumer) @ B.cpu, iteration 17: injected failure"
    for flags in "" --no-overlap --sync=barrier; do
      expect_failure "abort${flags}" nonzero 20 "$line" \
        -- env DFG_TEST_FAIL_AT=17 "$mpiexec" -n 2 "$work/gen/build/app" --iterations 100000000 $flags
    done
    expect_failure abort_ibarrier nonzero 20 "$line" \
      -- env DFG_TEST_FAIL_AT=17 DFG_MPI_BARRIER=ibarrier "$mpiexec" -n 2 "$work/gen/build/app" \
      --iterations 100000000 --sync=barrier
    # The failing rank writes its report files before the job ends: what it measured up to the
    # stop, marked incomplete.
    rm -f "$work"/r.*.json
    expect_failure abort_reports nonzero 20 "$line" \
      -- env DFG_TEST_FAIL_AT=17 "$mpiexec" -n 2 "$work/gen/build/app" --iterations 100000000 \
      --trace "$work/r.json" --stats-json "$work/s.json" --profile "$work/p.json"
    python3 - "$work" <<'PY' || fail "abort_reports: the failing rank's reports"
import json, sys
work = sys.argv[1]
trace = json.load(open(f"{work}/r.B.json"))
events = trace["traceEvents"] if isinstance(trace, dict) else trace
labels = [e["args"]["labels"] for e in events if e.get("name") == "process_labels"]
assert labels == ["run stopped on an error"], labels
assert json.load(open(f"{work}/s.B.json"))["complete"] is False
assert json.load(open(f"{work}/p.B.json"))["profile"]["complete"] is False
# Host A, ended by B's MPI_Abort, leaves the reports its start-up wrote: marked unwritten.
events = json.load(open(f"{work}/r.A.json"))
assert [e["args"]["labels"] for e in events] == ["run ended before its trace was written"]
assert json.load(open(f"{work}/s.A.json"))["complete"] is False
assert json.load(open(f"{work}/p.A.json"))["profile"]["complete"] is False
PY
    ;;
  flags)
    build_cpu samples/overlap/two_hosts_cpu.dfg "$work/gen"
    app="$work/gen/build/app"
    expect_failure iterations 1 30 \
      "error: rank 1 (host B) was started with --iterations 20, rank 0 (host A) with 10; every rank needs the same --iterations, --no-overlap, --sync, --migrate and --migrate-control" \
      -- "$mpiexec" -n 1 "$app" --iterations 10 : -n 1 "$app" --iterations 20
    expect_failure no_overlap 1 30 \
      "error: rank 1 (host B) was started with --no-overlap, rank 0 (host A) without it; every rank needs the same --iterations, --no-overlap, --sync, --migrate and --migrate-control" \
      -- "$mpiexec" -n 1 "$app" --iterations 10 : -n 1 "$app" --iterations 10 --no-overlap
    expect_failure sync 1 30 \
      "error: rank 1 (host A) was started with --sync=neighbours, rank 0 (host B) with --sync=barrier; every rank needs the same --iterations, --no-overlap, --sync, --migrate and --migrate-control" \
      -- "$mpiexec" -n 1 "$app" --sync=barrier --hostmap A=1,B=0 : -n 1 "$app" --hostmap A=1,B=0
    expect_failure checkpoint 1 30 \
      "error: --checkpoint: this program takes no checkpoints: it runs on 2 hosts, and checkpoints are taken on one host only" \
      -- "$mpiexec" -n 2 "$app" --iterations 10 --checkpoint "$work/ck"
    expect_failure restart 1 30 \
      "error: --restart: this program takes no checkpoints: it runs on 2 hosts, and checkpoints are taken on one host only" \
      -- "$mpiexec" -n 2 "$app" --iterations 10 --restart "$work/ck"
    expect_failure rebalance 1 30 \
      "error: --rebalance: it runs on 2 hosts, and the rebalancing policy moves nodes on one host only (move them with --migrate-control)" \
      -- "$mpiexec" -n 2 "$app" --iterations 10 --rebalance
    ;;
  params)
    build_cpu test/hosts/square_two_hosts.dfg "$work/gen"
    app="$work/gen/build/app"
    timeout 120 "$mpiexec" -n 2 "$app" --iterations 200 --set N=16 || fail "the same --set on both ranks"
    expect_failure set 1 30 \
      "error: rank 1 (host B) was started with N=128, rank 0 (host A) with N=256; every rank needs the same runtime params (--set, --params)" \
      -- "$mpiexec" -n 1 "$app" --set N=256 : -n 1 "$app" --set N=128
    expect_failure size 1 30 \
      "error: type Square = float[N * N] with N = 4294967296: the element count overflows a 64-bit integer" \
      -- "$mpiexec" -n 2 "$app" --set N=4294967296
    expect_failure iterations_max 1 30 \
      "error: --iterations: must be in [1, 4611686018427387904], got 9223372036854775807" \
      -- "$mpiexec" -n 2 "$app" --iterations 9223372036854775807
    expect_failure hostmap_unknown 1 30 "error: --hostmap: unknown host 'Z' (hosts: A, B)" \
      -- "$mpiexec" -n 2 "$app" --hostmap Z=9
    expect_failure trace_device 1 30 \
      "error: --trace /dev/full: not a regular file; on several hosts each host writes its own file, named FILE with the host's name before the extension" \
      -- "$mpiexec" -n 2 "$app" --iterations 10 --trace /dev/full
    [[ ! -e /dev/full.A && ! -e /dev/full.B ]] || fail "a per-host file beside /dev/full"
    ;;
  gpu_build)
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    if [[ ! -x $nvcc ]]; then echo "nvcc not found: skipped"; exit 77; fi
    for spec in two_hosts two_hosts_gpudirect; do
      gen="$work/$spec"
      "$dfgc" compile "samples/overlap/$spec.dfg" -o "$gen"
      cmake -S "$gen" -B "$gen/build" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CXX_COMPILER=g++ \
        -DCMAKE_CUDA_HOST_COMPILER=g++ -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CXX_FLAGS=-Werror \
        -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null
      cmake --build "$gen/build" -j 2
      [[ -x $gen/build/app ]] || fail "$spec: no executable"
      if ! nvidia-smi -L >/dev/null 2>&1; then
        expect_failure "no_gpu_$spec" 1 30 \
          "error: rank 0 (host A): A.g0 is CUDA device 0, but this machine has no CUDA device" \
          -- "$mpiexec" -n 2 "$gen/build/app" --iterations 10
      fi
    done
    ;;
  *) fail "unknown case '$case'" ;;
esac
echo "ok: $case"
