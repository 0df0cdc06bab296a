// Whether a GPU relaunches its cycles as CUDA graphs (GpuCycles::graph_phases): the overlap
// strategy's cycle of a GPU is the same work every cycle but for its slots, when every firing on
// it enqueues the same kernels each cycle. The actor front end says which do: a const `fire`
// that never reads ctx.iteration() (docs/language.md, "GPU actors in CUDA graphs"). The
// generated worker then captures one graph per phase of its slots and set of items that run
// (dfg::CycleGraphs); otherwise the reason stays in the plan for --emit=plan and schedule.txt.

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "plan/detail.hpp"

namespace dfgc::plan_detail {

namespace {

/// The most phases a GPU's graphs may have: each phase is a graph of its own on the device.
constexpr std::uint64_t kMaxGraphPhases = 64;

/// The cycles one graph holds on a GPU without neighbours. Relaunching a graph costs the host
/// about 2 us however many cycles it holds; 8 cycles of one empty kernel each brought an H100's
/// cost from 4.6 us a cycle (a graph a cycle) to 0.97 (bench/results/overlap/
/// h100-2026-12-06-graph-cycles, where 16 and 32 gained 9% and 13% more); the cycles' outputs
/// leave a graph together, so more adds latency for little.
constexpr std::uint32_t kGraphCycles = 8;

/// The libraries whose calls a CUDA graph cannot hold: nvJPEG decodes in phases on the host,
/// cuSOLVER reads its results back to the host.
bool uncapturable_library(const std::string& library) {
  return library == "nvjpeg" || library == "cusolver";
}

/// Why the firings of `n` cannot be captured; empty when they can.
std::string firing_why(const PlanNode& n) {
  const std::string who = fmt::format("node '{}' ({})", n.name, n.actor);
  if (!n.signature) return who + " was planned without its actor header";
  if (n.ends_stream)
    return who + " may end the stream (`ends stream;`): its fire runs on the host every cycle";
  for (const std::string& library : n.libraries)
    if (uncapturable_library(library))
      return fmt::format("{} uses {}, whose calls a CUDA graph cannot hold", who, library);
  if (!n.signature->fire_const)
    return fmt::format(
        "{}: {}::fire is not const (a const fire that never reads "
        "ctx.iteration() enqueues the same work every cycle)",
        who, n.class_name);
  if (n.signature->fire_reads_iteration)
    return fmt::format(
        "{}: {}::fire reads ctx.iteration() or ctx.warming_up(), which a graph would freeze", who,
        n.class_name);
  return {};
}

/// Why `gpu`'s overlap cycles cannot run as graphs; empty when they can, with their phases in
/// `phases` (whether a node's window takes part in them: `windows`) and the firings whose first
/// cycles read initial tokens in `initial`.
std::string graph_why(const HostPlan& h, const StrategyPlan& sp, ir::PeId gpu,
                      std::uint64_t& phases, bool& windows,
                      std::vector<GpuCycles::InitialReads>& initial) {
  for (const PlanIsland& island : h.islands)
    if (island.pe == gpu) return "an island runs here (its rounds end on the host)";
  for (const PlanMigration& m : h.migrations)
    if (m.from == gpu || m.to == gpu)
      return fmt::format("node '{}' may move to or from it (its firings change by window)",
                         m.node_name);
  phases = 1;
  auto slot = [&](const SlotRef& r) -> std::string {
    if (sp.buffers[r.buffer].bounded)
      return fmt::format(
          "buffer {} holds a bounded type (each token's length is copied on the "
          "host)",
          sp.buffers[r.buffer].name);
    phases = std::lcm(phases, std::uint64_t{r.slots});
    return {};
  };
  for (std::size_t i : sp.by_pe[gpu]) {
    const Entry& e = sp.entries[i];
    if (e.kind() == Entry::Kind::transfer && (e.net() || e.transfer().mapped))
      return fmt::format("{} is run on the host", e.label);
    if (e.kind() == Entry::Kind::firing) {
      const PlanNode& n = h.node(e.id, gpu);
      std::string why = firing_why(n);
      if (!why.empty()) return why;
      // Which token such an input reads changes in its first cycles: those go call by call.
      GpuCycles::InitialReads reads{i, 0, {}};
      for (std::uint32_t p = 0; p < e.ports().size(); ++p)
        if (e.ports()[p].initial > reads.cycles) {
          reads.cycles = e.ports()[p].initial;
          reads.why =
              fmt::format("node '{}' ({}) reads the initial tokens of input '{}'", n.name, n.actor,
                          p < n.port_names.size() ? n.port_names[p] : std::to_string(p));
        }
      if (reads.cycles > 0) initial.push_back(std::move(reads));
      // A window alternates between its two halves (dfg::GpuPeekWindow): two phases.
      if (!n.windows.empty()) {
        phases = std::lcm(phases, std::uint64_t{2});
        windows = true;
      }
    }
    for (const PortRef& port : e.ports())
      if (std::string why = slot(port.slot); !why.empty()) return why;
    for (std::optional<SlotRef> r : {e.read(), e.write()})
      if (r)
        if (std::string why = slot(*r); !why.empty()) return why;
  }
  if (phases > kMaxGraphPhases)
    return fmt::format("its slots repeat every {} cycles, more graphs than the {} dfgc keeps",
                       phases, kMaxGraphPhases);
  return {};
}

}  // namespace

void plan_graphs(HostPlan& h) {
  StrategyPlan& sp = h.strategies[ir::Strategy::overlap];
  for (ir::PeId gpu : h.gpus) {
    if (gpu >= sp.gpu_cycles.size() || !sp.gpu_cycles[gpu]) continue;
    GpuCycles& g = *sp.gpu_cycles[gpu];
    std::uint64_t phases = 1;
    bool windows = false;
    std::vector<GpuCycles::InitialReads> initial;
    g.graph_why = graph_why(h, sp, gpu, phases, windows, initial);
    g.windows = windows && g.graph_why.empty();
    g.graph_phases = g.graph_why.empty() ? static_cast<std::uint32_t>(phases) : 0;
    if (g.graph_phases > 0) g.graph_initial = std::move(initial);
    g.graph_cycles = g.graph_phases > 0 && sp.neighbours[gpu].empty() ? kGraphCycles : 1;
  }
}

}  // namespace dfgc::plan_detail
