#include "mapping/edits.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "sema/source_span.hpp"

namespace dfgc::mapping {

namespace {

const ast::AppDecl* find_app(const Spec& spec, const std::string& name) {
  for (const auto& module : spec.modules)
    for (const ast::AppDecl& a : module->apps)
      if (a.name.name == name) return &a;
  return nullptr;
}

bool before(const Edit& a, const Edit& b) {
  return a.loc.file != b.loc.file ? a.loc.file < b.loc.file : a.loc.offset < b.loc.offset;
}

}  // namespace

std::vector<Edit> mapping_edits(const Spec& spec, const ir::Program& program,
                                const std::vector<ir::PeId>& pe_of,
                                const std::vector<TunedValue>& tuned,
                                const SourceManager& sources) {
  std::vector<Edit> edits;
  if (const ast::AppDecl* app = find_app(spec, program.app_name)) {
    for (const ast::NodeDecl& n : app->nodes) {
      if (!n.free) continue;
      for (ir::NodeId id = 0; id < program.dfg.nodes.size(); ++id)
        if (program.dfg.nodes[id].name == n.name.name)
          edits.push_back({n.placement_loc, n.placement_length, program.arch.pes[pe_of[id]].name});
    }
  }
  for (const TunedValue& t : tuned)
    for (const auto& module : spec.modules)
      for (const ast::ParamDecl& p : module->params)
        if (p.name.name == t.param && p.tune_min) {
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
