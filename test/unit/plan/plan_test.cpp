#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "passes/ig_helpers.hpp"
#include "passes/program_builder.hpp"
#include "passes/simulate.hpp"
#include "plan/plan.hpp"
#include "sema/sema_test_util.hpp"
#include "stages/stages.hpp"

using namespace dfgc;
using ir::Strategy;

namespace {

/// Plans without mapped tokens: every transfer is a copy (the tests of the copies' plan).
const PlanOptions kCopyAll{0};

using test::pe_named;

/// The entry of a plan's strategy with this short name ("p.m@A.cpu -> p.m@A.g0", "p (Producer)").
const Entry& entry_named(const StrategyPlan& sp, std::string_view short_name) {
  for (const Entry& e : sp.entries)
    if (e.short_name == short_name) return e;
  throw std::invalid_argument("no entry " + std::string(short_name));
}

/// A PE's steps as text: "copy transfer_i_b_A_cpu", "wait h2d d2h", "end phase 0", ...
std::vector<std::string> step_names(const StrategyPlan& sp, ir::PeId pe) {
  std::vector<std::string> out;
  for (const Step& s : sp.steps[pe]) {
    std::string text(to_string(s.kind));
    switch (s.kind) {
      case Step::Kind::fire:
      case Step::Kind::copy:
      case Step::Kind::mapped_copy:
      case Step::Kind::net_post:
      case Step::Kind::delay_copy: text += " " + sp.entries[s.entry].ident; break;
      case Step::Kind::wait:
        for (StreamKind k : s.streams) text += " " + std::string(to_string(k));
        break;
      case Step::Kind::end_phase: text += " " + std::to_string(s.phase); break;
      case Step::Kind::net_complete:
      case Step::Kind::end_cycle: break;
    }
    out.push_back(text);
  }
  return out;
}

/// p @ A.cpu -> i1 @ A.g0 -> i2 @ A.g1 -> c @ A.cpu, the GPUs joined by NVLink.
ir::Program nvlink_program() {
  test::ProgramBuilder b("chain");
  b.type("T", ir::ElemType::f32, 64, "N * 4", true);
  b.actor("P", "out T m").actor("I", "in T a mappable; out T b mappable").actor("C", "in T m");
  b.host("A", 2).link("A.g0", "A.g1", ir::LinkKind::nvlink, 50e9);
  b.node("p", "P", "A.cpu").node("i1", "I", "A.g0").node("i2", "I", "A.g1").node("c", "C", "A.cpu");
  b.edge("p.m", "i1.a").edge("i1.b", "i2.a").edge("i2.b", "c.m");
  return b.build();
}

/// p @ A.cpu -> i @ A.g0 -> c @ A.cpu.
/// `in_mappable`, `out_mappable`: whether I's kernel declares that it touches each byte of its
/// input, its output once.
ir::Program one_gpu_program(bool in_mappable = true, bool out_mappable = true) {
  test::ProgramBuilder b("one");
  b.type("T", ir::ElemType::f32, 64);
  const std::string ports = std::string("in T a") + (in_mappable ? " mappable" : "") + "; out T b" +
                            (out_mappable ? " mappable" : "");
  b.actor("P", "out T m").actor("I", ports).actor("C", "in T m");
  b.host("A", 1);
  b.node("p", "P", "A.cpu").node("i", "I", "A.g0").node("c", "C", "A.cpu");
  b.edge("p.m", "i.a").edge("i.b", "c.m");
  return b.build();
}

/// s @ A.cpu -> t @ B.g0 -> c @ C.cpu over net links A-B and B-C: two host-to-host transfers.
ir::Program hosts_program() {
  test::ProgramBuilder b("chain");
  b.type("T", ir::ElemType::f32, 64)
      .actor("S", "out T o")
      .actor("I", "in T a mappable; out T b mappable")
      .actor("C", "in T m");
  b.host("A", 0).host("B", 1).host("C", 0);
  b.link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9)
      .link("B.cpu", "C.cpu", ir::LinkKind::net, 2.6e9);
  b.node("s", "S", "A.cpu").node("t", "I", "B.g0").node("c", "C", "C.cpu");
  b.edge("s.o", "t.a").edge("t.b", "c.m");
  return b.build();
}

/// s @ A.cpu -> i @ A.g0 -> j @ B.g0 -> c @ B.cpu; the GPUs are joined by a gpudirect link.
ir::Program gpudirect_program() {
  test::ProgramBuilder b("direct");
  b.type("T", ir::ElemType::f32, 64)
      .actor("S", "out T o")
      .actor("I", "in T a mappable; out T b mappable")
      .actor("C", "in T m");
  b.host("A", 1).host("B", 1);
  b.link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9)
      .link("A.g0", "B.g0", ir::LinkKind::gpudirect, 12e9);
  b.node("s", "S", "A.cpu").node("i", "I", "A.g0").node("j", "I", "B.g0").node("c", "C", "B.cpu");
  b.edge("s.o", "i.a").edge("i.b", "j.a").edge("j.b", "c.m");
  return b.build();
}

}  // namespace

TEST_CASE("plan: identifiers for spec names", "[plan]") {
  CHECK(identifier("p.m@A.g0") == "p_m_A_g0");
  CHECK(identifier("j.x.delay@A.g1") == "j_x_delay_A_g1");
}

TEST_CASE(
    "plan: a transfer within a host is launched by its GPU end, on the stream of its direction",
    "[plan]") {
  ir::Program p = nvlink_program();
  HostPlans plans = plan_hosts(p, run_passes(p), nullptr, kCopyAll);
  REQUIRE(plans.hosts.size() == 1);
  const ir::PeId g0 = pe_named(p, "A.g0"), g1 = pe_named(p, "A.g1");
  for (Strategy strategy : ir::kStrategies) {
    CAPTURE(ir::to_string(strategy));
    const StrategyPlan& sp = plans.hosts[0].strategies[strategy];
    // CPU -> GPU: the destination, on h2d.
    const Entry& h2d = entry_named(sp, "p.m@A.cpu -> p.m@A.g0");
    CHECK(h2d.runner == g0);
    CHECK(h2d.stream == StreamKind::h2d);
    // GPU -> GPU: the destination, on its peer stream.
    const Entry& peer = entry_named(sp, "i1.b@A.g0 -> i1.b@A.g1");
    CHECK(peer.runner == g1);
    CHECK(peer.stream == StreamKind::peer);
    CHECK(peer.transfer().link == "nvlink");
    // GPU -> CPU: the source, on d2h.
    const Entry& d2h = entry_named(sp, "i2.b@A.g1 -> i2.b@A.cpu");
    CHECK(d2h.runner == g1);
    CHECK(d2h.stream == StreamKind::d2h);
    for (const Entry* e : {&h2d, &peer, &d2h}) {
      CHECK(e->transfer().net == NetEnd::none);
      CHECK(e->transfer().tag == -1);
      REQUIRE(e->read());
      REQUIRE(e->write());
      CHECK(e->type() == "T");
    }
    // The transfer writes the destination buffer's slot and reads its source's, in their colours.
    CHECK(sp.buffers[h2d.write()->buffer].name == "p.m@A.g0");
    CHECK(h2d.write()->pe == g0);
    CHECK(sp.buffers[h2d.read()->buffer].name == "p.m@A.cpu");
    CHECK(h2d.read()->slots == sp.buffers[h2d.read()->buffer].slots);
    // A firing's ports in actor order, its output written with lag 0 of its own colour.
    const Entry& i1 = entry_named(sp, "i1 (I)");
    REQUIRE(i1.ports().size() == 2);
    CHECK(i1.ports()[0].port == "a");
    CHECK(i1.ports()[0].input);
    CHECK(sp.buffers[i1.ports()[0].slot.buffer].name == "p.m@A.g0");
    CHECK(i1.ports()[1].port == "b");
    CHECK_FALSE(i1.ports()[1].input);
    CHECK(i1.ports()[1].slot.lag == sp.buffers[i1.ports()[1].slot.buffer].colour_lag);
    CHECK(i1.stream == StreamKind::compute);
  }
  // The streams of each GPU: compute and those of the transfers it launches.
  CHECK(plans.hosts[0].streams[g0] == std::set<StreamKind>{StreamKind::compute, StreamKind::h2d});
  CHECK(plans.hosts[0].streams[g1] ==
        std::set<StreamKind>{StreamKind::compute, StreamKind::d2h, StreamKind::peer});
}

TEST_CASE("plan: the workers and their members are named from spec names, suffixes their own",
          "[plan]") {
  // s @ A.cpu -> f @ A.g0 -> k @ A.cpu, f reading its own output a cycle late (one initial
  // token on its input y).
  test::ProgramBuilder b("names");
  b.type("T", ir::ElemType::f32, 16)
      .actor("Source", "out T o")
      .actor("Sink", "in T i")
      .actor("Join", "in T x; in T y; out T o");
  b.host("A", 1);
  b.node("s", "Source", "A.cpu").node("f", "Join", "A.g0").node("k", "Sink", "A.cpu");
  b.edge("s.o", "f.x").edge("f.o", "k.i").edge("f.o", "f.y", 1);
  ir::Program p = b.build();
  HostPlans plans = plan_hosts(p, run_passes(p), nullptr, kCopyAll);
  REQUIRE(plans.hosts.size() == 1);
  const HostPlan& h = plans.hosts[0];
  const PlanPe& gpu = h.pe(pe_named(p, "A.g0"));
  CHECK(gpu.ident == "A_g0");
  CHECK(gpu.worker == "Worker_A_g0");
  CHECK(gpu.gpudirect == "A_g0_gpudirect_");
  const PlanPe& cpu = h.pe(pe_named(p, "A.cpu"));
  CHECK(cpu.worker == "Worker_A_cpu");
  CHECK(cpu.gpudirect.empty());
  auto node = [&](std::string_view name) -> const PlanNode& {
    auto it = std::find_if(h.nodes.begin(), h.nodes.end(),
                           [&](const PlanNode& n) { return n.name == name; });
    REQUIRE(it != h.nodes.end());
    return *it;
  };
  CHECK(node("f").member == "f_node_");
  // Only the input the delayed edge feeds holds initial tokens.
  CHECK(node("f").initial_members == std::vector<std::string>{"", "f_initial1_", ""});
  CHECK(node("s").initial_members == std::vector<std::string>{""});
  const std::string text = dump(plans);
  CHECK(text.find("node f (Join) @ A.g0: class Join in \"Join.cuh\", member f_node_ "
                  "f_initial1_\n") != std::string::npos);
  CHECK(text.find("  pe A.g0 gpu worker Worker_A_g0 device 0") != std::string::npos);
}

TEST_CASE("plan: a CPU and a GPU that share a colour are neighbours", "[plan]") {
  ir::Program p = nvlink_program();
  ir::Ig ig = run_passes(p);
  HostPlans plans = plan_hosts(p, ig, nullptr, kCopyAll);
  const ir::PeId cpu = pe_named(p, "A.cpu"), g0 = pe_named(p, "A.g0"), g1 = pe_named(p, "A.g1");
  const StrategyPlan& sp = plans.hosts[0].strategies[Strategy::overlap];
  // g0 launches the copy out of the CPU's p.m, g1 the one into the CPU's i2.b.
  CHECK(sp.neighbours[cpu] == std::set<ir::PeId>{g0, g1});
  CHECK(sp.neighbours[g0].count(cpu) == 1);
  CHECK(sp.neighbours[g1].count(cpu) == 1);
  // g1 launches the peer copy out of g0's i1.b: they share that colour.
  CHECK(sp.neighbours[g0].count(g1) == 1);
  // Storage: each colour of the CPU with its members, slots and bytes expression.
  std::set<std::string> members;
  for (const PlanColour& c : sp.storage[cpu]) {
    CHECK(c.types == std::vector<std::string>{"T"});
    CHECK(c.bytes_text == "N * 4 * 4");
    for (const std::string& m : c.members) members.insert(m);
  }
  CHECK(members == std::set<std::string>{"i2.b@A.cpu", "p.m@A.cpu"});
  CHECK(sp.storage[cpu].size() == plans.hosts[0].colour_count[cpu]);
}

TEST_CASE("plan: steps of each PE, with and without overlap", "[plan]") {
  ir::Program p = one_gpu_program();
  HostPlans plans = plan_hosts(p, run_passes(p), nullptr, kCopyAll);
  const ir::PeId cpu = pe_named(p, "A.cpu"), g0 = pe_named(p, "A.g0");
  const HostPlan& h = plans.hosts[0];
  // With overlap: the GPU launches both copies (by destination name), fires, ends the cycle on
  // the GPU: its thread does not wait for its streams (GpuCycles).
  CHECK(step_names(h.strategies[Strategy::overlap], g0) ==
        std::vector<std::string>{"copy transfer_i_b_A_cpu", "copy transfer_p_m_A_g0", "fire fire_i",
                                 "end cycle"});
  REQUIRE(h.strategies[Strategy::overlap].gpu_cycles[g0]);
  CHECK_FALSE(h.strategies[Strategy::overlap].gpu_cycles[cpu]);
  CHECK(step_names(h.strategies[Strategy::overlap], cpu) ==
        std::vector<std::string>{"fire fire_p", "fire fire_c", "end cycle"});
  // Without overlap: one transfer step (every hop is 1), its wait and barrier, then the firings.
  const StrategyPlan& no = h.strategies[Strategy::no_overlap];
  REQUIRE(no.transfer_steps == 1);
  CHECK(step_names(no, g0) == std::vector<std::string>{"copy transfer_i_b_A_cpu",
                                                       "copy transfer_p_m_A_g0", "wait h2d d2h",
                                                       "end phase 0", "fire fire_i",
                                                       "wait compute h2d d2h", "end cycle"});
  // The CPU launches nothing: it only ends the phases.
  CHECK(step_names(no, cpu) ==
        std::vector<std::string>{"end phase 0", "fire fire_p", "fire fire_c", "end cycle"});
  // The entries are the same, the loops are not: each PE's worker prints both.
  CHECK(h.same_entries);
  CHECK_FALSE(h.sharing[cpu].loop);
  CHECK_FALSE(h.sharing[g0].loop);
}

TEST_CASE("plan: without overlap, each transfer runs in its step, before the firings", "[plan]") {
  // GPU -> CPU -> GPU: the relay's second hop runs in an earlier step than its first.
  test::ProgramBuilder b("relay");
  b.type("T", ir::ElemType::f32, 64);
  b.actor("P", "out T m").actor("I", "in T a; out T b").actor("C", "in T m");
  b.host("A", 2);
  b.node("p", "P", "A.g0").node("i", "I", "A.g1").node("c", "C", "A.cpu");
  b.edge("p.m", "i.a").edge("i.b", "c.m");
  ir::Program p = b.build();
  HostPlans plans = plan_hosts(p, run_passes(p), nullptr, kCopyAll);
  const StrategyPlan& no = plans.hosts[0].strategies[Strategy::no_overlap];
  REQUIRE(no.transfer_steps == 2);
  for (ir::PeId pe : plans.hosts[0].pes()) {
    CAPTURE(p.arch.pes[pe].name);
    std::uint32_t phase = 0;
    bool fired = false;
    std::vector<std::uint32_t> phases;
    for (const Step& s : no.steps[pe]) {
      if (s.kind == Step::Kind::copy) {
        CHECK_FALSE(fired);
        CHECK(no.entries[s.entry].transfer().step == phase);
      }
      if (s.kind == Step::Kind::end_phase) {
        CHECK(s.phase == phase);
        phases.push_back(s.phase);
        ++phase;
      }
      if (s.kind == Step::Kind::fire) {
        CHECK(phase == no.transfer_steps);
        fired = true;
      }
    }
    CHECK(phases == std::vector<std::uint32_t>{0, 1});
    CHECK(no.steps[pe].back().kind == Step::Kind::end_cycle);
  }
  // The hop into g1 (hop 2) goes first, the hop out of g0 (hop 1) second.
  CHECK(entry_named(no, "p.m@A.cpu -> p.m@A.g1").transfer().step == 0);
  CHECK(entry_named(no, "p.m@A.g0 -> p.m@A.cpu").transfer().step == 1);
}

TEST_CASE("plan: a host posts its MPI sends before its receives", "[plan]") {
  // B.cpu receives s.o from A and sends t.b to C every cycle. A large receive may copy the whole
  // token inside the MPI call that makes it progress, and C copies t.b only once B posted it:
  // B's send goes first, in both strategies.
  ir::Program p = hosts_program();
  HostPlans plans = plan_hosts(p, run_passes(p));
  REQUIRE(plans.hosts.size() == 3);
  const ir::PeId b = pe_named(p, "B.cpu");
  for (Strategy strategy : ir::kStrategies) {
    CAPTURE(ir::to_string(strategy));
    const StrategyPlan& sp = plans.hosts[1].strategies[strategy];
    std::vector<NetEnd> posts;
    for (const Step& s : sp.steps[b])
      if (s.kind == Step::Kind::net_post) posts.push_back(sp.entries[s.entry].transfer().net);
    CHECK(posts == std::vector<NetEnd>{NetEnd::send, NetEnd::recv});
  }
}

TEST_CASE("plan: MPI tags in schedule order, the overlap strategy first, unique", "[plan]") {
  ir::Program p = hosts_program();
  HostPlans plans = plan_hosts(p, run_passes(p), nullptr, kCopyAll);
  REQUIRE(plans.hosts.size() == 3);
  const ir::PeId a = pe_named(p, "A.cpu"), b = pe_named(p, "B.cpu"), c = pe_named(p, "C.cpu");
  struct Expected {
    ir::HostId host;
    std::string transfer;
    NetEnd net;
    ir::PeId runner, peer;
    int tag;
  };
  for (Strategy strategy : ir::kStrategies) {
    CAPTURE(ir::to_string(strategy));
    const int base = strategy == Strategy::overlap ? 0 : 2;
    const std::vector<Expected> expected = {
        {0, "s.o@A.cpu -> s.o@B.cpu", NetEnd::send, a, b, base},
        {1, "s.o@A.cpu -> s.o@B.cpu", NetEnd::recv, b, a, base},
        {1, "t.b@B.cpu -> t.b@C.cpu", NetEnd::send, b, c, base + 1},
        {2, "t.b@B.cpu -> t.b@C.cpu", NetEnd::recv, c, b, base + 1},
    };
    for (const Expected& x : expected) {
      CAPTURE(x.host, x.transfer);
      const Entry& e = entry_named(plans.hosts[x.host].strategies[strategy], x.transfer);
      CHECK(e.transfer().net == x.net);
      CHECK(e.runner == x.runner);
      CHECK(e.transfer().peer == x.peer);
      CHECK(e.transfer().tag == x.tag);
      CHECK_FALSE(e.stream);
      CHECK(e.transfer().link == "net");
      // Each end touches its own host's buffer only.
      CHECK(bool(e.read()) == (x.net == NetEnd::send));
      CHECK(bool(e.write()) == (x.net == NetEnd::recv));
    }
    // Every host runs the whole program's cycles.
    for (const HostPlan& h : plans.hosts)
      CHECK(h.strategies[strategy].latency == plans.hosts[0].strategies[strategy].latency);
  }
  // Every host reads its peers' host names from the one program plan they share.
  REQUIRE(plans.program);
  CHECK(plans.program->host_names == std::vector<std::string>{"A", "B", "C"});
  for (const HostPlan& h : plans.hosts) CHECK(h.program == plans.program);
  const Entry& recv =
      entry_named(plans.hosts[2].strategies[Strategy::overlap], "t.b@B.cpu -> t.b@C.cpu");
  CHECK(plans.program->host_names[plans.hosts[2].pe(*recv.transfer().peer).host] == "B");
  // Unique in the program.
  std::set<int> tags;
  std::size_t count = 0;
  for (Strategy strategy : ir::kStrategies)
    for (int tag : plans.hosts[0].strategies[strategy].net_tags)
      if (tag >= 0) {
        tags.insert(tag);
        ++count;
      }
  CHECK(count == 4);
  CHECK(tags == std::set<int>{0, 1, 2, 3});
  // B's CPU posts its send, then its receive, before it fires (it fires nothing), and completes
  // them before the cycle ends.
  CHECK(step_names(plans.hosts[1].strategies[Strategy::overlap], b) ==
        std::vector<std::string>{"net post transfer_t_b_C_cpu", "net post transfer_s_o_B_cpu",
                                 "net complete", "end cycle"});
}

TEST_CASE("plan: a gpudirect transfer is run by both hosts' CPUs on the GPUs' buffers", "[plan]") {
  ir::Program p = gpudirect_program();
  HostPlans plans = plan_hosts(p, run_passes(p), nullptr, kCopyAll);
  const ir::PeId a_cpu = pe_named(p, "A.cpu"), a_g0 = pe_named(p, "A.g0");
  const ir::PeId b_cpu = pe_named(p, "B.cpu"), b_g0 = pe_named(p, "B.g0");
  for (Strategy strategy : ir::kStrategies) {
    CAPTURE(ir::to_string(strategy));
    const StrategyPlan& a = plans.hosts[0].strategies[strategy];
    const StrategyPlan& b = plans.hosts[1].strategies[strategy];
    const Entry& send = entry_named(a, "i.b@A.g0 -> i.b@B.g0");
    const Entry& recv = entry_named(b, "i.b@A.g0 -> i.b@B.g0");
    CHECK(send.runner == a_cpu);
    CHECK(recv.runner == b_cpu);
    CHECK(send.transfer().net == NetEnd::send);
    CHECK(recv.transfer().net == NetEnd::recv);
    CHECK(send.transfer().gpudirect == a_g0);
    CHECK(recv.transfer().gpudirect == b_g0);
    CHECK(send.transfer().link == "gpudirect");
    CHECK(send.transfer().tag >= 0);
    CHECK(send.transfer().tag == recv.transfer().tag);
    CHECK(send.where == "A.g0>B.g0");
    REQUIRE(send.read());
    CHECK(send.read()->pe == a_g0);  // the GPU's own memory
    REQUIRE(recv.write());
    CHECK(recv.write()->pe == b_g0);
    // The CPU that runs a GPU's end shares that GPU's memory: neighbours, within a host.
    CHECK(a.neighbours[a_cpu].count(a_g0) == 1);
    CHECK(a.neighbours[a_g0].count(a_cpu) == 1);
    CHECK(b.neighbours[b_cpu].count(b_g0) == 1);
    CHECK(b.neighbours[b_g0].count(b_cpu) == 1);
    for (const HostPlan& h : plans.hosts)
      for (ir::PeId pe = 0; pe < p.arch.pes.size(); ++pe)
        for (ir::PeId n : h.strategies[strategy].neighbours[pe])
          CHECK(p.arch.pes[n].host == p.arch.pes[pe].host);
  }
  CHECK(plans.hosts[0].has_gpudirect());
  CHECK(plans.hosts[1].has_gpudirect());
}

TEST_CASE("plan: the dump names everything by spec names, the same every time", "[plan]") {
  ir::Program p = hosts_program();
  p.spec_file = "/somewhere/specs/hosts.dfg";
  std::string first = dump(plan_hosts(p, run_passes(p), nullptr, kCopyAll));
  CHECK(first == dump(plan_hosts(p, run_passes(p), nullptr, kCopyAll)));
  // The spec by its file name only: the same wherever dfgc runs.
  CHECK(first.find("host B of app " + p.app_name + " on " + p.arch.name + " (hosts.dfg)\n") !=
        std::string::npos);
  CHECK(first.find("/somewhere") == std::string::npos);
  CHECK(
      first.find("net post send transfer s.o@A.cpu -> s.o@B.cpu (transfer_s_o_B_cpu) from cycle") !=
      std::string::npos);
  CHECK(first.find("from host A tag 0") != std::string::npos);
  CHECK(first.find("0x") == std::string::npos);
}

namespace {

/// p @ A.c0 feeds q @ A.c1 and c @ A.c2; q feeds c: three cpus of one host, no GPU.
ir::Program cores_program() {
  test::ProgramBuilder b("cores");
  b.type("T", ir::ElemType::f32, 64)
      .actor("P", "out T o")
      .actor("Q", "in T a; out T b")
      .actor("C", "in T x; in T y");
  b.host("A", 0, 25e9, 3);
  b.node("p", "P", "A.c0").node("q", "Q", "A.c1").node("c", "C", "A.c2");
  b.edge("p.o", "q.a").edge("q.b", "c.x").edge("p.o", "c.y");
  return b.build();
}

/// s @ A.c1 -> g @ A.g0 -> t @ B.c1; A.c0 joins A.g0 and B.c0; two cpus a host.
ir::Program cores_and_hosts_program() {
  test::ProgramBuilder b("cores2");
  b.type("T", ir::ElemType::f32, 64)
      .actor("S", "out T o")
      .actor("G", "in T a; out T b")
      .actor("C", "in T m");
  b.host("A", 1, 25e9, 2).host("B", 0, 25e9, 2).link("A.c0", "B.c0", ir::LinkKind::net, 2.6e9);
  b.node("s", "S", "A.c1").node("g", "G", "A.g0").node("t", "C", "B.c1");
  b.edge("s.o", "g.a").edge("g.b", "t.m");
  return b.build();
}

}  // namespace

TEST_CASE("plan: cpus of one host read each other's buffers in place, a cycle later", "[plan]") {
  ir::Program p = cores_program();
  ir::Ig ig = run_passes(p);
  HostPlans plans = plan_hosts(p, ig, nullptr, kCopyAll);
  REQUIRE(plans.hosts.size() == 1);
  const HostPlan& h = plans.hosts[0];
  const ir::PeId c0 = pe_named(p, "A.c0"), c1 = pe_named(p, "A.c1"), c2 = pe_named(p, "A.c2");
  CHECK(h.cpu() == c0);
  CHECK(h.cpus == std::vector<ir::PeId>{c0, c1, c2});
  CHECK(h.pes() == std::vector<ir::PeId>{c0, c1, c2});
  for (Strategy strategy : ir::kStrategies) {
    CAPTURE(ir::to_string(strategy));
    const StrategyPlan& sp = h.strategies[strategy];
    // No copy: every entry is a firing or c's delay copy, on its own cpu's thread.
    CHECK(ig[strategy].transfers.empty());
    for (const Entry& e : sp.entries) CHECK(e.kind() != Entry::Kind::transfer);
    // q reads p's buffer where p wrote it, the slot of the previous cycle: double, lag 1.
    const Entry& q = entry_named(sp, "q (Q)");
    CHECK(q.runner == c1);
    REQUIRE(q.ports().size() == 2);
    CHECK(sp.buffers[q.ports()[0].slot.buffer].name == "p.o@A.c0");
    CHECK(q.ports()[0].slot.pe == c0);
    CHECK(q.ports()[0].slot.slots == 2);
    CHECK(q.ports()[0].slot.lag == 1);
    CHECK(q.first_cycle == 1);
    CHECK(entry_named(sp, "p (P)").ports()[0].slot.lag == 0);
    // c: q's output a cycle later (cycle 2); p's arrives in cycle 1 and waits in a delay line on
    // c's cpu, filled from p's buffer in place.
    CHECK(entry_named(sp, "c (C)").first_cycle == 2);
    const Entry& delay = entry_named(sp, "c.y.delay@A.c2 <- p.o@A.c0");
    CHECK(delay.runner == c2);
    CHECK(delay.read()->pe == c0);
    CHECK(delay.read()->lag == 1);
    // A reader waits for the buffer's writer and the other way round: c0-c1 and c0-c2 (p.o),
    // c1-c2 (q.b).
    CHECK(sp.neighbours[c0] == std::set<ir::PeId>{c1, c2});
    CHECK(sp.neighbours[c1] == std::set<ir::PeId>{c0, c2});
    CHECK(sp.neighbours[c2] == std::set<ir::PeId>{c0, c1});
    // Each cpu fires its own nodes and ends its cycle: no transfer step to wait for.
    CHECK(step_names(sp, c1) == std::vector<std::string>{"fire fire_q", "end cycle"});
    // The buffers another cpu reads are never shared with another buffer.
    for (const PlanColour& c : sp.storage[c0]) CHECK(c.members.size() == 1);
    test::SimReport r = test::simulate(p, ig[strategy], 1000);
    for (const std::string& e : r.errors) UNSCOPED_INFO(e);
    CHECK(r.errors.empty());
    CHECK(r.firings[2] == 998);
  }
  // Without a transfer both strategies have the same steps over the same entries: one loop per
  // worker serves both, and the dump says so.
  CHECK(h.same_entries);
  for (ir::PeId pe : h.pes()) CHECK(h.sharing[pe].loop);
  const std::string dump = dfgc::dump(plans);
  CHECK(dump.find("  shared memory A.c0 A.c1 A.c2\n") != std::string::npos);
  CHECK(dump.find("    the same colours, views and cycle loop in both strategies\n") !=
        std::string::npos);
  CHECK(dump.find("  strategy no-overlap latency 2 entries as overlap's\n") != std::string::npos);
  CHECK(
      dump.find("pe A.c0 cpu worker Worker_A_c0 colours 1 first cpu: the host end of its links") !=
      std::string::npos);
}

TEST_CASE("plan: a GPU copies from any cpu's buffer; the first cpu runs the host's MPI", "[plan]") {
  ir::Program p = cores_and_hosts_program();
  ir::Ig ig = run_passes(p);
  HostPlans plans = plan_hosts(p, ig, nullptr, kCopyAll);
  const ir::PeId a0 = pe_named(p, "A.c0"), a1 = pe_named(p, "A.c1"), g0 = pe_named(p, "A.g0");
  const ir::PeId b0 = pe_named(p, "B.c0"), b1 = pe_named(p, "B.c1");
  for (Strategy strategy : ir::kStrategies) {
    CAPTURE(ir::to_string(strategy));
    const StrategyPlan& a = plans.hosts[0].strategies[strategy];
    const StrategyPlan& b = plans.hosts[1].strategies[strategy];
    // The GPU reads s's buffer on A.c1 over the pcie link of A.c0, launched on its h2d stream.
    const Entry& h2d = entry_named(a, "s.o@A.c1 -> s.o@A.g0");
    CHECK(h2d.runner == g0);
    CHECK(h2d.stream == StreamKind::h2d);
    CHECK(h2d.read()->pe == a1);
    CHECK(a.neighbours[a1].count(g0) == 1);
    // g's token comes back to host A's memory, then goes to B: posted by each host's first cpu,
    // received where t's cpu reads it.
    const Entry& send = entry_named(a, "g.b@A.c0 -> g.b@B.c1");
    CHECK(send.runner == a0);
    CHECK(send.transfer().net == NetEnd::send);
    const Entry& recv = entry_named(b, "g.b@A.c0 -> g.b@B.c1");
    CHECK(recv.runner == b0);
    CHECK(recv.transfer().net == NetEnd::recv);
    CHECK(recv.write()->pe == b1);
    CHECK(b.neighbours[b1] == std::set<ir::PeId>{b0});
    CHECK(entry_named(b, "t (C)").runner == b1);
    // B.c1 has no MPI step: only B.c0 completes the host's MPI transfers.
    CHECK(step_names(b, b1).back() == "end cycle");
    for (const std::string& s : step_names(b, b1)) CHECK(s.find("net") == std::string::npos);
    test::SimReport r = test::simulate(p, ig[strategy], 200);
    for (const std::string& e : r.errors) UNSCOPED_INFO(e);
    CHECK(r.errors.empty());
  }
}

namespace {

/// "h2d after compute 1 (A.g0 colour 0)" for each of a GPU's stream orders.
std::vector<std::string> order_names(const GpuCycles& g) {
  std::vector<std::string> out;
  for (const StreamOrder& o : g.orders)
    out.push_back(fmt::format("{} after {} {} ({})", to_string(o.stream), to_string(o.after),
                              o.cycles, o.colour));
  return out;
}

/// A host of one CPU (PE 0) and one GPU (PE 1) whose GPU runs `entries`, all of them.
HostPlan gpu_host(std::vector<Entry> entries) {
  auto program = std::make_shared<ProgramPlan>();
  program->pe_table = {{"A.cpu", "cpu", 0, ir::PeKind::cpu, -1},
                       {"A.g0", "g0", 0, ir::PeKind::gpu, 0}};
  HostPlan h;
  h.program = program;
  h.gpus = {1};
  h.streams.resize(2);
  StrategyPlan& sp = h.strategies[Strategy::overlap];
  sp.by_pe.resize(2);
  for (Entry& e : entries) {
    e.runner = 1;
    h.streams[1].insert(*e.stream);
    sp.by_pe[1].push_back(sp.entries.size());
    sp.entries.push_back(std::move(e));
  }
  return h;
}

/// A copy on `stream` from (pe, colour, lag) to (pe, colour, lag), colours of `slots` slots.
Entry copy_on(StreamKind stream, SlotRef from, SlotRef to) {
  Entry e;
  Entry::Transfer& t = e.what.emplace<Entry::Transfer>();
  e.stream = stream;
  t.read = from;
  t.write = to;
  return e;
}

SlotRef at(ir::PeId pe, std::uint32_t colour, std::uint32_t lag, std::uint32_t slots) {
  SlotRef r;
  r.pe = pe;
  r.colour = colour;
  r.lag = lag;
  r.slots = slots;
  return r;
}

}  // namespace

TEST_CASE("plan: a GPU's streams wait for each other's cycles as the lags of their slots say",
          "[plan]") {
  SECTION("the one_gpu pipeline: each copy and the firings meet a cycle apart") {
    ir::Program p = one_gpu_program();
    HostPlans plans = plan_hosts(p, run_passes(p), nullptr, kCopyAll);
    const ir::PeId g0 = pe_named(p, "A.g0");
    const GpuCycles& g = *plans.hosts[0].strategies[Strategy::overlap].gpu_cycles[g0];
    CHECK(g.streams ==
          std::vector<StreamKind>{StreamKind::compute, StreamKind::h2d, StreamKind::d2h});
    // h2d writes p.m@A.g0's slot c mod 2, which the firing read in c - 1; d2h reads i.b@A.g0's
    // slot c - 1, which the firing wrote in c - 1; the firing reads what h2d wrote in c - 1 and
    // writes what d2h read in c - 1.
    const std::vector<std::string> orders = order_names(g);
    REQUIRE(orders.size() == 4);
    for (const std::string& o : orders) CHECK(o.find(" 1 (A.g0 colour ") != std::string::npos);
    CHECK(orders[0].starts_with("compute after h2d"));
    CHECK(orders[1].starts_with("compute after d2h"));
    CHECK(orders[2].starts_with("h2d after compute"));
    CHECK(orders[3].starts_with("d2h after compute"));
    CHECK(g.in_flight == 2);
    // Without overlap the thread still waits for its streams: no GpuCycles.
    CHECK(plans.hosts[0].strategies[Strategy::no_overlap].gpu_cycles.empty());
  }
  SECTION("a deeper colour: the distance is the lag difference modulo its slots") {
    // h2d writes slot c mod 4 of colour 0; compute reads slot (c - 3) mod 4 of it, writes colour 1.
    HostPlan h = gpu_host({copy_on(StreamKind::h2d, at(0, 0, 1, 2), at(1, 0, 0, 4)),
                           copy_on(StreamKind::compute, at(1, 0, 3, 4), at(1, 1, 0, 1))});
    const GpuCycles g = gpu_cycles(h, h.strategies[Strategy::overlap], 1);
    // compute in c reads what h2d wrote in c - 3; h2d in c overwrites what compute read in c - 1.
    CHECK(order_names(g) == std::vector<std::string>{"compute after h2d 3 (A.g0 colour 0)",
                                                     "h2d after compute 1 (A.g0 colour 0)"});
    CHECK(g.in_flight == 3);  // the ring of cycle ends reaches back 3 cycles
  }
  SECTION("streams that only read a colour, or touch different colours, need no order") {
    HostPlan h = gpu_host({copy_on(StreamKind::h2d, at(0, 0, 1, 2), at(1, 0, 0, 2)),
                           copy_on(StreamKind::d2h, at(1, 1, 1, 2), at(0, 1, 0, 2)),
                           copy_on(StreamKind::peer, at(0, 0, 1, 2), at(1, 2, 0, 2))});
    const GpuCycles g = gpu_cycles(h, h.strategies[Strategy::overlap], 1);
    CHECK(g.orders.empty());  // h2d and peer both read A.cpu colour 0; the rest are apart
    CHECK(g.in_flight == 2);
    CHECK(g.streams.size() == 3);
  }
}

TEST_CASE(
    "with migration alternatives the plan is the union: new-only entries, their own storage, "
    "the node's instance on the new PE, what a switch stops and starts",
    "[passes][plan][migrations]") {
  // s @ A.c0 -> g @ A.c1 -> k @ A.c2, g may move to A.c3.
  test::ProgramBuilder b("cores");
  b.type("T", ir::ElemType::f32, 64, "N * 4", true);
  b.actor("S", "out T o").actor("G", "in T a; out T b").actor("K", "in T i");
  b.host("A", 0, 25e9, 4);
  b.node("s", "S", "A.c0").node("g", "G", "A.c1").node("k", "K", "A.c2");
  b.edge("s.o", "g.a").edge("g.b", "k.i");
  ir::Program p = b.build();
  const ir::PeId c1 = pe_named(p, "A.c1"), c3 = pe_named(p, "A.c3");
  const ir::Ig ig = run_passes(p);
  Migrations m;
  m.alternatives.push_back(plan_migration(p, ig, 1, c3, ShortPathPolicy::pad));
  const HostPlans base = plan_hosts(p, ig, nullptr, kCopyAll);
  const HostPlans plans = plan_hosts(p, ig, &m, kCopyAll);
  const HostPlan& h = plans.hosts[0];
  REQUIRE(h.migrations.size() == 1);
  CHECK(h.migrations[0].node_name == "g");
  CHECK(h.migrations[0].from == c1);
  CHECK(h.migrations[0].to == c3);
  // The instance of g on A.c3, set up at start-up like the base one.
  CHECK(h.node(1, c1).alternative == -1);
  CHECK(h.node(1, c3).alternative == 0);
  for (ir::Strategy s : ir::kStrategies) {
    INFO(ir::to_string(s));
    const StrategyPlan& u = h.strategies[s];
    const StrategyPlan& b0 = base.hosts[0].strategies[s];
    // G0's entries first, unchanged.
    REQUIRE(u.entries.size() > b0.entries.size());
    for (std::size_t i = 0; i < b0.entries.size(); ++i)
      CHECK(u.entries[i].ident == b0.entries[i].ident);
    const PlanSwitch& sw = h.migrations[0].sides[s];
    CHECK(sw.delta == 0);
    CHECK(sw.reversible);
    std::vector<std::string> stops, starts;
    for (std::size_t i : sw.stop) stops.push_back(u.entries[i].ident);
    for (std::size_t i : sw.start) {
      starts.push_back(u.entries[i].ident);
      CHECK(u.entries[i].alternative == 0);
      CHECK(i >= b0.entries.size());
    }
    CHECK(std::find(stops.begin(), stops.end(), "fire_g") != stops.end());
    CHECK(std::find(starts.begin(), starts.end(), "m0_fire_g") != starts.end());
    // The new firing runs on A.c3 and writes storage of its own, after A.c3's base colours.
    const Entry& fire = entry_named(u, "g (G)");
    CHECK(fire.runner == c1);
    const Entry* moved = nullptr;
    for (const Entry& e : u.entries)
      if (e.ident == "m0_fire_g") moved = &e;
    REQUIRE(moved);
    CHECK(moved->runner == c3);
    for (const PortRef& port : moved->ports()) {
      if (port.input) continue;
      CHECK(port.slot.pe == c3);
      CHECK(port.slot.colour >= b0.storage[c3].size());
      CHECK(u.storage[c3].size() > b0.storage[c3].size());
    }
    // The union's neighbours include the new PE's.
    CHECK(u.neighbours[c3].count(pe_named(p, "A.c0")) == 1);
  }
  CHECK(h.colour_count[c3] > base.hosts[0].colour_count[c3]);
  // Deterministic.
  CHECK(dump(plans) == dump(plan_hosts(p, ig, &m, kCopyAll)));
}

TEST_CASE("plan: an alternative's own colours of a bounded type keep a length cell per slot",
          "[passes][plan][migrations]") {
  // s -> p -> k on A.c0, tokens of a bounded type, p may move to A.c1. p's output on
  // A.c1 is the alternative's own buffer: its colour must be allocated with length cells, as
  // G0's are, or the view's length cell is null and p's resize() stores through it.
  test::ProgramBuilder b("bounded");
  b.type("P", ir::ElemType::u8, 16);
  b.actor("S", "out P o").actor("BP", "in P i; out P o").actor("K", "in P i");
  b.host("A", 0, 25e9, 2);
  b.node("s", "S", "A.c0").node("p", "BP", "A.c0").node("k", "K", "A.c0");
  b.edge("s.o", "p.i").edge("p.o", "k.i");
  ir::Program p = b.build();
  p.types[0].bounded = true;  // `type P = uint8[<= 16];`
  const ir::PeId c1 = pe_named(p, "A.c1");
  const ir::Ig ig = run_passes(p);
  Migrations m;
  m.alternatives.push_back(plan_migration(p, ig, 1, c1, ShortPathPolicy::pad));
  const HostPlans plans = plan_hosts(p, ig, &m, kCopyAll);
  const HostPlan& h = plans.hosts[0];
  for (ir::Strategy s : ir::kStrategies) {
    INFO(ir::to_string(s));
    const StrategyPlan& u = h.strategies[s];
    const Entry* moved = nullptr;
    for (const Entry& e : u.entries)
      if (e.ident == "m0_fire_p") moved = &e;
    REQUIRE(moved);
    for (const PortRef& port : moved->ports()) {
      if (port.input) continue;
      REQUIRE(port.slot.pe == c1);
      const PlanColour* colour = nullptr;
      for (const PlanColour& c : u.storage[c1])
        if (c.index == port.slot.colour) colour = &c;
      REQUIRE(colour);
      CHECK(colour->lengths);
    }
    // Every colour of the union holds tokens of P only: each keeps its lengths.
    for (const std::vector<PlanColour>& colours : u.storage)
      for (const PlanColour& c : colours) {
        INFO("colour " << c.index << " of " << (c.members.empty() ? "" : c.members.front()));
        CHECK(c.lengths);
      }
  }
}

TEST_CASE(
    "plan: the params, token types, nodes' headers and host-to-host transfers for the printers",
    "[plan]") {
  ir::Program p = gpudirect_program();
  p.dfg.actors[1].libraries = {"cufft"};  // I, on both GPUs
  p.params.push_back({"W", 64, true, {}, {}, ir::TuneRange{1, 128}});
  p.params.push_back({"K", 2, false, {}, {}, {}});
  p.types[0].count.text = "W";
  ir::Ig ig = run_passes(p);
  HostPlans plans = plan_hosts(p, ig, nullptr, kCopyAll);
  REQUIRE(plans.hosts.size() == 2);
  for (const HostPlan& h : plans.hosts) {
    CAPTURE(h.host_name);
    REQUIRE(h.program->params.size() == 2);
    CHECK(h.program->params[0].name == "W");
    CHECK(h.program->params[0].runtime);
    REQUIRE(h.program->params[0].bounds);
    CHECK(h.program->params[0].bounds->max == 128);
    CHECK_FALSE(h.program->params[1].runtime);
    REQUIRE(h.program->types.size() == 1);
    CHECK(h.program->types[0].cxx_elem == "float");
    CHECK(h.program->types[0].count_text == "W");
    // Both hosts list every host-to-host transfer of the program, by tag: i.b over gpudirect,
    // once per strategy.
    REQUIRE(h.program->net_transfers.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      CHECK(h.program->net_transfers[i].tag == static_cast<int>(i));
      CHECK(h.program->net_transfers[i].from == "i.b@A.g0");
      CHECK(h.program->net_transfers[i].to == "i.b@B.g0");
      CHECK(h.program->net_transfers[i].gpudirect);
    }
    CHECK(h.program->net_transfers[0].strategy == Strategy::overlap);
    CHECK(h.program->net_transfers[1].strategy == Strategy::no_overlap);
  }
  const PlanNode& i = plans.hosts[0].node(1, p.mapping.pe_of[1]);
  CHECK(i.header == "I.cuh");
  CHECK(i.header_path == "I.cuh");
  CHECK(i.libraries == std::vector<std::string>{"cufft"});
  CHECK(plans.hosts[0].node(0, p.mapping.pe_of[0]).header == "S.hpp");
  const std::string text = dump(plans);
  CHECK(text.find("  runtime param W = 64 in [1, 128]\n  param K = 2\n") != std::string::npos);
  CHECK(text.find("  net tag 0 overlap i.b@A.g0 -> i.b@B.g0 gpudirect\n") != std::string::npos);
  CHECK(text.find("  node i (I) @ A.g0: class I in \"I.cuh\" uses cufft, member i_node_\n") !=
        std::string::npos);
}

TEST_CASE("plan: two communication lanes only where a host sends and receives large tokens",
          "[plan]") {
  // s @ A.cpu -> t @ B.g0 -> c @ C.cpu: B receives s's token and sends t's.
  auto lanes = [](std::int64_t elements) {
    ir::Program p = hosts_program();
    p.types[0].count.value = p.types[0].count.tree.value = elements;
    p.types[0].count.text = std::to_string(elements);
    const HostPlans plans = plan_hosts(p, run_passes(p), nullptr, kCopyAll);
    std::vector<std::string> out;
    for (const HostPlan& h : plans.hosts) {
      const StrategyPlan& sp = h.strategies[Strategy::overlap];
      for (const Entry& e : sp.entries)
        if (e.net()) CHECK(e.transfer().bytes == elements * 4);
      const std::string text = dump({plans.program, {h}});
      const auto at = text.find("mpi lanes: ");
      REQUIRE(at != std::string::npos);
      out.push_back(text.substr(at, text.find(" (", at) - at));
    }
    return out;
  };
  const std::string one = "mpi lanes: one", two = "mpi lanes: two";
  CHECK(lanes(kTwoLaneBytes / 4 - 1) == std::vector<std::string>{one, one, one});
  CHECK(lanes(kTwoLaneBytes / 4) ==
        std::vector<std::string>{one, two, one});  // A only sends, C only receives
}

namespace {

/// s @ A.cpu -> d (a parallel action, `count` elements a firing on each port) -> e (steps) ->
/// k @ A.cpu, the island on A.g0; d's input ring holds `ring` elements.
std::string parallel_spec(int count, int ring) {
  return fmt::format(
      "type B = int32[16];\n"
      "actor Src {{ out B o; cpu \"s.hpp\"; }}\n"
      "actor Snk {{ in B i; cpu \"k.hpp\"; }}\n"
      "actor D dynamic {{ in int32 x fifo {1}; out int32 y;\n"
      "  gpu \"d.cuh\" D parallel (y {0}, x {0}); }}\n"
      "actor E dynamic {{ in int32 x fifo 4096; out int32 y; gpu \"e.cuh\"; }}\n"
      "arch h {{ host A {{ cpu; gpu g0 = 0; }} link A.cpu <-> A.g0 pcie (25 GB/s); }}\n"
      "app x on h {{\n"
      "  node s : Src @ A.cpu;  node d : D @ A.g0;  node e : E @ A.g0;  node k : Snk @ A.cpu;\n"
      "  s.o -> d.x;  d.y -> e.x;  e.y -> k.i;\n"
      "}}\n",
      count, ring);
}

PlanIsland only_island(const HostPlans& plans) {
  REQUIRE(plans.hosts.size() == 1);
  REQUIRE(plans.hosts[0].islands.size() == 1);
  return plans.hosts[0].islands[0];
}

}  // namespace

TEST_CASE("plan: a parallel member's batch is what its rings hold; the island's blocks serve it",
          "[plan]") {
  SECTION("the smallest ring over the count, the capacity rounded up to a power of two") {
    auto r = test::analyze(parallel_spec(4, 40));  // x: 64 / 4 = 16, y: 4096 / 4 = 1024
    INFO(r->summary());
    REQUIRE(r->program);
    const ir::Program& p = *r->program;
    const PlanIsland island = only_island(plan_hosts(p, run_passes(p)));
    REQUIRE(island.members.size() == 2);
    const PlanIslandMember& d = island.members[0];
    CHECK(d.parallel == std::vector<std::uint32_t>{4, 4});  // per port, in the actor's order
    CHECK(d.batch == 16);
    CHECK(island.members[1].parallel.empty());  // e steps
    CHECK(island.threads == 32);                // a warp
    const std::string text = dump(plan_hosts(p, run_passes(p)));
    CHECK(text.find("member d (D): class D in \"d.cuh\" parallel (x 4, y 4), up to 16 firings "
                    "a batch\n") != std::string::npos);
    CHECK(island.adapters() == 2);         // s.o -> d.x and e.y -> k.i
    CHECK(island.block_threads() == 128);  // a warp for each adapter and node
    CHECK(text.find("\"dfg_islands/island_d.cuh\", one block of 128 threads (a warp per adapter "
                    "and per node; batches of 32)\n") != std::string::npos);
  }
  SECTION("in warps of 32") {
    auto r = test::analyze(parallel_spec(1, 33));  // x: 64, y: 4096
    REQUIRE(r->program);
    const PlanIsland island = only_island(plan_hosts(*r->program, run_passes(*r->program)));
    CHECK(island.members[0].batch == 64);
    CHECK(island.threads == 64);
  }
  SECTION("at most 256 threads, however large the batch") {
    auto r = test::analyze(parallel_spec(1, 1000));  // x: 1024, y: 4096
    REQUIRE(r->program);
    const PlanIsland island = only_island(plan_hosts(*r->program, run_passes(*r->program)));
    CHECK(island.members[0].batch == 1024);
    CHECK(island.threads == kIslandThreads);
    CHECK(kIslandThreads == 256);
  }
}

TEST_CASE("plan: an island whose members all step has blocks of one thread", "[plan]") {
  std::string spec = parallel_spec(4, 40);
  spec.replace(spec.find(" parallel (y 4, x 4)"), 20, "");
  auto r = test::analyze(spec);
  INFO(r->summary());
  REQUIRE(r->program);
  const PlanIsland island = only_island(plan_hosts(*r->program, run_passes(*r->program)));
  CHECK(island.members[0].parallel.empty());
  CHECK(island.threads == 1);
}

TEST_CASE("plan: small tokens between a CPU and a GPU are mapped, larger ones copied", "[plan]") {
  // T is 64 floats: 256 bytes a slot.
  ir::Program p = one_gpu_program();
  const ir::Ig ig = run_passes(p);
  const ir::PeId cpu = pe_named(p, "A.cpu"), g0 = pe_named(p, "A.g0");
  SECTION("at most the threshold: the GPU's colours are mapped, the CPU copies on the host") {
    const HostPlans plans = plan_hosts(p, ig, nullptr, PlanOptions{256});
    const HostPlan& h = plans.hosts[0];
    CHECK(h.program->mapped_bytes == 256);
    for (Strategy s : ir::kStrategies) {
      CAPTURE(ir::to_string(s));
      const StrategyPlan& sp = h.strategies[s];
      for (const PlanColour& c : sp.storage[g0]) CHECK(c.mapped);
      for (const PlanColour& c : sp.storage[cpu]) CHECK_FALSE(c.mapped);
      for (std::string_view name : {"p.m@A.cpu -> p.m@A.g0", "i.b@A.g0 -> i.b@A.cpu"}) {
        const Entry& e = entry_named(sp, name);
        CHECK(e.transfer().mapped);
        CHECK(e.runner == cpu);
        CHECK_FALSE(e.stream.has_value());
      }
      // The CPU now touches the GPU's colours: they are neighbours both ways.
      CHECK(sp.neighbours[cpu] == std::set<ir::PeId>{g0});
      CHECK(sp.neighbours[g0] == std::set<ir::PeId>{cpu});
    }
    // The GPU has no copy stream left; its cycles are released to the CPU once finished.
    CHECK(h.streams[g0] == std::set<StreamKind>{StreamKind::compute});
    const StrategyPlan& over = h.strategies[Strategy::overlap];
    REQUIRE(over.gpu_cycles[g0]);
    CHECK(over.gpu_cycles[g0]->mapped);
    CHECK(over.gpu_cycles[g0]->orders.empty());
    CHECK(step_names(over, g0) == std::vector<std::string>{"fire fire_i", "end cycle"});
    CHECK(step_names(over, cpu) == std::vector<std::string>{"mapped copy transfer_i_b_A_cpu",
                                                            "mapped copy transfer_p_m_A_g0",
                                                            "fire fire_p", "fire fire_c",
                                                            "end cycle"});
    // Without overlap the CPU copies in the transfer step, with no stream to wait for.
    const StrategyPlan& no = h.strategies[Strategy::no_overlap];
    CHECK(step_names(no, cpu) == std::vector<std::string>{"mapped copy transfer_i_b_A_cpu",
                                                          "mapped copy transfer_p_m_A_g0",
                                                          "end phase 0", "fire fire_p",
                                                          "fire fire_c", "end cycle"});
    CHECK(step_names(no, g0) ==
          std::vector<std::string>{"end phase 0", "fire fire_i", "wait compute", "end cycle"});
    const std::string text = dump(plans);
    CHECK(text.find("mapped tokens: a GPU's colours of at most 256 bytes") != std::string::npos);
    CHECK(text.find("mapped copy transfer p.m@A.cpu -> p.m@A.g0") != std::string::npos);
    CHECK(text.find(", mapped host memory: p.m@A.g0") != std::string::npos);
  }
  SECTION("above the threshold, or with it 0, every token is copied by the GPU") {
    for (std::int64_t bytes : {std::int64_t{255}, std::int64_t{0}}) {
      CAPTURE(bytes);
      const HostPlans plans = plan_hosts(p, ig, nullptr, PlanOptions{bytes});
      const HostPlan& h = plans.hosts[0];
      for (Strategy s : ir::kStrategies) {
        const StrategyPlan& sp = h.strategies[s];
        for (const PlanColour& c : sp.storage[g0]) CHECK_FALSE(c.mapped);
        const Entry& e = entry_named(sp, "p.m@A.cpu -> p.m@A.g0");
        CHECK_FALSE(e.transfer().mapped);
        CHECK(e.runner == g0);
        CHECK(e.stream == StreamKind::h2d);
      }
      CHECK_FALSE(h.strategies[Strategy::overlap].gpu_cycles[g0]->mapped);
      CHECK(h.streams[g0] ==
            std::set<StreamKind>{StreamKind::compute, StreamKind::h2d, StreamKind::d2h});
    }
  }
  SECTION("the default threshold maps these 256-byte tokens") {
    const HostPlans plans = plan_hosts(p, ig);
    CHECK(plans.program->mapped_bytes == kMappedBytes);
    CHECK(entry_named(plans.hosts[0].strategies[Strategy::overlap], "p.m@A.cpu -> p.m@A.g0")
              .transfer()
              .mapped);
  }
}

TEST_CASE("plan: a token whose GPU port is not declared mappable stays in device memory",
          "[plan]") {
  // A kernel that accumulates into its output or reads its input many times would cross the bus
  // on every access of a mapped token: only `mappable` ports let the plan map one.
  for (const bool in_mappable : {false, true}) {
    CAPTURE(in_mappable);
    const ir::Program p = one_gpu_program(in_mappable, !in_mappable);
    const HostPlans plans = plan_hosts(p, run_passes(p), nullptr, PlanOptions{1 << 20});
    for (Strategy s : ir::kStrategies) {
      const StrategyPlan& sp = plans.hosts[0].strategies[s];
      CHECK(entry_named(sp, "p.m@A.cpu -> p.m@A.g0").transfer().mapped == in_mappable);
      CHECK(entry_named(sp, "i.b@A.g0 -> i.b@A.cpu").transfer().mapped == !in_mappable);
    }
  }
  const ir::Program none = one_gpu_program(false, false);
  const HostPlans plans = plan_hosts(none, run_passes(none));
  const StrategyPlan& sp = plans.hosts[0].strategies[Strategy::overlap];
  CHECK_FALSE(entry_named(sp, "p.m@A.cpu -> p.m@A.g0").transfer().mapped);
  CHECK_FALSE(entry_named(sp, "i.b@A.g0 -> i.b@A.cpu").transfer().mapped);
  CHECK(plans.hosts[0].streams[pe_named(none, "A.g0")] ==
        std::set<StreamKind>{StreamKind::compute, StreamKind::h2d, StreamKind::d2h});
}

TEST_CASE("plan: a colour that a transfer between GPUs or hosts touches stays in device memory",
          "[plan]") {
  const PlanOptions all{std::int64_t{1} << 30};
  SECTION("NVLink: the peer copy's colours are copied, the CPU ends' mapped") {
    ir::Program p = nvlink_program();
    const HostPlans plans = plan_hosts(p, run_passes(p), nullptr, all);
    const StrategyPlan& sp = plans.hosts[0].strategies[Strategy::overlap];
    const ir::PeId cpu = pe_named(p, "A.cpu"), g1 = pe_named(p, "A.g1");
    CHECK(entry_named(sp, "p.m@A.cpu -> p.m@A.g0").transfer().mapped);
    CHECK(entry_named(sp, "i2.b@A.g1 -> i2.b@A.cpu").transfer().mapped);
    CHECK(entry_named(sp, "i2.b@A.g1 -> i2.b@A.cpu").runner == cpu);
    const Entry& peer = entry_named(sp, "i1.b@A.g0 -> i1.b@A.g1");
    CHECK_FALSE(peer.transfer().mapped);
    CHECK(peer.stream == StreamKind::peer);
    for (const PlanColour& c : sp.storage[g1])
      CHECK(c.mapped == (c.members == std::vector<std::string>{"i2.b@A.g1"}));
  }
  SECTION("gpudirect: the GPU's end of an MPI transfer is copied, its CPU's mapped") {
    ir::Program p = gpudirect_program();
    const HostPlans plans = plan_hosts(p, run_passes(p), nullptr, all);
    const StrategyPlan& a = plans.hosts[0].strategies[Strategy::overlap];
    CHECK(entry_named(a, "s.o@A.cpu -> s.o@A.g0").transfer().mapped);
    for (const PlanColour& c : a.storage[pe_named(p, "A.g0")])
      if (std::find(c.members.begin(), c.members.end(), "i.b@A.g0") != c.members.end())
        CHECK_FALSE(c.mapped);
  }
  SECTION("over a net link, the receiving host's copy into its GPU is mapped") {
    ir::Program p = hosts_program();
    const HostPlans plans = plan_hosts(p, run_passes(p), nullptr, all);
    const StrategyPlan& b = plans.hosts[1].strategies[Strategy::overlap];
    const Entry& e = entry_named(b, "s.o@B.cpu -> s.o@B.g0");
    CHECK(e.transfer().mapped);
    CHECK(e.runner == pe_named(p, "B.cpu"));
  }
}

TEST_CASE(
    "plan: with the actors' signatures, each node says how it is called and each host which "
    "moves it hands over",
    "[passes][plan][migrations]") {
  // One host: s @ A.c0 -> g @ A.c1 -> k @ A.c2, g may move to A.c3. Two hosts: s, g @ A.cpu ->
  // k @ B.cpu, g may move to B.cpu.
  const bool two_hosts = GENERATE(false, true);
  const bool has_state = GENERATE(false, true);
  INFO((two_hosts ? "two hosts" : "one host") << (has_state ? ", save/restore" : ""));
  test::ProgramBuilder b("moves");
  b.type("T", ir::ElemType::f32, 64);
  b.actor("S", "out T o").actor("G", "in T a; out T b").actor("K", "in T i");
  if (two_hosts) {
    b.host("A", 0).host("B", 0).link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9);
    b.node("s", "S", "A.cpu").node("g", "G", "A.cpu").node("k", "K", "B.cpu");
  } else {
    b.host("A", 0, 25e9, 4);
    b.node("s", "S", "A.c0").node("g", "G", "A.c1").node("k", "K", "A.c2");
  }
  b.edge("s.o", "g.a").edge("g.b", "k.i");
  ir::Program p = b.build();
  const ir::PeId from = pe_named(p, two_hosts ? "A.cpu" : "A.c1");
  const ir::PeId to = pe_named(p, two_hosts ? "B.cpu" : "A.c3");
  const ir::Ig ig = run_passes(p);
  Migrations m;
  m.alternatives.push_back(plan_migration(p, ig, 1, to, ShortPathPolicy::pad));
  ActorSignatures signatures;
  for (ir::ActorId a = 0; a < p.dfg.actors.size(); ++a) {
    ActorSignature s;
    for (std::uint32_t port = 0; port < p.dfg.actors[a].ports.size(); ++port)
      s.fire_ports.push_back(port);
    s.fire_takes_context = a == 1;
    s.has_init = a == 0;
    s.has_state = a == 1 && has_state;
    signatures[{a, ir::PeKind::cpu}] = s;
  }
  // Without them the plan says nothing of either; code generation refuses such a plan.
  const HostPlans unsigned_plans = plan_hosts(p, ig, &m, kCopyAll);
  for (const HostPlan& h : unsigned_plans.hosts) {
    CHECK_FALSE(h.signed_nodes);
    CHECK(h.handoffs.empty());
    for (const PlanNode& n : h.nodes) CHECK_FALSE(n.signature);
  }
  const HostPlans plans = plan_hosts(p, ig, &m, kCopyAll, &signatures);
  for (const HostPlan& h : plans.hosts) {
    INFO("host " << h.host_name);
    CHECK(h.signed_nodes);
    for (const PlanNode& n : h.nodes) {
      REQUIRE(n.signature);
      CHECK(*n.signature == signatures.at({n.actor_id, ir::PeKind::cpu}));
    }
    // On one host a move is always handed over (the new instance's first firing follows the old
    // one's last); between hosts only with the state, through its tag.
    const bool hands_over = !two_hosts || has_state;
    REQUIRE(h.migrations.size() == 1);
    CHECK((h.migrations[0].state_tag >= 0) == two_hosts);
    CHECK(h.handoffs == (hands_over ? std::vector<ir::NodeId>{1} : std::vector<ir::NodeId>{}));
    CHECK(h.migrations[0].handoff == (hands_over ? 0 : -1));
    for (const PlanNode& n : h.nodes) CHECK(n.handoff == (hands_over && n.id == 1 ? 0 : -1));
  }
  // Both instances of g on one host, one on each of two.
  CHECK(plans.hosts[0].node(1, from).handoff == (!two_hosts || has_state ? 0 : -1));
  if (!two_hosts) CHECK(plans.hosts[0].node(1, to).handoff == 0);
  const std::string text = dump(plans);
  CHECK(text.find("    calls fire(a, b, ctx)") != std::string::npos);
  CHECK(text.find("    calls fire(o), init()") != std::string::npos);
  CHECK((text.find(", save/restore") != std::string::npos) == has_state);
  CHECK((text.find("  state handoffs: g\n") != std::string::npos) == (!two_hosts || has_state));
}
