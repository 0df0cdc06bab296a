/// \file
/// DFG_NVTX_RANGE("i1 (Inc) #17"): an NVTX range for Nsight Systems around the rest of the
/// enclosing scope, so that its timeline shows the same firings and transfers as --trace.
/// Compiled in only with -DDFG_ENABLE_NVTX=1 (the generated CMakeLists.txt sets it for ranks
/// with a GPU); otherwise the macro expands to nothing and NVTX is not included. NVTX 3 is
/// header-only: nothing to link.
///
/// Guarantees: any thread; a range is pushed and popped on the same thread (RAII). With NVTX
/// compiled in but no tool attached, a range costs a call through a null function pointer.
#pragma once

#if defined(DFG_ENABLE_NVTX) && DFG_ENABLE_NVTX
#include <nvtx3/nvToolsExt.h>

namespace dfg {

class NvtxRange {
 public:
  explicit NvtxRange(const char* name) noexcept { nvtxRangePushA(name); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace dfg

#define DFG_NVTX_CONCAT_INNER(a, b) a##b
#define DFG_NVTX_CONCAT(a, b) DFG_NVTX_CONCAT_INNER(a, b)
#define DFG_NVTX_RANGE(name) ::dfg::NvtxRange DFG_NVTX_CONCAT(dfg_nvtx_range_, __LINE__)(name)
#else
#define DFG_NVTX_RANGE(name) static_cast<void>(0)
#endif
