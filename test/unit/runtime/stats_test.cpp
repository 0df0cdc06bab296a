#include "dfg/stats.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = dfg::Stats::Clock;
using std::chrono::milliseconds;

}  // namespace

TEST_CASE("stats: per-entry times, period, throughput, memory", "[stats]") {
  dfg::Stats stats(/*cycles=*/12, /*warmup=*/2);
  const int cpu = stats.add_pe("A.cpu");
  const int gpu = stats.add_pe("A.g0");
  const int fire = stats.add_entry("firing", "i1 (Inc)", "A.g0");
  const int copy = stats.add_entry("transfer", "p.m -> i1.a", "A.cpu>A.g0", 16u << 20);
  const int idle = stats.add_entry("firing", "c (Consumer)", "A.cpu");
  stats.add_time(fire, 0.001);
  stats.add_time(fire, 0.003);
  stats.add_time(copy, 0.0005);

  // Cycle k ends at 10 ms * k on the CPU and 1 ms later on the GPU; the warm-up cycles are slow.
  const Clock::time_point t0{};
  for (std::int64_t k = 0; k < 12; ++k) {
    const auto base = t0 + milliseconds(k < 2 ? 100 * k : 10 * k + 200);
    stats.end_cycle(cpu, k, base);
    stats.end_cycle(gpu, k, base + milliseconds(1));
  }
  stats.end_cycle(cpu, 12, t0);  // beyond the cycles: ignored
  stats.note_alloc(cpu, 32u << 20);
  stats.note_alloc(gpu, 64u << 20);
  stats.note_free(gpu, 64u << 20);
  stats.note_alloc(gpu, 16u << 20);

  const dfg::Stats::Summary s = stats.summary();
  REQUIRE(s.entries.size() == 3);
  CHECK(s.entries[0].count == 2);
  CHECK(s.entries[0].mean_s == Approx(0.002));
  CHECK(s.entries[0].min_s == Approx(0.001));
  CHECK(s.entries[0].max_s == Approx(0.003));
  CHECK(s.entries[2].count == 0);
  CHECK(s.periods == 9);
  CHECK(s.period_s == Approx(0.010));
  CHECK(s.iterations_per_s == Approx(100.0));
  CHECK(s.bytes_per_s == Approx(100.0 * (16u << 20)));
  REQUIRE(s.peak_memory.size() == 2);
  CHECK(s.peak_memory[0].second == 32u << 20);
  CHECK(s.peak_memory[1].second == 64u << 20);
  static_cast<void>(idle);

  std::ostringstream os;
  stats.print(os);
  CHECK(os.str() ==
        "kind      name                      pe             count   mean ms    min ms    max ms\n"
        "firing    i1 (Inc)                  A.g0               2     2.000     1.000     3.000\n"
        "transfer  p.m -> i1.a               A.cpu>A.g0         1     0.500     0.500     0.500\n"
        "firing    c (Consumer)              A.cpu              0     0.000     0.000     0.000\n"
        "iteration period: 10.000 ms over 9 iterations (after 2 warm-up cycles)\n"
        "throughput: 100.0 iterations/s, 1.6 GiB/s\n"
        "peak memory: A.cpu 32 MiB, A.g0 64 MiB\n");
}

TEST_CASE("stats: a batched program's period and throughput are an iteration's", "[stats][batch]") {
  // 4 iterations a cycle, a cycle every 10 ms: 2.5 ms an iteration, 400 iterations/s.
  dfg::Stats stats(/*cycles=*/6, /*warmup=*/1, /*batch=*/4);
  const int cpu = stats.add_pe("A.cpu");
  const Clock::time_point t0{};
  for (std::int64_t k = 0; k < 6; ++k) stats.end_cycle(cpu, k, t0 + milliseconds(10 * k));
  const dfg::Stats::Summary s = stats.summary();
  CHECK(s.batch == 4);
  CHECK(s.periods == 4);               // cycles
  CHECK(s.period_s == Approx(0.010));  // a cycle's, as --profile models cycles
  CHECK(s.iterations_per_s == Approx(400.0));
  std::ostringstream os;
  stats.print(os);
  CHECK(os.str().find("iteration period: 2.500 ms over 16 iterations (after 1 warm-up cycles)\n"
                      "throughput: 400.0 iterations/s\n") != std::string::npos);
  const std::string json = dfg::Stats::format_json(s, 1, {});
  CHECK(json.find("\"batch\": 4, \"period_s\": 0.0025, \"periods\": 16") != std::string::npos);
}

TEST_CASE("stats: a node that fires q times a cycle: each call's time beside the run's",
          "[stats][firings]") {
  // d fires 4 times a run (a cycle): 2 runs of 8 and 4 us are 8 calls of 1.5 us on average.
  dfg::Stats stats(/*cycles=*/4, /*warmup=*/1);
  stats.add_pe("A.cpu");
  const int d = stats.add_entry("firing", "d (Decimate)", "A.cpu", 0, 4);
  const int s = stats.add_entry("firing", "s (Source)", "A.cpu");
  const int t = stats.add_entry("transfer", "d.y@A.cpu -> k.x@A.g0", "A.cpu>A.g0", 64);
  stats.add_time(d, 8e-6);
  stats.add_time(d, 4e-6);
  stats.add_time(s, 1e-6);
  stats.add_time(t, 2e-6);
  const dfg::Stats::Summary summary = stats.summary();
  REQUIRE(summary.entries.size() == 3);
  CHECK(summary.entries[0].firings == 4);
  CHECK(summary.entries[1].firings == 1);

  const std::string table = dfg::Stats::format(summary, 1);
  const auto row = [&](std::string_view name) {
    const auto at = table.find(name);
    REQUIRE(at != std::string::npos);
    return table.substr(at, table.find('\n', at) - at);
  };
  CHECK(row("d (Decimate)").ends_with("     2     0.006     0.004     0.008  x4: 1.5 us a firing"));
  CHECK(row("s (Source)").ends_with("0.001"));  // one call a run: nothing more to say
  CHECK(row("d.y@A.cpu").ends_with("0.002"));

  const std::string json = dfg::Stats::format_json(summary, 1, {});
  CHECK(json.find("\"name\": \"d (Decimate)\"") != std::string::npos);
  CHECK(json.find("\"firings\": 8, \"firing_mean_s\": 1.5e-06") != std::string::npos);
  CHECK(json.find("\"firings\": 1, \"firing_mean_s\": 1e-06") != std::string::npos);
  const auto transfer = json.find("d.y@A.cpu");
  CHECK(json.substr(transfer, json.find('}', transfer) - transfer).find("firings") ==
        std::string::npos);  // a transfer has no calls of a node
}

TEST_CASE("stats: too few cycles leave the period unmeasured", "[stats]") {
  dfg::Stats stats(3, 2);
  const int pe = stats.add_pe("A.cpu");
  stats.end_cycle(pe, 0);
  stats.end_cycle(pe, 1);
  stats.end_cycle(pe, 2);
  const auto s = stats.summary();
  CHECK(s.periods == 0);
  CHECK(s.period_s == 0);
  CHECK(dfg::Stats::format(s, 2).find("iteration period: not measured") != std::string::npos);
}

TEST_CASE("stats: --stats=period prints no table heading; no bytes where nothing is copied",
          "[stats]") {
  dfg::Stats stats(12, 2);
  const int pe = stats.add_pe("A.c0");
  stats.add_entry("firing", "c (Consumer)", "A.c0", 0);
  const Clock::time_point t0{};
  for (std::int64_t k = 0; k < 12; ++k) stats.end_cycle(pe, k, t0 + milliseconds(10 * k));
  std::ostringstream os;
  stats.print(os, false);
  CHECK(os.str() ==
        "iteration period: 10.000 ms over 9 iterations (after 2 warm-up cycles)\n"
        "throughput: 100.0 iterations/s\n"
        "peak memory: A.c0 0 B\n");
}

TEST_CASE("stats: a cycle some PE did not finish does not count", "[stats]") {
  dfg::Stats stats(5, 0);
  const int a = stats.add_pe("a");
  const int b = stats.add_pe("b");
  const Clock::time_point t0{};
  for (std::int64_t k = 0; k < 5; ++k) stats.end_cycle(a, k, t0 + milliseconds(k));
  for (std::int64_t k = 0; k < 3; ++k) stats.end_cycle(b, k, t0 + milliseconds(2 * k));
  const auto s = stats.summary();
  CHECK(s.periods == 2);
  CHECK(s.period_s == Approx(0.002));
}

TEST_CASE("stats stress: one thread per PE and entry, memory from any thread", "[stats][stress]") {
  constexpr int kPes = 3;
  constexpr std::int64_t kCycles = 2000;
  dfg::Stats stats(kCycles, 1);
  std::vector<int> pes, entries;
  for (int i = 0; i < kPes; ++i) {
    pes.push_back(stats.add_pe("pe" + std::to_string(i)));
    entries.push_back(
        stats.add_entry("firing", "n" + std::to_string(i), "pe" + std::to_string(i), 8));
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < kPes; ++i) {
    threads.emplace_back([&, i] {
      stats.note_alloc(0, 1000);
      for (std::int64_t k = 0; k < kCycles; ++k) {
        stats.add_time(entries[static_cast<std::size_t>(i)], 1e-6);
        stats.end_cycle(pes[static_cast<std::size_t>(i)], k);
      }
      stats.note_free(0, 1000);
    });
  }
  for (auto& th : threads) th.join();
  const auto s = stats.summary();
  for (const auto& e : s.entries) CHECK(e.count == static_cast<std::uint64_t>(kCycles));
  CHECK(s.periods == kCycles - 2);
  CHECK(s.peak_memory[0].second >= 1000);
  CHECK(s.peak_memory[0].second <= 3000);
}

TEST_CASE("stats: on several hosts the table names its host and each transfer's end", "[stats]") {
  dfg::Stats stats(10, 2);
  stats.add_pe("B.cpu");
  const int in = stats.add_entry("transfer", "x.m@A.cpu -> x.m@B.cpu", "A.cpu>B.cpu", 64);
  const int out = stats.add_entry("transfer", "y.m@B.cpu -> y.m@C.cpu", "B.cpu>C.cpu", 64);
  const int local = stats.add_entry("copy", "z <- w", "B.cpu");
  for (int e : {in, out, local}) stats.add_time(e, 0.001);
  const std::string text = dfg::Stats::format(stats.summary(), 2, "B");
  CHECK(text.rfind("host B\nkind ", 0) == 0);
  CHECK(text.find("A.cpu>B.cpu        1     1.000     1.000     1.000  receiver\n") !=
        std::string::npos);
  CHECK(text.find("B.cpu>C.cpu        1     1.000     1.000     1.000  sender\n") !=
        std::string::npos);
  CHECK(text.find("B.cpu              1     1.000     1.000     1.000\n") != std::string::npos);
  // On one host: no heading, no end.
  const std::string one = dfg::Stats::format(stats.summary(), 2);
  CHECK(one.rfind("kind ", 0) == 0);
  CHECK(one.find("sender") == std::string::npos);
  CHECK(one.find("receiver") == std::string::npos);
}

TEST_CASE("stats: the JSON of several hosts says which end each transfer between hosts is",
          "[stats]") {
  dfg::Stats stats(10, 2);
  stats.add_pe("B.cpu");
  const int in = stats.add_entry("transfer", "x.m@A.cpu -> x.m@B.cpu", "A.cpu>B.cpu", 64);
  const int out = stats.add_entry("transfer", "y.m@B.cpu -> y.m@C.cpu", "B.cpu>C.cpu", 64);
  const int local = stats.add_entry("transfer", "z.m@B.cpu -> z.m@B.g0", "B.cpu>B.g0", 64);
  for (int e : {in, out, local}) stats.add_time(e, 0.001);
  dfg::RunSettings run;
  run.host = "B";
  run.iterations = 1;
  const std::string json = dfg::Stats::format_json(stats.summary(), 2, run);
  const auto entry = [&](std::string_view name) {
    const auto at = json.find(std::string("\"name\": \"") + std::string(name) + "\"");
    REQUIRE(at != std::string::npos);
    return json.substr(at, json.find('}', at) - at);
  };
  CHECK(json.find("\"host\": \"B\"") != std::string::npos);
  CHECK(entry("x.m@A.cpu -> x.m@B.cpu").find(", \"end\": \"receiver\"") != std::string::npos);
  CHECK(entry("y.m@B.cpu -> y.m@C.cpu").find(", \"end\": \"sender\"") != std::string::npos);
  CHECK(entry("z.m@B.cpu -> z.m@B.g0").find("\"end\"") == std::string::npos);  // within the host
}
