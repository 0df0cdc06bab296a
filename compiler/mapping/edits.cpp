#include "mapping/edits.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "sema/source_span.hpp"

namespace dfgc::mapping {

namespace {

const ast::AppDecl* find_app(const Spec& spec, const std::string& name) {
  for (const auto& module : spec.modules)
    for (const ast::AppDecl& a : module->apps)
      if (a.name.name == name) return &a;
  return nullptr;
}

/// Every placement an app's body writes, its loops' included, by where it is written.
void written(const ast::Items& items,
             std::map<std::pair<std::uint32_t, std::uint32_t>, const ast::NodeDecl*>& out) {
  for (const ast::NodeDecl& n : items.nodes)
    if (n.free) out.emplace(std::pair{n.placement_loc.file, n.placement_loc.offset}, &n);
  for (const ast::ForDecl& f : items.loops) written(f.body, out);
}

bool before(const Edit& a, const Edit& b) {
  return a.loc.file != b.loc.file ? a.loc.file < b.loc.file : a.loc.offset < b.loc.offset;
}

}  // namespace

std::string placement_text(const ir::Program& program, const std::vector<ir::PeId>& pe_of,
                           const std::string& node) {
  const std::vector<ir::Replica> set = placement_of(program, pe_of, node);
  if (set.size() == 1) return program.arch.pes[set.front().pe].name;
  std::string text = "{";
  for (const ir::Replica& r : set) {
    if (text.size() > 1) text += ", ";
    text += program.arch.pes[r.pe].name;
    if (r.weight > 1) text += ": " + std::to_string(r.weight);
  }
  return text + "}";
}

std::vector<ir::Replica> share_runs(const std::vector<ir::PeId>& share_pes) {
  std::vector<ir::Replica> set;
  for (ir::PeId pe : share_pes) {
    auto it =
        std::find_if(set.begin(), set.end(), [&](const ir::Replica& r) { return r.pe == pe; });
    if (it == set.end())
      set.push_back({pe, 1, {}});
    else
      ++it->weight;
  }
  return set;
}

std::uint32_t common_weight(const std::vector<ir::Replica>& set) {
  std::uint32_t g = 0;
  for (const ir::Replica& r : set) g = std::gcd(g, r.weight);
  return g;
}

std::vector<ir::Replica> placement_of(const ir::Program& program,
                                      const std::vector<ir::PeId>& pe_of, const std::string& node) {
  std::vector<ir::PeId> shares;
  for (ir::NodeId id = 0; id < program.dfg.nodes.size(); ++id)
    if (program.dfg.nodes[id].spec_name() == node) shares.push_back(pe_of[id]);
  std::vector<ir::Replica> set = share_runs(shares);
  const std::uint32_t g = common_weight(set);
  for (ir::Replica& r : set) r.weight /= g;
  return set;
}

std::vector<Edit> mapping_edits(const Spec& spec, const ir::Program& program,
                                const std::vector<ir::PeId>& pe_of,
                                const std::vector<TunedValue>& tuned, const SourceManager& sources,
                                std::vector<SplitPlacement>* split) {
  std::vector<Edit> edits;
  if (const ast::AppDecl* app = find_app(spec, program.app_name)) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, const ast::NodeDecl*> placements;
    written(*app, placements);
    // The spec nodes each placement places (several for one in a loop or an instance's), each
    // with where it runs, by where the placement is written.
    std::map<std::pair<std::uint32_t, std::uint32_t>,
             std::vector<std::pair<std::string, std::string>>>
        chosen;
    std::set<std::string> seen;
    for (const ir::Node& n : program.dfg.nodes) {
      const std::pair where{n.mapping_loc.file, n.mapping_loc.offset};
      if (!placements.count(where) || !seen.insert(n.spec_name()).second) continue;
      chosen[where].emplace_back(n.spec_name(), placement_text(program, pe_of, n.spec_name()));
    }
    for (const auto& [where, nodes] : chosen) {
      const ast::NodeDecl& n = *placements.at(where);
      bool one = true;
      for (const auto& [name, text] : nodes) one = one && text == nodes.front().second;
      if (one) {
        edits.push_back({n.placement_loc, n.placement_length, nodes.front().second});
        continue;
      }
      if (!split) continue;
      SplitPlacement out;
      std::string apart;
      for (const auto& [name, text] : nodes) {
        apart += (apart.empty() ? "" : ", ") + name + " @ " + text;
        out.lines.push_back(fmt::format("  {} @ {};", name, text));
      }
      const LineCol lc = sources.line_col(n.placement_loc);
      out.message = fmt::format(
          "{}:{}:{}: '{}' places {} nodes on different PEs ({}); write one placement per node",
          sources.name(n.placement_loc.file), lc.line, lc.col, ast::placement_text(n), nodes.size(),
          apart);
      split->push_back(std::move(out));
    }
  }
  for (const TunedValue& t : tuned)
    for (const auto& module : spec.modules)
      for (const ast::ParamDecl& p : module->params)
        if (!t.replicas && p.name.name == t.param && p.tune_min) {
          sema::Span s = sema::span_of(*p.value, sources);
          edits.push_back({s.loc, s.length, std::to_string(t.value)});
        }
  std::sort(edits.begin(), edits.end(), before);
  return edits;
}

std::vector<std::string> edited_lines(const std::vector<Edit>& edits,
                                      const SourceManager& sources) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<const Edit*>> by_line;
  for (const Edit& e : edits) by_line[{e.loc.file, sources.line_col(e.loc).line}].push_back(&e);
  std::vector<std::string> lines;
  for (const auto& [where, line_edits] : by_line) {
    std::string text(sources.line_text(where.first, where.second));
    std::uint32_t line_start = sources.loc_at(where.first, where.second, 1).offset;
    for (auto it = line_edits.rbegin(); it != line_edits.rend(); ++it) {
      std::size_t at = (*it)->loc.offset - line_start;
      text.replace(at, std::min<std::size_t>((*it)->length, text.size() - at), (*it)->text);
    }
    lines.push_back(std::move(text));
  }
  return lines;
}

std::vector<std::pair<std::uint32_t, std::string>> apply_edits(const std::vector<Edit>& edits,
                                                               const SourceManager& sources) {
  std::set<std::uint32_t> files;
  for (const Edit& e : edits) files.insert(e.loc.file);
  std::vector<std::pair<std::uint32_t, std::string>> result;
  for (std::uint32_t file : files) {
    std::string text(sources.contents(file));
    for (auto it = edits.rbegin(); it != edits.rend(); ++it)
      if (it->loc.file == file) text.replace(it->loc.offset, it->length, it->text);
    result.emplace_back(file, std::move(text));
  }
  return result;
}

}  // namespace dfgc::mapping
