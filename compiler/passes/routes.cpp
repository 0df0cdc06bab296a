#include "passes/routes.hpp"

#include <algorithm>
#include <deque>
#include <limits>

#include "support/assert.hpp"

namespace dfgc {

namespace {
constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();
}

Router::Router(const ir::ArchGraph& arch)
    : arch_(&arch), link_(arch.pes.size(), std::vector<ir::LinkId>(arch.pes.size(), kNoLink)) {
  auto offer = [&](ir::PeId a, ir::PeId b, ir::LinkId l) {
    ir::LinkId& best = link_[a][b];
    if (best == kNoLink || arch.links[l].bandwidth > arch.links[best].bandwidth) best = l;
  };
  for (ir::LinkId l = 0; l < arch.links.size(); ++l) {
    const ir::Link& link = arch.links[l];
    offer(link.a, link.b, l);
    if (link.bidirectional) offer(link.b, link.a, l);
  }
}

double Router::bandwidth(ir::PeId a, ir::PeId b) const {
  return arch_->links[link_[a][b]].bandwidth;
}

/// Breadth-first hop counts from `pe` (along links, or against them when `reverse`).
std::vector<std::uint32_t> Router::hops_from(ir::PeId pe, bool reverse) const {
  std::vector<std::uint32_t> hops(arch_->pes.size(), kUnreached);
  std::deque<ir::PeId> queue{pe};
  hops[pe] = 0;
  while (!queue.empty()) {
    ir::PeId u = queue.front();
    queue.pop_front();
    for (ir::PeId v = 0; v < arch_->pes.size(); ++v) {
      bool linked = reverse ? link_[v][u] != kNoLink : link_[u][v] != kNoLink;
      if (linked && hops[v] == kUnreached) {
        hops[v] = hops[u] + 1;
        queue.push_back(v);
      }
    }
  }
  return hops;
}

/// Restricts the links to those on a shortest path, finds the best bottleneck over them, then walks
/// from `from` taking the smallest next PE that can still reach `to` over links at least that fast.
Route Router::compute(ir::PeId from, ir::PeId to) const {
  const std::size_t n = arch_->pes.size();
  std::vector<std::uint32_t> ds = hops_from(from, false);
  std::vector<std::uint32_t> dt = hops_from(to, true);
  DFGC_INTERNAL_ASSERT(ds[to] != kUnreached, "no path from ", arch_->pes[from].name, " to ",
                       arch_->pes[to].name);
  const std::uint32_t h = ds[to];
  auto on_path = [&](ir::PeId u, ir::PeId v) {
    return link_[u][v] != kNoLink && ds[u] != kUnreached && dt[v] != kUnreached &&
           ds[u] + 1 + dt[v] == h;
  };
  std::vector<ir::PeId> by_hops(n);
  for (ir::PeId p = 0; p < n; ++p) by_hops[p] = p;
  std::stable_sort(by_hops.begin(), by_hops.end(),
                   [&](ir::PeId a, ir::PeId b) { return ds[a] < ds[b]; });
  std::vector<double> bottleneck(n, -1.0);
  bottleneck[from] = std::numeric_limits<double>::infinity();
  for (ir::PeId u : by_hops)
    for (ir::PeId v = 0; v < n; ++v)
      if (bottleneck[u] >= 0 && on_path(u, v))
        bottleneck[v] = std::max(bottleneck[v], std::min(bottleneck[u], bandwidth(u, v)));
  const double best = bottleneck[to];
  auto usable = [&](ir::PeId u, ir::PeId v) { return on_path(u, v) && bandwidth(u, v) >= best; };
  std::vector<bool> reaches(n, false);
  reaches[to] = true;
  for (auto it = by_hops.rbegin(); it != by_hops.rend(); ++it)
    for (ir::PeId v = 0; v < n; ++v)
      if (reaches[v] && usable(*it, v)) reaches[*it] = true;
  Route r{{from}, {}};
  for (ir::PeId u = from; u != to;) {
    ir::PeId next = 0;
    while (next < n && !(usable(u, next) && reaches[next])) ++next;
    DFGC_INTERNAL_ASSERT(next < n, "route walk lost its way");
    r.links.push_back(link_[u][next]);
    r.pes.push_back(next);
    u = next;
  }
  return r;
}

const Route& Router::route(ir::PeId from, ir::PeId to) {
  auto [it, inserted] = cache_.try_emplace({from, to});
  if (inserted) it->second = compute(from, to);
  return it->second;
}

}  // namespace dfgc
