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
///    (WindowTable::prepare, retried later while it is busy or too late); it prints
///    `migrate: LINE: node moved from iteration J` on stderr, or the refusal with its reason (a
///    malformed line, an unknown node or PE, the end of the run, a conflict). The program never
///    waits for the control file.
///  - On several hosts (a MoveLink), rank 0 reads the file: it holds the move on its own windows
///    (WindowTable::prepare), proposes the iteration to every other rank, which holds it on its
///    windows or answers the iteration it could take; when all hold it, every rank makes it,
///    else every rank drops it and rank 0 proposes the later iteration (or refuses the request
///    once it is beyond the run). A held move makes the workers that reach it wait for the
///    answer (a message round), never longer; the proposals start kLinkMargin cycles ahead.
///    A move that carries a node's state between hosts routes it (StateHandoff::route) before
///    it is made.
///
/// Guarantees: the Migrator is built by the main thread before the workers start; the control
/// thread is its only user afterwards (reprogram() is the only call that reaches the workers,
/// whose side never blocks beyond WindowCursor::begin's short wait). stop() joins the thread;
/// the destructor calls it. The control thread allocates (a line, the changes), the workers do
/// not.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "dfg/alternative.hpp"
#include "dfg/options.hpp"
#include "dfg/rebalance.hpp"
#include "dfg/state.hpp"
#include "dfg/window.hpp"

namespace dfg {

/// Keeps the ranks of a program on several hosts within a few cycles of each other while live
/// moves may come (dfg::mpi::MigrationLink): a rank that a move leaves without host-to-host
/// transfers would otherwise run ahead to the end of the run, and no move back could reach it.
class CycleLeash {
 public:
  /// The host CPU worker, at the end of cycle c (every rank the same cycles).
  virtual void end_cycle(std::int64_t c) = 0;

 protected:
  ~CycleLeash() = default;
};

/// How the ranks of a program on several hosts agree on a live move (dfg::mpi::MigrationLink).
/// The coordinator (rank 0) reads --migrate-control and proposes each move; the other ranks
/// serve: they prepare it on their windows (WindowTable::prepare) and answer, then make or drop
/// it as the coordinator says.
class MoveLink {
 public:
  enum class Kind : std::int64_t { propose = 1, make, drop, end, ready, later, busy, conflict };
  /// One message: a proposal (alternative, direction, iteration), its answer, or an order.
  struct Message {
    Kind kind = Kind::end;
    std::int64_t alternative = 0;
    std::int64_t forward = 1;
    std::int64_t j = 0;
  };

  /// Whether this rank reads the control file and proposes.
  virtual bool coordinator() const = 0;
  /// Coordinator: asks every other rank to prepare the move. The answer: ready (all hold it),
  /// later (the latest iteration one of them can take, in `j`), busy (one has not reached its
  /// previous change: retry), conflict (the move changes an entry of another rank that a move
  /// in effect changed), or end (the link is closed: the run is over).
  virtual Message propose(std::size_t alternative, bool forward, std::int64_t j) = 0;
  /// Coordinator: every other rank makes (or drops) the move it holds.
  virtual void conclude(bool make) = 0;
  /// Server: the next proposal or order; false at the end of the run.
  virtual bool next(Message& message) = 0;
  /// Server: the answer to the proposal just received.
  virtual void answer(Kind kind, std::int64_t j) = 0;

 protected:
  ~MoveLink() = default;
};

namespace detail {

inline std::string request_text(const MigrationRequest& r) {
  return r.node + ":" + r.pe + "@" + std::to_string(r.iteration);
}

}  // namespace detail

/// The alternative `request` names among `alts` (index), or the one-line reason it names none.
inline std::string find_alternative(std::span<const Alternative> alts, std::string_view node,
                                    std::string_view pe, std::size_t& index) {
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
    if (pe == alts[a].from)
      return "node '" + std::string(node) + "' already runs on " + std::string(pe);
  }
  if (!known) {
    if (!nodes.empty()) nodes.pop_back();
    return "no node '" + std::string(node) + "' has migration alternatives" +
           (alts.empty() ? std::string(" (this program has none)")
                         : " (those that do:" + nodes + ")");
  }
  return std::string(pe) + " is not an alternative of node '" + std::string(node) +
         "' (its alternatives: " + pes + ")";
}

/// --migrate at launch: "" or the one-line error naming the flag. `alts` are the alternatives of
/// the strategy that runs.
inline std::string check_requests(const Options& options, std::span<const Alternative> alts) {
  if (alts.empty() && !options.migrations.empty())
    return "error: --migrate: this program has no alternative mappings";
  // --migrate-control names a file or a FIFO that moves are written to; a missing one is waited
  // for (the control thread says so), but a directory or a socket can never be read.
  if (struct stat st{}; !options.migrate_control.empty() &&
                        ::stat(options.migrate_control.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
                        !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
    return "error: --migrate-control " + options.migrate_control + ": " +
           (S_ISDIR(st.st_mode) ? "a directory" : "not a file") +
           "; expected a file or a FIFO that moves are written to, a line each";
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
        return flag + "node '" + r.node + "' is already moved by --migrate " +
               detail::request_text(other) +
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
  Migrator(std::span<const Entry> entries, std::span<const Alternative> alts,
           std::int64_t iterations)
      : entries_(entries), alts_(alts), iterations_(iterations), placed_(alts.size(), false) {}

  Migrator(const Migrator&) = delete;
  Migrator& operator=(const Migrator&) = delete;
  ~Migrator() { stop(); }

  /// The cycles a run of `iterations` needs when only the launch-time moves of `requests` can
  /// happen: the last cycle of a base entry, or of a new-only entry of a chosen alternative, + 1.
  static std::int64_t cycles_needed(std::span<const Entry> entries,
                                    std::span<const Alternative> alts,
                                    const std::vector<MigrationRequest>& requests,
                                    std::int64_t iterations) {
    std::vector<bool> runs(entries.size(), true);
    for (const Alternative& a : alts)
      for (std::size_t i : a.start) runs[i] = false;
    for (const MigrationRequest& r : requests) {
      std::size_t a = 0;
      if (!find_alternative(alts, r.node, r.pe, a).empty()) continue;
      for (std::size_t i : alts[a].start) runs[i] = true;
    }
    std::int64_t last = 0;
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (runs[i]) last = std::max<std::int64_t>(last, entries[i].first_cycle + iterations);
    return last;
  }

  /// Every entry's window before the run: [first_cycle, first_cycle + iterations) for the base,
  /// empty for the alternatives', then the launch-time moves of `requests` (checked).
  std::vector<Window> initial_windows(const std::vector<MigrationRequest>& requests) {
    current_.clear();
    for (const Entry& e : entries_)
      current_.push_back({e.first_cycle, e.first_cycle + iterations_});
    for (const Alternative& a : alts_)
      for (std::size_t i : a.start)
        current_[i] = {entries_[i].first_cycle, entries_[i].first_cycle};
    launched_.clear();
    for (const MigrationRequest& r : requests) {
      std::size_t a = 0;
      find_alternative(alts_, r.node, r.pe, a);
      for (const WindowChange& c : changes(a, true, r.iteration)) current_[c.entry] = c.window;
      placed_[a] = true;
      launched_.push_back({a, r.iteration});
    }
    return current_;
  }

  /// Starts the thread that reads `file` (--migrate-control) and, after rebalance(), looks at
  /// the loads; `windows` is the run's table.
  void start(const std::string& file, WindowTable& windows) {
    start(file, windows, {}, 0, nullptr);
  }

  /// --rebalance=MS on one host: the thread looks at `loads` (the workers') every `ms` and makes
  /// the moves RebalancePolicy asks for. Before start(); `loads` and `pes` outlive the Migrator.
  void rebalance(const Loads& loads, std::int64_t ms, std::span<const char* const> pes) {
    if (alts_.empty() || ms <= 0) return;
    rebalance_.emplace(loads, std::chrono::milliseconds(ms), RebalancePolicy(alts_, pes));
  }

  /// The same on host `host` of a program on several hosts: `handoffs` are the host's state
  /// handoffs (the launch-time moves between hosts are routed now), `link` the ranks' agreement
  /// on live moves (null without --migrate-control). The coordinator reads `file`; the other
  /// ranks serve the link.
  void start(const std::string& file, WindowTable& windows, std::span<StateHandoff> handoffs,
             int host, MoveLink* link) {
    windows_ = &windows;
    handoffs_ = handoffs;
    host_ = host;
    link_ = link;
    for (const auto& [a, j] : launched_) route(a, j);
    if (link_ != nullptr && !link_->coordinator()) {
      thread_ = std::thread([this] { serve(); });
      return;
    }
    if (file.empty() && !rebalance_) return;
    thread_ = std::thread([this, file] { control(file); });
  }

  /// A restarted run (--restart) that resumes with iteration `first`: the control file's lines
  /// and messages name the uninterrupted run's iterations. Before start().
  void resume_at(std::int64_t first) noexcept { first_ = first; }

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
    const std::string_view pe =
        line.substr(colon + 1, at == std::string_view::npos ? line.npos : at - colon - 1);
    std::int64_t wanted = 0;
    if (at != std::string_view::npos) {
      const std::string digits(line.substr(at + 1));
      char* end = nullptr;
      const long long v = std::strtoll(digits.c_str(), &end, 10);
      if (digits.empty() || *end != '\0' || v < 0)
        return "expected NODE:PE@ITERATION, got '" + std::string(line) + "'";
      wanted = std::max<std::int64_t>(0, v - first_);  // a restarted run counts from first_
    }
    // A forward move of a node at home, or the move back of one that is on an alternative.
    std::size_t a = alts_.size();
    bool forward = true;
    for (std::size_t x = 0; x < alts_.size(); ++x)
      if (placed_[x] && node == alts_[x].node) a = x;
    if (a < alts_.size()) {
      if (pe == alts_[a].to)
        return "node '" + std::string(node) + "' already runs on " + std::string(pe);
      if (pe != alts_[a].from)
        return "node '" + std::string(node) + "' runs on " + alts_[a].to + "; move it back to " +
               alts_[a].from + " first";
      if (!alts_[a].reversible)
        return "node '" + std::string(node) + "' cannot move back from " + alts_[a].to + " to " +
               alts_[a].from + " without shifting the pipeline (the alternative is not reversible)";
      forward = false;
    } else {
      if (std::string why = find_alternative(alts_, node, pe, a); !why.empty()) return why;
      for (std::size_t x = 0; x < alts_.size(); ++x)
        if (placed_[x] && detail::shares_entry(alts_[x], alts_[a]))
          return std::string("conflicts with node '") + alts_[x].node + "' on " + alts_[x].to +
                 ": both change the same firings or transfers";
    }
    for (std::int64_t j = wanted;;) {
      if (done_.load(std::memory_order_acquire)) return "the run is over";
      if (j >= iterations_)
        return "too late: the run ends at iteration " + std::to_string(iterations_ + first_);
      const Prepared mine = prepare(a, forward, j);
      if (!mine.held) {
        if (mine.j == j) std::this_thread::sleep_for(std::chrono::microseconds(200));
        j = mine.j;
        continue;
      }
      if (link_ != nullptr) {
        const MoveLink::Message all = link_->propose(a, forward, j);
        if (all.kind != MoveLink::Kind::ready) {
          if (all.kind != MoveLink::Kind::end) link_->conclude(false);
          settle(false);
          if (all.kind == MoveLink::Kind::end) return "the run is over";
          if (all.kind == MoveLink::Kind::conflict)
            return "conflicts with a move in effect on another host: both change the same firings or transfers";
          if (all.kind == MoveLink::Kind::busy)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
          j = std::max(j, all.j);
          continue;
        }
        link_->conclude(true);
      }
      settle(true);
      applied = j;
      return {};
    }
  }

 private:
  /// Cycles of margin between the workers' progress and a change; with a link, enough for its
  /// messages to go round before the workers reach the change (they wait for it otherwise).
  static constexpr std::int64_t kMargin = 2;
  static constexpr std::int64_t kLinkMargin = 64;

  /// A move this host's windows hold (prepare()) until settle().
  struct Pending {
    bool valid = false;
    std::size_t a = 0;
    bool forward = true;
    std::int64_t j = 0;
    std::vector<WindowChange> list;
    std::int64_t last = -1;  ///< its last change cycle
  };
  /// prepare()'s answer: held (the windows hold the move at j), else the iteration to try next
  /// (j itself while the previous change is not reached: retry later).
  struct Prepared {
    bool held;
    std::int64_t j;
  };

  /// Holds the move of alternative `a` (forward or back) at iteration j on this host's windows,
  /// where every change lies ahead of every worker and behind the last move.
  Prepared prepare(std::size_t a, bool forward, std::int64_t j) {
    std::vector<WindowChange> list = changes(a, forward, j);
    std::int64_t last = -1;
    if (!list.empty()) {
      const std::int64_t ahead = std::max(
          windows_->max_begun_approx() + (link_ != nullptr ? kLinkMargin : kMargin), last_done_);
      std::int64_t first = WindowTable::kMaxCycle;
      for (const WindowChange& c : list) {
        first = std::min(first, change_cycle(c));
        last = std::max(last, change_cycle(c));
      }
      if (first < ahead) return {false, j + (ahead - first)};  // every change cycle moves with j
      switch (windows_->prepare(first, list)) {
        case Reprogram::ok: break;
        case Reprogram::bad_entry: throw std::logic_error("dfg::Migrator: a bad window");
        case Reprogram::busy:
        case Reprogram::too_late: return {false, j};
      }
    }
    pending_ = {true, a, forward, j, std::move(list), last};
    return {true, j};
  }

  /// Makes (or drops) the move prepare() holds: routes the node's state, then the windows.
  void settle(bool make) {
    if (!pending_.valid) return;
    if (make) {
      route(pending_.a, pending_.j);
      for (const WindowChange& c : pending_.list) current_[c.entry] = c.window;
      if (pending_.last >= 0) last_done_ = pending_.last + 1;
      placed_[pending_.a] = pending_.forward;
    }
    if (!pending_.list.empty()) windows_->settle(make);
    pending_.valid = false;
  }

  /// A move of alternative `a` at iteration j between this host and another: its state goes
  /// through the transport.
  void route(std::size_t a, std::int64_t j) {
    const Alternative& alt = alts_[a];
    if (alt.handoff < 0 || alt.from_host == alt.to_host || alt.state_tag < 0) return;
    if (static_cast<std::size_t>(alt.handoff) >= handoffs_.size()) return;
    handoffs_[static_cast<std::size_t>(alt.handoff)].route(
        j, host_ == alt.from_host ? alt.to_host : alt.from_host, alt.state_tag);
  }

  /// A rank other than the coordinator: prepares, makes and drops what the coordinator says.
  void serve() {
    try {
      MoveLink::Message m;
      while (link_->next(m)) {
        switch (m.kind) {
          case MoveLink::Kind::propose: {
            const auto a = static_cast<std::size_t>(m.alternative);
            if (a >= alts_.size() || m.j >= iterations_) {
              link_->answer(MoveLink::Kind::later, iterations_);
              break;
            }
            bool conflict = false;
            for (std::size_t x = 0; x < alts_.size() && m.forward != 0; ++x)
              conflict = conflict || (placed_[x] && detail::shares_entry(alts_[x], alts_[a]));
            if (conflict) {
              link_->answer(MoveLink::Kind::conflict, m.j);
              break;
            }
            const Prepared p = prepare(a, m.forward != 0, m.j);
            link_->answer(p.held       ? MoveLink::Kind::ready
                          : p.j == m.j ? MoveLink::Kind::busy
                                       : MoveLink::Kind::later,
                          p.j);
            break;
          }
          case MoveLink::Kind::make: settle(true); break;
          case MoveLink::Kind::drop: settle(false); break;
          default: break;
        }
      }
    } catch (const Aborted&) {
      // The run stopped: the rank's communication thread ends the job.
    } catch (const std::exception& e) {
      process_abort().raise("the migration thread", -1, e.what());
    }
  }

  /// The first cycle whose window the change must govern: a new start's, or for a new stop
  /// the cycle before it (its firing is the last one, and saves the state of a node that has).
  std::int64_t change_cycle(const WindowChange& c) const {
    const Window& old = current_[c.entry];
    return old.stop != c.window.stop && old.start == c.window.start
               ? std::min(old.stop, c.window.stop) - 1
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

  /// The thread of one host: the lines of `file` (none when empty) and the rebalancing looks.
  void control(const std::string& file) {
    int fd = -1;
    if (!file.empty()) {
      fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK);
      if (fd < 0) {
        std::cerr << "migrate: cannot open --migrate-control " << file << "; no live moves\n";
        if (!rebalance_) return;
      }
    }
    std::string pending;
    char buffer[256];
    // A last line without its newline is taken whole once nothing more came for kQuiet.
    constexpr auto kQuiet = std::chrono::milliseconds(100);
    auto last_bytes = std::chrono::steady_clock::now();
    while (!done_.load(std::memory_order_acquire) && !process_abort().stopped()) {
      const ssize_t n = fd >= 0 ? ::read(fd, buffer, sizeof buffer) : 0;
      if (n > 0) {
        last_bytes = std::chrono::steady_clock::now();
        pending.append(buffer, static_cast<std::size_t>(n));
        for (std::size_t nl = pending.find('\n'); nl != std::string::npos;
             nl = pending.find('\n')) {
          control_line(pending.substr(0, nl));
          pending.erase(0, nl + 1);
        }
        continue;
      }
      if (!pending.empty() && std::chrono::steady_clock::now() - last_bytes >= kQuiet) {
        control_line(pending);
        pending.clear();
      }
      if (rebalance_) look();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (fd >= 0) ::close(fd);
  }

  /// --rebalance: once an interval has passed, the policy's look at the loads, and its move.
  void look() {
    Rebalance& r = *rebalance_;
    const auto now = std::chrono::steady_clock::now();
    if (now - r.last.at < r.every) return;
    const LoadSample sample = r.loads.sample();
    const LoadInterval x = interval_between(r.last, sample);
    r.last = sample;
    std::string said;
    const std::optional<RebalanceMove> m = r.policy.look(x, placed_, said);
    if (!said.empty()) std::cerr << said << "\n";
    if (!m) return;
    std::int64_t j = 0;
    const std::string why = request(m->line, j);
    r.policy.moved(*m, why.empty());
    if (why.empty()) {
      std::cerr << "migrate: " << m->line << ": node moved from iteration " << j + first_ << "\n";
    } else {
      std::cerr << "rebalance: " << m->line << ": refused: " << why << "\n";
    }
    r.last = r.loads.sample();  // the interval of the next look begins after the move
  }

  /// One line of the control file: applied or refused, and said on stderr.
  void control_line(std::string line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') return;
    std::int64_t j = 0;
    const std::string why = request(line, j);
    if (why.empty()) {
      std::cerr << "migrate: " << printable(line) << ": node moved from iteration " << j + first_
                << "\n";
    } else {
      std::cerr << "migrate: " << printable(line) << ": refused: " << printable(why) << "\n";
    }
  }

  /// `text` with its control bytes (a NUL, an escape sequence) written as \xNN.
  static std::string printable(std::string_view text) {
    std::string out;
    for (const char c : text) {
      const auto u = static_cast<unsigned char>(c);
      if (u >= 0x20 && u != 0x7F) {
        out += c;
        continue;
      }
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    }
    return out;
  }

  std::span<const Entry> entries_;
  std::span<const Alternative> alts_;
  const std::int64_t iterations_;
  std::int64_t first_ = 0;  ///< resume_at()
  std::vector<Window> current_;
  std::vector<bool> placed_;  ///< per alternative: its node runs there now
  std::int64_t last_done_ = 0;
  std::vector<std::pair<std::size_t, std::int64_t>> launched_;  ///< the launch-time moves
  Pending pending_;
  std::span<StateHandoff> handoffs_;
  int host_ = 0;
  MoveLink* link_ = nullptr;
  WindowTable* windows_ = nullptr;
  /// --rebalance: the workers' loads, the interval between two looks, the last sample.
  struct Rebalance {
    Rebalance(const Loads& l, std::chrono::milliseconds e, RebalancePolicy p)
        : loads(l), every(e), policy(std::move(p)), last(l.sample()) {}
    const Loads& loads;
    std::chrono::milliseconds every;
    RebalancePolicy policy;
    LoadSample last;
  };
  std::optional<Rebalance> rebalance_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace dfg
