/// \file
/// What the actor contract (actors/contract.hpp) asks of Clang's declarations and types: member
/// lookup as C++ does it, the class a spec's name stands for, the forms of dfg::Context and
/// dfg::State a member function takes, the element types of ports (scalars, std::complex, the
/// views of rings and bounded tokens) and whether a data member can hold an actor param's value.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/TemplateBase.h>
#include <llvm/ADT/StringRef.h>

#include "ir/ir.hpp"

namespace dfgc::actors::types {

/// A declaration found by member lookup, with whether generated code may use it.
struct Found {
  const clang::NamedDecl* decl = nullptr;  ///< through using-declarations to the target
  clang::AccessSpecifier access = clang::AS_public;
  const clang::CXXRecordDecl* owner = nullptr;  ///< the class that declares it
};

/// "public", "protected" or "private".
const char* spelling(clang::AccessSpecifier access);

/// The members named `name` of `record` or, when it declares none, of its base classes (each
/// base's own, or its bases' when it declares none, as C++'s lookup finds them); access combines
/// the member's own with that of the bases on the way. Members of more than one class mean an
/// ambiguous name; a class reached twice through virtual bases counts once.
std::vector<Found> find_member(const clang::CXXRecordDecl& record, clang::IdentifierInfo& name);

/// The class-like declaration that `qualified` ("Foo", "ns::Foo", "::ns::Foo") names at
/// namespace scope: a class, a class template or an alias; null when there is none.
const clang::NamedDecl* find_class_decl(clang::ASTContext& ast, llvm::StringRef qualified);

/// The class a declaration found by find_class_decl stands for (through an alias).
const clang::CXXRecordDecl* record_of(const clang::NamedDecl& decl);

/// `dfg::Context`, however qualified.
bool is_context(clang::QualType type);

/// `dfg::State&` (`constant`: `const dfg::State&`), exactly: what save and restore take.
bool is_state_ref(clang::QualType type, bool constant);

/// `dfg::Context&`, exactly: the only way a function may take the context.
bool is_context_ref(clang::QualType type);

/// Any other way of naming the context: by value, const reference, pointer...
bool mentions_context(clang::QualType type);

/// The builtin type of a scalar element type (not of a complex one: is_complex_of).
clang::QualType elem_type(clang::ASTContext& ast, ir::ElemType elem);

/// Whether `type` is std::complex<float> (c32) or std::complex<double> (c64).
bool is_complex_of(clang::ASTContext& ast, clang::QualType type, ir::ElemType elem);

/// Whether `pointee` is the element type, const or not, and nothing else (no volatile).
bool is_elem_pointee(clang::ASTContext& ast, clang::QualType pointee, ir::ElemType elem);

/// Whether `pointee` is the element type of `token`, const or not, and nothing else: for a
/// token of structs, the class that the struct's C++ name names.
bool is_token_pointee(clang::ASTContext& ast, clang::QualType pointee, const ir::TokenType& token);

/// Whether a data member of type `type` is what the struct's `field` declares: its element type,
/// or a fixed array of its count of them.
bool is_field_type(clang::ASTContext& ast, clang::QualType type, const ir::StructField& field);

/// Whether a data member of type `type` can receive an actor param declared `param_type` in the
/// spec: an integer for int and int64, a floating type for float and double, bool for bool.
bool holds(const std::string& param_type, clang::QualType type);

/// Why `value` does not survive the assignment to a member of builtin type `type` (which
/// holds() accepted), or nothing when it does: an integer out of the type's range, a real
/// beyond the largest finite value of the type.
std::optional<std::string> does_not_fit(clang::ASTContext& ast, clang::QualType type,
                                        const ir::ParamScalar& value);

/// The view of a ring that a step takes: dfg::In / dfg::Out on a CPU, dfg::GpuIn / dfg::GpuOut
/// on a GPU.
std::string ring_view(bool input, ir::PeKind kind);

/// The T of the view `ring_view(input, kind)<T>`, or null for any other type.
const clang::TemplateArgument* ring_arg(clang::QualType type, bool input, ir::PeKind kind);

/// The element type T of `dfg::Bounded<T>`, or null for any other type.
const clang::TemplateArgument* bounded_arg(clang::QualType type);

}  // namespace dfgc::actors::types
