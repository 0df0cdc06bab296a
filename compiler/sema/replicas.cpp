/// \file
/// Replicas over iterations: the copies a program's replica sets ask for, and the unfolding
/// (replicas.hpp).
#include "sema/replicas.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace dfgc::sema {

namespace {

/// The most copies an unfolded graph has of each node.
constexpr std::uint32_t kMaxCopies = 64;

std::uint32_t name_length(const ir::Node& n) { return static_cast<std::uint32_t>(n.name.size()); }

/// A replica set's weights over their gcd: their sum is the copies one round of the set takes.
std::uint32_t weight_sum(const std::vector<ir::Replica>& set) {
  std::uint32_t g = 0, sum = 0;
  for (const ir::Replica& r : set) g = std::gcd(g, r.weight);
  for (const ir::Replica& r : set) sum += r.weight / g;
  return sum;
}

/// The PE of copy j of a replicated node: the replica whose share of the weights holds j mod
/// their sum, the shares in set order.
ir::PeId replica_pe(const std::vector<ir::Replica>& set, std::uint32_t j) {
  std::uint32_t g = 0;
  for (const ir::Replica& r : set) g = std::gcd(g, r.weight);
  std::uint32_t at = j % weight_sum(set);
  for (const ir::Replica& r : set) {
    if (at < r.weight / g) return r.pe;
    at -= r.weight / g;
  }
  return set.back().pe;
}

}  // namespace

bool prepare_replicas(ir::Program& p, DiagnosticEngine& diags) {
  const ir::Node* first = nullptr;
  std::uint64_t copies = 1;
  bool ok = true;
  for (const ir::Node& n : p.dfg.nodes) {
    if (n.replicas.empty() && n.shares < 2) continue;
    if (!first) first = &n;
    copies = std::lcm(copies, std::uint64_t{n.shares > 1 ? n.shares : weight_sum(n.replicas)});
    if (copies > kMaxCopies) {
      diags.error(n.loc,
                  fmt::format("the replica sets up to node '{}' unfold the graph into {} copies "
                              "of each node (the least common multiple of their weights' sums); "
                              "dfgc allows at most {}",
                              n.name, copies, kMaxCopies),
                  name_length(n));
      return false;
    }
  }
  if (!first) return true;
  auto refuse = [&](SourceLoc loc, std::uint32_t length, std::string why) {
    auto d = diags.error(loc, std::move(why), length);
    d.note(first->loc, fmt::format("node '{}' runs replicas", first->name), name_length(*first));
    ok = false;
  };
  for (const ir::Node& n : p.dfg.nodes) {
    const ir::Actor& actor = p.dfg.actors[n.actor];
    if (actor.island) {
      for (const ir::IslandMember& m : p.islands[*actor.island].members)
        refuse(m.loc, static_cast<std::uint32_t>(m.name.size()),
               fmt::format("node '{}' is of dynamic actor '{}', whose island fires by its tokens, "
                           "not by iterations; a program with replicas unfolds its iterations "
                           "into copies of every node",
                           m.name, p.dfg.actors[m.actor].name));
    } else if (auto peek = std::find_if(actor.ports.begin(), actor.ports.end(),
                                        [](const ir::Port& p) { return p.history > 0; });
               peek != actor.ports.end()) {
      refuse(n.loc, name_length(n),
             fmt::format("node '{}' peeks at input '{}' (its firings see the tokens before "
                         "theirs); a program with replicas unfolds its iterations into copies of "
                         "every node, and no copy sees another's tokens",
                         n.name, peek->name));
    } else if (!n.alternatives.empty() && n.replicas.empty()) {
      refuse(
          n.alternatives.front().loc, 1,
          fmt::format("node '{}' migrates; a program with replicas does not move nodes", n.name));
    }
  }
  for (const ir::Edge& e : p.dfg.edges)
    if (e.written_tokens > 0)
      refuse(e.loc, 2,
             fmt::format("edge {}.{} -> {}.{} has a delay in tokens; a program with replicas "
                         "unfolds its iterations into copies of every node, and no copy sees "
                         "another's tokens: count the delay in iterations",
                         p.dfg.nodes[e.src].name, p.dfg.actor_of(e.src).ports[e.src_port].name,
                         p.dfg.nodes[e.dst].name, p.dfg.actor_of(e.dst).ports[e.dst_port].name));
  if (!ok) return false;
  const auto c = static_cast<std::uint32_t>(copies);
  if (p.batch == 1) {
    p.batch = c;
  } else if (p.batch % c != 0) {
    auto d = diags.error(p.batch_loc,
                         fmt::format("the app runs 'batch {}', but its replicas unfold the graph "
                                     "into {} copies, each running a block of the cycle's "
                                     "iterations: the batch must be a multiple of {}",
                                     p.batch, c, c),
                         5);
    d.note(first->loc, fmt::format("node '{}' runs replicas", first->name), name_length(*first));
    return false;
  }
  p.copies = c;
  return true;
}

void unfold_replicas(ir::Program& p) {
  const std::uint32_t c = p.copies;
  if (c == 1) return;
  const std::vector<ir::Node> nodes = std::move(p.dfg.nodes);
  const std::vector<ir::Edge> edges = std::move(p.dfg.edges);
  const std::vector<ir::PeId> pe_of = std::move(p.mapping.pe_of);
  p.dfg.nodes.clear();
  p.dfg.edges.clear();
  p.mapping.pe_of.clear();
  // Node-major: the copies of a node are neighbours in id order, so the schedule (Kahn's order by
  // id) fires them in copy order.
  auto id = [c](ir::NodeId n, std::uint32_t j) { return static_cast<ir::NodeId>(n * c + j); };
  for (ir::NodeId n = 0; n < nodes.size(); ++n)
    for (std::uint32_t j = 0; j < c; ++j) {
      ir::Node copy = nodes[n];
      copy.name = fmt::format("{}#{}", nodes[n].name, j);
      copy.origin = nodes[n].name;
      copy.copy = j;
      copy.replicated = !nodes[n].replicas.empty() || nodes[n].shares > 1;
      copy.share = nodes[n].shares > 1 ? j % nodes[n].shares : 0;
      copy.replicas.clear();
      p.dfg.nodes.push_back(std::move(copy));
      p.mapping.pe_of.push_back(nodes[n].replicas.empty() ? pe_of[n]
                                                          : replica_pe(nodes[n].replicas, j));
    }
  for (const ir::Edge& e : edges)
    for (std::uint32_t j = 0; j < c; ++j) {
      ir::Edge copy = e;
      copy.src = id(e.src, j);
      copy.dst = id(e.dst, (j + e.delay) % c);
      copy.delay = (j + e.delay) / c;
      p.dfg.edges.push_back(std::move(copy));
    }
}

}  // namespace dfgc::sema
