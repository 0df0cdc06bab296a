/// \file
/// The actor contract: class lookup, fire and its parameters, init, params as data members.
#include <catch2/catch.hpp>

#include "actors_test_util.hpp"

using namespace dfgc;
using dfgc::test::ActorProgram;
using Lines = std::vector<std::string>;

namespace {
const std::string kClasses = "test/unit/actors/inputs/classes.hpp";
const std::string kFire = "test/unit/actors/inputs/fire_params.hpp";
const std::string kInit = "test/unit/actors/inputs/init_params.hpp";

/// One actor per class name, each with a single input port `a`, all in `header`.
ActorProgram one_input_actors(const std::string& header, const std::vector<std::string>& classes) {
  ActorProgram p;
  for (const std::string& c : classes) p.actor("A_" + c).in("a").cpu(header, c);
  return p;
}
}  // namespace

TEST_CASE("the class is looked up at namespace scope and must be a defined class", "[actors]") {
  ActorProgram p = one_input_actors(
      kClasses, {"Missing", "Templated", "Declared", "Onion", "ns::Qualified",
                 "::ns::inner::Deeper", "alias::Qualified", "Aliased", "ns::Missing", "ns::inner"});
  ActorSignatures s = p.check();
  CHECK(p.reported() ==
        Lines{
            "spec.dfg:3:3: error: no class 'Missing' in 'test/unit/actors/inputs/classes.hpp'",
            "spec.dfg:11:3: error: class 'Declared' is declared but not defined in "
            "'test/unit/actors/inputs/classes.hpp'",
            "  test/unit/actors/inputs/classes.hpp:12:8: note: declared here",
            "spec.dfg:35:3: error: no class 'ns::Missing' in 'test/unit/actors/inputs/classes.hpp'",
            "spec.dfg:39:3: error: no class 'ns::inner' in 'test/unit/actors/inputs/classes.hpp'",
            "test/unit/actors/inputs/classes.hpp:8:8: error: 'Templated' is a class template; an "
            "actor implementation must be a class",
            "  spec.dfg:7:3: note: actor 'A_Templated' implementation declared here",
            "test/unit/actors/inputs/classes.hpp:14:7: error: 'Onion' is a union; an actor "
            "implementation must be a class or struct",
            "  spec.dfg:15:3: note: actor 'A_Onion' implementation declared here",
        });
  // ns::Qualified, ::ns::inner::Deeper, alias::Qualified (a namespace alias), Aliased (a type
  // alias).
  CHECK(s.size() == 4);
  for (ir::ActorId a : {4u, 5u, 6u, 7u}) CHECK(s.count({a, ir::PeKind::cpu}) == 1);
}

TEST_CASE("fire is one public non-static member function, possibly inherited or const",
          "[actors]") {
  ActorProgram p = one_input_actors(
      kClasses, {"NoFire", "DataFire", "TemplateFire", "OverloadedFire", "PrivateFire",
                 "StaticFire", "ConstFire", "Derived", "HiddenBase"});
  ActorSignatures s = p.check();
  CHECK(p.reported() ==
        Lines{
            "test/unit/actors/inputs/classes.hpp:32:8: error: class 'NoFire' has no member "
            "function 'fire'",
            "  spec.dfg:3:3: note: actor 'A_NoFire' implementation declared here",
            "test/unit/actors/inputs/classes.hpp:37:7: error: 'fire' in class 'DataFire' is not a "
            "member function",
            "  spec.dfg:7:3: note: actor 'A_DataFire' implementation declared here",
            "test/unit/actors/inputs/classes.hpp:42:8: error: 'fire' is a template; dfgc needs a "
            "plain member function",
            "  spec.dfg:11:3: note: actor 'A_TemplateFire' implementation declared here",
            "test/unit/actors/inputs/classes.hpp:47:8: error: 'fire' is overloaded; dfgc needs "
            "exactly one 'fire'",
            "  test/unit/actors/inputs/classes.hpp:46:8: note: other declaration of 'fire' is here",
            "  spec.dfg:15:3: note: actor 'A_OverloadedFire' implementation declared here",
            "test/unit/actors/inputs/classes.hpp:51:8: error: 'fire' is private in class "
            "'PrivateFire'; the generated code calls it, so it must be public",
            "  spec.dfg:19:3: note: actor 'A_PrivateFire' implementation declared here",
            "test/unit/actors/inputs/classes.hpp:55:15: error: 'fire' must not be static: dfgc "
            "calls it on each actor object",
            "  spec.dfg:23:3: note: actor 'A_StaticFire' implementation declared here",
            // HiddenBase inherits Base::fire through a private base.
            "test/unit/actors/inputs/classes.hpp:64:8: error: 'fire' is private in class "
            "'HiddenBase'; the generated code calls it, so it must be public",
            "  spec.dfg:35:3: note: actor 'A_HiddenBase' implementation declared here",
        });
  CHECK(s.size() == 2);
  CHECK(s.at({6, ir::PeKind::cpu}).fire_ports == std::vector<std::uint32_t>{0});
  CHECK(s.at({7, ir::PeKind::cpu}).fire_ports == std::vector<std::uint32_t>{0});
}

TEST_CASE("fire takes one pointer per port, matched by name, and maybe the context last",
          "[actors]") {
  ActorProgram p;
  for (const char* c : {"Reordered", "Arrays", "Unnamed", "Extra", "MissingPort", "WrongElem",
                        "NotPointer", "NonConstIn", "ConstOut", "VolatileIn", "ContextFirst",
                        "ContextByValue", "ContextConstRef"})
    p.actor(std::string("A_") + c).in("a").out("b").cpu(kFire, c);
  ActorSignatures s = p.check();
  const std::string h = "test/unit/actors/inputs/fire_params.hpp:";
  CHECK(p.reported() ==
        Lines{
            h + "17:8: error: 'fire' has no parameter for input port 'a'",
            "  spec.dfg:12:3: note: port 'a' declared here",
            h + "17:13: error: parameter 1 of 'fire' has no name; dfgc matches parameters to "
                "ports by name",
            "  spec.dfg:14:3: note: actor 'A_Unnamed' implementation declared here",
            h + "21:39: error: parameter 'n' of 'fire' matches no port of actor 'A_Extra'",
            "  spec.dfg:16:1: note: actor 'A_Extra' declared here",
            h + "25:8: error: 'fire' has no parameter for output port 'b'",
            "  spec.dfg:23:3: note: port 'b' declared here",
            h + "29:13: error: parameter 'a' of 'fire' has type 'const double *', but the "
                "elements of input port 'a' are float: declare it 'const float *'",
            "  spec.dfg:27:3: note: port 'a' declared here",
            h + "33:13: error: parameter 'a' of 'fire' has type 'float', but ports are passed by "
                "pointer: declare it 'const float *'",
            "  spec.dfg:32:3: note: port 'a' declared here",
            h + "37:13: error: parameter 'a' of 'fire' is 'float *', but input port 'a' is "
                "read-only: declare it 'const float *'",
            "  spec.dfg:37:3: note: port 'a' declared here",
            h + "41:29: error: parameter 'b' of 'fire' is 'const float *', but 'fire' writes "
                "output port 'b': declare it 'float *'",
            "  spec.dfg:43:3: note: port 'b' declared here",
            h + "45:13: error: parameter 'a' of 'fire' has type 'const volatile float *', but the "
                "elements of input port 'a' are float: declare it 'const float *'",
            "  spec.dfg:47:3: note: port 'a' declared here",
            h + "49:13: error: 'dfg::Context&' must be the last parameter of 'fire'",
            "  spec.dfg:54:3: note: actor 'A_ContextFirst' implementation declared here",
            h + "53:39: error: parameter 'ctx' takes the context as 'dfg::Context'; dfgc passes "
                "it as 'dfg::Context&'",
            "  spec.dfg:59:3: note: actor 'A_ContextByValue' implementation declared here",
            h + "57:39: error: parameter 'ctx' takes the context as 'const dfg::Context &'; dfgc "
                "passes it as 'dfg::Context&'",
            "  spec.dfg:64:3: note: actor 'A_ContextConstRef' implementation declared here",
        });
  REQUIRE(s.size() == 2);
  // Parameters in declaration order, as port indices: fire(float* b, const float* a).
  CHECK(s.at({0, ir::PeKind::cpu}).fire_ports == std::vector<std::uint32_t>{1, 0});
  CHECK_FALSE(s.at({0, ir::PeKind::cpu}).fire_takes_context);
  // Array parameters are pointers.
  CHECK(s.at({1, ir::PeKind::cpu}).fire_ports == std::vector<std::uint32_t>{0, 1});
  CHECK(s.at({1, ir::PeKind::cpu}).fire_takes_context);
}

TEST_CASE("element types compare as the target's fixed-width integer types", "[actors]") {
  ActorProgram p;
  for (const char* c : {"Ints", "IntsMismatch"})
    p.actor(std::string("A_") + c)
        .in("a", ir::ElemType::i32)
        .out("b", ir::ElemType::i64)
        .out("c", ir::ElemType::u8)
        .cpu(kFire, c);
  ActorSignatures s = p.check();
  const std::string h = "test/unit/actors/inputs/fire_params.hpp:";
  CHECK(p.reported() ==
        Lines{
            h + "67:27: error: parameter 'b' of 'fire' has type 'long long *', but the elements "
                "of output port 'b' are int64: declare it 'std::int64_t *'",
            "  spec.dfg:9:3: note: port 'b' declared here",
            h + "67:41: error: parameter 'c' of 'fire' has type 'char *', but the elements of "
                "output port 'c' are uint8: declare it 'std::uint8_t *'",
            "  spec.dfg:10:3: note: port 'c' declared here",
        });
  REQUIRE(s.size() == 1);
  CHECK(s.at({0, ir::PeKind::cpu}).fire_ports == std::vector<std::uint32_t>{0, 1, 2});
}

TEST_CASE("init is optional and takes nothing or the context", "[actors]") {
  ActorProgram p =
      one_input_actors(kInit, {"InitPlain", "InitContext", "InitInt", "InitConstContext",
                               "InitOverloaded", "InitStatic", "InitProtected"});
  ActorSignatures s = p.check();
  const std::string h = "test/unit/actors/inputs/init_params.hpp:";
  CHECK(p.reported() ==
        Lines{
            h + "17:8: error: 'init' must take no parameter or one 'dfg::Context&'",
            "  spec.dfg:11:3: note: actor 'A_InitInt' implementation declared here",
            h + "22:8: error: 'init' must take no parameter or one 'dfg::Context&'",
            "  spec.dfg:15:3: note: actor 'A_InitConstContext' implementation declared here",
            h + "28:8: error: 'init' is overloaded; dfgc needs exactly one 'init'",
            "  " + h + "27:8: note: other declaration of 'init' is here",
            "  spec.dfg:19:3: note: actor 'A_InitOverloaded' implementation declared here",
            h + "33:15: error: 'init' must not be static: dfgc calls it on each actor object",
            "  spec.dfg:23:3: note: actor 'A_InitStatic' implementation declared here",
            h + "42:8: error: 'init' is protected in class 'InitProtected'; the generated code "
                "calls it, so it must be public",
            "  spec.dfg:27:3: note: actor 'A_InitProtected' implementation declared here",
        });
  REQUIRE(s.size() == 2);
  CHECK(s.at({0, ir::PeKind::cpu}).has_init);
  CHECK_FALSE(s.at({0, ir::PeKind::cpu}).init_takes_context);
  CHECK(s.at({1, ir::PeKind::cpu}).has_init);
  CHECK(s.at({1, ir::PeKind::cpu}).init_takes_context);
}

TEST_CASE("each actor param is a public non-static data member of a compatible type", "[actors]") {
  ActorProgram p;
  for (const char* c : {"ParamsGood", "ParamsBad"})
    p.actor(std::string("A_") + c)
        .in("a")
        .param("int", "n")
        .param("int64", "big")
        .param("float", "scale")
        .param("double", "ratio")
        .param("bool", "flag")
        .cpu(kInit, c);
  p.actor("A_ParamsPrivate").in("a").param("int", "n").cpu(kInit, "ParamsPrivate");
  ActorSignatures s = p.check();
  const std::string h = "test/unit/actors/inputs/init_params.hpp:";
  CHECK(p.reported() ==
        Lines{
            h + "55:8: error: class 'ParamsBad' has no data member 'flag' for actor param 'flag'",
            "  spec.dfg:16:3: note: param 'flag' declared here",
            h + "56:9: error: data member 'n' has type 'float', which cannot hold int param 'n'",
            "  spec.dfg:12:3: note: param 'n' declared here",
            h + "57:15: error: 'big' is a static data member; dfgc sets actor param 'big' on "
                "each actor object",
            "  spec.dfg:13:3: note: param 'big' declared here",
            h + "58:15: error: data member 'scale' is const; dfgc assigns actor param 'scale' to "
                "it",
            "  spec.dfg:14:3: note: param 'scale' declared here",
            h + "59:7: error: data member 'ratio' has type 'int', which cannot hold double param "
                "'ratio'",
            "  spec.dfg:15:3: note: param 'ratio' declared here",
            h + "69:7: error: 'n' is private in class 'ParamsPrivate'; the generated code sets "
                "it, so it must be public",
            "  spec.dfg:21:3: note: param 'n' declared here",
        });
  CHECK(s.size() == 1);
  CHECK(s.count({0, ir::PeKind::cpu}) == 1);
}

TEST_CASE("the generated code must be able to create the object and call an inline fire",
          "[actors]") {
  ActorProgram p = one_input_actors(kClasses, {"InlineFire", "ProtectedCtor"});
  ActorSignatures s = p.check();
  CHECK(p.reported() ==
        Lines{
            "test/unit/actors/inputs/classes.hpp:76:7: error: class 'ProtectedCtor' cannot be "
            "default-constructed: its default constructor is protected; dfgc creates an object "
            "of it for each node",
            "  test/unit/actors/inputs/classes.hpp:78:3: note: declared here",
            "  spec.dfg:7:3: note: actor 'A_ProtectedCtor' implementation declared here",
        });
  CHECK(s.size() == 1);
  CHECK(s.count({0, ir::PeKind::cpu}) == 1);
}
