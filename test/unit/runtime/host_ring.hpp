// A ring of dfg/cuda/mapped_fifo.hpp's layout over ordinary host memory, for driving
// dfg::RingRef from host threads in tests without a GPU.
#pragma once

#include "dfg/cuda/mapped_fifo.hpp"

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace dfg_test {

template <class T>
class HostRing {
 public:
  explicit HostRing(std::size_t capacity)
      : capacity_(dfg::detail::ring_capacity(capacity)),
        memory_(dfg::detail::kRingHeader + capacity_ * sizeof(T) + 256) {
    const auto raw = reinterpret_cast<std::uintptr_t>(memory_.data());
    base_ = memory_.data() + ((raw + 255) / 256 * 256 - raw);
    counters_ = new (base_) dfg::detail::RingCounters{};
  }
  dfg::RingRef<T, cuda::thread_scope_system> ref() const {
    return {counters_, reinterpret_cast<T*>(base_ + dfg::detail::kRingHeader), capacity_};
  }

 private:
  std::size_t capacity_;
  std::vector<std::byte> memory_;
  std::byte* base_ = nullptr;
  dfg::detail::RingCounters* counters_ = nullptr;
};

}  // namespace dfg_test
