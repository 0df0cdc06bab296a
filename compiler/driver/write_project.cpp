#include "driver/write_project.hpp"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>

#include "support/assert.hpp"

namespace dfgc {

namespace fs = std::filesystem;
using codegen::Files;
using codegen::kManifest;

// Over an existing directory DIR (one dfgc wrote before, or an empty one: a mount point, a
// symlink to a directory), the write goes through DIR/.dfgc-staging-<pid>/:
//   1. stage:  each file whose text differs from DIR's is written under staging/files/ (an
//              unchanged file is left alone, so that a rebuild has nothing to do);
//   2. commit: staging/journal (the old manifest's files to remove, the staged files to move) is
//              written as journal.tmp, synced and renamed to journal: that rename is the commit;
//   3. apply:  the journal's removals, then its moves (renames inside DIR's filesystem), the
//              manifest last;
//   4. clean:  the journal is removed, then the staging directory.
// A failure before the commit (a full disk, ...) removes the staging directory: the old project
// stays as it was. A kill before the commit leaves the old project complete and a staging
// directory without a journal, which the next compile into DIR removes. A kill after it leaves
// the journal, which the next compile into DIR carries out before anything else (each step can
// be done twice), which gives the new project complete.
// Into a new directory, the project is written whole into DIR.dfgc-tmp-<pid> beside it, renamed
// to DIR at the end: a kill leaves that sibling, which the next compile into DIR removes.
// A staging directory is only ever removed once its process is dead.
//
// No path read from disk (the manifest, a journal) leads out of DIR: each must be relative and
// normal (no '..', no '.', no empty part), and the directories on its way real ones inside DIR,
// not symlinks.

namespace {

constexpr std::string_view kStaging = ".dfgc-staging-";
constexpr std::string_view kSibling = ".dfgc-tmp-";

std::string quoted(const fs::path& path) { return fmt::format("'{}'", path.string()); }

/// The text of `path` when it is a regular file (not a symlink) of at most 1 GiB: a manifest, a
/// journal or an old project file that is a FIFO would block the compile, one that leads to
/// /dev/zero would grow it without end.
std::optional<std::string> read_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(path, ec)) || ec) return std::nullopt;
  if (fs::file_size(path, ec) > (std::uintmax_t{1} << 30) || ec) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Writes `text` to a new file `path` (its directory exists); with `sync`, to the disk too.
/// `injected` is an errno to fail with as if the disk were full (tests).
std::optional<std::string> write_whole(const fs::path& path, std::string_view text, bool sync,
                                       int injected = 0) {
  auto failed = [&](int error) {
    return fmt::format("cannot write {}: {}", quoted(path), std::generic_category().message(error));
  };
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return failed(errno);
  int error = injected;
  for (std::size_t done = 0; !error && done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno != EINTR) error = errno;
    if (n == 0) error = EIO;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  if (!error && sync && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (error) return failed(error);
  return std::nullopt;
}

/// Why `rel`, read from disk, is not a path dfgc may write: nullopt when it is one.
std::optional<std::string> bad_relative(std::string_view rel) {
  if (rel.empty()) return "an empty path";
  if (rel.front() == '/') return "an absolute path";
  std::size_t start = 0;
  for (std::size_t part = 0;; ++part) {
    std::size_t end = std::min(rel.find('/', start), rel.size());
    std::string_view name = rel.substr(start, end - start);
    if (name.empty() || name == "." || name == "..") return "not a normal relative path";
    if (part == 0 && name.starts_with(kStaging)) return "a dfgc staging directory";
    if (name.find_first_of(std::string_view("\0\r", 2)) != std::string_view::npos)
      return "a name with a control character";
    if (end == rel.size()) return std::nullopt;
    start = end + 1;
  }
}

enum class Use { remove, write };

/// Why `dir`/`rel` cannot be reached without leaving `dir`: a directory on its way is a symlink;
/// or, to write it, a file other than one of `going` (the files about to be removed). nullopt
/// when it can (a path that stops at a missing directory or, to remove it, at a file, leads
/// nowhere).
std::optional<std::string> bad_way(const fs::path& dir, const std::string& rel, Use use,
                                   const std::set<std::string>& going = {}) {
  std::error_code ec;
  for (std::size_t slash = rel.find('/'); slash != std::string::npos;
       slash = rel.find('/', slash + 1)) {
    std::string prefix = rel.substr(0, slash);
    fs::file_status status = fs::symlink_status(dir / prefix, ec);
    if (status.type() == fs::file_type::not_found || going.count(prefix)) return std::nullopt;
    if (fs::is_symlink(status))
      return fmt::format("reached through the symlink {}", quoted(dir / prefix));
    if (!fs::is_directory(status)) {
      if (use == Use::remove) return std::nullopt;
      return fmt::format("reached through {}, which is not a directory", quoted(dir / prefix));
    }
  }
  return std::nullopt;
}

/// Removes `dir`/`rel`'s directories that it leaves empty, from the deepest; never `dir`.
void remove_empty_parents(const fs::path& dir, std::string rel) {
  std::error_code ec;
  for (std::size_t slash = rel.rfind('/'); slash != std::string::npos; slash = rel.rfind('/')) {
    rel.resize(slash);
    if (!fs::is_empty(dir / rel, ec) || ec || !fs::remove(dir / rel, ec)) return;
  }
}

/// The pid in a staging directory's name after `prefix`, or 0.
long pid_after(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return 0;
  std::string_view digits = name.substr(prefix.size());
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos)
    return 0;
  return std::stol(std::string(digits));
}

/// Whether the staging directory of process `pid` is left over: that process is dead, or is this
/// one (which has not started writing yet).
bool stale(long pid) {
  if (pid == static_cast<long>(::getpid())) return true;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

/// One step of a journal.
struct Step {
  enum Kind { remove, move } kind;
  std::string path;
};

std::string journal_text(const std::vector<Step>& steps) {
  std::string out;
  for (const Step& s : steps)
    out += fmt::format("{} {}\n", s.kind == Step::remove ? "remove" : "move", s.path);
  return out;
}

/// A "remove PATH" / "move PATH" line per step; every path checked as the manifest's.
std::optional<std::string> parse_journal(const std::string& text, const fs::path& where,
                                         std::vector<Step>& steps) {
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    Step step{Step::remove, {}};
    if (line.starts_with("remove ")) {
      step.path = line.substr(7);
    } else if (line.starts_with("move ")) {
      step = {Step::move, line.substr(5)};
    } else {
      return fmt::format("{}:{}: not a journal line", where.string(), number);
    }
    if (auto why = bad_relative(step.path))
      return fmt::format("{}:{}: '{}' is {}", where.string(), number, step.path, *why);
    steps.push_back(std::move(step));
  }
  return std::nullopt;
}

class Writer {
 public:
  Writer(fs::path dir, const WriteHooks& hooks) : dir_(std::move(dir)), hooks_(hooks) {}

  std::optional<std::string> write(const Files& files);
  std::optional<std::string> recover();

 private:
  bool interrupted(std::string_view step) const {
    return hooks_.interrupt && hooks_.interrupt(step);
  }
  int injected_error(std::string_view path) const {
    return hooks_.write_error ? hooks_.write_error(path) : 0;
  }
  fs::path staging() const {
    return dir_ / fmt::format("{}{}", kStaging, static_cast<long>(::getpid()));
  }

  std::optional<std::string> old_files(std::set<std::string>& out) const;
  std::optional<std::string> write_fresh(const Files& files);
  std::optional<std::string> write_over(const Files& files, const std::set<std::string>& old);
  std::optional<std::string> apply(const fs::path& staging, const std::vector<Step>& steps) const;
  void remove_stale_siblings() const;

  fs::path dir_;
  const WriteHooks& hooks_;
};

/// The files of the manifest in `dir_`, each checked: an error names the first bad line.
std::optional<std::string> Writer::old_files(std::set<std::string>& out) const {
  fs::path path = dir_ / kManifest;
  auto text = read_file(path);
  if (!text)
    return fmt::format(
        "refusing to write into {}: the directory is not empty and dfgc did not write it (no {}); "
        "choose a new or empty directory",
        quoted(dir_), kManifest);
  std::istringstream in(*text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    auto why = bad_relative(line);
    if (!why) why = bad_way(dir_, line, Use::remove);
    if (why)
      return fmt::format(
          "{}:{}: '{}' is {}: dfgc lists only files inside {} and touches nothing else; "
          "correct the manifest or choose another directory",
          path.string(), number, line, *why, quoted(dir_));
    out.insert(line);
  }
  return std::nullopt;
}

/// Carries out `steps` of the staging directory `staging`; each can be done twice.
std::optional<std::string> Writer::apply(const fs::path& staging,
                                         const std::vector<Step>& steps) const {
  std::error_code ec;
  for (const Step& step : steps) {
    if (interrupted(fmt::format("{} {}", step.kind == Step::remove ? "remove" : "move", step.path)))
      return "interrupted";
    fs::path target = dir_ / step.path;
    if (auto why = bad_way(dir_, step.path, step.kind == Step::remove ? Use::remove : Use::write))
      return fmt::format("cannot write {}: it is {}", quoted(target), *why);
    if (step.kind == Step::remove) {
      fs::remove(target, ec);
      if (ec && ec != std::errc::not_a_directory)
        return fmt::format("cannot remove {}: {}", quoted(target), ec.message());
      remove_empty_parents(dir_, step.path);
      continue;
    }
    fs::path source = staging / "files" / step.path;
    if (auto why = bad_way(staging, "files/" + step.path, Use::remove))
      return fmt::format("cannot move {}: it is {}", quoted(source), *why);
    if (!fs::exists(fs::symlink_status(source, ec))) continue;  // moved before
    fs::create_directories(target.parent_path(), ec);
    if (!ec) fs::rename(source, target, ec);
    if (ec) return fmt::format("cannot write {}: {}", quoted(target), ec.message());
  }
  return std::nullopt;
}

/// Removes the directories DIR.dfgc-tmp-<pid> beside `dir_` whose process is dead.
void Writer::remove_stale_siblings() const {
  fs::path parent = dir_.parent_path().empty() ? fs::path(".") : dir_.parent_path();
  std::string prefix = dir_.filename().string() + std::string(kSibling);
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    long pid = pid_after(it->path().filename().string(), prefix);
    std::error_code ignored;
    if (pid > 0 && it->is_directory(ignored) && !it->is_symlink(ignored) && stale(pid))
      fs::remove_all(it->path(), ignored);
  }
}

std::optional<std::string> Writer::recover() {
  remove_stale_siblings();
  std::error_code ec;
  std::vector<fs::path> left;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    long pid = pid_after(it->path().filename().string(), kStaging);
    std::error_code ignored;
    if (pid == 0 || it->is_symlink(ignored)) continue;  // not a staging directory that dfgc made
    if (!stale(pid))
      return fmt::format("another dfgc (process {}) is writing into {}; if it is not, remove {}",
                         pid, quoted(dir_), quoted(it->path()));
    left.push_back(it->path());
  }
  if (ec) return fmt::format("cannot read {}: {}", quoted(dir_), ec.message());
  std::sort(left.begin(), left.end());
  for (const fs::path& staging : left) {
    if (auto journal = read_file(staging / "journal")) {
      std::vector<Step> steps;
      auto error = parse_journal(*journal, staging / "journal", steps);
      if (!error) error = apply(staging, steps);
      if (error)
        return fmt::format("cannot finish the write that an interrupted dfgc left in {}: {}",
                           quoted(staging), *error);
      fs::remove(staging / "journal", ec);
    }
    fs::remove_all(staging, ec);
    if (ec) return fmt::format("cannot remove {}: {}", quoted(staging), ec.message());
  }
  return std::nullopt;
}

std::optional<std::string> Writer::write_fresh(const Files& files) {
  fs::path tmp = dir_;
  tmp += fmt::format("{}{}", kSibling, static_cast<long>(::getpid()));
  // The directories made for it, undone on a failure.
  std::vector<fs::path> made;
  std::error_code ec;
  for (fs::path up = dir_.parent_path(); !up.empty() && !fs::exists(fs::symlink_status(up, ec));
       up = up.parent_path()) {
    made.push_back(up);
    if (up == up.parent_path()) break;
  }
  auto fail = [&](std::string error) {
    std::error_code ignored;
    fs::remove_all(tmp, ignored);
    for (const fs::path& d : made) fs::remove(d, ignored);
    return error;
  };
  fs::create_directories(tmp, ec);
  if (ec) return fail(fmt::format("cannot create {}: {}", quoted(tmp), ec.message()));
  for (const auto& [path, text] : files) {
    if (interrupted("stage " + path)) return "interrupted";
    fs::create_directories((tmp / path).parent_path(), ec);
    if (ec)
      return fail(
          fmt::format("cannot create {}: {}", quoted((tmp / path).parent_path()), ec.message()));
    if (auto error = write_whole(tmp / path, text, false, injected_error(path)))
      return fail(*error);
  }
  if (interrupted("commit")) return "interrupted";
  fs::rename(tmp, dir_, ec);
  if (ec) return fail(fmt::format("cannot create {}: {}", quoted(dir_), ec.message()));
  return std::nullopt;
}

std::optional<std::string> Writer::write_over(const Files& files,
                                              const std::set<std::string>& old) {
  std::error_code ec;
  std::set<std::string> going;
  for (const std::string& path : old)
    if (!files.count(path)) going.insert(path);
  // What to stage: every file that differs; checked before anything is written.
  std::vector<std::string> changed;
  for (const auto& [path, text] : files) {
    DFGC_INTERNAL_ASSERT(!bad_relative(path), "generated path '", path, "'");
    if (auto why = bad_way(dir_, path, Use::write, going))
      return fmt::format("cannot write {}: it is {}", quoted(dir_ / path), *why);
    fs::file_status status = fs::symlink_status(dir_ / path, ec);
    if (fs::is_directory(status))
      return fmt::format("cannot write {}: it is a directory", quoted(dir_ / path));
    auto current = fs::is_regular_file(status) ? read_file(dir_ / path) : std::nullopt;
    if (!current || *current != text) changed.push_back(path);
  }
  for (const std::string& path : going)
    if (fs::is_directory(fs::symlink_status(dir_ / path, ec)) && !fs::is_empty(dir_ / path, ec))
      return fmt::format("cannot remove {}: it is a directory that is not empty",
                         quoted(dir_ / path));
  // A file left by dfgc versions that wrote each file through its own temporary.
  for (const std::string& path : old) {
    fs::path leftover = dir_ / (path + ".dfgc-tmp");
    if (fs::is_regular_file(fs::symlink_status(leftover, ec))) fs::remove(leftover, ec);
  }
  if (changed.empty() && going.empty()) return std::nullopt;

  std::vector<Step> steps;
  for (const std::string& path : going) steps.push_back({Step::remove, path});
  for (const std::string& path : changed)
    if (path != kManifest) steps.push_back({Step::move, path});
  if (std::find(changed.begin(), changed.end(), kManifest) != changed.end())
    steps.push_back({Step::move, std::string(kManifest)});

  fs::path staging = this->staging();
  auto fail = [&](std::string error) {
    std::error_code ignored;
    fs::remove_all(staging, ignored);
    return error;
  };
  fs::create_directories(staging / "files", ec);
  if (ec) return fail(fmt::format("cannot create {}: {}", quoted(staging), ec.message()));
  for (const std::string& path : changed) {
    if (interrupted("stage " + path)) return "interrupted";
    fs::path file = staging / "files" / path;
    fs::create_directories(file.parent_path(), ec);
    if (ec)
      return fail(fmt::format("cannot create {}: {}", quoted(file.parent_path()), ec.message()));
    if (auto error = write_whole(file, files.at(path), false, injected_error(path)))
      return fail(*error);
  }
  if (interrupted("commit")) return "interrupted";
  if (auto error = write_whole(staging / "journal.tmp", journal_text(steps), true))
    return fail(*error);
  fs::rename(staging / "journal.tmp", staging / "journal", ec);
  if (ec)
    return fail(fmt::format("cannot write {}: {}", quoted(staging / "journal"), ec.message()));
  if (auto error = apply(staging, steps)) {
    if (*error == "interrupted") return error;
    return fmt::format(
        "{}; the rest of the new project waits in {}, and the next compile into {} finishes it",
        *error, quoted(staging), quoted(dir_));
  }
  if (interrupted("clean")) return "interrupted";
  fs::remove(staging / "journal", ec);
  fs::remove_all(staging, ec);
  return std::nullopt;
}

std::optional<std::string> Writer::write(const Files& files) {
  std::error_code ec;
  fs::file_status status = fs::status(dir_, ec);
  if (status.type() == fs::file_type::none)
    return fmt::format("cannot read {}: {}", quoted(dir_), ec.message());
  if (status.type() == fs::file_type::not_found) {
    if (fs::is_symlink(fs::symlink_status(dir_, ec)))
      return fmt::format("{} is a symlink to a directory that does not exist", quoted(dir_));
    remove_stale_siblings();
    return write_fresh(files);
  }
  if (!fs::is_directory(status))
    return fmt::format("{} exists and is not a directory", quoted(dir_));
  if (auto error = recover()) return error;
  std::set<std::string> old;
  if (!fs::is_empty(dir_, ec))
    if (auto error = old_files(old)) return error;
  return write_over(files, old);
}

/// `dir` without a trailing '/' (so that its name is its last part).
fs::path trimmed(const fs::path& dir) {
  fs::path out = dir.lexically_normal();
  if (out.filename().empty() && out.has_relative_path()) out = out.parent_path();
  return out;
}

}  // namespace

std::optional<std::string> write_project(const Files& files, const fs::path& dir,
                                         const WriteHooks& hooks) {
  return Writer(trimmed(dir), hooks).write(files);
}

std::optional<std::string> recover_project(const fs::path& dir) {
  WriteHooks none;
  return Writer(trimmed(dir), none).recover();
}

}  // namespace dfgc
