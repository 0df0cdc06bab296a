/// \file
/// dfg::Context: what a firing may ask of the runtime. Host-only header: it names the CUDA stream
/// type without including CUDA, so CPU actors compile without the CUDA toolkit.
///
/// Guarantees: a Context is owned by the worker thread of one processing element and passed to
/// the actor it fires; its accessors do not block, allocate or synchronise.
#pragma once

#include <cstddef>
#include <cstdint>

struct CUstream_st;  // cudaStream_t is `CUstream_st*` in the CUDA runtime

namespace dfg {

class Context {
 public:
  /// The stream every GPU firing must enqueue its work on (null on a CPU).
  CUstream_st* stream() const noexcept { return stream_; }
  /// The CUDA device ordinal of the firing's GPU; -1 on a CPU.
  int device() const noexcept { return device_; }
  /// The iteration this firing produces (0-based, counted from the node's first valid firing).
  std::int64_t iteration() const noexcept { return iteration_; }
  /// Elements per token of the port with this index in the actor's declaration order; with rates,
  /// per block: the tokens of every firing of the cycle.
  std::size_t elements(std::size_t port) const noexcept {
    return port < port_count_ ? port_elements_[port] : 0;
  }
  /// The node's firings per iteration (its entry of the repetition vector), all of which one call
  /// makes: 1 without rates.
  std::uint32_t firings() const noexcept { return firings_; }

  // Set by the generated program only.
  void set_stream(CUstream_st* s) noexcept { stream_ = s; }
  void set_device(int d) noexcept { device_ = d; }
  void set_iteration(std::int64_t i) noexcept { iteration_ = i; }
  void set_firings(std::uint32_t q) noexcept { firings_ = q; }
  void set_port_elements(const std::size_t* elements, std::size_t count) noexcept {
    port_elements_ = elements;
    port_count_ = count;
  }

 private:
  CUstream_st* stream_ = nullptr;
  int device_ = -1;
  std::int64_t iteration_ = 0;
  std::uint32_t firings_ = 1;
  const std::size_t* port_elements_ = nullptr;
  std::size_t port_count_ = 0;
};

}  // namespace dfg
