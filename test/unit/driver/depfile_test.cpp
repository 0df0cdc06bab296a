/// \file
/// The depfile of `dfgc compile --depfile`: absolute paths, each once, escaped for Make and
/// Ninja; written whole or not at all, never over a device, an input or the project.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "driver/depfile.hpp"

using dfgc::render_depfile;

TEST_CASE("a depfile names the manifest and every input once, absolute", "[driver]") {
  const std::string cwd = std::filesystem::current_path().string();
  CHECK(render_depfile("/p/dfgc-manifest.txt", {"/a/x.dfg", "b/../y.hpp", "/a/x.dfg"}) ==
        "/p/dfgc-manifest.txt: \\\n  /a/x.dfg \\\n  " + cwd + "/y.hpp\n");
  CHECK(render_depfile("out/dfgc-manifest.txt", {}) == cwd + "/out/dfgc-manifest.txt:\n");
}

TEST_CASE("a depfile escapes spaces, '#' and '$' as Make and Ninja read them", "[driver]") {
  CHECK(render_depfile("/p/m", {"/my dir/a#1.hpp", "/cost$/b.hpp"}) ==
        "/p/m: \\\n  /my\\ dir/a\\#1.hpp \\\n  /cost$$/b.hpp\n");
}

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A fresh directory for one test case.
fs::path scratch(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("dfgc_depfile_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("replace_file replaces a regular file whole and leaves no temporary", "[driver]") {
  const auto dir = scratch("regular");
  const std::string path = (dir / "app.d").string();
  std::ofstream(path) << "old contents that are longer than the new ones\n";
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  REQUIRE_FALSE(dfgc::replace_file(path, "new\n"));
  CHECK(slurp(path) == "new\n");
  CHECK(fs::status(path).permissions() ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  CHECK(std::distance(fs::directory_iterator(dir), {}) == 1);  // no temporary left
  fs::remove_all(dir);
}

TEST_CASE("replace_file writes through a symlink and keeps the link", "[driver]") {
  const auto dir = scratch("symlink");
  std::ofstream(dir / "real.d") << "old\n";
  fs::create_symlink("real.d", dir / "link.d");
  REQUIRE_FALSE(dfgc::replace_file((dir / "link.d").string(), "new\n"));
  CHECK(fs::is_symlink(dir / "link.d"));
  CHECK(slurp(dir / "real.d") == "new\n");
  fs::create_symlink("loop2", dir / "loop1");
  fs::create_symlink("loop1", dir / "loop2");
  auto error = dfgc::replace_file((dir / "loop1").string(), "x");
  REQUIRE(error);
  CHECK(error->find("too many levels of symbolic links") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("replace_file refuses devices, FIFOs, directories and missing directories untouched",
          "[driver]") {
  const auto dir = scratch("refused");
  for (const char* device : {"/dev/null", "/dev/full"}) {
    auto error = dfgc::replace_file(device, "x");
    REQUIRE(error);
    CHECK(*error ==
          std::string("cannot write '") + device + "': a character device, not a regular file");
    CHECK(fs::is_character_file(device));
  }
  auto error = dfgc::replace_file(dir.string(), "x");
  REQUIRE(error);
  CHECK(error->find("a directory, not a regular file") != std::string::npos);
  error = dfgc::replace_file((dir / "missing" / "app.d").string(), "x");
  REQUIRE(error);
  CHECK(error->find("does not exist") != std::string::npos);
  CHECK(std::distance(fs::directory_iterator(dir), {}) == 0);
  fs::remove_all(dir);
}

TEST_CASE("a depfile may not be an input of the compile nor the output directory", "[driver]") {
  const auto dir = scratch("inputs");
  std::ofstream(dir / "app.dfg") << "spec\n";
  fs::create_symlink("app.dfg", dir / "alias.dfg");
  const std::vector<std::string> inputs = {(dir / "app.dfg").string()};
  auto refused = [&](const fs::path& path, const fs::path& out) {
    return dfgc::depfile_target(path.string(), out, inputs).error;
  };
  CHECK(refused(dir / "app.dfg", dir / "gen").find("a file the compile reads") !=
        std::string::npos);
  CHECK(refused(dir / "alias.dfg", dir / "gen").find("a file the compile reads") !=
        std::string::npos);
  CHECK(refused(dir / "gen", dir / "gen") ==
        "cannot write depfile '" + (dir / "gen").string() + "': it is the output directory");
  CHECK(refused(dir / "gen" / "app.d", dir / "gen/").find("inside the output directory") !=
        std::string::npos);
  CHECK(refused(dir / "gen.d", dir / "gen").empty());
  CHECK(slurp(dir / "app.dfg") == "spec\n");
  fs::remove_all(dir);
}
