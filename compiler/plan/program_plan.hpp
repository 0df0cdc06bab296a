/// \file
/// The plan's program-wide part (plan.hpp): the tables every host's plan shares (ProgramPlan),
/// the PEs' and the spec's names, and what the plan is asked to decide beyond the program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/ig.hpp"
#include "passes/migrations.hpp"

namespace dfgc {

/// A C++ identifier for a spec name: "p.m@A.g0" -> "p_m_A_g0".
std::string identifier(std::string_view name);

/// A PE as the plan names it.
struct PlanPe {
  std::string name;        ///< "A.g0"
  std::string local_name;  ///< "g0"
  ir::HostId host = 0;
  ir::PeKind kind = ir::PeKind::cpu;
  int device = -1;  ///< CUDA device ordinal on its host; -1 for a CPU
  /// Its C++ names (names.cpp): its spelling in generated names ("A_g0": kPe_A_g0), its
  /// worker class ("Worker_A_g0") and, for a GPU, the worker member that gives its end of the
  /// gpudirect transfers its path ("A_g0_gpudirect_").
  std::string ident{}, worker{}, gpudirect{};
};

/// The largest slot, in bytes at the defaults of the runtime params, of a GPU's colour of tokens
/// exchanged with a CPU that the plan maps into host memory (mapped tokens, the file comment):
/// `dfgc --mapped-tokens=BYTES`, 0 for none. bench/results/overlap/h100-2026-11-24-mapped_tokens
/// measures the crossover this default stays below.
inline constexpr std::int64_t kMappedBytes = 4096;

/// The start of a mapped transfer's --profile name (Entry::profile): dfg::Profile times it as a
/// host copy of its CPU end, not as its link (runtime/include/dfg/profile.hpp).
inline constexpr std::string_view kHostCopyProfile = "host copy ";

/// What the plan is asked to decide beyond the program.
struct PlanOptions {
  std::int64_t mapped_bytes = kMappedBytes;  ///< the mapped tokens' threshold (kMappedBytes)
  /// The migrations pass: at most this many joint alternatives (--joints; kDefaultJoints).
  std::size_t joints = kDefaultJoints;
};

/// A param of the spec, as app.hpp declares it.
struct PlanParam {
  std::string name;
  std::int64_t value = 0;  ///< after -D overrides; for a runtime param, its default
  bool runtime = false;
  std::optional<ir::TuneRange> bounds;  ///< a runtime param's bounds
};

/// A token type, as app.hpp sizes it.
struct PlanType {
  std::string name;        ///< "Matrix"
  std::string elem;        ///< its element type's spec name: "f32"
  std::string cxx_elem;    ///< the same in C++: "float"
  std::string count_text;  ///< elements per token, as the spec writes it: "N * N"
  ir::SizeTerm count;      ///< the same as a tree, for the printed expressions
  /// The bytes of an element as the app header spells them: "sizeof(float)"; a struct's size as
  /// a number, since the app header does not include the actors' headers that declare it.
  std::string elem_bytes;
  std::optional<std::uint32_t> record{};  ///< of a type of structs: its struct in `structs`
};

/// A struct of the spec as generated code checks it against the user's class (static_assert).
struct PlanStruct {
  std::string name;  ///< in the spec: "Hit"
  std::string cxx;   ///< in generated code: "::rx::Hit"
  std::size_t size = 0, align = 1;
  std::vector<std::pair<std::string, std::size_t>> fields;  ///< names and offsets, in order
};

/// A host-to-host transfer of the program (either host's end), as README's table lists it.
struct NetTransfer {
  int tag = 0;
  ir::Strategy strategy = ir::Strategy::overlap;
  std::string from, to;  ///< its buffers: "p.m@A.cpu", "p.m@B.cpu"
  bool gpudirect = false;
  int alternative = -1;  ///< a transfer of migration alternative `alternative`'s entries; -1: G0's
};

/// What every host's plan shares: the spec's names, the run's shape, the program's tables. One
/// per program (HostPlans::program); each HostPlan points at it.
struct ProgramPlan {
  std::string app_name;   ///< the spec's app: "overlap_two_gpus"
  std::string arch_name;  ///< its architecture: "two_gpus"
  /// The spec's file name alone ("two_gpus.dfg"), as generated files name their source (as protoc
  /// writes `// source: foo.proto`): a path relative to the working directory, the output or the
  /// checkout would tie the text to where dfgc ran; the spec's other modules are its imports.
  std::string spec_name;
  /// The app's `batch`: the iterations a cycle runs (ir::Program::batch); the nodes' repetitions
  /// are already scaled by it.
  std::uint32_t batch = 1;
  /// The copies its replicas unfold each node into (ir::Program::copies): each copy's firings
  /// run batch / copies iterations a cycle.
  std::uint32_t copies = 1;
  std::vector<PlanPe> pe_table;         ///< every PE of the program, by PeId
  std::vector<std::string> host_names;  ///< every host of the program, by HostId
  std::vector<PlanParam> params;        ///< every param of the spec, in spec order
  std::vector<PlanStruct> structs;      ///< every struct, in spec order
  std::vector<PlanType> types;          ///< every token type, in spec order
  /// Every host-to-host transfer of the program, the alternatives' that the union runs
  /// included, by tag.
  std::vector<NetTransfer> net_transfers;
  /// On several hosts with migration alternatives: the MPI tag of the ranks' agreement on a live
  /// move (after every transfer's); -1 otherwise.
  int control_tag = -1;
  std::int64_t mapped_bytes = kMappedBytes;  ///< the mapped tokens' threshold it was planned with

  const PlanPe& pe(ir::PeId p) const { return pe_table[p]; }
  /// Whether the program spans several hosts (an MPI program, one rank per host).
  bool multi_host() const { return host_names.size() > 1; }
};

}  // namespace dfgc
