/// \file
/// Paths through the architecture graph, as buffer insertion follows them: the fewest hops, then
/// the highest bottleneck bandwidth, then the lexicographically smallest sequence of PE indices.
/// One-way links are followed only in their direction; between two PEs joined by several links the
/// fastest (then the first declared) is used. A GPU-to-GPU path is direct only where the arch
/// declares a link; otherwise it goes through whatever the links allow (the host CPU).
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "ir/ir.hpp"

namespace dfgc {

struct Route {
  std::vector<ir::PeId> pes;      ///< from the source PE to the destination PE, both included
  std::vector<ir::LinkId> links;  ///< links[i] joins pes[i] to pes[i + 1]
};

class Router {
 public:
  explicit Router(const ir::ArchGraph& arch);

  /// The route from `from` to `to` (memoised). An unreachable pair is an internal error: sema
  /// rejects a mapping whose edges have no path.
  const Route& route(ir::PeId from, ir::PeId to);

 private:
  static constexpr ir::LinkId kNoLink = ~ir::LinkId{0};
  Route compute(ir::PeId from, ir::PeId to) const;
  std::vector<std::uint32_t> hops_from(ir::PeId pe, bool reverse) const;
  double bandwidth(ir::PeId a, ir::PeId b) const;

  const ir::ArchGraph* arch_;
  std::vector<std::vector<ir::LinkId>> link_;  ///< link_[a][b]: the link used from a to b
  std::map<std::pair<ir::PeId, ir::PeId>, Route> cache_;
};

}  // namespace dfgc
