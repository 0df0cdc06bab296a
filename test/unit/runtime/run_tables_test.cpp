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
