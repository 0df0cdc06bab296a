/// \file
/// Clang source locations to dfgc source locations, and which actor header a location belongs to.
#include "actors/locations.hpp"

#include <clang/Lex/Lexer.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>

namespace dfgc::actors {

namespace {

/// `path` resolved (Clang names the C++ library's headers as "/../lib/gcc/x86_64-linux-gnu/12/
/// ../../../../include/c++/12/vector", where "lib" may be a symbolic link, so dropping the dots
/// lexically could name another file), then relative to the working directory when it lies
/// below it, so that diagnostics read the same on every machine.
std::string display_name(llvm::StringRef name) {
  llvm::SmallString<256> path;
  if (llvm::sys::fs::real_path(name, path)) path = name;
  llvm::SmallString<256> cwd;
  if (!llvm::sys::fs::current_path(cwd) && path.starts_with(cwd) && path.size() > cwd.size() &&
      path[cwd.size()] == '/')
    return path.substr(cwd.size() + 1).str();
  return path.str().str();
}

}  // namespace

Locator::Locator(const clang::SourceManager& clang_sources, const clang::LangOptions& lang,
                 SourceManager& sources, const std::vector<HeaderFile>& headers)
    : clang_sources_(&clang_sources), lang_(&lang), sources_(&sources), headers_(&headers) {}

std::optional<std::size_t> Locator::header_index(clang::FileID fid) const {
  auto entry = clang_sources_->getFileEntryRefForID(fid);
  if (!entry) return std::nullopt;
  for (std::size_t i = 0; i < headers_->size(); ++i)
    if ((*headers_)[i].id == entry->getUniqueID()) return i;
  return std::nullopt;
}

std::optional<std::uint32_t> Locator::file_of(clang::FileID fid) {
  auto [it, inserted] = files_.try_emplace(fid.getHashValue());
  if (!inserted) return it->second;
  if (auto header = header_index(fid)) {
    it->second = (*headers_)[*header].file;
  } else if (auto entry = clang_sources_->getFileEntryRefForID(fid)) {
    it->second = sources_->load_file(display_name(entry->getName()));
  }
  return it->second;
}

Place Locator::point(clang::SourceLocation loc) {
  if (loc.isInvalid()) return {};
  auto [fid, offset] = clang_sources_->getDecomposedLoc(clang_sources_->getFileLoc(loc));
  auto file = file_of(fid);
  if (!file) return {};
  return {{*file, offset}, 1};
}

Place Locator::token(clang::SourceLocation loc) {
  Place p = point(loc);
  if (p.loc.valid()) {
    unsigned length =
        clang::Lexer::MeasureTokenLength(clang_sources_->getFileLoc(loc), *clang_sources_, *lang_);
    p.length = std::max(1u, length);
  }
  return p;
}

Place Locator::range(clang::SourceRange range) {
  Place p = point(range.getBegin());
  if (!p.loc.valid()) return p;
  clang::SourceLocation begin = clang_sources_->getFileLoc(range.getBegin());
  clang::SourceLocation end = clang_sources_->getFileLoc(range.getEnd());
  auto [begin_fid, begin_offset] = clang_sources_->getDecomposedLoc(begin);
  auto [end_fid, end_offset] = clang_sources_->getDecomposedLoc(end);
  bool one_line =
      begin_fid == end_fid && end_offset >= begin_offset &&
      clang_sources_->getSpellingLineNumber(begin) == clang_sources_->getSpellingLineNumber(end);
  if (one_line)
    p.length = end_offset - begin_offset +
               std::max(1u, clang::Lexer::MeasureTokenLength(end, *clang_sources_, *lang_));
  return p;
}

std::optional<std::size_t> Locator::header_of(clang::SourceLocation loc) const {
  if (loc.isInvalid()) return std::nullopt;
  clang::FileID fid = clang_sources_->getFileID(clang_sources_->getFileLoc(loc));
  // Walk up the include stack to the file the main file includes.
  while (fid.isValid()) {
    clang::SourceLocation included_from = clang_sources_->getIncludeLoc(fid);
    if (included_from.isInvalid()) return std::nullopt;
    clang::FileID parent = clang_sources_->getFileID(included_from);
    if (parent == clang_sources_->getMainFileID()) return header_index(fid);
    fid = parent;
  }
  return std::nullopt;
}

}  // namespace dfgc::actors
