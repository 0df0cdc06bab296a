#include "dfg/outputs.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("dfg_outputs_test_" + name)).string();
}

}  // namespace

TEST_CASE("outputs: per-host file names", "[outputs]") {
  CHECK(dfg::per_host_file("trace.json", "A") == "trace.A.json");
  CHECK(dfg::per_host_file("out/t", "B") == "out/t.B");
  CHECK(dfg::per_host_file("out.d/t", "B") == "out.d/t.B");
}

TEST_CASE("outputs: a file is opened at start-up, and holds a report marked unwritten",
          "[outputs]") {
  const std::string path = temp_path("trace.json");
  std::ofstream(path) << "old contents";
  CHECK(dfg::open_output("--trace", path, false).empty());
  auto text = [&] {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  CHECK(text() ==
        "[{\"name\":\"process_labels\",\"ph\":\"M\",\"pid\":0,\"tid\":0,\"args\":{\"labels\":\"run "
        "ended before its trace was written\"}}]\n");
  CHECK(dfg::open_output("--stats-json", path, false).empty());
  CHECK(text() == "{\"format\": \"dfg-stats\", \"version\": 1, \"complete\": false}\n");
  CHECK(dfg::open_output("--profile", path, false).empty());
  CHECK(text() == "{\n  \"profile\": {\n    \"complete\": false\n  }\n}\n");
  std::remove(path.c_str());
  CHECK(dfg::open_output("--trace", path, false).empty());  // created
  CHECK(std::filesystem::exists(path));
  std::remove(path.c_str());
  CHECK(dfg::open_output("--trace", "", false).empty());  // not asked for
}

TEST_CASE("outputs: a path that cannot be written is refused at start-up", "[outputs]") {
  CHECK(
      dfg::open_output("--trace", "/nonexistent/dir/t.json", false) ==
      "error: --trace /nonexistent/dir/t.json: cannot open for writing (No such file or directory)");
  const std::string dir = std::filesystem::temp_directory_path().string();
  CHECK(dfg::open_output("--profile", dir, false) ==
        "error: --profile " + dir + ": is a directory, not a file");
  CHECK(dfg::open_output("--profile", dir, true) ==
        "error: --profile " + dir + ": is a directory, not a file");
}

TEST_CASE("outputs: a special file is written as it is on one host, refused on several",
          "[outputs]") {
  CHECK(dfg::open_output("--trace", "/dev/null", false).empty());
  CHECK(
      dfg::open_output("--trace", "/dev/full", true) ==
      "error: --trace /dev/full: not a regular file; on several hosts each host writes its own file, named FILE "
      "with the host's name before the extension");
  // On several hosts FILE itself is not created: each host opens its own name afterwards.
  const std::string path = temp_path("per_host.json");
  std::remove(path.c_str());
  CHECK(dfg::open_output("--trace", path, true).empty());
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("outputs: open_outputs checks --trace, then --profile", "[outputs]") {
  dfg::Options o;
  CHECK(dfg::open_outputs(o, false).empty());
  o.profile_file = "/nonexistent/p.json";
  CHECK(
      dfg::open_outputs(o, false) ==
      "error: --profile /nonexistent/p.json: cannot open for writing (No such file or directory)");
  o.trace_file = "/nonexistent/t.json";
  CHECK(dfg::open_outputs(o, false).rfind("error: --trace /nonexistent/t.json: ", 0) == 0);
}

TEST_CASE("outputs: a failed write to the standard output is an error at exit", "[outputs]") {
  std::ostringstream err;
  CHECK(dfg::finish_stdout(0, err) == 0);
  CHECK(dfg::finish_stdout(3, err) == 3);
  CHECK(err.str().empty());
  std::cout.setstate(std::ios::badbit);  // as a write to a full device leaves it
  CHECK(dfg::finish_stdout(0, err) == 1);
  CHECK(err.str() == "error: cannot write the standard output\n");
  CHECK(dfg::finish_stdout(2, err) == 2);
  std::cout.clear();
}
