/// \file
/// dfg::Placement: which migration alternatives are in effect, and what a request to move nodes
/// makes of them (dfg/migration.hpp applies it to the windows).
///
/// A move is a single alternative (one node on one of its `migrates` PEs). Single alternatives
/// whose switches change a common entry (neighbouring nodes: the transfer between them) cannot
/// be in effect side by side; the mapping with both moves is then a joint alternative of its
/// own, planned by dfgc like a single one (Alternative::parts). A placement is a set of
/// alternatives that change no common entry: the moves in effect grouped by the entries they
/// share, each group of one its single alternative, each larger group its joint. A request
/// gives the moves it wants in effect; the placement it leads to is that grouping, refused
/// where a group has no joint (dfgc plans a bounded number: its schedule.txt lists the others).
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dfg/alternative.hpp"

namespace dfg {

/// The single alternative of `node` on `pe` among `alts` (index), or the one-line reason there
/// is none.
inline std::string find_alternative(std::span<const Alternative> alts, std::string_view node,
                                    std::string_view pe, std::size_t& index) {
  std::string nodes, pes;
  bool known = false;
  for (std::size_t a = 0; a < alts.size(); ++a) {
    if (!alts[a].parts.empty()) continue;
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

class Placement {
 public:
  explicit Placement(std::span<const Alternative> alts)
      : alts_(alts), placed_(alts.size(), false) {}

  /// Per alternative (single or joint): in effect.
  const std::vector<bool>& placed() const noexcept { return placed_; }
  void set(std::vector<bool> placed) { placed_ = std::move(placed); }

  /// Per alternative: whether its move is in effect, by itself or as part of a joint (false for
  /// the joints themselves).
  std::vector<bool> moves() const {
    std::vector<bool> out(alts_.size(), false);
    for (std::size_t a = 0; a < alts_.size(); ++a) {
      if (!placed_[a]) continue;
      if (alts_[a].parts.empty()) out[a] = true;
      for (std::size_t p : alts_[a].parts) out[p] = true;
    }
    return out;
  }

  /// The single alternative that has `node` away from its place in `moves` (moves()), or
  /// alts.size().
  std::size_t away(const std::vector<bool>& moves, std::string_view node) const {
    for (std::size_t a = 0; a < alts_.size(); ++a)
      if (moves[a] && node == alts_[a].node) return a;
    return alts_.size();
  }

  /// `moves` (moves()) with `node` moved to `pe` (to its place: its move undone): "" or the
  /// reason it cannot be. `to` gets the single alternative now in effect for the node, or
  /// alts.size() when it is back in its place.
  std::string move(std::vector<bool>& moves, std::string_view node, std::string_view pe,
                   std::size_t* to = nullptr) const {
    if (to != nullptr) *to = alts_.size();
    if (const std::size_t s = away(moves, node); s < alts_.size()) {
      if (pe == alts_[s].to)
        return "node '" + std::string(node) + "' already runs on " + alts_[s].to;
      moves[s] = false;
      if (pe == alts_[s].from) return {};
    }
    std::size_t t = alts_.size();
    if (std::string why = find_alternative(alts_, node, pe, t); !why.empty()) return why;
    moves[t] = true;
    if (to != nullptr) *to = t;
    return {};
  }

  /// The placement whose moves are `moves` (moves()): each group of moves that share entries
  /// as one alternative, in `target`. Returns the moves of a group that no alternative joins
  /// (empty when `target` is the placement).
  std::vector<std::size_t> compose(const std::vector<bool>& moves,
                                   std::vector<bool>& target) const {
    target.assign(alts_.size(), false);
    std::vector<bool> grouped(alts_.size(), false);
    for (std::size_t a = 0; a < alts_.size(); ++a) {
      if (!moves[a] || grouped[a]) continue;
      // The moves connected to a through shared entries.
      std::vector<std::size_t> members{a};
      grouped[a] = true;
      for (std::size_t i = 0; i < members.size(); ++i)
        for (std::size_t b = 0; b < alts_.size(); ++b)
          if (moves[b] && !grouped[b] && detail::shares_entry(alts_[members[i]], alts_[b])) {
            grouped[b] = true;
            members.push_back(b);
          }
      std::sort(members.begin(), members.end());
      std::size_t joint = members.size() == 1 ? a : alts_.size();
      for (std::size_t j = 0; j < alts_.size() && members.size() > 1; ++j)
        if (std::equal(alts_[j].parts.begin(), alts_[j].parts.end(), members.begin(),
                       members.end()))
          joint = j;
      if (joint == alts_.size()) return members;
      target[joint] = true;
    }
    // A joint's own switch may change an entry that another group's changes too.
    for (std::size_t x = 0; x < alts_.size(); ++x)
      for (std::size_t y = x + 1; y < alts_.size(); ++y)
        if (target[x] && target[y] && detail::shares_entry(alts_[x], alts_[y])) {
          std::vector<std::size_t> both;
          for (std::size_t z : {x, y}) {
            if (alts_[z].parts.empty()) both.push_back(z);
            both.insert(both.end(), alts_[z].parts.begin(), alts_[z].parts.end());
          }
          std::sort(both.begin(), both.end());
          return both;
        }
    return {};
  }

  /// Whether the table has joint alternatives (dfgc plans them on one host).
  bool joins() const {
    return std::any_of(alts_.begin(), alts_.end(),
                       [](const Alternative& a) { return !a.parts.empty(); });
  }

  /// The end of a refusal of moves that share entries: what compose() returned names them.
  std::string unjoined() const {
    return joins() ? ", and dfgc planned no joint alternative for them (schedule.txt says why)"
                   : "";
  }

  /// Whether the switch from the placement in effect to `target` can be made: every
  /// alternative it ends must be reversible (no node idles at its switch); "" or the reason.
  std::string reachable(const std::vector<bool>& target) const {
    for (std::size_t a = 0; a < alts_.size(); ++a) {
      if (!placed_[a] || target[a] || alts_[a].reversible) continue;
      return std::string(alts_[a].parts.empty() ? "node '" : "nodes '") + alts_[a].node +
             "' cannot leave " + alts_[a].to + " without shifting the pipeline (the alternative " +
             "that moved " + (alts_[a].parts.empty() ? "it" : "them") + " there from " +
             alts_[a].from + " is not reversible)";
    }
    return {};
  }

  /// Whether entry `entry` runs under `placed`: an entry of an alternative when one in effect
  /// starts it, any other when none in effect stops it.
  bool runs(const std::vector<bool>& placed, std::size_t entry) const {
    bool started = false, stopped = false, own = false;
    for (std::size_t a = 0; a < alts_.size(); ++a) {
      const bool in_start =
          std::find(alts_[a].start.begin(), alts_[a].start.end(), entry) != alts_[a].start.end();
      own = own || in_start;
      if (!placed[a]) continue;
      started = started || in_start;
      stopped = stopped ||
                std::find(alts_[a].stop.begin(), alts_[a].stop.end(), entry) != alts_[a].stop.end();
    }
    return own ? started : !stopped;
  }

  /// The entries (of `count`) whose running changes between the placement in effect and
  /// `target`, each with whether it runs under `target`.
  std::vector<std::pair<std::size_t, bool>> changed(const std::vector<bool>& target,
                                                    std::size_t count) const {
    std::vector<std::pair<std::size_t, bool>> out;
    for (std::size_t i = 0; i < count; ++i)
      if (const bool after = runs(target, i); after != runs(placed_, i)) out.emplace_back(i, after);
    return out;
  }

 private:
  std::span<const Alternative> alts_;
  std::vector<bool> placed_;
};

}  // namespace dfg
