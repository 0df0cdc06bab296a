/// \file
/// The depfile of `dfgc compile --depfile`: absolute paths, each once, escaped for Make and
/// Ninja; written whole or not at all.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "driver/depfile.hpp"

using dfgc::render_depfile;
using dfgc::write_depfile;

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

TEST_CASE("write_depfile replaces the file whole and reports what it cannot write", "[driver]") {
  const auto dir = std::filesystem::temp_directory_path() / "dfgc_depfile_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "app.d").string();
  std::ofstream(path) << "old contents that are longer than the new ones\n";
  REQUIRE_FALSE(write_depfile(path, "/p/m", {"/a.dfg"}));
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "/p/m: \\\n  /a.dfg\n");
  CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 1);  // no temporary left

  auto error = write_depfile((dir / "missing" / "app.d").string(), "/p/m", {});
  REQUIRE(error);
  CHECK(error->find("cannot write depfile") != std::string::npos);
  std::filesystem::remove_all(dir);
}
