#include "codegen/templates.hpp"

#include <map>

#include "support/assert.hpp"

namespace dfgc {

std::vector<std::pair<std::string_view, std::string_view>> template_sections(
    std::string_view file, std::string_view text) {
  constexpr std::string_view kMarker = "@@ ";
  std::vector<std::pair<std::string_view, std::string_view>> out;
  std::size_t at = text.starts_with(kMarker) ? 0 : text.find("\n@@ ");
  DFGC_INTERNAL_ASSERT(at != std::string_view::npos, "templates/", file, " has no section");
  if (at > 0) ++at;  // past the newline of the comment's last line
  while (at < text.size()) {
    const std::size_t name_end = text.find('\n', at);
    DFGC_INTERNAL_ASSERT(name_end != std::string_view::npos, "templates/", file,
                         ": a marker line without a newline");
    const std::string_view name = text.substr(at + kMarker.size(), name_end - at - kMarker.size());
    const std::size_t next = text.find("\n@@ ", name_end);
    // The newline before the next marker, or the file's last one, is not the section's.
    std::size_t end = next;
    if (next == std::string_view::npos) {
      DFGC_INTERNAL_ASSERT(text.ends_with('\n'), "templates/", file, " does not end a line");
      end = text.size() - 1;
    }
    const std::size_t begin = std::min(name_end + 1, end);
    out.emplace_back(name, text.substr(begin, end - begin));
    at = next == std::string_view::npos ? text.size() : next + 1;
  }
  return out;
}

std::string_view template_text(TemplateFile name) {
  for (const auto& [n, text] : embedded_templates())
    if (n == name.name()) return text;
  DFGC_UNREACHABLE("no template named '", name.name(), "'");
}

std::string_view part_text(TemplatePart name) {
  static const std::map<std::string_view, std::string_view> kSections = [] {
    std::map<std::string_view, std::string_view> out;
    for (const auto& [file, text] : embedded_templates())
      if (file.starts_with("parts/"))
        for (const auto& [name, section] : template_sections(file, text)) {
          const bool fresh = out.emplace(name, section).second;
          DFGC_INTERNAL_ASSERT(fresh, "templates/", file, ": section '", name, "' twice");
        }
    return out;
  }();
  auto it = kSections.find(name.name());
  DFGC_INTERNAL_ASSERT(it != kSections.end(), "no section '", name.name(), "' in templates/parts");
  return it->second;
}

std::string render_part(TemplatePart name, const Printer::Vars& vars) {
  return render_template(part_text(name), vars);
}

std::string include_lines(const std::set<std::string>& headers) {
  std::string out;
  for (const std::string& h : headers) out += render_part("include_line", {{"header", h}});
  return out;
}

}  // namespace dfgc
