/// \file
/// The start-up and the end of a generated program's run, written once here instead of in every
/// generated rank file: the checks before anything runs (the token sizes at the runtime params'
/// values, the output files, and on one host --migrate and --hostmap), the initial iteration
/// windows, the worker threads (run_workers(), spawn_workers()), and the reports written after
/// they joined (report(): --trace, --stats, --stats-json, --profile). The application layer above
/// dfg/run.hpp: only the generated file with main includes it.
///
/// `Entry` is the generated program's EntryInfo: kind, name, where, track, first_cycle,
/// bytes(params) (or null), profile, at, step. `Params` is its runtime-param struct.
///
/// Guarantees: called by the main thread only, before the workers start (start_up_error) or after
/// they joined (write_reports, report), or as main itself (one_host_main, which blocks while the
/// run lasts; run_workers, which blocks until every worker thread has ended); they allocate, and
/// do not block beyond opening and writing the report files and joining the workers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/flags.hpp"
#include "dfg/migration.hpp"
#include "dfg/outputs.hpp"
#include "dfg/pin.hpp"
#include "dfg/probe.hpp"
#include "dfg/profile.hpp"
#include "dfg/run.hpp"
#include "dfg/size.hpp"
#include "dfg/stats.hpp"
#include "dfg/trace.hpp"
#include "dfg/window.hpp"
#include "dfg/worker.hpp"

namespace dfg {

/// --hostmap given to a program on the one host `host`: it is not an MPI program, so the only
/// map is its host on rank 0 (`A=0`). "" for that, else the one-line error; an unknown host name
/// is named.
inline std::string one_host_hostmap_error(std::string_view hostmap, std::string_view host) {
  auto trim = [](std::string_view s) {
    const auto b = s.find_first_not_of(" \t");
    return b == std::string_view::npos ? std::string_view()
                                       : s.substr(b, s.find_last_not_of(" \t") - b + 1);
  };
  const std::string runs =
      "this program runs one host, " + std::string(host) + ", on rank 0 (it is not an MPI program)";
  const auto eq = hostmap.find('=');
  const std::string_view name = trim(hostmap.substr(0, eq));
  if (eq != std::string_view::npos && name != host && !name.empty() &&
      name.find(',') == std::string_view::npos) {
    return "error: --hostmap: unknown host '" + std::string(name) + "'; " + runs;
  }
  if (eq != std::string_view::npos && name == host && trim(hostmap.substr(eq + 1)) == "0")
    return {};
  return "error: --hostmap: expected " + std::string(host) + "=0, got '" + std::string(hostmap) +
         "'; " + runs;
}

/// The start-up checks of a program on the one host `host`, after parse_flags: --migrate against
/// the alternatives of the strategy that runs (check_requests), a --hostmap that names only `host`
/// on rank 0, every token size of `sizes` valid at `params` (dfg/size.hpp), the output files. "" or
/// the one-line error.
template <class Sizes, class Params>
std::string start_up_error(const Options& options, std::string_view host, const Sizes& sizes,
                           const Params& params, std::span<const RuntimeParam> table,
                           std::span<const Alternative> alternatives = {}) {
  if (std::string e = check_requests(options, alternatives); !e.empty()) return e;
  if (alternatives.empty() && !options.migrate_control.empty())
    return "error: --migrate-control: this program has no alternative mappings";
  if (alternatives.empty() && options.rebalance_ms > 0)
    return "error: --rebalance: this program has no alternative mappings (a node moves only to "
           "the PEs its `migrates` names)";
  if (!options.hostmap.empty()) {
    if (std::string e = one_host_hostmap_error(options.hostmap, host); !e.empty()) return e;
  }
  if (std::string e = token_size_error(sizes, params, table, options.params); !e.empty()) return e;
  return open_outputs(options, false);
}

/// The main of a program on the one host `host`: parses the flags (--help prints the usage), runs
/// the start-up checks (start_up_error), then `run_host(options)` under main_guard; stdout is
/// flushed and checked at the end (finish_stdout). Returns the exit status. `batch`: the
/// iterations a cycle runs (parse_flags), the generated kBatch of a batched app.
template <class Sizes, class ParamsOf, class RunHost>
int one_host_main(int argc, char** argv, std::string_view host, std::span<const RuntimeParam> table,
                  const Sizes& sizes, ParamsOf params_of, RunHost run_host,
                  std::span<const Alternative> overlap_alternatives = {},
                  std::span<const Alternative> no_overlap_alternatives = {},
                  std::int64_t batch = 1) {
  const FlagsResult flags = parse_flags(argc, argv, table, batch);
  if (!flags.ok()) {
    std::cerr << flags.error << '\n';
    return 1;
  }
  if (flags.options.help) {
    std::cout << usage(argv[0], table, batch);
    return finish_stdout(0, std::cerr);
  }
  const std::string error =
      start_up_error(flags.options, host, sizes, params_of(flags.options.params), table,
                     flags.options.overlap ? overlap_alternatives : no_overlap_alternatives);
  if (!error.empty()) {
    std::cerr << error << '\n';
    return 1;
  }
  return finish_stdout(main_guard(std::cerr, [&] { return run_host(flags.options); }), std::cerr);
}

/// The host of a rank's processing elements: "A" of "A.g0".
template <std::size_t PeCount>
std::string host_of(const std::array<const char*, PeCount>& pe_names) {
  if (PeCount == 0) return {};
  const std::string_view pe = pe_names[0];
  return std::string(pe.substr(0, pe.find('.')));
}

/// The host of a PE name: "A" of "A.g0".
inline std::string_view host_of_pe(std::string_view pe) { return pe.substr(0, pe.find('.')); }

/// Whether some transfer of `entries` joins two hosts (the program runs on several ranks).
template <class Entry>
bool several_hosts(std::span<const Entry> entries) {
  for (const Entry& e : entries) {
    const std::string_view where = e.where;
    const auto arrow = where.find('>');
    if (arrow != std::string_view::npos &&
        host_of_pe(where.substr(0, arrow)) != host_of_pe(where.substr(arrow + 1)))
      return true;
  }
  return false;
}

/// Writes --stats-json FILE (dfg/stats.hpp): "" or the one-line error.
inline std::string write_stats_json(const Options& options, const Stats& stats,
                                    const std::string& host, bool complete = true) {
  RunSettings run{
      host, options.overlap, options.sync == SyncMode::barrier, options.iterations * options.batch,
      {},   complete};
  for (std::size_t i = 0; i < options.params.size() && i < options.param_names.size(); ++i)
    run.params.emplace_back(options.param_names[i], options.params[i]);
  Stats::Summary summary = stats.summary();
  if (!options.measures_items()) summary.entries.clear();
  std::ofstream out(options.stats_json_file, std::ios::binary | std::ios::trunc);
  out << stats.json(summary, run);
  out.flush();
  if (!out) return "error: --stats-json: cannot write '" + options.stats_json_file + "'";
  return {};
}

/// After the run: writes the trace, prints the stats, writes the JSON stats and the profile, as
/// the options ask. Returns the exit status (1 when a file cannot be written). After a run that
/// stopped on an error (`complete` false) the files hold what was measured up to the stop,
/// marked so (a trace's process label, `"complete": false` in the JSON stats and the profile),
/// and nothing is printed.
template <class Entry, class Params, std::size_t PeCount>
int write_reports(const Options& options, Tracer& tracer, const Stats* stats, bool overlap,
                  std::int64_t iterations, const std::array<const char*, PeCount>& pe_names,
                  const std::array<const char*, PeCount>& pe_kinds, std::span<const Entry> entries,
                  const Params& params, bool complete = true) {
  if (!complete) tracer.set_incomplete();
  if (!options.trace_file.empty()) {
    if (const std::string error = tracer.write_file(options.trace_file); !error.empty()) {
      std::cerr << error << '\n';
      return 1;
    }
  }
  const std::string host = several_hosts(entries) ? host_of(pe_names) : std::string();
  if (stats && options.stats && complete) stats->print(std::cout, options.stats_per_item, host);
  if (stats && !options.stats_json_file.empty()) {
    if (const std::string error = write_stats_json(options, *stats, host_of(pe_names), complete);
        !error.empty()) {
      std::cerr << error << '\n';
      return 1;
    }
  }
  if (stats && !options.profile_file.empty()) {
    Profile profile(overlap, iterations, stats->summary());
    for (std::size_t pe = 0; pe < PeCount; ++pe) profile.add_pe(pe_names[pe], pe_kinds[pe]);
    profile.set_host(host);
    if (!complete) profile.set_incomplete();
    for (const Entry& e : entries)
      profile.add_entry(e.kind, e.profile, e.where, e.bytes ? e.bytes(params) : 0, e.step, e.at);
    if (const std::string error = profile.write(options.profile_file); !error.empty()) {
      std::cerr << error << '\n';
      return 1;
    }
    if (!profile.period_measured() && complete)
      std::cerr
          << "warning: --profile: too few iterations to measure the period; no cycle overhead written\n";
  }
  return 0;
}

/// After the workers of `run` joined: writes the trace, prints the stats, writes the profile
/// (write_reports). `complete` false: the run stopped on an error (the files are marked so).
/// Returns the exit status.
template <class Run>
int report(Run& run, const Options& options, bool complete = true) {
  return write_reports(options, run.tracer, run.stats.get(), run.overlap, run.iterations,
                       run.pe_names, run.pe_kinds, run.entries, run.params, complete);
}

/// Starts `workers[pe]->run(where, run.overlap)` on a thread of `threads` named `names[pe]`,
/// pinned to core pe with --pin-cpus. The first worker's run goes through `first(where, cycles)`,
/// which calls `cycles()` (a rank of a program on several hosts runs its communication thread
/// around it: dfg::mpi::run_mpi_worker); the others' directly. `first` is copied into the
/// threads. Each thread calls threads.cycles_ended() once its cycles end, returned or thrown. The
/// caller joins `threads`.
template <class Run, class Worker, std::size_t PeCount, class First>
void spawn_workers(Workers& threads, Run& run, const std::vector<std::unique_ptr<Worker>>& workers,
                   const std::array<const char*, PeCount>& names, const Options& options,
                   First first) {
  const bool pin = options.pin_cpus;
  for (std::size_t pe = 0; pe < workers.size(); ++pe) {
    Worker& worker = *workers[pe];
    threads.spawn(names[pe], [&worker, &run, &threads, first, pe, pin](Where& where) mutable {
      if (pin) pin_this_thread(pe);
      auto cycles = [&] {
        struct Ended {
          Workers& threads;
          ~Ended() { threads.cycles_ended(); }
        } ended{threads};
        worker.run(where, run.overlap);
      };
      if (pe == 0) {
        first(where, cycles);
      } else {
        cycles();
      }
    });
  }
}

/// After a run whose workers all ended their cycles without an error: each node's finish()
/// (PeWorker::finish), on the main thread, PE by PE. Returns 0, or 1 after printing the error of
/// the finish that threw (`error: node k (Check) @ A.c0: ...`): the run then did not complete.
template <class Worker>
int finish_workers(const std::vector<std::unique_ptr<Worker>>& workers,
                   Abort& abort = process_abort()) {
  Where where;
  try {
    for (const std::unique_ptr<Worker>& w : workers) w->finish(where);
  } catch (...) {
    detail::record_current_exception(abort, "finish", where);
    return abort.report(std::cerr);
  }
  return 0;
}

/// After a run that completed: where a node ended the stream before --iterations, one line on
/// `err` ("end of stream: node r (Reader) @ A.c0 ended the stream after iteration 41 (of
/// --iterations 100)"), with the iterations the run's last cycle held beyond it (a batch).
template <class Run>
void report_stream_end(const Run& run, std::ostream& err) {
  const StreamEnd& end = run.stream_end;
  if (!end.ended()) return;
  const std::int64_t first = run.runtime_params.first_cycle;
  const std::int64_t asked = end.asked_in();
  const std::int64_t ran = (end.last() + 1 + first) * run.batch - 1;  // the last iteration run
  err << "end of stream: " << end.who() << " ended the stream "
      << (asked < 0 ? std::string("before iteration 0")
                    : "after iteration " + std::to_string(asked))
      << " (of --iterations " << (run.iterations + first) * run.batch << ")";
  if (ran > asked)
    err << "; iterations " << asked + 1 << " to " << ran << " ran too, in the cycle of "
        << run.batch << " iterations that holds it";
  err << '\n';
}

/// Runs `workers[pe]->run(where, run.overlap)` on a thread of its own named `names[pe]` (pinned
/// to core pe with --pin-cpus: spawn_workers), joins them all; after an error prints it
/// (dfg::Workers), writes the report files marked incomplete and returns 1, else returns
/// report(run, options).
template <class Run, class Worker, std::size_t PeCount>
int run_workers(Run& run, const std::vector<std::unique_ptr<Worker>>& workers,
                const std::array<const char*, PeCount>& names, const Options& options) {
  Workers threads;
  spawn_workers(threads, run, workers, names, options,
                [](Where&, const auto& cycles) { cycles(); });
  int status = threads.join_and_report(std::cerr);
  run.checkpoints.finish(&std::cerr);  // every checkpoint the run completed, written
  if (status == 0) status = finish_workers(workers);
  if (status == 0) report_stream_end(run, std::cerr);
  if (status != 0) {
    report(run, options, false);  // what was measured up to the error, marked so
    return status;
  }
  return report(run, options);
}

}  // namespace dfg
