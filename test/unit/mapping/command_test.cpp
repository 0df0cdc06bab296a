#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <csignal>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "driver/commands.hpp"
#include "mapping/tune.hpp"

using namespace dfgc;
namespace fs = std::filesystem;

namespace {

const fs::path kSample = fs::path(DFGC_SOURCE_DIR) / "samples" / "granulometry";

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Runs `dfgc map` with `args`; returns its exit status and what it printed to stdout.
std::pair<int, std::string> map(std::vector<std::string> args) {
  std::ostringstream out;
  auto* old = std::cout.rdbuf(out.rdbuf());
  std::vector<std::string_view> views = {"map"};
  views.insert(views.end(), args.begin(), args.end());
  int status = driver::run_command(views);
  std::cout.rdbuf(old);
  return {status, out.str()};
}

/// The sample in a fresh directory, with `edits` (from, to) made to its spec.
fs::path copy_sample(const std::vector<std::pair<std::string, std::string>>& edits) {
  fs::path dir = fs::temp_directory_path() / "dfgc_map_command_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string spec = read(kSample / "granulometry.dfg");
  for (const auto& [from, to] : edits) {
    auto at = spec.find(from);
    REQUIRE(at != std::string::npos);
    spec.replace(at, from.size(), to);
  }
  std::ofstream(dir / "granulometry.dfg", std::ios::binary) << spec;
  fs::copy_file(kSample / "costs.json", dir / "costs.json");
  return dir;
}

}  // namespace

TEST_CASE("granulometry: the optimiser finds the paper's split, openings 1-28 and 29-40",
          "[mapping][granulometry]") {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  SemaOptions sema;
  sema.spec_file = (kSample / "granulometry.dfg").string();
  sema.allow_free_nodes = true;
  auto spec = load_spec(sema.spec_file, sources, diags);
  REQUIRE(spec);
  auto program = analyze(*spec, sema, sources, diags);
  auto costs = mapping::load_costs((kSample / "costs.json").string(), sources, diags);
  INFO(diags.render());
  REQUIRE(program);
  REQUIRE(costs);
  mapping::SearchOptions o;
  auto result = mapping::tune_and_search(*spec, *program, sema, *costs, o, sources, diags);
  REQUIRE(result);
  CHECK(result->combinations == 39);
  REQUIRE(result->best.size() == 6);
  const auto& best = result->best.front();
  REQUIRE(best.tuned.size() == 1);
  CHECK(best.tuned[0].param == "split");
  CHECK(best.tuned[0].value == 28);
  // Opening k costs 0.25 ms * 2k: the tail's openings 29..40 take 0.25 * (40 * 41 - 28 * 29)
  // = 207 ms, the head's 203 ms; plus the 0.1 ms cycle overhead.
  CHECK(best.candidate.period == Approx(207.1e-3));
  CHECK(result->best[1].tuned[0].value == 29);  // 217.5 ms, then 27: 221 ms
  CHECK(result->best[2].tuned[0].value == 27);
}

TEST_CASE("--apply rewrites the placements and the tuned value, nothing else", "[mapping][apply]") {
  fs::path dir = copy_sample({{"@ A.g0 {", "@ any gpu {"}, {"@ A.g1 {", "@ A.* {"}});
  std::string before = read(dir / "granulometry.dfg");
  auto [status, out] = map(
      {(dir / "granulometry.dfg").string(), "--costs", (dir / "costs.json").string(), "--apply"});
  INFO(out);
  REQUIRE(status == 0);
  std::string expected = before;
  for (const auto& [from, to] :
       std::vector<std::pair<std::string, std::string>>{{"split = 20 in", "split = 28 in"},
                                                        {"@ any gpu {", "@ A.g0 {"},
                                                        {"@ A.* {", "@ A.g1 {"}})
    expected.replace(expected.find(from), from.size(), to);
  CHECK(read(dir / "granulometry.dfg") == expected);
  CHECK(out.find("param split = 28 in [1, OPENINGS - 1];") != std::string::npos);
  // Applied, the spec has nothing left to choose but the split, which now is already the best.
  auto [again, out2] = map(
      {(dir / "granulometry.dfg").string(), "--costs", (dir / "costs.json").string(), "--apply"});
  CHECK(again == 0);
  CHECK(read(dir / "granulometry.dfg") == expected);
}

TEST_CASE("--apply on a full disk leaves the spec whole and says why", "[mapping][apply]") {
  fs::path dir = copy_sample({{"@ A.g0 {", "@ any gpu {"}, {"@ A.g1 {", "@ A.* {"}});
  std::string before = read(dir / "granulometry.dfg");
  // A file size limit below the spec's size: every write past it fails with EFBIG, as on a full
  // disk. The spec was truncated in place before it was written through a temporary.
  struct rlimit old{};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
  auto* handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old;
  small.rlim_cur = before.size() / 2;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::ostringstream err;
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  auto [status, out] = map(
      {(dir / "granulometry.dfg").string(), "--costs", (dir / "costs.json").string(), "--apply"});
  std::cerr.rdbuf(old_err);
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, handler);
  INFO(err.str());
  CHECK(status == 1);
  CHECK(err.str().find("cannot write '" + (dir / "granulometry.dfg").string() +
                       "': File too large") != std::string::npos);
  CHECK(read(dir / "granulometry.dfg") == before);
  CHECK(std::distance(fs::directory_iterator(dir), {}) == 2);  // the spec and costs.json only
}

TEST_CASE("--apply writes through a symlinked spec and keeps the link", "[mapping][apply]") {
  fs::path dir = copy_sample({{"@ A.g0 {", "@ any gpu {"}, {"@ A.g1 {", "@ A.* {"}});
  fs::rename(dir / "granulometry.dfg", dir / "real.dfg");
  fs::create_symlink("real.dfg", dir / "granulometry.dfg");
  auto [status, out] = map(
      {(dir / "granulometry.dfg").string(), "--costs", (dir / "costs.json").string(), "--apply"});
  INFO(out);
  CHECK(status == 0);
  CHECK(fs::is_symlink(dir / "granulometry.dfg"));
  CHECK(read(dir / "real.dfg").find("split = 28 in") != std::string::npos);
}

TEST_CASE("dfgc map prints the same report every run", "[mapping][determinism]") {
  fs::path dir = copy_sample({{"@ A.g0 {", "@ any {"}, {"@ A.g1 {", "@ any gpu {"}});
  std::vector<std::string> args = {(dir / "granulometry.dfg").string(), "--costs",
                                   (dir / "costs.json").string(), "--explain"};
  auto first = map(args);
  auto second = map(args);
  CHECK(first.first == 0);
  CHECK(first.second == second.second);
  CHECK(first.second.find("bottleneck: A.g1 firings") != std::string::npos);
}

TEST_CASE("--evaluate prints the model's figures for the spec's own mapping as JSON",
          "[mapping][evaluate]") {
  fs::path dir = fs::temp_directory_path() / "dfgc_map_evaluate_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // 16 MiB tokens: H2D 1 ms, D2H 2 ms; P + C = 3 ms on the CPU, the incrementers 1 ms on g0.
  std::ofstream(dir / "costs.json", std::ios::binary) << R"({
    "actors": {"Producer": {"cpu": 1}, "Consumer": {"cpu": 2}, "Inc": {"gpu": 0.5}},
    "links": {"A.cpu -> A.g0": {"bandwidth_GB_s": 16.777216, "latency_us": 0},
              "A.g0 -> A.cpu": {"bandwidth_GB_s": 8.388608, "latency_us": 0}},
    "cycle_overhead_ms": {"overlap": 0.1, "no-overlap": 0.2}
  })";
  const std::string spec = (fs::path(DFGC_SOURCE_DIR) / "samples/overlap/one_gpu.dfg").string();
  const std::string costs = (dir / "costs.json").string();
  auto [status, out] = map({spec, "--costs", costs, "--evaluate"});
  INFO(out);
  REQUIRE(status == 0);
  const auto doc = nlohmann::json::parse(out);
  CHECK(doc["app"] == "overlap_one_gpu");
  const auto& ov = doc["overlap"];
  CHECK(ov["period_ms"].get<double>() == Approx(3.1));  // the CPU's 3 ms + 0.1
  CHECK(ov["overhead_ms"].get<double>() == Approx(0.1));
  CHECK(ov["bottleneck"] == "A.cpu firings");
  CHECK(ov["loads_ms"]["link A.g0 -> A.cpu (pcie)"].get<double>() == Approx(2.0));
  CHECK(ov["loads_ms"]["A.g0 copy engine H2D"].get<double>() == Approx(1.0));
  CHECK(ov["latency_cycles"] == 4);
  CHECK(ov["fits"] == true);
  const auto& no = doc["no-overlap"];
  CHECK(no["period_ms"].get<double>() == Approx(5.2));  // D2H 2 ms (step 0) + 3 ms + 0.2
  REQUIRE(no["phases_ms"].size() == 2);
  CHECK(no["phases_ms"][0]["resource"] == "link A.g0 -> A.cpu (pcie)");
  CHECK(no["phases_ms"][1]["phase"] == "firings");
  // The same figures the report prints, and the same text every run.
  auto [status2, report] = map({spec, "--costs", costs});
  CHECK(status2 == 0);
  CHECK(report.find("  period                         3.100 ms       5.200 ms") !=
        std::string::npos);
  CHECK(map({spec, "--costs", costs, "--evaluate"}).second == out);

  // A free node, or --apply / --explain with it: refused.
  std::string text = read(spec);
  text.replace(text.find("@ A.g0;"), 7, "@ any gpu;");
  text.replace(
      text.find("import \"overlap.dfg\""), 20,
      "import \"" + (fs::path(DFGC_SOURCE_DIR) / "samples/overlap/overlap.dfg").string() + "\"");
  std::ofstream(dir / "free.dfg", std::ios::binary) << text;
  CHECK(map({(dir / "free.dfg").string(), "--costs", costs, "--evaluate"}).first == 1);
  CHECK(map({(dir / "free.dfg").string(), "--costs", costs}).first == 0);
  CHECK(map({spec, "--costs", costs, "--evaluate", "--apply"}).first == 1);
  CHECK(map({spec, "--costs", costs, "--evaluate", "--explain"}).first == 1);
}

TEST_CASE("--evaluate costs a small token between a CPU and a GPU as the plan moves it",
          "[mapping][evaluate][mapped]") {
  fs::path dir = fs::temp_directory_path() / "dfgc_map_mapped_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // N = 16: 1 KiB tokens, mapped by default (--mapped-tokens=4096). A copy over PCIe costs 20 us
  // (as a profile measures a cudaMemcpyAsync of 1 KiB), a host copy 1 us.
  std::ofstream(dir / "costs.json", std::ios::binary) << R"({
    "actors": {"Producer": {"cpu": 0.001}, "Consumer": {"cpu": 0.002}, "Inc": {"gpu": 0.005}},
    "links": {"A.cpu <-> A.g0": {"bandwidth_GB_s": 10.24, "latency_us": 20}},
    "host_copies": {"A.cpu <-> A.g0": {"bandwidth_GB_s": 1.024, "latency_us": 0}},
    "cycle_overhead_ms": 0
  })";
  const std::string spec = (fs::path(DFGC_SOURCE_DIR) / "samples/overlap/one_gpu.dfg").string();
  const std::string costs = (dir / "costs.json").string();
  auto evaluate = [&](const char* mapped_tokens) {
    auto [status, out] = map({spec, "-D", "N=16", "--costs", costs, "--evaluate", mapped_tokens});
    INFO(out);
    REQUIRE(status == 0);
    return nlohmann::json::parse(out);
  };
  // Copied: each direction's copy engine and link carry 20.1 us a cycle.
  const auto copied = evaluate("--mapped-tokens=0");
  CHECK(copied["overlap"]["period_ms"].get<double>() == Approx(0.0201));
  CHECK(copied["overlap"]["loads_ms"]["A.g0 copy engine H2D"].get<double>() == Approx(0.0201));
  // Mapped: no copy engine; the CPU copies both tokens (1 us each) beside its 3 us of firings,
  // the kernels' accesses load the link 0.1 us each way.
  const auto mapped = evaluate("--mapped-tokens=4096");
  const auto& ov = mapped["overlap"];
  CHECK(ov["period_ms"].get<double>() == Approx(0.01));  // the GPU's two 5 us firings
  CHECK(ov["loads_ms"]["A.cpu firings"].get<double>() == Approx(0.005));
  CHECK(ov["loads_ms"]["link A.cpu -> A.g0 (pcie)"].get<double>() == Approx(0.0001));
  CHECK_FALSE(ov["loads_ms"].contains("A.g0 copy engine H2D"));
  CHECK_FALSE(ov["loads_ms"].contains("A.g0 copy engine D2H"));
  // Without overlap each transfer step is the CPU's host copies, not a link.
  for (const auto& phase : mapped["no-overlap"]["phases_ms"])
    if (phase["phase"] != "firings") CHECK(phase["resource"] == "A.cpu host copies");
  CHECK(mapped["no-overlap"]["period_ms"].get<double>() <
        copied["no-overlap"]["period_ms"].get<double>());
  // A threshold below the token's size copies it, as the plan does.
  CHECK(evaluate("--mapped-tokens=1023") == copied);
}

TEST_CASE("granulometry: run once, map, run again: the split from a profile of split 20",
          "[mapping][granulometry][fit]") {
  // A profile as the generated program writes it after a run with split = 20, from GPUs where
  // an opening costs 0.05 ms plus 0.02 ms per erosion or dilation pass: the head (openings 1-20,
  // 210 passes) 5.2 ms, the tail (21-40, 610 passes) 13.2 ms.
  fs::path dir = fs::temp_directory_path() / "dfgc_map_fit_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "profile.json", std::ios::binary) << R"({
  "profile": {"strategy": "overlap", "iterations": 100},
  "nodes": {
    "curve": {"A.cpu": {"ms": 0.01}},
    "head": {"A.g0": {"ms": 5.2, "at": {"first": 1, "last": 20}}},
    "read": {"A.cpu": {"ms": 2}},
    "tail": {"A.g1": {"ms": 13.2, "at": {"first": 21, "last": 40}}}
  },
  "links": {"A.cpu -> A.g0": {"bandwidth_GB_s": 50, "latency_us": 0}},
  "cycle_overhead_ms": {"overlap": 0.05}
})";
  const std::string spec = (kSample / "granulometry.dfg").string();
  auto [status, out] = map({spec, "--costs", (kSample / "fit.json").string(), "--costs",
                            (dir / "profile.json").string()});
  INFO(out);
  REQUIRE(status == 0);
  CHECK(out.find("costs: fitted c_open = 0.05 ms, c_pass = 0.02 ms from 2 measurements (exact)") !=
        std::string::npos);
  // head(s) = 0.05 s + 0.01 s (s + 1), tail(s) = 0.05 (40 - s) + 0.01 (1640 - s (s + 1)):
  // split 27 gives 8.91 and 9.49 ms, 28 gives 9.52 and 8.88 ms: 27 is the best.
  CHECK(out.find("param split = 27 in [1, OPENINGS - 1];") != std::string::npos);
  CHECK(out.find("9.540 ms") != std::string::npos);  // 9.49 + 0.05

  // The profiled split is predicted from its own measurements: the larger, 13.2 ms, + 0.05.
  auto [status20, eval20] = map({spec, "--costs", (kSample / "fit.json").string(), "--costs",
                                 (dir / "profile.json").string(), "--evaluate"});
  REQUIRE(status20 == 0);
  CHECK(nlohmann::json::parse(eval20)["overlap"]["period_ms"].get<double>() == Approx(13.25));
}

namespace {

/// A directory holding samples/overlap's graph and actors beside `spec` and `costs`.
fs::path overlap_dir(const std::string& spec, const std::string& costs) {
  const fs::path sample = fs::path(DFGC_SOURCE_DIR) / "samples" / "overlap";
  fs::path dir = fs::temp_directory_path() / "dfgc_map_replicas_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy(sample / "overlap.dfg", dir / "overlap.dfg");
  fs::copy(sample / "actors", dir / "actors", fs::copy_options::recursive);
  std::ofstream(dir / "m.dfg", std::ios::binary) << spec;
  std::ofstream(dir / "costs.json", std::ios::binary) << costs;
  return dir;
}

/// Every file under `dir`, by its path relative to it, with its contents.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = read(e.path());
  return files;
}

}  // namespace

TEST_CASE(
    "replica ranges: dfgc map deals a node over the cores that pay, and what it writes "
    "compiles to the program it chose",
    "[mapping][replicas]") {
  // i1 costs 12 ms, i2 2 ms, p and c 1 ms on four cores: i1 over three cores (4 ms an
  // iteration each) beside i2 on the fourth gives 4 ms a period; on one core i1 bounds it to 12.
  fs::path dir = overlap_dir(R"(import "overlap.dfg";
arch four { host A { cpu c 4; } }
app m : overlap on four {
  p  @ A.c0;
  i1 @ any cpu replicas in [1, 4];
  i2 @ A.*;
  c  @ A.c0;
}
)",
                             R"({"actors": {"Producer": {"cpu": 1}, "Consumer": {"cpu": 1},
  "Inc": {"cpu": {"ms": 0, "per": {"nb_loop": 0.12}}}},
  "nodes": {"i2": {"A.c3": 2, "A.c1": 2, "A.c2": 2, "A.c0": 2}},
  "cores": {"A": {"latency_us": 0, "bandwidth_GB_s": 1000000}}})");
  // (reads between cores cost nothing, so that the periods are the sums above)
  const std::string spec = (dir / "m.dfg").string(), costs = (dir / "costs.json").string();
  auto [status, out] = map({spec, "--costs", costs, "-D", "N=16"});
  INFO(out);
  REQUIRE(status == 0);
  CHECK(out.find("a cycle runs 3 iterations") != std::string::npos);
  CHECK(out.find("a period of 4.000 ms and 4.000 ms per iteration") != std::string::npos);

  auto [code, ignored] =
      map({spec, "--costs", costs, "-D", "N=16", "--emit=code", "-o", (dir / "chosen").string()});
  REQUIRE(code == 0);
  auto [applied, out2] = map({spec, "--costs", costs, "-D", "N=16", "--apply"});
  REQUIRE(applied == 0);
  const std::string written = read(dir / "m.dfg");
  INFO(written);
  auto set = written.find("i1 @ {");
  REQUIRE(set != std::string::npos);
  CHECK(written.find("i2 @ A.c", set) != std::string::npos);
  // The spec as written compiles to the project dfgc map emitted for its choice.
  const std::string compiled_dir = (dir / "compiled").string();
  std::vector<std::string_view> compile = {"compile", spec, "-D", "N=16", "-o", compiled_dir};
  REQUIRE(driver::run_command(compile) == 0);
  auto chosen = tree(dir / "chosen"), compiled = tree(dir / "compiled");
  CHECK(chosen.size() == compiled.size());
  for (const auto& [name, text] : compiled) {
    INFO(name);
    CHECK(chosen[name] == text);
  }
}
