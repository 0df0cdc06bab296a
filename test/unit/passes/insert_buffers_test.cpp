#include <catch2/catch.hpp>

#include "passes/fixtures.hpp"
#include "passes/insert_buffers.hpp"
#include "passes/routes.hpp"

using namespace dfgc;
using test::ProgramBuilder;

namespace {
std::vector<std::string> route_names(const ir::Program& p, Router& r, const char* from,
                                     const char* to) {
  std::vector<std::string> result;
  for (ir::PeId pe : r.route(*p.arch.find_pe(from), *p.arch.find_pe(to)).pes)
    result.push_back(p.arch.pes[pe].name);
  return result;
}

std::vector<std::string> buffer_names(const BufferPlan& plan) {
  std::vector<std::string> result;
  for (const PlannedBuffer& b : plan.buffers) result.push_back(b.name);
  return result;
}

std::string transfer(const BufferPlan& plan, ir::TransferId t) {
  return plan.buffers[plan.transfers[t].from].name + " -> " +
         plan.buffers[plan.transfers[t].to].name;
}
}  // namespace

TEST_CASE("routes: fewest hops, then bandwidth, then PE index; one-way links", "[routes]") {
  ProgramBuilder b;
  b.host("A", 3).host("B", 1).link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9);
  b.link("A.g0", "A.g1", ir::LinkKind::nvlink, 50e9);
  b.link("A.g2", "A.g0", ir::LinkKind::nvlink, 50e9, false);
  ir::Program p = b.build();
  Router r(p.arch);
  CHECK(route_names(p, r, "A.g0", "A.g1") == std::vector<std::string>{"A.g0", "A.g1"});
  CHECK(route_names(p, r, "A.g1", "A.g2") == std::vector<std::string>{"A.g1", "A.cpu", "A.g2"});
  CHECK(route_names(p, r, "A.g2", "A.g0") == std::vector<std::string>{"A.g2", "A.g0"});
  CHECK(route_names(p, r, "A.g0", "A.g2") == std::vector<std::string>{"A.g0", "A.cpu", "A.g2"});
  CHECK(route_names(p, r, "A.g1", "B.g0") ==
        std::vector<std::string>{"A.g1", "A.cpu", "B.cpu", "B.g0"});
  CHECK(route_names(p, r, "A.cpu", "A.cpu") == std::vector<std::string>{"A.cpu"});
}

TEST_CASE("routes: the faster of equally short paths, else the lower PE index", "[routes]") {
  ProgramBuilder b;
  b.host("A", 3);  // PEs: A.cpu 0, A.g0 1, A.g1 2, A.g2 3; links 0-2: cpu <-> g0, g1, g2
  b.link("A.g0", "A.g2", ir::LinkKind::pcie, 1e9).link("A.g0", "A.g2", ir::LinkKind::nvlink, 2e9);
  b.link("A.g2", "A.g1", ir::LinkKind::nvlink, 50e9);
  ir::Program p = b.build();
  Router r(p.arch);
  CHECK(r.route(1, 3).links == std::vector<ir::LinkId>{4});  // the faster of two parallel links
  // g0 -> g1: via the CPU (25 GB/s) or via g2 (2 GB/s bottleneck): the CPU.
  CHECK(route_names(p, r, "A.g0", "A.g1") == std::vector<std::string>{"A.g0", "A.cpu", "A.g1"});
  ProgramBuilder fast;
  fast.host("A", 3);
  fast.link("A.g0", "A.g2", ir::LinkKind::nvlink, 50e9)
      .link("A.g2", "A.g1", ir::LinkKind::nvlink, 50e9);
  ir::Program q = fast.build();
  Router r2(q.arch);
  // Both paths 2 hops; g2's are faster.
  CHECK(route_names(q, r2, "A.g0", "A.g1") == std::vector<std::string>{"A.g0", "A.g2", "A.g1"});
  ProgramBuilder tie;
  tie.host("A", 3);
  tie.link("A.g0", "A.g2", ir::LinkKind::nvlink, 25e9)
      .link("A.g2", "A.g1", ir::LinkKind::nvlink, 25e9);
  ir::Program t = tie.build();
  Router r3(t.arch);
  // Both 2 hops at 25 GB/s: the lower PE index (the CPU, 0) wins over g2 (3).
  CHECK(route_names(t, r3, "A.g0", "A.g1") == std::vector<std::string>{"A.g0", "A.cpu", "A.g1"});
}

TEST_CASE("the paper's example: b -> c2 crosses four buffers, c1 reuses three",
          "[insert_buffers]") {
  ir::Program p = test::paper_example().build();
  BufferPlan plan = insert_buffers(p.dfg, p.arch, p.mapping);
  std::vector<std::string> b_buffers;
  for (const PlannedBuffer& buf : plan.buffers)
    if (p.dfg.nodes[buf.node].name == "b") b_buffers.push_back(buf.name);
  CHECK(b_buffers == std::vector<std::string>{"b.o@A.g1", "b.o@A.cpu", "b.o@B.cpu", "b.o@B.g0"});
  const ir::EdgeId to_c2 = 2, to_c1 = 3, to_d = 4;
  CHECK(plan.buffers[plan.edge_buffer[to_c2]].name == "b.o@B.g0");
  CHECK(plan.buffers[plan.edge_buffer[to_c1]].name == "b.o@B.cpu");
  CHECK(plan.buffers[plan.edge_buffer[to_d]].name == "b.o@A.g1");  // same PE: b's own buffer
  CHECK(plan.buffers[plan.edge_buffer[to_c2]].hop == 3);
  std::vector<std::string> path;
  for (ir::TransferId t : plan.path_to(plan.edge_buffer[to_c2])) path.push_back(transfer(plan, t));
  CHECK(path == std::vector<std::string>{"b.o@A.g1 -> b.o@A.cpu", "b.o@A.cpu -> b.o@B.cpu",
                                         "b.o@B.cpu -> b.o@B.g0"});
  CHECK(p.arch.links[plan.transfers[plan.path_to(plan.edge_buffer[to_c2])[1]].link].kind ==
        ir::LinkKind::net);
  // 6 outputs; hops: p.o 1, a.o 2 (A.g0 -> A.cpu -> A.g1), b.o 3, f.o 2 (A.g1 -> A.cpu -> A.g2).
  CHECK(plan.buffers.size() == 14);
  CHECK(plan.transfers.size() == 8);
}

TEST_CASE("a broadcast to four PEs shares the route prefix", "[insert_buffers]") {
  ProgramBuilder b;
  b.type("T", ir::ElemType::u8, 100);
  test::add_generic_actors(b, "T");
  b.host("A", 2).host("B", 1).link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9);
  b.node("s", "Source", "A.cpu").node("k0", "Sink", "A.g0").node("k1", "Sink", "A.g1");
  b.node("k2", "Sink", "B.g0").node("k3", "Sink", "B.cpu").node("k4", "Sink", "A.cpu");
  for (const char* k : {"k0", "k1", "k2", "k3", "k4"}) b.edge("s.o", std::string(k) + ".i");
  ir::Program p = b.build();
  BufferPlan plan = insert_buffers(p.dfg, p.arch, p.mapping);
  CHECK(buffer_names(plan) ==
        std::vector<std::string>{"s.o@A.cpu", "s.o@A.g0", "s.o@A.g1", "s.o@B.cpu", "s.o@B.g0"});
  std::vector<std::string> transfers;
  for (ir::TransferId t = 0; t < plan.transfers.size(); ++t) transfers.push_back(transfer(plan, t));
  CHECK(transfers == std::vector<std::string>{"s.o@A.cpu -> s.o@A.g0", "s.o@A.cpu -> s.o@A.g1",
                                              "s.o@A.cpu -> s.o@B.cpu", "s.o@B.cpu -> s.o@B.g0"});
  CHECK(plan.buffers[3].consumers == std::vector<ir::EdgeId>{3});  // k3 reads the relay buffer
  CHECK(plan.buffers[0].consumers == std::vector<ir::EdgeId>{4});  // k4 reads s's own buffer
  CHECK(plan.buffers[0].out.size() == 3);
  CHECK(plan.port_buffer[5][0] == 0);
  CHECK(dump(plan, p).find("transfer s.o@B.cpu -> s.o@B.g0 pcie B.cpu<->B.g0\n") !=
        std::string::npos);
}
