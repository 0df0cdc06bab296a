#include "support/source_manager.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/assert.hpp"
#include "support/utf8.hpp"

namespace dfgc {

namespace {

/// What kind of file a stat says it is, for "not a regular file" messages.
const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

/// Why a file of this stat cannot be a source file, or nullopt.
std::optional<std::string> refusal(const struct stat& st) {
  if (S_ISDIR(st.st_mode)) return std::strerror(EISDIR);
  if (!S_ISREG(st.st_mode)) return fmt::format("not a regular file ({})", kind_of(st.st_mode));
  if (static_cast<std::uint64_t>(st.st_size) > SourceManager::kMaxFileSize)
    return fmt::format("file too large ({} bytes; dfgc reads at most {} MiB)", st.st_size,
                       SourceManager::kMaxFileSize >> 20);
  return std::nullopt;
}

/// Closes a file descriptor at scope exit.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::optional<std::uint32_t> SourceManager::find(const std::string& path) const {
  for (std::size_t i = 0; i < files_.size(); ++i)
    if (files_[i].name == path) return static_cast<std::uint32_t>(i + 1);
  return std::nullopt;
}

std::optional<std::uint32_t> SourceManager::load_file(const std::string& path, std::string* error) {
  if (auto id = find(path)) return id;
  auto fail = [&](std::string reason) -> std::optional<std::uint32_t> {
    if (error) *error = std::move(reason);
    return std::nullopt;
  };
  // Non-blocking, so that opening a FIFO does not wait for a writer; what is opened is then
  // checked (a device such as /dev/zero never ends) before anything is read.
  FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) return fail(std::strerror(errno));
  struct stat st{};
  if (::fstat(file.fd, &st) != 0) return fail(std::strerror(errno));
  if (auto reason = refusal(st)) return fail(*reason);
  // Read to the end, stopping past the limit: the file may have grown since fstat.
  std::string text;
  char chunk[64 * 1024];
  for (;;) {
    ssize_t n = ::read(file.fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(std::strerror(errno));
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
    if (text.size() > kMaxFileSize)
      return fail(fmt::format("file too large (dfgc reads at most {} MiB)", kMaxFileSize >> 20));
  }
  return add_buffer(path, std::move(text));
}

std::uint32_t SourceManager::add_buffer(std::string name, std::string contents) {
  DFGC_INTERNAL_ASSERT(contents.size() < SourceLoc::kWholeFile, "buffer '", name, "' too large");
  File f;
  f.name = std::move(name);
  f.text = std::move(contents);
  f.line_starts = compute_line_starts(f.text);
  files_.push_back(std::move(f));
  return static_cast<std::uint32_t>(files_.size());
}

const SourceManager::File& SourceManager::file(std::uint32_t id) const {
  DFGC_INTERNAL_ASSERT(id >= 1 && id <= files_.size(), "bad file id ", id);
  return files_[id - 1];
}

const std::string& SourceManager::name(std::uint32_t id) const { return file(id).name; }

std::string_view SourceManager::contents(std::uint32_t id) const { return file(id).text; }

std::vector<std::uint32_t> SourceManager::compute_line_starts(std::string_view text) {
  std::vector<std::uint32_t> starts{0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    if (text[i] == '\n' || text[i] == '\r') starts.push_back(static_cast<std::uint32_t>(i + 1));
  }
  return starts;
}

/// The offset where `line` (1-based, existing) ends, before its line end.
std::size_t SourceManager::line_end(const File& f, std::uint32_t line) const {
  if (line == f.line_starts.size()) return f.text.size();  // the last line has no line end
  std::size_t end = f.line_starts[line] - 1;               // its LF or lone CR
  if (f.text[end] == '\n' && end > f.line_starts[line - 1] && f.text[end - 1] == '\r') --end;
  return end;
}

LineCol SourceManager::line_col(SourceLoc loc) const {
  const File& f = file(loc.file);
  DFGC_INTERNAL_ASSERT(loc.has_position(), "line_col of a location without a position");
  std::size_t offset = std::min<std::size_t>(loc.offset, f.text.size());
  auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), offset);
  auto line = static_cast<std::uint32_t>(it - f.line_starts.begin());  // >= 1
  std::size_t begin = f.line_starts[line - 1];
  std::string_view before = std::string_view(f.text).substr(begin, offset - begin);
  return {line, static_cast<std::uint32_t>(utf8::count(before) + 1)};
}

SourceLoc SourceManager::loc_at(std::uint32_t id, std::uint32_t line, std::uint32_t col) const {
  const File& f = file(id);
  if (line == 0) line = 1;
  if (col == 0) col = 1;
  if (line > f.line_starts.size()) return {id, static_cast<std::uint32_t>(f.text.size())};
  std::string_view text = f.text;
  std::size_t offset = f.line_starts[line - 1];
  std::size_t end = line_end(f, line);
  for (std::uint32_t c = 1; c < col && offset < end; ++c)
    offset += utf8::decode(text.substr(offset)).length;
  return {id, static_cast<std::uint32_t>(offset)};
}

std::string_view SourceManager::line_text(std::uint32_t id, std::uint32_t line) const {
  const File& f = file(id);
  if (line == 0 || line > f.line_starts.size()) return {};
  std::size_t begin = f.line_starts[line - 1];
  return std::string_view(f.text).substr(begin, line_end(f, line) - begin);
}

}  // namespace dfgc
