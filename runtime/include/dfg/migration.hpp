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
/// Moves compose (dfg/placement.hpp): a request names the moves it wants, one or several
/// (`g:A.c2,a:A.c1`), a node may go from one alternative to another directly, and moves that
/// change common entries switch to their joint alternative; the Migrator switches from the
/// placement in effect to the requested one at one iteration j*, each entry that runs in one and
/// not the other stopping or starting there. An alternative the switch ends must be reversible.
/// On several hosts (no joints) a request moves one node, to or from its place.
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
#include "dfg/placement.hpp"
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

/// From iteration `j` on, the alternatives `placed` are in effect.
struct LaunchStep {
  std::int64_t j = 0;
  std::vector<bool> placed;
};

/// The launch-time moves (--migrate, each request valid by itself) as placements: per iteration
/// that moves, the placement from it on, in iteration order. Requests of one iteration switch
/// together. `why` gets a refusal (after the flag) and `culprit` the request it names: moves
/// that share entries and no joint alternative, a move that would end a move that is not
/// reversible, or an entry that would stop and start again (at launch each entry runs one
/// window of iterations).
inline std::vector<LaunchStep> launch_steps(std::span<const Alternative> alts,
                                            const std::vector<MigrationRequest>& requests,
                                            std::string& why, std::size_t& culprit) {
  std::vector<std::size_t> order(requests.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return requests[x].iteration < requests[y].iteration;
  });
  Placement placement(alts);
  std::vector<bool> moves(alts.size(), false);
  std::vector<LaunchStep> steps;
  std::vector<std::size_t> by_alternative(alts.size(), requests.size());  // its request
  for (std::size_t k = 0; k < order.size();) {
    const std::int64_t j = requests[order[k]].iteration;
    std::size_t last = order[k];
    for (; k < order.size() && requests[order[k]].iteration == j; ++k) {
      last = order[k];
      std::size_t a = alts.size();
      placement.move(moves, requests[last].node, requests[last].pe, &a);
      if (a < alts.size()) by_alternative[a] = last;
    }
    culprit = last;
    std::vector<bool> target;
    if (const std::vector<std::size_t> group = placement.compose(moves, target); !group.empty()) {
      for (std::size_t m : group)
        if (by_alternative[m] != last) {
          why = "conflicts with --migrate " + request_text(requests[by_alternative[m]]) +
                ": both change the same firings or transfers" +
                (placement.joins() ? placement.unjoined()
                                   : " (neighbouring nodes cannot move at once)");
          return {};
        }
      why = "its move and the others of iteration " + std::to_string(j) +
            " change common firings or transfers" + placement.unjoined();
      return {};
    }
    if (why = placement.reachable(target); !why.empty()) return {};
    steps.push_back({j, target});
    placement.set(std::move(target));
  }
  // Each entry runs one window: it may stop, or start, or start then stop, once.
  std::size_t entries = 0;
  for (const Alternative& a : alts) {
    for (std::size_t i : a.stop) entries = std::max(entries, i + 1);
    for (std::size_t i : a.start) entries = std::max(entries, i + 1);
  }
  const Placement none(alts);
  for (std::size_t i = 0; i < entries; ++i) {
    bool on = none.runs(none.placed(), i), was_on = on;
    std::int64_t stopped = -1;
    for (const LaunchStep& step : steps) {
      const bool now = none.runs(step.placed, i);
      if (now && !on && was_on) {
        for (std::size_t x = 0; x < requests.size(); ++x)
          if (requests[x].iteration == step.j) culprit = x;
        why = "with the moves before it, some firings or transfers would stop at iteration " +
              std::to_string(stopped) + " and start again at " + std::to_string(step.j) +
              " (at launch, give moves that change common entries one iteration, or make the "
              "later one with --migrate-control)";
        return {};
      }
      if (!now && on) stopped = step.j;
      on = now;
      was_on = was_on || now;
    }
  }
  return steps;
}

}  // namespace detail

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
  for (std::size_t n = 0; n < options.migrations.size(); ++n) {
    const MigrationRequest& r = options.migrations[n];
    const std::string flag = "error: --migrate " + detail::request_text(r) + ": ";
    std::size_t a = 0;
    if (std::string why = find_alternative(alts, r.node, r.pe, a); !why.empty()) return flag + why;
    if (r.iteration >= options.iterations)
      return flag + "iteration " + std::to_string(r.iteration) + " is beyond the run (" +
             std::to_string(options.iterations) + " iterations)";
    for (std::size_t i = 0; i < n; ++i)
      if (const MigrationRequest& other = options.migrations[i]; other.node == r.node)
        return flag + "node '" + r.node + "' is already moved by --migrate " +
               detail::request_text(other) +
               " (at launch, one move per node; use --migrate-control to move it again)";
  }
  std::string why;
  std::size_t culprit = 0;
  detail::launch_steps(alts, options.migrations, why, culprit);
  if (!why.empty())
    return "error: --migrate " + detail::request_text(options.migrations[culprit]) + ": " + why;
  return {};
}

template <class Entry>
class Migrator {
 public:
  /// `entries` and `alts` are the strategy that runs; `windows` is built from initial_windows().
  Migrator(std::span<const Entry> entries, std::span<const Alternative> alts,
           std::int64_t iterations)
      : entries_(entries), alts_(alts), iterations_(iterations), placement_(alts) {}

  Migrator(const Migrator&) = delete;
  Migrator& operator=(const Migrator&) = delete;
  ~Migrator() { stop(); }

  /// The cycles a run of `iterations` needs when only the launch-time moves of `requests` can
  /// happen: the last cycle of a base entry, or of a new-only entry of a chosen alternative, + 1.
  static std::int64_t cycles_needed(std::span<const Entry> entries,
                                    std::span<const Alternative> alts,
                                    const std::vector<MigrationRequest>& requests,
                                    std::int64_t iterations) {
    std::string why;
    std::size_t culprit = 0;
    const std::vector<detail::LaunchStep> steps =
        detail::launch_steps(alts, requests, why, culprit);
    const Placement placement(alts);
    std::vector<bool> runs(entries.size(), false);
    for (std::size_t i = 0; i < entries.size(); ++i) {
      runs[i] = placement.runs(placement.placed(), i);
      for (const detail::LaunchStep& step : steps)
        runs[i] = runs[i] || placement.runs(step.placed, i);
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
    std::string why;
    std::size_t culprit = 0;
    for (detail::LaunchStep& step : detail::launch_steps(alts_, requests, why, culprit)) {
      for (const WindowChange& c : changes(step.placed, step.j)) current_[c.entry] = c.window;
      for (std::size_t a = 0; a < alts_.size(); ++a)
        if (step.placed[a] != placement_.placed()[a]) launched_.push_back({a, step.j});
      placement_.set(std::move(step.placed));
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
  /// refusal. `applied` gets the iteration of the switch. A line names one move or several at
  /// once: NODE:PE[,NODE:PE...][@ITERATION].
  std::string request(std::string_view line, std::int64_t& applied) {
    const auto at = line.find('@');
    const std::string_view list = line.substr(0, at);
    std::vector<std::pair<std::string_view, std::string_view>> wanted_moves;
    for (std::size_t begin = 0; begin <= list.size();) {
      const std::size_t comma = std::min(list.find(',', begin), list.size());
      const std::string_view move = list.substr(begin, comma - begin);
      const auto colon = move.find(':');
      if (colon == std::string_view::npos || colon == 0 || colon + 1 >= move.size())
        return "expected NODE:PE or NODE:PE@ITERATION, got '" + std::string(line) + "'";
      wanted_moves.emplace_back(move.substr(0, colon), move.substr(colon + 1));
      begin = comma + 1;
    }
    std::int64_t wanted = 0;
    if (at != std::string_view::npos) {
      const std::string digits(line.substr(at + 1));
      char* end = nullptr;
      const long long v = std::strtoll(digits.c_str(), &end, 10);
      if (digits.empty() || *end != '\0' || v < 0)
        return "expected NODE:PE@ITERATION, got '" + std::string(line) + "'";
      wanted = std::max<std::int64_t>(0, v - first_);  // a restarted run counts from first_
    }
    std::vector<bool> target;
    if (std::string why = decide(wanted_moves, target); !why.empty()) return why;
    std::vector<std::size_t> flipped;
    for (std::size_t x = 0; x < alts_.size(); ++x)
      if (target[x] != placement_.placed()[x]) flipped.push_back(x);
    for (std::int64_t j = wanted;;) {
      if (done_.load(std::memory_order_acquire)) return "the run is over";
      if (j >= iterations_)
        return "too late: the run ends at iteration " + std::to_string(iterations_ + first_);
      const Prepared mine = prepare(target, flipped, j);
      if (!mine.held) {
        if (mine.j == j) std::this_thread::sleep_for(std::chrono::microseconds(200));
        j = mine.j;
        continue;
      }
      if (link_ != nullptr) {
        const MoveLink::Message all = link_->propose(flipped.front(), target[flipped.front()], j);
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

  /// The placement after the moves of one request line (node, PE each), in `target`: "" or
  /// the refusal.
  std::string decide(const std::vector<std::pair<std::string_view, std::string_view>>& wanted,
                     std::vector<bool>& target) const {
    std::vector<bool> moves = placement_.moves();
    auto named = [&](std::string_view node) {
      return std::any_of(wanted.begin(), wanted.end(),
                         [&](const auto& w) { return w.first == node; });
    };
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      const auto [node, pe] = wanted[i];
      for (std::size_t k = 0; k < i; ++k)
        if (wanted[k].first == node) return "node '" + std::string(node) + "' is named twice";
      const std::size_t s = placement_.away(moves, node);
      if (s < alts_.size() && pe == alts_[s].from && placement_.placed()[s] && !alts_[s].reversible)
        return "node '" + std::string(node) + "' cannot move back from " + alts_[s].to + " to " +
               alts_[s].from + " without shifting the pipeline (the alternative is not reversible)";
      if (link_ != nullptr && s < alts_.size() && pe != alts_[s].from && pe != alts_[s].to)
        return "node '" + std::string(node) + "' runs on " + alts_[s].to + "; move it back to " +
               alts_[s].from + " first";
      if (std::string why = placement_.move(moves, node, pe); !why.empty()) return why;
    }
    if (const std::vector<std::size_t> group = placement_.compose(moves, target); !group.empty()) {
      std::string others, all;
      for (std::size_t m : group) {
        const std::string move = std::string(alts_[m].node) + ":" + alts_[m].to;
        all += (all.empty() ? "" : " + ") + move;
        if (!named(alts_[m].node))
          others += std::string(others.empty() ? "" : ", ") + "node '" + alts_[m].node + "' on " +
                    alts_[m].to;
      }
      if (others.empty())
        return "the moves " + all + " change common firings or transfers" + placement_.unjoined();
      return "conflicts with " + others + ": both change the same firings or transfers" +
             placement_.unjoined();
    }
    if (std::string why = placement_.reachable(target); !why.empty()) return why;
    std::size_t flips = 0;
    for (std::size_t x = 0; x < alts_.size(); ++x) flips += target[x] != placement_.placed()[x];
    if (link_ != nullptr && flips > 1)
      return "on several hosts, a request moves one node (one line each)";
    return {};
  }

  /// A move this host's windows hold (prepare()) until settle().
  struct Pending {
    bool valid = false;
    std::vector<bool> target;          ///< the placement after the move
    std::vector<std::size_t> flipped;  ///< the alternatives it starts or ends
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

  /// Holds the switch to placement `target` (which starts or ends the alternatives `flipped`)
  /// at iteration j on this host's windows, where every change lies ahead of every worker and
  /// behind the last move.
  Prepared prepare(const std::vector<bool>& target, const std::vector<std::size_t>& flipped,
                   std::int64_t j) {
    std::vector<WindowChange> list = changes(target, j);
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
    pending_ = {true, target, flipped, j, std::move(list), last};
    return {true, j};
  }

  /// Makes (or drops) the move prepare() holds: routes the node's state, then the windows.
  void settle(bool make) {
    if (!pending_.valid) return;
    if (make) {
      for (std::size_t a : pending_.flipped) route(a, pending_.j);
      for (const WindowChange& c : pending_.list) current_[c.entry] = c.window;
      if (pending_.last >= 0) last_done_ = pending_.last + 1;
      placement_.set(pending_.target);
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
              conflict =
                  conflict || (placement_.placed()[x] && detail::shares_entry(alts_[x], alts_[a]));
            if (conflict) {
              link_->answer(MoveLink::Kind::conflict, m.j);
              break;
            }
            std::vector<bool> target = placement_.placed();
            target[a] = m.forward != 0;
            const Prepared p = prepare(target, {a}, m.j);
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

  /// The window changes of the switch to placement `target` at iteration j: the entries it
  /// stops handle the iterations before j, those it starts j on.
  std::vector<WindowChange> changes(const std::vector<bool>& target, std::int64_t j) const {
    std::vector<WindowChange> out;
    for (const auto& [i, runs] : placement_.changed(target, entries_.size()))
      out.push_back(
          {i, runs ? Window{entries_[i].first_cycle + j, entries_[i].first_cycle + iterations_}
                   : Window{current_[i].start, entries_[i].first_cycle + j}});
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
    const std::optional<RebalanceMove> m = r.policy.look(x, placement_.moves(), said);
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
      std::cerr << "migrate: " << printable(line)
                << (line.find(',') == std::string::npos ? ": node" : ": nodes")
                << " moved from iteration " << j + first_ << "\n";
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
  Placement placement_;  ///< the alternatives in effect
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
