#include "codegen/printer.hpp"

#include <algorithm>

#include "support/assert.hpp"

namespace dfgc {

void Printer::start_line() {
  if (!at_line_start_) return;
  out_.append(static_cast<std::size_t>(level_ * width_) + extra_indent_, ' ');
  at_line_start_ = false;
}

void Printer::put(char c) {
  if (c != '\n') start_line();
  out_ += c;
  if (c == '\n') at_line_start_ = true;
}

void Printer::emit(const Vars& vars, std::string_view text) {
  std::vector<bool> used(vars.size(), false);
  std::size_t line_begin = out_.rfind('\n') + 1;  // npos + 1 == 0: to find a column
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c != '$') {
      put(c);
      if (c == '\n') line_begin = out_.size();
      continue;
    }
    std::size_t end = text.find('$', i + 1);
    DFGC_INTERNAL_ASSERT(end != std::string_view::npos, "unterminated '$' in template: ", text);
    std::string_view name = text.substr(i + 1, end - i - 1);
    i = end;
    if (name.empty()) {
      put('$');
      continue;
    }
    auto it =
        std::find_if(vars.begin(), vars.end(), [&](const auto& v) { return v.first == name; });
    DFGC_INTERNAL_ASSERT(it != vars.end(), "unbound template variable '$", name, "$'");
    used[static_cast<std::size_t>(it - vars.begin())] = true;
    start_line();
    std::size_t saved = extra_indent_;
    // Lines after the first of a multi-line value line up with the `$name$`.
    std::size_t base = static_cast<std::size_t>(level_ * width_);
    std::size_t column = out_.size() - line_begin;
    for (char v : it->second) {
      put(v);
      if (v == '\n') {
        line_begin = out_.size();
        extra_indent_ = column > base ? column - base : 0;
      }
    }
    extra_indent_ = saved;
    // A block that ends its own line absorbs the template's newline after the placeholder.
    if (!it->second.empty() && it->second.back() == '\n' && i + 1 < text.size() &&
        text[i + 1] == '\n')
      ++i;
  }
  for (std::size_t v = 0; v < vars.size(); ++v)
    DFGC_INTERNAL_ASSERT(used[v], "template variable '", vars[v].first, "' is never used");
}

std::string render_template(std::string_view template_text, const Printer::Vars& vars) {
  Printer p;
  p.emit(vars, template_text);
  return p.take();
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out.append(separator);
    out.append(items[i]);
  }
  return out;
}

}  // namespace dfgc
