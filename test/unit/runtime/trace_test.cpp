#include "dfg/trace.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = dfg::Tracer::Clock;
using std::chrono::microseconds;

nlohmann::ordered_json written(const dfg::Tracer& t) {
  std::ostringstream os;
  t.write(os);
  return nlohmann::ordered_json::parse(os.str());
}

std::vector<std::string> keys(const nlohmann::ordered_json& o) {
  std::vector<std::string> k;
  for (auto it = o.begin(); it != o.end(); ++it) k.push_back(it.key());
  return k;
}

}  // namespace

TEST_CASE("trace: events and metadata parse back with their fields in order", "[trace]") {
  dfg::Tracer tracer(3);
  const int cpu = tracer.add_track("A.cpu");
  const int h2d = tracer.add_track("A.g0 h2d");
  CHECK(cpu == 1);
  CHECK(h2d == 2);
  const Clock::time_point t0 = tracer.epoch();
  tracer.record(h2d, "p.m -> i1.a", "transfer", t0 + microseconds(20), t0 + microseconds(330), 0);
  tracer.record(cpu, "p (Producer)", "fire", t0 + microseconds(10), t0 + microseconds(15), 0);
  tracer.record_us(cpu, "p (Producer)", "fire", 400.25, 4.5, 1);

  const auto j = written(tracer);
  REQUIRE(j.is_array());
  REQUIRE(j.size() == 1 + 2 * 2 + 3);
  CHECK(j[0] ==
        nlohmann::ordered_json::parse(
            R"({"name":"process_name","ph":"M","pid":3,"tid":0,"args":{"name":"rank 3"}})"));
  CHECK(j[1] == nlohmann::ordered_json::parse(
                    R"({"name":"thread_name","ph":"M","pid":3,"tid":1,"args":{"name":"A.cpu"}})"));
  CHECK(j[2]["name"] == "thread_sort_index");
  CHECK(j[3]["args"]["name"] == "A.g0 h2d");

  // Events sorted by time, across tracks.
  const auto& first = j[5];
  CHECK(keys(first) ==
        std::vector<std::string>{"name", "cat", "ph", "ts", "dur", "pid", "tid", "args"});
  CHECK(first["name"] == "p (Producer)");
  CHECK(first["cat"] == "fire");
  CHECK(first["ph"] == "X");
  CHECK(first["ts"].get<double>() == Approx(10.0));
  CHECK(first["dur"].get<double>() == Approx(5.0));
  CHECK(first["pid"] == 3);
  CHECK(first["tid"] == 1);
  CHECK(first["args"]["iteration"] == 0);
  CHECK(j[6]["name"] == "p.m -> i1.a");
  CHECK(j[6]["tid"] == 2);
  CHECK(j[6]["dur"].get<double>() == Approx(310.0));
  CHECK(j[7]["ts"].get<double>() == Approx(400.25));
  CHECK(j[7]["args"]["iteration"] == 1);
}

TEST_CASE("trace: the text is deterministic, three decimals, escaped", "[trace]") {
  dfg::Tracer tracer(0);
  const int t = tracer.add_track("A \"cpu\"");
  tracer.record_us(t, "b", "fire", 1.0, 2.0, 1);
  tracer.record_us(t, "a", "fire", 1.0, 2.0, 1);
  tracer.record_us(t, "a", "fire", 0.5, 0.25, 0);
  std::ostringstream os;
  tracer.write(os);
  CHECK(
      os.str() ==
      "[\n"
      "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"rank 0\"}},\n"
      "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":1,\"args\":{\"name\":\"A \\\"cpu\\\"\"}},\n"
      "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,\"tid\":1,\"args\":{\"sort_index\":1}},\n"
      "{\"name\":\"a\",\"cat\":\"fire\",\"ph\":\"X\",\"ts\":0.500,\"dur\":0.250,\"pid\":0,\"tid\":1,\"args\":{\"iteration\":0}},\n"
      "{\"name\":\"a\",\"cat\":\"fire\",\"ph\":\"X\",\"ts\":1.000,\"dur\":2.000,\"pid\":0,\"tid\":1,\"args\":{\"iteration\":1}},\n"
      "{\"name\":\"b\",\"cat\":\"fire\",\"ph\":\"X\",\"ts\":1.000,\"dur\":2.000,\"pid\":0,\"tid\":1,\"args\":{\"iteration\":1}}\n"
      "]\n");
  CHECK(dfg::detail::json_string("a\\b\n\x01") == "\"a\\\\b\\n\\u0001\"");
}

TEST_CASE("trace: a disabled tracer records nothing", "[trace]") {
  dfg::Tracer tracer(0, false);
  const int t = tracer.add_track("A.cpu");
  tracer.record_us(t, "x", "fire", 1, 1, 0);
  {
    auto s = tracer.scope(t, "y", "fire", 1);
  }
  CHECK(tracer.event_count() == 0);
  CHECK(written(tracer).size() == 3);
}

TEST_CASE("trace stress: one writer thread per track, merged at the end", "[trace][stress]") {
  constexpr int kTracks = 4;
  constexpr int kEvents = 5000;
  dfg::Tracer tracer(1);
  std::vector<int> tracks;
  for (int i = 0; i < kTracks; ++i)
    tracks.push_back(tracer.add_track("pe" + std::to_string(i), 16));  // will grow
  std::vector<std::thread> threads;
  for (int i = 0; i < kTracks; ++i) {
    threads.emplace_back([&, i] {
      for (int k = 0; k < kEvents; ++k) {
        auto s = tracer.scope(tracks[static_cast<std::size_t>(i)], "fire", "fire", k);
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(tracer.event_count() == kTracks * kEvents);
  const auto j = written(tracer);
  REQUIRE(j.size() == 1 + 2 * kTracks + kTracks * kEvents);
  std::vector<int> per_track(kTracks + 1, 0);
  double last_ts = -1;
  bool sorted = true;
  for (std::size_t i = 1 + 2 * kTracks; i < j.size(); ++i) {
    ++per_track[j[i]["tid"].get<std::size_t>()];
    const double ts = j[i]["ts"].get<double>();
    sorted = sorted && ts >= last_ts;
    last_ts = ts;
  }
  CHECK(sorted);
  for (int i = 1; i <= kTracks; ++i) CHECK(per_track[static_cast<std::size_t>(i)] == kEvents);
}

TEST_CASE("trace: write_file", "[trace]") {
  dfg::Tracer tracer(0);
  tracer.record_us(tracer.add_track("A.cpu"), "x", "fire", 1, 1, 0);
  const std::string path =
      (std::filesystem::temp_directory_path() / "dfg_trace_test.json").string();
  CHECK(tracer.write_file(path).empty());
  std::ifstream in(path);
  const auto j = nlohmann::json::parse(in);
  CHECK(j.size() == 4);
  std::remove(path.c_str());
  CHECK(tracer.write_file("/nonexistent/dir/t.json") ==
        "error: --trace /nonexistent/dir/t.json: cannot open for writing");
}

TEST_CASE("tracer: the process is named and numbered as set_process says", "[trace]") {
  dfg::Tracer tracer(0, true);
  tracer.set_process(1, "host B");
  tracer.add_track("B.cpu");
  std::ostringstream os;
  tracer.write(os);
  CHECK(
      os.str().find(
          "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"host B\"}}") !=
      std::string::npos);
  CHECK(os.str().find("\"pid\":0") == std::string::npos);
}
