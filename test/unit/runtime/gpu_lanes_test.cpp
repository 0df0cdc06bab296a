// dfg::runs_on_one_stream and dfg::one_stream_bytes: when a GPU's cycles with overlap run on its
// compute stream alone.
#include "dfg/gpu_lanes.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdlib>
#include <span>

namespace {

struct Params {
  std::size_t n;
};
struct Entry {
  int track;
  std::size_t (*bytes)(const Params&);
};

std::size_t token(const Params& p) { return p.n; }
std::size_t four(const Params&) { return 4; }

constexpr int kCompute = 2, kH2d = 3, kD2h = 4, kOther = 5;
constexpr std::array<Entry, 4> kEntries = {{
    {kCompute, nullptr},  // a firing on the compute stream
    {kH2d, token},        // the copy in
    {kD2h, four},         // the copy out
    {kOther, token},      // another GPU's copy: not this GPU's
}};

bool one(std::size_t n, std::size_t limit, std::initializer_list<int> tracks = {kH2d, kD2h, 0}) {
  return dfg::runs_on_one_stream(std::span<const Entry>(kEntries), Params{n}, tracks, limit);
}

}  // namespace

TEST_CASE("a GPU runs on one stream when every copy of its copy streams is short") {
  CHECK(one(4, 64 << 10));
  CHECK(one(64 << 10, 64 << 10));
  CHECK_FALSE(one((64 << 10) + 1, 64 << 10));  // the copy in is long
  CHECK_FALSE(one(4, 0));                      // 0: never
}

TEST_CASE("only the GPU's own copy tracks count; a GPU without copies keeps its streams") {
  CHECK(one(1 << 30, 64 << 10, {kD2h}));      // the long copy is on a track it does not run
  CHECK_FALSE(one(4, 64 << 10, {0, 0, 0}));   // no copy stream: nothing to merge
  CHECK_FALSE(one(4, 64 << 10, {kCompute}));  // a firing is no copy
}

TEST_CASE("DFG_GPU_ONE_STREAM_BYTES sets the limit; unset or not a number, never one stream") {
  ::setenv(dfg::kOneStreamEnv, "65536", 1);
  CHECK(dfg::one_stream_bytes() == 65536);
  ::setenv(dfg::kOneStreamEnv, "lots", 1);
  CHECK(dfg::one_stream_bytes() == 0);
  ::unsetenv(dfg::kOneStreamEnv);
  CHECK(dfg::one_stream_bytes() == 0);
}
