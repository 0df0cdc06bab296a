/// \file
/// dfg::Tracer: `--trace FILE`, Chrome/Perfetto trace events. One track (a trace "thread") per
/// processing element and per CUDA stream; every firing and transfer is one complete ("X")
/// event with its iteration. Load the file in ui.perfetto.dev or chrome://tracing.
///
///     [
///     {"name":"process_name","ph":"M","pid":0,"tid":0,"args":{"name":"host A"}},
///     {"name":"thread_name","ph":"M","pid":0,"tid":1,"args":{"name":"A.cpu"}},
///     {"name":"p
///     (Producer)","cat":"firing","ph":"X","ts":12.500,"dur":3.250,"pid":0,"tid":1,"args":{"iteration":0}},
///     ...
///     ]
///
/// Fields always come in this order; ts and dur are microseconds with three decimals, ts counted
/// from the tracer's construction (steady clock; on several hosts from rank 0's epoch, which
/// each rank measures at start-up: restart_epoch()), pid is the MPI rank, tid the track id (from
/// 1). Events are written sorted by (ts, tid, iteration, name, cat, dur); the output depends only
/// on the recorded events.
///
/// Guarantees:
/// - add_track() is called during set-up, before the workers start (it allocates and is not
///   synchronised). Each track then has exactly one writer thread, which calls record() on it;
///   record() takes no lock and allocates only when the track's reserved capacity is exceeded.
///   A disabled tracer records nothing (one branch).
/// - write()/write_file() run after the writers have been joined (the join orders the
///   recordings before them).
/// - Names and categories are `std::string_view`s the caller keeps alive until the trace is
///   written (the generated program passes string literals).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/detail/json.hpp"

namespace dfg {

class Tracer {
 public:
  using Clock = std::chrono::steady_clock;

  struct Event {
    std::string_view name;
    std::string_view cat;
    double ts_us;
    double dur_us;
    std::int64_t iteration;
  };

  /// `rank` becomes every event's pid. A disabled tracer ignores record().
  explicit Tracer(int rank = 0, bool enabled = true)
      : rank_(rank), enabled_(enabled), epoch_(Clock::now()) {}

  bool enabled() const noexcept { return enabled_; }
  int rank() const noexcept { return rank_; }
  /// Names the trace's process (its pid `rank`, its name `name`, "rank <rank>" when empty): the
  /// generated program names it after its host ("host B", pid its MPI rank), so that the files of
  /// several ranks loaded together show as one process each. Set-up only.
  void set_process(int rank, std::string name) {
    rank_ = rank;
    process_ = std::move(name);
  }
  /// A run that stopped on an error: the process is labelled so in the trace (what was recorded
  /// up to the stop is written all the same).
  void set_incomplete() noexcept { complete_ = false; }
  Clock::time_point epoch() const noexcept { return epoch_; }
  /// Counts the times from `epoch` (now by default): the ranks of a program on several hosts
  /// take rank 0's (dfg::mpi::align_trace_epochs), so that their files share a time base and
  /// tools/merge-traces can join them. Set-up only, before any event and any worker.
  void restart_epoch(Clock::time_point epoch = Clock::now()) noexcept { epoch_ = epoch; }

  /// Adds a track named `name` ("A.g0", "A.g0 h2d") and returns its id (1, 2, ...). Set-up only.
  int add_track(std::string name, std::size_t reserve_events = 4096) {
    auto t = std::make_unique<Track>();
    t->name = std::move(name);
    if (enabled_) t->events.reserve(reserve_events);
    tracks_.push_back(std::move(t));
    return static_cast<int>(tracks_.size());
  }

  /// Microseconds since the tracer's epoch.
  double to_us(Clock::time_point t) const noexcept {
    return std::chrono::duration<double, std::micro>(t - epoch_).count();
  }

  /// Records [begin, end) on `track`, from that track's writer thread.
  void record(int track, std::string_view name, std::string_view cat, Clock::time_point begin,
              Clock::time_point end, std::int64_t iteration) {
    if (!enabled_) return;
    record_us(track, name, cat, to_us(begin),
              std::chrono::duration<double, std::micro>(end - begin).count(), iteration);
  }

  /// Same, with times already in microseconds since the epoch (GPU times converted by the
  /// caller).
  void record_us(int track, std::string_view name, std::string_view cat, double ts_us,
                 double dur_us, std::int64_t iteration) {
    if (!enabled_) return;
    tracks_[static_cast<std::size_t>(track - 1)]->events.push_back(
        {name, cat, ts_us, dur_us, iteration});
  }

  /// Records from construction to destruction: `auto s = tracer.scope(t, "i1 (Inc)", "firing", k);`
  class Scope {
   public:
    Scope(Tracer& tracer, int track, std::string_view name, std::string_view cat,
          std::int64_t iteration)
        : tracer_(tracer),
          track_(track),
          name_(name),
          cat_(cat),
          iteration_(iteration),
          begin_(tracer.enabled() ? Clock::now() : Clock::time_point()) {}
    ~Scope() {
      if (tracer_.enabled()) tracer_.record(track_, name_, cat_, begin_, Clock::now(), iteration_);
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Tracer& tracer_;
    int track_;
    std::string_view name_;
    std::string_view cat_;
    std::int64_t iteration_;
    Clock::time_point begin_;
  };
  Scope scope(int track, std::string_view name, std::string_view cat, std::int64_t iteration) {
    return Scope(*this, track, name, cat, iteration);
  }

  std::size_t event_count() const noexcept {
    std::size_t n = 0;
    for (const auto& t : tracks_) n += t->events.size();
    return n;
  }

  /// Writes the JSON array: metadata (process and track names), then the events, sorted.
  void write(std::ostream& os) const {
    os << "[\n";
    bool first = true;
    auto line = [&](const std::string& s) {
      if (!first) os << ",\n";
      first = false;
      os << s;
    };
    line(R"({"name":"process_name","ph":"M","pid":)" + std::to_string(rank_) +
         R"(,"tid":0,"args":{"name":)" +
         detail::json_string(process_.empty() ? "rank " + std::to_string(rank_) : process_) + "}}");
    if (!complete_)
      line(R"({"name":"process_labels","ph":"M","pid":)" + std::to_string(rank_) +
           R"(,"tid":0,"args":{"labels":"run stopped on an error"}})");
    for (std::size_t i = 0; i < tracks_.size(); ++i) {
      const std::string tid = std::to_string(i + 1);
      line(R"({"name":"thread_name","ph":"M","pid":)" + std::to_string(rank_) + R"(,"tid":)" + tid +
           R"(,"args":{"name":)" + detail::json_string(tracks_[i]->name) + "}}");
      line(R"({"name":"thread_sort_index","ph":"M","pid":)" + std::to_string(rank_) + R"(,"tid":)" +
           tid + R"(,"args":{"sort_index":)" + tid + "}}");
    }
    struct Row {
      const Event* e;
      int tid;
    };
    std::vector<Row> rows;
    rows.reserve(event_count());
    for (std::size_t i = 0; i < tracks_.size(); ++i) {
      for (const Event& e : tracks_[i]->events) rows.push_back({&e, static_cast<int>(i + 1)});
    }
    // A total order on everything written, so that equal keys are identical lines.
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
      if (a.e->ts_us != b.e->ts_us) return a.e->ts_us < b.e->ts_us;
      if (a.tid != b.tid) return a.tid < b.tid;
      if (a.e->iteration != b.e->iteration) return a.e->iteration < b.e->iteration;
      if (a.e->name != b.e->name) return a.e->name < b.e->name;
      if (a.e->cat != b.e->cat) return a.e->cat < b.e->cat;
      return a.e->dur_us < b.e->dur_us;
    });
    for (const Row& r : rows) {
      line(R"({"name":)" + detail::json_string(r.e->name) + R"(,"cat":)" +
           detail::json_string(r.e->cat) + R"(,"ph":"X","ts":)" + fixed3(r.e->ts_us) +
           R"(,"dur":)" + fixed3(r.e->dur_us) + R"(,"pid":)" + std::to_string(rank_) +
           R"(,"tid":)" + std::to_string(r.tid) + R"(,"args":{"iteration":)" +
           std::to_string(r.e->iteration) + "}}");
    }
    os << "\n]\n";
  }

  /// Writes the trace to `path`; returns "" or a one-line error ("error: --trace out.json: ...").
  std::string write_file(const std::string& path) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return "error: --trace " + path + ": cannot open for writing";
    write(out);
    out.flush();
    if (!out) return "error: --trace " + path + ": write failed";
    return {};
  }

 private:
  struct alignas(64) Track {
    std::string name;
    std::vector<Event> events;
  };

  static std::string fixed3(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f", v < 0 ? 0.0 : v);
    return buf;
  }

  int rank_;
  std::string process_;   ///< the process's name; empty: "rank <rank_>"
  bool complete_ = true;  ///< false: set_incomplete()
  bool enabled_;
  Clock::time_point epoch_;
  std::vector<std::unique_ptr<Track>> tracks_;
};

}  // namespace dfg
