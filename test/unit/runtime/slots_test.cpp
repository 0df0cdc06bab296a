#include "dfg/slots.hpp"

#include "dfg/host_buffer.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

TEST_CASE("slots: (cycle - lag) mod slots, never negative", "[slots]") {
  CHECK(dfg::slot(0, 0, 1) == 0);
  CHECK(dfg::slot(7, 0, 2) == 1);
  CHECK(dfg::slot(7, 1, 2) == 0);
  CHECK(dfg::slot(0, 1, 2) == 1);  // before the first write: the other slot
  CHECK(dfg::slot(1, 3, 3) == 1);
  CHECK(dfg::slot(2, 5, 3) == 0);
  static_assert(dfg::slot(5, 2, 3) == 0);
}

TEST_CASE("slots: a view addresses the slots of an allocation", "[slots]") {
  struct Storage {
    std::array<double, 8> data{};
    void* data_ptr() { return data.data(); }
  } storage;
  const dfg::SlotView view(storage.data_ptr(), 4 * sizeof(double));
  view.as<double>(1)[2] = 5.0;
  CHECK(storage.data[6] == 5.0);
  CHECK(view.at(0) == storage.data.data());
}

TEST_CASE("slots: a bounded token's length lives in its slot's cell", "[slots][bounded]") {
  // Two slots of 8 uint16 elements, with lengths, as a colour of `type P = uint16[<= 8];`.
  dfg::HostBuffer buffer("p.o@A.cpu", 8 * sizeof(std::uint16_t), 2, dfg::kWithLengths);
  REQUIRE(buffer.lengths() != nullptr);
  CHECK(buffer.lengths()[0] == 0);  // every token starts empty
  CHECK(buffer.lengths()[1] == 0);
  const dfg::SlotView view = dfg::SlotView::of(buffer);

  const dfg::Bounded<std::uint16_t> out = view.bounded<std::uint16_t>(1, 8, "o");
  CHECK(out.empty());
  CHECK(out.capacity() == 8);
  out.resize(3);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint16_t>(10 + i);
  CHECK(buffer.lengths()[1] == 3 * sizeof(std::uint16_t));  // the cell holds bytes used
  CHECK(buffer.lengths()[0] == 0);

  const dfg::Bounded<const std::uint16_t> in = view.bounded<const std::uint16_t>(1, 8, "i");
  REQUIRE(in.size() == 3);
  CHECK(std::vector<std::uint16_t>(in.begin(), in.end()) == std::vector<std::uint16_t>{10, 11, 12});
  CHECK(view.token(1).data == in.data());
  CHECK(view.token(1).used_bytes == buffer.lengths() + 1);

  out.resize(8);  // the capacity itself is fine
  CHECK(in.size() == 8);
  CHECK_THROWS_WITH(out.resize(9), "output 'o': length 9 is over the capacity 8 of its type");
  CHECK(in.size() == 8);  // a refused length leaves the token as it was
  out.resize(0);
  CHECK(in.empty());
}

TEST_CASE("slots: a buffer without lengths has none, and moves keep them", "[slots][bounded]") {
  dfg::HostBuffer plain("a", 16, 2);
  CHECK(plain.lengths() == nullptr);
  dfg::HostBuffer bounded("b", 16, 3, dfg::kWithLengths);
  std::uint64_t* cells = bounded.lengths();
  cells[2] = 7;
  dfg::HostBuffer moved(std::move(bounded));
  CHECK(moved.lengths() == cells);
  CHECK(moved.lengths()[2] == 7);
}
