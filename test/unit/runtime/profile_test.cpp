#include "dfg/profile.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

namespace {

using Clock = dfg::Stats::Clock;
using Json = nlohmann::json;

/// Every PE ends cycle k at k * period_us (all cycles complete, so the period is period_us).
void end_cycles(dfg::Stats& stats, int pes, std::int64_t cycles, std::int64_t period_us) {
  for (std::int64_t k = 0; k < cycles; ++k)
    for (int pe = 0; pe < pes; ++pe)
      stats.end_cycle(pe, k, Clock::time_point{} + std::chrono::microseconds(k * period_us));
}

constexpr std::uint64_t kMiB16 = 16u << 20;

/// The one-GPU pipeline p -> i1 -> i2 -> c with overlap: P and C on the CPU (1 + 2 ms), the
/// incrementers on the GPU (0.5 ms each), H2D 0.4 ms, D2H 0.8 ms, a delay copy, period 3.5 ms.
dfg::Profile one_gpu(std::int64_t cycles) {
  dfg::Stats stats(cycles, 2);
  stats.add_pe("A.cpu");
  stats.add_pe("A.g0");
  const int h2d = stats.add_entry("transfer", "p.m -> p.m@A.g0", "A.cpu>A.g0", kMiB16);
  const int p = stats.add_entry("firing", "p (Producer)", "A.cpu");
  const int i1 = stats.add_entry("firing", "i1 (Inc)", "A.g0");
  const int i2 = stats.add_entry("firing", "i2 (Inc)", "A.g0");
  const int copy = stats.add_entry("copy", "x <- y", "A.g0");
  const int d2h = stats.add_entry("transfer", "i2.b@A.g0 -> i2.b", "A.g0>A.cpu", kMiB16);
  const int c = stats.add_entry("firing", "c (Consumer)", "A.cpu");
  for (int k = 0; k < 4; ++k) {
    stats.add_time(h2d, k % 2 == 0 ? 0.0003 : 0.0005);
    stats.add_time(p, 0.001);
    stats.add_time(i1, 0.0005);
    stats.add_time(i2, 0.0005);
    stats.add_time(copy, 0.0003);
    stats.add_time(d2h, 0.0008);
    stats.add_time(c, 0.002);
  }
  end_cycles(stats, 2, cycles, 3500);
  dfg::Profile profile(/*overlap=*/true, 100, stats.summary());
  profile.add_pe("A.cpu", "cpu");
  profile.add_pe("A.g0", "gpu");
  profile.add_entry("transfer", "A.cpu -> A.g0", "A.cpu>A.g0", kMiB16, 0);
  profile.add_entry("firing", "p", "A.cpu", 0, 0);
  profile.add_entry("firing", "i1", "A.g0", 0, 0, "nb_loop=100");
  profile.add_entry("firing", "i2", "A.g0", 0, 0, "nb_loop=300 fast=1");
  profile.add_entry("copy", nullptr, "A.g0", 0, 0);
  profile.add_entry("transfer", "A.g0 -> A.cpu", "A.g0>A.cpu", kMiB16, 0);
  profile.add_entry("firing", "c", "A.cpu", 0, 0);
  return profile;
}

}  // namespace

TEST_CASE("profile: firing means, link bandwidths and the overlap overhead", "[profile]") {
  const dfg::Profile profile = one_gpu(12);
  const dfg::Profile::Figures f = profile.figures();
  CHECK(f.measured);
  CHECK(f.model_s == Approx(0.003));      // A.cpu: P + C; the copy is not an item
  CHECK(f.overhead_s == Approx(0.0005));  // 3.5 ms - 3 ms
  REQUIRE(f.loads.size() == 6);           // both PEs, both directions, both engines
  CHECK(f.loads[0].name == "A.cpu firings");
  CHECK(f.loads[1].name == "A.g0 firings");
  CHECK(f.loads[1].seconds == Approx(0.001));
  CHECK(f.loads[2].name == "link A.cpu -> A.g0");
  CHECK(f.loads[3].name == "link A.g0 -> A.cpu");
  CHECK(f.loads[4].name == "A.g0 copy engine H2D");
  CHECK(f.loads[5].name == "A.g0 copy engine D2H");
  CHECK(f.loads[5].seconds == Approx(0.0008));

  // The exact text: names sorted, %.6g numbers, a fixed layout.
  CHECK(profile.json() ==
        "{\n"
        "  \"profile\": {\n"
        "    \"strategy\": \"overlap\",\n"
        "    \"iterations\": 100,\n"
        "    \"period_ms\": 3.5,\n"
        "    \"periods\": 9,\n"
        "    \"model_ms\": 3,\n"
        "    \"loads_ms\": {\n"
        "      \"A.cpu firings\": 3,\n"
        "      \"A.g0 firings\": 1,\n"
        "      \"link A.cpu -> A.g0\": 0.4,\n"
        "      \"link A.g0 -> A.cpu\": 0.8,\n"
        "      \"A.g0 copy engine H2D\": 0.4,\n"
        "      \"A.g0 copy engine D2H\": 0.8\n"
        "    }\n"
        "  },\n"
        "  \"nodes\": {\n"
        "    \"c\": {\"A.cpu\": {\"ms\": 2}},\n"
        "    \"i1\": {\"A.g0\": {\"ms\": 0.5, \"at\": {\"nb_loop\": 100}}},\n"
        "    \"i2\": {\"A.g0\": {\"ms\": 0.5, \"at\": {\"nb_loop\": 300, \"fast\": 1}}},\n"
        "    \"p\": {\"A.cpu\": {\"ms\": 1}}\n"
        "  },\n"
        "  \"links\": {\n"
        "    \"A.cpu -> A.g0\": {\"bandwidth_GB_s\": 41.943, \"latency_us\": 0},\n"
        "    \"A.g0 -> A.cpu\": {\"bandwidth_GB_s\": 20.9715, \"latency_us\": 0}\n"
        "  },\n"
        "  \"pes\": {\"A.cpu\": {\"kind\": \"cpu\"}, \"A.g0\": {\"kind\": \"gpu\"}},\n"
        "  \"cycle_overhead_ms\": {\"overlap\": 0.5}\n"
        "}\n");
  CHECK(profile.json() == one_gpu(12).json());  // deterministic
  const Json doc = Json::parse(profile.json());
  CHECK(doc["nodes"]["i1"]["A.g0"]["ms"].get<double>() == Approx(0.5));
  CHECK(doc["nodes"]["i2"]["A.g0"]["at"]["nb_loop"].get<int>() == 300);  // the node's params
  CHECK(!doc["nodes"]["p"]["A.cpu"].contains("at"));                     // a node without params
}

TEST_CASE("profile: transfers into one GPU over two links load its H2D engine", "[profile]") {
  dfg::Stats stats(10, 0);
  for (const char* pe : {"A.cpu", "A.g0", "A.g1"}) stats.add_pe(pe);
  const int a = stats.add_entry("transfer", "a", "A.cpu>A.g1", 1000);
  const int b = stats.add_entry("transfer", "b", "A.g0>A.g1", 1000);
  const int i = stats.add_entry("firing", "i (Inc)", "A.g1");
  stats.add_time(a, 0.0003);
  stats.add_time(b, 0.0002);
  stats.add_time(i, 0.0001);
  end_cycles(stats, 3, 10, 600);
  dfg::Profile profile(true, 10, stats.summary());
  profile.add_pe("A.cpu", "cpu");
  profile.add_pe("A.g0", "gpu");
  profile.add_pe("A.g1", "gpu");
  profile.add_entry("transfer", "A.cpu -> A.g1", "A.cpu>A.g1", 1000, 0);
  profile.add_entry("transfer", "A.g0 -> A.g1", "A.g0>A.g1", 1000, 0);
  profile.add_entry("firing", "i", "A.g1", 0, 0);
  const dfg::Profile::Figures f = profile.figures();
  CHECK(f.model_s == Approx(0.0005));  // A.g1's H2D engine: both transfers
  CHECK(f.overhead_s == Approx(0.0001));
  const Json doc = Json::parse(profile.json());
  CHECK(doc["profile"]["loads_ms"]["A.g1 copy engine H2D"].get<double>() == Approx(0.5));
  CHECK(doc["profile"]["loads_ms"]["A.g0 copy engine D2H"].get<double>() == Approx(0.2));
  CHECK_FALSE(doc["profile"]["loads_ms"].contains("A.cpu firings"));  // no load, not listed
  CHECK(doc["links"]["A.cpu -> A.g1"]["bandwidth_GB_s"].get<double>() ==
        Approx(1000 / 0.0003 / 1e9).epsilon(1e-5));
}

TEST_CASE("profile: without overlap, the phases by step; two sizes fit a latency", "[profile]") {
  dfg::Stats stats(10, 0);
  stats.add_pe("A.cpu");
  stats.add_pe("A.g0");
  // A.cpu -> A.g0 at 10 GB/s with 10 us: 4 MB in 0.41 ms (step 0), 2.4 MB in 0.25 ms (step 1).
  const int big = stats.add_entry("transfer", "big", "A.cpu>A.g0", 4000000);
  const int back = stats.add_entry("transfer", "back", "A.g0>A.cpu", 4000000);
  const int small = stats.add_entry("transfer", "small", "A.cpu>A.g0", 2400000);
  const int p = stats.add_entry("firing", "p (Producer)", "A.cpu");
  const int i = stats.add_entry("firing", "i (Inc)", "A.g0");
  for (int k = 0; k < 3; ++k) {
    stats.add_time(big, 0.00041);
    stats.add_time(back, 0.0003);
    stats.add_time(small, 0.00025);
    stats.add_time(p, 0.002);
    stats.add_time(i, 0.001);
  }
  end_cycles(stats, 2, 10, 3000);
  dfg::Profile profile(/*overlap=*/false, 10, stats.summary());
  profile.add_pe("A.cpu", "cpu");
  profile.add_pe("A.g0", "gpu");
  profile.add_entry("transfer", "A.cpu -> A.g0", "A.cpu>A.g0", 4000000, 0);
  profile.add_entry("transfer", "A.g0 -> A.cpu", "A.g0>A.cpu", 4000000, 0);
  profile.add_entry("transfer", "A.cpu -> A.g0", "A.cpu>A.g0", 2400000, 1);
  profile.add_entry("firing", "p", "A.cpu", 0, 0);
  profile.add_entry("firing", "i", "A.g0", 0, 0);
  const dfg::Profile::Figures f = profile.figures();
  REQUIRE(f.phases.size() == 3);
  CHECK(f.phases[0].name == "link A.cpu -> A.g0");
  CHECK(f.phases[0].seconds == Approx(0.00041));
  CHECK(f.phases[1].seconds == Approx(0.00025));
  CHECK(f.phases[2].name == "A.cpu firings");
  CHECK(f.model_s == Approx(0.00266));
  CHECK(f.overhead_s == Approx(0.00034));
  const Json doc = Json::parse(profile.json());
  CHECK(doc["profile"]["strategy"] == "no-overlap");
  CHECK(doc["profile"]["phases_ms"].size() == 3);
  CHECK(doc["cycle_overhead_ms"]["no-overlap"].get<double>() == Approx(0.34));
  CHECK_FALSE(doc["cycle_overhead_ms"].contains("overlap"));
  CHECK(doc["links"]["A.cpu -> A.g0"]["bandwidth_GB_s"].get<double>() ==
        Approx(10.0).epsilon(1e-5));
  CHECK(doc["links"]["A.cpu -> A.g0"]["latency_us"].get<double>() == Approx(10.0).epsilon(1e-4));
  CHECK(doc["links"]["A.g0 -> A.cpu"]["latency_us"].get<double>() == 0);
}

/// P -> I -> C on one GPU with 64-byte tokens in I's mapped host memory: the CPU copies them on
/// the host (1 us in, 2 us out), P and C fire 1 + 2 ms, I 0.5 ms.
dfg::Profile mapped_tokens(bool overlap) {
  dfg::Stats stats(10, 0);
  stats.add_pe("A.cpu");
  stats.add_pe("A.g0");
  const int in = stats.add_entry("transfer", "p.m -> p.m@A.g0", "A.cpu>A.g0", 64);
  const int p = stats.add_entry("firing", "p (Producer)", "A.cpu");
  const int i = stats.add_entry("firing", "i (Inc)", "A.g0");
  const int out = stats.add_entry("transfer", "i.b@A.g0 -> i.b", "A.g0>A.cpu", 64);
  const int c = stats.add_entry("firing", "c (Consumer)", "A.cpu");
  for (int k = 0; k < 3; ++k) {
    stats.add_time(in, 0.000001);
    stats.add_time(p, 0.001);
    stats.add_time(i, 0.0005);
    stats.add_time(out, 0.000002);
    stats.add_time(c, 0.002);
  }
  end_cycles(stats, 2, 10, 3100);
  dfg::Profile profile(overlap, 10, stats.summary());
  profile.add_pe("A.cpu", "cpu");
  profile.add_pe("A.g0", "gpu");
  profile.add_entry("transfer", "host copy A.cpu -> A.g0", "A.cpu>A.g0", 64, 0);
  profile.add_entry("firing", "p", "A.cpu", 0, 0);
  profile.add_entry("firing", "i", "A.g0", 0, 0);
  profile.add_entry("transfer", "host copy A.g0 -> A.cpu", "A.g0>A.cpu", 64, overlap ? 0 : 1);
  profile.add_entry("firing", "c", "A.cpu", 0, 0);
  return profile;
}

TEST_CASE("profile: a mapped token's host copy loads its CPU, never its link", "[profile]") {
  const dfg::Profile with = mapped_tokens(true);
  const dfg::Profile::Figures f = with.figures();
  REQUIRE(f.loads.size() == 2);  // no link, no copy engine
  CHECK(f.loads[0].name == "A.cpu firings");
  CHECK(f.loads[0].seconds == Approx(0.003003));  // P + C and both host copies: one thread
  CHECK(f.loads[1].name == "A.g0 firings");
  CHECK(f.overhead_s == Approx(0.000097));
  const Json doc = Json::parse(with.json());
  CHECK(doc["links"].empty());
  CHECK(doc["host_copies"]["A.cpu -> A.g0"]["bandwidth_GB_s"].get<double>() ==
        Approx(64 / 0.000001 / 1e9).epsilon(1e-5));
  CHECK(doc["host_copies"]["A.g0 -> A.cpu"]["bandwidth_GB_s"].get<double>() ==
        Approx(64 / 0.000002 / 1e9).epsilon(1e-5));
  CHECK(doc["host_copies"]["A.g0 -> A.cpu"]["latency_us"].get<double>() == 0);

  // Without overlap, each step's host copies are that step's resource, apart from the firings.
  const dfg::Profile::Figures g = mapped_tokens(false).figures();
  REQUIRE(g.phases.size() == 3);
  CHECK(g.phases[0].name == "A.cpu host copies");
  CHECK(g.phases[0].seconds == Approx(0.000001));
  CHECK(g.phases[1].name == "A.cpu host copies");
  CHECK(g.phases[1].seconds == Approx(0.000002));
  CHECK(g.phases[2].name == "A.cpu firings");
  CHECK(g.phases[2].seconds == Approx(0.003));
}

TEST_CASE("profile: an unmeasured period writes no overhead", "[profile]") {
  const dfg::Profile profile = one_gpu(2);  // every cycle is a warm-up cycle
  CHECK_FALSE(profile.period_measured());
  CHECK_FALSE(profile.figures().measured);
  const Json doc = Json::parse(profile.json());
  CHECK_FALSE(doc.contains("cycle_overhead_ms"));
  CHECK_FALSE(doc["profile"].contains("period_ms"));
  CHECK(doc["nodes"].size() == 4);
}

TEST_CASE("profile: write, and its errors; numbers and strings", "[profile]") {
  const dfg::Profile profile = one_gpu(12);
  const std::string path =
      (std::filesystem::temp_directory_path() / "dfg_profile_test.json").string();
  CHECK(profile.write(path).empty());
  std::ifstream in(path, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  CHECK(text == profile.json());
  std::remove(path.c_str());
  CHECK(profile.write("/nonexistent/dir/p.json") ==
        "error: --profile: cannot write '/nonexistent/dir/p.json'");

  CHECK(dfg::Profile::number(0.000123456789) == "0.000123457");
  CHECK(dfg::Profile::number(std::numeric_limits<double>::infinity()) == "0");
  CHECK(dfg::detail::json_string("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"");
}

TEST_CASE("profile: on several hosts, a link only from its receiving rank", "[profile]") {
  // Two ranks of A.cpu -> B.cpu: each times the transfer; A's time (the sender's) holds a wait.
  auto rank = [](const char* host, const char* pe, double transfer_s) {
    dfg::Stats stats(10, 2);
    stats.add_pe(pe);
    const int t = stats.add_entry("transfer", "x.m@A.cpu -> x.m@B.cpu", "A.cpu>B.cpu", kMiB16);
    const int f = stats.add_entry("firing", "n (N)", pe);
    for (int k = 0; k < 4; ++k) {
      stats.add_time(t, transfer_s);
      stats.add_time(f, 0.001);
    }
    end_cycles(stats, 1, 10, 5000);
    dfg::Profile profile(true, 100, stats.summary());
    profile.add_pe(pe, "cpu");
    profile.set_host(host);
    profile.add_entry("transfer", "A.cpu -> B.cpu", "A.cpu>B.cpu", kMiB16, 0);
    profile.add_entry("firing", "n", pe, 0, 0);
    return Json::parse(profile.json());
  };
  const Json a = rank("A", "A.cpu", 0.004), b = rank("B", "B.cpu", 0.002);
  CHECK(a["profile"]["host"] == "A");
  CHECK(a["links"].empty());                    // the sender's file leaves it out
  CHECK(a["profile"]["loads_ms"].size() == 1);  // its firings only
  CHECK(a["profile"]["loads_ms"]["A.cpu firings"] == Approx(1.0));
  CHECK(b["profile"]["host"] == "B");
  CHECK(b["links"]["A.cpu -> B.cpu"]["bandwidth_GB_s"] == Approx(kMiB16 / 0.002 / 1e9));
  CHECK(b["profile"]["loads_ms"]["link A.cpu -> B.cpu"] == Approx(2.0));
}

TEST_CASE("profile: a node moved while running, one figure per PE and loads by the share each ran",
          "[profile]") {
  // Node a ran 30 iterations on A.c1 (1 ms each) and 70 on A.c2 (2 ms); node s ran all 100 on
  // A.c0; on A.c2, a's firings were re-timed by the alternative (two entries of one PE).
  dfg::Stats stats(100, 0);
  for (const char* pe : {"A.c0", "A.c1", "A.c2"}) stats.add_pe(pe);
  const int s = stats.add_entry("firing", "s (Source)", "A.c0");
  const int a1 = stats.add_entry("firing", "a (Accumulate)", "A.c1");
  const int a2 = stats.add_entry("firing", "a (Accumulate)", "A.c2");
  const int a2_again = stats.add_entry("firing", "a (Accumulate)", "A.c2");
  for (int k = 0; k < 100; ++k) stats.add_time(s, 0.0005);
  for (int k = 0; k < 30; ++k) stats.add_time(a1, 0.001);
  for (int k = 0; k < 40; ++k) stats.add_time(a2, 0.002);
  for (int k = 0; k < 30; ++k) stats.add_time(a2_again, 0.003);
  end_cycles(stats, 3, 100, 3000);
  dfg::Profile profile(true, 100, stats.summary());
  for (const char* pe : {"A.c0", "A.c1", "A.c2"}) profile.add_pe(pe, "cpu");
  profile.add_entry("firing", "s", "A.c0", 0, 0);
  profile.add_entry("firing", "a", "A.c1", 0, 0);
  profile.add_entry("firing", "a", "A.c2", 0, 0);
  profile.add_entry("firing", "a", "A.c2", 0, 0);
  const Json doc = Json::parse(profile.json());
  CHECK(doc["nodes"]["a"].size() == 2);
  CHECK(doc["nodes"]["a"]["A.c1"]["ms"].get<double>() == Approx(1.0));
  CHECK(doc["nodes"]["a"]["A.c2"]["ms"].get<double>() == Approx((40 * 2.0 + 30 * 3.0) / 70));
  CHECK(doc["profile"]["loads_ms"]["A.c0 firings"].get<double>() == Approx(0.5));
  CHECK(doc["profile"]["loads_ms"]["A.c1 firings"].get<double>() == Approx(0.3));
  CHECK(doc["profile"]["loads_ms"]["A.c2 firings"].get<double>() == Approx(0.4 * 2.0 + 0.3 * 3.0));
}
