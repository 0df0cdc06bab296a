/// \file
/// What Clang may read for the actors: files that are not regular files are refused at the
/// #include that names them (a FIFO would block the check for ever, /dev/zero never ends), and
/// files reached through an absolute #include are inputs, not copies.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "actors_test_util.hpp"

using namespace dfgc;
using dfgc::test::ActorProgram;
namespace fs = std::filesystem;

namespace {

/// A fresh directory under the system's temporary directory, removed at the end of the test.
struct TempDir {
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() /
             ("dfgc_actor_files_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name) << text;
  }
  fs::path path;
};

const std::string kWork =
    "struct Work {\n  void fire(const float* a, float* b) { b[0] = a[0]; }\n};\n";

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& line : lines)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a header that includes a FIFO is refused at its #include, not waited on", "[actors]") {
  TempDir dir("fifo");
  REQUIRE(::mkfifo((dir.path / "pipe.hpp").c_str(), 0600) == 0);
  dir.write("work.hpp", "#pragma once\n#include \"pipe.hpp\"\n" + kWork);
  ActorProgram p;
  p.actor("Work").in("a").out("b").cpu((dir.path / "work.hpp").string(), "Work");
  p.check();
  CHECK(p.error_count() == 1);
  CHECK(mentions(p.reported(), "work.hpp:2:10: error: cannot open file"));
  CHECK(mentions(p.reported(), "a FIFO, not a regular file"));
}

TEST_CASE("a header that includes a symlink to /dev/zero or a file of /proc is refused",
          "[actors]") {
  TempDir dir("devices");
  fs::create_symlink("/dev/zero", dir.path / "zero.hpp");
  // Clang stops at a file it cannot open: one header for each case.
  dir.write("zero/work.hpp", "#pragma once\n#include \"../zero.hpp\"\n" + kWork);
  dir.write("proc/work.hpp", "#pragma once\n#include \"/proc/self/status\"\n" + kWork);
  ActorProgram zero;
  zero.actor("Work").in("a").out("b").cpu((dir.path / "zero/work.hpp").string(), "Work");
  zero.check();
  CHECK(mentions(zero.reported(), "work.hpp:2:10: error: cannot open file"));
  CHECK(mentions(zero.reported(), "a character device, not a regular file"));
  ActorProgram proc;
  proc.actor("Work").in("a").out("b").cpu((dir.path / "proc/work.hpp").string(), "Work");
  proc.check();
  CHECK(mentions(proc.reported(),
                 "work.hpp:2:10: error: cannot open file '/proc/self/status': a file of /proc"));
}

TEST_CASE("files reached through an absolute #include are inputs, not copies", "[actors]") {
  TempDir dir("absolute");
  // lib/ is far from the actors: copying it would lay the project's actors/ out from their
  // common directory, the temporary directory or '/'.
  dir.write("lib/helper.hpp", "#pragma once\n#include \"inner.hpp\"\n");
  dir.write("lib/inner.hpp", "#pragma once\ninline float twice(float x) { return 2 * x; }\n");
  dir.write("app/actors/near.hpp", "#pragma once\n");
  dir.write("app/actors/work.hpp",
            "#pragma once\n#include \"" + (dir.path / "lib/helper.hpp").string() +
                "\"\n#include \"" + (dir.path / "app/actors/near.hpp").string() + "\"\n" + kWork);
  ActorProgram p;
  p.actor("Work").in("a").out("b").cpu((dir.path / "app/actors/work.hpp").string(), "Work");
  p.check();
  CHECK(p.reported() == std::vector<std::string>{});
  const std::string actors = normal_absolute_path((dir.path / "app/actors").string());
  std::vector<std::string> copied;
  for (const auto& [path, text] : p.files().text) copied.push_back(path);
  // The file in the actors' own directory is copied though named by an absolute path.
  CHECK(copied == std::vector<std::string>{actors + "/near.hpp", actors + "/work.hpp"});
  const std::string lib = normal_absolute_path((dir.path / "lib").string());
  CHECK(p.files().external == std::set<std::string>{lib + "/helper.hpp", lib + "/inner.hpp"});
}
