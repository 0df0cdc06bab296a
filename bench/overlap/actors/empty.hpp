// Empty CPU actors, for the runtime's own cost per cycle (runtime_cost.py): their firings do
// nothing, so that a cycle's period is what the runtime spends around them.
#pragma once

#include <cstdint>

struct EmptySource {
  void fire([[maybe_unused]] std::int32_t* m) {}
};

struct EmptyPass {
  void fire([[maybe_unused]] const std::int32_t* a, [[maybe_unused]] std::int32_t* b) {}
};

struct EmptySink {
  void fire([[maybe_unused]] const std::int32_t* m) {}
};
