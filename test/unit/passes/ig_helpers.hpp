// Lookups by name into pass results and implementation graphs, for the passes' tests.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "ir/ig.hpp"

namespace dfgc::test {

inline ir::NodeId node_named(const ir::Program& p, std::string_view name) {
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n)
    if (p.dfg.nodes[n].name == name) return n;
  throw std::invalid_argument("unknown node " + std::string(name));
}

inline ir::PeId pe_named(const ir::Program& p, std::string_view name) {
  if (auto id = p.arch.find_pe(name)) return *id;
  throw std::invalid_argument("unknown PE " + std::string(name));
}

inline const ir::IgBuffer& buffer_named(const ir::IgStrategy& s, std::string_view name) {
  for (const ir::IgBuffer& b : s.buffers)
    if (b.name == name) return b;
  throw std::invalid_argument("unknown buffer " + std::string(name));
}

inline ir::BufferId buffer_id(const ir::IgStrategy& s, std::string_view name) {
  return static_cast<ir::BufferId>(&buffer_named(s, name) - s.buffers.data());
}

inline std::uint32_t latency_of(const ir::Program& p, const ir::IgStrategy& s,
                                std::string_view node) {
  return s.firings[node_named(p, node)].latency;
}

inline const ir::MemoryReport& memory_of(const ir::Program& p, const ir::IgStrategy& s,
                                         std::string_view pe) {
  return s.memory[*p.arch.find_pe(pe)];
}

}  // namespace dfgc::test
