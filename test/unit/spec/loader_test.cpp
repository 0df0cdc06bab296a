#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "spec/parser.hpp"

using namespace dfgc;
namespace fs = std::filesystem;

namespace {

/// load_spec of one path, with the diagnostics kept.
struct Loaded {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  std::unique_ptr<Spec> spec;

  explicit Loaded(const std::string& path) { spec = load_spec(path, sm, diags); }

  std::vector<std::string> module_names() const {
    std::vector<std::string> names;
    for (const auto& m : spec->modules) names.push_back(sm.name(m->file));
    return names;
  }
  const Diagnostic& only_diagnostic() const {
    REQUIRE(diags.diagnostics().size() == 1);
    return diags.diagnostics()[0];
  }
  std::string where(const Diagnostic& d) const {
    LineCol lc = sm.line_col(d.loc);
    return sm.name(d.loc.file) + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col);
  }
};

/// A fresh directory under the system's temporary directory, removed at the end of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::temp_directory_path() / ("dfgc_spec_" + name)) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string write(const std::string& relative, const std::string& text) const {
    fs::path p = path_ / relative;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace

TEST_CASE("a sample and its import load in dependency order", "[spec][loader]") {
  Loaded l("samples/overlap/two_hosts.dfg");
  INFO(l.diags.render());
  CHECK_FALSE(l.diags.has_errors());
  REQUIRE(l.spec);
  CHECK(l.module_names() ==
        std::vector<std::string>{"samples/overlap/overlap.dfg", "samples/overlap/two_hosts.dfg"});
  CHECK(l.spec->root().apps.size() == 1);
}

TEST_CASE("nested imports: each file once, imports first, paths normalised", "[spec][loader]") {
  TempDir dir("nested");
  dir.write("lib/c.dfg", "param C = 1;\n");
  dir.write("lib/a.dfg", "import \"c.dfg\";\nparam A = C;\n");
  dir.write("b.dfg", "import \"lib/./c.dfg\";\nparam B = C;\n");
  std::string root = dir.write("root.dfg", "import \"x/../lib/a.dfg\";\nimport \"b.dfg\";\n");
  Loaded l(root);
  INFO(l.diags.render());
  CHECK_FALSE(l.diags.has_errors());
  std::string base = dir.path().generic_string();
  CHECK(l.module_names() ==
        std::vector<std::string>{base + "/lib/c.dfg", base + "/lib/a.dfg", base + "/b.dfg", root});
}

TEST_CASE("a file reached through a symbolic link is the same file", "[spec][loader]") {
  TempDir dir("symlink");
  dir.write("real/c.dfg", "param C = 1;\n");
  fs::create_directory_symlink(dir.path() / "real", dir.path() / "alias");
  std::string root = dir.write("root.dfg", "import \"real/c.dfg\";\nimport \"alias/c.dfg\";\n");
  Loaded l(root);
  CHECK(l.spec->modules.size() == 2);
  REQUIRE(l.diags.warning_count() == 1);
  CHECK(l.diags.diagnostics()[0].message == "'alias/c.dfg' is imported twice");
}

TEST_CASE("a missing import is reported at its string", "[spec][loader]") {
  Loaded l("test/errors/import/missing_file.dfg");
  const Diagnostic& d = l.only_diagnostic();
  CHECK(d.message ==
        "cannot open imported file 'inputs/no_such_arch.dfg': No such file or directory");
  CHECK(l.where(d) == "test/errors/import/missing_file.dfg:2:8");
  CHECK(d.length == 25);
  REQUIRE(l.spec);
  CHECK(l.spec->modules.size() == 1);
}

TEST_CASE("an import of a directory", "[spec][loader]") {
  Loaded l("test/errors/import/directory.dfg");
  CHECK(l.only_diagnostic().message == "cannot open imported file 'inputs': Is a directory");
}

TEST_CASE("a missing root is reported without a location", "[spec][loader]") {
  Loaded l("test/errors/import/no_such_file.dfg");
  CHECK_FALSE(l.spec);
  const Diagnostic& d = l.only_diagnostic();
  CHECK_FALSE(d.loc.valid());
  CHECK(d.message ==
        "cannot open 'test/errors/import/no_such_file.dfg': No such file or directory");
  Loaded dir("test/errors/import/inputs");
  CHECK_FALSE(dir.spec);
  CHECK(dir.only_diagnostic().message == "cannot open 'test/errors/import/inputs': Is a directory");
}

TEST_CASE("an import cycle is reported at the import that closes it", "[spec][loader]") {
  Loaded l("test/errors/import/cycle.dfg");
  const Diagnostic& d = l.only_diagnostic();
  CHECK(d.message ==
        "import cycle: 'test/errors/import/cycle.dfg' imports itself through "
        "'test/errors/import/inputs/cycle_b.dfg'");
  CHECK(l.where(d) == "test/errors/import/inputs/cycle_b.dfg:2:8");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message ==
        "'test/errors/import/cycle.dfg' imports 'test/errors/import/inputs/cycle_b.dfg' here");
  CHECK(l.where(d.notes[0]) == "test/errors/import/cycle.dfg:2:8");
  CHECK(l.module_names() == std::vector<std::string>{"test/errors/import/inputs/cycle_b.dfg",
                                                     "test/errors/import/cycle.dfg"});
}

TEST_CASE("a longer cycle lists every file on it", "[spec][loader]") {
  Loaded l("test/errors/import/cycle3.dfg");
  const Diagnostic& d = l.only_diagnostic();
  CHECK(d.message ==
        "import cycle: 'test/errors/import/cycle3.dfg' imports itself through "
        "'test/errors/import/inputs/cycle3_b.dfg' -> 'test/errors/import/inputs/cycle3_c.dfg'");
  CHECK(l.where(d) == "test/errors/import/inputs/cycle3_c.dfg:1:8");
  REQUIRE(d.notes.size() == 2);
  CHECK(l.where(d.notes[0]) == "test/errors/import/cycle3.dfg:2:8");
  CHECK(l.where(d.notes[1]) == "test/errors/import/inputs/cycle3_b.dfg:1:8");
}

TEST_CASE("a file importing itself", "[spec][loader]") {
  Loaded l("test/errors/import/self_import.dfg");
  const Diagnostic& d = l.only_diagnostic();
  CHECK(d.message == "import cycle: 'test/errors/import/self_import.dfg' imports itself");
  CHECK(d.notes.empty());
}

TEST_CASE("importing the same file twice from one module is a warning", "[spec][loader]") {
  Loaded l("test/errors/import/duplicate.dfg");
  const Diagnostic& d = l.only_diagnostic();
  CHECK(d.severity == Severity::warning);
  CHECK(d.message == "'inputs/../inputs/./common.dfg' is imported twice");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "first imported here");
  CHECK(l.spec->modules.size() == 2);
}

TEST_CASE("errors in an imported file are reported in that file", "[spec][loader]") {
  Loaded l("test/errors/import/error_in_import.dfg");
  const Diagnostic& d = l.only_diagnostic();
  CHECK(d.message == "expected ';' after link declaration");
  CHECK(l.where(d) == "test/errors/import/inputs/bad_arch.dfg:3:37");
}

TEST_CASE("the error limit holds across files and stops the loading", "[spec][loader]") {
  TempDir dir("limit");
  std::string junk;
  for (int i = 0; i < 15; ++i) junk += "junk;\n";
  dir.write("a.dfg", junk);
  dir.write("b.dfg", junk);
  dir.write("c.dfg", "import \"missing.dfg\";\n");
  std::string root =
      dir.write("root.dfg", "import \"a.dfg\";\nimport \"b.dfg\";\nimport \"c.dfg\";\n");
  Loaded l(root);
  CHECK(l.diags.error_count() == 21);
  CHECK(l.diags.diagnostics().back().message == "too many errors; stopping");
  // c.dfg was never read.
  CHECK(l.sm.file_count() == 3);
}

TEST_CASE("a chain of imports deeper than 256 files is an error at the import too deep",
          "[spec][loader]") {
  TempDir dir("deep_chain");
  const int files = 2000;
  for (int i = 0; i < files; ++i) {
    std::string next = i + 1 < files ? "import \"f" + std::to_string(i + 1) + ".dfg\";\n" : "";
    dir.write("f" + std::to_string(i) + ".dfg", next + "param P" + std::to_string(i) + " = 1;\n");
  }
  Loaded l((dir.path() / "f0.dfg").string());
  const Diagnostic& d = l.only_diagnostic();
  CHECK(d.message == "imports are nested too deeply (more than 256 files in a chain)");
  CHECK(l.where(d) == (dir.path() / "f255.dfg").string() + ":1:8");
  CHECK(l.sm.file_count() == 256);
}

TEST_CASE("a FIFO is refused before it is opened, so nothing blocks", "[spec][loader]") {
  TempDir dir("fifo");
  std::string fifo = (dir.path() / "pipe.dfg").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::string root = dir.write("root.dfg", "import \"pipe.dfg\";\n");
  Loaded l(root);
  const Diagnostic& d = l.only_diagnostic();
  CHECK(d.message == "cannot open imported file 'pipe.dfg': not a regular file (a FIFO)");
  CHECK(l.where(d) == root + ":1:8");
}
