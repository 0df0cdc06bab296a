/// \file
/// Duplicate declarations and unknown names, reported the same way for every kind of name.
#include "sema/names.hpp"

#include <fmt/format.h>

#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

bool NameTable::declare(const ast::Ident& id, std::size_t index, DiagnosticEngine& diags) {
  if (id.name.empty()) return false;
  Span here = span_of(id);
  auto [it, inserted] = entries_.try_emplace(id.name, Entry{index, here.loc, here.length});
  if (!inserted) {
    diags.error(here.loc, fmt::format("duplicate {} '{}'", what_, id.name), here.length)
        .note(it->second.loc, "previous definition is here", it->second.length);
    return false;
  }
  names_.push_back(id.name);
  return true;
}

std::optional<std::size_t> NameTable::find(std::string_view name) const {
  auto it = entries_.find(name);
  if (it == entries_.end()) return std::nullopt;
  return it->second.index;
}

std::optional<std::size_t> NameTable::resolve(const ast::Ident& id, DiagnosticEngine& diags,
                                              std::string message) const {
  if (id.name.empty()) return std::nullopt;
  if (auto index = find(id.name)) return index;
  if (message.empty()) message = fmt::format("unknown {} '{}'", what_, id.name);
  error_at(diags, span_of(id), message + did_you_mean(id.name, names_));
  return std::nullopt;
}

}  // namespace dfgc::sema
