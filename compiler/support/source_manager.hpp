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
/// A location may also name a whole file without a position in it (whole_file()).
struct SourceLoc {
  static constexpr std::uint32_t kWholeFile = 0xFFFFFFFF;

  std::uint32_t file = 0;
  std::uint32_t offset = 0;

  /// The file itself, for what concerns all of it ("no app in spec").
  static SourceLoc whole_file(std::uint32_t file) { return {file, kWholeFile}; }

  bool valid() const { return file != 0; }
  /// A place in the file's text (not the file as a whole, not the command line).
  bool has_position() const { return file != 0 && offset != kWholeFile; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

struct LineCol {
  std::uint32_t line = 0;  ///< 1-based
  std::uint32_t col = 0;   ///< 1-based, in characters (UTF-8 code points; a malformed byte is one)
};

/// Lines end at LF, CRLF or a lone CR.
class SourceManager {
 public:
  /// The largest file dfgc reads: specs and actor headers are far smaller.
  static constexpr std::uint64_t kMaxFileSize = 16 * 1024 * 1024;

  /// Reads `path` (kept as given: diagnostics print it as the user wrote it). Loading the same
  /// path twice returns the same id. On failure returns nullopt and sets `error` to the reason:
  /// the file cannot be opened, is not a regular file (a directory, a device such as /dev/zero,
  /// a FIFO: opened without blocking and refused before anything is read) or is larger than
  /// kMaxFileSize. Every reader of specs and actor headers goes through here.
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
  /// The text of a line without its line end.
  std::string_view line_text(std::uint32_t file, std::uint32_t line) const;

 private:
  struct File {
    std::string name;
    std::string text;
    std::vector<std::uint32_t> line_starts;
  };
  const File& file(std::uint32_t id) const;
  static std::vector<std::uint32_t> compute_line_starts(std::string_view text);
  std::size_t line_end(const File& f, std::uint32_t line) const;

  std::vector<File> files_;
};

}  // namespace dfgc
