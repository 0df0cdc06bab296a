// GPU implementations of test/generated/port_groups.dfg's split and join: one device-to-device
// copy a port of the group, on the node's stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <cuda_runtime.h>
#include <dfg/context.hpp>
#include <dfg/port_group.hpp>

namespace port_groups_gpu {

inline void checked(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

}  // namespace port_groups_gpu

struct SplitGpu {
  int N = 2;
  void fire(const std::int64_t* x, dfg::Ports<std::int64_t> y, dfg::Context& ctx) const {
    const std::size_t elems = ctx.elements("x") / y.size();
    for (std::size_t k = 0; k < y.size(); ++k)
      port_groups_gpu::checked(cudaMemcpyAsync(y[k], x + k * elems, elems * sizeof *x,
                                               cudaMemcpyDeviceToDevice, ctx.stream()),
                               "SplitGpu");
  }
};

struct JoinGpu {
  int N = 2;
  void fire(dfg::Ports<const std::int64_t> x, std::int64_t* y, dfg::Context& ctx) const {
    const std::size_t elems = ctx.elements("y") / x.size();
    for (std::size_t k = 0; k < x.size(); ++k)
      port_groups_gpu::checked(cudaMemcpyAsync(y + k * elems, x[k], elems * sizeof *y,
                                               cudaMemcpyDeviceToDevice, ctx.stream()),
                               "JoinGpu");
  }
};
