#include "dfg/size.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

using Fault = dfg::Size::Fault;

// A program's runtime params and token sizes, as a generated app.hpp declares them.
struct Params {
  std::int64_t N = 64;
  std::int64_t W = 640;
  std::int64_t H = 480;
};

dfg::Size count_square(const Params& params) {
  const dfg::Size N = params.N;
  return N * N;
}
dfg::Size count_image(const Params& params) {
  const dfg::Size W = params.W;
  const dfg::Size H = params.H;
  return (W + 2) * H / min(W, 4);
}

const dfg::RuntimeParam kTable[] = {{"N", 64}, {"W", 640}, {"H", 480}};

std::string error_at(std::int64_t n, std::int64_t w, std::int64_t h) {
  static constexpr std::array<dfg::TokenSize<Params>, 2> kSizes = {{
      {"Square", "float[N * N]", "N", sizeof(float), count_square},
      {"Image", "uint8[(W + 2) * H / min(W, 4)]", "W, H", 1, count_image},
  }};
  const std::vector<std::int64_t> values{n, w, h};
  return dfg::token_size_error(kSizes, Params{n, w, h}, kTable, values);
}

}  // namespace

TEST_CASE("size: checked arithmetic gives the exact value or a fault", "[size]") {
  const dfg::Size a = 6, b = 4;
  CHECK((a + b).value() == 10);
  CHECK((a - b).value() == 2);
  CHECK((a * b).value() == 24);
  CHECK((a / b).value() == 1);
  CHECK((a % b).value() == 2);
  CHECK((-a).value() == -6);
  CHECK((dfg::Size(-7) / 2).value() == -3);  // truncates toward zero, as C++ and dfgc do
  CHECK((dfg::Size(-7) % 2).value() == -1);
  CHECK(min(a, b).value() == 4);
  CHECK(max(a, 9).value() == 9);
  CHECK((a * b + 2 * a).ok());

  CHECK((dfg::Size(kMax) + 1).fault() == Fault::overflow);
  CHECK((dfg::Size(kMin) - 1).fault() == Fault::overflow);
  CHECK((dfg::Size(std::int64_t{1} << 32) * (std::int64_t{1} << 31)).fault() == Fault::overflow);
  CHECK((dfg::Size(4294967296) * 4294967296).fault() == Fault::overflow);
  CHECK((-dfg::Size(kMin)).fault() == Fault::overflow);
  CHECK((dfg::Size(kMin) / -1).fault() == Fault::overflow);
  CHECK((dfg::Size(kMin) % -1).value() == 0);
  CHECK((a / 0).fault() == Fault::division_by_zero);
  CHECK((a % 0).fault() == Fault::division_by_zero);
  CHECK((a / 0).value() == 0);
}

TEST_CASE("size: a fault stays with every result computed from it, the first one kept", "[size]") {
  const dfg::Size overflow = dfg::Size(kMax) * 2;
  const dfg::Size zero_division = dfg::Size(1) / 0;
  CHECK((overflow - kMax).fault() == Fault::overflow);
  CHECK((overflow / 0).fault() == Fault::overflow);
  CHECK((zero_division + overflow).fault() == Fault::division_by_zero);
  CHECK(min(overflow, 1).fault() == Fault::overflow);
  CHECK(max(1, zero_division).fault() == Fault::division_by_zero);
  CHECK((-overflow).fault() == Fault::overflow);
}

TEST_CASE("size: constant expressions", "[size]") {
  constexpr dfg::Size s = dfg::Size(2048) * 2048;
  static_assert(s.value() == 2048 * 2048);
  static_assert(!(dfg::Size(kMax) + 1).ok());
}

TEST_CASE("size: token_size_error refuses a size that is not positive or does not fit", "[size]") {
  CHECK(error_at(64, 640, 480).empty());
  CHECK(error_at(-3, 640, 480).empty());  // (-3)^2 is a fine size
  CHECK(error_at(0, 640, 480) ==
        "error: type Square = float[N * N] with N = 0: a token size must be positive, N * N is 0");
  CHECK(
      error_at(4294967296, 640, 480) ==
      "error: type Square = float[N * N] with N = 4294967296: the element count overflows a 64-bit integer");
  CHECK(
      error_at(4611686018427387905, 640, 480) ==
      "error: type Square = float[N * N] with N = 4611686018427387905: the element count overflows a 64-bit "
      "integer");
  // N * N fits in an int64, its bytes do not.
  CHECK(
      error_at(3037000499, 640, 480) ==
      "error: type Square = float[N * N] with N = 3037000499: 9223372030926249001 elements of 4 bytes overflow "
      "a 64-bit byte count");
  CHECK(
      error_at(64, 0, 480) ==
      "error: type Image = uint8[(W + 2) * H / min(W, 4)] with W = 0, H = 480: the element count divides by zero");
  CHECK(
      error_at(64, -2, 480) ==
      "error: type Image = uint8[(W + 2) * H / min(W, 4)] with W = -2, H = 480: a token size must be positive, "
      "(W + 2) * H / min(W, 4) is 0");
  CHECK(
      error_at(64, 640, kMax) ==
      "error: type Image = uint8[(W + 2) * H / min(W, 4)] with W = 640, H = 9223372036854775807: the element "
      "count overflows a 64-bit integer");
}

TEST_CASE("size: a byte count that wraps around is refused, not allocated", "[size]") {
  // float[N] with N = 2^62 + 1: 4 * N wraps to 4 in 64 bits.
  struct One {
    std::int64_t N;
  };
  constexpr auto count_row = [](const One& p) { return dfg::Size(p.N); };
  constexpr std::array<dfg::TokenSize<One>, 1> kRow = {
      {{"Row", "float[N]", "N", sizeof(float), count_row}}};
  const dfg::RuntimeParam table[] = {{"N", 256}};
  const std::vector<std::int64_t> values{4611686018427387905};
  CHECK(
      dfg::token_size_error(kRow, One{values[0]}, table, values) ==
      "error: type Row = float[N] with N = 4611686018427387905: 4611686018427387905 elements of 4 bytes overflow a "
      "64-bit byte count");
  const std::vector<std::int64_t> fits{(std::int64_t{1} << 61) - 1};
  CHECK(dfg::token_size_error(kRow, One{fits[0]}, table, fits).empty());
}

TEST_CASE("size: a program without runtime sizes has nothing to check", "[size]") {
  struct None {};
  constexpr std::array<dfg::TokenSize<None>, 0> kNone = {};
  CHECK(dfg::token_size_error(kNone, None{}, {}, {}).empty());
}
