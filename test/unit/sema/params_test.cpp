/// \file
/// Params, -D overrides, expressions and token types.
#include <catch2/catch.hpp>

#include "sema/suggest.hpp"
#include "sema_test_util.hpp"

using namespace dfgc;
using dfgc::test::diagnose;

namespace {

/// A complete app around `decls` (params and types), so that only their errors show; the
/// app's lines come after, so `decls` starts on line 1.
std::string with_app(const std::string& decls) {
  return decls +
         "\nactor P { out T o; cpu \"p.hpp\"; }\n"
         "actor C { in T i; cpu \"c.hpp\"; }\n"
         "arch a { host A { cpu; } }\n"
         "app x on a { node p : P @ A.cpu; node c : C @ A.cpu; p.o -> c.i; }\n";
}

const ir::TokenType& type_t(const test::Analysis& a) {
  REQUIRE(a.program);
  return a.program->types.at(0);
}

}  // namespace

TEST_CASE("edit distance counts a swap of neighbours as one edit", "[sema]") {
  CHECK(sema::edit_distance("flaot", "float") == 1);
  CHECK(sema::edit_distance("", "abc") == 3);
  CHECK(sema::edit_distance("kitten", "sitting") == 3);
  CHECK(sema::did_you_mean("flaot", {"double", "float"}) == "; did you mean 'float'?");
  CHECK(sema::did_you_mean("M", {"N", "K"}) == "; did you mean 'N'?");
  CHECK(sema::did_you_mean("abcdef", {"uvwxyz"}).empty());
}

TEST_CASE("params are evaluated in order with checked arithmetic", "[sema]") {
  auto a =
      test::analyze(with_app("param N = 4;\nparam M = max(N * 3 - 1, min(2, -N)) / 2 % 4;\n"
                             "type T = float[M + N];"));
  REQUIRE(a->program);
  REQUIRE(a->program->params.size() == 2);
  CHECK(a->program->params[1].name == "M");
  CHECK(a->program->params[1].value == 1);  // max(11, -4) / 2 % 4
  CHECK(type_t(*a).count.value == 5);
  CHECK(type_t(*a).count.text == "M + N");
  CHECK(type_t(*a).bytes() == 20);
}

TEST_CASE("sizes are re-printed with the fewest parentheses", "[sema]") {
  auto text_of = [](const std::string& e) {
    auto a = test::analyze(with_app("param W = 3;\nparam H = 5;\ntype T = float[" + e + "];"));
    return type_t(*a).count.text;
  };
  CHECK(text_of("(W + 2) * H") == "(W + 2) * H");
  CHECK(text_of("((W)) * (H)") == "W * H");
  CHECK(text_of("W - (H - 4)") == "W - (H - 4)");
  CHECK(text_of("(W - H) + 4") == "W - H + 4");
  CHECK(text_of("W * (H / 2)") == "W * (H / 2)");
  CHECK(text_of("-(-W)") == "-(-W)");
  CHECK(text_of("+W") == "+W");
  CHECK(text_of("-(W - H) * 2") == "-(W - H) * 2");
  CHECK(text_of("min(W,H)*max(1 , 2)") == "min(W, H) * max(1, 2)");
}

TEST_CASE("unknown, duplicate and not yet declared params", "[sema]") {
  CHECK(diagnose(with_app("param N = 2;\nparam K = M + 1;\nparam M = 3;\nparam Q = Q;\n"
                          "param N = 4;\ntype T = float[Nx];")) ==
        "2:11: error: param 'M' is used before its declaration\n"
        "  3:7: note: 'M' is declared here\n"
        "4:11: error: param 'Q' is used in its own definition\n"
        "5:7: error: duplicate param 'N'\n"
        "  1:7: note: previous definition is here\n"
        "6:16-17: error: unknown param 'Nx'; did you mean 'N'?\n");
}

TEST_CASE("overflow and division by zero are errors at the operator", "[sema]") {
  CHECK(diagnose(with_app("param B = 4611686018427387904;\n"
                          "param A = B * 2;\nparam C = B + B;\nparam D = -B - B - 1;\n"
                          "param E = -(-B - B);\nparam F = (-B - B) / -1;\nparam G = B / (B - B);\n"
                          "param H = 7 % 0;\ntype T = float[(-B - B) % -1 + 1];")) ==
        "2:13: error: integer overflow in expression\n"
        "3:13: error: integer overflow in expression\n"
        "4:18: error: integer overflow in expression\n"
        "5:11: error: integer overflow in expression\n"
        "6:20: error: integer overflow in expression\n"
        "7:13: error: division by zero\n"
        "  7:16-20: note: 'B - B' is 0\n"
        "8:13: error: modulo by zero\n");
}

TEST_CASE("reals are not integers, and min and max take two arguments", "[sema]") {
  CHECK(diagnose(with_app("param N = 2.5e3 + 1;\nparam M = min(1, 2, 3);\ntype T = float[8];")) ==
        "1:11-15: error: real number 2.5e3 in an integer expression; sizes, params and gpu "
        "ordinals are integers\n"
        "2:11-13: error: 'min' takes 2 arguments, not 3\n");
}

TEST_CASE("-D overrides a param and keeps its expression's text", "[sema]") {
  SemaOptions o;
  o.defines = {{"N", "7"}};
  auto a = test::analyze(with_app("param N = 2;\ntype T = float[N * N];"), o);
  CHECK(a->program->params[0].value == 7);
  CHECK(type_t(*a).count.value == 49);
  CHECK(type_t(*a).count.text == "N * N");
}

TEST_CASE("a param set by two -D is an error naming both", "[sema]") {
  SemaOptions o;
  o.defines = {{"N", "3"}, {"N", "7"}, {"N", "3"}};
  CHECK(diagnose(with_app("param N = 2;\ntype T = float[N];"), o) ==
        "error: -D N=7: param 'N' is already set by -D N=3\n"
        "error: -D N=3: param 'N' is already set by -D N=3\n");
}

TEST_CASE("bad -D flags are reported without a location", "[sema]") {
  SemaOptions o;
  o.defines = {{"M", "5"}, {"N", "abc"}, {"N", "99999999999999999999"}, {"N", "5x"}, {"Zzz", ""}};
  CHECK(
      diagnose(with_app("param N = 2;\ntype T = float[N];"), o) ==
      "error: -D M=5: no param named 'M'; did you mean 'N'?\n"
      "error: -D N=abc: 'abc' is not an integer literal\n"
      "error: -D N=99999999999999999999: '99999999999999999999' does not fit in a 64-bit integer\n"
      "error: -D N=5x: '5x' is not an integer literal\n"
      "error: -D Zzz=: '' is not an integer literal\n"
      "error: -D Zzz=: no param named 'Zzz'\n");
}

TEST_CASE("-D takes the integers the spec writes: hexadecimal and digit separators", "[sema]") {
  for (const auto& [text, value] : std::vector<std::pair<std::string, std::int64_t>>{
           {"0x10", 16}, {"1_0", 10}, {"0XfF", 255}, {"1_000_000", 1000000}, {"-0x8", -8}}) {
    SemaOptions o;
    o.defines = {{"N", text}};
    auto a = test::analyze(with_app("param N = 2;\ntype T = float[4];"), o);
    INFO(text);
    REQUIRE(a->program);
    CHECK(a->program->params[0].value == value);
  }
  SemaOptions o;
  o.defines = {{"N", "1__0"}, {"M", "0x"}};
  CHECK(
      diagnose(with_app("param N = 2;\nparam M = 2;\ntype T = float[N];"), o) ==
      "error: -D N=1__0: '1__0' is not an integer literal (digit separator '_' must be between "
      "digits)\n"
      "error: -D M=0x: '0x' is not an integer literal (expected hexadecimal digits after '0x')\n");
}

TEST_CASE("sizes may depend on runtime params, params may not", "[sema]") {
  auto a =
      test::analyze(with_app("runtime param W = 640;\nparam K = 2;\ntype T = uint8[(W + 2) * K];"));
  REQUIRE(a->program);
  CHECK(a->program->params[0].runtime);
  CHECK(type_t(*a).count.runtime);
  CHECK(type_t(*a).count.value == 1284);
  CHECK(type_t(*a).count.text == "(W + 2) * K");
  CHECK(diagnose(with_app("runtime param W = 640;\nparam K = W / 2;\nruntime param H = 3 * W;\n"
                          "type T = uint8[W];")) ==
        "2:11: error: param 'K' depends on runtime param 'W'; only token sizes may depend on "
        "runtime params\n"
        "  1:15: note: 'W' is declared here\n"
        "3:23: error: runtime param 'H' depends on runtime param 'W'; only token sizes may depend "
        "on runtime params\n"
        "  1:15: note: 'W' is declared here\n");
}

TEST_CASE("token types: element type, positive size, byte count", "[sema]") {
  CHECK(
      diagnose(with_app("param N = 2048;\ntype T = flaot[N];\ntype U = int32[N - 2048];\n"
                        "type V = double[(N - 4096) * 2];\ntype W = uint64[1152921504606846976];\n"
                        "type T = half[1];")) ==
      "2:10-14: error: unknown element type 'flaot'; expected float, double, int8, int16, "
      "int32, int64, uint8, uint16, uint32, uint64, cfloat, cdouble; did you mean 'float'?\n"
      "3:16-23: error: token size must be positive, 'N - 2048' is 0\n"
      "4:17-30: error: token size must be positive, '(N - 4096) * 2' is -4096\n"
      "5:17-35: error: token type 'W' is too large: 1152921504606846976 elements of 8 bytes "
      "overflow a 64-bit byte count\n"
      "6:6: error: duplicate type 'T'\n"
      "  2:6: note: previous definition is here\n"
      "6:10-13: error: unknown element type 'half'; expected float, double, int8, int16, "
      "int32, int64, uint8, uint16, uint32, uint64, cfloat, cdouble\n");
}

TEST_CASE("complex element types: cfloat and cdouble, real initial values", "[sema]") {
  CHECK(diagnose(with_app("type T = cfloat[4];\ntype Z = cdouble[2];\n")).empty());
}

TEST_CASE("structs are laid out as C lays them out", "[sema]") {
  auto a =
      test::analyze(with_app("param K = 3;\n"
                             "struct Hit { int8 flag; double time; int32 channel; float amp[K]; }\n"
                             "struct Q = \"rx::Q\" { uint16 a; cfloat z; uint8 b[3]; }\n"
                             "struct One { uint8 b; }\n"
                             "type T = Hit[5];\ntype U = Q[<= 2];\ntype V = One[7];\n"));
  REQUIRE(a->program);
  const std::vector<ir::StructType>& s = a->program->structs;
  REQUIRE(s.size() == 3);
  // flag 0, 7 bytes of padding, time 8, channel 16, amp 20..32; aligned to the double's 8.
  CHECK(s[0].fields[1].offset == 8);
  CHECK(s[0].fields[2].offset == 16);
  CHECK(s[0].fields[3].offset == 20);
  CHECK(s[0].fields[3].count == 3);
  CHECK(s[0].size == 32);
  CHECK(s[0].align == 8);
  // A complex aligns to its parts: a at 0, z at 4 (a float's 4), b at 12; 15 rounded up to 16.
  CHECK(s[1].cxx_name == "rx::Q");
  CHECK(s[1].fields[1].offset == 4);
  CHECK(s[1].fields[2].offset == 12);
  CHECK(s[1].size == 16);
  CHECK(s[1].align == 4);
  CHECK(s[2].size == 1);
  const std::vector<ir::TokenType>& t = a->program->types;
  CHECK(t[0].bytes() == 5 * 32);
  CHECK(t[0].elem_code() == "::Hit");
  CHECK(t[1].bytes() == 2 * 16);
  CHECK(t[1].elem_cxx() == "rx::Q");
  CHECK(t[1].elem_code() == "::rx::Q");
  CHECK(t[2].bytes() == 7);
}

TEST_CASE("a struct type's size overflows like any other", "[sema]") {
  CHECK(diagnose(with_app("struct Big { double d[4294967295]; }\n"
                          "type T = Big[4294967295];\n")) ==
        "2:14-23: error: token type 'T' is too large: 4294967295 elements of 34359738360 bytes "
        "overflow a 64-bit byte count\n");
}

TEST_CASE("-D can make a size invalid", "[sema]") {
  SemaOptions o;
  o.defines = {{"N", "0"}};
  CHECK(diagnose(with_app("param N = 2;\ntype T = float[N * N];"), o) ==
        "2:16-20: error: token size must be positive, 'N * N' is 0\n");
}
