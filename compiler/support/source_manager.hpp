/// \file
/// Owns the text of every file dfgc reads (specs, imports, actor headers) and maps byte offsets to
/// line and column, so that every diagnostic can quote its line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dfgc {

/// A position in a loaded file. File ids start at 1; file 0 means "no location" (command line).
struct SourceLoc {
  std::uint32_t file = 0;
  std::uint32_t offset = 0;

  bool valid() const { return file != 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

struct LineCol {
  std::uint32_t line = 0;  ///< 1-based
  std::uint32_t col = 0;   ///< 1-based, in bytes (as Clang counts)
};

class SourceManager {
 public:
  /// Reads `path` (kept as given: diagnostics print it as the user wrote it). Loading the same
  /// path twice returns the same id. On failure returns nullopt and sets `error` to the reason.
  std::optional<std::uint32_t> load_file(const std::string& path, std::string* error = nullptr);

  /// Adds an in-memory buffer under `name` (tests, fuzzing, the command line).
  std::uint32_t add_buffer(std::string name, std::string contents);

  /// The id of a file already loaded under exactly this path, if any.
  std::optional<std::uint32_t> find(const std::string& path) const;

  const std::string& name(std::uint32_t file) const;
  std::string_view contents(std::uint32_t file) const;
  std::size_t file_count() const { return files_.size(); }

  LineCol line_col(SourceLoc loc) const;
  /// The location of (line, col) in `file`, both 1-based; clamps to the file's end.
  SourceLoc loc_at(std::uint32_t file, std::uint32_t line, std::uint32_t col) const;
  /// The text of a line without its newline.
  std::string_view line_text(std::uint32_t file, std::uint32_t line) const;

 private:
  struct File {
    std::string name;
    std::string text;
    std::vector<std::uint32_t> line_starts;
  };
  const File& file(std::uint32_t id) const;
  static std::vector<std::uint32_t> compute_line_starts(std::string_view text);

  std::vector<File> files_;
};

}  // namespace dfgc
