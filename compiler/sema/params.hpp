/// \file
/// The spec's params: declared across modules in dependency order, each evaluated once the ones
/// before it are known, with the -D overrides of the command line applied.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "ir/ir.hpp"
#include "sema/names.hpp"
#include "sema/sema.hpp"

namespace dfgc::sema {

struct ParamEntry {
  const ast::ParamDecl* decl = nullptr;
  std::size_t seq = 0;                  ///< position among all param declarations of the spec
  std::optional<std::int64_t> value;    ///< nullopt when its expression has an error
  std::optional<ir::TuneRange> tune;    ///< a tunable param's range, when it has no error
  std::optional<ir::TuneRange> bounds;  ///< a runtime param's bounds, when they have no error
};

struct ParamTable {
  std::vector<ParamEntry> entries;  ///< one per distinct name, in declaration order
  NameTable names{"param"};

  const ParamEntry* find(std::string_view name) const {
    auto i = names.find(name);
    return i ? &entries[*i] : nullptr;
  }
  /// The params of the program (an entry with an error keeps the value 0).
  std::vector<ir::Param> to_ir() const;
};

ParamTable check_params(const Spec& spec, const std::vector<Define>& defines,
                        const SourceManager& sources, DiagnosticEngine& diags);

}  // namespace dfgc::sema
