/// \file
/// --rebalance[=MS]: moves nodes among their migration alternatives (`migrates` in the spec) when
/// a processing element becomes the bottleneck, because another process takes its core or its
/// GPU, and back when the load goes. Opt-in; a program on one host. The moves are the Migrator's
/// (dfg/migration.hpp): no token is lost, nothing is allocated.
///
/// What is measured (dfg::Loads), by the workers, only with --rebalance:
///  - per PE, the time its worker waited for its neighbours (or at the barrier) before a cycle:
///    the PE that bounds the period never waits for its neighbours; a GPU's worker that waits
///    for its own cycles (room in flight) counts as busy;
///  - per PE, the cycles it has ended: the cycles every PE has ended give the period.
///
/// What is decided (dfg::RebalancePolicy, every MS ms, default 200), with a hysteresis h = 0.2:
///  - each mapping (the set of alternatives in effect) keeps the best period it has shown;
///  - when the period stays above (1 + h) x the best of the mapping in effect for two looks, the
///    bottleneck is the PE that waited least (less than half of the time, else no PE's work
///    sets the period and nothing moves); a node on it that may move (an alternative from
///    it, or the way back of a node that moved there) moves to the PE that waited most among
///    those it may move to, which must have waited at least 0.1 of the time more;
///  - that move is a trial: one look to let it settle, then two looks; kept when the period fell
///    by more than h / 2, else moved back, and that move not tried again for a time that
///    doubles each time it fails (10 looks, 20, ... at most 300: 2 s to 60 s at the default
///    interval);
///  - a node away from its place goes back when the mapping without its move has shown a period
///    better by more than h / 4 than the period now, after a wait that doubles each time the
///    way back turns out still loaded (worse than away by more than h / 2: it then moves away
///    again): its place is tried again, since nothing but a trial says whether the load has
///    gone.
/// Each conclusion is a line on stderr (`rebalance: ...`), each move the Migrator's
/// (`migrate: f:A.c2: node moved from iteration J`).
///
/// Guarantees: Loads is built by the main thread before the workers start; waited() and ended()
/// are called by each PE's worker for its own PE (relaxed atomics, no lock, no allocation);
/// sample() by the migration thread. RebalancePolicy is plain data, called by the migration
/// thread only (it allocates).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/alternative.hpp"
#include "dfg/placement.hpp"

namespace dfg {

/// The PEs' counters at one instant (Loads::sample).
struct LoadSample {
  std::chrono::steady_clock::time_point at{};
  std::int64_t cycles = 0;              ///< the cycles every PE has ended
  std::vector<std::int64_t> waited_ns;  ///< per PE, the time it waited so far
};

/// What happened between two samples: the period and each PE's share of the time it waited.
struct LoadInterval {
  double period_ms = 0;         ///< wall time / cycles ended; 0 when no cycle ended
  std::vector<double> waiting;  ///< per PE, in [0, 1]
};

/// The interval from `a` to `b` (b later).
inline LoadInterval interval_between(const LoadSample& a, const LoadSample& b) {
  LoadInterval x;
  const double wall_ns = static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(b.at - a.at).count());
  const std::int64_t cycles = b.cycles - a.cycles;
  if (cycles > 0 && wall_ns > 0) x.period_ms = wall_ns / 1e6 / static_cast<double>(cycles);
  for (std::size_t pe = 0; pe < b.waited_ns.size() && pe < a.waited_ns.size(); ++pe) {
    const double w =
        wall_ns > 0 ? static_cast<double>(b.waited_ns[pe] - a.waited_ns[pe]) / wall_ns : 0;
    x.waiting.push_back(std::clamp(w, 0.0, 1.0));
  }
  return x;
}

/// The workers' measurements for --rebalance; off, nothing is written but by no one.
class Loads {
 public:
  Loads(std::size_t pes, bool on)
      : pes_(pes), counters_(on ? std::make_unique<Counter[]>(pes) : nullptr) {}
  Loads(const Loads&) = delete;
  Loads& operator=(const Loads&) = delete;

  bool on() const noexcept { return counters_ != nullptr; }
  /// PE `pe` waited `d` for its neighbours or at the barrier. Its worker only.
  void waited(int pe, std::chrono::steady_clock::duration d) noexcept {
    counters_[static_cast<std::size_t>(pe)].waited_ns.fetch_add(
        std::chrono::duration_cast<std::chrono::nanoseconds>(d).count(), std::memory_order_relaxed);
  }
  /// PE `pe` ended cycle c. Its worker only.
  void ended(int pe, std::int64_t c) noexcept {
    counters_[static_cast<std::size_t>(pe)].ended.store(c + 1, std::memory_order_relaxed);
  }
  /// The counters now (approximately at once: each is read once).
  LoadSample sample() const {
    LoadSample s;
    s.at = std::chrono::steady_clock::now();
    s.cycles = pes_ > 0 ? INT64_MAX : 0;
    for (std::size_t pe = 0; pe < pes_; ++pe) {
      s.waited_ns.push_back(counters_[pe].waited_ns.load(std::memory_order_relaxed));
      s.cycles = std::min(s.cycles, counters_[pe].ended.load(std::memory_order_relaxed));
    }
    return s;
  }

 private:
  struct alignas(64) Counter {
    std::atomic<std::int64_t> waited_ns{0};
    std::atomic<std::int64_t> ended{0};
  };
  std::size_t pes_;
  std::unique_ptr<Counter[]> counters_;
};

/// A move the policy asks for: alternative `alternative` forward (its node to `to`) or back (to
/// `from`), as a --migrate-control line ("f:A.c2").
struct RebalanceMove {
  std::size_t alternative = 0;
  bool forward = true;
  std::string line;
};

class RebalancePolicy {
 public:
  static constexpr double kHysteresis = 0.2;
  static constexpr int kDegradedLooks = 2;  ///< looks above the best before a trial
  static constexpr int kTrialLooks = 2;     ///< looks a trial is judged on, after one to settle
  static constexpr double kSlack = 0.1;     ///< the wait a destination must have more
  static constexpr double kIdle = 0.5;      ///< a bottleneck waits less than this share

  static constexpr std::int64_t kFirstBackoff = 10;  ///< looks, doubling each time
  static constexpr std::int64_t kMaxBackoff = 300;

  /// `alts` and `pes` (the host's PE names, in its PE order) outlive the policy.
  RebalancePolicy(std::span<const Alternative> alts, std::span<const char* const> pes)
      : alts_(alts),
        pes_(pes),
        first_backoff_(kFirstBackoff),
        max_backoff_(kMaxBackoff),
        retry_at_(alts.size(), 0),
        backoff_(alts.size(), first_backoff_),
        home_backoff_(first_backoff_) {}

  /// One look: the interval since the last, and which moves are in effect (placed[a]: single
  /// alternative a's node runs on its `to`, by itself or in a joint; false for the joints). Returns
  /// the move to make, if any; `said` gets the conclusion to print ("" for none).
  std::optional<RebalanceMove> look(const LoadInterval& x, const std::vector<bool>& placed,
                                    std::string& said) {
    said.clear();
    ++now_;
    if (x.period_ms <= 0 || x.waiting.size() != pes_.size()) return std::nullopt;
    if (settle_ > 0) {
      --settle_;
      return std::nullopt;
    }
    if (trial_) return judge(x, placed, said);
    auto [best, fresh] = best_.try_emplace(placed, x.period_ms);
    if (fresh) return std::nullopt;
    if (x.period_ms > (1 + kHysteresis) * best->second) {
      ++degraded_;
    } else {
      degraded_ = 0;
    }
    best->second = std::min(best->second, x.period_ms);
    if (degraded_ >= kDegradedLooks) {
      if (std::optional<RebalanceMove> m = relieve(x, placed, best->second, said)) return m;
    }
    if (now_ >= home_retry_at_) return return_home(x, placed, said);
    return std::nullopt;
  }

  /// What became of the move look() returned: made, or refused by the Migrator (a conflict, the
  /// end of the run). A refused trial is dropped and its move rests for a back-off.
  void moved(const RebalanceMove& m, bool made) {
    if (made) return;
    if (trial_ && trial_->move.alternative == m.alternative) {
      rest(m.alternative);
      trial_.reset();
    }
    settle_ = 0;
  }

  /// The best period each mapping has shown (for messages and tests).
  double best_ms(const std::vector<bool>& placed) const {
    const auto it = best_.find(placed);
    return it == best_.end() ? 0 : it->second;
  }

 private:
  /// A move made to see what it gives: `improve` must lower the period, a node's way back home
  /// need only not raise it.
  struct Trial {
    RebalanceMove move;
    bool improve = true;
    double before_ms = 0;
    std::vector<double> after_ms;
  };

  std::string_view pe(std::size_t i) const { return pes_[i]; }
  std::size_t pe_index(std::string_view name) const {
    for (std::size_t i = 0; i < pes_.size(); ++i)
      if (name == pes_[i]) return i;
    return pes_.size();
  }
  static std::string ms(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g ms", v);
    return text;
  }
  static std::string percent(double v) {
    return std::to_string(static_cast<int>(v * 100 + 0.5)) + "%";
  }
  RebalanceMove move(std::size_t a, bool forward) const {
    return {a, forward, std::string(alts_[a].node) + ":" + (forward ? alts_[a].to : alts_[a].from)};
  }
  bool away(const std::vector<bool>& placed, std::string_view node) const {
    for (std::size_t a = 0; a < alts_.size(); ++a)
      if (placed[a] && node == alts_[a].node) return true;
    return false;
  }
  void rest(std::size_t a) {
    retry_at_[a] = now_ + backoff_[a];
    backoff_[a] = std::min(2 * backoff_[a], max_backoff_);
  }
  std::optional<RebalanceMove> start(RebalanceMove m, bool improve, double before) {
    trial_ = Trial{m, improve, before, {}};
    degraded_ = 0;
    settle_ = 1;
    return m;
  }

  /// The period has stayed above the mapping's best: a node off the PE that waited least.
  std::optional<RebalanceMove> relieve(const LoadInterval& x, const std::vector<bool>& placed,
                                       double best, std::string& said) {
    std::size_t bottleneck = 0;
    for (std::size_t i = 1; i < x.waiting.size(); ++i)
      if (x.waiting[i] < x.waiting[bottleneck]) bottleneck = i;
    // Every PE waited most of the time: no PE's work sets the period (the system's overheads
    // do), and no move helps.
    if (x.waiting[bottleneck] > kIdle) return std::nullopt;
    std::optional<RebalanceMove> chosen;
    double slack = x.waiting[bottleneck] + kSlack;
    for (std::size_t a = 0; a < alts_.size(); ++a) {
      const Alternative& alt = alts_[a];
      bool forward = false;
      if (!placed[a] && pe(bottleneck) == alt.from && now_ >= retry_at_[a] &&
          !away(placed, alt.node)) {
        // With the moves in effect, a placement (dfg/placement.hpp): moves that share entries
        // need their joint alternative.
        std::vector<bool> moves = placed, target;
        moves[a] = true;
        if (!Placement(alts_).compose(moves, target).empty()) continue;
        forward = true;
      } else if (!(placed[a] && pe(bottleneck) == alt.to && alt.reversible &&
                   now_ >= retry_at_[a])) {
        continue;
      }
      const std::size_t to = pe_index(forward ? alt.to : alt.from);
      if (to < x.waiting.size() && x.waiting[to] > slack) {
        slack = x.waiting[to];
        chosen = move(a, forward);
      }
    }
    if (!chosen) return std::nullopt;
    said = "rebalance: period " + ms(x.period_ms) + " a cycle, the mapping's best " + ms(best) +
           "; " + std::string(pe(bottleneck)) + " waited " + percent(x.waiting[bottleneck]) +
           " of the time: moving " + chosen->line;
    return start(*chosen, true, x.period_ms);
  }

  /// No bottleneck to relieve: a node away from its place whose mapping without the move ran
  /// better than now goes back, to see whether the load there has gone.
  std::optional<RebalanceMove> return_home(const LoadInterval& x, const std::vector<bool>& placed,
                                           std::string& said) {
    for (std::size_t a = 0; a < alts_.size(); ++a) {
      if (!placed[a] || !alts_[a].reversible) continue;
      std::vector<bool> home = placed;
      home[a] = false;
      const double before = best_ms(home);
      if (before <= 0 || before * (1 + kHysteresis / 4) >= x.period_ms) continue;
      said = "rebalance: node '" + std::string(alts_[a].node) + "' ran at " + ms(before) +
             " a cycle on " + alts_[a].from + ", now " + ms(x.period_ms) + " on " + alts_[a].to +
             ": trying " + alts_[a].from + " again";
      return start(move(a, false), false, x.period_ms);
    }
    return std::nullopt;
  }

  /// A trial's looks after it settled: kept, or moved back.
  std::optional<RebalanceMove> judge(const LoadInterval& x, const std::vector<bool>& placed,
                                     std::string& said) {
    Trial& t = *trial_;
    t.after_ms.push_back(x.period_ms);
    if (static_cast<int>(t.after_ms.size()) < kTrialLooks) return std::nullopt;
    double after = 0;
    for (double v : t.after_ms) after += v / static_cast<double>(t.after_ms.size());
    const RebalanceMove m = t.move;
    const Alternative& alt = alts_[m.alternative];
    const std::string where = m.forward ? alt.to : alt.from;
    const std::string text =
        "rebalance: " + m.line + ": period " + ms(after) + " a cycle, was " + ms(t.before_ms);
    const bool improve = t.improve;
    trial_.reset();
    if (improve) {
      if (after * (1 + kHysteresis / 2) < t.before_ms) {
        backoff_[m.alternative] = first_backoff_;
        auto [best, fresh] = best_.try_emplace(placed, after);
        if (!fresh) best->second = std::min(best->second, after);
        home_retry_at_ = now_ + home_backoff_;
        said = text + ": kept";
        return std::nullopt;
      }
      rest(m.alternative);
      said = text + ": no better, moving it back";
      settle_ = 1;
      return move(m.alternative, !m.forward);
    }
    if (after <= t.before_ms * (1 + kHysteresis / 2)) {
      home_backoff_ = first_backoff_;
      auto [best, fresh] = best_.try_emplace(placed, after);
      if (!fresh) best->second = std::min(best->second, after);
      said = text + ": the load has gone, node '" + std::string(alt.node) + "' stays on " + where;
      return std::nullopt;
    }
    home_backoff_ = std::min(2 * home_backoff_, max_backoff_);
    home_retry_at_ = now_ + home_backoff_;
    said = text + ": still loaded, moving it back to " + alt.to;
    settle_ = 1;
    return move(m.alternative, true);
  }

  std::span<const Alternative> alts_;
  std::span<const char* const> pes_;
  const std::int64_t first_backoff_, max_backoff_;  ///< in looks
  std::int64_t now_ = 0;                            ///< looks so far
  std::map<std::vector<bool>, double> best_;        ///< per mapping, its best period (ms)
  int degraded_ = 0;
  int settle_ = 0;
  std::optional<Trial> trial_;
  std::vector<std::int64_t> retry_at_, backoff_;  ///< per alternative's trial
  std::int64_t home_retry_at_ = 0, home_backoff_;
};

}  // namespace dfg
