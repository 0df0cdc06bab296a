// The command line and the pipeline every command runs: which stages each command runs (as
// --time-passes lists them), the dumps of --dump-after, --version, help.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "driver/commands.hpp"
#include "driver/pipeline.hpp"

using namespace dfgc;
namespace fs = std::filesystem;

namespace {

const std::string kSamples = std::string(DFGC_SOURCE_DIR) + "/samples/";
const std::string kCpuOnly = kSamples + "overlap/cpu_only.dfg";
const std::string kGranulometry = kSamples + "granulometry/granulometry.dfg";
const std::string kGranulometryCosts = kSamples + "granulometry/costs.json";

struct Result {
  int status = 0;
  std::string out;
  std::string err;
};

/// Runs `dfgc ARGS...`, capturing what it prints.
Result run_dfgc(std::vector<std::string> args) {
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  std::vector<std::string_view> views(args.begin(), args.end());
  int status = driver::run_command(views);
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {status, out.str(), err.str()};
}

/// The stages --time-passes listed, in its order ("dfgc: STAGE  1.23 ms").
std::vector<std::string> timed_stages(const std::string& err) {
  std::vector<std::string> out;
  static const std::regex line(R"(dfgc: (\w+) +[0-9]+\.[0-9]{2} ms( \([0-9]+ runs\))?)");
  std::istringstream in(err);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_match(l, m, line)) out.push_back(m[1]);
  }
  return out;
}

/// The stages --dump-after dumped, in order.
std::vector<std::string> dumped_stages(const std::string& err) {
  std::vector<std::string> out;
  std::istringstream in(err);
  for (std::string l; std::getline(in, l);)
    if (l.starts_with("// after ")) out.push_back(l.substr(9));
  return out;
}

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("dfgc_driver_test_" + name);
  fs::remove_all(dir);
  return dir;
}

using Stages = std::vector<std::string>;
const Stages kToMigrations = {"parse",        "sema",      "schedule",      "insert_buffers",
                              "buffer_depth", "latency",   "resync_inputs", "color_buffers",
                              "build_ig",     "migrations"};
// What check checks: the passes to the migrations (loops, moves), then the actor headers.
const Stages kChecked = [] {
  Stages s = kToMigrations;
  s.push_back("actors");
  return s;
}();
const Stages kPlanStages = {"plan_entries", "plan_steps", "plan_islands", "plan_handoffs",
                            "plan_names"};
// The checks, then the whole plan.
const Stages kToPlan = [] {
  Stages s = kChecked;
  s.insert(s.end(), kPlanStages.begin(), kPlanStages.end());
  return s;
}();
// The checks, then the plan's entries: what schedule.txt needs of the plan (its MPI tags, its
// mapped tokens).
const Stages kToEntries = [] {
  Stages s = kChecked;
  s.push_back("plan_entries");
  return s;
}();
const Stages kAll = [] {
  Stages s = kToPlan;
  for (const char* stage : {"codegen", "write"}) s.push_back(stage);
  return s;
}();

}  // namespace

TEST_CASE("--time-passes lists every stage a command runs, once, in pipeline order",
          "[driver][time-passes]") {
  fs::path out = fresh_dir("time");
  struct Case {
    std::vector<std::string> args;
    Stages stages;
  };
  const Stages& to_plan = kToPlan;
  // schedule prints the alternatives' MPI tags and the mapped tokens, which the plan's entries
  // decide: it runs plan_entries and no later plan stage.
  Stages no_actors = kToMigrations;
  no_actors.push_back("plan_entries");
  const std::vector<Case> cases = {
      {{"check", kCpuOnly}, kChecked},
      {{"check", kCpuOnly, "--no-actors"}, kToMigrations},
      {{"dump-ast", kCpuOnly}, {"parse"}},
      {{"dump-ir", kCpuOnly}, kChecked},
      {{"dump-ir", kCpuOnly, "--no-actors"}, kToMigrations},
      {{"schedule", kCpuOnly}, kToEntries},
      {{"schedule", kCpuOnly, "--no-actors"}, no_actors},
      {{"schedule", kCpuOnly, "--emit=plan"}, to_plan},
      {{"check", kCpuOnly, "--emit=ast"}, {"parse"}},
      {{"compile", kCpuOnly, "-o", out.string()}, kAll},
      {{"compile", kCpuOnly, "--emit=dot"}, kChecked},
      {{"map", kGranulometry, "--costs", kGranulometryCosts},
       {"parse", "sema", "schedule", "insert_buffers", "buffer_depth", "latency", "resync_inputs",
        "color_buffers", "build_ig"}},
      // The chosen mapping through the pipeline up to what --emit prints.
      {{"map", kGranulometry, "--costs", kGranulometryCosts, "--emit=plan"}, to_plan},
      // The search builds an implementation graph per value of the tunable param.
      // --emit=ir is what check checks: the passes to the migrations (no actors here).
      {{"map", kGranulometry, "--costs", kGranulometryCosts, "--emit=ir", "--no-actors"},
       kToMigrations},
      {{"map", kGranulometry, "--costs", kGranulometryCosts, "--emit=code", "-o",
        (out / "map").string()},
       kAll},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.push_back("--time-passes");
    Result r = run_dfgc(args);
    INFO("dfgc " << args[0] << " " << args[1] << (args.size() > 3 ? " " + args[2] : "") << "\n"
                 << r.err);
    CHECK(r.status == 0);
    CHECK(timed_stages(r.err) == c.stages);
  }
}

TEST_CASE("map times the passes of every implementation graph it builds in one line each",
          "[driver][time-passes]") {
  // The memory objective builds the implementation graph of every candidate it keeps.
  Result r = run_dfgc(
      {"map", kGranulometry, "--costs", kGranulometryCosts, "--objective=memory", "--time-passes"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(std::regex_search(r.err, std::regex(R"(dfgc: sema +[0-9.]+ ms \([0-9]+ runs\))")));
  CHECK(std::regex_search(r.err, std::regex(R"(dfgc: build_ig +[0-9.]+ ms \([0-9]+ runs\))")));
}

TEST_CASE(
    "--dump-after=all dumps every stage in order; a stage's name dumps that one, a list those",
    "[driver][dump-after]") {
  SECTION("schedule") {
    Result r = run_dfgc({"schedule", kCpuOnly, "--dump-after=all"});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(dumped_stages(r.err) == kToEntries);
    // What the build_ig dump shows is what schedule prints.
    CHECK(r.err.find(r.out) != std::string::npos);
  }
  SECTION("compile") {
    fs::path out = fresh_dir("dump");
    Result r = run_dfgc({"compile", kCpuOnly, "-o", out.string(), "--dump-after=all"});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(dumped_stages(r.err) == kAll);
    CHECK(r.err.find("schedule.txt (") != std::string::npos);
    CHECK(fs::exists(out / "schedule.txt"));
  }
  SECTION("one stage") {
    Result r = run_dfgc({"schedule", kCpuOnly, "--dump-after=latency"});
    CHECK(r.status == 0);
    CHECK(dumped_stages(r.err) == Stages{"latency"});
  }
  SECTION("stages separated by commas, each once, in the pipeline's order") {
    Result r = run_dfgc({"schedule", kCpuOnly, "--emit=plan", "--dump-after=plan_names,sema"});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(dumped_stages(r.err) == Stages{"sema", "plan_names"});
    CHECK(r.err.ends_with("// after plan_names\n" + r.out));
  }
  SECTION("a stage the command does not run, named in a list") {
    Result r = run_dfgc({"schedule", kCpuOnly, "--dump-after=sema,plan_names"});
    CHECK(r.status == 1);
    CHECK(r.err.find("'--dump-after=plan_names': 'schedule' does not run that stage") !=
          std::string::npos);
  }
  SECTION("map: the passes of the chosen mapping") {
    Result r = run_dfgc({"map", kGranulometry, "--costs", kGranulometryCosts, "--dump-after=all"});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(dumped_stages(r.err) == Stages{"parse", "sema", "schedule", "insert_buffers",
                                         "buffer_depth", "latency", "resync_inputs",
                                         "color_buffers", "build_ig"});
  }
  SECTION("map --emit=schedule: the chosen mapping's stages up to what it prints") {
    Result r = run_dfgc({"map", kGranulometry, "--costs", kGranulometryCosts, "--emit=schedule",
                         "--dump-after=all"});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(dumped_stages(r.err) == kToEntries);
  }
  SECTION("each plan stage dumps the plan as decided so far, the last one whole") {
    Result r = run_dfgc({"schedule", kCpuOnly, "--emit=plan", "--dump-after=all"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(dumped_stages(r.err) == kToPlan);
    auto after = [&](std::string_view stage) {
      const std::size_t begin = r.err.find(fmt::format("// after {}\n", stage));
      REQUIRE(begin != std::string::npos);
      const std::size_t end = r.err.find("// after ", begin + 1);
      return r.err.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    };
    // The entries have no steps and no names yet; the steps come with plan_steps, the files'
    // and the views' names with plan_names, whose dump is what --emit=plan prints.
    CHECK(after("plan_entries").find("fire node") == std::string::npos);
    CHECK(after("plan_entries").find("  files ") == std::string::npos);
    CHECK(after("plan_steps").find("fire node") != std::string::npos);
    CHECK(after("plan_steps").find("  files ") == std::string::npos);
    CHECK(after("plan_names") == "// after plan_names\n" + r.out);
  }
}

TEST_CASE("map --emit prints, or writes, what the other commands do for the spec it applies",
          "[driver][emit][map]") {
  fs::path dir = fresh_dir("map_emit");
  fs::create_directories(dir);
  const fs::path spec = dir / "free.dfg";
  {
    std::ofstream out(spec);
    out << "import \"" << kSamples << "overlap/overlap.dfg\";\n"
        << "arch a {\n"
           "  host A { cpu; gpu g0 = 0; gpu g1 = 1; }\n"
           "  link A.cpu <-> A.g0 pcie (25 GB/s);\n"
           "  link A.cpu <-> A.g1 pcie (25 GB/s);\n"
           "}\n"
           "app x on a {\n"
           "  node p  : Producer @ A.cpu;\n"
           "  node i1 : Inc      @ any gpu;\n"
           "  node i2 : Inc      @ A.*;\n"
           "  node c  : Consumer @ A.cpu;\n"
           "  p.m -> i1.a;\n"
           "  i1.b -> i2.a;\n"
           "  i2.b -> c.m;\n"
           "}\n";
    std::ofstream costs(dir / "costs.json");
    costs << R"({"actors": {"Producer": {"cpu": 1}, "Inc": {"gpu": 1, "cpu": 30},)"
          << R"( "Consumer": {"cpu": 1}}})";
  }
  auto map = [&](std::vector<std::string> more) {
    std::vector<std::string> args = {"map", spec.string(), "--costs",
                                     (dir / "costs.json").string()};
    args.insert(args.end(), more.begin(), more.end());
    return run_dfgc(args);
  };
  Result report = map({});
  Result ir = map({"--emit=ir"});
  Result schedule = map({"--emit=schedule"});
  Result plan = map({"--emit=plan"});
  Result dot = map({"--emit=dot"});
  Result code = map({"--emit=code", "-o", (dir / "mapped").string()});
  for (const Result* r : {&report, &ir, &schedule, &plan, &dot, &code}) {
    INFO(r->err);
    REQUIRE(r->status == 0);
  }
  CHECK(plan.out.starts_with("host A of app x on a (free.dfg)\n"));
  // --emit=code writes the project and prints the report, as map does.
  CHECK(code.out == report.out);

  // The same outputs from the spec with the choice written into it. With --emit=plan, stdout
  // holds the plan alone: --apply says what it wrote on stderr.
  Result apply = map({"--emit=plan", "--apply"});
  INFO(apply.err);
  REQUIRE(apply.status == 0);
  CHECK(apply.out == plan.out);
  CHECK(apply.err.find("\nwrote " + spec.string() + "\n") != std::string::npos);
  CHECK(ir.out == run_dfgc({"dump-ir", spec.string()}).out);
  CHECK(schedule.out == run_dfgc({"schedule", spec.string()}).out);
  CHECK(plan.out == run_dfgc({"schedule", spec.string(), "--emit=plan"}).out);
  CHECK(dot.out == run_dfgc({"schedule", spec.string(), "--emit=dot"}).out);
  Result compiled = run_dfgc({"compile", spec.string(), "-o", (dir / "compiled").string()});
  INFO(compiled.err);
  REQUIRE(compiled.status == 0);
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir / "compiled")) {
    if (!entry.is_regular_file()) continue;
    const fs::path rel = fs::relative(entry.path(), dir / "compiled");
    INFO(rel.string());
    std::ifstream a(entry.path()), b(dir / "mapped" / rel);
    REQUIRE(b);
    CHECK(std::string(std::istreambuf_iterator<char>(a), {}) ==
          std::string(std::istreambuf_iterator<char>(b), {}));
    ++files;
  }
  CHECK(files > 5);
}

TEST_CASE("schedule.txt ends with a section per migration alternative", "[driver][migrations]") {
  fs::path dir = fresh_dir("migrations");
  fs::create_directories(dir);
  fs::path spec = dir / "moves.dfg";
  {
    std::ofstream out(spec);
    out << "type T = float[64];\n"
           "actor Src { out T o; cpu \"src.hpp\"; }\n"
           "actor Inc { in T i; out T o; cpu \"inc.hpp\"; gpu \"inc.cuh\"; }\n"
           "actor Sink { in T i; cpu \"sink.hpp\"; }\n"
           "arch a {\n"
           "  host A { cpu; gpu g0 = 0; gpu g1 = 1; }\n"
           "  link A.cpu <-> A.g0 pcie (25 GB/s);\n"
           "  link A.cpu <-> A.g1 pcie (25 GB/s);\n"
           "}\n"
           "app x on a {\n"
           "  node s : Src @ A.cpu;\n"
           "  node i : Inc @ A.g0 migrates A.g1, A.cpu;\n"
           "  node k : Sink @ A.cpu;\n"
           "  s.o -> i.i;\n"
           "  i.o -> k.i;\n"
           "}\n";
  }
  Result r = run_dfgc({"schedule", spec.string(), "--no-actors"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto equal = r.out.find("migration i : A.g0 -> A.g1 (shorter path: pad)\n");
  auto cpu = r.out.find("migration i : A.g0 -> A.cpu (shorter path: pad)\n");
  REQUIRE(equal != std::string::npos);
  REQUIRE(cpu != std::string::npos);
  CHECK(equal < cpu);
  // Equal paths: nothing pauses; on the CPU the path is 4 cycles shorter (overlap): padded.
  CHECK(r.out.find("  overlap: k 0 padding 0 delta 0 pause 0 gap 0", equal) < cpu);
  CHECK(r.out.find("    new-only fire i@A.g1 from cycle 2 + 0 (delta)", equal) < cpu);
  CHECK(r.out.find("  overlap: k 4 padding 4 delta 0 pause 0 gap 0", cpu) != std::string::npos);
  CHECK(r.out.find("    extra ", cpu) != std::string::npos);

  // The paper's policy: the sources pause instead.
  Result pause = run_dfgc({"schedule", spec.string(), "--no-actors", "--short-path=pause"});
  INFO(pause.err);
  REQUIRE(pause.status == 0);
  CHECK(pause.out.find("migration i : A.g0 -> A.cpu (shorter path: pause)\n") != std::string::npos);
  CHECK(pause.out.find("  overlap: k 4 padding 0 delta 4 pause 4 gap 0") != std::string::npos);
  CHECK(pause.out.find("    new-only fire i@A.cpu from cycle 0 + 4 (delta)") != std::string::npos);

  Result bad = run_dfgc({"schedule", spec.string(), "--no-actors", "--short-path=wait"});
  CHECK(bad.status == 1);
  CHECK(bad.err.find("'--short-path' takes pad or pause") != std::string::npos);
}

TEST_CASE("compile writes the migration sections and the switch tables of the alternatives",
          "[driver][migrations]") {
  fs::path dir = fresh_dir("migrations_compile");
  fs::create_directories(dir);
  {
    std::ofstream out(dir / "moves.dfg");
    out << "import \"" << kSamples << "overlap/overlap.dfg\";\n"
        << "arch a {\n"
           "  host A { cpu; gpu g0 = 0; }\n"
           "  link A.cpu <-> A.g0 pcie (25 GB/s);\n"
           "}\n"
           "app x on a {\n"
           "  node p  : Producer @ A.cpu;\n"
           "  node i1 : Inc      @ A.g0 migrates A.cpu;\n"
           "  node c  : Consumer @ A.cpu;\n"
           "  p.m -> i1.a;\n"
           "  i1.b -> c.m;\n"
           "}\n";
  }
  Result r = run_dfgc({"compile", (dir / "moves.dfg").string(), "-o", (dir / "gen").string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("warning") == std::string::npos);
  std::ifstream in(dir / "gen" / "schedule.txt");
  std::string schedule((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(schedule.find("migration i1 : A.g0 -> A.cpu (shorter path: pad)\n") != std::string::npos);
  std::ifstream header_in(dir / "gen" / "app.hpp");
  std::string header((std::istreambuf_iterator<char>(header_in)), std::istreambuf_iterator<char>());
  CHECK(header.find("inline constexpr std::array<dfg::Alternative, 1> kAlternatives = {{\n"
                    "    {\"i1\", \"A.g0\", \"A.cpu\", ") != std::string::npos);
}

TEST_CASE("compile moves an actor's state between hosts: a state tag per alternative, no warning",
          "[driver][migrations]") {
  fs::path dir = fresh_dir("migrations_state");
  fs::create_directories(dir);
  {
    std::ofstream out(dir / "state.dfg");
    out << "import \"" << kSamples << "migration/migration.dfg\";\n"
        << "arch two {\n"
           "  host A { cpu; }\n"
           "  host B { cpu; }\n"
           "  link A.cpu <-> B.cpu net (2.6 GB/s, 5 us);\n"
           "}\n"
           "app x on two {\n"
           "  node s : Source     @ A.cpu;\n"
           "  node a : Accumulate @ A.cpu migrates B.cpu;\n"
           "  node k : Check      @ A.cpu;\n"
           "  s.x -> a.x;\n"
           "  a.y -> k.y;\n"
           "}\n";
  }
  Result r = run_dfgc({"compile", (dir / "state.dfg").string(), "-o", (dir / "gen").string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("warning") == std::string::npos);
  Result plan = run_dfgc({"schedule", (dir / "state.dfg").string(), "--emit=plan"});
  REQUIRE(plan.status == 0);
  // The alternative's host-to-host transfers have their tags (after the base's, which has none
  // here), then the control tag, then the state tag.
  CHECK(plan.out.find("  net tag 0 overlap s.x@A.cpu -> s.x@B.cpu (migration 0)\n"
                      "  net tag 1 overlap a.y@B.cpu -> a.y@A.cpu (migration 0)\n"
                      "  net tag 2 no-overlap s.x@A.cpu -> s.x@B.cpu (migration 0)\n"
                      "  net tag 3 no-overlap a.y@B.cpu -> a.y@A.cpu (migration 0)\n"
                      "  control tag 4: the ranks' agreement on live moves\n") !=
        std::string::npos);
  // Accumulate has save/restore: each host hands its end of the move over, its state included.
  CHECK(
      plan.out.find("    migration 0: node a A.cpu -> B.cpu, delta 0, state tag 5, handoff 0\n") !=
      std::string::npos);
  CHECK(plan.out.find("  state handoffs: a\n") != std::string::npos);
  Result schedule = run_dfgc({"schedule", (dir / "state.dfg").string()});
  REQUIRE(schedule.status == 0);
  CHECK(schedule.out.find("migration tags (MPI)\n"
                          "  migration 0 (a) net tag 0 overlap s.x@A.cpu -> s.x@B.cpu\n") !=
        std::string::npos);
  CHECK(schedule.out.find("  control tag 4: the ranks' agreement on live moves\n"
                          "  migration 0 (a) state tag 5\n") != std::string::npos);
  for (const char* rank : {"rank_A.cpp", "rank_B.cpp"}) {
    std::ifstream in(dir / "gen" / rank);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(rank);
    CHECK(text.find("run_.handoffs[0].save(") != std::string::npos);
    CHECK(text.find("run_.handoffs[0].restore(") != std::string::npos);
  }
}

TEST_CASE("--emit chooses what any command prints, running the stages it needs", "[driver][emit]") {
  Result plan = run_dfgc({"schedule", kCpuOnly, "--emit=plan"});
  REQUIRE(plan.status == 0);
  CHECK(plan.out.starts_with("host "));
  for (const char* command : {"check", "dump-ast", "dump-ir", "compile"})
    CHECK(run_dfgc({command, kCpuOnly, "--emit=plan"}).out == plan.out);
  CHECK(run_dfgc({"check", kCpuOnly, "--emit=ir"}).out == run_dfgc({"dump-ir", kCpuOnly}).out);
  CHECK(run_dfgc({"schedule", kCpuOnly, "--emit=ast"}).out == run_dfgc({"dump-ast", kCpuOnly}).out);
  CHECK(run_dfgc({"compile", kCpuOnly, "--emit=schedule"}).out ==
        run_dfgc({"schedule", kCpuOnly}).out);
}

TEST_CASE("--version names dfgc's version and the Clang it links", "[driver][version]") {
  Result r = run_dfgc({"--version"});
  CHECK(r.status == 0);
  CHECK(std::regex_match(r.out, std::regex("dfgc [0-9]+\\.[0-9]+\\.[0-9]+\nlinked with .*clang "
                                           "version [0-9]+\\.[0-9]+\\.[0-9]+.*\n")));
  CHECK(run_dfgc({"--version", "x"}).status == 1);
}

TEST_CASE("help COMMAND is COMMAND --help, generated from the options it parses",
          "[driver][help]") {
  for (const char* command : {"check", "dump-ast", "dump-ir", "schedule", "compile", "map"}) {
    Result help = run_dfgc({"help", command});
    INFO(command);
    CHECK(help.status == 0);
    CHECK(help.out.starts_with(std::string("usage: dfgc ") + command + " "));
    CHECK(run_dfgc({command, "--help"}).out == help.out);
    CHECK(run_dfgc({command, "-h"}).out == help.out);
    CHECK(help.out.find("--dump-after=STAGE") != std::string::npos);
  }
  CHECK(run_dfgc({"help", "compile"}).out.find("  -o DIR ") != std::string::npos);
  CHECK(run_dfgc({"help", "check"}).out.find("  -o DIR ") == std::string::npos);
  CHECK(run_dfgc({"help", "map"}).out.find("  --costs=FILE ") != std::string::npos);
  CHECK(run_dfgc({"help", "map"}).out.find("  -o DIR ") != std::string::npos);
  Result global = run_dfgc({"help"});
  CHECK(global.out == run_dfgc({"--help"}).out);
  for (const char* command : {"check", "dump-ast", "dump-ir", "schedule", "compile", "map"})
    CHECK(global.out.find(std::string("\n  ") + command + " ") != std::string::npos);
  Result unknown = run_dfgc({"help", "frobnicate"});
  CHECK(unknown.status == 1);
  CHECK(unknown.err.starts_with("dfgc: error: unknown command 'frobnicate'\n"));
}

TEST_CASE("--emit=svg: the graph drawn by Graphviz's dot, or a clear error without it",
          "[driver]") {
  const char* old_path = std::getenv("PATH");
  const std::string saved = old_path ? old_path : "";
  SECTION("without dot on PATH") {
    ::setenv("PATH", "/nonexistent", 1);
    Result r = run_dfgc({"schedule", kCpuOnly, "--no-actors", "--emit=svg"});
    ::setenv("PATH", saved.c_str(), 1);
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find("Graphviz's 'dot', which is not on PATH") != std::string::npos);
  }
  SECTION("with dot, where it is installed (tools/install-deps installs graphviz)") {
    if (std::system("command -v dot >/dev/null 2>&1") != 0) {
      WARN("dot is not installed: only the error is checked");
      return;
    }
    Result r = run_dfgc({"schedule", kCpuOnly, "--no-actors", "--emit=svg"});
    CHECK(r.status == 0);
    CHECK(r.out.find("<svg") != std::string::npos);
    CHECK(r.out.find("</svg>") != std::string::npos);
  }
}

TEST_CASE("files_read lists the spec, its imports, the actor headers and what they include",
          "[driver]") {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  driver::PipelineInput in;
  in.sema.spec_file = kSamples + "granulometry/../overlap/cpu_only.dfg";
  driver::Compilation c;
  REQUIRE(driver::run_pipeline(in, Stage::actors, sources, diags, nullptr, c));
  const std::string overlap = kSamples + "overlap/";
  std::vector<std::string> expected = {
      overlap + "actors/consumer.hpp",
      overlap + "actors/inc.cuh",
      overlap + "actors/inc_cpu.hpp",
      overlap + "actors/producer.hpp",
      overlap + "cpu_only.dfg",
      overlap + "overlap.dfg",
      std::string(DFGC_SOURCE_DIR) + "/runtime/include/dfg/context.hpp",
      std::string(DFGC_SOURCE_DIR) + "/runtime/include/dfg/stream_end.hpp"};
  for (std::string& path : expected) path = fs::path(path).lexically_normal().string();
  std::sort(expected.begin(), expected.end());
  CHECK(driver::files_read(c, sources) == expected);
}

TEST_CASE("a fifo edge between a CPU island and a GPU island is a mapped ring in the plan",
          "[driver][islands]") {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  driver::PipelineInput in;
  in.sema.spec_file = kSamples + "dyn_fir/m2.dfg";
  driver::Compilation c;
  REQUIRE(driver::run_pipeline(in, kPlanned, sources, diags, nullptr, c));
  REQUIRE(c.passes.hosts);
  const HostPlan& h = c.passes.hosts->hosts.front();
  // Four rings, both ways: d1.next and a1.s to the GPU, a2.s and m3.y back.
  std::vector<std::string> rings;
  for (const PlanMappedRing& r : h.mapped_rings)
    rings.push_back(r.ident + " " + r.from + " -> " + r.to);
  CHECK(rings == std::vector<std::string>{
                     "ring_d1_next island_d1 -> island_d2", "ring_a1_s island_d1 -> island_d2",
                     "ring_a2_s island_d2 -> island_a3", "ring_m3_y island_d2 -> island_a3"});
  for (const PlanMappedRing& r : h.mapped_rings) {
    CAPTURE(r.ident);
    CHECK_FALSE(r.stated);
    CHECK(r.per_iteration == 64);  // the source's block
    // The consumer fires two cycles after the producer with overlap, and the GPU runs two
    // cycles ahead of its thread: 2 + 1 + 2 iterations.
    CHECK(r.iterations == 5);
    CHECK(r.capacity == 64 * 5);
  }
  // Each island's end of a ring is the shared one, at its capacity, and its port has no adapter.
  for (const PlanIsland& island : h.islands) {
    CAPTURE(island.name);
    for (const PlanIslandPort& p : island.ports) {
      const PlanIslandFifo& f = island.fifos[p.fifo];
      CHECK(p.mapped == !f.mapped.empty());
      if (p.mapped) CHECK(f.capacity == 320);
    }
  }
  // The transfers of the order-only tokens copy nothing; every other transfer does.
  for (ir::Strategy s : ir::kStrategies) {
    std::size_t order_only = 0;
    for (const Entry& e : h.strategies[s].entries) {
      const Entry::Transfer* t = e.transfer_if();
      if (!t) continue;
      CAPTURE(e.label);
      CHECK(t->order_only == (t->type.rfind("Mapped_", 0) == 0));
      order_only += t->order_only ? 1 : 0;
    }
    CHECK(order_only == 4);
  }
}

TEST_CASE("--fifos=copied makes those edges counted tokens copied by the static cycle",
          "[driver][islands]") {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  driver::PipelineInput in;
  in.sema.spec_file = kSamples + "dyn_fir/m2.dfg";
  in.sema.copied_fifos = true;
  driver::Compilation c;
  REQUIRE(driver::run_pipeline(in, kPlanned, sources, diags, nullptr, c));
  const HostPlan& h = c.passes.hosts->hosts.front();
  CHECK(h.mapped_rings.empty());
  // Each island's end of such an edge is a counted port of the ring's capacity.
  std::size_t counted = 0;
  for (const PlanIsland& island : h.islands)
    for (const PlanIslandPort& p : island.ports) {
      CHECK_FALSE(p.mapped);
      if (!p.counted) continue;
      ++counted;
      CHECK(p.elements == 64);
      CHECK_FALSE(p.bounded);
    }
  CHECK(counted == 8);  // four edges, two ends each
  // Their tokens: the count cell (two int32) and 64 elements, copied whole each iteration.
  for (ir::Strategy s : ir::kStrategies) {
    std::size_t copies = 0;
    for (const Entry& e : h.strategies[s].entries) {
      const Entry::Transfer* t = e.transfer_if();
      if (!t || t->type.rfind("Fifo_", 0) != 0) continue;
      CAPTURE(e.label);
      CHECK_FALSE(t->order_only);
      CHECK(t->bytes == 66 * 4);
      ++copies;
    }
    CHECK(copies == 4);
  }
}

TEST_CASE("--mapped-tokens sets the plan's threshold; schedule.txt lists the mapped tokens",
          "[driver]") {
  fs::path dir = fresh_dir("mapped_tokens");
  fs::create_directories(dir);
  fs::path spec = dir / "small.dfg";
  auto write_spec = [&](const char* ports) {
    std::ofstream out(spec);
    out << "type T = float[64];\n"
           "actor Src { out T o; cpu \"src.hpp\"; }\n"
           "actor Inc { "
        << ports
        << " gpu \"inc.cuh\"; }\n"
           "actor Sink { in T i; cpu \"sink.hpp\"; }\n"
           "arch a {\n"
           "  host A { cpu; gpu g0 = 0; }\n"
           "  link A.cpu <-> A.g0 pcie (25 GB/s);\n"
           "}\n"
           "app x on a {\n"
           "  node s : Src @ A.cpu;\n"
           "  node i : Inc @ A.g0;\n"
           "  node k : Sink @ A.cpu;\n"
           "  s.o -> i.i;\n"
           "  i.o -> k.i;\n"
           "}\n";
  };
  // Ports not declared mappable: every token copied, whatever the threshold.
  write_spec("in T i; out T o;");
  Result undeclared =
      run_dfgc({"schedule", spec.string(), "--no-actors", "--mapped-tokens=1000000"});
  REQUIRE(undeclared.status == 0);
  CHECK(undeclared.out.find("mapped tokens") == std::string::npos);
  // 256-byte tokens of mappable ports: mapped by default.
  write_spec("in T i mappable; out T o mappable;");
  Result r = run_dfgc({"schedule", spec.string(), "--no-actors"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("mapped tokens (a GPU's colours of at most 4096 bytes exchanged with cpus only, "
                   "touched by mappable ports only") != std::string::npos);
  CHECK(r.out.find("  overlap s.o@A.cpu -> s.o@A.g0 (256 bytes): copied on the host by A.cpu, "
                   "A.g0 colour ") != std::string::npos);
  CHECK(r.out.find("  no-overlap i.o@A.g0 -> i.o@A.cpu (256 bytes): copied on the host by A.cpu") !=
        std::string::npos);
  // Below the tokens' size: every token copied, no section.
  Result copied = run_dfgc({"schedule", spec.string(), "--no-actors", "--mapped-tokens=255"});
  REQUIRE(copied.status == 0);
  CHECK(copied.out.find("mapped tokens") == std::string::npos);
  Result plan =
      run_dfgc({"schedule", spec.string(), "--no-actors", "--mapped-tokens", "256", "--emit=plan"});
  REQUIRE(plan.status == 0);
  CHECK(plan.out.find("  mapped tokens: a GPU's colours of at most 256 bytes") !=
        std::string::npos);
  CHECK(plan.out.find("mapped copy transfer s.o@A.cpu -> s.o@A.g0") != std::string::npos);
  for (const char* bad : {"--mapped-tokens=-1", "--mapped-tokens=4k", "--mapped-tokens="}) {
    CAPTURE(bad);
    Result b = run_dfgc({"schedule", spec.string(), "--no-actors", bad});
    CHECK(b.status == 1);
    CHECK(b.err.find("'--mapped-tokens' takes a number of bytes (0: none)") != std::string::npos);
  }
}

TEST_CASE("compile --clang-format: never keeps the printers' layout, always and auto lay it out",
          "[driver]") {
  auto rank = [](const std::string& when) {
    fs::path out = fresh_dir("clang_format_" + when);
    Result r = run_dfgc({"compile", kCpuOnly, "-o", out.string(), "--clang-format=" + when});
    INFO(r.err);
    REQUIRE(r.status == 0);
    std::ifstream in(out / "rank_A.cpp");
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string automatic = rank("auto"), always = rank("always"), never = rank("never");
  // The sample's sources are far under the limit: auto lays them out as always does.
  CHECK(automatic == always);
  CHECK(never != always);
  // Laid out or not, the includes are in clang-format's order and the code is the same.
  auto includes = [](const std::string& text) {
    std::string out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.starts_with("#include")) out += line + "\n";
    return out;
  };
  CHECK(includes(never) == includes(always));
  auto tokens = [](std::string text) {
    std::erase_if(text, [](char c) { return c == ' ' || c == '\n' || c == '/'; });
    return text;
  };
  CHECK(tokens(never) == tokens(always));
  Result bad = run_dfgc({"compile", kCpuOnly, "-o", fresh_dir("clang_format_bad").string(),
                         "--clang-format=sometimes"});
  CHECK(bad.status == 1);
  CHECK(bad.err.find("'--clang-format' takes auto, always or never, not 'sometimes'") !=
        std::string::npos);
}

TEST_CASE("--joints bounds the joint alternatives; schedule.txt lists the sets left out",
          "[driver]") {
  const std::string spec = kSamples + "migration/cores.dfg";
  Result all = run_dfgc({"schedule", spec, "--no-actors"});
  INFO(all.err);
  REQUIRE(all.status == 0);
  CHECK(all.out.find("joint migration g:A.c3 + a:A.c3 (shorter path: pad)\n") != std::string::npos);
  CHECK(all.out.find("alternatives: 4 single, 4 joint\n") != std::string::npos);
  Result two = run_dfgc({"schedule", spec, "--no-actors", "--joints=2"});
  REQUIRE(two.status == 0);
  CHECK(two.out.find("alternatives: 4 single, 2 joint\n") != std::string::npos);
  CHECK(two.out.find("no joint migration g:A.c3 + a:A.c3: more than 2 joint alternatives "
                     "(--joints): refused at run time\n") != std::string::npos);
  for (const char* bad : {"--joints=-1", "--joints=x", "--joints=", "--joints=5000"}) {
    CAPTURE(bad);
    Result b = run_dfgc({"schedule", spec, "--no-actors", bad});
    CHECK(b.status == 1);
    CHECK(b.err.find("'--joints' takes a number of joint alternatives (0: none)") !=
          std::string::npos);
  }
}
