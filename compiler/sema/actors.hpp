/// \file
/// Actor declarations: ports and their types, parameters and their defaults, implementations and
/// the headers they live in.
#pragma once

#include <optional>
#include <vector>

#include "ir/ir.hpp"
#include "sema/actor_params.hpp"
#include "sema/names.hpp"
#include "sema/types.hpp"

namespace dfgc::sema {

/// The most tokens one firing may move through a port.
inline constexpr std::int64_t kMaxRate = 1 << 20;
/// The most ports a port group (`in T x[N];`) holds.
inline constexpr std::int64_t kMaxGroup = 1024;

/// What later checks need of an actor's declaration, parallel to the ir::Actor's vectors.
struct ActorInfo {
  const ast::ActorDecl* decl = nullptr;
  std::vector<const ast::PortDecl*> ports;
  std::vector<bool> port_type_ok;
  /// Per port: its rate or window uses the actor's params (`rate D`), so each node's values give
  /// its own (sema/node_rates.hpp).
  std::vector<bool> rate_uses_params;
  /// Per port: it belongs to a group whose size uses the actor's params (`in T x[N];`), so each
  /// node's values give its own number of ports (sema/node_rates.hpp).
  std::vector<bool> group_uses_params;
  /// Per port: its window (`peek`) passed its checks at the actor's defaults, so each node's
  /// values give it again (sema/node_rates.hpp).
  std::vector<bool> window_ok;
  std::vector<const ast::ActorParamDecl*> params;
  std::vector<std::optional<ParamType>> param_types;
};

struct ActorTable {
  std::vector<ir::Actor> actors;  ///< one per distinct name, in declaration order (ActorId)
  std::vector<ActorInfo> info;
  NameTable names{"actor"};
};

ActorTable check_actors(const Spec& spec, const ParamTable& params, const TypeTable& types,
                        const SourceManager& sources, DiagnosticEngine& diags);

/// `header` as seen from the directory of `spec_file`, lexically normalised; a relative path stays
/// relative ("samples/overlap/actors/inc.cuh").
std::string header_path(const std::string& spec_file, const std::string& header);

}  // namespace dfgc::sema
