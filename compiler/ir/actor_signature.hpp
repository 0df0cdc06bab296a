/// \file
/// What the actor front end (actors/frontend.hpp) found in one implementation of an actor, and
/// what the plan and code generation need of it to call it: fire's parameter order, init, and
/// whether its state can move (save/restore). Plain data: the plan reads it without Clang.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ir/ir.hpp"

namespace dfgc {

/// What code generation needs to know of one implementation to call it.
struct ActorSignature {
  /// fire's pointer parameters in declaration order, as indices into the actor's ports.
  std::vector<std::uint32_t> fire_ports;
  bool fire_takes_context = false;
  bool has_init = false;
  bool init_takes_context = false;
  /// `void finish()` or `void finish(dfg::Context&)`: called once after a run that completed,
  /// never after one that stopped on an error (a sink reports its result there).
  bool has_finish = false;
  bool finish_takes_context = false;
  /// `void save(dfg::State&) const` and `void restore(const dfg::State&)`: the actor's state
  /// moves with it when its node migrates (both or neither).
  bool has_state = false;
  /// `fire` is a const member function: it writes no member (but a `mutable` one) of the actor.
  bool fire_const = false;
  /// `fire`'s body calls ctx.iteration().
  bool fire_reads_iteration = false;
  /// Without save/restore: the first data member of the class that is not a param (what may
  /// hold state from one firing to the next, which a checkpoint cannot hold); empty when there
  /// is none or the class says `dfg_stateless`.
  std::string state_member{};
  /// Per port parameter of fire, in order: 0 for one port's pointer or view (one entry of
  /// fire_ports), N for a group of N ports passed as one dfg::Ports (`in T x[N];`: the next N
  /// entries). Empty: every port is a parameter of its own.
  std::vector<std::uint32_t> fire_groups{};

  bool operator==(const ActorSignature&) const = default;
};

/// One of fire's parameters that take ports: `size` entries of fire_ports from `first`, passed as
/// one dfg::Ports when `group`, else one port's pointer or view (size 1).
struct FireParam {
  std::size_t first = 0;
  std::uint32_t size = 1;
  bool group = false;
};

/// fire's port parameters in order: ActorSignature::fire_groups read once for the plan's dump,
/// the front end's and codegen.
inline std::vector<FireParam> fire_params(const ActorSignature& sig) {
  std::vector<FireParam> out;
  if (sig.fire_groups.empty()) {
    for (std::size_t i = 0; i < sig.fire_ports.size(); ++i) out.push_back({i, 1, false});
    return out;
  }
  std::size_t first = 0;
  for (std::uint32_t size : sig.fire_groups) {
    out.push_back({first, size == 0 ? 1 : size, size != 0});
    first += out.back().size;
  }
  return out;
}

/// Key: (actor index, implementation kind).
using ActorSignatures = std::map<std::pair<ir::ActorId, ir::PeKind>, ActorSignature>;

}  // namespace dfgc
