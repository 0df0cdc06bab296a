/// \file
/// dfg::mpi::abort_job, run_mpi_worker, main_guard: a failing rank ends the whole job promptly,
/// saying which rank and why, instead of leaving the other ranks waiting for its messages.
///
///     workers.spawn("B.cpu", [&](dfg::Where& where) {            // its comm thread makes the MPI
///     calls
///       dfg::mpi::run_mpi_worker(mpi, where, [&] { run_B_cpu(where); });
///     });
///     workers.spawn("B.g0", [&](dfg::Where& where) { run_B_g0(where); });
///     return dfg::mpi::main_guard(mpi, [&] { return workers.join(); });
///
/// prints, once, on the failing rank
///     error: rank 1 (host B): node i2 (Inc) @ B.g0, iteration 17: <what>
/// then calls MPI_Abort(MPI_COMM_WORLD, 1): the MPI launcher ends every rank, and mpirun exits
/// with a non-zero status.
///
/// Protocol. Errors are recorded in the rank's dfg::Abort as before (first error wins, with the
/// worker's Where); this layer adds who calls MPI_Abort. Under MPI_THREAD_SERIALIZED it must be
/// the thread that owns MPI at that moment, never a second thread next to it:
/// - during the cycle loop, the rank's communication thread (dfg/mpi/comm_thread.hpp), which
///   run_mpi_worker starts before the host CPU worker's cycle loop and joins after it. Once any
///   thread of the rank raises the stop, the comm thread sees it between two polls (or is woken
///   from its idle sleep) and ends the job, whatever the other threads do: a long firing of a
///   CPU actor no longer delays the abort. The CPU worker's waits (CycleTransfers, RankBarrier,
///   SlotRing, barriers) throw dfg::Aborted; nothing waits for it.
/// - before the comm thread starts and after it is joined, the thread that runs: main
///   (main_guard) in set-up and tear-down, the CPU worker (run_mpi_worker) for a stop raised
///   after its cycles, by a worker still running.
///
/// Guarantees:
/// - abort_job() does not return. It prints one line on stderr (flushed), writes the rank's
///   report files where a ReportBeforeAbort lives (waiting up to kReportGrace for the workers to
///   stop), waits kAbortGrace for the launcher to forward its output, then MPI_Abort. If two
///   threads call it, the second sleeps until the process is ended (and exits with status 1 should
///   that take more than a minute), so MPI_Abort is never called concurrently.
/// - run_mpi_worker() starts and joins a thread (it allocates the thread and its stop callback)
///   and adds no MPI call of its own on the success path; main_guard() does not allocate on it.
///   Neither rethrows (an escaping exception is recorded in the Abort).
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include "dfg/abort.hpp"
#include "dfg/flags.hpp"
#include "dfg/mpi/session.hpp"
#include "dfg/worker.hpp"

namespace dfg::mpi {

/// The line abort_job() prints: "error: <who>: <the first error>" (Abort::message() less its
/// own "error: "), or "error: <who>: stopped" when nothing was recorded.
inline std::string job_error_message(std::string_view who, const Abort& abort) {
  std::string first = abort.message();
  constexpr std::string_view prefix = "error: ";
  if (first.compare(0, prefix.size(), prefix) == 0) first.erase(0, prefix.size());
  if (first.empty()) first = "stopped";
  return "error: " + std::string(who) + ": " + first;
}

/// How long abort_job() waits between printing its line and MPI_Abort.
inline constexpr std::chrono::milliseconds kAbortGrace{250};
/// How long abort_job() waits for the rank's workers to stop before it writes their reports.
inline constexpr std::chrono::milliseconds kReportGrace{2000};

namespace detail {

/// What abort_job() writes before MPI_Abort: set by ReportBeforeAbort, else empty.
inline std::function<void()>& report_before_abort() {
  static std::function<void()> report;
  return report;
}

}  // namespace detail

/// For its lifetime (a rank's run, from before its workers start until after they joined): should
/// the job end from this rank (abort_job), the rank's report files (--trace, --stats-json,
/// --profile) are written first, with what was measured up to the stop, marked incomplete:
/// `report(run, options, false)` (dfg/run_tables.hpp, which the rank's file with main includes;
/// found through `Run`'s namespace), once every worker's cycles have ended (the workers stop at
/// their next wait), within kReportGrace. A worker still running then (a long firing) would be
/// writing what the report reads: the files are left unwritten, with a warning. The main thread
/// constructs and destroys it; the slot it sets is read only by abort_job, while it lives.
class ReportBeforeAbort {
 public:
  template <class Run>
  ReportBeforeAbort(const Session& session, Run& run, const Options& options,
                    const Workers& workers) {
    if (options.trace_file.empty() && options.stats_json_file.empty() &&
        options.profile_file.empty())
      return;
    detail::report_before_abort() = [&session, &run, &options, &workers] {
      if (workers.wait_cycles_ended(kReportGrace)) {
        report(run, options, false);
        return;
      }
      const std::string line = "warning: " + session.who() +
                               ": the report files are not written: a worker still runs " +
                               std::to_string(kReportGrace.count()) + " ms after the stop\n";
      std::fputs(line.c_str(), stderr);
    };
  }
  ~ReportBeforeAbort() { detail::report_before_abort() = nullptr; }
  ReportBeforeAbort(const ReportBeforeAbort&) = delete;
  ReportBeforeAbort& operator=(const ReportBeforeAbort&) = delete;
};

/// Ends the whole job after printing the rank's first error once. Called only by the thread
/// that owns MPI (see the file comment).
[[noreturn]] inline void abort_job(const Session& session,
                                   const Abort& abort = process_abort()) noexcept {
  static std::atomic<bool> aborting{false};
  if (aborting.exchange(true, std::memory_order_acq_rel)) {
    std::this_thread::sleep_for(std::chrono::minutes(1));
    std::_Exit(1);
  }
  try {
    const std::string line = job_error_message(session.who(), abort) + "\n";
    std::fputs(line.c_str(), stderr);
  } catch (...) {
    std::fprintf(stderr, "error: rank %d: stopped\n", session.rank());
  }
  std::fflush(stderr);
  try {
    if (const auto& report = detail::report_before_abort(); report) report();
  } catch (...) {
    std::fputs("warning: the report files could not be written before the job ended\n", stderr);
  }
  std::fflush(stderr);
  std::fflush(stdout);
  // The launcher forwards each rank's output asynchronously, and MPI_Abort makes it kill every
  // process of the job at once: a line still in the pipe would be lost. Give it time to drain.
  std::this_thread::sleep_for(kAbortGrace);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);  // MPI_Abort does not return; should it, this rank still stops.
}

/// Runs `body()`, the cycle loop of the host's CPU worker, inside a dfg::Workers worker, with the
/// rank's communication thread running (session.comm_thread()): it makes the MPI calls of the
/// loop and ends the job once the stop is raised. An exception escaping body is recorded with
/// `where`; if the stop is raised once the comm thread was joined, ends the job.
template <class Body>
void run_mpi_worker(const Session& session, Where& where, Body&& body,
                    Abort& abort = process_abort()) {
  CommThread& comm = session.comm_thread();
  try {
    comm.start(
        abort, [&session, &abort] { abort_job(session, abort); },
        session.comm_lanes(comm.wanted_lanes()));
    body();
  } catch (...) {
    dfg::detail::record_current_exception(abort, "the MPI thread", where);
  }
  comm.finish();  // returns only if the comm thread did not see the stop (it ends the job then)
  if (abort.stopped()) abort_job(session, abort);
}

/// main's set-up, worker spawning, join and tear-down: `body()` returns an exit status. If the
/// stop was raised (by body or any worker), ends the job; otherwise returns body's status.
template <class Body>
int main_guard(const Session& session, Body&& body, Abort& abort = process_abort()) {
  Where where;
  int status = 0;
  try {
    status = body();
  } catch (...) {
    dfg::detail::record_current_exception(abort, {}, where);
  }
  if (abort.stopped()) abort_job(session, abort);
  return status;
}

}  // namespace dfg::mpi
