/// \file
/// Architectures: hosts, processing elements, GPU ordinals and links.
#include <catch2/catch.hpp>

#include "sema_test_util.hpp"

using namespace dfgc;
using dfgc::test::diagnose;

namespace {

/// `archs` (from line 1) and an app on the last arch declared there, named `a`.
std::string with_app(const std::string& archs) {
  return archs +
         "\nparam N = 4;\ntype T = float[N];\n"
         "actor P { out T o; cpu \"p.hpp\"; }\n"
         "actor C { in T i; cpu \"c.hpp\"; }\n"
         "app x on a { node p : P @ A.cpu; node c : C @ A.cpu; p.o -> c.i; }\n";
}

}  // namespace

TEST_CASE("processing elements are ordered host by host, cpu first", "[sema]") {
  auto a = test::analyze(
      with_app("arch a {\n  host A { gpu g1 = 1; cpu; gpu g0 = 0; }\n  host B { cpu; }\n"
               "  link A.g0 -> A.cpu pcie (10 GB/s, 2 us);\n"
               "  link A.cpu -> A.g0 pcie (12 GB/s);\n"
               "  link A.g1 <-> A.g0 nvlink (300 GB/s);\n"
               "  link B.cpu <-> A.cpu net (1 GB/s);\n}"));
  REQUIRE(a->program);
  const ir::ArchGraph& g = a->program->arch;
  REQUIRE(g.pes.size() == 4);
  CHECK(g.pes[0].name == "A.cpu");
  CHECK(g.pes[1].name == "A.g1");
  CHECK(g.pes[1].local_name == "g1");
  CHECK(g.pes[1].device == 1);
  CHECK(g.pes[2].name == "A.g0");
  CHECK(g.pes[2].device == 0);
  CHECK(g.pes[3].name == "B.cpu");
  CHECK(g.pes[3].host == 1);
  CHECK(g.hosts[0].cpu == 0);
  CHECK(g.hosts[0].gpus == std::vector<ir::PeId>{1, 2});
  REQUIRE(g.links.size() == 4);
  CHECK_FALSE(g.links[0].bidirectional);
  CHECK(g.links[0].latency == Approx(2e-6));
  CHECK(g.links[2].kind == ir::LinkKind::nvlink);
  CHECK(g.links[3].kind == ir::LinkKind::net);
}

TEST_CASE("a host's cpus, named or counted, come first and share one memory", "[sema]") {
  auto a = test::analyze(
      "arch a {\n  host A { gpu g0 = 0; cpu main; cpu w 3; }\n  host B { cpu; }\n"
      "  link A.main <-> A.g0 pcie (10 GB/s);\n  link A.main <-> B.cpu net (1 GB/s);\n}\n"
      "param N = 4;\ntype T = float[N];\n"
      "actor P { out T o; cpu \"p.hpp\"; }\nactor C { in T i; cpu \"c.hpp\"; }\n"
      "app x on a { node p : P @ A.w2; node c : C @ B.cpu; p.o -> c.i; }\n");
  REQUIRE(a->program);
  const ir::ArchGraph& g = a->program->arch;
  REQUIRE(g.pes.size() == 6);
  std::vector<std::string> names;
  for (const ir::Pe& pe : g.pes) names.push_back(pe.name);
  CHECK(names == std::vector<std::string>{"A.main", "A.w0", "A.w1", "A.w2", "A.g0", "B.cpu"});
  CHECK(g.hosts[0].cpu == 0);
  CHECK(g.hosts[0].cpus == std::vector<ir::PeId>{0, 1, 2, 3});
  CHECK(g.hosts[0].gpus == std::vector<ir::PeId>{4});
  CHECK(g.hosts[1].cpus == std::vector<ir::PeId>{5});
  // A.w2's token reaches B through the host's first cpu, which holds the net link.
  CHECK(a->program->mapping.pe_of[0] == 3);
}

TEST_CASE("hosts have cpus and gpus with distinct names and ordinals", "[sema]") {
  CHECK(
      diagnose(with_app("param K = 1;\nruntime param R = 0;\narch b { }\n"
                        "arch a {\n  host A { cpu; gpu g0 = 0; gpu g1 = K - 1; gpu g0 = 2; cpu; }\n"
                        "  host B { gpu g0 = -1; gpu g1 = R; gpu g2 = 2147483648; }\n"
                        "  host A { cpu; }\n}\narch b { host C { cpu; gpu cpu = 3; } }")) ==
      "3:6: error: arch 'b' has no hosts\n"
      "5:38-42: error: gpu ordinal 0 is already used by 'A.g0'\n"
      "  5:21-22: note: 'g0' is declared here\n"
      "5:49-50: error: duplicate processing element 'g0'\n"
      "  5:21-22: note: previous definition is here\n"
      "5:57-59: error: duplicate processing element 'cpu'\n"
      "  5:12-14: note: previous definition is here\n"
      "6:8: error: host 'B' has no cpu; every host needs one ('cpu;')\n"
      "6:21-22: error: gpu ordinal must be between 0 and 2147483647, got -1\n"
      "6:34: error: the ordinal of gpu 'g1' depends on runtime param 'R'; only token sizes may "
      "depend on runtime params\n"
      "  2:15: note: 'R' is declared here\n"
      "6:46-55: error: gpu ordinal must be between 0 and 2147483647, got 2147483648\n"
      "7:8: error: duplicate host 'A'\n"
      "  5:8: note: previous definition is here\n"
      "9:6: error: duplicate arch 'b'\n"
      "  3:6: note: previous definition is here\n"
      "9:28-30: error: duplicate processing element 'cpu'\n"
      "  9:19-21: note: previous definition is here\n");
}

TEST_CASE("links join known processing elements in the way their kind allows", "[sema]") {
  CHECK(
      diagnose(with_app(
          "arch a {\n  host A { cpu; gpu g0 = 0; gpu g1 = 1; }\n  host B { cpu; gpu g0 = 0; }\n"
          "  link C.cpu <-> A.cpu net (1 GB/s);\n"
          "  link A.g2 <-> A.cpu pcie (1 GB/s);\n"
          "  link A.g0 <-> A.g0 nvlink (1 GB/s);\n"
          "  link A.g0 <-> A.cpu pci (1 GB/s);\n"
          "  link A.g0 <-> B.g0 nvlink (1 GB/s);\n"
          "  link A.cpu <-> A.g1 net (1 GB/s);\n"
          "  link A.cpu <-> B.g0 net (1 GB/s);\n"
          "  link A.cpu -> A.g1 pcie (1 GB/s);\n"
          "  link A.g1 -> A.cpu pcie (1 GB/s);\n"
          "  link A.g1 <-> A.cpu pcie (1 GB/s);\n"
          "  link B.g0 <-> B.cpu pcie (1 GB/s);\n"
          "  link B.cpu -> B.g0 pcie (1 GB/s);\n}")) ==
      "4:8: error: arch 'a' has no host 'C'; did you mean 'A'?\n"
      "5:10-11: error: host 'A' has no processing element 'g2'; did you mean 'g0'?\n"
      "6:17-20: error: link from A.g0 to itself\n"
      "7:23-25: error: unknown link kind 'pci'; expected pcie, nvlink, net or gpudirect; did you mean "
      "'pcie'?\n"
      "8:22-27: error: a nvlink link must join two processing elements of one host, not A.g0 "
      "and B.g0; GPUs of different hosts are joined by gpudirect links\n"
      "9:23-25: error: a net link must join the cpus of two different hosts, not A.cpu and A.g1\n"
      "10:23-25: error: a net link must join the cpus of two different hosts, not A.cpu and B.g0\n"
      "13:3-6: error: duplicate link between A.g1 and A.cpu\n"
      "  11:3-6: note: previous link is here\n"
      "15:3-6: error: duplicate link between B.cpu and B.g0\n"
      "  14:3-6: note: previous link is here\n");
}

TEST_CASE("gpudirect links join GPUs of two hosts that host memory also joins", "[sema]") {
  // B's GPU reaches A's and C's directly; the hosts' cpus are joined through B (a net path of
  // two links is enough) and every GPU has its pcie link.
  auto a = test::analyze(
      with_app("arch a {\n  host A { cpu; gpu g0 = 0; }\n  host B { cpu; gpu g0 = 0; }\n"
               "  host C { cpu; gpu g0 = 0; }\n"
               "  link A.cpu <-> A.g0 pcie (25 GB/s);\n  link B.cpu <-> B.g0 pcie (25 GB/s);\n"
               "  link C.cpu <-> C.g0 pcie (25 GB/s);\n"
               "  link A.cpu <-> B.cpu net (2.6 GB/s);\n  link B.cpu <-> C.cpu net (2.6 GB/s);\n"
               "  link A.g0 <-> C.g0 gpudirect (12 GB/s, 5 us);\n"
               "  link B.g0 -> A.g0 gpudirect (10 GB/s);\n}"));
  REQUIRE(a->program);
  const ir::ArchGraph& g = a->program->arch;
  REQUIRE(g.links.size() == 7);
  CHECK(g.links[5].kind == ir::LinkKind::gpudirect);
  CHECK(ir::to_string(g.links[5].kind) == "gpudirect");
  CHECK(g.links[5].bandwidth == Approx(12e9));
  CHECK(g.links[5].latency == Approx(5e-6));
  CHECK(g.links[5].bidirectional);
  CHECK_FALSE(g.links[6].bidirectional);

  // One-way fallbacks count in their direction only.
  CHECK(
      diagnose(
          with_app("arch a {\n  host A { cpu; gpu g0 = 0; }\n  host B { cpu; gpu g0 = 0; }\n"
                   "  link A.g0 -> A.cpu pcie (25 GB/s);\n  link B.cpu -> B.g0 pcie (25 GB/s);\n"
                   "  link A.cpu -> B.cpu net (2.6 GB/s);\n"
                   "  link A.g0 -> B.g0 gpudirect (12 GB/s);\n"
                   "  link B.g0 -> A.g0 gpudirect (12 GB/s);\n}")) ==
      "8:21-29: error: gpudirect link B.g0 -> A.g0 also needs a pcie link from B.g0 to B.cpu, a net path "
      "from B.cpu to A.cpu and a pcie link from A.cpu to A.g0: where MPI is not CUDA-aware, its transfers "
      "are staged through host memory\n");
}
