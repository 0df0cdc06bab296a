/// \file
/// The contract's Clang helpers (actors/contract_types.hpp).
#include "actors/contract_types.hpp"

#include <cstdint>
#include <limits>
#include <variant>

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Type.h>
#include <fmt/format.h>
#include <llvm/ADT/APFloat.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/SmallVector.h>

#include "support/assert.hpp"

namespace dfgc::actors::types {

const char* spelling(clang::AccessSpecifier access) {
  return access == clang::AS_protected ? "protected" : "private";
}

/// The members named `name` of `record` or, when it declares none, of its base classes (each
/// base's own, or its bases' when it declares none, as C++'s lookup finds them); access combines
/// the member's own with that of the bases on the way. Members of more than one class mean an
/// ambiguous name; a class reached twice through virtual bases counts once.
std::vector<Found> find_member(const clang::CXXRecordDecl& record, clang::IdentifierInfo& name) {
  std::vector<Found> found;
  for (const clang::NamedDecl* d : record.lookup(&name))
    found.push_back({d->getUnderlyingDecl(), d->getAccess(), &record});
  if (!found.empty()) return found;
  for (const clang::CXXBaseSpecifier& base : record.bases()) {
    const clang::CXXRecordDecl* b = base.getType()->getAsCXXRecordDecl();
    if (!b || !b->hasDefinition()) continue;
    for (Found f : find_member(*b->getDefinition(), name)) {
      f.access = std::max(f.access, base.getAccessSpecifier());
      auto same = [&](const Found& g) { return g.decl == f.decl; };
      if (std::none_of(found.begin(), found.end(), same)) found.push_back(f);
    }
  }
  return found;
}

/// The class-like declaration that `qualified` ("Foo", "ns::Foo", "::ns::Foo") names at
/// namespace scope: a class, a class template or an alias; null when there is none.
const clang::NamedDecl* find_class_decl(clang::ASTContext& ast, llvm::StringRef qualified) {
  qualified.consume_front("::");
  llvm::SmallVector<llvm::StringRef, 4> parts;
  qualified.split(parts, "::");
  const clang::DeclContext* scope = ast.getTranslationUnitDecl();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) return nullptr;
    const clang::NamedDecl* next = nullptr;
    for (const clang::NamedDecl* d : scope->lookup(&ast.Idents.get(parts[i]))) {
      bool last = i + 1 == parts.size();
      if (!last && (llvm::isa<clang::NamespaceDecl>(d) || llvm::isa<clang::NamespaceAliasDecl>(d)))
        next = d;
      if (last && (llvm::isa<clang::CXXRecordDecl>(d) || llvm::isa<clang::ClassTemplateDecl>(d) ||
                   llvm::isa<clang::TypedefNameDecl>(d)))
        next = d;
    }
    if (!next || i + 1 == parts.size()) return next;
    if (const auto* alias = llvm::dyn_cast<clang::NamespaceAliasDecl>(next))
      scope = alias->getNamespace();
    else
      scope = llvm::cast<clang::NamespaceDecl>(next);
  }
  return nullptr;
}

/// The class a declaration found by find_class_decl stands for (through an alias).
const clang::CXXRecordDecl* record_of(const clang::NamedDecl& decl) {
  if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(&decl)) return record;
  if (const auto* alias = llvm::dyn_cast<clang::TypedefNameDecl>(&decl))
    return alias->getUnderlyingType()->getAsCXXRecordDecl();
  return nullptr;
}

bool is_context(clang::QualType type) {
  const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
  return record && record->getQualifiedNameAsString() == "dfg::Context";
}

/// `dfg::State&` (`constant`: `const dfg::State&`), exactly: what save and restore take.
bool is_state_ref(clang::QualType type, bool constant) {
  const auto* ref = type->getAs<clang::LValueReferenceType>();
  if (!ref) return false;
  const clang::CXXRecordDecl* record = ref->getPointeeType()->getAsCXXRecordDecl();
  return record && record->getQualifiedNameAsString() == "dfg::State" &&
         ref->getPointeeType().isConstQualified() == constant;
}

/// `dfg::Context&`, exactly: the only way a function may take the context.
bool is_context_ref(clang::QualType type) {
  const auto* ref = type->getAs<clang::LValueReferenceType>();
  return ref && is_context(ref->getPointeeType()) && !ref->getPointeeType().isConstQualified();
}

/// Any other way of naming the context: by value, const reference, pointer...
bool mentions_context(clang::QualType type) {
  clang::QualType inner = type.getNonReferenceType();
  if (const auto* ptr = inner->getAs<clang::PointerType>()) inner = ptr->getPointeeType();
  return is_context(inner);
}

clang::QualType elem_type(clang::ASTContext& ast, ir::ElemType elem) {
  switch (elem) {
    case ir::ElemType::f32: return ast.FloatTy;
    case ir::ElemType::f64: return ast.DoubleTy;
    case ir::ElemType::i8: return ast.getIntTypeForBitwidth(8, true);
    case ir::ElemType::i16: return ast.getIntTypeForBitwidth(16, true);
    case ir::ElemType::i32: return ast.getIntTypeForBitwidth(32, true);
    case ir::ElemType::i64: return ast.getIntTypeForBitwidth(64, true);
    case ir::ElemType::u8: return ast.getIntTypeForBitwidth(8, false);
    case ir::ElemType::u16: return ast.getIntTypeForBitwidth(16, false);
    case ir::ElemType::u32: return ast.getIntTypeForBitwidth(32, false);
    case ir::ElemType::u64: return ast.getIntTypeForBitwidth(64, false);
    case ir::ElemType::c32:
    case ir::ElemType::c64: break;     // a class: is_complex_of()
    case ir::ElemType::record: break;  // a class: is_token_pointee()
  }
  DFGC_UNREACHABLE("element type ", static_cast<int>(elem));
}

/// Whether `type` is std::complex<float> (c32) or std::complex<double> (c64).
bool is_complex_of(clang::ASTContext& ast, clang::QualType type, ir::ElemType elem) {
  const auto* record = type.getCanonicalType()->getAsCXXRecordDecl();
  const auto* spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record);
  if (spec == nullptr || spec->getName() != "complex" || !spec->isInStdNamespace()) return false;
  const clang::TemplateArgumentList& args = spec->getTemplateArgs();
  return args.size() == 1 && args[0].getKind() == clang::TemplateArgument::Type &&
         ast.hasSameType(args[0].getAsType(),
                         elem == ir::ElemType::c32 ? ast.FloatTy : ast.DoubleTy);
}

/// Whether `pointee` is the element type, const or not, and nothing else (no volatile).
bool is_elem_pointee(clang::ASTContext& ast, clang::QualType pointee, ir::ElemType elem) {
  clang::Qualifiers quals = pointee.getCanonicalType().getQualifiers();
  quals.removeConst();
  if (quals.hasQualifiers()) return false;
  if (ir::is_complex(elem)) return is_complex_of(ast, pointee, elem);
  return ast.hasSameUnqualifiedType(pointee, elem_type(ast, elem));
}

bool is_token_pointee(clang::ASTContext& ast, clang::QualType pointee, const ir::TokenType& token) {
  if (!token.record) return is_elem_pointee(ast, pointee, token.elem);
  clang::Qualifiers quals = pointee.getCanonicalType().getQualifiers();
  quals.removeConst();
  if (quals.hasQualifiers()) return false;
  // The class the C++ name stands for (through an alias), the same declaration as the pointee's.
  const auto* record = pointee.getCanonicalType()->getAsCXXRecordDecl();
  llvm::StringRef name = token.record->cxx;
  name.consume_front("::");
  const clang::NamedDecl* decl = find_class_decl(ast, name);
  const clang::CXXRecordDecl* named = decl ? record_of(*decl) : nullptr;
  return record != nullptr && named != nullptr &&
         record->getCanonicalDecl() == named->getCanonicalDecl();
}

bool is_field_type(clang::ASTContext& ast, clang::QualType type, const ir::StructField& field) {
  clang::QualType elem = type;
  if (field.array) {
    const auto* array = ast.getAsConstantArrayType(type);
    if (array == nullptr || array->getSize() != field.count) return false;
    elem = array->getElementType();
  }
  if (elem.hasQualifiers()) return false;
  if (ir::is_complex(field.elem)) return is_complex_of(ast, elem, field.elem);
  return ast.hasSameType(elem, elem_type(ast, field.elem));
}

/// Whether a data member of type `type` can receive an actor param declared `param_type` in the
/// spec: an integer for int and int64, a floating type for float and double, bool for bool.
bool holds(const std::string& param_type, clang::QualType type) {
  const auto* builtin = llvm::dyn_cast<clang::BuiltinType>(type.getCanonicalType());
  if (!builtin) return false;
  bool is_bool = builtin->getKind() == clang::BuiltinType::Bool;
  if (param_type == "bool") return is_bool;
  if (param_type == "float" || param_type == "double") return builtin->isFloatingPoint();
  if (param_type == "int" || param_type == "int64") return builtin->isInteger() && !is_bool;
  DFGC_UNREACHABLE("actor param type '", param_type, "'");
}

/// Why `value` does not survive the assignment to a member of builtin type `type` (which
/// holds() accepted), or nothing when it does: an integer out of the type's range, a real
/// beyond the largest finite value of the type.
std::optional<std::string> does_not_fit(clang::ASTContext& ast, clang::QualType type,
                                        const ir::ParamScalar& value) {
  if (type->isBooleanType()) return std::nullopt;
  if (type->isIntegerType()) {
    const auto* integer = std::get_if<std::int64_t>(&value);
    if (!integer) return std::nullopt;
    unsigned width = ast.getIntWidth(type);
    if (type->isSignedIntegerType()) {
      if (width >= 64) return std::nullopt;
      std::int64_t max = (std::int64_t{1} << (width - 1)) - 1;
      if (*integer >= -max - 1 && *integer <= max) return std::nullopt;
      return fmt::format("{} to {}", -max - 1, max);
    }
    std::uint64_t max =
        width >= 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << width) - 1;
    if (*integer >= 0 && static_cast<std::uint64_t>(*integer) <= max) return std::nullopt;
    return fmt::format("0 to {}", max);
  }
  if (type->isRealFloatingType()) {
    if (std::holds_alternative<bool>(value)) return std::nullopt;
    const double real = std::holds_alternative<std::int64_t>(value)
                            ? static_cast<double>(std::get<std::int64_t>(value))
                        : std::holds_alternative<float>(value) ? std::get<float>(value)
                                                               : std::get<double>(value);
    llvm::APFloat converted(real);
    bool loses = false;
    auto status = converted.convert(ast.getFloatTypeSemantics(type),
                                    llvm::APFloat::rmNearestTiesToEven, &loses);
    if (!(status & llvm::APFloat::opOverflow)) return std::nullopt;
    llvm::SmallString<32> largest;
    llvm::APFloat::getLargest(ast.getFloatTypeSemantics(type)).toString(largest);
    return fmt::format("at most {} in magnitude", largest.str());
  }
  return std::nullopt;
}

/// The view of a ring that a step takes: dfg::In / dfg::Out on a CPU, dfg::GpuIn / dfg::GpuOut
/// on a GPU.
std::string ring_view(bool input, ir::PeKind kind) {
  if (kind == ir::PeKind::gpu) return input ? "dfg::GpuIn" : "dfg::GpuOut";
  return input ? "dfg::In" : "dfg::Out";
}

/// The T of the view `ring_view(input, kind)<T>`, or null for any other type.
const clang::TemplateArgument* ring_arg(clang::QualType type, bool input, ir::PeKind kind) {
  const auto* spec = type->getAs<clang::TemplateSpecializationType>();
  if (!spec || spec->template_arguments().size() != 1) return nullptr;
  const clang::TemplateDecl* decl = spec->getTemplateName().getAsTemplateDecl();
  if (!decl || decl->getQualifiedNameAsString() != ring_view(input, kind)) return nullptr;
  return &spec->template_arguments()[0];
}

/// The element type T of `dfg::Bounded<T>`, or null for any other type.
const clang::TemplateArgument* bounded_arg(clang::QualType type) {
  const auto* spec =
      llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(type->getAsCXXRecordDecl());
  if (!spec || spec->getQualifiedNameAsString() != "dfg::Bounded" ||
      spec->getTemplateArgs().size() != 1)
    return nullptr;
  const clang::TemplateArgument& arg = spec->getTemplateArgs()[0];
  return arg.getKind() == clang::TemplateArgument::Type ? &arg : nullptr;
}

}  // namespace dfgc::actors::types
