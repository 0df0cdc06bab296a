/// \file
/// The app: which one the run is about, its nodes (actor, parameter values) and where each node
/// is mapped.
#pragma once

#include <optional>
#include <vector>

#include "ir/ir.hpp"
#include "sema/actors.hpp"
#include "sema/arch.hpp"
#include "sema/params.hpp"

namespace dfgc::sema {

/// The app named by --app, or the spec's only app; reports duplicate app names, a spec without an
/// app, an ambiguous choice and an unknown --app name.
const ast::AppDecl* choose_app(const Spec& spec, const SemaOptions& options,
                               DiagnosticEngine& diags);

struct NodeTable {
  std::vector<ir::Node> nodes;                       ///< one per distinct name, in spec order
  std::vector<std::optional<ir::ActorId>> actor_of;  ///< nullopt: the actor is unknown
  std::vector<std::optional<ir::PeId>> pe_of;        ///< nullopt: the PE is unknown, or free
  NameTable names{"node"};
};

/// `arch` is null when the app's arch is unknown (then mappings are not checked). A free node
/// (`@ any gpu`, `@ B.*`) is an error unless `allow_free`; then its candidate PEs are those of the
/// placement whose kind the actor implements, and its pe_of is nullopt.
NodeTable check_nodes(const ast::AppDecl& app, const ActorTable& actors, const ArchInfo* arch,
                      const ParamTable& params, bool allow_free, const SourceManager& sources,
                      DiagnosticEngine& diags);

}  // namespace dfgc::sema
