#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <string>

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
  int firings;
};

std::size_t bytes_of(const Params& p) { return p.n * 4; }

constexpr std::array<Entry, 2> kEntries = {{
    {"firing", "p (P)", "A.cpu", 0, 0, nullptr, "p", "n=4", 0, 1},
    {"transfer", "p.m@A.cpu -> p.m@A.g0", "A.cpu>A.g0", 1, 1, bytes_of, "A.cpu -> A.g0", nullptr, 0,
     1},
}};

constexpr std::array<const char*, 2> kPeNames = {"A.cpu", "A.g0"};
constexpr std::array<const char*, 2> kPeKinds = {"cpu", "gpu"};

/// A run's report sinks with kEntries registered on two PEs (0: A.cpu, 1: A.g0).
struct Registered {
  dfg::Tracer tracer;
  dfg::Stats stats;
  dfg::Probes probes{tracer, &stats};

  Registered(bool trace, int cycles) : tracer(0, trace), stats(cycles, 1) {
    for (const char* pe : kPeNames) stats.add_pe(pe);
    dfg::register_entries(std::span<const Entry>(kEntries), Params{}, probes, &stats);
  }

  int write(const dfg::Options& options, bool overlap, std::int64_t iterations,
            bool complete = true) {
    return dfg::write_reports(options, tracer, &stats, overlap, iterations, kPeNames, kPeKinds,
                              std::span<const Entry>(kEntries), Params{}, complete);
  }
};

}  // namespace

TEST_CASE("run tables: reports are written as the options ask", "[run_tables]") {
  Registered run(false, 4);
  dfg::Options nothing;
  CHECK(run.write(nothing, true, 3) == 0);

  dfg::Options unwritable;
  unwritable.profile_file = "/nonexistent/dir/p.json";
  CHECK(run.write(unwritable, true, 3) == 1);
}

TEST_CASE("run tables: --stats-json writes the run's settings and every entry's times",
          "[run_tables]") {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "dfg_run_tables_stats.json";
  Registered run(false, 6);
  dfg::Stats& stats = run.stats;
  for (const double t : {0.004, 0.001, 0.002, 0.010}) stats.add_time(0, t);
  const dfg::Stats::Clock::time_point t0{};
  for (std::int64_t k = 0; k < 6; ++k) {
    stats.end_cycle(0, k, t0 + std::chrono::milliseconds(10 * k));
    stats.end_cycle(1, k, t0 + std::chrono::milliseconds(10 * k + 1));
  }

  const char* argv[] = {
      "app", "--stats-json", nullptr, "--no-overlap", "--sync=barrier", "--iterations", "5"};
  const std::string path = file.string();
  argv[2] = path.c_str();
  const dfg::RuntimeParam table[] = {{"n", 8}};
  const dfg::FlagsResult flags = dfg::parse_flags(7, argv, table);
  REQUIRE(flags.ok());
  REQUIRE(run.write(flags.options, false, 5) == 0);

  std::ifstream in(file);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::filesystem::remove(file);
  CHECK(j["format"] == "dfg-stats");
  CHECK(j["version"] == 1);
  CHECK(j["host"] == "A");
  CHECK(j["strategy"] == "no-overlap");
  CHECK(j["sync"] == "barrier");
  CHECK(j["iterations"] == 5);
  CHECK(j["warmup_cycles"] == 1);
  CHECK(j["params"] == nlohmann::json{{"n", 8}});
  CHECK(j["periods"] == 4);
  CHECK(j["period_s"].get<double>() == Approx(0.010));
  CHECK(j["iterations_per_s"].get<double>() == Approx(100.0));
  CHECK(j["bytes_per_s"].get<double>() == Approx(32 * 100.0));
  REQUIRE(j["entries"].size() == 2);
  const nlohmann::json& p = j["entries"][0];
  CHECK(p["kind"] == "firing");
  CHECK(p["name"] == "p (P)");
  CHECK(p["pe"] == "A.cpu");
  CHECK(p["count"] == 4);
  CHECK(p["min_s"].get<double>() == Approx(0.001));
  CHECK(p["median_s"].get<double>() == Approx(0.003));
  CHECK(p["mean_s"].get<double>() == Approx(0.00425));
  CHECK(p["max_s"].get<double>() == Approx(0.010));
  CHECK(j["entries"][1]["name"] == "p.m@A.cpu -> p.m@A.g0");
  CHECK(j["entries"][1]["count"] == 0);
  CHECK(j["peak_memory"].size() == 2);
  CHECK(j["peak_memory"][1]["pe"] == "A.g0");

  // --stats=period: the period only, no entry was timed.
  const char* period_argv[] = {"app", "--stats-json", path.c_str(), "--stats=period"};
  const dfg::FlagsResult period = dfg::parse_flags(4, period_argv, table);
  REQUIRE(period.ok());
  REQUIRE(run.write(period.options, true, 5) == 0);
  std::ifstream again(file);
  const nlohmann::json k = nlohmann::json::parse(again);
  std::filesystem::remove(file);
  CHECK(k["strategy"] == "overlap");
  CHECK(k["sync"] == "neighbours");
  CHECK(k["entries"].empty());
  CHECK(k["period_s"].get<double>() == Approx(0.010));

  dfg::Options unwritable;
  unwritable.stats_json_file = "/nonexistent/dir/s.json";
  CHECK(run.write(unwritable, true, 5) == 1);
}

TEST_CASE("stats: the JSON of a summary escapes names and writes null for an unmeasured period",
          "[stats]") {
  dfg::Stats stats(1, 0);
  stats.add_pe("A.cpu");
  stats.add_entry("firing", "q \"x\"\\\t", "A.cpu");
  const nlohmann::json j =
      nlohmann::json::parse(stats.json(stats.summary(), {"A", true, false, 1, {}}));
  CHECK(j["entries"][0]["name"] == "q \"x\"\\\t");
  CHECK(j["period_s"].is_null());
  CHECK(j["periods"] == 0);
  CHECK(j["params"].empty());
}

namespace {

dfg::Size count_of(const Params& p) { return dfg::Size(static_cast<std::int64_t>(p.n)) - 8; }

const dfg::RuntimeParam kRuntimeParams[] = {{"n", 8}};

}  // namespace

TEST_CASE("run tables: a program on one host accepts only its own host on rank 0 as --hostmap",
          "[run_tables]") {
  CHECK(dfg::one_host_hostmap_error("A=0", "A").empty());
  CHECK(dfg::one_host_hostmap_error(" A = 0 ", "A").empty());
  const std::string runs = "; this program runs one host, A, on rank 0 (it is not an MPI program)";
  CHECK(dfg::one_host_hostmap_error("Z=9", "A") == "error: --hostmap: unknown host 'Z'" + runs);
  CHECK(dfg::one_host_hostmap_error("A=1", "A") ==
        "error: --hostmap: expected A=0, got 'A=1'" + runs);
  CHECK(dfg::one_host_hostmap_error("A=0,B=1", "A") ==
        "error: --hostmap: expected A=0, got 'A=0,B=1'" + runs);
  CHECK(dfg::one_host_hostmap_error("junk", "A") ==
        "error: --hostmap: expected A=0, got 'junk'" + runs);
}

TEST_CASE("run tables: the start-up checks of a program on one host", "[run_tables]") {
  constexpr std::array<dfg::TokenSize<Params>, 1> kSizes = {
      {{"T", "uint8[n - 8]", "n", 1, count_of}}};
  dfg::Options o;
  o.params = {9};
  CHECK(dfg::start_up_error(o, "A", kSizes, Params{9}, kRuntimeParams).empty());
  CHECK(dfg::start_up_error(o, "A", kSizes, Params{8}, kRuntimeParams) ==
        "error: type T = uint8[n - 8] with n = 9: a token size must be positive, n - 8 is 0");
  o.hostmap = "Z=9";
  CHECK(dfg::start_up_error(o, "A", kSizes, Params{9}, kRuntimeParams)
            .rfind("error: --hostmap: unknown host 'Z'", 0) == 0);
  o.hostmap.clear();
  o.trace_file = "/nonexistent/dir/t.json";
  CHECK(
      dfg::start_up_error(o, "A", kSizes, Params{9}, kRuntimeParams) ==
      "error: --trace /nonexistent/dir/t.json: cannot open for writing (No such file or directory)");
  o.rebalance_ms = 200;
  CHECK(dfg::start_up_error(o, "A", kSizes, Params{9}, kRuntimeParams) ==
        "error: --rebalance: this program has no alternative mappings (a node moves only to the "
        "PEs its `migrates` names)");
  o.migrations.push_back({"i2", "A.cpu", 3});
  CHECK(dfg::start_up_error(o, "A", kSizes, Params{9}, kRuntimeParams) ==
        "error: --migrate: this program has no alternative mappings");
}

TEST_CASE("a run that stopped on an error writes what it measured, marked incomplete",
          "[run_tables]") {
  const auto dir = std::filesystem::temp_directory_path() / "dfg_reports_incomplete";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Registered run(true, 4);
  run.tracer.add_track("A.cpu");
  const std::string trace = (dir / "t.json").string(), json = (dir / "s.json").string(),
                    profile = (dir / "p.json").string();
  const char* argv[] = {"app",        "--trace",   trace.c_str(),  "--stats-json",
                        json.c_str(), "--profile", profile.c_str()};
  const dfg::FlagsResult flags = dfg::parse_flags(7, argv, {});
  REQUIRE(flags.ok());
  REQUIRE(run.write(flags.options, true, 3, false) == 0);
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
  };
  const nlohmann::json t = read(trace);
  CHECK(t[0]["name"] == "process_name");
  CHECK(t[1]["name"] == "process_labels");
  CHECK(t[1]["args"]["labels"] == "run stopped on an error");
  CHECK(read(json)["complete"] == false);
  CHECK(read(profile)["profile"]["complete"] == false);
  std::filesystem::remove_all(dir);
}
