/// \file
/// The text edits that write a chosen mapping into the spec: each free node's placement (`any
/// gpu`, `B.*`) becomes the chosen PE, or the replica set its shares were placed on (`any cpu
/// replicas in [1, 4]` becomes `{A.c1, A.c2}`), each tuned param's value becomes the chosen
/// number.
/// Nothing else changes, byte for byte. The same edits print the spec fragment to paste.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/ir.hpp"
#include "spec/parser.hpp"

namespace dfgc::mapping {

struct Edit {
  SourceLoc loc;
  std::uint32_t length = 0;  ///< bytes replaced
  std::string text;
};

/// A tuned param and the value chosen for it.
struct TunedValue {
  std::string param;  ///< the param, or for `replicas` the free node
  std::int64_t value = 0;
  /// The value is how many shares `dfgc map` dealt free node `param` over (its replica range,
  /// `@ any cpu replicas in [1, 4]`), not a param's.
  bool replicas = false;
};

/// The PEs of a node's shares (`share_pes`, in share order) as a replica set writes them: each PE
/// once, in the order of its first share, weighted by its shares, unreduced (sema/replicas.hpp
/// deals copy j to the PE whose run of weights holds j, so one PE's shares are neighbours).
std::vector<ir::Replica> share_runs(const std::vector<ir::PeId>& share_pes);
/// The greatest common factor of `set`'s weights (0 for an empty set).
std::uint32_t common_weight(const std::vector<ir::Replica>& set);

/// Where spec node `node`'s copies run under `pe_of`: one PE, or the PEs its copies run on in
/// the order of their first copy, each weighted by its copies over their gcd (the set `@ {...}`
/// writes; the search's placements are in that form, search.cpp's canonical()).
std::vector<ir::Replica> placement_of(const ir::Program& program,
                                      const std::vector<ir::PeId>& pe_of, const std::string& node);

/// placement_of() as the spec writes it: `A.c1` or `{A.c1, A.c2: 2}` (a weight of 1 unwritten).
std::string placement_text(const ir::Program& program, const std::vector<ir::PeId>& pe_of,
                           const std::string& node);

/// A free placement written once for several nodes that a mapping runs apart.
struct SplitPlacement {
  /// "t.dfg:9:37: 'any cpu' places 2 nodes on different PEs (f0 @ A.c1, f1 @ A.c3); write one
  /// placement per node"
  std::string message;
  std::vector<std::string> lines;  ///< one placement a node, to paste: "  f0 @ A.c1;"
};

/// The edits for `pe_of` (free nodes only) and `tuned`, in file and offset order. A free placement
/// written once for several nodes (in a loop, or an instance's for the nodes of its composite) is
/// edited when they all run where it would say; else nothing is edited there and `split` gets
/// where each runs, in the order the placements are written.
std::vector<Edit> mapping_edits(const Spec& spec, const ir::Program& program,
                                const std::vector<ir::PeId>& pe_of,
                                const std::vector<TunedValue>& tuned, const SourceManager& sources,
                                std::vector<SplitPlacement>* split = nullptr);

/// The edited lines, each as it will read: "  node i1 : Inc @ A.g0;".
std::vector<std::string> edited_lines(const std::vector<Edit>& edits, const SourceManager& sources);

/// The files' new contents, by file id.
std::vector<std::pair<std::uint32_t, std::string>> apply_edits(const std::vector<Edit>& edits,
                                                               const SourceManager& sources);

}  // namespace dfgc::mapping
