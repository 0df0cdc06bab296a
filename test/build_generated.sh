#!/usr/bin/env bash
# Build tests of generated projects (ctest runs each case as its own test):
#   build_generated.sh DFGC ROOT WORK CASE [MAPPING]
# CASE:
#   cpu_run      compile samples/overlap/cpu_only.dfg, build it with g++ -Wall -Wextra -Werror,
#                run 1,000 iterations with and without overlap, with --sync=neighbours and
#                barrier (the consumer checks every element of every token), --stats, --trace;
#                --profile in both strategies: the costs file parses, names every node, and
#                `dfgc map --costs` accepts it and predicts for the profiled mapping what the
#                profile measured (period = the model's load + the measured overhead);
#                --stats-json in both strategies (the JSON parses, names the run's settings and
#                times every firing) and with --stats=period (no entries); a --stats-json path
#                that cannot be written is refused at start-up; --checkpoint refused (no state)
#   cpu_tsan     the same, built and run with ThreadSanitizer
#   fir_bank     samples/fir_bank: one_core.dfg and cores.dfg (ten CPU cores of one host, each its
#                own thread, the filters reading the source's block in place) built with g++
#                -Wall -Wextra -Werror, run 1,000 iterations of 1,024 samples with and without
#                overlap, --sync=neighbours and barrier, and with --pin-cpus: the sink checks
#                sampled outputs of every iteration, and every run's checksum of all outputs equals
#                the sequential reference's (samples/fir_bank/reference.cpp)
#   fir_bank_tsan  cores.dfg built and run with ThreadSanitizer, both strategies and sync modes
#   iir_run      samples/iir/cpu_only.dfg (an IIR filter whose state comes back through a
#                self-loop with an initial token) built with g++ -Wall -Wextra -Werror, run 2,000
#                iterations with and without overlap, both sync modes, the checker comparing
#                every sample with its sequential reference; also under ThreadSanitizer; the same
#                spec with an initial value the checker does not expect must fail at iteration 0;
#                the same with `delay 3` (read in place from 4 slots) in both strategies and modes;
#                samples/iir/state_method.dfg (the filter's member function fills the initial
#                token) run in both strategies, and with another value must fail likewise
#   replicas_run samples/overlap/cores_replicas.dfg (both incrementers on two cores, iteration by
#                iteration) and samples/iir/replicas.dfg (a source on two cores weighted 2:1 beside
#                a filter's state loop and a checker that recomputes the filter in order) built
#                with g++ -Wall -Wextra -Werror, run 2,000 iterations with and without overlap, both
#                sync modes, every output checked against the sequential computation; each under
#                ThreadSanitizer in both strategies; dump-ir lists the copies; --iterations that
#                is not a multiple of the cycle's iterations is refused
#   multirate_run samples/multirate/cpu_only.dfg (decimate by 2, a 2-band filter bank, interpolate
#                back; rates make the source, the sum and the checker fire twice per iteration,
#                the source and the sum one call per firing, the checker one call a cycle)
#                built with g++ -Wall -Wextra -Werror, run 2,000 iterations with and without
#                overlap, both sync modes, the checker comparing every sample with its sequential
#                reference; a decimator that keeps the other samples must fail at iteration 0, and
#                so must a source that ignores ctx.firing() (its second frame)
#   migration    samples/migration/cores.dfg (a source, a scaler, a running sum with save/restore and
#                a checker on four CPU cores) built with g++ -Wall -Wextra -Werror, and again with
#                --short-path=pause: run 2,000 iterations with each launch move (--migrate) of the
#                three kinds (an equal path, a shorter one padded or paused, the running sum with
#                its state), both strategies, both sync modes: the checker sees every iteration
#                once, in order, equal to the sequential reference, and the moved node fires on
#                each PE as often as the move says (--stats); a live run moved back and forth
#                through --migrate-control (a FIFO), with its refusals; the per-iteration output
#                intervals written (DFG_INTERVALS); neighbours' moves composed (their joint
#                alternative) at launch and live, two moves in one line; every bad --migrate
#                refused with exit 1, one line naming the flag, nothing run
#   migration_tsan the live back-and-forth run built and run with ThreadSanitizer, and a run
#                with --rebalance
#   rebalance_run test/generated/rebalance.dfg (a node on a core that a simulated load takes
#                from iteration 2000 to 3999, an alternative on a core it would share) built with
#                g++ -Werror, run with --rebalance in both strategies: every
#                iteration checked, the node moved off its core once the load began, for a
#                reason the policy prints, and back at the end; nothing moves without the flag;
#                --rebalance refused where no node has alternatives
#   migration_gpu_build samples/migration/one_gpu.dfg (the scaler moving between a GPU and a CPU
#                core) built with nvcc, warnings as errors; skipped without nvcc
#   checkpoint_run test/generated/checkpoint_cores.dfg (state in a running sum, in a loop's
#                delayed tokens and in a sink's output file) built with g++ -Wall -Wextra -Werror:
#                the sink's finish() runs after a run that completed, not after one it stopped
#                with an error, and an error in finish() fails the run;
#                runs with --checkpoint killed (SIGKILL) at random times and restarted with
#                --restart, killed again, in both strategies and sync modes and across a move:
#                the output file equals the uninterrupted run's; a checkpoint every iteration;
#                flipped, truncated, foreign, multi-host and past-the-end checkpoints, checkpoint
#                paths that cannot be written, a move before the restart, a checkpoint of another
#                mapping and of another version of the application: each refused with one line,
#                the output untouched
#   stream_end_run test/generated/stream_end_cores.dfg (a reader that ends the stream, a second
#                source that never does, two stages and a checking sink on three cores) built with
#                g++ -Werror: ends at iterations 0, 1, 7 and 250, after and before the iteration
#                (test/stream_end_runs.sh), in both strategies and sync modes and with moves
#                before and after the end: every run exits 0, the sink's finish() says it checked
#                exactly the iterations up to the end, the program reports the end; an end past
#                --iterations changes nothing; an actor without `ends stream;` that ends is
#                refused; --stats under --iterations 2^62; a checkpointed run that ends and its
#                restart; stream_end_batch.dfg (4 iterations a cycle) runs its batch out
#   stream_end_tsan the same ends built and run with ThreadSanitizer, both strategies and modes
#   peek_run     test/generated/peek_cores.dfg (a source, a decimating filter whose window of 11
#                tokens holds 7 of history, more than its block, called once a cycle, a filter
#                whose window of 3 holds 1, less than its block, each fed from another core, and a
#                sink that recomputes the stream with the histories' first values) built with g++
#                -Werror and run in both strategies and sync modes, with moves of either filter to
#                the other's core (its history with it), and with a --iterations that ends within a
#                window's history: every output equal; test/generated/rates_param.dfg (one
#                decimator actor at three rates and windows its nodes' params give, in a
#                composite's loop) in both strategies and with a move; samples/decimate/cores.dfg
#                against its reference; a checkpointed run and its restart in both strategies
#                and sync modes (a checkpoint holds each window's history);
#                test/generated/token_delay.dfg (delays in tokens: a block and 2 tokens, and 1
#                token, each fed from another core) in both strategies, across a move and a
#                restart, every token against the formula; test/generated/port_groups.dfg (a
#                split and a join over port groups of 3 and 2 ports, one composite) in both
#                strategies and with a move; test/generated/complex.dfg (cfloat
#                tokens through a stateful mixer that moves, a delayed edge), every sample
#   streamit_run StreamIt's FilterBank (samples/streamit/filterbank) on one core and eight against
#                StreamIt's output file; StreamIt's BeamFormer (samples/streamit/beamformer) on
#                one core and eight, equal to each other and within 2e-6 of StreamIt's file;
#                StreamIt's FMRadio (samples/streamit/fmradio) on eight cores from StreamIt's
#                first output, within two units in the last place of StreamIt's file
#   packets_run  samples/packets/cpu_only.dfg (tokens of a bounded type whose length changes every
#                iteration: packets of 0 to 256 bytes, masked, run-length coded, decoded) built
#                with g++ -Wall -Wextra -Werror, run 1,000 iterations with and without overlap,
#                both sync modes, the checker comparing every length and byte with the source's;
#                also under ThreadSanitizer; with -D OVER=5 the source asks for 257 bytes in
#                iteration 5: the run must stop there with the node, the iteration and the
#                capacity; a decoder that drops a byte must fail at the first packet it shortens;
#                samples/receiver on one core and on four (lists of hits of a bounded type through
#                delay lines, a filter moving), both strategies and sync modes: every run prints
#                what one core prints, and its report finds every burst as planted
#   dyn_fir_run  samples/dyn_fir: one_core.dfg (the FIR of 11 dynamic actors as one island between
#                a static source and sink), two_cores.dfg (the island on a second core) and
#                split_cores.dfg (islands on two cores joined by fifo edges, bounded tokens) built
#                with g++ -Wall -Wextra -Werror, run 1,000 iterations in both strategies and sync
#                modes, the sink comparing every sample with the sequential FIR; both under
#                ThreadSanitizer; parallel_core.dfg and parallel_split.dfg (the actors as parallel
#                actions, the delays as rings' initial elements, one crossing between the cores)
#                run the same way, not under ThreadSanitizer; test/generated/ring_delay.dfg (a
#                running sum and a difference through cycles of rings with initial elements, of
#                computed capacity) run both strategies, every sample checked; with -D BAD=5 (the shift drops a sample) the run stops with the
#                island's error naming the output and iteration 5
#   dyn_idct_run samples/dyn_idct (an 8x8 IDCT decoder of dynamic actors: a run-length parser of
#                data-dependent rate, a row and a column pass on whole blocks) built with g++ -Wall
#                -Wextra -Werror, run 500 iterations of 4 blocks in both strategies, the sink
#                comparing every pixel with the same transforms run sequentially (and the IDCT
#                alone, idct_core.dfg, fed coefficients instead of codes); also under
#                ThreadSanitizer; the passes as parallel actions fired in batches on the core
#                (idct_parallel_core.dfg), 4 and 3 blocks an iteration
#   island_bounded_run test/generated/island_bounded.dfg (tokens of a bounded type into and out
#                of an island: 0 to 16 elements in, twice as many out) built with g++ -Wall -Wextra
#                -Werror, run 1,000 iterations in both strategies, the sink checking every length
#                and element; with -D OVER=15 the island gives 45 elements for a token of 32 at
#                most in iteration 15: the run stops there with the node, the port and the capacity
#   packets_migrate_run test/generated/packets_migrate.dfg (samples/packets' bounded tokens, the
#                mask moving between two cores: the alternative's own buffer keeps its length
#                cells) built with g++ -Wall -Wextra -Werror -fsanitize=address,undefined, run
#                1,000 iterations without a move and with a move (--migrate m:A.c1@0, @500, @999)
#                in both strategies and sync modes, the checker comparing every length and byte
#   jpeg_run     samples/jpeg (a baseline JPEG decoder of five dynamic actors in an island): its
#                make_images encodes seven images of odd sizes with libjpeg (4:2:0, 4:2:2, 4:4:4,
#                grey, restart markers, optimised tables) and writes libjpeg's decode of each;
#                one_core.dfg built with g++ -Wall -Wextra -Werror decodes each ten times in both
#                strategies and sync modes, the sink comparing every pixel with libjpeg's (exact);
#                cpu_pixels.dfg (the IDCT, upsampling and colour as one static actor on a second
#                core, the island's records padded into a token) in both strategies; a
#                truncated file stops the run in its iteration with the island's node (no image);
#                a decoder whose upsampling repeats chroma rows (not libjpeg's) fails at the first
#                pixel it changes
#   jpeg_tsan    samples/jpeg/two_cores.dfg (the island on its own core) built and run with
#                ThreadSanitizer in both strategies, every pixel compared
#   dyn_idct_gpu_build samples/dyn_idct/one_gpu.dfg (the decoder's island on a GPU: its generated
#                  dfg_islands/island_parse.cuh and the actors' .cuh) built with nvcc
#   dyn_idct_parallel_gpu_build samples/dyn_idct/parallel_gpu.dfg (the two IDCT passes as
#                  parallel actions, a block of 32 threads each) built with nvcc, warnings as errors
#   dyn_fir_gpu_build samples/dyn_fir/one_gpu.dfg (the FIR network's island on a GPU) and
#                parallel_gpu.dfg (its actors as parallel actions, rings with initial elements)
#                built with nvcc
#   dyn_fir_mixed_gpu_build
#                samples/dyn_fir/m2.dfg, m6.dfg (the paper's mappings: islands on the CPU and on
#                the GPU joined by rings in mapped memory) and parallel_m2.dfg (m2 of parallel
#                actions, a mapped ring with an initial element) built with nvcc, warnings as
#                errors (m3's generated tree is a golden file)
#   jpeg_gpu_build samples/jpeg/one_gpu.dfg (the IDCT, upsampling and colour on a GPU) built with
#                nvcc, warnings as errors; skipped without nvcc
#   packets_gpu_build samples/packets/one_gpu.dfg (the mask on a GPU: the used bytes to it and
#                back) built with nvcc, warnings as errors; skipped without nvcc
#   graph_cycles_gpu_build test/generated/graph_cycles.dfg (a stream on one GPU, source to sink,
#                no neighbours): the plan lets one CUDA graph hold 8 cycles and the worker asks for
#                them (items.graphs(1, 8)); its sink, which checks every block on the GPU, reports
#                in finish() (called though the GPU never fires on the host after its capture);
#                built with nvcc, warnings as errors; skipped without nvcc (the runs:
#                bench/overlap/graph_cycles_run.sh on a GPU)
#   stream_end_gpu_build test/generated/stream_end_gpu.dfg (the reader on a CPU ends the stream of
#                a GPU whose cycles run as CUDA graphs) built with nvcc, warnings as errors
#   peek_gpu_build test/generated/peek_gpu.dfg (both filters on a GPU, their windows in its memory,
#                its cycles CUDA graphs of two phases), structs.dfg's structs_gpu (struct tokens
#                through a kernel) and port_groups.dfg's port_groups_gpu (a
#                split and a join over port groups on a GPU) built with nvcc, warnings as
#                errors; skipped without nvcc (the runs: bench/peek/gpu_run.sh on a GPU)
#   iir_gpu_build samples/iir/one_gpu.dfg (the filter and its self-loop on a GPU) built with
#                nvcc, warnings as errors; skipped without nvcc
#   multirate_gpu_build samples/multirate/one_gpu.dfg (decimation, the bank, interpolation and the
#                sum on a GPU, the sum one launch a firing) built with nvcc, warnings as errors;
#                skipped without nvcc
#   gpu_build    compile samples/overlap/MAPPING.dfg (one_gpu, two_gpus, gpu_cores: a GPU and three
#                CPU cores) and build it with nvcc (host compiler
#                warnings as errors); compile and link only (CI has no GPU); skipped without nvcc
#   granulometry_gpu_build
#                the same for samples/granulometry/granulometry.dfg (the packed openings), and
#                bench/granulometry/packed_check.cu built by nvcc with warnings as errors
#   saliency_cpu compile samples/saliency/cpu_only.dfg, build it with g++ -Werror, run it at
#                64x48 and 63x47 (odd sizes: the half spectrum of an odd width) in both strategies
#                with --set CHECK=1: the display compares every saliency map with the CPU
#                reference of the whole pipeline (samples/saliency/actors/model.hpp) and the run
#                fails outside the tolerance; every map must have been compared
#   saliency_gpu_build
#                compile samples/saliency/one_gpu.dfg and two_gpus.dfg (cuFFT: CUDA::cufft
#                linked from `uses cufft`) and build them with nvcc, warnings as errors
#   determinism  two compiles give byte-identical trees, also from another working directory,
#                with the spec named by another path, into a directory at another depth; a second
#                compile into the same directory (from another working directory) changes nothing;
#                no path of the build machine in the project
#   movable      compile samples/overlap/cpu_only.dfg, move the project to another directory at
#                another depth, build it there with g++ -Werror and run it
#   refusals     -o into a foreign non-empty directory, a spec with an
#                error: exit 1, nothing written
#   runtime_params  test/generated/square_one_host.dfg (type Square = float[N * N], N a runtime
#                param) built with g++ -Werror and run with valid --set and --params; every bad
#                start is refused at once with exit 1 and one line on stderr: sizes that are 0 or
#                overflow (--set N=0, 4294967296, 4611686018427387905, 3037000499), values out of
#                bounds or not integers, --iterations INT64_MAX, --params of a directory or a
#                device, an unknown --hostmap host, --trace and --profile paths that cannot be
#                written (before a run of 10^11 iterations); --stats and --help into /dev/full
#                exit 1
#   actor_headers two actors whose headers have the same file name (filter.hpp) in two
#                directories, one named with a space, ';' and ')', each including a header above
#                its directory ('../../common/one.hpp'), one <local.hpp> from its own directory
#                (an include directory, as for dfgc's Clang): all copied under actors/ and listed in
#                the manifest; built with g++ -Werror with the originals moved away, and run
#                (each actor adds one; the consumer checks); a recompile after the include is
#                dropped removes the copy of one.hpp
#   hostile_names a spec whose names are legal but meet the generated code's own: nodes run, p,
#                p_elements, p_ctx, params, main, app, dfg, std, storage, c, j; params std, dfg,
#                runtime params params and Params; params named like the macros of the headers
#                the program includes (M_PI, CUDART_VERSION, FD_SETSIZE, SCHED_OTHER); actor
#                classes Run, Worker, Params; host app;
#                ports in, params, main: built with g++ -Werror and run, --set checked; GPU
#                nodes compute, probes, h2d, peer built with nvcc where there is one
set -euo pipefail
dfgc=$1 root=$2 work=$3 case=$4 mapping=${5:-}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
work="$work/$case${mapping:+_$mapping}"
rm -rf "$work"
mkdir -p "$work"
cd "$root"

fail() { echo "FAIL: $*" >&2; exit 1; }

compile() {  # compile SPEC OUT [dfgc args...]
  local spec=$1 out=$2
  shift 2
  "$dfgc" compile "$spec" -o "$out" "$@"
}

find_nvcc() {  # sets nvcc, or skips the case
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if [[ ! -x $nvcc ]]; then echo "nvcc not found: skipped"; exit 77; fi
}

build_gpu() {  # build_gpu DIR: a generated GPU project, nvcc, warnings as errors
  local dir=$1
  cmake -S "$dir" -B "$dir/build" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CXX_COMPILER=g++ \
    -DCMAKE_CUDA_HOST_COMPILER=g++ -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CXX_FLAGS=-Werror \
    -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null
  cmake --build "$dir/build" -j 2
  [[ -x $dir/build/app ]] || fail "no executable"
}

run_all() {  # run_all APP: both strategies, both sync modes
  local app=$1
  for strategy in "" --no-overlap; do
    for sync in neighbours barrier; do
      echo "== app --iterations 1000 $strategy --sync=$sync"
      "$app" --iterations 1000 $strategy --sync=$sync || fail "run $strategy --sync=$sync"
    done
  done
  "$app" --iterations 200 --stats | tee "$work/stats.txt"
  grep -q "^iteration period: [0-9.]* ms" "$work/stats.txt" || fail "--stats printed no period"
  grep -q "^firing " "$work/stats.txt" || fail "--stats printed no firing times"
  "$app" --iterations 200 --stats=period | tee "$work/period.txt"
  grep -q "^iteration period: [0-9.]* ms" "$work/period.txt" || fail "--stats=period printed no period"
  if grep -q "^firing " "$work/period.txt"; then fail "--stats=period timed the firings"; fi
  "$app" --iterations 10 --trace "$work/trace.json"
  python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/trace.json" || fail "bad trace"
  "$app" --help | grep -q -- "--sync=barrier|neighbours" || fail "--help"
  if "$app" --migrate i1:A.cpu@3 2>"$work/migrate.txt"; then fail "--migrate accepted"; fi
  grep -q "no alternative mappings" "$work/migrate.txt" || fail "--migrate message"
}

check_stats_json() {  # check_stats_json APP NODE...: --stats-json in both strategies, --stats=period, a bad path
  local app=$1
  shift
  "$app" --iterations 200 --no-overlap --sync=barrier --stats-json "$work/stats-no-overlap.json" \
    >"$work/stats-json-run.txt" || fail "--stats-json --no-overlap"
  [[ ! -s $work/stats-json-run.txt ]] || fail "--stats-json printed: $(head -3 "$work/stats-json-run.txt")"
  "$app" --iterations 200 --stats-json "$work/stats-overlap.json" >/dev/null || fail "--stats-json"
  "$app" --iterations 200 --stats=period --stats-json "$work/stats-period.json" | grep -q "^iteration period: " ||
    fail "--stats=period --stats-json printed no period"
  python3 - "$work" "$@" <<'EOF' || fail "--stats-json: see above"
import json, sys
work, nodes = sys.argv[1], sys.argv[2:]
for strategy, sync in (("no-overlap", "barrier"), ("overlap", "neighbours")):
    s = json.load(open(f"{work}/stats-{strategy}.json"))
    assert s["format"] == "dfg-stats" and s["version"] == 1, s
    assert (s["strategy"], s["sync"], s["host"], s["iterations"]) == (strategy, sync, "A", 200), s
    assert s["period_s"] > 0 and s["iterations_per_s"] > 0 and s["periods"] > 100, s
    firings = {e["name"].split(" ")[0]: e for e in s["entries"] if e["kind"] == "firing"}
    assert sorted(firings) == sorted(nodes), firings
    for e in s["entries"]:
        assert e["count"] > 0 and 0 <= e["min_s"] <= e["median_s"] <= e["max_s"], e
        assert e["min_s"] <= e["mean_s"] <= e["max_s"], e
    print(f"--stats-json {strategy}: period {s['period_s'] * 1e3:.3f} ms, {len(s['entries'])} entries")
period = json.load(open(f"{work}/stats-period.json"))
assert period["entries"] == [] and period["period_s"] > 0, period
EOF
  if "$app" --iterations 100000000000 --stats-json /nonexistent/dir/s.json 2>"$work/stats-json-bad.txt"; then
    fail "--stats-json into a missing directory accepted"
  fi
  grep -q "^error: --stats-json /nonexistent/dir/s.json: cannot open for writing" "$work/stats-json-bad.txt" ||
    fail "--stats-json bad path: $(cat "$work/stats-json-bad.txt")"
}

check_profile() {  # check_profile APP SPEC [dfgc args]: --profile, read back by dfgc map
  local app=$1 spec=$2
  shift 2
  for strategy in overlap no-overlap; do
    local profile="$work/profile-$strategy.json" flag=""
    [[ $strategy == no-overlap ]] && flag=--no-overlap
    "$app" --iterations 200 $flag --profile "$profile" >"$work/profile-run.txt" || fail "--profile $flag"
    [[ ! -s $work/profile-run.txt ]] || fail "--profile printed: $(head -3 "$work/profile-run.txt")"
    cat "$profile"
    "$dfgc" map "$spec" "$@" --costs "$profile" >"$work/map.txt" || fail "dfgc map rejected the profile"
    grep -q "^predicted:" "$work/map.txt" || fail "dfgc map predicted nothing"
    "$dfgc" map "$spec" "$@" --costs "$profile" --evaluate >"$work/evaluate.json" || fail "dfgc map --evaluate"
    python3 - "$profile" "$work/evaluate.json" "$strategy" p i1 i2 c <<'EOF' || fail "profile $strategy: see above"
import json, sys
profile, evaluation = (json.load(open(f)) for f in sys.argv[1:3])
strategy, nodes = sys.argv[3], sys.argv[4:]
assert sorted(profile["nodes"]) == sorted(nodes), profile["nodes"]
for n in nodes:
    assert profile["nodes"][n]["A.cpu"]["ms"] > 0, n
assert profile["links"] == {}, "a CPU-only run has no link"
run = profile["profile"]
assert run["strategy"] == strategy and run["iterations"] == 200, run
overhead = profile["cycle_overhead_ms"][strategy]
assert overhead >= 0 and list(profile["cycle_overhead_ms"]) == [strategy]
# The model applied to the profile gives back the measured period (or its load, if larger).
predicted = evaluation[strategy]["period_ms"]
expected = max(run["period_ms"], run["model_ms"])
assert abs(predicted - expected) <= 1e-4 * expected + 1e-6, (predicted, expected)
print(f"profile {strategy}: period {run['period_ms']} ms, model {run['model_ms']} ms, "
      f"overhead {overhead} ms; dfgc map predicts {predicted} ms")
EOF
  done
  "$app" --iterations 50 --stats=period --profile "$work/profile.json" | tee "$work/period.txt"
  if grep -q "^firing " "$work/period.txt"; then fail "--stats=period --profile printed the firings"; fi
  if "$app" --iterations 5 --profile /nonexistent/p.json 2>"$work/err.txt"; then fail "--profile to a bad path"; fi
  grep -q "error: --profile /nonexistent/p.json: cannot open for writing" "$work/err.txt" || fail "--profile message"
}

fir_reference() {  # fir_reference ITERATIONS N: the sequential reference's checksum line
  g++ -std=c++20 -O2 -Wall -Wextra -Werror -I runtime/include samples/fir_bank/reference.cpp -o "$work/reference"
  "$work/reference" "$1" "$2"
}

run_fir_bank() {  # run_fir_bank APP WANT [FLAGS...]: both strategies and sync modes, the checksum
  local app=$1 want=$2
  shift 2
  for strategy in "" --no-overlap; do
    for sync in neighbours barrier; do
      echo "== app --iterations 1000 --set N=1024 $strategy --sync=$sync $*"
      "$app" --iterations 1000 --set N=1024 $strategy --sync=$sync "$@" >"$work/out.txt" ||
        { cat "$work/out.txt"; fail "run $strategy --sync=$sync $*"; }
      grep -qxF "$want" "$work/out.txt" || fail "checksum: $(cat "$work/out.txt"), the reference: $want"
    done
  done
}

make_jpeg_images() {  # samples/jpeg's test images and libjpeg's decodes into $work/images, JPEG_DIR set
  mkdir -p "$work/images"
  g++ -O2 -Wall -Wextra -Werror samples/jpeg/make_images.cpp -ljpeg -o "$work/make_images"
  "$work/make_images" "$work/images" >/dev/null
  export JPEG_DIR=$work/images
}

build_cpu() {  # build_cpu DIR CXXFLAGS
  cmake -S "$1" -B "$1/build" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_FLAGS="$2" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$1/build" -j 2
}

case $case in
  cpu_run)
    compile samples/overlap/cpu_only.dfg "$work/gen" -D N=64
    build_cpu "$work/gen" "-Werror"
    run_all "$work/gen/build/app"
    check_profile "$work/gen/build/app" samples/overlap/cpu_only.dfg -D N=64
    check_stats_json "$work/gen/build/app" p i1 i2 c
    # A program that keeps no state a restart needs takes no checkpoints (nothing would tell its
    # writer how far the run has come).
    if "$work/gen/build/app" --iterations 10 --checkpoint "$work/x.ck" 2>"$work/err.txt"; then
      fail "--checkpoint of a stateless program exited 0"
    fi
    grep -qx "error: --checkpoint: this program takes no checkpoints: it keeps no state a restart needs: no node has save/restore and no edge has a delay" \
      "$work/err.txt" || fail "the refusal: $(cat "$work/err.txt")"
    ;;
  cpu_tsan)
    compile samples/overlap/cpu_only.dfg "$work/gen" -D N=64
    build_cpu "$work/gen" "-Werror -fsanitize=thread -g -O1"
    export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
    run_all "$work/gen/build/app"
    ;;
  fir_bank)
    want=$(fir_reference 1000 1024)
    echo "reference: $want"
    for mapping in one_core cores; do
      compile "samples/fir_bank/$mapping.dfg" "$work/$mapping"
      build_cpu "$work/$mapping" "-Wall -Wextra -Werror"
      run_fir_bank "$work/$mapping/build/app" "$want"
    done
    run_fir_bank "$work/cores/build/app" "$want" --pin-cpus
    # Ten worker threads, each PE named in the stats.
    "$work/cores/build/app" --iterations 100 --set N=1024 --stats >"$work/stats.txt"
    for c in 0 1 2 3 4 5 6 7 8 9; do grep -q " A\.c$c " "$work/stats.txt" || fail "--stats: no A.c$c"; done
    # The ten cores' profile carries over to the architecture of one core: each node's time on
    # A.cpu is its time on the core it ran on ("pes" gives the cores' kind).
    "$work/cores/build/app" --iterations 200 --set N=1024 --profile "$work/cores.json" || fail "--profile, ten cores"
    "$dfgc" map samples/fir_bank/one_core.dfg --costs "$work/cores.json" --evaluate >"$work/one_core.json" ||
      fail "dfgc map refused the ten cores' profile on one core"
    python3 - "$work/cores.json" "$work/one_core.json" <<'EOF' || fail "the ten cores' profile on one core"
import json, sys
profile, evaluation = (json.load(open(f)) for f in sys.argv[1:3])
assert profile["pes"] == {f"A.c{c}": {"kind": "cpu"} for c in range(10)}, profile["pes"]
load = sum(ms["ms"] for per_pe in profile["nodes"].values() for ms in per_pe.values())
predicted = evaluation["overlap"]["period_ms"]
expected = load + profile["cycle_overhead_ms"]["overlap"]
assert abs(predicted - expected) <= 1e-4 * expected + 1e-6, (predicted, expected)
print(f"ten cores' profile on one core: firings {load:.6g} ms, predicted period {predicted} ms")
EOF
    ;;
  fir_bank_tsan)
    want=$(fir_reference 1000 1024)
    compile samples/fir_bank/cores.dfg "$work/gen"
    build_cpu "$work/gen" "-Werror -fsanitize=thread -g -O1"
    export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
    run_fir_bank "$work/gen/build/app" "$want"
    ;;
  replicas_run)
    compile samples/overlap/cores_replicas.dfg "$work/overlap" -D N=64
    compile samples/iir/replicas.dfg "$work/iir"
    "$dfgc" dump-ir samples/iir/replicas.dfg >"$work/ir.txt"
    grep -q "^node s#2 : Signal @ A.c2 copy 2 of s (replicated)" "$work/ir.txt" || fail "dump-ir: s#2 on A.c2"
    grep -q "^edge f#2.next -> f#0.state : State delay 1" "$work/ir.txt" || fail "dump-ir: the unfolded loop"
    for gen in overlap iir; do
      build_cpu "$work/$gen" "-Wall -Wextra -Werror"
      for strategy in "" --no-overlap; do
        for sync in neighbours barrier; do
          "$work/$gen/build/app" --iterations 2010 $strategy --sync=$sync || fail "$gen $strategy --sync=$sync"
        done
      done
      cp -r "$work/$gen" "$work/${gen}_tsan"
      rm -rf "$work/${gen}_tsan/build"
      build_cpu "$work/${gen}_tsan" "-Werror -fsanitize=thread -g -O1"
      for strategy in "" --no-overlap; do
        TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$work/${gen}_tsan/build/app" --iterations 600 $strategy ||
          fail "$gen under tsan $strategy"
      done
    done
    if "$work/iir/build/app" --iterations 10 2>"$work/odd.txt"; then fail "--iterations 10 of a cycle of 3 accepted"; fi
    grep -q "is not a multiple of 3" "$work/odd.txt" || fail "--iterations 10: $(cat "$work/odd.txt")"
    ;;
  iir_run)
    compile samples/iir/cpu_only.dfg "$work/gen"
    build_cpu "$work/gen" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        "$work/gen/build/app" --iterations 2000 $strategy --sync=$sync || fail "iir $strategy --sync=$sync"
      done
    done
    compile samples/iir/cpu_only.dfg "$work/tsan"
    build_cpu "$work/tsan" "-Werror -fsanitize=thread -g -O1"
    TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$work/tsan/build/app" --iterations 1000 || fail "iir under tsan"
    TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$work/tsan/build/app" --iterations 1000 --no-overlap ||
      fail "iir under tsan without overlap"
    # Three initial tokens: f reads its own output buffer 3 cycles late (4 slots, no copy).
    mkdir -p "$work/deep"
    cp -r samples/iir/actors samples/iir/iir.dfg "$work/deep/"
    sed -e 's/delay 1 = 0.25;/delay 3 = 0.25;/' -e 's/initial = 0.25;/initial = 0.25; feedback = 3;/' \
      samples/iir/cpu_only.dfg >"$work/deep/cpu_only.dfg"
    compile "$work/deep/cpu_only.dfg" "$work/deep/gen"
    grep -q "delay f.state.delay@A.cpu <- f.next@A.cpu aliased, cycles 3" "$work/deep/gen/schedule.txt" ||
      fail "delay 3 within a PE is not read in place"
    build_cpu "$work/deep/gen" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        "$work/deep/gen/build/app" --iterations 2000 $strategy --sync=$sync ||
          fail "iir delay 3 $strategy --sync=$sync"
      done
    done
    # The checker checks: initial tokens of another value fail at once.
    mkdir -p "$work/wrong"
    cp -r samples/iir/actors samples/iir/iir.dfg "$work/wrong/"
    sed 's/delay 1 = 0.25;/delay 1 = 0.5;/' samples/iir/cpu_only.dfg >"$work/wrong/cpu_only.dfg"
    compile "$work/wrong/cpu_only.dfg" "$work/wrong/gen"
    build_cpu "$work/wrong/gen" "-Werror"
    if "$work/wrong/gen/build/app" --iterations 10 2>"$work/wrong.txt"; then fail "a wrong initial token passed the check"; fi
    grep -q "iteration 0, sample 0" "$work/wrong.txt" || fail "wrong initial token: $(cat "$work/wrong.txt")"
    # The filter's member function fills the initial token (`= initial_state()`, its param y0).
    compile samples/iir/state_method.dfg "$work/method"
    build_cpu "$work/method" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      "$work/method/build/app" --iterations 1000 $strategy || fail "iir state_method $strategy"
    done
    mkdir -p "$work/wrong_method"
    cp -r samples/iir/actors samples/iir/iir.dfg "$work/wrong_method/"
    sed 's/y0 = 0.75;/y0 = 0.5;/' samples/iir/state_method.dfg >"$work/wrong_method/state_method.dfg"
    compile "$work/wrong_method/state_method.dfg" "$work/wrong_method/gen"
    build_cpu "$work/wrong_method/gen" "-Werror"
    if "$work/wrong_method/gen/build/app" --iterations 10 2>"$work/wrong_method.txt"; then
      fail "an initial token filled with another value passed the check"
    fi
    grep -q "iteration 0, sample 0" "$work/wrong_method.txt" || fail "wrong filled token: $(cat "$work/wrong_method.txt")"
    ;;
  migration | migration_tsan)
    flags="-Wall -Wextra -Werror"
    [[ $case == migration_tsan ]] && flags="-Werror -fsanitize=thread -g -O1"
    export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
    compile samples/migration/cores.dfg "$work/gen"
    build_cpu "$work/gen" "$flags"
    app="$work/gen/build/app"
    checked() {  # checked FILE N: the checker's line for N iterations
      grep -qx "check: $2 iterations, each once and in order, equal to the sequential reference" "$1" ||
        fail "no check line in $1: $(tail -3 "$1")"
    }
    # A live run: moves back and forth read from a FIFO while the stream runs, and refusals.
    live() {  # live APP ITERATIONS [flags...]
      local a=$1 n=$2
      shift 2
      rm -f "$work/control"
      mkfifo "$work/control"
      "$a" --iterations "$n" --migrate-control "$work/control" "$@" >"$work/live.txt" 2>"$work/live.err" &
      local pid=$!
      exec 3>"$work/control"
      trap '' PIPE  # a run that ended early fails below, not on a write to its closed FIFO
      local sent=0
      for line in a:A.c1 a:A.c2 g:A.c9 a:A.c3 g:A.c2 a:A.c2 "x:A.c1" bogus g:A.c3 g:A.c1 a:A.c1 a:A.c2 g:A.c2 \
        "g:A.c3,a:A.c1" "g:A.c1,a:A.c3" "a:A.c1,a:A.c2"; do
        sleep 0.05
        echo "$line" >&3 2>/dev/null || true
        sent=$((sent + 1))
        # Each request is answered by one line: send the next once it is (a fixed pace let a
        # fast run end before the last requests).
        for _ in $(seq 400); do
          [[ $(grep -c '^migrate: ' "$work/live.err") -ge $sent ]] && break
          kill -0 $pid 2>/dev/null || break
          sleep 0.05
        done
      done
      exec 3>&-
      trap - PIPE
      wait $pid || { cat "$work/live.err"; fail "live run"; }
      cat "$work/live.err"
      checked "$work/live.txt" "$n"
      [[ $(grep -c ": node moved from iteration " "$work/live.err") -ge 6 ]] || fail "too few live moves"
      grep -qx "migrate: g:A.c9: refused: A.c9 is not an alternative of node 'g' (its alternatives: A.c2, A.c3)" \
        "$work/live.err" || fail "no refusal of g:A.c9"
      # Neighbours compose: g joins a, which is away on A.c3 (their joint alternative), and two
      # moves in one line switch together.
      grep -Eqx "migrate: g:A.c2: node moved from iteration [0-9]+" "$work/live.err" ||
        fail "g did not join a's move"
      grep -Eqx "migrate: g:A.c3,a:A.c1: nodes moved from iteration [0-9]+" "$work/live.err" ||
        fail "no two moves at once"
      grep -qx "migrate: a:A.c1,a:A.c2: refused: node 'a' is named twice" "$work/live.err" ||
        fail "no refusal of a node named twice"
      grep -qx "migrate: bogus: refused: expected NODE:PE or NODE:PE@ITERATION, got 'bogus'" "$work/live.err" ||
        fail "no refusal of a malformed line"
    }
    if [[ $case == migration_tsan ]]; then
      live "$app" 40000
      live "$app" 40000 --no-overlap --sync=barrier
      # The rebalancing policy's thread reads the workers' loads while they run: whatever it
      # moves, every iteration arrives once.
      "$app" --iterations 40000 --rebalance=2 >"$work/run.txt" || fail "--rebalance"
      checked "$work/run.txt" 40000
      exit 0
    fi
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        for move in "" g:A.c3@700 g:A.c2@700 a:A.c1@700 a:A.c3@0 g:A.c2@1999; do
          echo "== app --iterations 2000 $strategy --sync=$sync ${move:+--migrate $move}"
          "$app" --iterations 2000 $strategy --sync=$sync ${move:+--migrate $move} --stats >"$work/run.txt" ||
            fail "run $strategy $sync $move"
          checked "$work/run.txt" 2000
        done
      done
    done
    # The move happens where it says: iterations 0..699 of g on A.c1, 700..1999 on A.c3.
    "$app" --iterations 2000 --migrate g:A.c3@700 --stats >"$work/stats.txt"
    grep -Eq "^firing +g \(Scale\) +A\.c1 +700 " "$work/stats.txt" || fail "g did not fire 700 times on A.c1"
    grep -Eq "^firing +g \(Scale\) +A\.c3 +1300 " "$work/stats.txt" || fail "g did not fire 1300 times on A.c3"
    # The per-iteration output intervals.
    DFG_INTERVALS="$work/intervals.txt" "$app" --iterations 2000 --migrate a:A.c1@1000 >/dev/null
    [[ $(wc -l <"$work/intervals.txt") == 1999 ]] || fail "intervals: $(wc -l <"$work/intervals.txt") lines"
    live "$app" 20000
    # The paper's pause for the shorter path.
    compile samples/migration/cores.dfg "$work/pause" --short-path=pause
    grep -q "delta 1 pause 1" "$work/pause/schedule.txt" || fail "no pause in schedule.txt"
    build_cpu "$work/pause" "$flags"
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        "$work/pause/build/app" --iterations 2000 $strategy --sync=$sync --migrate g:A.c2@700 >"$work/run.txt" ||
          fail "pause run $strategy $sync"
        checked "$work/run.txt" 2000
      done
    done
    # Bad moves: refused before anything runs.
    refused() {  # refused LINE FLAGS...
      local line=$1
      shift
      if "$app" --iterations 2000 "$@" >"$work/bad.txt" 2>"$work/bad.err"; then fail "accepted: $*"; fi
      [[ $(cat "$work/bad.err") == "$line" ]] || fail "for $*: $(cat "$work/bad.err")"
      [[ ! -s $work/bad.txt ]] || fail "ran: $*"
    }
    refused "error: --migrate x:A.c1@5: no node 'x' has migration alternatives (those that do: g, a)" --migrate x:A.c1@5
    refused "error: --migrate g:A.c0@5: A.c0 is not an alternative of node 'g' (its alternatives: A.c2, A.c3)" \
      --migrate g:A.c0@5
    refused "error: --migrate g:A.c1@5: node 'g' already runs on A.c1" --migrate g:A.c1@5
    refused "error: --migrate g:A.c2@2000: iteration 2000 is beyond the run (2000 iterations)" --migrate g:A.c2@2000
    refused "error: --migrate g:A.c3@9: node 'g' is already moved by --migrate g:A.c2@5 (at launch, one move per node; use --migrate-control to move it again)" \
      --migrate g:A.c2@5 --migrate g:A.c3@9
    # Neighbours' launch-time moves compose: iterations 0..4 at home, g alone on A.c3 for 5..8,
    # then g and a in their joint alternative.
    "$app" --iterations 2000 --migrate g:A.c3@5 --migrate a:A.c1@9 --stats >"$work/stats.txt" ||
      fail "g and a at launch"
    checked "$work/stats.txt" 2000
    grep -Eq "^firing +g \(Scale\) +A\.c1 +5 " "$work/stats.txt" || fail "g did not fire 5 times on A.c1"
    grep -Eq "^firing +a \(Accumulate\) +A\.c1 +1991 " "$work/stats.txt" || fail "a did not fire 1991 times on A.c1"
    refused "error: --migrate: expected NODE:PE@ITERATION (e.g. i2:B.g1@25), got 'g:A.c2'" --migrate g:A.c2
    ;;
  rebalance_run)
    # --rebalance (dfg/rebalance.hpp) on test/generated/rebalance.dfg: the core of w's place is
    # loaded (simulated: its firings sleep 3 ms on that thread) from iteration 2000 to 3999.
    compile test/generated/rebalance.dfg "$work/gen"
    build_cpu "$work/gen" "-Wall -Wextra -Werror"
    app="$work/gen/build/app"
    for mode in "" "--no-overlap"; do
      # shellcheck disable=SC2086
      "$app" --iterations 30000 --rebalance=20 --set LOAD_FROM=2000 --set LOAD_TO=4000 \
        --set LOAD_US=3000 $mode >"$work/out.txt" 2>"$work/err.txt" || fail "'$mode': exit $?: $(cat "$work/err.txt")"
      cat "$work/err.txt"
      grep -qx "check: 30000 iterations, all equal" "$work/out.txt" || fail "'$mode': $(cat "$work/out.txt")"
      # Every line is the policy's or a move's; w left its loaded core once the load began, and
      # is back on it at the end.
      ! grep -Ev "^(rebalance|migrate): " "$work/err.txt" || fail "'$mode': other lines on stderr"
      first=$(sed -n 's/^migrate: w:A.c2: node moved from iteration \([0-9]*\)$/\1/p' "$work/err.txt" | head -1)
      [[ -n $first && $first -ge 2000 && $first -lt 4000 ]] || fail "'$mode': w did not leave A.c1 under the load"
      grep -Eq "^rebalance: period .* A\.c1 waited [0-9]+% of the time: moving w:A\.c2$" "$work/err.txt" ||
        fail "'$mode': no reason given for the move"
      [[ $(grep "^migrate: " "$work/err.txt" | tail -1) == "migrate: w:A.c1: node moved from iteration "* ]] ||
        fail "'$mode': w did not go back to A.c1 once the load had gone"
    done
    # Without --rebalance nothing moves, and the policy needs alternatives.
    "$app" --iterations 3000 --set LOAD_FROM=2000 --set LOAD_TO=2100 --set LOAD_US=1000 \
      >"$work/out.txt" 2>"$work/err.txt" || fail "without --rebalance"
    [[ ! -s $work/err.txt ]] || fail "without --rebalance: $(cat "$work/err.txt")"
    compile samples/multirate/cpu_only.dfg "$work/fixed"
    build_cpu "$work/fixed" "-Werror"
    if "$work/fixed/build/app" --rebalance >"$work/out.txt" 2>"$work/err.txt"; then fail "--rebalance accepted"; fi
    [[ $(cat "$work/err.txt") == "error: --rebalance: this program has no alternative mappings (a node moves only to the PEs its \`migrates\` names)" ]] ||
      fail "--rebalance without alternatives: $(cat "$work/err.txt")"
    ;;
  migration_gpu_build)
    find_nvcc
    compile samples/migration/one_gpu.dfg "$work/gen"
    build_gpu "$work/gen"
    ;;
  multirate_run)
    compile samples/multirate/cpu_only.dfg "$work/gen"
    build_cpu "$work/gen" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        "$work/gen/build/app" --iterations 2000 $strategy --sync=$sync || fail "multirate $strategy --sync=$sync"
      done
    done
    # The checker checks: the odd samples instead of the even ones fail at once.
    mkdir -p "$work/wrong"
    cp -r samples/multirate/actors samples/multirate/multirate.dfg samples/multirate/cpu_only.dfg "$work/wrong/"
    sed -i 's/x\[2 \* k\]/x[2 * k + 1]/' "$work/wrong/actors/decimate.hpp"
    compile "$work/wrong/cpu_only.dfg" "$work/wrong/gen"
    build_cpu "$work/wrong/gen" "-Werror"
    if "$work/wrong/gen/build/app" --iterations 10 2>"$work/wrong.txt"; then fail "a wrong decimator passed the check"; fi
    grep -q "iteration 0, sample 0" "$work/wrong.txt" || fail "wrong decimator: $(cat "$work/wrong.txt")"
    # One call per firing: a source that ignores ctx.firing() writes its first frame twice, and
    # the checker sees the second frame of iteration 0 wrong.
    mkdir -p "$work/same"
    cp -r samples/multirate/actors samples/multirate/multirate.dfg samples/multirate/cpu_only.dfg "$work/same/"
    sed -i 's/ + ctx.firing()//' "$work/same/actors/source.hpp"
    compile "$work/same/cpu_only.dfg" "$work/same/gen"
    build_cpu "$work/same/gen" "-Werror"
    if "$work/same/gen/build/app" --iterations 10 2>"$work/same.txt"; then fail "a source ignoring its firing passed the check"; fi
    grep -q "iteration 0, sample 64" "$work/same.txt" || fail "source ignoring its firing: $(cat "$work/same.txt")"
    # `batch 4`: four iterations a cycle, the same stream checked by the same reference (the
    # source numbers its frames by ctx.iteration() and ctx.firing()); --iterations a multiple of 4.
    compile samples/multirate/batched.dfg "$work/batch/gen"
    grep -q "batch 4 iterations a cycle" "$work/batch/gen/schedule.txt" || fail "batch: not in schedule.txt"
    build_cpu "$work/batch/gen" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      "$work/batch/gen/build/app" --iterations 2000 $strategy --stats-json "$work/batch/stats.json" ||
        fail "multirate batch 4 $strategy"
      grep -q '"batch": 4,' "$work/batch/stats.json" || fail "batch: stats JSON without its batch"
    done
    if "$work/batch/gen/build/app" --iterations 10 2>"$work/batch/odd.txt"; then fail "batch: 10 iterations ran"; fi
    grep -q "error: --iterations: 10 is not a multiple of 4" "$work/batch/odd.txt" ||
      fail "batch: $(cat "$work/batch/odd.txt")"
    # The peers chain on two cores, 8 iterations a cycle: the sink checks every token against its
    # iteration, so a firing numbered wrong fails.
    compile bench/peers/core_to_core.dfg "$work/chain" --app core_to_core_h8 -D B=8
    build_cpu "$work/chain" "-Wall -Wextra -Werror"
    "$work/chain/build/app" --iterations 4000 >"$work/chain.txt" || fail "chain batch 8"
    grep -qx "chain sink: 4000 tokens checked" "$work/chain.txt" || fail "chain batch 8: $(cat "$work/chain.txt")"
    ;;
  packets_run)
    compile samples/packets/cpu_only.dfg "$work/gen"
    build_cpu "$work/gen" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        "$work/gen/build/app" --iterations 1000 $strategy --sync=$sync >"$work/out.txt" ||
          fail "packets $strategy --sync=$sync"
        grep -qx "packets checked: 1000, 128308 bytes" "$work/out.txt" || fail "packets: $(cat "$work/out.txt")"
      done
    done
    compile samples/packets/cpu_only.dfg "$work/tsan"
    build_cpu "$work/tsan" "-Werror -fsanitize=thread -g -O1"
    for strategy in "" --no-overlap; do
      TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$work/tsan/build/app" --iterations 500 $strategy >/dev/null ||
        fail "packets under tsan $strategy"
    done
    # A length over the capacity stops the run in its iteration.
    compile samples/packets/cpu_only.dfg "$work/over" -D OVER=5
    build_cpu "$work/over" "-Werror"
    if "$work/over/build/app" --iterations 100 >/dev/null 2>"$work/over.txt"; then fail "a length over the capacity passed"; fi
    grep -qx "error: node s (Source) @ A.c0, iteration 5: output 'out': length 257 is over the capacity 256 of its type" \
      "$work/over.txt" || fail "over the capacity: $(cat "$work/over.txt")"
    # The checker checks the lengths: a decoder that drops the last byte fails at once.
    mkdir -p "$work/wrong"
    cp -r samples/packets/actors samples/packets/packets.dfg samples/packets/cpu_only.dfg "$work/wrong/"
    sed -i 's|    out.resize(n);  // over the capacity: dfg::LengthError|    out.resize(n == 0 ? 0 : n - 1);|; s|for (std::uint8_t k = 0; k < in\[i\]; ++k) out\[o++\]|for (std::uint8_t k = 0; k < in[i] \&\& o < out.size(); ++k) out[o++]|' \
      "$work/wrong/actors/rle.hpp"
    compile "$work/wrong/cpu_only.dfg" "$work/wrong/gen"
    build_cpu "$work/wrong/gen" "-Werror"
    if "$work/wrong/gen/build/app" --iterations 10 2>"$work/wrong.txt"; then fail "a short packet passed the check"; fi
    grep -q "iteration 0: packet of length 10, expected 11" "$work/wrong.txt" || fail "short packet: $(cat "$work/wrong.txt")"
    # samples/receiver: lists of hits (a bounded type) merged across four cores, where the merges
    # read their inputs through delay lines (each list copied with its length), one filter moving;
    # every mapping prints what one core prints, and the report checks every burst.
    for mapping in one_core cores; do
      compile "samples/receiver/$mapping.dfg" "$work/rx_$mapping"
      build_cpu "$work/rx_$mapping" "-Wall -Wextra -Werror"
    done
    grep -q "dfg::copy_token(merge1_a_delay" "$work/rx_cores/rank_A.cpp" ||
      fail "receiver: no delay line of hits on the cores"
    "$work/rx_one_core/build/app" --iterations 1000 >"$work/rx.txt" || fail "receiver one_core"
    grep -qx "receiver: 1000 iterations, 1502 channel-iterations heard, every burst as planted" \
      "$work/rx.txt" || fail "receiver one_core: $(tail -2 "$work/rx.txt")"
    for mode in "" "--sync=barrier" "--no-overlap" "--migrate ch1_lp:A.c2@333" \
      "--migrate ch1_lp:A.c2@0 --no-overlap"; do
      # shellcheck disable=SC2086
      "$work/rx_cores/build/app" --iterations 1000 $mode >"$work/rx_cores.txt" ||
        fail "receiver cores '$mode'"
      cmp -s "$work/rx.txt" "$work/rx_cores.txt" || fail "receiver cores '$mode': not one core's output"
    done
    ;;
  dyn_fir_run)
    for mapping in one_core two_cores split_cores parallel_core parallel_split; do
      compile samples/dyn_fir/$mapping.dfg "$work/$mapping"
      build_cpu "$work/$mapping" "-Wall -Wextra -Werror"
      for strategy in "" --no-overlap; do
        for sync in neighbours barrier; do
          "$work/$mapping/build/app" --iterations 1000 $strategy --sync=$sync >"$work/out.txt" ||
            fail "dyn_fir $mapping $strategy --sync=$sync"
          grep -qx "fir checked: 1000 blocks, sum -164423" "$work/out.txt" || fail "dyn_fir $mapping: $(cat "$work/out.txt")"
        done
      done
      case $mapping in parallel_*) continue ;; esac
      compile samples/dyn_fir/$mapping.dfg "$work/${mapping}_tsan"
      build_cpu "$work/${mapping}_tsan" "-Werror -fsanitize=thread -g -O1"
      for strategy in "" --no-overlap; do
        TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$work/${mapping}_tsan/build/app" --iterations 300 $strategy >/dev/null ||
          fail "dyn_fir $mapping under tsan $strategy"
      done
    done
    # Rings with initial elements on cycles of dynamic actors, capacities computed.
    compile test/generated/ring_delay.dfg "$work/ring_delay"
    build_cpu "$work/ring_delay" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      "$work/ring_delay/build/app" --iterations 1000 $strategy >"$work/out.txt" || fail "ring_delay $strategy"
      grep -qx "ring_delay checked: 16000 samples" "$work/out.txt" || fail "ring_delay: $(cat "$work/out.txt")"
    done
    # An island that fills an output token short stops the run in that iteration.
    compile samples/dyn_fir/one_core.dfg "$work/bad" -D BAD=5
    build_cpu "$work/bad" "-Werror"
    if "$work/bad/build/app" --iterations 20 >/dev/null 2>"$work/bad.txt"; then fail "a short island output passed"; fi
    grep -qx "error: node island_d1 (Island_d1) @ A.cpu, iteration 5: island island_d1: output 'sh_y' produced 63 of 64 elements in iteration 5: no token for this iteration" \
      "$work/bad.txt" || fail "short island output: $(cat "$work/bad.txt")"
    ;;
  dyn_idct_run)
    compile samples/dyn_idct/dyn_idct.dfg "$work/gen"
    build_cpu "$work/gen" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      "$work/gen/build/app" --iterations 500 $strategy >"$work/out.txt" || fail "dyn_idct $strategy"
      grep -qx "idct checked: 2000 blocks, sum 16369999" "$work/out.txt" || fail "dyn_idct: $(cat "$work/out.txt")"
    done
    compile samples/dyn_idct/dyn_idct.dfg "$work/tsan"
    build_cpu "$work/tsan" "-Werror -fsanitize=thread -g -O1"
    TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$work/tsan/build/app" --iterations 200 >/dev/null || fail "dyn_idct under tsan"
    compile samples/dyn_idct/idct_core.dfg "$work/alone"
    build_cpu "$work/alone" "-Wall -Wextra -Werror"
    "$work/alone/build/app" --iterations 500 >"$work/out.txt" || fail "idct_core"
    grep -qx "idct checked: 2000 blocks, sum 16369999" "$work/out.txt" || fail "idct_core: $(cat "$work/out.txt")"
    # The passes as parallel actions on the core, fired in batches: 4 blocks an iteration (one
    # batch fills the ring), and 3 (batches that wrap at the ring's end), every pixel checked.
    compile samples/dyn_idct/idct_parallel_core.dfg "$work/parallel"
    build_cpu "$work/parallel" "-Wall -Wextra -Werror"
    grep -q "dfg::fire_batch(4, island.node_rows_" "$work/parallel/dfg_islands/island_rows.hpp" ||
      fail "idct_parallel_core: the rows pass is not fired in batches of up to 4"
    "$work/parallel/build/app" --iterations 500 >"$work/out.txt" || fail "idct_parallel_core"
    grep -qx "idct checked: 2000 blocks, sum 16369999" "$work/out.txt" || fail "idct_parallel_core: $(cat "$work/out.txt")"
    compile samples/dyn_idct/idct_parallel_core.dfg "$work/parallel3" -D B=3
    build_cpu "$work/parallel3" "-Werror"
    "$work/parallel3/build/app" --iterations 333 >"$work/out.txt" || fail "idct_parallel_core B=3"
    grep -qx "idct checked: 999 blocks, sum [0-9]*" "$work/out.txt" || fail "idct_parallel_core B=3: $(cat "$work/out.txt")"
    ;;
  island_bounded_run)
    compile test/generated/island_bounded.dfg "$work/gen"
    build_cpu "$work/gen" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      "$work/gen/build/app" --iterations 1000 $strategy >"$work/out.txt" || fail "island_bounded $strategy"
      grep -qx "island_bounded checked: 1000 tokens, 15958 elements" "$work/out.txt" ||
        fail "island_bounded: $(cat "$work/out.txt")"
    done
    compile test/generated/island_bounded.dfg "$work/over" -D OVER=15
    build_cpu "$work/over" "-Werror"
    if "$work/over/build/app" --iterations 100 >/dev/null 2>"$work/over.txt"; then fail "an output over its capacity passed"; fi
    grep -qx "error: node island_dbl (Island_dbl) @ A.cpu, iteration 15: island island_dbl: output 'inc_y' produced more than the token's capacity of 32 elements in iteration 15" \
      "$work/over.txt" || fail "over the capacity: $(cat "$work/over.txt")"
    ;;
  stream_end_run | stream_end_tsan)
    # A source ends the stream (test/generated/stream_end.dfg): every strategy and sync mode, an
    # end at the first iteration, within the run, or after it, before an iteration, with a move;
    # the sink checks every block and finish() says how many. Under ThreadSanitizer too.
    flags=-Werror
    [[ $case == stream_end_tsan ]] && flags="-Werror -fsanitize=thread -g -O1"
    export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
    compile test/generated/stream_end_cores.dfg "$work/gen"
    build_cpu "$work/gen" "$flags"
    app=$work/gen/build/app
    modes=("" "--sync=barrier" "--no-overlap")
    [[ $case == stream_end_run ]] && modes+=("--migrate s:A.c1@3" "--migrate s:A.c1@40")
    bash test/stream_end_runs.sh "$app" "$work" "${modes[@]}"
    # A checkpointed run that a source ends: the checkpoints it completed, and a restart from the
    # last gives the uninterrupted run's count and end.
    rm -f "$work/ck"
    DFG_END_AT=57 "$app" --iterations 1000 --checkpoint "$work/ck" --checkpoint-every 10 \
      >"$work/out.txt" 2>"$work/err.txt" || fail "checkpoints: exit $?: $(cat "$work/err.txt")"
    grep -qx "check: 58 iterations, all equal" "$work/out.txt" || fail "checkpoints: $(cat "$work/out.txt")"
    grep -qx "checkpoint: $work/ck holds iteration 50 (5 written)" "$work/err.txt" ||
      fail "checkpoints: $(cat "$work/err.txt")"
    DFG_END_AT=57 "$app" --iterations 1000 --restart "$work/ck" >"$work/out.txt" 2>"$work/err.txt" ||
      fail "restart: exit $?: $(cat "$work/err.txt")"
    grep -qx "check: 58 iterations, all equal" "$work/out.txt" || fail "restart: $(cat "$work/out.txt")"
    grep -qx "restart: from $work/ck, iteration 50 of 1000" "$work/err.txt" || fail "restart: $(cat "$work/err.txt")"
    grep -qx "end of stream: node r (Reader) @ A.c0 ended the stream after iteration 57 (of --iterations 1000)" \
      "$work/err.txt" || fail "restart: the report: $(cat "$work/err.txt")"
    if [[ $case == stream_end_run ]]; then
      # A node whose actor does not say `ends stream;` is refused, and the run fails.
      if DFG_TICKER_ENDS=1 "$app" --iterations 10 >"$work/out.txt" 2>"$work/err.txt"; then
        fail "an end_stream() of an actor without 'ends stream' exited 0"
      fi
      grep -qx "error: node t (Ticker) @ A.c2, iteration 0: ctx.end_stream(): only a node whose actor says \`ends stream;\` in the spec may end the stream" \
        "$work/err.txt" || fail "the refusal: $(cat "$work/err.txt")"
      [[ ! -s $work/out.txt ]] || fail "finish ran after a failed run: $(cat "$work/out.txt")"
      # --stats over a stream bounded by the largest --iterations: its period, no huge tables.
      DFG_END_AT=2000 "$app" --iterations 4611686018427387904 --stats >"$work/out.txt" 2>"$work/err.txt" ||
        fail "--stats, --iterations 2^62: exit $?: $(cat "$work/err.txt")"
      grep -q "^iteration period: .* over [0-9]* iterations" "$work/out.txt" ||
        fail "--stats, --iterations 2^62: $(cat "$work/out.txt")"
      # 4 iterations a cycle: an end within a batch runs the batch out.
      compile test/generated/stream_end_batch.dfg "$work/batch"
      build_cpu "$work/batch" "$flags"
      for mode in "" "--sync=barrier" "--no-overlap"; do
        # shellcheck disable=SC2086
        DFG_END_AT=9 "$work/batch/build/app" --iterations 400 $mode >"$work/out.txt" 2>"$work/err.txt" ||
          fail "batch, '$mode': exit $?: $(cat "$work/err.txt")"
        grep -qx "check: 12 iterations, all equal" "$work/out.txt" || fail "batch, '$mode': $(cat "$work/out.txt")"
        grep -qx "end of stream: node r (Reader) @ A.c0 ended the stream after iteration 9 (of --iterations 400); iterations 10 to 11 ran too, in the cycle of 4 iterations that holds it" \
          "$work/err.txt" || fail "batch, '$mode': the report: $(cat "$work/err.txt")"
        # shellcheck disable=SC2086
        DFG_END_BEFORE=1 DFG_END_AT=8 "$work/batch/build/app" --iterations 400 $mode >"$work/out.txt" 2>&1 ||
          fail "batch, before 8, '$mode': exit $?"
        grep -qx "check: 8 iterations, all equal" "$work/out.txt" || fail "batch, before 8: $(cat "$work/out.txt")"
      done
    fi
    ;;
  checkpoint_run)
    compile test/generated/checkpoint_cores.dfg "$work/gen"
    "$dfgc" schedule --emit=plan test/generated/checkpoint_cores.dfg >"$work/plan.txt"
    grep -q "^  checkpoints (spec [0-9a-f]*, mapping [0-9a-f]*): state of a o; tokens of m.state (delay 2)$" \
      "$work/plan.txt" || fail "the plan's checkpoint: $(grep checkpoints "$work/plan.txt")"
    build_cpu "$work/gen" "-Wall -Wextra -Werror"
    app=$work/gen/build/app ck=$work/ck out=$work/out.txt
    export DFG_CHECKPOINT_OUT=$work/ref.txt
    "$app" --iterations 3000 >"$work/stdout.txt"
    [[ $(wc -l <"$work/ref.txt") == 3000 ]] || fail "the uninterrupted run wrote $(wc -l <"$work/ref.txt") lines"
    # finish() runs after a run that completed, never after one that stopped on an error.
    grep -qx "lines: 3000 iterations written" "$work/stdout.txt" || fail "no finish: $(cat "$work/stdout.txt")"
    if DFG_CHECKPOINT_OUT=$work/failed.txt DFG_FAIL_AT=500 "$app" --iterations 3000 >"$work/stdout.txt" 2>"$work/err.txt"; then
      fail "a run whose sink threw exited 0"
    fi
    grep -qx "error: node o (Lines) @ A.c0, iteration 500: lines: failing at iteration 500 as asked" "$work/err.txt" ||
      fail "the sink's error: $(cat "$work/err.txt")"
    [[ ! -s $work/stdout.txt ]] || fail "finish ran after a failed run: $(cat "$work/stdout.txt")"
    if DFG_CHECKPOINT_OUT=$work/failed.txt DFG_FAIL_FINISH=1 "$app" --iterations 30 2>"$work/err.txt"; then
      fail "a run whose finish threw exited 0"
    fi
    grep -qx "error: node o (Lines) @ A.c0: lines: finish fails as asked" "$work/err.txt" ||
      fail "finish's error: $(cat "$work/err.txt")"
    export DFG_CHECKPOINT_OUT=$out
    # Runs killed (SIGKILL) at random times, each restarted from its checkpoint, killed again,
    # until one ends: the file must be the uninterrupted run's.
    RANDOM=7
    rounds=("" "--no-overlap" "--sync=barrier" "--migrate a:A.c2@900" "" "--no-overlap")
    for flags in "${rounds[@]}"; do
      rm -f "$ck" "$out"
      restart=() kills=0
      while :; do
        delay=$(printf '0.%03d' $((RANDOM % 600 + 50)))
        # shellcheck disable=SC2086
        DFG_PACE_US=150 timeout -s KILL "$delay" "$app" --iterations 3000 $flags "${restart[@]}" \
          --checkpoint "$ck" --checkpoint-every 50 >/dev/null 2>"$work/err.txt" && break
        status=$?
        [[ $status == 137 ]] || fail "round '$flags': exit $status: $(cat "$work/err.txt")"
        kills=$((kills + 1))
        if ((kills >= 3)); then  # the last restart runs to the end
          if [[ -e $ck ]]; then restart=(--restart "$ck"); else restart=(); fi
          # shellcheck disable=SC2086
          "$app" --iterations 3000 $flags "${restart[@]}" --checkpoint "$ck" \
            --checkpoint-every 50 >/dev/null 2>"$work/err.txt" || fail "round '$flags': $(cat "$work/err.txt")"
          break
        fi
        if [[ -e $ck ]]; then restart=(--restart "$ck"); else restart=(); fi
        flags=${flags/--migrate a:A.c2@900/}  # a restart begins on the program's own mapping
      done
      cmp -s "$out" "$work/ref.txt" || fail "round '$flags' ($kills kills): the output differs from the uninterrupted run's"
      echo "round '$flags': $kills kills, output equal"
    done
    # Every iteration a checkpoint: the writer's ring of generations under pressure.
    rm -f "$ck" "$out"
    "$app" --iterations 3000 --checkpoint "$ck" --checkpoint-every 1 2>"$work/err.txt" >/dev/null
    grep -qx "checkpoint: $ck holds iteration 2998 (2998 written)" "$work/err.txt" || fail "every 1: $(cat "$work/err.txt")"
    cmp -s "$out" "$work/ref.txt" || fail "every 1: the output differs"
    "$app" --iterations 3000 --restart "$ck" 2>"$work/err.txt" >/dev/null
    grep -qx "restart: from $ck, iteration 2998 of 3000" "$work/err.txt" || fail "restart at 2998: $(cat "$work/err.txt")"
    cmp -s "$out" "$work/ref.txt" || fail "restart at 2998: the output differs"
    # Refused with exit 1 and one line, nothing run (the output file untouched).
    "$app" --iterations 3000 --checkpoint "$ck" --checkpoint-every 1000 >/dev/null 2>&1
    good=$work/good.ck && cp "$ck" "$good"
    python3 - "$good" "$work" <<'PY'
import struct, sys
good, work = sys.argv[1], sys.argv[2]
data = bytearray(open(good, 'rb').read())
def fnv(b):
    h = 14695981039346656037
    for x in b:
        h = ((h ^ x) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h
def sealed(body):
    return bytes(body) + struct.pack('<Q', fnv(body))
body = data[:-8]
open(work + '/flipped.ck', 'wb').write(bytes(data[:100]) + bytes([data[100] ^ 1]) + bytes(data[101:]))
open(work + '/short.ck', 'wb').write(bytes(data[:len(data) // 2]))
hosts = bytearray(body); hosts[16 + 4 + 16:16 + 4 + 16 + 4] = struct.pack('<I', 2)
open(work + '/hosts.ck', 'wb').write(sealed(hosts))
at = 16 + 4 + 16 + 8 + 16  # the app's name: u32 length, bytes
n = struct.unpack('<I', body[at:at + 4])[0]
other = body[:at] + struct.pack('<I', 5) + b'other' + body[at + 4 + n:]
open(work + '/other.ck', 'wb').write(sealed(other))
PY
    printf 'not a checkpoint\n' >"$work/text.ck"
    cp "$out" "$work/before.txt"
    refuse() {  # refuse MESSAGE ARGS...: exit 1, the one line, the output file untouched
      local want=$1
      shift
      if "$app" "$@" >/dev/null 2>"$work/err.txt"; then fail "accepted: $*"; fi
      [[ $(wc -l <"$work/err.txt") == 1 ]] || fail "not one line for $*: $(cat "$work/err.txt")"
      grep -qF -- "$want" "$work/err.txt" || fail "$*: expected '$want', got: $(cat "$work/err.txt")"
      cmp -s "$out" "$work/before.txt" || fail "$*: the output file was touched"
    }
    refuse "error: --restart $work/flipped.ck: corrupted or truncated: its checksum does not match its contents" --iterations 3000 --restart "$work/flipped.ck"
    refuse "error: --restart $work/short.ck: corrupted or truncated" --iterations 3000 --restart "$work/short.ck"
    refuse "error: --restart $work/text.ck: not a dfgc checkpoint" --iterations 3000 --restart "$work/text.ck"
    refuse "error: --restart $work/missing.ck: cannot read it: No such file or directory" --restart "$work/missing.ck"
    refuse "error: --restart $work/hosts.ck: taken by a program on 2 hosts (ranks); this one runs on 1" --iterations 3000 --restart "$work/hosts.ck"
    refuse "error: --restart $work/other.ck: a checkpoint of application 'other', not of this program's 'checkpoint_run'" --iterations 3000 --restart "$work/other.ck"
    refuse "error: --restart $good: it resumes with iteration 2000, at or past the end of this run (--iterations 2000)" --iterations 2000 --restart "$good"
    refuse "error: --migrate a:A.c2@10: before iteration 2000, where the restarted run begins" --iterations 3000 --restart "$good" --migrate a:A.c2@10
    refuse "error: --checkpoint $work: not a regular file" --checkpoint "$work"
    refuse "error: --checkpoint $work/no/ck: cannot create '$work/no/ck.tmp': No such file or directory" --checkpoint "$work/no/ck"
    refuse "error: --checkpoint-every: needs --checkpoint FILE" --checkpoint-every 10
    refuse "error: --checkpoint-every: must be in [1, " --checkpoint "$ck" --checkpoint-every 0
    # The same application placed otherwise, and another version of it (N = 32): refused.
    compile test/generated/checkpoint_moved.dfg "$work/moved"
    build_cpu "$work/moved" "-Werror"
    app=$work/moved/build/app
    refuse "error: --restart $good: a checkpoint of another mapping of application 'checkpoint_run'" --iterations 3000 --restart "$good"
    compile test/generated/checkpoint_cores.dfg "$work/n32" -D N=32
    build_cpu "$work/n32" "-Werror"
    app=$work/n32/build/app
    refuse "error: --restart $good: a checkpoint of another version of application 'checkpoint_run'" --iterations 3000 --restart "$good"
    ;;
  packets_migrate_run)
    compile test/generated/packets_migrate.dfg "$work/gen"
    grep -q "^migration m : A.c0 -> A.c1" "$work/gen/schedule.txt" || fail "no migration of m in schedule.txt"
    if grep -E "^  (no-)?overlap: .* gap [1-9]" "$work/gen/schedule.txt"; then fail "the move leaves a gap"; fi
    # One build with the sanitizers: a store through a missing length cell is a null-pointer
    # store, caught at once.
    build_cpu "$work/gen" "-Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all -O1"
    for run in ":" "--no-overlap:" "--sync=barrier:" ":m:A.c1@0" "--no-overlap:m:A.c1@0" \
      ":m:A.c1@500" "--no-overlap --sync=barrier:m:A.c1@999"; do
      flags=${run%%:*} move=${run#*:}
      echo "== app --iterations 1000 $flags ${move:+--migrate $move}"
      # shellcheck disable=SC2086
      "$work/gen/build/app" --iterations 1000 $flags ${move:+--migrate $move} >"$work/out.txt" ||
        fail "packets_migrate $flags $move"
      grep -qx "packets checked: 1000, 128308 bytes" "$work/out.txt" ||
        fail "packets_migrate $flags $move: $(cat "$work/out.txt")"
    done
    ;;
  jpeg_run)
    make_jpeg_images
    compile samples/jpeg/one_core.dfg "$work/one_core"
    build_cpu "$work/one_core" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      for sync in neighbours barrier; do
        "$work/one_core/build/app" --iterations 70 $strategy --sync=$sync >"$work/out.txt" ||
          fail "jpeg $strategy --sync=$sync"
        grep -qx "jpeg checked: 70 images, 250680 pixels, largest difference 0" "$work/out.txt" ||
          fail "jpeg: $(cat "$work/out.txt")"
      done
    done
    # The pixels as one static actor on a second core: the island's records padded into a token.
    compile samples/jpeg/cpu_pixels.dfg "$work/pixels"
    build_cpu "$work/pixels" "-Wall -Wextra -Werror"
    for strategy in "" --no-overlap; do
      "$work/pixels/build/app" --iterations 70 $strategy >"$work/out.txt" || fail "jpeg pixels $strategy"
      grep -qx "jpeg checked: 70 images, 250680 pixels, largest difference 0" "$work/out.txt" ||
        fail "jpeg pixels: $(cat "$work/out.txt")"
    done
    # A file cut short: the island waits inside the scan for bytes that do not come and gives no
    # image for the iteration.
    mkdir -p "$work/cut"
    head -c 1000 "$work/images/a_64x48_420.jpg" >"$work/cut/a.jpg"
    cp "$work/images/a_64x48_420.ppm" "$work/cut/a.ppm"
    echo a.jpg >"$work/cut/list.txt"
    if JPEG_DIR=$work/cut "$work/one_core/build/app" --iterations 3 >/dev/null 2>"$work/cut.txt"; then fail "a cut file passed"; fi
    grep -qx "error: node island_mk (Island_mk) @ A.cpu, iteration 0: island island_mk: output 'cc_rgb' produced 0 of 36868 elements in iteration 0: no token for this iteration" \
      "$work/cut.txt" || fail "cut file: $(cat "$work/cut.txt")"
    # The sink checks every pixel: chroma rows repeated instead of libjpeg's fancy upsampling fails.
    mkdir -p "$work/wrong"
    cp -r samples/jpeg/actors samples/jpeg/jpeg.dfg samples/jpeg/one_core.dfg "$work/wrong/"
    sed -i 's|    int other = y % 2 == 0 ? i - 1 : i + 1;|    int other = i;|' "$work/wrong/actors/colour.hpp"
    grep -q "    int other = i;" "$work/wrong/actors/colour.hpp" || fail "the repeated rows were not patched in"
    compile "$work/wrong/one_core.dfg" "$work/wrong/gen"
    build_cpu "$work/wrong/gen" "-Werror"
    if "$work/wrong/gen/build/app" --iterations 7 >/dev/null 2>"$work/wrong.txt"; then fail "repeated chroma passed the check"; fi
    grep -q "iteration 0, a_64x48_420.jpg: pixel (" "$work/wrong.txt" || fail "repeated chroma: $(cat "$work/wrong.txt")"
    ;;
  jpeg_tsan)
    make_jpeg_images
    compile samples/jpeg/two_cores.dfg "$work/tsan"
    build_cpu "$work/tsan" "-Werror -fsanitize=thread -g -O1"
    for strategy in "" --no-overlap; do
      TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$work/tsan/build/app" --iterations 21 $strategy >"$work/out.txt" ||
        fail "jpeg under tsan $strategy"
      grep -qx "jpeg checked: 21 images, 75204 pixels, largest difference 0" "$work/out.txt" ||
        fail "jpeg under tsan: $(cat "$work/out.txt")"
    done
    ;;
  dyn_idct_gpu_build)
    find_nvcc
    compile samples/dyn_idct/one_gpu.dfg "$work/gen"
    build_gpu "$work/gen"
    ;;
  dyn_idct_parallel_gpu_build)
    find_nvcc
    compile samples/dyn_idct/parallel_gpu.dfg "$work/gen"
    build_gpu "$work/gen"
    ;;
  dyn_fir_gpu_build)
    find_nvcc
    for m in one_gpu parallel_gpu; do
      compile samples/dyn_fir/$m.dfg "$work/$m"
      build_gpu "$work/$m"
    done
    ;;
  dyn_fir_mixed_gpu_build)
    find_nvcc
    for m in m2 m6 parallel_m2; do
      compile samples/dyn_fir/$m.dfg "$work/$m"
      build_gpu "$work/$m"
    done
    ;;
  jpeg_gpu_build)
    find_nvcc
    compile samples/jpeg/one_gpu.dfg "$work/gen"
    build_gpu "$work/gen"
    ;;
  packets_gpu_build)
    find_nvcc
    compile samples/packets/one_gpu.dfg "$work/gen"
    build_gpu "$work/gen"
    ;;
  peek_run)
    # Inputs that peek (test/generated/peek.dfg): every output of three cores against the
    # formula, in both strategies and sync modes.
    compile test/generated/peek_cores.dfg "$work/gen"
    build_cpu "$work/gen" -Werror
    for mode in "" "--sync=barrier" "--no-overlap" "--no-overlap --sync=barrier" \
      "--migrate f:A.c2@25" "--migrate d:A.c1@40 --no-overlap" "--migrate f:A.c2@0 --sync=barrier"; do
      counts="1 3 1000"
      [[ $mode == *--migrate* ]] && counts="41 1000"  # a move within the run
      for iterations in $counts; do
        # shellcheck disable=SC2086
        "$work/gen/build/app" --iterations $iterations $mode >"$work/out.txt" 2>"$work/err.txt" ||
          fail "'$mode', $iterations iterations: exit $?: $(cat "$work/err.txt")"
        grep -qx "check: $iterations iterations, all equal" "$work/out.txt" ||
          fail "'$mode', $iterations iterations: $(cat "$work/out.txt" "$work/err.txt")"
      done
    done
    # Rates that are params (test/generated/rates_param.dfg): a composite's pyramid of one actor at
    # three rates and windows, one stage on another core and moving back; every output checked.
    compile test/generated/rates_param.dfg "$work/rates"
    build_cpu "$work/rates" -Werror
    for mode in "" "--sync=barrier" "--no-overlap" "--migrate p_d1:A.c1@7"; do
      # shellcheck disable=SC2086
      "$work/rates/build/app" --iterations 300 $mode >"$work/out.txt" 2>"$work/err.txt" ||
        fail "rates '$mode': exit $?: $(cat "$work/err.txt")"
      grep -qx "check: 300 iterations, all equal" "$work/out.txt" || fail "rates '$mode': $(cat "$work/out.txt")"
    done
    # Port groups (test/generated/port_groups.dfg): a split and a join of 3 ports and of 2 from one
    # composite, branches on other cores, one moving; every token checked.
    compile test/generated/port_groups.dfg "$work/groups" --app port_groups
    grep -q "dfg::Ports<const std::int64_t>(" "$work/groups/rank_A.cpp" ||
      fail "port groups: no dfg::Ports in the generated fire calls"
    build_cpu "$work/groups" -Werror
    for mode in "" "--sync=barrier" "--no-overlap" "--migrate fan3_f1:A.c2@17"; do
      # shellcheck disable=SC2086
      "$work/groups/build/app" --iterations 300 $mode >"$work/out.txt" 2>"$work/err.txt" ||
        fail "port groups '$mode': exit $?: $(cat "$work/err.txt")"
      for want in "check 3: 900 tokens, all equal" "check 2: 600 tokens, all equal"; do
        grep -qx "$want" "$work/out.txt" || fail "port groups '$mode': $(cat "$work/out.txt")"
      done
    done
    # samples/decimate on three cores: a decimating filter and a smoother against the reference.
    compile samples/decimate/cores.dfg "$work/decimate"
    build_cpu "$work/decimate" -Werror
    "$work/decimate/build/app" --iterations 300 >"$work/out.txt" || fail "decimate: exit $?"
    grep -qx "decimate: 76800 samples checked, all equal" "$work/out.txt" || fail "decimate: $(cat "$work/out.txt")"
    # A checkpoint holds each window's history: a restart gives the uninterrupted run's stream.
    rm -f "$work/ck"
    "$work/gen/build/app" --iterations 57 --checkpoint "$work/ck" --checkpoint-every 10 \
      >"$work/out.txt" 2>"$work/err.txt" || fail "checkpoints: exit $?: $(cat "$work/err.txt")"
    grep -qx "checkpoint: $work/ck holds iteration 50 (5 written)" "$work/err.txt" ||
      fail "checkpoints: $(cat "$work/err.txt")"
    for mode in "" "--sync=barrier" "--no-overlap"; do
      # shellcheck disable=SC2086
      "$work/gen/build/app" --iterations 57 --restart "$work/ck" $mode >"$work/out.txt" 2>"$work/err.txt" ||
        fail "restart '$mode': exit $?: $(cat "$work/err.txt")"
      grep -qx "check: 57 iterations, all equal" "$work/out.txt" || fail "restart '$mode': $(cat "$work/out.txt")"
    done
    # Delays in tokens (test/generated/token_delay.dfg): a block and 2 tokens, and 1 token, each
    # fed from another core; every token against the formula, across a move and a restart.
    compile test/generated/token_delay.dfg "$work/tokens"
    grep -q "window x delay 2 tokens = -1" "$work/tokens/schedule.txt" || fail "token delay: no window in schedule.txt"
    build_cpu "$work/tokens" -Werror
    for mode in "" "--sync=barrier" "--no-overlap" "--migrate f:A.c2@25" "--migrate f:A.c2@0 --no-overlap"; do
      # shellcheck disable=SC2086
      "$work/tokens/build/app" --iterations 1000 $mode >"$work/out.txt" 2>"$work/err.txt" ||
        fail "token delay '$mode': exit $?: $(cat "$work/err.txt")"
      grep -qx "check: 2000 tokens, all equal" "$work/out.txt" || fail "token delay '$mode': $(cat "$work/out.txt")"
    done
    rm -f "$work/ck"
    "$work/tokens/build/app" --iterations 57 --checkpoint "$work/ck" --checkpoint-every 10 >/dev/null 2>&1 ||
      fail "token delay checkpoints"
    "$work/tokens/build/app" --iterations 57 --restart "$work/ck" >"$work/out.txt" 2>&1 || fail "token delay restart"
    grep -qx "check: 114 tokens, all equal" "$work/out.txt" || fail "token delay restart: $(cat "$work/out.txt")"
    # Complex tokens (test/generated/complex.dfg): cfloat samples through a stateful mixer that
    # moves, a delayed edge with a real initial value; every sample bit for bit.
    compile test/generated/complex.dfg "$work/complex"
    build_cpu "$work/complex" "-Wall -Wextra -Werror"
    for mode in "" "--no-overlap" "--migrate m:A.c1@40" "--migrate m:A.c1@0 --sync=barrier"; do
      # shellcheck disable=SC2086
      "$work/complex/build/app" --iterations 300 $mode >"$work/out.txt" 2>"$work/err.txt" ||
        fail "complex '$mode': exit $?: $(cat "$work/err.txt")"
      grep -qx "check: 4800 samples, all equal" "$work/out.txt" || fail "complex '$mode': $(cat "$work/out.txt")"
    done
    # Struct tokens (test/generated/structs.dfg): hits with padded fields through a node that
    # moves and a delay of zeros, and a bounded list of a namespaced class; every field.
    compile test/generated/structs.dfg "$work/structs" --app structs
    build_cpu "$work/structs" "-Wall -Wextra -Werror"
    for mode in "" "--no-overlap" "--migrate g:A.c1@40" "--migrate g:A.c1@0 --sync=barrier"; do
      # shellcheck disable=SC2086
      "$work/structs/build/app" --iterations 300 $mode >"$work/out.txt" 2>"$work/err.txt" ||
        fail "structs '$mode': exit $?: $(cat "$work/err.txt")"
      grep -qx "check: 2242 elements, all equal" "$work/out.txt" || fail "structs '$mode': $(cat "$work/out.txt")"
    done
    ;;
  streamit_run)
    # StreamIt's programs (samples/streamit), against StreamIt's own output files.
    # StreamIt's FilterBank (samples/streamit/filterbank) on one core and on eight: the first 800
    # outputs equal StreamIt's own output file, line for line.
    for mapping in one_core cores; do
      compile "samples/streamit/filterbank/$mapping.dfg" "$work/fb_$mapping"
      build_cpu "$work/fb_$mapping" -Werror
      "$work/fb_$mapping/build/app" --iterations 128 >"$work/out.txt" 2>"$work/err.txt" ||
        fail "filterbank $mapping: exit $?: $(cat "$work/err.txt")"
      head -800 "$work/out.txt" | cmp -s - <(head -800 samples/streamit/filterbank/reference.out) ||
        fail "filterbank $mapping: the output differs from StreamIt's reference.out"
    done
    # StreamIt's BeamFormer (samples/streamit/beamformer: port groups) on one core and on eight:
    # both print the same 400 lines, each within 2e-6 of StreamIt's own output file (its float
    # arithmetic, not bit for bit: samples/streamit/README.md).
    for mapping in one_core cores; do
      compile "samples/streamit/beamformer/$mapping.dfg" "$work/bf_$mapping"
      build_cpu "$work/bf_$mapping" -Werror
      "$work/bf_$mapping/build/app" --iterations 100 >"$work/bf_$mapping.txt" 2>"$work/err.txt" ||
        fail "beamformer $mapping: exit $?: $(cat "$work/err.txt")"
      paste -d ' ' "$work/bf_$mapping.txt" samples/streamit/beamformer/reference.out | awk '
        NF != 2 || ($1 - $2) / $2 > 2e-6 || ($2 - $1) / $2 > 2e-6 { bad = NR ": " $0; exit }
        END { if (bad != "" || NR != 400) { print "line " bad " of " NR; exit 1 } }' >"$work/cmp.txt" ||
        fail "beamformer $mapping: the output differs from StreamIt's reference.out: $(cat "$work/cmp.txt")"
    done
    cmp -s "$work/bf_one_core.txt" "$work/bf_cores.txt" || fail "beamformer: eight cores print other values than one"
    # StreamIt's FMRadio (samples/streamit/fmradio: a warm-up of 76 firings that the sink skips)
    # on eight cores: StreamIt's first output first, and 10000 lines each within 1.5e-7 (two
    # units in the last place) of StreamIt's own output file, at least 9300 of them equal.
    compile samples/streamit/fmradio/cores.dfg "$work/fm"
    grep -q "warm_up(76);" "$work/fm/rank_A.cpp" || fail "fmradio: the sink's warm-up is not 76 firings"
    build_cpu "$work/fm" -Werror
    "$work/fm/build/app" --iterations 10112 >"$work/fm.txt" 2>"$work/err.txt" ||
      fail "fmradio: exit $?: $(cat "$work/err.txt")"
    head -10000 "$work/fm.txt" | paste -d ' ' - samples/streamit/fmradio/reference.out | awk '
      NR == 1 && $1 != $2 { bad = NR ": " $0; exit }
      NF != 2 || ($1 - $2) / $2 > 1.5e-7 || ($2 - $1) / $2 > 1.5e-7 { bad = NR ": " $0; exit }
      $1 == $2 { equal++ }
      END { if (bad != "" || NR != 10000 || equal < 9300) { print "line " bad " of " NR ", " equal " equal"; exit 1 } }' \
      >"$work/cmp.txt" || fail "fmradio: the output differs from StreamIt's reference.out: $(cat "$work/cmp.txt")"
    ;;
  peek_gpu_build)
    # Both filters on a GPU; bench/peek/gpu_run.sh runs it.
    "$dfgc" schedule --emit=plan test/generated/peek_gpu.dfg >"$work/plan.txt"
    grep -qx "      cycles as CUDA graphs: the slots and windows repeat every 2 cycles" "$work/plan.txt" ||
      fail "the plan's graphs: $(grep "cycles as\|call by call" "$work/plan.txt")"
    compile test/generated/peek_gpu.dfg "$work/gen"
    find_nvcc
    build_gpu "$work/gen"
    # Port groups on a GPU (test/generated/port_groups.dfg): a split and a join whose fire takes
    # dfg::Ports of device pointers.
    compile test/generated/port_groups.dfg "$work/groups" --app port_groups_gpu
    grep -q "dfg::Ports<const std::int64_t>(" "$work/groups/rank_A_g0.cu" ||
      fail "port groups: no dfg::Ports in the GPU's fire calls"
    build_gpu "$work/groups"
    # Struct tokens on a GPU (test/generated/structs.dfg's structs_gpu): a kernel reads and
    # writes the hits, and the GPU's source holds their class to the spec's layout.
    compile test/generated/structs.dfg "$work/structs" --app structs_gpu
    grep -q "static_assert(sizeof(::Hit) == 32" "$work/structs/rank_A_g0.cu" ||
      fail "structs: no layout check in the GPU's source"
    build_gpu "$work/structs"
    ;;
  stream_end_gpu_build)
    # The reader on a CPU ends the stream of a GPU that relaunches its cycles as CUDA graphs;
    # bench/stream_end/gpu_run.sh runs it on a GPU.
    "$dfgc" schedule --emit=plan test/generated/stream_end_gpu.dfg >"$work/plan.txt"
    grep -qx "      cycles as CUDA graphs: the slots repeat every 2 cycles" "$work/plan.txt" ||
      fail "the plan's graphs: $(grep "cycles as\|call by call" "$work/plan.txt")"
    compile test/generated/stream_end_gpu.dfg "$work/gen"
    find_nvcc
    build_gpu "$work/gen"
    ;;
  graph_cycles_gpu_build)
    "$dfgc" schedule --emit=plan test/generated/graph_cycles.dfg >"$work/plan.txt"
    grep -qx "      cycles as CUDA graphs: the slots repeat every 1 cycles; up to 8 cycles a graph (no neighbours)" \
      "$work/plan.txt" || fail "the plan's graphs: $(grep "cycles as\|call by call" "$work/plan.txt")"
    compile test/generated/graph_cycles.dfg "$work/gen"
    grep -q "^  items.graphs(1, 8);" "$work/gen/rank_A_g0.cu" || fail "the worker does not ask for 8 cycles a graph"
    grep -q "^  e_node_.finish();" "$work/gen/rank_A_g0.cu" || fail "the sink's finish() waits for a host firing"
    find_nvcc
    build_gpu "$work/gen"
    ;;
  iir_gpu_build)
    find_nvcc
    compile samples/iir/one_gpu.dfg "$work/gen"
    build_gpu "$work/gen"
    ;;
  multirate_gpu_build)
    find_nvcc
    compile samples/multirate/one_gpu.dfg "$work/gen"
    build_gpu "$work/gen"
    ;;
  gpu_build)
    find_nvcc
    compile "samples/overlap/$mapping.dfg" "$work/gen"
    build_gpu "$work/gen"
    ;;
  granulometry_gpu_build)
    find_nvcc
    compile samples/granulometry/granulometry.dfg "$work/gen"
    build_gpu "$work/gen"
    "$nvcc" -std=c++20 -arch=sm_90 -Xcompiler=-Wall,-Wextra,-Werror -Werror all-warnings \
      bench/granulometry/packed_check.cu -o "$work/packed_check" || fail "packed_check does not build"
    ;;
  saliency_cpu)
    compile samples/saliency/cpu_only.dfg "$work/gen"
    build_cpu "$work/gen" "-Werror"
    for size in 64x48 63x47; do
      for strategy in "" --no-overlap; do
        echo "== app --iterations 12 --set W=${size%x*} --set H=${size#*x} --set CHECK=1 $strategy"
        "$work/gen/build/app" --iterations 12 --set "W=${size%x*}" --set "H=${size#*x}" --set CHECK=1 $strategy \
          | tee "$work/run.txt" || fail "saliency $size $strategy"
        [[ $(grep -c "against the CPU reference: " "$work/run.txt") == 12 ]] || fail "not every map was checked"
      done
    done
    ;;
  saliency_gpu_build)
    find_nvcc
    for mapping in one_gpu two_gpus two_gpus_replicas; do
      compile "samples/saliency/$mapping.dfg" "$work/$mapping"
      grep -q "CUDA::cufft" "$work/$mapping/CMakeLists.txt" || fail "$mapping does not link cuFFT"
      build_gpu "$work/$mapping"
    done
    ;;
  determinism)
    compile samples/overlap/one_gpu.dfg "$work/a/gen"
    compile samples/overlap/one_gpu.dfg "$work/b/gen"
    diff -r "$work/a/gen" "$work/b/gen" || fail "two compiles differ"
    # From another working directory, the spec by another path, into a directory at another depth.
    mkdir -p "$work/cwd"
    (cd "$work/cwd" && "$dfgc" compile "$root/samples/../samples/overlap/one_gpu.dfg" -o ../c/d/gen) ||
      fail "compile from $work/cwd"
    diff -r "$work/a/gen" "$work/c/d/gen" || fail "a compile from another directory into another one differs"
    # From another working directory into the same directory: nothing rewritten.
    touch -d '2000-01-01' "$work/a/gen/app.hpp"
    compile samples/overlap/one_gpu.dfg "$work/a/gen"
    (cd samples/overlap && "$dfgc" compile one_gpu.dfg -o "$work/a/gen") || fail "compile from samples/overlap"
    [[ $(stat -c %Y "$work/a/gen/app.hpp") == $(date -d '2000-01-01' +%s) ]] ||
      fail "an unchanged file was rewritten"
    diff -r "$work/a/gen" "$work/b/gen" || fail "a compile from another directory into the same one differs"
    ! grep -rn "$root\|$work\|/tmp/\|samples/" "$work/a/gen" --exclude-dir=runtime || fail "a path of the build machine in the project"
    ;;
  movable)
    compile samples/overlap/cpu_only.dfg "$work/gen" -D N=64
    mkdir -p "$work/elsewhere/deeper"
    mv "$work/gen" "$work/elsewhere/deeper/moved"
    build_cpu "$work/elsewhere/deeper/moved" "-Werror"
    for strategy in "" --no-overlap; do
      "$work/elsewhere/deeper/moved/build/app" --iterations 100 $strategy || fail "run $strategy"
    done
    ;;
  refusals)
    mkdir -p "$work/foreign" && echo mine >"$work/foreign/notes.txt"
    if compile samples/overlap/cpu_only.dfg "$work/foreign" 2>"$work/err.txt"; then fail "foreign dir accepted"; fi
    grep -q "refusing to write into" "$work/err.txt" || fail "foreign dir message"
    [[ $(ls "$work/foreign") == notes.txt ]] || fail "foreign dir touched"
    printf 'import "%s/samples/overlap/overlap.dfg";\narch a { host A { cpu; } }\napp x on a { node p : Producer @ A.cpu; node q : Nope @ A.cpu; }\n' "$root" >"$work/bad.dfg"
    status=0
    compile "$work/bad.dfg" "$work/bad" 2>"$work/err.txt" || status=$?
    [[ $status == 1 ]] || fail "bad spec: exit $status"
    [[ ! -e $work/bad ]] || fail "bad spec: something written"
    ls "$work" | grep -q dfgc-tmp && fail "a temporary directory was left"
    ;;
  runtime_params)
    compile test/generated/square_one_host.dfg "$work/gen"
    build_cpu "$work/gen" "-Werror"
    app="$work/gen/build/app"
    "$app" --iterations 100 --set N=16 --set LOOPS=1000 || fail "a valid --set"
    printf 'N = 8   # side\nLOOPS = 1\n' >"$work/params.txt"
    "$app" --iterations 100 --params "$work/params.txt" || fail "a valid --params"
    "$app" --iterations 10 --trace /dev/null --hostmap A=0 || fail "--trace /dev/null, --hostmap A=0"
    # refuse LINE ARGS...: exit 1 within seconds, LINE alone on stderr, nothing on stdout.
    refuse() {
      local line=$1 rc=0
      shift
      echo "== app $*"
      timeout 20 "$app" "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
      cat "$work/err.txt"
      [[ $rc == 1 ]] || fail "app $*: exit $rc"
      [[ $(cat "$work/err.txt") == "$line" ]] || fail "app $*: expected '$line'"
      [[ ! -s $work/out.txt ]] || fail "app $*: printed $(head -3 "$work/out.txt")"
    }
    square="error: type Square = float[N * N] with N"
    refuse "$square = 0: a token size must be positive, N * N is 0" --set N=0
    refuse "$square = 4294967296: the element count overflows a 64-bit integer" --set N=4294967296
    refuse "$square = 4611686018427387905: the element count overflows a 64-bit integer" --set N=4611686018427387905
    refuse "$square = 3037000499: 9223372030926249001 elements of 4 bytes overflow a 64-bit byte count" \
      --set N=3037000499
    printf 'N = 0\n' >"$work/zero.txt"
    refuse "$square = 0: a token size must be positive, N * N is 0" --params "$work/zero.txt"
    refuse "error: --set LOOPS=0: LOOPS must be in [1, 1000]" --set LOOPS=0
    refuse "error: --set N=12x: N: expected an integer, got '12x'" --set N=12x
    refuse "error: --set N=99999999999999999999: N: integer out of range, got '99999999999999999999'" \
      --set N=99999999999999999999
    refuse "error: --iterations: must be in [1, 4611686018427387904], got 9223372036854775807" \
      --iterations 9223372036854775807
    refuse "error: --params: '/tmp' is a directory, not a file" --params /tmp
    refuse "error: --params: '/dev/zero' is not a regular file" --params /dev/zero
    refuse "error: --hostmap: unknown host 'Z'; this program runs one host, A, on rank 0 (it is not an MPI program)" \
      --hostmap Z=9
    refuse "error: --trace /nonexistent/dir/t.json: cannot open for writing (No such file or directory)" \
      --iterations 100000000000 --trace /nonexistent/dir/t.json
    refuse "error: --profile /tmp: is a directory, not a file" --iterations 100000000000 --profile /tmp
    for flags in "--iterations 10 --stats" --help; do
      rc=0
      "$app" $flags >/dev/full 2>"$work/err.txt" || rc=$?
      [[ $rc == 1 ]] || fail "app $flags >/dev/full: exit $rc"
      grep -qx "error: cannot write the standard output" "$work/err.txt" || fail "app $flags >/dev/full: message"
    done
    ;;
  actor_headers)
    # Two headers named filter.hpp, one below a directory named with a space, ';' and ')', each
    # including a header above its directory by a '..' path.
    src="$work/src" odd='odd dir;q) x'
    mkdir -p "$src/$odd/a" "$src/plain/b" "$src/common"
    printf '#pragma once\ninline constexpr float kOne = 1.0f;\n' >"$src/common/one.hpp"
    # And one header by its name alone, found in its directory as an include directory.
    printf '#pragma once\ninline constexpr int kLocal = 1;\n' >"$src/$odd/a/local.hpp"
    for class in PlusOne PlusOneMore; do
      dir=$([[ $class == PlusOne ]] && echo "$odd/a" || echo plain/b)
      local=$([[ $class == PlusOne ]] && echo "#include <local.hpp>" || echo)
      cat >"$src/$dir/filter.hpp" <<EOF
#pragma once
#include <cstddef>
#include <dfg/context.hpp>
#include "../../common/one.hpp"
$local
struct $class {
  void fire(const float* a, float* b, dfg::Context& ctx) {
    for (std::size_t i = 0; i < ctx.elements(0); ++i) b[i] = a[i] + kOne;
  }
};
EOF
    done
    cp samples/overlap/actors/producer.hpp samples/overlap/actors/consumer.hpp "$src/$odd"
    cat >"$work/spec.dfg" <<EOF
type Row = float[64];
actor Producer { out Row m; cpu "src/$odd/producer.hpp" Producer; }
actor First    { in Row a; out Row b; cpu "src/$odd/a/filter.hpp" PlusOne; }
actor Second   { in Row a; out Row b; cpu "src/plain/b/filter.hpp" PlusOneMore; }
actor Consumer { in Row m; cpu "src/$odd/consumer.hpp" Consumer; }
arch one { host A { cpu; } }
app headers on one {
  node p : Producer @ A.cpu;
  node f : First @ A.cpu;
  node s : Second @ A.cpu;
  node c : Consumer @ A.cpu;
  p.m -> f.a;  f.b -> s.a;  s.b -> c.m;
}
EOF
    compile "$work/spec.dfg" "$work/gen"
    for file in "$odd/a/filter.hpp" "$odd/a/local.hpp" plain/b/filter.hpp common/one.hpp "$odd/producer.hpp"; do
      cmp "$src/$file" "$work/gen/actors/$file" || fail "actors/$file is not a copy of the header"
      grep -qxF "actors/$file" "$work/gen/dfgc-manifest.txt" || fail "actors/$file is not in the manifest"
    done
    grep -qF "#include \"$odd/a/filter.hpp\"" "$work/gen/rank_A.cpp" || fail "the include of $odd/a/filter.hpp"
    grep -qF ' [[actors/odd dir\;q) x/a]])' "$work/gen/CMakeLists.txt" ||
      fail "the include directory actors/$odd/a is not in CMakeLists.txt"
    # The build reads the copies: the originals are out of its way.
    mv "$src" "$work/src.away"
    build_cpu "$work/gen" "-Werror"
    for strategy in "" --no-overlap; do
      "$work/gen/build/app" --iterations 100 $strategy || fail "run $strategy"
    done
    # A header the actors no longer include is removed by the next compile.
    mv "$work/src.away" "$src"
    sed -i '/one.hpp/d; s/kOne/1.0f/' "$src/$odd/a/filter.hpp" "$src/plain/b/filter.hpp"
    compile "$work/spec.dfg" "$work/gen"
    [[ ! -e $work/gen/actors/common ]] || fail "actors/common/one.hpp was kept"
    cmp "$src/plain/b/filter.hpp" "$work/gen/actors/plain/b/filter.hpp" || fail "actors/plain/b/filter.hpp not replaced"
    ;;
  hostile_names)
    mkdir -p "$work/actors"
    cat >"$work/actors/hostile.hpp" <<'EOF'
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <dfg/context.hpp>
struct Run {  // the source: iteration + offset
  int offset = 0;
  void fire(float* out, dfg::Context& ctx) {
    for (std::size_t i = 0; i < ctx.elements(0); ++i) out[i] = static_cast<float>(ctx.iteration() % 1000 + offset);
  }
};
struct Worker {  // adds one
  void fire(const float* in, float* params, dfg::Context& ctx) {
    for (std::size_t i = 0; i < ctx.elements(0); ++i) params[i] = in[i] + 1.0f;
  }
};
struct Params {  // the sink: checks iteration + expected, and the token size
  int expected = 0;
  std::int64_t size = 0;
  void fire(const float* main, dfg::Context& ctx) {
    if (static_cast<std::int64_t>(ctx.elements(0)) != size)
      throw std::runtime_error("size " + std::to_string(ctx.elements(0)) + ", expected " + std::to_string(size));
    for (std::size_t i = 0; i < ctx.elements(0); ++i)
      if (main[i] != static_cast<float>(ctx.iteration() % 1000 + expected))
        throw std::runtime_error("iteration " + std::to_string(ctx.iteration()) + ": got " + std::to_string(main[i]));
  }
};
EOF
    cat >"$work/hostile.dfg" <<'EOF'
param std = 4;
param dfg = 2;
runtime param params = 3;
runtime param Params = 1;
param M_PI = 1;
param CUDART_VERSION = 1;
runtime param FD_SETSIZE = 1;
runtime param SCHED_OTHER = 0;
type T = float[std * dfg * M_PI * CUDART_VERSION + min(params, Params) * FD_SETSIZE + SCHED_OTHER];
type elements_T = float[std];
actor Run    { out T out; param int offset = 0; cpu "actors/hostile.hpp" Run; }
actor Worker { in T in; out T params; cpu "actors/hostile.hpp" Worker; gpu "actors/hostile.cuh" WorkerGpu; }
actor Params { in T main; param int expected = 0; param int64 size = 0; cpu "actors/hostile.hpp" Params; }
arch std { host app { cpu; } }
arch gpus { host app { cpu; gpu compute = 0; } link app.cpu <-> app.compute pcie (25 GB/s); }
app main on std {
  node run        : Run    @ app.cpu { offset = 5; }
  node p          : Worker @ app.cpu;
  node p_elements : Worker @ app.cpu;
  node p_ctx      : Worker @ app.cpu;
  node params     : Worker @ app.cpu;
  node main       : Worker @ app.cpu;
  node app        : Worker @ app.cpu;
  node dfg        : Worker @ app.cpu;
  node std        : Worker @ app.cpu;
  node storage    : Worker @ app.cpu;
  node c          : Worker @ app.cpu;
  node j          : Params @ app.cpu { expected = 15; size = 9; }
  run.out -> p.in;  p.params -> p_elements.in;  p_elements.params -> p_ctx.in;
  p_ctx.params -> params.in;  params.params -> main.in;  main.params -> app.in;
  app.params -> dfg.in;  dfg.params -> std.in;  std.params -> storage.in;
  storage.params -> c.in;  c.params -> j.main;
}
app on_gpu on gpus {
  node run     : Run    @ app.cpu;
  node compute : Worker @ app.compute;
  node probes  : Worker @ app.compute;
  node h2d     : Worker @ app.compute;
  node peer    : Worker @ app.compute;
  node j       : Params @ app.cpu { expected = 4; size = 9; }
  run.out -> compute.in;  compute.params -> probes.in;  probes.params -> h2d.in;
  h2d.params -> peer.in;  peer.params -> j.main;
}
EOF
    cat >"$work/actors/hostile.cuh" <<'EOF'
#pragma once
#include <cstddef>
#include <cuda_runtime.h>
#include <dfg/context.hpp>
static __global__ void hostile_add_one(const float* in, float* out, std::size_t n) {
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1.0f;
}
struct WorkerGpu {
  void fire(const float* in, float* params, dfg::Context& ctx) {
    hostile_add_one<<<1, 256, 0, ctx.stream()>>>(in, params, ctx.elements(0));
  }
};
EOF
    compile "$work/hostile.dfg" "$work/gen" --app main
    build_cpu "$work/gen" "-Werror"
    for strategy in "" --no-overlap; do
      "$work/gen/build/app" --iterations 100 $strategy || fail "run $strategy"
    done
    # min(params, Params) = 1 by default; with Params = 5 the token has 4 * 2 + 3 elements.
    if "$work/gen/build/app" --iterations 3 --set Params=5 2>"$work/err.txt"; then fail "--set Params=5 left the size"; fi
    grep -q "size 11, expected 9" "$work/err.txt" || fail "--set Params=5: $(cat "$work/err.txt")"
    # GPU nodes named like the GPU worker's own members (compute_, probes_, h2d_, peer_): built
    # with nvcc where there is one (not run: CI has no GPU).
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    if [[ -x $nvcc ]]; then
      compile "$work/hostile.dfg" "$work/gpu" --app on_gpu
      cmake -S "$work/gpu" -B "$work/gpu/build" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CXX_COMPILER=g++ \
        -DCMAKE_CUDA_HOST_COMPILER=g++ -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CXX_FLAGS=-Werror \
        -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null
      cmake --build "$work/gpu/build" -j 2
      [[ -x $work/gpu/build/app ]] || fail "no GPU executable"
    fi
    ;;
  *) fail "unknown case '$case'" ;;
esac
echo "ok: $case $mapping"
