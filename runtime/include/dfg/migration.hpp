/// \file
/// dfg::Migrator: moves nodes between their pre-generated alternatives (`migrates` in the spec)
/// while the stream runs, by reprogramming the iteration windows (dfg/window.hpp). Nothing is
/// allocated, built or opened for a move: every alternative's entries, storage and actor
/// instances exist from start-up (the plan's union), idle outside their windows.
///
/// A host's generated tables list, per strategy and per alternative a of the program (the same
/// list on every host), the entries of this host that a switch of a at iteration j* stops
/// (old-only, they run the iterations before j*) and starts (new-only, from j* on); an entry
/// handles iteration j in cycle first_cycle + j, the alternative's delta being in its entries'
/// first cycles. A move back (the alternative's node to its base PE) swaps the two lists; it is
/// offered where the alternative is `reversible` (no node idles at the switch, so no shift).
///
///  - At launch, `--migrate NODE:PE@K` (check_requests() refuses a bad one before anything runs:
///    an unknown node or PE, K beyond the run, one node twice, two moves that change a common
///    entry) sets the initial windows (initial_windows()).
///  - While running, `--migrate-control FILE`: a thread reads FILE (a file appended to, or a FIFO)
///    a line at a time, `NODE:PE` or `NODE:PE@K`; each valid request is applied at the first
///    iteration j* >= K whose every changed window begins in a cycle no worker has begun
///    (WindowTable::reprogram, retried later while it is busy or too late); it prints
///    `migrate: node NODE A.c0 -> A.c1 from iteration J` on stderr, or the refusal with its
///    reason (a malformed line, an unknown node or PE, the end of the run, a conflict). The
///    program never waits for the control file.
///
/// Guarantees: the Migrator is built by the main thread before the workers start; the control
/// thread is its only user afterwards (reprogram() is the only call that reaches the workers,
/// whose side never blocks beyond WindowCursor::begin's short wait). stop() joins the thread;
/// the destructor calls it. The control thread allocates (a line, the changes), the workers do
/// not.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "dfg/flags.hpp"
#include "dfg/state.hpp"
#include "dfg/window.hpp"

namespace dfg {

/// One migration alternative as this host's tables give it.
struct Alternative {
  const char* node;  ///< "i"
  const char* from;  ///< its base PE: "A.c0"
  const char* to;    ///< "A.c1"
  bool reversible;   ///< a move back needs no shift
  std::span<const std::size_t> stop;   ///< old-only entries of this host
  std::span<const std::size_t> start;  ///< new-only entries of this host
};

namespace detail {

inline bool shares_entry(const Alternative& a, const Alternative& b) {
  for (std::size_t x : a.stop)
    if (std::find(b.stop.begin(), b.stop.end(), x) != b.stop.end()) return true;
  return false;
}

inline std::string request_text(const MigrationRequest& r) {
  return r.node + ":" + r.pe + "@" + std::to_string(r.iteration);
}

}  // namespace detail

/// The alternative `request` names among `alts` (index), or the one-line reason it names none.
inline std::string find_alternative(std::span<const Alternative> alts, std::string_view node, std::string_view pe,
                                    std::size_t& index) {
  std::string nodes, pes;
  bool known = false;
  for (std::size_t a = 0; a < alts.size(); ++a) {
    if (nodes.find(std::string(" ") + alts[a].node + ",") == std::string::npos)
      nodes += std::string(" ") + alts[a].node + ",";
    if (node != alts[a].node) continue;
    known = true;
    pes += std::string(pes.empty() ? "" : ", ") + alts[a].to;
    if (pe == alts[a].to) {
      index = a;
      return {};
    }
    if (pe == alts[a].from) return "node '" + std::string(node) + "' already runs on " + std::string(pe);
  }
  if (!known) {
    if (!nodes.empty()) nodes.pop_back();
    return "no node '" + std::string(node) + "' has migration alternatives" +
           (alts.empty() ? std::string(" (this program has none)") : " (those that do:" + nodes + ")");
  }
  return std::string(pe) + " is not an alternative of node '" + std::string(node) + "' (its alternatives: " + pes + ")";
}

/// --migrate at launch: "" or the one-line error naming the flag. `alts` are the alternatives of
/// the strategy that runs.
inline std::string check_requests(const Options& options, std::span<const Alternative> alts) {
  if (alts.empty() && !options.migrations.empty()) return "error: --migrate: this program has no alternative mappings";
  std::vector<std::size_t> chosen;
  for (const MigrationRequest& r : options.migrations) {
    const std::string flag = "error: --migrate " + detail::request_text(r) + ": ";
    std::size_t a = 0;
    if (std::string why = find_alternative(alts, r.node, r.pe, a); !why.empty()) return flag + why;
    if (r.iteration >= options.iterations)
      return flag + "iteration " + std::to_string(r.iteration) + " is beyond the run (" +
             std::to_string(options.iterations) + " iterations)";
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      const MigrationRequest& other = options.migrations[i];
      if (other.node == r.node)
        return flag + "node '" + r.node + "' is already moved by --migrate " + detail::request_text(other) +
               " (at launch, one move per node; use --migrate-control to move it again)";
      if (detail::shares_entry(alts[chosen[i]], alts[a]))
        return flag + "conflicts with --migrate " + detail::request_text(other) +
               ": both change the same firings or transfers (neighbouring nodes cannot move at once)";
    }
    chosen.push_back(a);
  }
  return {};
}

template <class Entry>
class Migrator {
 public:
  /// `entries` and `alts` are the strategy that runs; `windows` is built from initial_windows().
  Migrator(std::span<const Entry> entries, std::span<const Alternative> alts, std::int64_t iterations)
      : entries_(entries), alts_(alts), iterations_(iterations), placed_(alts.size(), false) {}

  Migrator(const Migrator&) = delete;
  Migrator& operator=(const Migrator&) = delete;
  ~Migrator() { stop(); }

  /// Every entry's window before the run: [first_cycle, first_cycle + iterations) for the base,
  /// empty for the alternatives', then the launch-time moves of `requests` (checked).
  std::vector<Window> initial_windows(const std::vector<MigrationRequest>& requests) {
    current_.clear();
    for (const Entry& e : entries_) current_.push_back({e.first_cycle, e.first_cycle + iterations_});
    for (const Alternative& a : alts_)
      for (std::size_t i : a.start) current_[i] = {entries_[i].first_cycle, entries_[i].first_cycle};
    for (const MigrationRequest& r : requests) {
      std::size_t a = 0;
      find_alternative(alts_, r.node, r.pe, a);
      for (const WindowChange& c : changes(a, true, r.iteration)) current_[c.entry] = c.window;
      placed_[a] = true;
    }
    return current_;
  }

  /// Starts the thread that reads `file` (--migrate-control); `windows` is the run's table.
  void start(const std::string& file, WindowTable& windows) {
    windows_ = &windows;
    if (file.empty()) return;
    thread_ = std::thread([this, file] { control(file); });
  }

  /// Ends the control thread (the workers have joined, or the run stopped).
  void stop() {
    done_.store(true, std::memory_order_release);
    if (thread_.joinable()) thread_.join();
  }

  /// Applies one request line now (the control thread's step; tests call it directly): "" or the
  /// refusal. `applied` gets the iteration of the switch.
  std::string request(std::string_view line, std::int64_t& applied) {
    const auto colon = line.find(':');
    const auto at = line.find('@');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 >= std::min(at, line.size()))
      return "expected NODE:PE or NODE:PE@ITERATION, got '" + std::string(line) + "'";
    const std::string_view node = line.substr(0, colon);
    const std::string_view pe = line.substr(colon + 1, at == std::string_view::npos ? line.npos : at - colon - 1);
    std::int64_t wanted = 0;
    if (at != std::string_view::npos) {
      const std::string digits(line.substr(at + 1));
      char* end = nullptr;
      const long long v = std::strtoll(digits.c_str(), &end, 10);
      if (digits.empty() || *end != '\0' || v < 0) return "expected NODE:PE@ITERATION, got '" + std::string(line) + "'";
      wanted = v;
    }
    // A forward move of a node at home, or the move back of one that is on an alternative.
    std::size_t a = alts_.size();
    bool forward = true;
    for (std::size_t x = 0; x < alts_.size(); ++x)
      if (placed_[x] && node == alts_[x].node) a = x;
    if (a < alts_.size()) {
      if (pe == alts_[a].to) return "node '" + std::string(node) + "' already runs on " + std::string(pe);
      if (pe != alts_[a].from)
        return "node '" + std::string(node) + "' runs on " + alts_[a].to + "; move it back to " + alts_[a].from +
               " first";
      if (!alts_[a].reversible)
        return "node '" + std::string(node) + "' cannot move back from " + alts_[a].to + " to " + alts_[a].from +
               " without shifting the pipeline (the alternative is not reversible)";
      forward = false;
    } else {
      if (std::string why = find_alternative(alts_, node, pe, a); !why.empty()) return why;
      for (std::size_t x = 0; x < alts_.size(); ++x)
        if (placed_[x] && detail::shares_entry(alts_[x], alts_[a]))
          return std::string("conflicts with node '") + alts_[x].node + "' on " + alts_[x].to +
                 ": both change the same firings or transfers";
    }
    for (;;) {
      if (done_.load(std::memory_order_acquire)) return "the run is over";
      // The first iteration whose every change lies ahead of every worker and behind the last move.
      std::int64_t j = wanted;
      const std::int64_t ahead = std::max(windows_->max_begun_approx() + kMargin, last_done_);
      std::vector<WindowChange> list = changes(a, forward, j);
      if (list.empty()) {
        placed_[a] = forward;
        applied = j;
        return {};
      }
      auto first_of = [&] {
        std::int64_t first = WindowTable::kMaxCycle;
        for (const WindowChange& c : list) first = std::min(first, change_cycle(c));
        return first;
      };
      std::int64_t first = first_of();
      if (first < ahead) {  // every change cycle moves with j
        j += ahead - first;
        list = changes(a, forward, j);
        first = first_of();
      }
      if (j >= iterations_)
        return "too late: the run ends at iteration " + std::to_string(iterations_);
      switch (windows_->reprogram(first, list)) {
        case Reprogram::ok: {
          std::int64_t last = 0;
          for (const WindowChange& c : list) {
            current_[c.entry] = c.window;
            last = std::max(last, change_cycle(c));
          }
          last_done_ = last + 1;
          placed_[a] = forward;
          applied = j;
          return {};
        }
        case Reprogram::bad_entry: return "internal error: a bad window";
        case Reprogram::busy:
        case Reprogram::too_late: std::this_thread::sleep_for(std::chrono::microseconds(200)); break;
      }
    }
  }

 private:
  /// Cycles of margin between the workers' progress and a change.
  static constexpr std::int64_t kMargin = 2;

  /// The first cycle whose window the change must govern: a new start's, or for a new stop
  /// the cycle before it (its firing is the last one, and saves the state of a node that has).
  std::int64_t change_cycle(const WindowChange& c) const {
    const Window& old = current_[c.entry];
    return old.stop != c.window.stop && old.start == c.window.start ? std::min(old.stop, c.window.stop) - 1
                                                                     : c.window.start;
  }

  /// The window changes of switching alternative `a` forward (or back) at iteration j.
  std::vector<WindowChange> changes(std::size_t a, bool forward, std::int64_t j) const {
    std::vector<WindowChange> out;
    const Alternative& alt = alts_[a];
    for (std::size_t i : forward ? alt.stop : alt.start)
      out.push_back({i, {current_[i].start, entries_[i].first_cycle + j}});
    for (std::size_t i : forward ? alt.start : alt.stop)
      out.push_back({i, {entries_[i].first_cycle + j, entries_[i].first_cycle + iterations_}});
    return out;
  }

  void control(const std::string& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
      std::cerr << "migrate: cannot open --migrate-control " << file << "; no live moves\n";
      return;
    }
    std::string pending;
    char buffer[256];
    while (!done_.load(std::memory_order_acquire) && !process_abort().stopped()) {
      const ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n > 0) {
        pending.append(buffer, static_cast<std::size_t>(n));
        for (std::size_t nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n')) {
          std::string line = pending.substr(0, nl);
          pending.erase(0, nl + 1);
          while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
          if (line.empty() || line[0] == '#') continue;
          std::int64_t j = 0;
          const std::string why = request(line, j);
          if (why.empty()) {
            std::cerr << "migrate: " << line << ": node moved from iteration " << j << "\n";
          } else {
            std::cerr << "migrate: " << line << ": refused: " << why << "\n";
          }
        }
        continue;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ::close(fd);
  }

  std::span<const Entry> entries_;
  std::span<const Alternative> alts_;
  const std::int64_t iterations_;
  std::vector<Window> current_;
  std::vector<bool> placed_;  ///< per alternative: its node runs there now
  std::int64_t last_done_ = 0;
  WindowTable* windows_ = nullptr;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace dfg
