/// \file
/// replace_target, PendingFile and replace_file: see replace_file.hpp.
#include "driver/replace_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include <fmt/format.h>

namespace dfgc {

namespace fs = std::filesystem;

namespace {

std::string message(int error) { return std::generic_category().message(error); }

/// What a file of mode `mode` is, for a refusal.
std::string_view kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

ReplaceTarget replace_target(const std::string& path) {
  if (path.empty()) return {{}, "an empty path"};
  std::error_code ec;
  fs::path file = fs::absolute(path, ec);
  if (ec) return {{}, ec.message()};
  file = file.lexically_normal();
  for (int links = 0; links <= 40; ++links) {
    struct stat st{};
    if (::lstat(file.c_str(), &st) != 0) {
      if (errno != ENOENT) return {{}, message(errno)};
      // A new file: its directory must exist.
      struct stat dir{};
      fs::path parent = file.parent_path();
      if (::stat(parent.c_str(), &dir) != 0)
        return {{}, fmt::format("its directory '{}' does not exist", parent.string())};
      if (!S_ISDIR(dir.st_mode))
        return {{}, fmt::format("'{}' is not a directory", parent.string())};
      return {file, {}};
    }
    if (S_ISREG(st.st_mode)) return {file, {}};
    if (!S_ISLNK(st.st_mode)) return {{}, fmt::format("{}, not a regular file", kind(st.st_mode))};
    fs::path link = fs::read_symlink(file, ec);
    if (ec) return {{}, ec.message()};
    file = (link.is_absolute() ? link : file.parent_path() / link).lexically_normal();
  }
  return {{}, "too many levels of symbolic links"};
}

PendingFile::PendingFile(fs::path target, std::string shown, std::string_view text)
    : target_(std::move(target)), shown_(std::move(shown)) {
  auto fail = [&](int error) {
    error_ = fmt::format("cannot write {}: {}", shown_, message(error));
  };
  struct stat st{};
  bool exists = ::stat(target_.c_str(), &st) == 0;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    temporary_ =
        target_.parent_path() / fmt::format(".{}.dfgc-tmp-{}-{}", target_.filename().string(),
                                            static_cast<long>(::getpid()), attempt);
    fd = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    fail(errno);
    temporary_.clear();
    return;
  }
  int error = 0;
  if (exists && ::fchmod(fd, st.st_mode & 07777) != 0) error = errno;
  for (std::size_t done = 0; !error && done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno != EINTR) error = errno;
    if (n == 0) error = EIO;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  if (!error && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (error) fail(error);
}

PendingFile::~PendingFile() {
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

std::optional<std::string> PendingFile::commit() {
  if (error_) return error_;
  if (::rename(temporary_.c_str(), target_.c_str()) != 0)
    return fmt::format("cannot write {}: {}", shown_, message(errno));
  temporary_.clear();
  int dir = ::open(target_.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return std::nullopt;
}

std::optional<std::string> replace_file(const std::string& path, std::string_view text) {
  ReplaceTarget target = replace_target(path);
  if (!target.error.empty()) return fmt::format("cannot write '{}': {}", path, target.error);
  PendingFile pending(target.file, fmt::format("'{}'", path), text);
  return pending.commit();
}

}  // namespace dfgc
