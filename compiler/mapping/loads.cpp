#include "mapping/loads.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dfgc::mapping {

// Resource slots: [0, P) PE firings, [P, P + 2L) link directions, then P H2D and P D2H engines,
// then P host copies (a step's only: with overlap a PE's host copies are in its firings' slot).

std::string Resource::name(const ir::ArchGraph& arch) const {
  switch (kind) {
    case Kind::pe: return fmt::format("{} firings", arch.pes[index].name);
    case Kind::link: {
      const ir::Link& l = arch.links[index / 2];
      bool forward = index % 2 == 0;
      return fmt::format("link {} -> {} ({})", arch.pes[forward ? l.a : l.b].name,
                         arch.pes[forward ? l.b : l.a].name, ir::to_string(l.kind));
    }
    case Kind::h2d: return fmt::format("{} copy engine H2D", arch.pes[index].name);
    case Kind::d2h: return fmt::format("{} copy engine D2H", arch.pes[index].name);
    case Kind::host_copies: return fmt::format("{} host copies", arch.pes[index].name);
    case Kind::none: return "nothing";
  }
  return "?";
}

Loads::Loads(const ir::ArchGraph& arch, const CostTable& costs)
    : arch_(arch), costs_(costs), pes_(arch.pes.size()), links_(arch.links.size()) {
  reset(1);
}

void Loads::reset(std::uint32_t steps) {
  const std::size_t slots = 4 * pes_ + 2 * links_;
  load_.assign(slots, 0);
  fire_.assign(pes_, 0);
  steps_.resize(steps);
  for (auto& s : steps_) s.assign(slots, 0);
}

void Loads::transfer(ir::PeId from, ir::PeId to, ir::LinkId link, std::int64_t bytes,
                     std::uint32_t step) {
  double t = costs_.transfer_time(arch_, link, from, bytes);
  std::size_t dir = arch_.links[link].a == from ? 0 : 1;
  auto add = [&](std::size_t slot) {
    load_[slot] += t;
    steps_[step][slot] += t;
  };
  add(pes_ + 2 * link + dir);
  if (arch_.pes[to].kind == ir::PeKind::gpu) add(pes_ + 2 * links_ + to);
  if (arch_.pes[from].kind == ir::PeKind::gpu) add(2 * pes_ + 2 * links_ + from);
}

void Loads::mapped_transfer(ir::PeId from, ir::PeId to, ir::LinkId link, std::int64_t bytes,
                            std::uint32_t step) {
  const ir::PeId cpu = arch_.pes[to].kind == ir::PeKind::gpu ? from : to;
  const double copy = costs_.host_copy_time(arch_, link, from, bytes);
  load_[cpu] += copy;
  steps_[step][3 * pes_ + 2 * links_ + cpu] += copy;
  load_[pes_ + 2 * link + (arch_.links[link].a == from ? 0 : 1)] +=
      costs_.mapped_read_time(arch_, link, from, bytes);
}

Resource Loads::resource(std::size_t slot, double load) const {
  Resource r;
  r.load = load;
  if (slot < pes_) {
    r.kind = Resource::Kind::pe;
    r.index = static_cast<std::uint32_t>(slot);
  } else if (slot < pes_ + 2 * links_) {
    r.kind = Resource::Kind::link;
    r.index = static_cast<std::uint32_t>(slot - pes_);
  } else if (slot < 2 * pes_ + 2 * links_) {
    r.kind = Resource::Kind::h2d;
    r.index = static_cast<std::uint32_t>(slot - pes_ - 2 * links_);
  } else if (slot < 3 * pes_ + 2 * links_) {
    r.kind = Resource::Kind::d2h;
    r.index = static_cast<std::uint32_t>(slot - 2 * pes_ - 2 * links_);
  } else {
    r.kind = Resource::Kind::host_copies;
    r.index = static_cast<std::uint32_t>(slot - 3 * pes_ - 2 * links_);
  }
  return r;
}

/// The first of the largest loads in [first, last); Kind::none when none is above zero.
Resource Loads::busiest(const std::vector<double>& loads, std::size_t first,
                        std::size_t last) const {
  std::size_t best = first;
  for (std::size_t s = first; s < last; ++s)
    if (loads[s] > loads[best]) best = s;
  if (best >= last || loads[best] <= 0) return {Resource::Kind::none, 0, 0};
  return resource(best, loads[best]);
}

double Loads::period(ir::Strategy s) const {
  if (s == ir::Strategy::overlap)
    return *std::max_element(load_.begin(), load_.end()) + costs_.overhead[s];
  double total = costs_.overhead[s] + *std::max_element(fire_.begin(), fire_.end());
  for (const auto& step : steps_) total += *std::max_element(step.begin() + pes_, step.end());
  return total;
}

std::vector<Resource> Loads::resources() const {
  std::vector<Resource> result;
  for (std::size_t s = 0; s < load_.size(); ++s)
    if (load_[s] > 0) result.push_back(resource(s, load_[s]));
  return result;
}

std::vector<Resource> Loads::phases() const {
  std::vector<Resource> result;
  for (const auto& step : steps_) result.push_back(busiest(step, pes_, step.size()));
  result.push_back(busiest(fire_, 0, pes_));
  return result;
}

CoreReads::CoreReads(const ir::Program& program) : arch_(program.arch) {
  const ir::Dfg& dfg = program.dfg;
  std::vector<ir::EdgeId> order(dfg.edges.size());
  for (ir::EdgeId e = 0; e < order.size(); ++e) order[e] = e;
  auto output = [&](ir::EdgeId e) { return std::pair(dfg.edges[e].src, dfg.edges[e].src_port); };
  std::stable_sort(order.begin(), order.end(),
                   [&](ir::EdgeId a, ir::EdgeId b) { return output(a) < output(b); });
  for (std::size_t i = 0; i < order.size(); ++i) {
    const ir::Edge& e = dfg.edges[order[i]];
    edges_.push_back({e.src, e.dst, program.types[dfg.block_type(e.src, e.src_port)].bytes(),
                      i == 0 || output(order[i - 1]) != output(order[i])});
  }
}

void CoreReads::charge(Loads& loads, const std::vector<ir::PeId>& pe_of) {
  for (const Read& r : edges_) {
    if (r.first) readers_.clear();
    const ir::PeId from = pe_of[r.src], to = pe_of[r.dst];
    if (from == to) continue;
    const ir::Pe& a = arch_.pes[from];
    const ir::Pe& b = arch_.pes[to];
    if (a.kind != ir::PeKind::cpu || b.kind != ir::PeKind::cpu || a.host != b.host) continue;
    if (std::find(readers_.begin(), readers_.end(), to) != readers_.end()) continue;
    readers_.push_back(to);
    loads.core_read(to, r.bytes);
  }
}

}  // namespace dfgc::mapping
