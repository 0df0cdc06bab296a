/// \file
/// DFG_CUDA_CHECK(expr, "what"): a failed CUDA call becomes a dfg::CudaError exception whose
/// message says what was being done ("transfer p.m -> i1.a", "buffer i1.b@A.g0") and what CUDA
/// said; the worker that runs it records it in dfg::Abort with the node and the iteration, the
/// other workers stop at their next wait, and main exits with status 1:
///     error: node i1 (Inc) @ A.g0, iteration 17: launch: cudaErrorInvalidValue: invalid argument
/// Destructors use dfg::cuda_check_noexcept(), which records the error in the Abort directly.
///
/// Guarantees: callable from any thread; no allocation unless the call failed; the non-sticky
/// error state of the calling thread is cleared (cudaGetLastError) when a failure is reported.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <string_view>

#include "dfg/abort.hpp"

namespace dfg {

/// A failed CUDA runtime call.
class CudaError final : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

/// "<what>: cudaErrorX: <CUDA's description>".
inline std::string cuda_error_message(cudaError_t code, std::string_view what) {
  std::string m(what);
  if (!m.empty()) m += ": ";
  m += cudaGetErrorName(code);
  m += ": ";
  m += cudaGetErrorString(code);
  return m;
}

/// Throws CudaError unless `code` is cudaSuccess.
inline void cuda_check(cudaError_t code, std::string_view what) {
  if (code == cudaSuccess) return;
  static_cast<void>(cudaGetLastError());
  throw CudaError(code, cuda_error_message(code, what));
}

/// For destructors and other places that cannot throw: records the failure in `abort`.
inline void cuda_check_noexcept(cudaError_t code, std::string_view what,
                                Abort& abort = process_abort()) noexcept {
  if (code == cudaSuccess) return;
  static_cast<void>(cudaGetLastError());
  try {
    abort.raise({}, -1, cuda_error_message(code, what));
  } catch (...) {
    abort.raise({}, -1, what);
  }
}

}  // namespace dfg

/// Evaluates `expr` (a CUDA runtime call) once; throws dfg::CudaError naming `what` on failure.
#define DFG_CUDA_CHECK(expr, what) ::dfg::cuda_check((expr), (what))
