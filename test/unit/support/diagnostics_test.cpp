#include <catch2/catch.hpp>

#include "support/diagnostics.hpp"

using namespace dfgc;

TEST_CASE("line and column are 1-based and count bytes", "[support]") {
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
        "dfgc: warning: from the command line\n"
        "s.dfg:1:10: error: unknown actor 'Foo'\n"
        "node x : Foo @ A.cpu;\n"
        "         ^~~\n"
        "s.dfg:1:1: note: node declared here\n"
        "node x : Foo @ A.cpu;\n"
        "^\n"
        "s.dfg:2:2: error: second\n"
        "\tbad line;\n"
        "\t^~~\n"
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
