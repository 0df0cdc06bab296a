#include "driver/graphviz.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <system_error>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

extern char** environ;

namespace dfgc::driver {

namespace {

/// A file in the temporary directory holding `text`, removed with the object.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "dfgc-graph-XXXXXX.dot").string();
    int fd = ::mkstemps(pattern.data(), 4);
    if (fd < 0) return;
    path_ = pattern;
    std::string_view rest = text;
    while (!rest.empty()) {
      ssize_t n = ::write(fd, rest.data(), rest.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ok_ = false;
        break;
      }
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
    ok_ = ok_ && ::close(fd) == 0;
  }
  ~TempFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  bool ok() const { return !path_.empty() && ok_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool ok_ = true;
};

}  // namespace

std::optional<std::string> render_svg(const std::string& dot_text, std::string& svg) {
  TempFile input(dot_text);
  if (!input.ok()) return "cannot write the graph to a temporary file";
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0)
    return fmt::format("cannot run dot: {}", std::generic_category().message(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  std::string tsvg = "-Tsvg";
  std::string name = "dot";
  std::string file = input.path();
  char* argv[] = {name.data(), tsvg.data(), file.data(), nullptr};
  pid_t pid = 0;
  int spawned = ::posix_spawnp(&pid, "dot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(out[0]);
    if (spawned == ENOENT)
      return "--emit=svg draws the graph with Graphviz's 'dot', which is not on PATH; install it "
             "(apt-get install graphviz) or print the graph with --emit=dot";
    return fmt::format("cannot run dot: {}", std::generic_category().message(spawned));
  }
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(out[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    svg.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return fmt::format("dot -Tsvg failed (exit status {})",
                       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return std::nullopt;
}

}  // namespace dfgc::driver
