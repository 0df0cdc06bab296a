#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <span>

#include "dfg/run_tables.hpp"

namespace {

struct Params {
  std::size_t n = 8;
};

struct Entry {
  const char* kind;
  const char* name;
  const char* where;
  int track;
  std::int64_t first_cycle;
  std::size_t (*bytes)(const Params&);
  const char* profile;
  const char* at;
  int step;
};

std::size_t bytes_of(const Params& p) { return p.n * 4; }

constexpr std::array<Entry, 2> kEntries = {{
    {"firing", "p (P)", "A.cpu", 0, 0, nullptr, "p", "n=4", 0},
    {"transfer", "p.m@A.cpu -> p.m@A.g0", "A.cpu>A.g0", 1, 1, bytes_of, "A.cpu -> A.g0", nullptr, 0},
}};

}  // namespace

TEST_CASE("run tables: initial windows start at each entry's first cycle", "[run_tables]") {
  const auto windows = dfg::initial_windows(std::span<const Entry>(kEntries), 10);
  REQUIRE(windows.size() == 2);
  CHECK(windows[0] == dfg::Window{0, 10});
  CHECK(windows[1] == dfg::Window{1, 11});
}

TEST_CASE("run tables: reports are written as the options ask", "[run_tables]") {
  dfg::Tracer tracer(0, false);
  dfg::Stats stats(4, 1);
  stats.add_pe("A.cpu");
  stats.add_pe("A.g0");
  dfg::Probes probes(tracer, &stats);
  dfg::register_entries(std::span<const Entry>(kEntries), Params{}, probes, &stats);
  const std::array<const char*, 2> names = {"A.cpu", "A.g0"};
  const std::array<const char*, 2> kinds = {"cpu", "gpu"};

  dfg::Options nothing;
  CHECK(dfg::write_reports(nothing, tracer, &stats, true, 3, names, kinds,
                           std::span<const Entry>(kEntries), Params{}) == 0);

  dfg::Options unwritable;
  unwritable.profile_file = "/nonexistent/dir/p.json";
  CHECK(dfg::write_reports(unwritable, tracer, &stats, true, 3, names, kinds,
                           std::span<const Entry>(kEntries), Params{}) == 1);
}

namespace {

dfg::Size count_of(const Params& p) { return dfg::Size(static_cast<std::int64_t>(p.n)) - 8; }

const dfg::RuntimeParam kRuntimeParams[] = {{"n", 8}};

}  // namespace

TEST_CASE("run tables: a program on one host accepts only its own host on rank 0 as --hostmap", "[run_tables]") {
  CHECK(dfg::one_host_hostmap_error("A=0", "A").empty());
  CHECK(dfg::one_host_hostmap_error(" A = 0 ", "A").empty());
  const std::string runs = "; this program runs one host, A, on rank 0 (it is not an MPI program)";
  CHECK(dfg::one_host_hostmap_error("Z=9", "A") == "error: --hostmap: unknown host 'Z'" + runs);
  CHECK(dfg::one_host_hostmap_error("A=1", "A") == "error: --hostmap: expected A=0, got 'A=1'" + runs);
  CHECK(dfg::one_host_hostmap_error("A=0,B=1", "A") == "error: --hostmap: expected A=0, got 'A=0,B=1'" + runs);
  CHECK(dfg::one_host_hostmap_error("junk", "A") == "error: --hostmap: expected A=0, got 'junk'" + runs);
}

TEST_CASE("run tables: the start-up checks of a program on one host", "[run_tables]") {
  constexpr std::array<dfg::TokenSize<Params>, 1> kSizes = {{{"T", "uint8[n - 8]", "n", 1, count_of}}};
  dfg::Options o;
  o.params = {9};
  CHECK(dfg::start_up_error(o, "A", kSizes, Params{9}, kRuntimeParams).empty());
  CHECK(dfg::start_up_error(o, "A", kSizes, Params{8}, kRuntimeParams) ==
        "error: type T = uint8[n - 8] with n = 9: a token size must be positive, n - 8 is 0");
  o.hostmap = "Z=9";
  CHECK(dfg::start_up_error(o, "A", kSizes, Params{9}, kRuntimeParams).rfind("error: --hostmap: unknown host 'Z'", 0) == 0);
  o.hostmap.clear();
  o.trace_file = "/nonexistent/dir/t.json";
  CHECK(dfg::start_up_error(o, "A", kSizes, Params{9}, kRuntimeParams) ==
        "error: --trace /nonexistent/dir/t.json: cannot open for writing (No such file or directory)");
  o.migrations.push_back({"i2", "A.cpu", 3});
  CHECK(dfg::start_up_error(o, "A", kSizes, Params{9}, kRuntimeParams) ==
        "error: --migrate: this program has no alternative mappings");
}
