#include "actors/struct_layout.hpp"

#include <string>

#include <clang/AST/RecordLayout.h>
#include <fmt/format.h>

#include "actors/contract_types.hpp"

namespace dfgc::actors {

namespace {

/// A field as the spec writes it: "int32 channel", "float amp[4]".
std::string spec_text(const ir::StructField& f) {
  return fmt::format("{} {}{}", ir::spec_name(f.elem), f.name,
                     f.array ? fmt::format("[{}]", f.count) : "");
}

}  // namespace

bool check_struct_layout(clang::ASTContext& ast, const ir::StructType& s, Locator& where,
                         DiagnosticEngine& diags) {
  llvm::StringRef name = s.cxx_name;
  name.consume_front("::");
  const clang::NamedDecl* decl = types::find_class_decl(ast, name);
  const clang::CXXRecordDecl* record = decl ? types::record_of(*decl) : nullptr;
  if (record == nullptr || !record->hasDefinition()) return false;
  record = record->getDefinition();
  const Place at = where.token(record->getLocation());
  auto error = [&](const Place& place, std::string message) {
    return diags.error(place.loc, std::move(message), place.length);
  };
  const std::string about = s.cxx_name == s.name
                                ? fmt::format("class '{}'", s.name)
                                : fmt::format("class '{}' of struct '{}'", s.cxx_name, s.name);
  const std::string note = fmt::format("struct '{}' declared here", s.name);
  const clang::QualType type = ast.getRecordType(record);
  if (!type.isTriviallyCopyableType(ast) || !record->isStandardLayout()) {
    error(at,
          fmt::format("{} is not {}: its tokens move as bytes", about,
                      type.isTriviallyCopyableType(ast) ? "standard-layout" : "trivially copyable"))
        .note(s.loc, note, static_cast<std::uint32_t>(s.name.size()));
    return true;
  }
  // Standard layout: the data members are all in one class of the hierarchy, this one or a base.
  const clang::CXXRecordDecl* holder = record;
  while (holder->field_empty() && holder->getNumBases() == 1)
    holder = holder->bases_begin()->getType()->getAsCXXRecordDecl();
  std::size_t index = 0;
  bool same = true;
  for (const clang::FieldDecl* member : holder->fields()) {
    const Place member_at = where.token(member->getLocation());
    const std::string actual = fmt::format(
        "{} {}", member->getType().getAsString(ast.getPrintingPolicy()), member->getName().str());
    if (index >= s.fields.size()) {
      error(member_at, fmt::format("{} has data member '{}' after the spec's {} fields", about,
                                   actual, s.fields.size()))
          .note(s.loc, note, static_cast<std::uint32_t>(s.name.size()));
      return true;
    }
    const ir::StructField& f = s.fields[index++];
    if (member->getName() != f.name || member->isBitField() ||
        !types::is_field_type(ast, member->getType(), f)) {
      error(member_at, fmt::format("data member {} of {} is '{}', but the spec's field {} is '{}'",
                                   index, about, actual, index, spec_text(f)))
          .note(f.loc, fmt::format("field '{}' declared here", f.name),
                static_cast<std::uint32_t>(f.name.size()));
      same = false;
    }
  }
  if (index < s.fields.size()) {
    const ir::StructField& f = s.fields[index];
    error(at, fmt::format("{} has {} data member{}, but the spec's struct has {} fields: it lacks "
                          "'{}'",
                          about, index, index == 1 ? "" : "s", s.fields.size(), spec_text(f)))
        .note(f.loc, fmt::format("field '{}' declared here", f.name),
              static_cast<std::uint32_t>(f.name.size()));
    return true;
  }
  if (!same) return true;
  // The same members: a different size or offset comes of alignas, packing or padding.
  const clang::ASTRecordLayout& layout = ast.getASTRecordLayout(holder);
  index = 0;
  for (const clang::FieldDecl* member : holder->fields()) {
    const ir::StructField& f = s.fields[index++];
    const auto offset = static_cast<std::size_t>(
        ast.toCharUnitsFromBits(
               static_cast<std::int64_t>(layout.getFieldOffset(member->getFieldIndex())))
            .getQuantity());
    if (offset == f.offset) continue;
    error(where.token(member->getLocation()),
          fmt::format("data member '{}' of {} is at offset {}, but the spec lays its field out at "
                      "offset {} (packing or alignas?)",
                      f.name, about, offset, f.offset))
        .note(f.loc, fmt::format("field '{}' declared here", f.name),
              static_cast<std::uint32_t>(f.name.size()));
    return true;
  }
  const auto size = static_cast<std::size_t>(ast.getTypeSizeInChars(type).getQuantity());
  if (size != s.size)
    error(at, fmt::format("{} is {} bytes, but the spec lays the struct out in {} (alignas or "
                          "padding?)",
                          about, size, s.size))
        .note(s.loc, note, static_cast<std::uint32_t>(s.name.size()));
  return true;
}

}  // namespace dfgc::actors
