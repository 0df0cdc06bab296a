#include "dfg/checkpoint.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "dfg/abort.hpp"

namespace {

dfg::CheckpointData sample() {
  dfg::CheckpointData d;
  d.app = "app";
  d.spec = 0x1234;
  d.mapping = 0x5678;
  d.iteration = 40;
  d.batch = 2;
  d.params = {{"N", 64}};
  d.sections.push_back({0, "a", {std::byte{1}, std::byte{2}}});
  d.sections.push_back({1, "m.state", std::vector<std::byte>(16, std::byte{9})});
  return d;
}

// A temporary directory, removed at scope exit.
struct TempDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("dfg_checkpoint_test_" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const char* name) const { return (path / name).string(); }
};

struct Counter {  // an actor whose state is one number
  std::int64_t value = 0;
  void save(dfg::State& s) const { s.put(value); }
  void restore(const dfg::State& s) { value = s.get<std::int64_t>(); }
};

dfg::CheckpointLayout layout() {
  dfg::CheckpointLayout l;
  l.app = "app";
  l.spec = 1;
  l.mapping = 2;
  l.nodes = {"a"};
  l.inputs = {{"m.state", 2, sizeof(std::int64_t)}};
  l.params = {{"N", 64}};
  return l;
}

}  // namespace

TEST_CASE("checkpoint file: what is encoded decodes the same", "[checkpoint]") {
  const dfg::CheckpointData d = sample();
  const std::vector<std::byte> bytes = dfg::encode_checkpoint(d);
  dfg::CheckpointData back;
  REQUIRE(dfg::decode_checkpoint(bytes, back).empty());
  CHECK(back.app == "app");
  CHECK(back.spec == 0x1234);
  CHECK(back.mapping == 0x5678);
  CHECK(back.iteration == 40);
  CHECK(back.batch == 2);
  CHECK(back.params == d.params);
  REQUIRE(back.sections.size() == 2);
  CHECK(back.sections[1].name == "m.state");
  CHECK(back.sections[1].bytes == d.sections[1].bytes);
}

TEST_CASE("checkpoint file: every truncation and every changed byte is refused", "[checkpoint]") {
  const std::vector<std::byte> bytes = dfg::encode_checkpoint(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    dfg::CheckpointData out;
    CHECK_FALSE(dfg::decode_checkpoint(std::span(bytes).first(n), out).empty());
  }
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::vector<std::byte> changed = bytes;
    changed[i] ^= std::byte{0x20};
    dfg::CheckpointData out;
    CHECK_FALSE(dfg::decode_checkpoint(changed, out).empty());
  }
  dfg::CheckpointData out;
  const std::string text = "hello";
  CHECK(dfg::decode_checkpoint(std::as_bytes(std::span(text.data(), text.size())), out) ==
        "not a dfgc checkpoint (it does not begin with \"dfgc-checkpoint\")");
}

TEST_CASE("checkpoint file: replace_file leaves the old file or the new one", "[checkpoint]") {
  TempDir dir;
  const std::string path = dir.file("ck");
  const std::vector<std::byte> one(10, std::byte{1}), two(20, std::byte{2});
  REQUIRE(dfg::replace_file(path, one).empty());
  REQUIRE(dfg::replace_file(path, two).empty());
  std::vector<std::byte> read;
  REQUIRE(dfg::read_whole_file(path, read).empty());
  CHECK(read == two);
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  CHECK(dfg::replace_file(dir.file("no/ck"), one).starts_with("cannot create"));
}

TEST_CASE("checkpoints: the parts of each checkpoint, written and read back by a restart",
          "[checkpoint]") {
  TempDir dir;
  dfg::Options o;
  o.iterations = 100;
  o.checkpoint_file = dir.file("ck");
  o.checkpoint_every = 10;
  o.param_names = {"N"};
  o.params = {64};
  {
    dfg::Checkpoints c(o, layout(), 3);
    REQUIRE(c.active());
    CHECK(c.first() == 0);
    Counter a;
    // Cycle j: a fires iteration j, m reads the token 1000 + j on its delayed input.
    for (std::int64_t j = 0; j < 100; ++j) {
      a.value = j * 3;
      c.save(0, a, j);
      std::int64_t token = 1000 + j;
      CHECK(c.keep(0, j, &token) == &token);
    }
    std::ostringstream err;
    c.finish(&err);
    CHECK(err.str() == "checkpoint: " + o.checkpoint_file + " holds iteration 90 (9 written)\n");
  }
  dfg::Options r = o;
  r.checkpoint_file.clear();
  r.restart_file = o.checkpoint_file;
  dfg::Checkpoints c(r, layout(), 3);
  CHECK(c.first() == 90);
  Counter a;
  c.restore(0, a, 1);  // not the run's first cycle
  CHECK(a.value == 0);
  c.restore(0, a, 0);
  CHECK(a.value == 89 * 3);  // saved after iteration 89
  for (std::int64_t k = 0; k < 2; ++k) {
    std::int64_t token = 0;
    std::memcpy(&token, c.restored_token(0, k), sizeof token);
    CHECK(token == 1090 + k);  // what m read in iterations 90 and 91
  }
  std::ostringstream err;
  c.announce(err);
  CHECK(err.str() == "restart: from " + r.restart_file + ", iteration 90 of 100\n");
}

TEST_CASE("checkpoints: a restart refuses what is not this program's checkpoint", "[checkpoint]") {
  TempDir dir;
  dfg::CheckpointData d;
  d.app = "app";
  d.spec = 1;
  d.mapping = 2;
  d.iteration = 50;
  d.params = {{"N", 64}};
  d.sections.push_back({0, "a", {}});
  d.sections.push_back({1, "m.state", std::vector<std::byte>(16)});
  dfg::Options o;
  o.iterations = 100;
  o.restart_file = dir.file("ck");
  o.param_names = {"N"};
  o.params = {64};
  auto refusal = [&](const dfg::CheckpointData& data) -> std::string {
    REQUIRE(dfg::replace_file(o.restart_file, dfg::encode_checkpoint(data)).empty());
    try {
      dfg::Checkpoints c(o, layout(), 3);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return {};
  };
  const std::string head = "--restart " + o.restart_file + ": ";
  CHECK(refusal(d).empty());
  dfg::CheckpointData x = d;
  x.spec = 7;
  CHECK(refusal(x).starts_with(head + "a checkpoint of another version of application 'app'"));
  x = d;
  x.mapping = 7;
  CHECK(refusal(x).starts_with(head + "a checkpoint of another mapping of application 'app'"));
  x = d;
  x.params = {{"N", 32}};
  CHECK(refusal(x) ==
        head + "taken with runtime param N = 32; this run has N = 64 (give --set N=32)");
  x = d;
  x.iteration = 100;
  CHECK(refusal(x).starts_with(head + "it resumes with iteration 100, at or past the end"));
  x = d;
  x.sections.pop_back();
  CHECK(refusal(x) == head + "it holds nothing for input 'm.state'");
  x = d;
  x.sections[1].bytes.resize(8);
  CHECK(refusal(x).starts_with(head + "its tokens of input 'm.state' are 8 bytes, not the 16"));
  x = d;
  x.sections.push_back({0, "z", {}});
  CHECK(refusal(x) == head + "it holds node 'z', which this program does not have");
  dfg::CheckpointLayout refused = layout();
  refused.refused = "island 'i' keeps elements";
  CHECK_THROWS_WITH(dfg::Checkpoints(o, refused, 3),
                    "--restart: this program takes no checkpoints: island 'i' keeps elements");
}

TEST_CASE("checkpoints: a worker waiting for a generation stops with the run", "[checkpoint]") {
  TempDir dir;
  dfg::Abort abort;
  dfg::Options o;
  o.iterations = 1000;
  o.checkpoint_file = dir.file("ck");
  o.checkpoint_every = 1;
  dfg::CheckpointLayout l = layout();
  l.params.clear();
  dfg::Checkpoints c(o, l, 0, abort);
  Counter a;
  // Node a runs far ahead while m's tokens never come: the ring of generations fills and the
  // save of a later checkpoint waits, until the run stops.
  abort.raise("test", -1, "stop");
  CHECK_THROWS_AS(
      [&] {
        for (std::int64_t j = 0; j < 1000; ++j) c.save(0, a, j);
      }(),
      dfg::Aborted);
}
