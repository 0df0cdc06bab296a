// The source and the sink around the dynamic actor under test.
#pragma once

#include <cstdint>

struct IntSource {
  void fire(std::int32_t* o) { o[0] = 1; }
};

struct IntSink {
  void fire(const std::int32_t* i) { (void)i; }
};
