/// \file
/// Replacing one file the user named (a depfile, a spec that `dfgc map --apply` edits) so that it
/// is either the old file or the whole new one, whatever happens: the new text goes to a new
/// temporary beside the file, is synced and renamed over it. Only a regular file or a new path in
/// an existing directory is replaced; a symlink is written through (the file it names is
/// replaced, the link kept); a device, a FIFO, a directory or a socket is refused before anything
/// is written, as /dev/null or /dev/full would otherwise become regular files.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace dfgc {

/// The file that writing `path` replaces: `path` with its symlinks followed (up to 40 of them),
/// lexically normal and absolute. Or why `path` cannot be replaced: it is (or names) something
/// other than a regular file, its directory does not exist, or the links loop.
struct ReplaceTarget {
  std::filesystem::path file;  ///< set when `error` is empty
  std::string error;           ///< the reason alone ("a character device, not a regular file")
};
ReplaceTarget replace_target(const std::string& path);

/// A new file beside a target, written and synced but not yet in place: commit() renames it over
/// the target; the destructor removes it when commit() was not called, so a failure anywhere
/// before leaves the target as it was.
class PendingFile {
 public:
  /// Writes `text` into a new temporary beside `target` (a file replace_target() returned) with
  /// the target's permissions when it exists. `shown` names the file in messages ("'x.d'").
  PendingFile(std::filesystem::path target, std::string shown, std::string_view text);
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile();

  /// Why the temporary could not be written (nothing to commit), or nullopt.
  const std::optional<std::string>& error() const { return error_; }
  /// Renames the temporary over the target and syncs its directory; the reason on failure.
  std::optional<std::string> commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  std::string shown_;
  std::optional<std::string> error_;
};

/// replace_target(path), then a PendingFile committed at once: the reason on failure, with
/// nothing changed.
std::optional<std::string> replace_file(const std::string& path, std::string_view text);

}  // namespace dfgc
