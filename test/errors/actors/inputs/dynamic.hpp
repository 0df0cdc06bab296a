// Dynamic actor classes, each breaking one rule of `bool step(...)`.
#pragma once

#include <cstdint>

#include "dfg/ports.hpp"

struct NoStep {
  bool fire(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y) { return x.available() && y.room(); }
};

struct StepPointer {
  bool step(const std::int32_t* x, dfg::Out<std::int32_t> y) { return x && y.room(); }
};

struct StepElement {
  bool step(dfg::In<float> x, dfg::Out<std::int32_t> y) { return x.available() && y.room(); }
};

struct StepDirection {
  bool step(dfg::In<std::int32_t> x, dfg::In<std::int32_t> y) { return x.available() && y.available(); }
};

struct StepVoid {
  void step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y) { (void)x, (void)y; }
};

struct StepMissingPort {
  bool step(dfg::In<std::int32_t> x) { return x.available() > 0; }
};

struct StepUnknownParam {
  bool step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y, dfg::Out<std::int32_t> z) {
    return x.available() && y.room() && z.room();
  }
};

struct StepNoParamMember {
  bool step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y) { return x.available() && y.room(); }
};
