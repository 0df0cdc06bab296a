/// \file
/// A table of declared names of one kind (params, types, actors, ...) that reports a second
/// declaration of a name, and answers lookups with a did-you-mean for the unknown ones.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sema/source_span.hpp"
#include "spec/ast.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

class NameTable {
 public:
  /// `what` names the kind in messages: "param", "actor", "port", ...
  explicit NameTable(std::string what) : what_(std::move(what)) {}

  /// Records `id` as the declaration with index `index`. A name seen before is reported as
  /// "duplicate <what> 'x'" with a note at the first declaration, and is not recorded again.
  /// Returns whether the name was recorded (an empty name, left by a parse error, is not).
  bool declare(const ast::Ident& id, std::size_t index, DiagnosticEngine& diags);
  /// The same for a name the user did not write as such, declared at `at` (a port group's x1,
  /// declared by `x[2]`).
  bool declare(const std::string& name, Span at, std::size_t index, DiagnosticEngine& diags);

  std::optional<std::size_t> find(std::string_view name) const;

  /// Looks `id` up; reports "<message>; did you mean 'y'?" when it is unknown (nothing for an
  /// empty name). `message` defaults to "unknown <what> 'x'".
  std::optional<std::size_t> resolve(const ast::Ident& id, DiagnosticEngine& diags,
                                     std::string message = {}) const;

  /// The names in declaration order.
  const std::vector<std::string>& names() const { return names_; }

 private:
  struct Entry {
    std::size_t index;
    SourceLoc loc;
    std::uint32_t length;
  };
  std::string what_;
  std::map<std::string, Entry, std::less<>> entries_;
  std::vector<std::string> names_;
};

/// Checks that `id` can be written into the generated C++ as it is and as a part of the
/// identifiers dfgc derives from it ("p.m@A.g0" -> "p_m_A_g0_view_", node p's member "p_node_"):
/// not a C++ keyword, not a macro of the standard, POSIX, MPI or dfgc headers the generated code
/// includes (NULL, SIZE_MAX, errno, MPI_..., DFG_...), and neither beginning nor ending with '_'
/// nor containing '__' (C++ reserves '__' and '_' + an upper-case letter; the derived identifiers
/// join names with '_'). Reports "'x' cannot name a <what>: ..." and returns false otherwise.
bool check_cxx_name(const ast::Ident& id, std::string_view what, DiagnosticEngine& diags);

}  // namespace dfgc::sema
