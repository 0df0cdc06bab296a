#include "passes/build_ig.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "ir/byte_count.hpp"

namespace dfgc {

namespace {

/// "N * N * 4": the token's byte count as an expression of the params.
std::string bytes_text(const ir::TokenType& t) {
  const std::string& count = t.count.text.empty() ? std::to_string(t.count.value) : t.count.text;
  bool needs_parens =
      count.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ */%()") !=
      std::string::npos;
  if (needs_parens) return fmt::format("({}) * {}", count, t.elem_bytes());
  return fmt::format("{} * {}", count, t.elem_bytes());
}

class Builder {
 public:
  Builder(ir::Strategy s, const ir::Program& p, const Schedule& schedule, const BufferPlan& plan,
          const std::vector<std::uint32_t>& depth, const Latency& latency,
          const std::vector<DelayLine>& lines, const std::vector<PeColouring>& colouring)
      : s_(s),
        p_(p),
        schedule_(schedule),
        plan_(plan),
        depth_(depth_with_lines(depth, lines)),
        latency_(latency),
        lines_(lines),
        delays_(copied_lines(lines)),
        colouring_(colouring) {}

  ir::IgStrategy run() {
    out_.strategy = s_;
    out_.order = schedule_.per_pe;
    out_.transfer_steps = latency_.steps;
    add_buffers();
    add_transfers();
    add_firings();
    add_copies();
    add_colours();
    for (ir::IgBuffer& b : out_.buffers)
      std::sort(b.readers.begin(), b.readers.end(), [](const ir::Access& x, const ir::Access& y) {
        return std::tie(x.kind, x.id, x.port) < std::tie(y.kind, y.id, y.port);
      });
    return std::move(out_);
  }

 private:
  bool overlap() const { return s_ == ir::Strategy::overlap; }

  ir::IgBuffer make_buffer(std::string name, ir::PeId pe, ir::TypeId type, ir::NodeId node,
                           std::uint32_t port, std::uint32_t hop, std::uint32_t depth) const {
    ir::IgBuffer b;
    b.name = std::move(name);
    b.pe = pe;
    b.type = type;
    b.bytes = p_.types[type].bytes();
    b.bytes_text = bytes_text(p_.types[type]);
    b.runtime_size = p_.types[type].count.runtime;
    b.node = node;
    b.port = port;
    b.hop = hop;
    b.depth = depth;
    return b;
  }

  void add_buffers() {
    for (ir::BufferId b = 0; b < plan_.buffers.size(); ++b) {
      const PlannedBuffer& pb = plan_.buffers[b];
      out_.buffers.push_back(
          make_buffer(pb.name, pb.pe, pb.type, pb.node, pb.port, pb.hop, depth_[b]));
    }
    for (const DelayLine& d : delays_) {
      const PlannedBuffer& src = plan_.buffers[d.from];
      ir::IgBuffer b = make_buffer(d.name, d.pe, src.type, src.node, src.port, src.hop, d.cycles);
      b.delay_edge = d.edge;
      out_.buffers.push_back(std::move(b));
    }
  }

  /// The lag with which a firing or delay copy on `reader` reads planned buffer `b` directly: a
  /// firing's output read on another cpu of the host, the slot written last cycle.
  std::uint32_t direct_read_lag(ir::BufferId b, ir::PeId reader) const {
    const PlannedBuffer& pb = plan_.buffers[b];
    if (pb.in) return overlap() ? 1 : 0;
    return reader != pb.pe ? 1 : 0;
  }

  void add_transfers() {
    for (ir::TransferId t = 0; t < plan_.transfers.size(); ++t) {
      const PlannedTransfer& pt = plan_.transfers[t];
      ir::IgTransfer x;
      x.from = pt.from;
      x.to = pt.to;
      x.from_pe = plan_.buffers[pt.from].pe;
      x.to_pe = plan_.buffers[pt.to].pe;
      x.link = pt.link;
      x.bytes = out_.buffers[pt.from].bytes;
      x.step = latency_.transfer_step[t];
      x.first_cycle = latency_.transfer_first[t];
      // The token its source held at the end of the previous cycle: without overlap the same
      // slot, unless the source is double (an output that another cpu of the host reads).
      x.from_lag = overlap() || depth_[pt.from] > 1 ? 1 : 0;
      out_.buffers[pt.from].readers.push_back({ir::Access::Kind::transfer, t, 0, x.from_lag});
      out_.buffers[pt.to].writer = {ir::Access::Kind::transfer, t, 0, 0};
      out_.transfers.push_back(x);
    }
  }

  void add_firings() {
    std::vector<const DelayLine*> line_of(p_.dfg.edges.size(), nullptr);
    std::vector<ir::BufferId> line_id(p_.dfg.edges.size(), 0);
    for (std::size_t d = 0; d < delays_.size(); ++d) {
      line_of[delays_[d].edge] = &delays_[d];
      line_id[delays_[d].edge] = static_cast<ir::BufferId>(plan_.buffers.size() + d);
    }
    // An aliased line: its consumer reads the producer's buffer itself, `cycles` cycles late.
    std::vector<std::uint32_t> alias_lag(p_.dfg.edges.size(), 0);
    for (const DelayLine& d : lines_) {
      if (!d.aliased) continue;
      alias_lag[d.edge] = d.cycles + direct_read_lag(d.from, d.pe);
      out_.aliases.push_back({d.name, d.from, d.edge, d.cycles});
    }
    for (ir::NodeId n = 0; n < p_.dfg.nodes.size(); ++n) {
      ir::IgFiring f;
      f.node = n;
      f.pe = p_.mapping.pe_of[n];
      f.schedule_index = schedule_.index[n];
      f.latency = latency_.node[n];
      f.ports.resize(p_.dfg.actor_of(n).ports.size());
      for (std::uint32_t port = 0; port < f.ports.size(); ++port) {
        if (p_.dfg.actor_of(n).ports[port].dir == ir::PortDir::out) {
          f.ports[port].buffer = plan_.port_buffer[n][port];
          out_.buffers[f.ports[port].buffer].writer = {ir::Access::Kind::firing, n, port, 0};
        }
      }
      out_.firings.push_back(std::move(f));
    }
    for (ir::EdgeId e = 0; e < p_.dfg.edges.size(); ++e) {
      const ir::Edge& edge = p_.dfg.edges[e];
      ir::PortBinding binding;
      binding.buffer = line_of[e] ? line_id[e] : plan_.edge_buffer[e];
      binding.lag = line_of[e] ? line_of[e]->cycles
                    : alias_lag[e]
                        ? alias_lag[e]
                        : direct_read_lag(plan_.edge_buffer[e], p_.mapping.pe_of[edge.dst]);
      binding.initial = edge.delay;
      if (edge.delay) binding.initial_value = edge.initial_text();
      if (edge.delay) binding.initial_method = edge.initial_method;
      out_.firings[edge.dst].ports[edge.dst_port] = binding;
      out_.buffers[binding.buffer].readers.push_back(
          {ir::Access::Kind::firing, edge.dst, edge.dst_port, binding.lag});
    }
  }

  void add_copies() {
    for (std::size_t d = 0; d < delays_.size(); ++d) {
      const DelayLine& line = delays_[d];
      auto id = static_cast<ir::CopyId>(d);
      ir::IgCopy c;
      c.from = line.from;
      c.to = static_cast<ir::BufferId>(plan_.buffers.size() + d);
      c.after = line.after;
      c.first_cycle = line.first_cycle;
      c.from_lag = direct_read_lag(line.from, line.pe);
      out_.buffers[c.from].readers.push_back({ir::Access::Kind::copy, id, 0, c.from_lag});
      out_.buffers[c.to].writer = {ir::Access::Kind::copy, id, 0, 0};
      out_.copies.push_back(c);
    }
  }

  void add_colours() {
    for (const PeColouring& pc : colouring_) {
      const auto first = static_cast<ir::ColourId>(out_.colours.size());
      for (std::uint32_t k = 0; k < pc.colouring.count; ++k)
        out_.colours.push_back({pc.pe, k, {}, 1, 0});
      for (std::size_t v = 0; v < pc.buffers.size(); ++v) {
        ir::IgColour& c = out_.colours[first + pc.colouring.colour[v]];
        c.members.push_back(pc.buffers[v]);
        c.slots = std::max(c.slots, pc.graph.slots[v]);
        c.bytes = std::max(c.bytes, pc.graph.bytes[v]);
        out_.buffers[pc.buffers[v]].colour = first + pc.colouring.colour[v];
      }
      out_.memory.push_back({pc.pe, pc.bytes_before, pc.colouring.bytes, pc.colouring.count, 0, 0});
    }
    for (const ir::Edge& e : p_.dfg.edges)
      for (ir::MemoryReport& m : out_.memory)
        if (e.delay && m.pe == p_.mapping.pe_of[e.dst])
          m.initial = ir::add_bytes(m.initial, ir::mul_bytes(e.delay, p_.types[e.type].bytes()));
    for (ir::NodeId n = 0; n < p_.dfg.nodes.size(); ++n) {
      const std::vector<ir::Port>& ports = p_.dfg.actor_of(n).ports;
      for (std::uint32_t port = 0; port < ports.size(); ++port) {
        const std::uint32_t history = p_.dfg.window_history(n, port);
        if (history == 0) continue;
        const std::int64_t half =
            ir::add_bytes(p_.types[p_.dfg.block_type(n, port)].bytes(),
                          ir::mul_bytes(history, p_.types[ports[port].type].bytes()));
        for (ir::MemoryReport& m : out_.memory)
          if (m.pe == p_.mapping.pe_of[n])
            m.windows = ir::add_bytes(m.windows, ir::mul_bytes(2, half));
      }
    }
    for (ir::IgColour& c : out_.colours) {
      std::sort(c.members.begin(), c.members.end(), [&](ir::BufferId a, ir::BufferId b) {
        return out_.buffers[a].name < out_.buffers[b].name;
      });
      set_colour_lags(c);
    }
  }

  /// Single buffers sharing a double buffer's colour live in its shareable slot.
  void set_colour_lags(const ir::IgColour& c) {
    for (ir::BufferId d : c.members) {
      if (out_.buffers[d].depth != 2 || out_.buffers[d].delay_edge) continue;
      std::uint32_t lag = plan_.buffers[d].in ? 1 : 0;
      for (ir::BufferId b : c.members)
        if (b != d) out_.buffers[b].colour_lag = lag;
    }
  }

  ir::Strategy s_;
  const ir::Program& p_;
  const Schedule& schedule_;
  const BufferPlan& plan_;
  const std::vector<std::uint32_t> depth_;  ///< with the slots the aliased lines need
  const Latency& latency_;
  const std::vector<DelayLine>& lines_;
  const std::vector<DelayLine> delays_;  ///< the copied lines
  const std::vector<PeColouring>& colouring_;
  ir::IgStrategy out_;
};

}  // namespace

ir::Ig build_ig(const ir::Program& program, const Schedule& schedule, const BufferPlan& plan,
                const BufferDepths& depths, const Latencies& latencies, const DelayLines& delays,
                const BufferColouring& colouring) {
  ir::Ig ig;
  ig.schedule = schedule.order;
  for (ir::Strategy s : ir::kStrategies)
    ig.strategies[s] =
        Builder(s, program, schedule, plan, depths[s], latencies[s], delays[s], colouring[s]).run();
  return ig;
}

}  // namespace dfgc
