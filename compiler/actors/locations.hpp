/// \file
/// Turns Clang's source locations into dfgc's: the file is loaded into dfgc's SourceManager (an
/// actor header under the name the spec gave it, any other file under its resolved path, made
/// relative to the working directory when it lies below it) and the byte offset is kept.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <clang/Basic/SourceManager.h>
#include <llvm/Support/FileSystem/UniqueID.h>

#include "support/source_manager.hpp"

namespace dfgc::actors {

/// An actor header of the run, identified by the file itself (two spellings of one path are one
/// header) and named as dfgc opened it.
struct HeaderFile {
  std::string name;      ///< Impl::header_path of its first impl
  std::string absolute;  ///< what the batch's main file includes
  llvm::sys::fs::UniqueID id;
  std::uint32_t file = 0;  ///< in dfgc's SourceManager
};

/// A place to report at: a location and how many bytes to underline.
struct Place {
  SourceLoc loc;
  std::uint32_t length = 1;
};

class Locator {
 public:
  Locator(const clang::SourceManager& clang_sources, const clang::LangOptions& lang,
          SourceManager& sources, const std::vector<HeaderFile>& headers);

  /// A caret at `loc` (where a macro's expansion sits in the file); invalid when `loc` is not in
  /// a file dfgc can read (Clang's command line, the in-memory files).
  Place point(clang::SourceLocation loc);
  /// The token at `loc`, underlined.
  Place token(clang::SourceLocation loc);
  /// `range` underlined when it lies on one line, else a caret at its start.
  Place range(clang::SourceRange range);

  /// The index in `headers` of the actor header that brought `loc` in (the header itself or a
  /// file it includes); nullopt for the prelude, the main file or an unknown location.
  std::optional<std::size_t> header_of(clang::SourceLocation loc) const;

 private:
  std::optional<std::uint32_t> file_of(clang::FileID fid);
  std::optional<std::size_t> header_index(clang::FileID fid) const;

  const clang::SourceManager* clang_sources_;
  const clang::LangOptions* lang_;
  SourceManager* sources_;
  const std::vector<HeaderFile>* headers_;
  std::map<unsigned, std::optional<std::uint32_t>> files_;  ///< by FileID hash value
};

}  // namespace dfgc::actors
