#include "codegen/island.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "codegen/actor_headers.hpp"
#include "codegen/printer.hpp"
#include "codegen/templates.hpp"
#include "support/assert.hpp"

namespace dfgc::codegen {

std::string island_file(const PlanIsland& island) { return island.header; }

std::string mapped_rings_file(const Model& m) { return m.files.mapped_rings; }

namespace {

/// The comment's note of a ring's initial elements: " + 2 initial".
std::string initial_text(std::uint32_t initial) {
  return initial ? fmt::format(" + {} initial", initial) : std::string();
}

/// A ring constructor's trailing arguments for its initial elements: ", 2, -1".
std::string initial_args(std::uint32_t initial, const std::string& value) {
  return initial ? fmt::format(", {}, {}", initial, value) : std::string();
}

/// How a ring's capacity came: "stated", "computed", "computed + 1 initial".
std::string how(const PlanIslandFifo& f) {
  return (f.stated ? "stated" : "computed") + initial_text(f.initial);
}

}  // namespace

std::string render_mapped_rings(const Model& m) {
  std::string rings;
  for (const PlanMappedRing& r : m.mapped_rings)
    rings += render_part(
        "mapped_ring",
        {{"edge", r.name},
         {"from", r.from},
         {"to", r.to},
         {"capacity", std::to_string(r.capacity)},
         {"how", r.stated ? "stated"
                          : fmt::format("{} an iteration x {} iterations ahead{}", r.per_iteration,
                                        r.iterations, initial_text(r.initial))},
         {"elem", r.elem},
         {"ident", r.ident},
         {"initial", initial_args(r.initial, r.initial_value)}});
  return render_template(
      template_text("mapped_rings.hpp"),
      {{"header", file_header(m, "//")}, {"host", m.host_name}, {"rings", rings}});
}

namespace {

/// The include of the host's mapped rings, where the island uses one.
void include_mapped_rings(const Model& m, const PlanIsland& island, std::set<std::string>& out) {
  for (const PlanIslandFifo& f : island.fifos)
    if (!f.mapped.empty())  // beside the island's header
      out.insert("\"" + mapped_rings_file(m).substr(ActorHeaders::kIslandDir.size()) + "\"");
}

/// A port's parameter of `fire`: its token, unnamed where the port is mapped (order only).
std::string fire_param(const PlanIslandPort& p, const PlanIslandFifo& f) {
  if (p.mapped)
    return render_part(
        p.input ? TemplatePart("island_param_order_in") : TemplatePart("island_param_order_out"),
        {{"elem", f.elem}, {"port", p.name}});
  if (p.bounded)
    return render_part(p.input ? TemplatePart("island_param_in_bounded")
                               : TemplatePart("island_param_out_bounded"),
                       {{"elem", f.elem}, {"port", p.name}});
  return render_part(p.input ? TemplatePart("island_param_in") : TemplatePart("island_param_out"),
                     {{"elem", f.elem}, {"port", p.name}});
}

/// A GPU island: its state (adapters, nodes, rings) for the kernel of
/// dfg/cuda/gpu_island_cycle.hpp, and the node's class that sets it up and fires it.
/// Why the island's blocks have the threads they have (the comment beside State::threads).
std::string threads_why(const PlanIsland& island) {
  std::uint32_t batch = 0;
  for (const PlanIslandMember& member : island.members) batch = std::max(batch, member.batch);
  if (batch == 0) return render_part("gpu_island_threads_step", {});
  return render_part("gpu_island_threads_batch",
                     {{"batch", std::to_string(batch)}, {"most", std::to_string(kIslandThreads)}});
}

std::string render_gpu_island(const Model& m, const PlanIsland& island) {
  const ActorHeaders headers(*m.actor_files);
  std::set<std::string> includes;
  std::string tokens, adapters, actors, rings, begin, step, parallel, fire, finish, make, setup,
      params, owners;
  std::vector<std::string> names, args, blocks;
  include_mapped_rings(m, island, includes);
  const std::uint32_t adapters_count = static_cast<std::uint32_t>(island.adapters());
  for (const PlanIslandFifo& f : island.fifos) {
    rings += render_part("gpu_island_ring", {{"elem", f.elem},
                                             {"ident", f.ident},
                                             {"capacity", std::to_string(f.capacity)},
                                             {"edge", f.name},
                                             {"how", how(f)}});
    if (!f.mapped.empty()) {
      make += render_part("gpu_island_make_mapped",
                          {{"ident", f.ident}, {"ring", f.mapped}, {"edge", f.name}});
      continue;
    }
    owners +=
        render_part("gpu_island_owner", {{"elem", f.elem}, {"ident", f.ident}, {"edge", f.name}});
    make += render_part("gpu_island_make", {{"elem", f.elem},
                                            {"ident", f.ident},
                                            {"island", island.name},
                                            {"edge", f.name},
                                            {"capacity", std::to_string(f.capacity)},
                                            {"initial", initial_args(f.initial, f.initial_value)}});
  }
  std::uint32_t block = 0;
  for (const PlanIslandPort& p : island.ports) {
    DFGC_INTERNAL_ASSERT(!p.bounded, "bounded port ", p.name, " of GPU island ", island.name);
    const PlanIslandFifo& f = island.fifos[p.fifo];
    if (p.mapped) {  // no adapter: the members use the mapped ring directly
      params += fire_param(p, f);
      continue;
    }
    const std::string b = std::to_string(block++);
    tokens += render_part("gpu_island_token",
                          {{"const", p.input ? "const " : ""}, {"elem", f.elem}, {"port", p.name}});
    const char* adapter = p.input ? "GpuUnpack" : p.counted ? "GpuPackSome" : "GpuPack";
    adapters += render_part("gpu_island_adapter", {{"adapter", adapter},
                                                   {"elem", f.elem},
                                                   {"port", p.name},
                                                   {"block", b},
                                                   {"dir", p.input ? "input" : "output"},
                                                   {"fifo", f.ident}});
    TemplatePart begin_part = "gpu_island_begin";
    if (p.counted)
      begin_part = p.input ? TemplatePart("gpu_island_begin_counted_in")
                           : TemplatePart("gpu_island_begin_counted_out");
    begin += render_part(
        begin_part,
        p.counted && p.input
            ? Printer::Vars{{"block", b}, {"port", p.name}, {"elem", f.elem}}
            : Printer::Vars{
                  {"block", b}, {"port", p.name}, {"elements", std::to_string(p.elements)}});
    step += render_part(
        "gpu_island_step",
        {{"block", b}, {"call", render_part("gpu_island_adapter_step", {{"port", p.name}})}});
    finish += render_part("gpu_island_finish", {{"block", b}, {"port", p.name}});
    setup += render_part("gpu_island_attach", {{"port", p.name}, {"fifo", f.ident}});
    params += fire_param(p, f);
    args.push_back(render_part("gpu_island_arg", {{"port", p.name}}));
    blocks.push_back(render_part("gpu_island_block", {{"label", p.name}}));
  }
  for (const PlanIslandMember& member : island.members) {
    names.push_back(member.name);
    includes.insert(headers.include(member.header_path));
    const std::string ident = "node_" + member.name;
    const std::string b = std::to_string(block++);
    actors += render_part("gpu_island_actor", {{"cls", member.class_name},
                                               {"ident", ident},
                                               {"block", b},
                                               {"name", member.name},
                                               {"actor", member.actor}});
    for (const ir::ParamValue& v : member.params)
      setup += render_part("gpu_island_param",
                           {{"ident", ident}, {"param", v.name}, {"value", v.literal}});
    DFGC_INTERNAL_ASSERT(member.signature, "no signature for dynamic actor ", member.actor);
    const ActorSignature& sig = *member.signature;
    if (!member.parallel.empty()) {
      std::vector<std::string> ports, counts;
      for (std::uint32_t port : sig.fire_ports) {
        const PlanIslandFifo& f = island.fifos[member.port_fifo[port]];
        const std::string count = std::to_string(member.parallel[port]);
        ports.push_back(
            render_part("gpu_island_fire_port",
                        {{"port", member.port_input[port] ? "GpuConsume" : "GpuProduce"},
                         {"elem", f.elem},
                         {"fifo", f.ident},
                         {"count", count}}));
        counts.push_back(member.port_names[port] + " " + count);
      }
      parallel += render_part("gpu_island_parallel", {{"block", b}, {"name", member.name}});
      fire += render_part("gpu_island_fire", {{"block", b},
                                              {"name", member.name},
                                              {"counts", join(counts)},
                                              {"ident", ident},
                                              {"ports", join(ports)}});
    }
    std::vector<std::string> step_args;
    for (std::uint32_t port : sig.fire_ports) {
      const PlanIslandFifo& f = island.fifos[member.port_fifo[port]];
      step_args.push_back(render_part("gpu_island_step_arg",
                                      {{"view", member.port_input[port] ? "GpuIn" : "GpuOut"},
                                       {"elem", f.elem},
                                       {"fifo", f.ident}}));
    }
    if (member.parallel.empty())
      step += render_part("gpu_island_step",
                          {{"block", b},
                           {"call", render_part("gpu_island_step_call",
                                                {{"ident", ident}, {"args", join(step_args)}})}});
    if (sig.has_init)
      setup += render_part("gpu_island_init_call",
                           {{"ident", ident}, {"ctx", sig.init_takes_context ? "ctx" : ""}});
    blocks.push_back(render_part("gpu_island_block", {{"label", member.name}}));
  }
  return render_template(template_text("gpu_island.cuh"),
                         {{"header", file_header(m, "//")},
                          {"name", island.name},
                          {"pe", m.pe(island.pe).name},
                          {"members", join(names)},
                          {"includes", include_lines(includes)},
                          {"cls", island.class_name},
                          {"tokens", tokens},
                          {"adapters", adapters},
                          {"actors", actors},
                          {"rings", rings},
                          {"begin", begin},
                          {"step", step},
                          {"parallel", parallel},
                          {"fire", fire},
                          {"threads", std::to_string(island.threads)},
                          {"block_threads", std::to_string(island.block_threads())},
                          {"threads_why", threads_why(island)},
                          {"finish", finish},
                          {"make", make},
                          {"setup", setup},
                          {"params", params},
                          {"args", join(args)},
                          {"owners", owners},
                          {"who", render_part("gpu_island_who", {{"name", island.name},
                                                                 {"cls", island.class_name},
                                                                 {"pe", m.pe(island.pe).name}})},
                          {"blocks", join(blocks)},
                          {"count", std::to_string(adapters_count)}});
}

}  // namespace

std::string render_island(const Model& m, const PlanIsland& island) {
  if (island.kind == ir::PeKind::gpu) return render_gpu_island(m, island);
  const ActorHeaders headers(*m.actor_files);
  std::set<std::string> includes;
  std::string fifos, actors, steppers, adapters, setup, begin, finish, params, init_calls;
  bool init_uses_context = false;  // else init()'s parameter is unnamed: -Wunused-parameter
  std::vector<std::string> names;
  include_mapped_rings(m, island, includes);
  for (const PlanIslandFifo& f : island.fifos)
    fifos +=
        f.mapped.empty()
            ? render_part("island_fifo", {{"elem", f.elem},
                                          {"ident", f.ident},
                                          {"capacity", std::to_string(f.capacity)},
                                          {"edge", f.name},
                                          {"how", how(f)},
                                          {"initial", initial_args(f.initial, f.initial_value)}})
            : render_part("island_fifo_mapped", {{"elem", f.elem},
                                                 {"ident", f.ident},
                                                 {"ring", f.mapped},
                                                 {"capacity", std::to_string(f.capacity)},
                                                 {"edge", f.name}});
  for (const PlanIslandPort& p : island.ports) {
    const PlanIslandFifo& f = island.fifos[p.fifo];
    params += fire_param(p, f);
    if (p.mapped) continue;  // no adapter: the members use the mapped ring directly
    if (p.counted) includes.insert("\"dfg/counted.hpp\"");
    if (p.input) {
      adapters +=
          render_part("island_unpack", {{"elem", f.elem}, {"port", p.name}, {"fifo", f.ident}});
      if (p.counted)
        begin += render_part("island_load_counted", {{"port", p.name}, {"elem", f.elem}});
      else
        begin += p.bounded ? render_part("island_load_bounded", {{"port", p.name}})
                           : render_part("island_load", {{"port", p.name},
                                                         {"elements", std::to_string(p.elements)}});
      setup += render_part("island_add", {{"member", "port_" + p.name + "_"}, {"label", p.name}});
    } else if (p.counted) {
      adapters +=
          render_part("island_pack_some", {{"elem", f.elem}, {"port", p.name}, {"fifo", f.ident}});
      begin += render_part(
          "island_begin_counted",
          {{"port", p.name}, {"elem", f.elem}, {"elements", std::to_string(p.elements)}});
    } else if (p.bounded) {
      adapters += render_part(
          p.between ? TemplatePart("island_pack_some") : TemplatePart("island_pack_bounded"),
          {{"elem", f.elem}, {"port", p.name}, {"fifo", f.ident}});
      begin += render_part("island_begin_bounded", {{"port", p.name}});
    } else {
      adapters += render_part("island_pack", {{"elem", f.elem},
                                              {"port", p.name},
                                              {"fifo", f.ident},
                                              {"elements", std::to_string(p.elements)}});
      begin += render_part("island_begin", {{"port", p.name}});
    }
    TemplatePart finish_part = "island_finish";
    if (p.counted && !p.input) finish_part = "island_finish_counted";
    if (p.bounded && !p.input)
      finish_part =
          p.between ? TemplatePart("island_finish_bounded") : TemplatePart("island_finish_packed");
    finish += render_part(finish_part, {{"port", p.name}});
  }
  for (const PlanIslandMember& member : island.members) {
    names.push_back(member.name);
    includes.insert(headers.include(member.header_path));
    const std::string ident = "node_" + member.name;
    actors += render_part("island_actor", {{"cls", member.class_name},
                                           {"ident", ident},
                                           {"name", member.name},
                                           {"actor", member.actor}});
    for (const ir::ParamValue& v : member.params)
      setup +=
          render_part("island_param", {{"ident", ident}, {"param", v.name}, {"value", v.literal}});
    DFGC_INTERNAL_ASSERT(member.signature, "no signature for dynamic actor ", member.actor);
    const ActorSignature& sig = *member.signature;
    std::vector<std::string> args;
    for (std::uint32_t port : sig.fire_ports) {
      const PlanIslandFifo& f = island.fifos[member.port_fifo[port]];
      if (!member.parallel.empty()) {  // a parallel action: the elements a firing takes or gives
        args.push_back(
            render_part("island_batch_arg", {{"end", member.port_input[port] ? "Take" : "Give"},
                                             {"elem", f.elem},
                                             {"fifo", f.ident},
                                             {"count", std::to_string(member.parallel[port])}}));
        continue;
      }
      args.push_back(render_part(
          "island_step_arg",
          {{"view", member.port_input[port] ? "In" : "Out"}, {"elem", f.elem}, {"fifo", f.ident}}));
    }
    Printer::Vars stepper = {{"name", member.name},
                             {"island", island.class_name},
                             {"ident", ident},
                             {"args", join(args)}};
    if (!member.parallel.empty()) stepper.push_back({"batch", std::to_string(member.batch)});
    steppers += render_part(member.parallel.empty() ? TemplatePart("island_stepper")
                                                    : TemplatePart("island_stepper_parallel"),
                            stepper);
    setup += render_part("island_add",
                         {{"member", "step_" + member.name + "_"}, {"label", member.name}});
    if (sig.has_init) {
      init_calls += render_part("island_init_call",
                                {{"ident", ident}, {"ctx", sig.init_takes_context ? "ctx" : ""}});
      init_uses_context = init_uses_context || sig.init_takes_context;
    }
  }
  for (const PlanIslandPort& p : island.ports)
    if (!p.input && !p.mapped)
      setup += render_part("island_add", {{"member", "port_" + p.name + "_"}, {"label", p.name}});
  return render_template(
      template_text("island.hpp"),
      {{"header", file_header(m, "//")},
       {"name", island.name},
       {"pe", m.pe(island.pe).name},
       {"members", join(names)},
       {"includes", include_lines(includes)},
       {"cls", island.class_name},
       {"setup", setup},
       {"init", init_calls.empty()
                    ? std::string()
                    : render_part("island_init", {{"calls", init_calls},
                                                  {"ctx", init_uses_context ? " ctx" : ""}})},
       {"params", params},
       {"begin", begin},
       {"finish", finish},
       {"steppers", steppers},
       {"fifos", fifos},
       {"actors", actors},
       {"adapters", adapters}});
}

}  // namespace dfgc::codegen
