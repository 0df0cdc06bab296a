/// \file
/// The text edits that write a chosen mapping into the spec: each free node's placement (`any
/// gpu`, `B.*`) becomes the chosen PE, each tuned param's value becomes the chosen number.
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
  std::string param;
  std::int64_t value = 0;
};

/// The edits for `pe_of` (free nodes only) and `tuned`, in file and offset order.
std::vector<Edit> mapping_edits(const Spec& spec, const ir::Program& program,
                                const std::vector<ir::PeId>& pe_of,
                                const std::vector<TunedValue>& tuned, const SourceManager& sources);

/// The edited lines, each as it will read: "  node i1 : Inc @ A.g0;".
std::vector<std::string> edited_lines(const std::vector<Edit>& edits, const SourceManager& sources);

/// The files' new contents, by file id.
std::vector<std::pair<std::uint32_t, std::string>> apply_edits(const std::vector<Edit>& edits,
                                                               const SourceManager& sources);

}  // namespace dfgc::mapping
