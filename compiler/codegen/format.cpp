#include "codegen/format.hpp"

#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>
#include <llvm/Support/MemoryBuffer.h>

#include "support/assert.hpp"

namespace dfgc::codegen {

namespace {

const clang::format::FormatStyle& style() {
  static const clang::format::FormatStyle kStyle = [] {
    clang::format::FormatStyle s =
        clang::format::getGoogleStyle(clang::format::FormatStyle::LK_Cpp);
    const std::error_code error = clang::format::parseConfiguration(
        llvm::MemoryBufferRef(
            llvm::StringRef(clang_format_style().data(), clang_format_style().size()),
            ".clang-format"),
        &s);
    DFGC_INTERNAL_ASSERT(!error, "the compiled-in .clang-format does not parse: ", error.message());
    return s;
  }();
  return kStyle;
}

}  // namespace

std::string format_cpp(std::string_view code, std::string_view file_name, std::size_t limit) {
  const llvm::StringRef name(file_name.data(), file_name.size());
  std::string text(code);
  std::vector<clang::tooling::Range> ranges{
      clang::tooling::Range(0, static_cast<unsigned>(text.size()))};
  // As clang-format does: the includes first, then the layout of the result.
  const clang::tooling::Replacements includes =
      clang::format::sortIncludes(style(), text, ranges, name);
  llvm::Expected<std::string> sorted = clang::tooling::applyAllReplacements(text, includes);
  DFGC_INTERNAL_ASSERT(static_cast<bool>(sorted), "sorting the includes of ", file_name, " failed");
  if (code.size() > limit) return std::move(*sorted);
  ranges = clang::tooling::calculateRangesAfterReplacements(includes, ranges);
  const clang::tooling::Replacements layout =
      clang::format::reformat(style(), *sorted, ranges, name);
  llvm::Expected<std::string> formatted = clang::tooling::applyAllReplacements(*sorted, layout);
  DFGC_INTERNAL_ASSERT(static_cast<bool>(formatted), "formatting ", file_name, " failed");
  return std::move(*formatted);
}

}  // namespace dfgc::codegen
