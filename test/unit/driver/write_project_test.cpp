// write_project(): what every point of an interrupted write leaves, a full disk, manifests and
// journals that point out of the directory, and directories that must be written into rather
// than replaced (a mount point, a symlink to a directory).
#include <catch2/catch.hpp>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver/write_project.hpp"

namespace fs = std::filesystem;
using namespace dfgc;

namespace {

/// A fresh directory under the system's temporary one, removed at the end.
struct Scratch {
  fs::path root;
  explicit Scratch(const std::string& name)
      : root(fs::temp_directory_path() /
             ("dfgc_write_test_" + std::to_string(::getpid()) + "_" + name)) {
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
};

void put(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// Every file under `dir` (relative path -> text), staging directories left out.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> out;
  if (!fs::exists(dir)) return out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
       ++it) {
    std::string rel = it->path().lexically_relative(dir).generic_string();
    if (rel.starts_with(".dfgc-staging-")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) out[rel] = text_of(it->path());
  }
  return out;
}

/// The names in `dir` that are dfgc's temporaries.
std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.find("dfgc-tmp") != std::string::npos || name.starts_with(".dfgc-staging-"))
      out.push_back(name);
  }
  return out;
}

codegen::Files with_manifest(codegen::Files files) {
  std::string manifest = "# the files dfgc wrote\n";
  for (const auto& [path, text] : files) manifest += path + "\n";
  files["dfgc-manifest.txt"] = manifest + "dfgc-manifest.txt\n";
  return files;
}

/// Two projects that share a file, change some, and each have files of their own.
const codegen::Files kOld = with_manifest({{"CMakeLists.txt", "same\n"},
                                           {"app.hpp", "old app\n"},
                                           {"old_only/deep/x.hpp", "gone soon\n"},
                                           {"runtime/dfg/a.hpp", "a old\n"}});
const codegen::Files kNew = with_manifest({{"CMakeLists.txt", "same\n"},
                                           {"app.hpp", "new app\n"},
                                           {"rank_A.cpp", "new rank\n"},
                                           {"runtime/dfg/a.hpp", "a new\n"},
                                           {"runtime/dfg/b.hpp", "b new\n"}});

std::map<std::string, std::string> as_tree(const codegen::Files& files, bool with_user_file) {
  std::map<std::string, std::string> out(files.begin(), files.end());
  if (with_user_file) out["build/keep"] = "mine\n";
  return out;
}

/// The steps of writing kNew over kOld (or into an empty directory), in order.
std::vector<std::string> steps_of_write(const fs::path& dir, const codegen::Files& before) {
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  if (!before.empty()) REQUIRE_FALSE(write_project(before, dir));
  std::vector<std::string> steps;
  WriteHooks hooks;
  hooks.interrupt = [&](std::string_view step) {
    steps.emplace_back(step);
    return false;
  };
  REQUIRE_FALSE(write_project(kNew, dir, hooks));
  return steps;
}

long dead_pid() {
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

}  // namespace

TEST_CASE("write: a kill at any step leaves the old project or a journal that finishes the new one",
          "[codegen][write]") {
  Scratch s("kill");
  fs::path dir = s.root / "gen";
  std::vector<std::string> steps = steps_of_write(dir, kOld);
  REQUIRE(steps.size() > 8);
  auto old_tree = as_tree(kOld, true), new_tree = as_tree(kNew, true);
  for (const std::string& stop : steps) {
    CAPTURE(stop);
    fs::remove_all(dir);
    REQUIRE_FALSE(write_project(kOld, dir));
    put(dir / "build" / "keep", "mine\n");
    WriteHooks hooks;
    hooks.interrupt = [&](std::string_view step) { return step == stop; };
    REQUIRE(write_project(kNew, dir, hooks) == "interrupted");
    auto left = tree(dir);
    bool journal = false;
    for (const auto& entry : fs::directory_iterator(dir))
      journal = journal || fs::exists(entry.path() / "journal");
    // Before the commit: the old project, whole. After it: a journal, whatever the files are.
    if (!journal) CHECK(left == old_tree);
    if (stop.starts_with("stage") || stop == "commit") CHECK_FALSE(journal);
    if (stop.starts_with("move") || stop.starts_with("remove")) CHECK(journal);
    REQUIRE_FALSE(recover_project(dir));
    CHECK(tree(dir) == (journal ? new_tree : old_tree));
    CHECK(temporaries(dir).empty());
    // The next compile writes over whatever the recovery left.
    REQUIRE_FALSE(write_project(kNew, dir));
    CHECK(tree(dir) == new_tree);
  }
}

TEST_CASE("write: a kill while writing a new directory leaves none, and its temporary goes",
          "[codegen][write]") {
  Scratch s("fresh");
  fs::path dir = s.root / "gen";
  for (const std::string& stop : steps_of_write(dir, {})) {
    CAPTURE(stop);
    fs::remove_all(dir);
    WriteHooks hooks;
    hooks.interrupt = [&](std::string_view step) { return step == stop; };
    REQUIRE(write_project(kNew, dir, hooks) == "interrupted");
    CHECK_FALSE(fs::exists(dir));
    REQUIRE_FALSE(write_project(kNew, dir));
    CHECK(tree(dir) == as_tree(kNew, false));
    CHECK(temporaries(s.root).empty());
  }
}

TEST_CASE("write: a full disk leaves the old project as it was, or nothing", "[codegen][write]") {
  Scratch s("full");
  fs::path dir = s.root / "gen";
  REQUIRE_FALSE(write_project(kOld, dir));
  WriteHooks full;
  full.write_error = [](std::string_view path) { return path == "runtime/dfg/b.hpp" ? ENOSPC : 0; };
  auto error = write_project(kNew, dir, full);
  REQUIRE(error);
  CHECK(error->find("No space left on device") != std::string::npos);
  CHECK(tree(dir) == as_tree(kOld, false));
  CHECK(temporaries(dir).empty());

  fs::path fresh = s.root / "new" / "deeper" / "gen";
  REQUIRE(write_project(kNew, fresh, full));
  CHECK_FALSE(fs::exists(s.root / "new"));  // not even the directories made for it
  CHECK(temporaries(s.root).empty());
}

TEST_CASE("write: a manifest line out of the directory is refused, and nothing outside is touched",
          "[codegen][write]") {
  Scratch s("manifest");
  fs::path dir = s.root / "gen";
  put(s.root / "outside" / "sub" / "f", "not dfgc's\n");
  fs::path outside = fs::absolute(s.root / "outside" / "sub" / "f");
  REQUIRE_FALSE(write_project(kOld, dir));
  const std::string manifest = text_of(dir / "dfgc-manifest.txt");
  int line = 0;
  for (char c : manifest) line += c == '\n';
  for (std::string bad : {outside.string(), std::string("/nonexistent/x"), std::string("/"),
                          std::string("../outside/sub/f"),
                          std::string("runtime/../../outside/sub/f"), std::string("./app.hpp"),
                          std::string("runtime//dfg/a.hpp"), std::string(".dfgc-staging-1/x")}) {
    CAPTURE(bad);
    put(dir / "dfgc-manifest.txt", manifest + bad + "\n");
    auto error = write_project(kNew, dir);
    REQUIRE(error);
    CHECK(error->find("dfgc-manifest.txt:" + std::to_string(line + 1) + ": '" + bad + "'") !=
          std::string::npos);
    CHECK(text_of(outside) == "not dfgc's\n");
    CHECK(tree(dir).at("app.hpp") == "old app\n");  // refused before anything was written
  }

  // A directory of the manifest replaced by a symlink that leads out.
  put(dir / "dfgc-manifest.txt", manifest + "sub/f\n");
  fs::create_directory_symlink(fs::absolute(s.root / "outside" / "sub"), dir / "sub");
  auto error = write_project(kNew, dir);
  REQUIRE(error);
  CHECK(error->find("reached through the symlink") != std::string::npos);
  CHECK(text_of(outside) == "not dfgc's\n");
}

TEST_CASE("write: a generated file is never written through a symlink out of the directory",
          "[codegen][write]") {
  Scratch s("link_out");
  fs::path dir = s.root / "gen";
  REQUIRE_FALSE(write_project(kOld, dir));
  fs::create_directories(s.root / "outside");
  fs::remove_all(dir / "runtime");
  fs::create_directory_symlink(fs::absolute(s.root / "outside"), dir / "runtime");
  auto error = write_project(kNew, dir);
  REQUIRE(error);
  CHECK(error->find("reached through the symlink") != std::string::npos);
  CHECK(fs::is_empty(s.root / "outside"));
}

TEST_CASE("write: a journal left by a dead process is checked as the manifest is",
          "[codegen][write]") {
  Scratch s("journal");
  fs::path dir = s.root / "gen";
  put(s.root / "outside" / "f", "not dfgc's\n");
  REQUIRE_FALSE(write_project(kOld, dir));
  fs::path staging = dir / (".dfgc-staging-" + std::to_string(dead_pid()));
  put(staging / "journal", "remove " + fs::absolute(s.root / "outside" / "f").string() + "\n");
  auto error = write_project(kNew, dir);
  REQUIRE(error);
  CHECK(error->find("an absolute path") != std::string::npos);
  CHECK(fs::exists(s.root / "outside" / "f"));

  // A staging directory that is a symlink out is not dfgc's: its files are not moved in.
  fs::remove_all(staging);
  put(s.root / "outside" / "journal", "move app.hpp\n");
  put(s.root / "outside" / "files" / "app.hpp", "not dfgc's\n");
  fs::create_directory_symlink(fs::absolute(s.root / "outside"), staging);
  REQUIRE_FALSE(write_project(kNew, dir));
  CHECK(text_of(dir / "app.hpp") == "new app\n");
  CHECK(text_of(s.root / "outside" / "files" / "app.hpp") == "not dfgc's\n");
}

TEST_CASE("write: an empty directory, a mount point or a symlink to one, is written into",
          "[codegen][write]") {
  Scratch s("empty");
  fs::create_directories(s.root / "mount");
  struct stat before{};
  REQUIRE(::stat((s.root / "mount").c_str(), &before) == 0);
  REQUIRE_FALSE(write_project(kNew, s.root / "mount"));
  struct stat after{};
  REQUIRE(::stat((s.root / "mount").c_str(), &after) == 0);
  CHECK(before.st_ino == after.st_ino);  // the same directory, not one renamed over it
  CHECK(tree(s.root / "mount") == as_tree(kNew, false));

  fs::create_directories(s.root / "target");
  fs::create_directory_symlink("target", s.root / "link");
  REQUIRE_FALSE(write_project(kNew, s.root / "link/"));
  CHECK(fs::is_symlink(s.root / "link"));
  CHECK(tree(s.root / "target") == as_tree(kNew, false));
  REQUIRE_FALSE(write_project(kOld, s.root / "link"));
  CHECK(fs::is_symlink(s.root / "link"));
  CHECK(tree(s.root / "target") == as_tree(kOld, false));
  CHECK(temporaries(s.root).empty());

  auto dangling = s.root / "dangling";
  fs::create_directory_symlink("nowhere", dangling);
  auto error = write_project(kNew, dangling);
  REQUIRE(error);
  CHECK(error->find("does not exist") != std::string::npos);
}

TEST_CASE("write: staging directories of dead processes go, a live one's stops the write",
          "[codegen][write]") {
  Scratch s("stale");
  fs::path dir = s.root / "gen";
  REQUIRE_FALSE(write_project(kOld, dir));
  std::string sibling = "gen.dfgc-tmp-" + std::to_string(dead_pid());
  put(dir / (".dfgc-staging-" + std::to_string(dead_pid())) / "files" / "app.hpp", "half\n");
  put(s.root / sibling / "app.hpp", "half\n");
  put(s.root / "gen.dfgc-tmp-notapid" / "keep", "mine\n");
  REQUIRE_FALSE(write_project(kNew, dir));
  CHECK(tree(dir) == as_tree(kNew, false));
  CHECK(temporaries(dir).empty());
  CHECK_FALSE(fs::exists(s.root / sibling));
  CHECK(fs::exists(s.root / "gen.dfgc-tmp-notapid" / "keep"));

  // An empty directory whose first write was killed: only the staging directory in it.
  fs::path mount = s.root / "mount";
  put(mount / (".dfgc-staging-" + std::to_string(dead_pid())) / "files" / "app.hpp", "half\n");
  REQUIRE_FALSE(write_project(kNew, mount));
  CHECK(tree(mount) == as_tree(kNew, false));

  fs::path live = dir / (".dfgc-staging-" + std::to_string(::getppid()));
  fs::create_directories(live);
  auto error = write_project(kOld, dir);
  REQUIRE(error);
  CHECK(error->find("is writing into") != std::string::npos);
  CHECK(tree(dir) == as_tree(kNew, false));
}

TEST_CASE(
    "write: an unchanged file is left alone, the old manifest's others go with their directories",
    "[codegen][write]") {
  Scratch s("unchanged");
  fs::path dir = s.root / "gen";
  REQUIRE_FALSE(write_project(kOld, dir));
  struct stat before{};
  REQUIRE(::stat((dir / "CMakeLists.txt").c_str(), &before) == 0);
  put(dir / "app.hpp.dfgc-tmp", "trunc");  // left by an older dfgc
  REQUIRE_FALSE(write_project(kNew, dir));
  struct stat after{};
  REQUIRE(::stat((dir / "CMakeLists.txt").c_str(), &after) == 0);
  CHECK(before.st_ino == after.st_ino);
  CHECK_FALSE(fs::exists(dir / "old_only"));
  CHECK(tree(dir) == as_tree(kNew, false));
}

TEST_CASE("writing refuses a foreign directory, replaces its own, keeps other files", "[write]") {
  fs::path root =
      fs::temp_directory_path() / ("dfgc_write_refuse_test_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "foreign");
  std::ofstream(root / "foreign" / "notes.txt") << "mine\n";
  codegen::Files files = {
      {"a.txt", "one\n"}, {"sub/b.txt", "two\n"}, {"dfgc-manifest.txt", "a.txt\nsub/b.txt\n"}};

  auto refused = write_project(files, root / "foreign");
  REQUIRE(refused);
  CHECK(refused->find("refusing to write into") != std::string::npos);
  CHECK_FALSE(fs::exists(root / "foreign" / "a.txt"));

  REQUIRE_FALSE(write_project(files, root / "gen"));
  CHECK(fs::exists(root / "gen" / "sub" / "b.txt"));
  fs::create_directories(root / "gen" / "build");
  std::ofstream(root / "gen" / "build" / "keep") << "x\n";
  codegen::Files next = {{"a.txt", "uno\n"}, {"dfgc-manifest.txt", "a.txt\n"}};
  REQUIRE_FALSE(write_project(next, root / "gen"));
  CHECK_FALSE(fs::exists(root / "gen" / "sub"));  // in the old manifest only: removed
  CHECK(fs::exists(root / "gen" / "build" / "keep"));
  std::ifstream in(root / "gen" / "a.txt");
  std::string line;
  std::getline(in, line);
  CHECK(line == "uno");
  for (const auto& entry : fs::directory_iterator(root))
    CHECK(entry.path().filename().string().find("dfgc-tmp") == std::string::npos);
  fs::remove_all(root);
}
