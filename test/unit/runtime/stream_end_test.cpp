// dfg::StreamEnd: a node's ctx.end_stream() ends the run's stream; every item past the end is
// skipped, the loops stop, and a PE that stops never keeps a neighbour waiting.
#include "dfg/stream_end.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dfg/context.hpp"
#include "dfg/items.hpp"
#include "dfg/neighbour_sync.hpp"
#include "dfg/node.hpp"
#include "dfg/run.hpp"
#include "dfg/slots.hpp"

namespace {

struct Params {};
Params params_of(const std::vector<std::int64_t>&) { return {}; }

struct Memory {
  std::array<dfg::SlotView, 1> A_c0;
};

// A firing on PE 0 from cycle 0 and one on PE 1 from cycle 2: latency 2.
constexpr std::array<dfg::EntryInfo<Params>, 2> kEntries = {{
    {"firing", "r (Reader)", "A.c0", 0, 0, nullptr, "r", "", 0, 1},
    {"firing", "k (Sink)", "A.c1", 1, 2, nullptr, "k", "", 0, 1},
}};
constexpr std::array<const char*, 2> kTracks = {"A.c0", "A.c1"};

using Run = dfg::RunState<Params, Memory, 2>;

Run::Tables tables() {
  return {params_of, kEntries,         kEntries,      2, 2, {{1}, {0}},
          kTracks,   {"A.c0", "A.c1"}, {"cpu", "cpu"}};
}

struct Reader {
  std::int64_t end_at = -1;
  bool before = false;
  void fire(dfg::Context& ctx) {
    if (ctx.iteration() != end_at) return;
    if (before) {
      ctx.end_stream_before();
    } else {
      ctx.end_stream();
    }
  }
};

/// Runs PE 0 (the reader, ending at `end_at`) and PE 1 (the sink) on two threads; returns the
/// iterations each fired and the cycles each began.
struct Fired {
  std::vector<std::int64_t> reader, sink;
  std::int64_t cycles0 = 0, cycles1 = 0;
};
Fired run_two(const dfg::Options& o, std::int64_t end_at, bool before) {
  Run run(o, tables());
  dfg::Node<Reader, 0> reader;
  reader.set_up(run.runtime_params, {});
  reader.may_end(run.stream_end, "node r (Reader) @ A.c0");
  reader.actor.end_at = end_at;
  reader.actor.before = before;
  Fired out;
  std::thread sink([&] {
    dfg::Where where;
    dfg::Items items(run, where, 1);
    items.cycles([&](std::int64_t) {
      ++out.cycles1;
      items.run(1, [&](std::int64_t j) { out.sink.push_back(j); });
    });
  });
  {
    dfg::Where where;
    dfg::Items items(run, where, 0);
    items.cycles([&](std::int64_t) {
      ++out.cycles0;
      items.run(0, [&](std::int64_t j) {
        out.reader.push_back(j);
        reader.fire(j);
      });
    });
  }
  sink.join();
  return out;
}

std::vector<std::int64_t> upto(std::int64_t last) {
  std::vector<std::int64_t> v;
  for (std::int64_t j = 0; j <= last; ++j) v.push_back(j);
  return v;
}

}  // namespace

TEST_CASE("stream end: the smallest end asked wins; the loops stop a latency after its cycle",
          "[stream_end]") {
  dfg::StreamEnd end(100, 103);  // 100 iterations, latency 3
  CHECK(end.last() == 99);
  CHECK(end.stop() == 103);
  CHECK_FALSE(end.ended());
  end.request(120, 120, "late", 120);  // past the run: nothing changes
  CHECK(end.last() == 99);
  CHECK_FALSE(end.ended());
  end.request(40, 40, "a", 40);
  CHECK(end.last() == 40);
  CHECK(end.stop() == 44);
  end.request(50, 50, "b", 50);  // a later end: ignored
  CHECK(end.last() == 40);
  end.request(9, 10, "c", 9);  // asked in cycle 10, ending with 9 (end_stream_before)
  CHECK(end.last() == 9);
  CHECK(end.stop() == 14);
  CHECK(end.ended());
  CHECK(end.who() == "c");
  CHECK(end.asked_in() == 9);
  end.request(-5, 0, "d", -1);  // before the first iteration: none runs
  CHECK(end.last() == -1);
  CHECK(end.stop() == 4);
}

TEST_CASE("stream end: a context ends at its iteration's cycle, with a batch and a restart",
          "[stream_end]") {
  dfg::RuntimeParamValues params;
  {
    dfg::Node<Reader, 0> plain;
    plain.set_up(params, {});
    REQUIRE_THROWS_AS(plain.at(3).end_stream(), std::logic_error);
  }
  {
    dfg::StreamEnd end(100, 102);
    dfg::Node<Reader, 0> n;
    n.set_up(params, {}, 4, false, 4);  // batch 4, one firing an iteration: a call each
    n.may_end(end, "r");
    n.at(2, 1).end_stream();  // iteration 9, in cycle 2
    CHECK(end.last() == 2);
    n.at(2, 0).end_stream_before();  // before iteration 8, the first of cycle 2
    CHECK(end.last() == 1);
    CHECK(end.asked_in() == 7);
  }
  {
    dfg::StreamEnd end(100, 102);
    dfg::Node<Reader, 0> n;
    n.set_up(params, {});
    n.may_end(end, "r");
    n.at(0).end_stream_before();
    CHECK(end.last() == -1);
    CHECK(end.stop() == 3);
  }
  {
    dfg::RuntimeParamValues restarted;
    restarted.first_cycle = 600;  // iteration 600 is this run's cycle 0
    dfg::StreamEnd end(400, 402);
    dfg::Node<Reader, 0> n;
    n.set_up(restarted, {});
    n.may_end(end, "r");
    n.at(12).end_stream();  // iteration 612
    CHECK(end.last() == 12);
    CHECK(end.asked_in() == 612);
  }
}

TEST_CASE("stream end: every sync mode fires through the end exactly, downstream too",
          "[stream_end]") {
  for (const char* mode : {"neighbours", "barrier", "no overlap"}) {
    for (const bool before : {false, true}) {
      for (const std::int64_t end_at : {0, 1, 5, 57}) {
        CAPTURE(mode, before, end_at);
        dfg::Options o;
        o.iterations = 100;
        o.overlap = std::string(mode) != "no overlap";
        o.sync =
            std::string(mode) == "barrier" ? dfg::SyncMode::barrier : dfg::SyncMode::neighbours;
        const Fired f = run_two(o, end_at, before);
        const std::int64_t last = before ? end_at - 1 : end_at;
        CHECK(f.reader == upto(end_at));  // the firing that ends fires
        CHECK(f.sink == upto(last));
        CHECK(f.cycles0 <= end_at + 1 + 2);
        if (std::string(mode) != "neighbours") CHECK(f.cycles0 == f.cycles1);
      }
    }
  }
}

TEST_CASE("stream end: a PE that leaves its loop keeps no neighbour waiting", "[stream_end]") {
  dfg::NeighbourSync sync({{1}, {0}});
  sync.finish(1, 0);
  std::thread waiter([&] { sync.wait_to_begin(0, 40); });  // PE 1 is at cycle 1
  sync.leave(1);
  waiter.join();
  CHECK(sync.ready_to_begin(0, 1'000'000));
}
