/// \file
/// Where a diagnostic points and how much it underlines: names, qualified references (`A.g0`,
/// `p.m`) and whole expressions, measured on the source text so that parentheses are included.
#pragma once

#include <cstdint>
#include <string>

#include "spec/ast.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

struct Span {
  SourceLoc loc;
  std::uint32_t length = 1;
};

Span span_of(const ast::Ident& id);
/// From the host name to the end of the PE name: `A.g0`.
Span span_of(const ast::PeRef& ref);
/// From the node name to the end of the port name: `i1.a`.
Span span_of(const ast::PortRef& ref);
/// The whole expression as written, parentheses included.
Span span_of(const ast::Expr& e, const SourceManager& sources);

/// "A.g0" and "i1.a" as the user wrote them, without spaces.
std::string qualified(const ast::PeRef& ref);
std::string qualified(const ast::PortRef& ref);

/// Shorthands that take a Span.
DiagnosticBuilder error_at(DiagnosticEngine& diags, Span s, std::string message);
DiagnosticBuilder& note_at(DiagnosticBuilder& b, Span s, std::string message);

}  // namespace dfgc::sema
