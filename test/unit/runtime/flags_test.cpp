#include "dfg/flags.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

const dfg::RuntimeParam kParams[] = {
    {"N", 2048, 1, 1 << 20, "matrix side"},
    {"LOOPS", 100, 0},
    {"OFFSET", -3},
};

dfg::FlagsResult parse(std::initializer_list<const char*> args,
                       std::span<const dfg::RuntimeParam> table = kParams) {
  std::vector<const char*> argv{"app"};
  argv.insert(argv.end(), args.begin(), args.end());
  return dfg::parse_flags(static_cast<int>(argv.size()), argv.data(), table);
}

std::string error_of(std::initializer_list<const char*> args,
                     std::span<const dfg::RuntimeParam> table = kParams) {
  const dfg::FlagsResult r = parse(args, table);
  CHECK(r.exit_code == 1);
  CHECK(r.error.find('\n') == std::string::npos);
  return r.error;
}

// A file in the temporary directory, removed at scope exit.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& name, const std::string& text)
      : path((std::filesystem::temp_directory_path() / ("dfg_flags_test_" + name)).string()) {
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

}  // namespace

TEST_CASE("flags: defaults", "[flags]") {
  const dfg::FlagsResult r = parse({});
  REQUIRE(r.ok());
  CHECK(r.error.empty());
  CHECK(r.options.iterations == 100);
  CHECK(r.options.overlap);
  CHECK(r.options.sync == dfg::SyncMode::neighbours);
  CHECK(r.options.trace_file.empty());
  CHECK_FALSE(r.options.stats);
  CHECK_FALSE(r.options.help);
  CHECK(r.options.migrations.empty());
  CHECK_FALSE(r.options.pin_cpus);
  CHECK(r.options.graphs);
  CHECK(r.options.params == std::vector<std::int64_t>{2048, 100, -3});
}

TEST_CASE("flags: a batched program counts its iterations in cycles", "[flags][batch]") {
  auto batched = [](std::initializer_list<const char*> args) {
    std::vector<const char*> argv{"app"};
    argv.insert(argv.end(), args.begin(), args.end());
    return dfg::parse_flags(static_cast<int>(argv.size()), argv.data(), kParams, 8);
  };
  const dfg::FlagsResult given = batched({"--iterations", "96"});
  REQUIRE(given.ok());
  CHECK(given.options.iterations == 12);
  CHECK(given.options.batch == 8);
  const dfg::FlagsResult fallback =
      batched({});  // 100 iterations: the fewest cycles that make them
  REQUIRE(fallback.ok());
  CHECK(fallback.options.iterations == 13);
  const dfg::FlagsResult odd = batched({"--iterations=100"});
  CHECK(odd.exit_code == 1);
  CHECK(odd.error ==
        "error: --iterations: 100 is not a multiple of 8, the iterations one cycle of this program "
        "runs (its app's `batch 8`)");
  CHECK(dfg::usage("app", kParams, 8).find("--iterations is a multiple of 8") != std::string::npos);
}

TEST_CASE("flags: --pin-cpus takes no value", "[flags]") {
  const dfg::FlagsResult r = parse({"--pin-cpus"});
  REQUIRE(r.ok());
  CHECK(r.options.pin_cpus);
  CHECK(error_of({"--pin-cpus=1"}) == "error: --pin-cpus: takes no value");
}

TEST_CASE("flags: --no-graphs takes no value and keeps every GPU cycle on its streams", "[flags]") {
  const dfg::FlagsResult r = parse({"--no-graphs"});
  REQUIRE(r.ok());
  CHECK_FALSE(r.options.graphs);
  CHECK(error_of({"--no-graphs=1"}) == "error: --no-graphs: takes no value");
  CHECK(dfg::usage("app", kParams).find("--no-graphs") != std::string::npos);
}

TEST_CASE("flags: --graph-cycles sets the cycles a graph holds, 1 to kMaxGraphCycles", "[flags]") {
  CHECK(parse({}).options.graph_cycles == 0);  // the plan's
  CHECK(parse({"--graph-cycles", "16"}).options.graph_cycles == 16);
  CHECK(parse({"--graph-cycles=1"}).options.graph_cycles == 1);
  CHECK(error_of({"--graph-cycles"}) ==
        "error: --graph-cycles: missing value (cycles a graph holds)");
  CHECK(error_of({"--graph-cycles=0"}) == "error: --graph-cycles: must be in [1, 1024], got 0");
  CHECK(error_of({"--graph-cycles=1025"}) ==
        "error: --graph-cycles: must be in [1, 1024], got 1025");
  CHECK(error_of({"--graph-cycles=8x"}).starts_with("error: --graph-cycles: "));
  CHECK(dfg::usage("app", kParams).find("--graph-cycles N") != std::string::npos);
}

TEST_CASE("flags: --rebalance turns the policy on, looking every MS ms", "[flags]") {
  CHECK(parse({}).options.rebalance_ms == 0);  // off
  CHECK(parse({"--rebalance"}).options.rebalance_ms == dfg::kDefaultRebalanceMs);
  CHECK(parse({"--rebalance=50"}).options.rebalance_ms == 50);
  CHECK(error_of({"--rebalance=0"}) == "error: --rebalance: must be in [1, 60000], got 0");
  CHECK(error_of({"--rebalance=fast"}).starts_with("error: --rebalance: expected an integer"));
  CHECK(error_of({"--rebalance", "50"}).starts_with("error: "));  // a value only after '='
  CHECK(dfg::usage("app", kParams).find("--rebalance[=MS]") != std::string::npos);
}

TEST_CASE("flags: a program on several hosts refuses the flags of one host", "[flags]") {
  dfg::Options o;
  CHECK(dfg::several_hosts_flags_error(o, 2).empty());
  o.rebalance_ms = 200;
  CHECK(dfg::several_hosts_flags_error(o, 2) ==
        "error: --rebalance: it runs on 2 hosts, and the rebalancing policy moves nodes on one "
        "host only (move them with --migrate-control)");
  o.restart_file = "ck";
  CHECK(dfg::several_hosts_flags_error(o, 3) ==
        "error: --restart: this program takes no checkpoints: it runs on 3 hosts, and "
        "checkpoints are taken on one host only");
}

TEST_CASE("flags: --checkpoint, --checkpoint-every and --restart", "[flags]") {
  const dfg::FlagsResult r =
      parse({"--checkpoint", "ck", "--checkpoint-every=250", "--restart=old.ck"});
  REQUIRE(r.ok());
  CHECK(r.options.checkpoint_file == "ck");
  CHECK(r.options.checkpoint_every == 250);
  CHECK(r.options.restart_file == "old.ck");
  CHECK(parse({}).options.checkpoint_file.empty());
  CHECK(parse({}).options.restart_file.empty());
  CHECK(error_of({"--checkpoint"}) == "error: --checkpoint: missing value (a checkpoint file)");
  CHECK(error_of({"--restart="}) == "error: --restart: missing value (a checkpoint file)");
  CHECK(error_of({"--checkpoint-every", "10"}) ==
        "error: --checkpoint-every: needs --checkpoint FILE (where to write them)");
  CHECK(error_of({"--checkpoint=ck", "--checkpoint-every", "0"})
            .starts_with("error: --checkpoint-every: must be in [1, "));
  CHECK(error_of({"--checkpoint=ck", "--checkpoint-every", "x"})
            .starts_with("error: --checkpoint-every: "));
  CHECK(dfg::usage("app", kParams).find("--restart FILE") != std::string::npos);
  // A batched program counts cycles: the period is a multiple of the batch, the default rounds up.
  std::vector<const char*> argv{"app", "--checkpoint=ck", "--checkpoint-every=12"};
  dfg::FlagsResult batched = dfg::parse_flags(3, argv.data(), kParams, 4);
  REQUIRE(batched.ok());
  CHECK(batched.options.checkpoint_every == 3);
  argv[2] = "--checkpoint-every=10";
  CHECK(dfg::parse_flags(3, argv.data(), kParams, 4).error ==
        "error: --checkpoint-every: 10 is not a multiple of 4, the iterations one cycle of this "
        "program runs (its app's `batch 4`)");
  CHECK(dfg::parse_flags(2, argv.data(), kParams, 3).options.checkpoint_every == 334);
}

TEST_CASE("flags: every flag, both spellings", "[flags]") {
  const dfg::FlagsResult r = parse(
      {"--iterations", "500", "--no-overlap", "--sync=barrier", "--trace", "t.json", "--stats",
       "--set", "N=4096", "--set=LOOPS=0", "--migrate", "i2:B.g1@25", "--migrate=c:A.cpu@7"});
  REQUIRE(r.ok());
  CHECK(r.options.iterations == 500);
  CHECK_FALSE(r.options.overlap);
  CHECK(r.options.sync == dfg::SyncMode::barrier);
  CHECK(r.options.trace_file == "t.json");
  CHECK(r.options.stats);
  CHECK(r.options.params == std::vector<std::int64_t>{4096, 0, -3});
  REQUIRE(r.options.migrations.size() == 2);
  CHECK(r.options.migrations[0] == dfg::MigrationRequest{"i2", "B.g1", 25});
  CHECK(r.options.migrations[1] == dfg::MigrationRequest{"c", "A.cpu", 7});

  const dfg::FlagsResult s =
      parse({"--iterations=3", "--sync", "neighbours", "--trace=x.json", "--set", "OFFSET=-9"});
  REQUIRE(s.ok());
  CHECK(s.options.iterations == 3);
  CHECK(s.options.sync == dfg::SyncMode::neighbours);
  CHECK(s.options.trace_file == "x.json");
  CHECK(s.options.params[2] == -9);
}

TEST_CASE("flags: --stats=period keeps the period and drops per-item timing", "[flags]") {
  const dfg::FlagsResult a = parse({"--stats"});
  const dfg::FlagsResult b = parse({"--stats=period"});
  REQUIRE((a.ok() && b.ok()));
  CHECK((a.options.stats && a.options.stats_per_item));
  CHECK((b.options.stats && !b.options.stats_per_item));
}

TEST_CASE("flags: --stats-json FILE times every item unless --stats=period", "[flags]") {
  const dfg::FlagsResult a = parse({"--stats-json", "s.json"});
  const dfg::FlagsResult b = parse({"--stats-json=t.json", "--stats=period"});
  const dfg::FlagsResult c = parse({"--stats-json"});
  REQUIRE((a.ok() && b.ok()));
  CHECK(a.options.stats_json_file == "s.json");
  CHECK_FALSE(a.options.stats);  // nothing printed
  CHECK((a.options.measures() && a.options.measures_items()));
  CHECK(b.options.stats_json_file == "t.json");
  CHECK((b.options.measures() && !b.options.measures_items()));
  CHECK(c.exit_code == 1);
  CHECK(c.error == "error: --stats-json: missing value (an output file)");
  CHECK(dfg::usage("app", kParams).find("  --stats-json FILE ") != std::string::npos);
}

TEST_CASE("flags: --profile FILE times every item without printing", "[flags]") {
  const dfg::FlagsResult none = parse({});
  REQUIRE(none.ok());
  CHECK(none.options.profile_file.empty());
  CHECK_FALSE(none.options.measures());
  CHECK_FALSE(none.options.measures_items());

  const dfg::FlagsResult a = parse({"--profile", "costs.json"});
  const dfg::FlagsResult b = parse({"--profile=p.json", "--stats=period"});
  const dfg::FlagsResult c = parse({"--stats=period"});
  const dfg::FlagsResult d = parse({"--stats"});
  REQUIRE((a.ok() && b.ok() && c.ok() && d.ok()));
  CHECK(a.options.profile_file == "costs.json");
  CHECK_FALSE(a.options.stats);  // nothing printed
  CHECK((a.options.measures() && a.options.measures_items()));
  CHECK(b.options.profile_file == "p.json");
  CHECK((b.options.stats && !b.options.stats_per_item));
  CHECK(b.options.measures_items());  // the profile needs the items even with --stats=period
  CHECK((c.options.measures() && !c.options.measures_items()));
  CHECK((d.options.measures() && d.options.measures_items()));
  CHECK(dfg::usage("app", kParams).find("  --profile FILE ") != std::string::npos);
}

TEST_CASE("flags: a repeated flag overrides the earlier one", "[flags]") {
  const dfg::FlagsResult r =
      parse({"--iterations", "5", "--iterations", "6", "--set", "N=1", "--set", "N=2"});
  REQUIRE(r.ok());
  CHECK(r.options.iterations == 6);
  CHECK(r.options.params[0] == 2);
}

TEST_CASE("flags: --help", "[flags]") {
  const dfg::FlagsResult r = parse({"--help"});
  REQUIRE(r.ok());
  CHECK(r.options.help);
  const std::string u = dfg::usage("app", kParams);
  CHECK(u.rfind("usage: app [flags]\n", 0) == 0);
  CHECK(u.find("  --iterations N ") != std::string::npos);
  CHECK(u.find("\nruntime params:\n  N = 2048 (in [1, 1048576]) matrix side\n  LOOPS = 100 (>= 0)\n"
               "  OFFSET = -3\n") != std::string::npos);
  CHECK(dfg::usage("app", {}).find("\nruntime params:") == std::string::npos);
}

TEST_CASE("flags: integers as the spec writes them, a params file with a byte order mark",
          "[flags]") {
  CHECK(parse({"--iterations", "0x10"}).options.iterations == 16);
  CHECK(parse({"--iterations", "1_000"}).options.iterations == 1000);
  CHECK(error_of({"--iterations", "1__0"}) ==
        "error: --iterations: digit separator '_' must be between digits, got '1__0'");
  CHECK(error_of({"--iterations", "0x"}) ==
        "error: --iterations: expected hexadecimal digits after '0x', got '0x'");
  std::string why;
  CHECK(dfg::detail::parse_int_literal("-9223372036854775808", why) == INT64_MIN);
  CHECK_FALSE(dfg::detail::parse_int_literal("9223372036854775808", why));
  CHECK(why == "integer out of range");
  CHECK(dfg::detail::parse_int_literal("0x7FFF_FFFF_FFFF_FFFF", why) == INT64_MAX);
}

TEST_CASE("flags: error messages", "[flags]") {
  CHECK(error_of({"--iterations"}) == "error: --iterations: missing value (a positive integer)");
  CHECK(error_of({"--iterations", "abc"}) == "error: --iterations: expected an integer, got 'abc'");
  CHECK(error_of({"--iterations=12x"}) == "error: --iterations: expected an integer, got '12x'");
  CHECK(error_of({"--iterations="}) == "error: --iterations: expected an integer, got ''");
  CHECK(error_of({"--iterations", "0"}) ==
        "error: --iterations: must be in [1, 4611686018427387904], got 0");
  CHECK(error_of({"--iterations", "-5"}) ==
        "error: --iterations: must be in [1, 4611686018427387904], got -5");
  // Iterations plus the latency must stay far from overflowing: INT64_MAX is refused.
  CHECK(error_of({"--iterations", "9223372036854775807"}) ==
        "error: --iterations: must be in [1, 4611686018427387904], got 9223372036854775807");
  CHECK(error_of({"--iterations", "4611686018427387905"}) ==
        "error: --iterations: must be in [1, 4611686018427387904], got 4611686018427387905");
  CHECK(parse({"--iterations", "4611686018427387904"}).options.iterations == dfg::kMaxIterations);
  CHECK(error_of({"--iterations", "+5"}) == "error: --iterations: expected an integer, got '+5'");
  CHECK(error_of({"--iterations", " 5"}) == "error: --iterations: expected an integer, got ' 5'");
  CHECK(error_of({"--iterations", "99999999999999999999"}) ==
        "error: --iterations: integer out of range, got '99999999999999999999'");
  CHECK(error_of({"--no-overlap=1"}) == "error: --no-overlap: takes no value");
  CHECK(error_of({"--stats=yes"}) == "error: --stats: expected no value or 'period', got 'yes'");
  CHECK(error_of({"--help=me"}) == "error: --help: takes no value");
  CHECK(error_of({"--sync"}) == "error: --sync: missing value ('barrier' or 'neighbours')");
  CHECK(error_of({"--sync=bsp"}) == "error: --sync: expected 'barrier' or 'neighbours', got 'bsp'");
  CHECK(error_of({"--trace"}) == "error: --trace: missing value (an output file)");
  CHECK(error_of({"--trace="}) == "error: --trace: missing value (an output file)");
  CHECK(error_of({"--profile"}) == "error: --profile: missing value (an output file)");
  CHECK(error_of({"--profile="}) == "error: --profile: missing value (an output file)");
  CHECK(error_of({"--set"}) == "error: --set: missing value (NAME=VALUE)");
  CHECK(error_of({"--set", "N"}) == "error: --set: expected NAME=VALUE, got 'N'");
  CHECK(error_of({"--set", "=4"}) == "error: --set: expected NAME=VALUE, got '=4'");
  CHECK(error_of({"--set", "N="}) == "error: --set: expected NAME=VALUE, got 'N='");
  CHECK(error_of({"--set", "M=4"}) ==
        "error: --set M=4: unknown runtime param 'M' (known: N, LOOPS, OFFSET)");
  CHECK(error_of({"--set", "M=4"}, {}) ==
        "error: --set M=4: unknown runtime param 'M' (this program has no runtime params)");
  CHECK(error_of({"--set", "N=four"}) == "error: --set N=four: N: expected an integer, got 'four'");
  CHECK(error_of({"--set", "N=12x"}) == "error: --set N=12x: N: expected an integer, got '12x'");
  CHECK(parse({"--set", "N=0x10"}).options.params[0] == 16);  // as the spec writes integers
  CHECK(error_of({"--set", "N=0xg"}) == "error: --set N=0xg: N: expected an integer, got '0xg'");
  CHECK(
      error_of({"--set", "N=4611686018427387905000"}) ==
      "error: --set N=4611686018427387905000: N: integer out of range, got '4611686018427387905000'");
  CHECK(error_of({"--set", "N=0"}) == "error: --set N=0: N must be in [1, 1048576]");
  CHECK(error_of({"--set", "N=-4"}) == "error: --set N=-4: N must be in [1, 1048576]");
  CHECK(error_of({"--set", "N=2000000"}) == "error: --set N=2000000: N must be in [1, 1048576]");
  CHECK(error_of({"--set", "LOOPS=-1"}) == "error: --set LOOPS=-1: LOOPS must be >= 0");
  CHECK(error_of({"--params"}) == "error: --params: missing value (a file)");
  CHECK(error_of({"--params", "/nonexistent/p.txt"}) ==
        "error: --params: cannot read '/nonexistent/p.txt'");
  CHECK(error_of({"--migrate"}) == "error: --migrate: missing value (NODE:PE@ITERATION)");
  CHECK(error_of({"--migrate", "i2"}) ==
        "error: --migrate: expected NODE:PE@ITERATION (e.g. i2:B.g1@25), got 'i2'");
  CHECK(error_of({"--migrate", "i2:B.g1"}) ==
        "error: --migrate: expected NODE:PE@ITERATION (e.g. i2:B.g1@25), got 'i2:B.g1'");
  CHECK(error_of({"--migrate", ":B.g1@3"}) ==
        "error: --migrate: expected NODE:PE@ITERATION (e.g. i2:B.g1@25), got ':B.g1@3'");
  CHECK(error_of({"--migrate", "i2:@3"}) ==
        "error: --migrate: expected NODE:PE@ITERATION (e.g. i2:B.g1@25), got 'i2:@3'");
  CHECK(error_of({"--migrate", "i2:B.g1@-1"}) ==
        "error: --migrate: expected NODE:PE@ITERATION (e.g. i2:B.g1@25), got 'i2:B.g1@-1'");
  CHECK(error_of({"--frobnicate"}) == "error: unknown flag '--frobnicate' (see --help)");
  CHECK(error_of({"--frobnicate=3"}) == "error: unknown flag '--frobnicate' (see --help)");
  CHECK(error_of({"input.txt"}) == "error: unexpected argument 'input.txt' (see --help)");
  CHECK(error_of({"-n"}) == "error: unexpected argument '-n' (see --help)");
  CHECK(error_of({"--"}) == "error: unexpected argument '--' (see --help)");
}

TEST_CASE("flags: --params files", "[flags]") {
  TempFile good("good.txt",
                "# sizes for the big run\n"
                "N = 4096   # side\n"
                "\n"
                "  LOOPS=7\n");
  const dfg::FlagsResult r = parse({"--params", good.path.c_str(), "--set", "LOOPS=9"});
  REQUIRE(r.ok());
  CHECK(r.options.params == std::vector<std::int64_t>{4096, 9, -3});
  // Command-line order: the file applies after the --set that precedes it.
  const dfg::FlagsResult s = parse({"--set", "LOOPS=9", ("--params=" + good.path).c_str()});
  REQUIRE(s.ok());
  CHECK(s.options.params[1] == 7);

  TempFile syntax("syntax.txt", "N = 1\nLOOPS\n");
  CHECK(error_of({"--params", syntax.path.c_str()}) ==
        "error: --params " + syntax.path + ":2: expected NAME = VALUE, got 'LOOPS'");
  TempFile unknown("unknown.txt", "\n\nM = 3\n");
  CHECK(error_of({"--params", unknown.path.c_str()}) ==
        "error: --params " + unknown.path +
            ":3: unknown runtime param 'M' (known: N, LOOPS, OFFSET)");
  TempFile range("range.txt", "N = 0\n");
  CHECK(error_of({"--params", range.path.c_str()}) ==
        "error: --params " + range.path + ":1: N must be in [1, 1048576], got 0");
  TempFile twice("twice.txt", "N = 1\nN = 2\n");
  CHECK(error_of({"--params", twice.path.c_str()}) ==
        "error: --params " + twice.path + ":2: N is set twice");
  TempFile value("value.txt", "N = 1 2\n");
  CHECK(error_of({"--params", value.path.c_str()}) ==
        "error: --params " + value.path + ":1: N: expected an integer, got '1 2'");
  TempFile empty_value("empty.txt", "N =   # nothing\n");
  CHECK(error_of({"--params", empty_value.path.c_str()}) ==
        "error: --params " + empty_value.path + ":1: expected NAME = VALUE, got 'N ='");
}

TEST_CASE("flags: --params reads only a regular file of reasonable size", "[flags]") {
  const std::string dir = std::filesystem::temp_directory_path().string();
  CHECK(error_of({"--params", dir.c_str()}) ==
        "error: --params: '" + dir + "' is a directory, not a file");
  CHECK(error_of({"--params", "/dev/null"}) ==
        "error: --params: '/dev/null' is not a regular file");
  TempFile big("big.txt", std::string(dfg::kMaxParamsFileBytes + 1, '#'));
  CHECK(error_of({"--params", big.path.c_str()}) ==
        "error: --params: '" + big.path + "' is too large (1048577 bytes; at most 1048576)");
  TempFile fits("fits.txt", std::string(dfg::kMaxParamsFileBytes - 6, '#') + "\nN = 7");
  CHECK(parse({"--params", fits.path.c_str()}).options.params[0] == 7);
}

TEST_CASE("flags: apply_params_text directly", "[flags]") {
  std::vector<std::int64_t> values{1, 2, 3};
  CHECK(dfg::apply_params_text("OFFSET = 10\r\nN=5", "p", kParams, values).empty());
  CHECK(values == std::vector<std::int64_t>{5, 2, 10});
  CHECK(dfg::apply_params_text("", "p", kParams, values).empty());
  // A byte order mark (a file saved by some editors) is not part of the first name.
  CHECK(dfg::apply_params_text("\xEF\xBB\xBFN = 0x20\nOFFSET = 1_0", "p", kParams, values).empty());
  CHECK(values == std::vector<std::int64_t>{32, 2, 10});
}
