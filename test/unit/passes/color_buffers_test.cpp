#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

#include "passes/build_ig.hpp"
#include "passes/fixtures.hpp"
#include "passes/ig_helpers.hpp"
#include "passes/simulate.hpp"
#include "stages/stages.hpp"

using namespace dfgc;
using ir::Strategy;
using test::ProgramBuilder;

namespace {

constexpr std::int64_t kMiB = 1 << 20;

struct Passes {
  Schedule order;
  BufferPlan plan;
  BufferDepths depths;
  Latencies latencies;
  DelayLines delays;
  BufferColouring colours;
};

Passes run(const ir::Program& p) {
  Passes r;
  r.order = schedule(p.dfg, p.arch, p.mapping);
  r.plan = insert_buffers(p.dfg, p.arch, p.mapping);
  r.depths = buffer_depth(r.plan);
  r.latencies = compute_latency(p.dfg, r.order, r.plan);
  r.delays = resync_inputs(p, r.plan, r.latencies);
  r.colours = color_buffers(p, r.order, r.plan, r.depths, r.latencies, r.delays);
  return r;
}

ir::Ig build(const ir::Program& p, const Passes& r) {
  return build_ig(p, r.order, r.plan, r.depths, r.latencies, r.delays, r.colours);
}

bool proper(const InterferenceGraph& g, const std::vector<std::uint32_t>& colour) {
  for (std::uint32_t a = 0; a < g.size(); ++a)
    for (std::uint32_t b = a + 1; b < g.size(); ++b)
      if (g.conflicts(a, b) && colour[a] == colour[b]) return false;
  return true;
}

bool conflicts(const PeColouring& pc, std::string_view a, std::string_view b) {
  std::uint32_t i = 0, j = 0;
  for (std::uint32_t v = 0; v < pc.graph.size(); ++v) {
    if (pc.graph.names[v] == a) i = v;
    if (pc.graph.names[v] == b) j = v;
  }
  return pc.graph.conflicts(i, j);
}

/// q on A.cpu sends to B.cpu (a double buffer with overlap); u -> v stays on A.cpu.
ProgramBuilder sender_and_local(bool local_first) {
  ProgramBuilder b("inflight");
  b.type("T", ir::ElemType::f32, 1024);
  test::add_generic_actors(b, "T");
  b.host("A", 0).host("B", 0).link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9);
  if (local_first) b.node("u", "Source", "A.cpu").node("v", "Sink", "A.cpu");
  b.node("q", "Source", "A.cpu").node("r", "Sink", "B.cpu");
  if (!local_first) b.node("u", "Source", "A.cpu").node("v", "Sink", "A.cpu");
  b.edge("q.o", "r.i").edge("u.o", "v.i");
  return b;
}

}  // namespace

TEST_CASE("P-I-I-C: memory with overlap is exactly twice the memory without", "[color_buffers]") {
  ir::Program p = test::piic().build();
  ir::Ig ig = run_passes(p);
  for (const char* pe : {"A.cpu", "A.g0", "B.cpu", "B.g0"}) {
    CAPTURE(pe);
    const ir::MemoryReport& without = test::memory_of(p, ig[Strategy::no_overlap], pe);
    const ir::MemoryReport& with = test::memory_of(p, ig[Strategy::overlap], pe);
    CHECK(without.after == 2 * 16 * kMiB);  // the paper: 2 x 16 MB per host and per GPU
    CHECK(with.after == 2 * without.after);
    CHECK(with.before == with.after);
    CHECK(without.before == without.after);
  }
}

TEST_CASE("colouring never merges a buffer into a double buffer's slot in use", "[color_buffers]") {
  SECTION("u -> v after q's firing: q's shareable slot is live, no sharing") {
    ir::Program p = sender_and_local(false).build();
    Passes r = run(p);
    const PeColouring& a = r.colours[Strategy::overlap][0];
    // Neither touches a common node: the papers' rule alone would merge them.
    CHECK(conflicts(a, "q.o@A.cpu", "u.o@A.cpu"));
    CHECK(a.colouring.count == 2);
    CHECK(conflicts(r.colours[Strategy::no_overlap][0], "q.o@A.cpu", "u.o@A.cpu"));
    for (Strategy s : ir::kStrategies) CHECK(test::simulate(p, build(p, r)[s], 12).errors.empty());
    // Forcing the merge the papers' rule allows corrupts q's token in flight.
    PeColouring& forced = r.colours[Strategy::overlap][0];
    forced.colouring.colour.assign(forced.graph.size(), 0);
    forced.colouring.count = 1;
    test::SimReport bad = test::simulate(p, build(p, r)[Strategy::overlap], 12);
    REQUIRE_FALSE(bad.errors.empty());
  }
  SECTION("u -> v before q's firing: u's token lives in q's free slot") {
    ir::Program p = sender_and_local(true).build();
    Passes r = run(p);
    const PeColouring& a = r.colours[Strategy::overlap][0];
    CHECK_FALSE(conflicts(a, "q.o@A.cpu", "u.o@A.cpu"));
    CHECK(a.colouring.count == 1);
    CHECK(a.bytes_before == 3 * 4096);
    CHECK(a.colouring.bytes == 2 * 4096);
    ir::Ig ig = build(p, r);
    const ir::IgStrategy& with = ig[Strategy::overlap];
    CHECK(test::buffer_named(with, "u.o@A.cpu").colour_lag == 0);
    // Slots alternate: u writes the slot q writes later in the same cycle, not the one in flight.
    const ir::BufferId u = test::buffer_id(with, "u.o@A.cpu"),
                       q = test::buffer_id(with, "q.o@A.cpu");
    for (std::int64_t c = 0; c < 4; ++c) {
      const ir::IgTransfer& t = with.transfers[0];
      CHECK(with.slot_of(u, with.buffers[u].writer, c) ==
            with.slot_of(q, with.buffers[q].writer, c));
      CHECK(with.slot_of(u, with.buffers[u].writer, c) !=
            with.slot_of(q, {ir::Access::Kind::transfer, 0, 0, t.from_lag}, c));
    }
    for (Strategy s : ir::kStrategies) CHECK(test::simulate(p, ig[s], 12).errors.empty());
    // Without overlap q's buffer is live from its firing to the next cycle's transfer step, which
    // runs before u fires: u -> v fits in between.
    CHECK(r.colours[Strategy::no_overlap][0].colouring.count == 1);
  }
}

TEST_CASE("a received buffer's slot is free after its last local read", "[color_buffers]") {
  // On B.cpu: r reads q's token (received, double), then u -> v reuses that slot.
  ProgramBuilder b("receiver");
  b.type("T", ir::ElemType::f32, 1024);
  test::add_generic_actors(b, "T");
  b.host("A", 0).host("B", 0).link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9);
  b.node("q", "Source", "A.cpu").node("r", "Sink", "B.cpu").node("u", "Source", "B.cpu");
  b.node("v", "Sink", "B.cpu").edge("q.o", "r.i").edge("u.o", "v.i");
  ir::Program p = b.build();
  ir::Ig ig = run_passes(p);
  const ir::IgStrategy& with = ig[Strategy::overlap];
  CHECK(with.memory[1].colours == 1);
  CHECK(test::buffer_named(with, "u.o@B.cpu").colour_lag == 1);
  for (Strategy s : ir::kStrategies) CHECK(test::simulate(p, ig[s], 12).errors.empty());
}

TEST_CASE("buffers touching one node never share", "[color_buffers]") {
  ir::Program p = test::paper_example().build();
  Passes r = run(p);
  for (Strategy s : ir::kStrategies) {
    const PeColouring& g1 = r.colours[s][*p.arch.find_pe("A.g1")];
    CHECK(conflicts(g1, "d.o@A.g1", "e.o@A.g1"));  // e reads one, writes the other
    CHECK(conflicts(g1, "e.o@A.g1", "f.o@A.g1"));
    CHECK(conflicts(g1, "d.o@A.g1", "f.o@A.g1"));  // f reads d.o
  }
  // a.o@A.g1 is read by b only, f.o written after: they may share without overlap.
  CHECK_FALSE(
      conflicts(r.colours[Strategy::no_overlap][*p.arch.find_pe("A.g1")], "a.o@A.g1", "e.o@A.g1"));
}

TEST_CASE("DSatur is optimal on the papers' examples", "[color_buffers]") {
  for (ir::Program p : {test::paper_example().build(), test::piic().build()}) {
    Passes r = run(p);
    for (Strategy s : ir::kStrategies)
      for (const PeColouring& pc : r.colours[s]) {
        CAPTURE(p.app_name, ir::to_string(s), pc.pe);
        CHECK(proper(pc.graph, pc.colouring.colour));
        CHECK(pc.colouring.count == exact_colouring(pc.graph, ColouringGoal::fewest_colours).count);
        CHECK(pc.colouring.bytes == exact_colouring(pc.graph, ColouringGoal::fewest_bytes).bytes);
      }
  }
}

TEST_CASE("DSatur against the exact solver on random graphs", "[color_buffers]") {
  std::mt19937 rng(20240611);
  std::uint32_t worse_colours = 0, worst_colour_gap = 0;
  double worst_bytes_ratio = 1.0;
  for (int trial = 0; trial < 300; ++trial) {
    InterferenceGraph g;
    const int n = 4 + static_cast<int>(rng() % 11);
    const double density = 0.15 + 0.6 * (rng() % 100) / 100.0;
    for (int v = 0; v < n; ++v)
      g.add("b" + std::to_string(v), kMiB << (rng() % 4), rng() % 4 == 0 ? 2 : 1);
    for (std::uint32_t a = 0; a < g.size(); ++a)
      for (std::uint32_t b = a + 1; b < g.size(); ++b)
        if ((g.slots[a] > 1 && g.slots[b] > 1) || (rng() % 1000) < density * 1000)
          g.add_conflict(a, b);
    Colouring heuristic = dsatur(g);
    Colouring fewest = exact_colouring(g, ColouringGoal::fewest_colours);
    Colouring smallest = exact_colouring(g, ColouringGoal::fewest_bytes);
    REQUIRE(proper(g, heuristic.colour));
    REQUIRE(proper(g, fewest.colour));
    REQUIRE(proper(g, smallest.colour));
    REQUIRE(smallest.bytes == allocated_bytes(g, smallest.colour));
    CHECK(heuristic.count <= fewest.count + 1);
    CHECK(heuristic.bytes >= smallest.bytes);
    CHECK(heuristic.bytes * 4 <= smallest.bytes * 7);
    worse_colours += heuristic.count > fewest.count;
    worst_colour_gap = std::max(worst_colour_gap, heuristic.count - fewest.count);
    worst_bytes_ratio =
        std::max(worst_bytes_ratio, static_cast<double>(heuristic.bytes) / smallest.bytes);
  }
  // Measured with this seed: 5 graphs in 300 need one colour more; bytes at most 1.72 x optimal.
  CHECK(worse_colours <= 5);
  CHECK(worst_colour_gap <= 1);
  CHECK(worst_bytes_ratio < 1.75);
}

namespace {

/// DSatur as a plain quadratic loop: the reference the ordered one must match vertex for vertex.
std::vector<std::uint32_t> reference_dsatur(const InterferenceGraph& g) {
  const std::uint32_t n = static_cast<std::uint32_t>(g.size());
  constexpr std::uint32_t kNone = ~0u;
  std::vector<std::uint32_t> colour(n, kNone), rank(n);
  std::vector<std::set<std::uint32_t>> seen(n);
  std::vector<std::uint32_t> by_size(n);
  std::iota(by_size.begin(), by_size.end(), 0u);
  std::sort(by_size.begin(), by_size.end(), [&](std::uint32_t a, std::uint32_t b) {
    return g.bytes[a] != g.bytes[b] ? g.bytes[a] > g.bytes[b] : g.names[a] < g.names[b];
  });
  for (std::uint32_t i = 0; i < n; ++i) rank[by_size[i]] = i;
  auto degree = [&](std::uint32_t v) {
    std::uint32_t d = 0;
    for (std::uint32_t u = 0; u < n; ++u) d += g.conflicts(v, u);
    return d;
  };
  std::vector<std::pair<std::uint32_t, std::int64_t>> classes;  // slots, bytes
  for (std::uint32_t step = 0; step < n; ++step) {
    std::uint32_t v = kNone;
    for (std::uint32_t u = 0; u < n; ++u) {
      if (colour[u] != kNone) continue;
      if (v == kNone || seen[u].size() > seen[v].size() ||
          (seen[u].size() == seen[v].size() &&
           (degree(u) > degree(v) || (degree(u) == degree(v) && rank[u] < rank[v]))))
        v = u;
    }
    std::uint32_t pick = kNone;
    std::int64_t growth = 0;
    for (std::uint32_t c = 0; c < classes.size(); ++c) {
      if (seen[v].count(c)) continue;
      auto [slots, bytes] = classes[c];
      std::int64_t grows =
          std::max(slots, g.slots[v]) * std::max(bytes, g.bytes[v]) - slots * bytes;
      if (pick == kNone || grows < growth) {
        pick = c;
        growth = grows;
      }
    }
    if (pick == kNone) {
      pick = static_cast<std::uint32_t>(classes.size());
      classes.emplace_back(0, 0);
    }
    classes[pick] = {std::max(classes[pick].first, g.slots[v]),
                     std::max(classes[pick].second, g.bytes[v])};
    colour[v] = pick;
    for (std::uint32_t u = 0; u < n; ++u)
      if (g.conflicts(v, u)) seen[u].insert(pick);
  }
  return colour;
}

}  // namespace

TEST_CASE("DSatur picks the same vertices and colours as the quadratic reference",
          "[color_buffers]") {
  std::mt19937 rng(77);
  for (int trial = 0; trial < 400; ++trial) {
    InterferenceGraph g;
    const std::uint32_t n = 1 + rng() % 40;
    const std::uint32_t density = rng() % 100;
    for (std::uint32_t v = 0; v < n; ++v)  // few sizes and names out of order: many ties
      g.add("b" + std::to_string((v * 7) % n), kMiB << (rng() % 3), rng() % 5 == 0 ? 2 : 1);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (std::uint32_t a = 0; a < n; ++a)
      for (std::uint32_t b = a + 1; b < n; ++b)
        if (rng() % 100 < density) pairs.emplace_back(a, b);
    std::shuffle(pairs.begin(), pairs.end(), rng);  // out of order, some twice
    for (auto [a, b] : pairs) {
      g.add_conflict(a, b);
      if (rng() % 4 == 0) g.add_conflict(b, a);
    }
    for (auto [a, b] : pairs) REQUIRE((g.conflicts(a, b) && g.conflicts(b, a)));
    std::size_t edges = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
      edges += g.neighbours(v).size();
      REQUIRE(std::is_sorted(g.neighbours(v).begin(), g.neighbours(v).end()));
    }
    REQUIRE(edges == 2 * pairs.size());
    // dsatur renumbers its colours by smallest member name; compare the partitions.
    std::vector<std::uint32_t> expected = reference_dsatur(g);
    Colouring got = dsatur(g);
    CAPTURE(trial, n, density);
    for (std::uint32_t a = 0; a < n; ++a)
      for (std::uint32_t b = 0; b < n; ++b)
        REQUIRE((expected[a] == expected[b]) == (got.colour[a] == got.colour[b]));
    REQUIRE(got.count == *std::max_element(expected.begin(), expected.end()) + 1);
  }
}

TEST_CASE("intersecting_pairs finds every pair of overlapping ranges once", "[color_buffers]") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t points = 1 + rng() % 30;
    std::vector<std::vector<PointRange>> live(rng() % 30);
    for (auto& ranges : live) {
      switch (rng() % 4) {
        case 0: break;  // never live
        case 1: ranges.push_back({0, points - 1}); break;
        case 2: {  // wraps: the end of the cycle and its start
          std::size_t write = rng() % points, end = rng() % (write + 1);
          if (end < write) {
            ranges.push_back({0, end});
            ranges.push_back({write, points - 1});
            break;
          }
          [[fallthrough]];
        }
        default: {
          std::size_t first = rng() % points, last = first + rng() % (points - first);
          ranges.push_back({first, last});
        }
      }
    }
    auto holds = [](const std::vector<PointRange>& r, std::size_t p) {
      return std::any_of(r.begin(), r.end(),
                         [&](const PointRange& x) { return x.first <= p && p <= x.last; });
    };
    std::vector<std::pair<std::uint32_t, std::uint32_t>> expected;
    for (std::uint32_t a = 0; a < live.size(); ++a)
      for (std::uint32_t b = a + 1; b < live.size(); ++b)
        for (std::size_t p = 0; p < points; ++p)
          if (holds(live[a], p) && holds(live[b], p)) {
            expected.emplace_back(a, b);
            break;
          }
    CAPTURE(trial);
    REQUIRE(intersecting_pairs(live) == expected);
    // Skipping the pairs of marked items (a clique) drops exactly those.
    std::vector<bool> skip(live.size());
    for (std::size_t i = 0; i < skip.size(); ++i) skip[i] = rng() % 3 == 0;
    std::erase_if(expected, [&](auto pair) { return skip[pair.first] && skip[pair.second]; });
    REQUIRE(intersecting_pairs(live, &skip) == expected);
  }
}

TEST_CASE("DSatur over a graph with a clique matches the reference over its every pair",
          "[color_buffers]") {
  // The buffers of more than one slot conflict pairwise: the clique is implied, not listed, and
  // the colouring is the one of the graph with all its pairs.
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 400; ++trial) {
    InterferenceGraph g;
    const std::uint32_t n = 1 + rng() % 40;
    const std::uint32_t density = rng() % 60;
    std::vector<std::uint32_t> clique;
    for (std::uint32_t v = 0; v < n; ++v) {
      const bool deep = rng() % 3 == 0;
      g.add("b" + std::to_string((v * 7) % n), kMiB << (rng() % 3), deep ? 2 : 1);
      if (deep) clique.push_back(v);
    }
    g.add_clique(clique);
    for (std::uint32_t a = 0; a < n; ++a)
      for (std::uint32_t b = a + 1; b < n; ++b)
        if (rng() % 100 < density) g.add_conflict(a, b);
    for (std::uint32_t a : clique)
      for (std::uint32_t b : clique) REQUIRE(g.conflicts(a, b) == (a != b));
    std::size_t degree_sum = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
      std::size_t d = 0;
      for (std::uint32_t u = 0; u < n; ++u) d += g.conflicts(v, u);
      REQUIRE(g.degree(v) == d);
      degree_sum += d;
    }
    std::vector<std::uint32_t> expected = reference_dsatur(g);
    Colouring got = dsatur(g);
    CAPTURE(trial, n, density, clique.size(), degree_sum);
    for (std::uint32_t a = 0; a < n; ++a)
      for (std::uint32_t b = 0; b < n; ++b)
        REQUIRE((expected[a] == expected[b]) == (got.colour[a] == got.colour[b]));
    REQUIRE(got.count == *std::max_element(expected.begin(), expected.end()) + 1);
  }
}
