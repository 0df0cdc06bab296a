#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>

#include "support/diagnostics.hpp"

using namespace dfgc;

TEST_CASE("line and column are 1-based", "[support]") {
  SourceManager sm;
  auto f = sm.add_buffer("a.dfg", "ab\ncd\n\nxyz");
  CHECK(sm.line_col({f, 0}).line == 1);
  CHECK(sm.line_col({f, 0}).col == 1);
  CHECK(sm.line_col({f, 4}).line == 2);
  CHECK(sm.line_col({f, 4}).col == 2);
  CHECK(sm.line_col({f, 7}).line == 4);
  CHECK(sm.line_text(f, 2) == "cd");
  CHECK(sm.line_text(f, 3).empty());
  CHECK(sm.line_text(f, 4) == "xyz");
  CHECK(sm.loc_at(f, 4, 2).offset == 8);
  CHECK(sm.loc_at(f, 99, 1).offset == 10);
}

TEST_CASE("loading a missing file reports why", "[support]") {
  SourceManager sm;
  std::string error;
  CHECK_FALSE(sm.load_file("/nonexistent/dir/x.dfg", &error));
  CHECK(error == "No such file or directory");
}

TEST_CASE("diagnostics render like clang, sorted by location, with a summary", "[support]") {
  SourceManager sm;
  auto f = sm.add_buffer("s.dfg", "node x : Foo @ A.cpu;\n\tbad line;\n");
  DiagnosticEngine d(sm);
  d.error({f, 23}, "second", 3);
  d.error({f, 9}, "unknown actor 'Foo'", 3).note({f, 0}, "node declared here");
  d.warning({}, "from the command line");
  CHECK(d.error_count() == 2);
  CHECK(d.warning_count() == 1);
  CHECK(d.render() ==
        "s.dfg:1:10: error: unknown actor 'Foo'\n"
        "node x : Foo @ A.cpu;\n"
        "         ^~~\n"
        "s.dfg:1:1: note: node declared here\n"
        "node x : Foo @ A.cpu;\n"
        "^\n"
        "s.dfg:2:2: error: second\n"
        "\tbad line;\n"
        "\t^~~\n"
        "dfgc: warning: from the command line\n"
        "1 warning and 2 errors generated.\n");
}

TEST_CASE("--Werror turns warnings into errors", "[support]") {
  SourceManager sm;
  DiagnosticEngine d(sm);
  d.set_warnings_as_errors(true);
  d.warning({}, "sync call");
  CHECK(d.error_count() == 1);
  CHECK(d.render() == "dfgc: error: sync call [-Werror]\n1 error generated.\n");
}

TEST_CASE("columns count characters, not bytes, after multi-byte UTF-8", "[support]") {
  SourceManager sm;
  // "é" is 2 bytes, "日" 3, "😀" 4: x is at byte 9 but is the 4th character.
  auto f = sm.add_buffer("u.dfg", "\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80x = 1;\n");
  CHECK(sm.line_col({f, 9}).col == 4);
  CHECK(sm.loc_at(f, 1, 4).offset == 9);
  // A malformed byte is one character.
  auto g = sm.add_buffer("bad.dfg", "\xFF\xC3y");
  CHECK(sm.line_col({g, 2}).col == 3);
  DiagnosticEngine d(sm);
  d.error({f, 9}, "here", 5);
  CHECK(d.render() ==
        "u.dfg:1:4: error: here\n"
        "\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80x = 1;\n"
        "   ^~~~~\n"
        "1 error generated.\n");
}

TEST_CASE("lines end at LF, CRLF or a lone CR", "[support]") {
  SourceManager sm;
  auto f = sm.add_buffer("m.dfg", "a\rbc\r\nd\n\re");
  CHECK(sm.line_col({f, 0}).line == 1);
  CHECK(sm.line_col({f, 2}).line == 2);
  CHECK(sm.line_col({f, 3}).col == 2);
  CHECK(sm.line_col({f, 6}).line == 3);
  CHECK(sm.line_col({f, 8}).line == 4);
  CHECK(sm.line_col({f, 9}).line == 5);
  CHECK(sm.line_text(f, 1) == "a");
  CHECK(sm.line_text(f, 2) == "bc");
  CHECK(sm.line_text(f, 3) == "d");
  CHECK(sm.line_text(f, 4).empty());
  CHECK(sm.line_text(f, 5) == "e");
  CHECK(sm.loc_at(f, 5, 1).offset == 9);
  CHECK(sm.loc_at(f, 2, 9).offset == 4);  // clamped to the end of the line
}

TEST_CASE("unprintable bytes of a quoted line are escaped; the caret follows", "[support]") {
  SourceManager sm;
  auto f = sm.add_buffer("b.hpp", std::string("a\0b\xFF\x1B"
                                              "cd",
                                              7));
  DiagnosticEngine d(sm);
  d.error({f, 5}, "here", 2);
  CHECK(d.render() ==
        "b.hpp:1:6: error: here\n"
        "a<U+0000>b<FF><U+001B>cd\n"
        "                      ^~\n"
        "1 error generated.\n");
}

TEST_CASE("file-wide diagnostics name the file and follow the located ones", "[support]") {
  SourceManager sm;
  auto f = sm.add_buffer("./x/../s.dfg", "param N = 1;\n");
  DiagnosticEngine d(sm);
  d.error({}, "from the command line");
  d.error(SourceLoc::whole_file(f), "no app in spec");
  d.error({f, 6}, "located");
  CHECK(d.render() ==
        "s.dfg:1:7: error: located\n"
        "param N = 1;\n"
        "      ^\n"
        "s.dfg: error: no app in spec\n"
        "dfgc: error: from the command line\n"
        "3 errors generated.\n");
}

TEST_CASE("only regular files of at most 16 MiB are read", "[support]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "dfgc_support_files";
  fs::remove_all(dir);
  fs::create_directories(dir);
  SourceManager sm;
  std::string error;

  CHECK_FALSE(sm.load_file("/dev/zero", &error));
  CHECK(error == "not a regular file (a character device)");

  // Refused before it is opened: opening a FIFO without a writer would block.
  std::string fifo = (dir / "pipe").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_FALSE(sm.load_file(fifo, &error));
  CHECK(error == "not a regular file (a FIFO)");

  CHECK_FALSE(sm.load_file(dir.string(), &error));
  CHECK(error == "Is a directory");

  fs::path big = dir / "big.dfg";
  std::ofstream(big).close();
  fs::resize_file(big, SourceManager::kMaxFileSize + 1);
  CHECK_FALSE(sm.load_file(big.string(), &error));
  CHECK(error == "file too large (16777217 bytes; dfgc reads at most 16 MiB)");
  fs::resize_file(big, SourceManager::kMaxFileSize);
  CHECK(sm.load_file(big.string(), &error));
  fs::remove_all(dir);
}
