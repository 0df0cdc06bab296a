/// \file
/// check_actors on whole headers: the samples' actors, missing and broken headers, Clang's own
/// diagnostics.
#include <catch2/catch.hpp>

#include "actors_test_util.hpp"

using namespace dfgc;
using dfgc::test::ActorProgram;
using Lines = std::vector<std::string>;

namespace {
const std::string kInputs = "test/unit/actors/inputs/";
const std::string kOverlap = "samples/overlap/actors/";
}  // namespace

TEST_CASE("the overlap sample's actors pass with their signatures", "[actors]") {
  ActorProgram p;
  p.actor("Producer").out("m").cpu(kOverlap + "producer.hpp", "Producer");
  p.actor("Inc").in("a").out("b").param("int", "nb_loop");
  p.cpu(kOverlap + "inc_cpu.hpp", "IncCpu").gpu(kOverlap + "inc.cuh", "Inc");
  p.actor("Consumer").in("m").cpu(kOverlap + "consumer.hpp", "Consumer");
  ActorSignatures s = p.check();
  CHECK(p.reported() == Lines{});
  REQUIRE(s.size() == 4);
  const ActorSignature& producer = s.at({0, ir::PeKind::cpu});
  CHECK(producer.fire_ports == std::vector<std::uint32_t>{0});
  CHECK(producer.fire_takes_context);
  CHECK_FALSE(producer.has_init);
  const ActorSignature& inc_cpu = s.at({1, ir::PeKind::cpu});
  CHECK(inc_cpu.fire_ports == std::vector<std::uint32_t>{0, 1});
  CHECK(inc_cpu.fire_takes_context);
  CHECK(inc_cpu.has_init);
  CHECK(inc_cpu.init_takes_context);
  const ActorSignature& inc_gpu = s.at({1, ir::PeKind::gpu});
  CHECK(inc_gpu.fire_ports == std::vector<std::uint32_t>{0, 1});
  CHECK(inc_gpu.fire_takes_context);
  CHECK_FALSE(inc_gpu.has_init);
  const ActorSignature& consumer = s.at({2, ir::PeKind::cpu});
  CHECK(consumer.fire_ports == std::vector<std::uint32_t>{0});
  CHECK(consumer.fire_takes_context);
}

TEST_CASE("a GPU header may call the device intrinsics and include the standard library",
          "[actors]") {
  ActorProgram p;
  p.actor("Intrinsics").in("a", ir::ElemType::u32).out("b", ir::ElemType::u32);
  p.gpu(kInputs + "intrinsics.cuh", "Intrinsics");
  ActorSignatures s = p.check();
  CHECK(p.reported() == Lines{});
  REQUIRE(s.size() == 1);
  const ActorSignature& gpu = s.at({0, ir::PeKind::gpu});
  CHECK(gpu.fire_ports == std::vector<std::uint32_t>{0, 1});
  CHECK(gpu.has_init);
}

TEST_CASE("the files read: the headers and the user's headers they include, not the system's",
          "[actors]") {
  ActorProgram p;
  p.actor("Scale").in("a").out("b").cpu(kInputs + "nested/scaled.hpp", "Scaled");
  p.actor("Producer").out("m").cpu(kOverlap + "producer.hpp", "Producer");
  p.check();
  CHECK(p.reported() == Lines{});
  const std::string header = normal_absolute_path(kInputs + "nested/scaled.hpp");
  const std::string producer = normal_absolute_path(kOverlap + "producer.hpp");
  const std::string scale = normal_absolute_path(kInputs + "common/scale.hpp");
  std::vector<std::string> read;
  for (const auto& [path, text] : p.files().text) read.push_back(path);
  CHECK(read == std::vector<std::string>{producer, scale, header});
  CHECK(p.files().text.at(scale) == "#pragma once\ninline constexpr float kScale = 2.0f;\n");
  CHECK(p.files().headers ==
        std::map<std::string, std::string>{{kInputs + "nested/scaled.hpp", header},
                                           {kOverlap + "producer.hpp", producer}});
  CHECK(scale.find("..") == std::string::npos);
}

TEST_CASE("a header that cannot be opened is reported at its spec string", "[actors]") {
  ActorProgram p;
  p.actor("Lost").in("a").cpu(kInputs + "nowhere.hpp", "Lost");
  p.actor("Good").in("a").out("b").cpu(kInputs + "good.hpp", "Good");
  ActorSignatures s = p.check();
  CHECK(p.reported() == Lines{"spec.dfg:3:7: error: cannot open actor header "
                              "'test/unit/actors/inputs/nowhere.hpp': No such file or directory"});
  CHECK(p.rendered().find("  cpu \"test/unit/actors/inputs/nowhere.hpp\" Lost;\n"
                          "      ^" +
                          std::string(36, '~') + "\n") != std::string::npos);
  CHECK(s.size() == 1);
  CHECK(s.count({1, ir::PeKind::cpu}) == 1);
}

TEST_CASE("Clang's errors in a header are forwarded; its warnings are not", "[actors]") {
  ActorProgram p;
  p.actor("Good").in("a").out("b").cpu(kInputs + "good.hpp", "Good");
  p.actor("Broken").in("a").cpu(kInputs + "broken.hpp", "Broken");
  p.actor("After").in("a").out("b").cpu(kInputs + "fire_params.hpp", "Reordered");
  ActorSignatures s = p.check();
  CHECK(p.reported() ==
        Lines{"test/unit/actors/inputs/broken.hpp:7:17: error: cannot initialize a variable of "
              "type 'const char *' with an lvalue of type 'const float *'",
              "  spec.dfg:8:3: note: actor 'Broken' implementation declared here"});
  // A header included before the broken one is still checked; one included after it is not.
  CHECK(s.size() == 1);
  CHECK(s.at({0, ir::PeKind::cpu}).fire_ports == std::vector<std::uint32_t>{0, 1});
}

TEST_CASE("after an unbalanced brace nothing of the batch is checked", "[actors]") {
  ActorProgram p;
  p.actor("Unbalanced").in("a").cpu(kInputs + "unbalanced.hpp", "Unbalanced");
  p.actor("Good").in("a").out("b").cpu(kInputs + "good.hpp", "Good");
  ActorSignatures s = p.check();
  // Clang reports the missing brace at the end of the batch's main file, which has no text to
  // quote, with a note at the brace that is not closed; the cascade into good.hpp is reported
  // but nothing of the batch is checked.
  CHECK(p.reported() ==
        Lines{"error: expected '}'",
              "  test/unit/actors/inputs/unbalanced.hpp:4:19: note: to match this '{'",
              "test/unit/actors/inputs/good.hpp:6:3: error: expected ';' after struct",
              "  spec.dfg:8:3: note: actor 'Good' implementation declared here"});
  CHECK(s.empty());
}

TEST_CASE("a fatal error in a header stops the checks of its translation unit", "[actors]") {
  ActorProgram p;
  p.actor("Fatal").in("a").cpu(kInputs + "fatal.hpp", "Fatal");
  p.actor("Good").in("a").out("b").cpu(kInputs + "good.hpp", "Good");
  p.actor("Gpu").in("a").out("b").gpu(kInputs + "good.hpp", "Good");
  ActorSignatures s = p.check();
  CHECK(p.reported() ==
        Lines{"test/unit/actors/inputs/fatal.hpp:4:10: error: 'no_such_file.hpp' file not found",
              "  spec.dfg:3:3: note: actor 'Fatal' implementation declared here"});
  // The GPU translation unit is separate.
  CHECK(s.size() == 1);
  CHECK(s.count({2, ir::PeKind::gpu}) == 1);
}

TEST_CASE("a header used by CPU and GPU implementations reports a Clang error once", "[actors]") {
  ActorProgram p;
  p.actor("Broken")
      .in("a")
      .cpu(kInputs + "broken.hpp", "Broken")
      .gpu(kInputs + "broken.hpp", "Broken");
  ActorSignatures s = p.check();
  CHECK(p.error_count() == 1);
  CHECK(s.empty());
}
