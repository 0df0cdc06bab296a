/// \file
/// Architecture declarations: hosts, their CPU and GPUs (processing elements), and the links
/// between them. Every declared arch is checked; the app picks one.
#pragma once

#include <optional>
#include <vector>

#include "ir/ir.hpp"
#include "sema/names.hpp"
#include "sema/params.hpp"

namespace dfgc::sema {

struct ArchInfo {
  const ast::ArchDecl* decl = nullptr;
  ir::ArchGraph graph;  ///< what was valid of it
  bool ok = true;       ///< no error inside the declaration
};

struct ArchTable {
  std::vector<ArchInfo> archs;  ///< one per distinct name, in declaration order
  NameTable names{"arch"};
};

ArchTable check_archs(const Spec& spec, const ParamTable& params, const SourceManager& sources,
                      DiagnosticEngine& diags);

/// Finds `A.g0` in the arch; reports an unknown host or processing element (with a note at the
/// arch listing its processing elements when `list_pes`).
std::optional<ir::PeId> resolve_pe(const ast::PeRef& ref, const ArchInfo& arch, bool list_pes,
                                   DiagnosticEngine& diags);

}  // namespace dfgc::sema
