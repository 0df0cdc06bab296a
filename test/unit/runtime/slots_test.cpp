#include "dfg/slots.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

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
