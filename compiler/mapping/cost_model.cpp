#include "mapping/cost_model.hpp"

#include <algorithm>

#include "ir/byte_count.hpp"
#include "plan/plan.hpp"

namespace dfgc::mapping {

namespace {

StrategyPrediction predict_one(ir::Strategy s, const ir::Program& p, const ir::IgStrategy& g,
                               const CostTable& costs, const PlanOptions& plan) {
  Loads loads(p.arch, costs);
  loads.reset(g.transfer_steps);
  for (const ir::IgFiring& f : g.firings) loads.fire(f.pe, costs.firing[f.node][f.pe].value_or(0));
  CoreReads(p).charge(loads, p.mapping.pe_of);
  const std::vector<bool> mapped = mapped_colours(p, g, plan);
  for (const ir::IgTransfer& t : g.transfers)
    if (is_mapped(p, g, mapped, t))
      loads.mapped_transfer(t.from_pe, t.to_pe, t.link, t.bytes, t.step);
    else
      loads.transfer(t.from_pe, t.to_pe, t.link, t.bytes, t.step);
  StrategyPrediction r;
  r.period = loads.period(s);
  for (const ir::IgFiring& f : g.firings) r.latency_cycles = std::max(r.latency_cycles, f.latency);
  r.latency = (r.latency_cycles + 1) * r.period;
  if (s == ir::Strategy::overlap)
    r.resources = loads.resources();
  else
    r.phases = loads.phases();
  r.memory.assign(p.arch.pes.size(), 0);
  // The cpus of a host share its memory: counted once, as the first cpu's.
  for (const ir::MemoryReport& m : g.memory) {
    const ir::Pe& pe = p.arch.pes[m.pe];
    const ir::PeId into = pe.kind == ir::PeKind::cpu ? p.arch.hosts[pe.host].cpu : m.pe;
    r.memory[into] =
        ir::add_bytes(r.memory[into], ir::add_bytes(m.after, ir::add_bytes(m.initial, m.windows)));
  }
  for (ir::PeId pe = 0; pe < r.memory.size(); ++pe) {
    r.peak_memory = std::max(r.peak_memory, r.memory[pe]);
    if (costs.capacity[pe] && r.memory[pe] > *costs.capacity[pe]) r.overflows.push_back(pe);
  }
  return r;
}

}  // namespace

Prediction predict(const ir::Program& program, const ir::Ig& ig, const CostTable& costs,
                   const PlanOptions& plan) {
  Prediction result;
  for (ir::Strategy s : ir::kStrategies) result[s] = predict_one(s, program, ig[s], costs, plan);
  return result;
}

}  // namespace dfgc::mapping
