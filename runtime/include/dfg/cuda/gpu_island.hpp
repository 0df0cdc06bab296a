/// \file
/// dfg::GpuIsland: dynamic actors on one GPU that schedule themselves, with no CPU thread
/// spinning over them: one persistent cooperative kernel, one block per actor; in each block
/// thread 0 selects an action and the block fires it, round after round, until the actor has
/// reached the end of its streams. The actors talk through dfg::DeviceFifo rings (GPU to GPU) and
/// dfg::MappedFifo rings (to CPU threads), dfg/cuda/mapped_fifo.hpp.
///
///     struct Scale {                                        // a GPU actor: trivially copyable
///       dfg::RingRef<float, cuda::thread_scope_system> in;  // from a CPU thread
///       dfg::RingRef<float, cuda::thread_scope_device> out; // to the next GPU actor
///       __device__ bool step() {                            // every thread: select, fire, say so
///         auto n = dfg::block_fire_parallel(1024, Twice{}, dfg::consume(in), dfg::produce(out));
///         return n != 0;
///       }
///       __device__ bool done() const { return in.drained(); }   // thread 0: never fires again
///       __device__ void close() { out.close(); }                // thread 0: end of stream
///     };
///     dfg::GpuIsland island("filter", 0, 256, {"scale", "sum"}, Scale{...}, Sum{...});
///     island.launch(stream);   // returns at once; the CPU threads feed and drain the rings
///     island.wait();           // blocks without spinning until every actor has ended
///
/// A GPU actor is the device form of dfg::Island's `bool step()` actor, with the end of stream
/// made explicit: step() is called by every thread of the block and returns, the same in every
/// thread, whether an action fired (dfg/cuda/parallel_firing.hpp fires one on n threads). After
/// a step that fired nothing, thread 0 calls done(): true once the actor can never fire again,
/// usually every input ring drained (closed by its producer and empty). The block then calls
/// close() on thread 0, which closes the actor's output rings, and exits: the end-of-stream token
/// travels down the network ring by ring, and the kernel ends when every block has. An actor
/// without inputs (a source) says done() when it has produced everything.
///
/// Guarantees:
/// - Actors: step() may update the actor's state from thread 0 after its firings (the count of
///   tokens a source has produced, say): a barrier separates one step from the next, so every
///   thread of the next step sees it. done() and close() run on thread 0 alone.
/// - Threads: launch(), wait(), wait_for(), cancel() and the queries from one host thread; the
///   CPU threads at the mapped rings' other ends are independent of it. The actors are copied to
///   device memory once, at construction (they must be trivially copyable); fetch() copies them
///   back after the kernel ended.
/// - Progress: every block must be resident at once, since a block waits for tokens from the
///   others: the kernel is launched with cudaLaunchCooperativeKernel, which fails rather than
///   run too many blocks, and launch() first checks the occupancy and says how many fit. An idle
///   block sleeps (__nanosleep, 64 ns doubling to 2 us) between steps. Termination is by end of
///   stream only, never by an idle timeout: an island whose inputs are never closed runs until
///   cancel(), which a blocked wait cannot call; wait_for() bounds the wait for the caller.
/// - Ordering: tokens are ordered by the rings (release commit, acquire peek at device or system
///   scope). cancel() is a release store at system scope to a word in mapped pinned memory that
///   idle blocks load with acquire; the per-actor results (firings, ended) are written by each
///   block's thread 0 before the kernel completes and read by the host after wait(), whose event
///   synchronisation orders them.
/// - Blocking: wait() blocks the calling thread on an event created with cudaEventBlockingSync:
///   the thread sleeps in the driver instead of spinning. wait_for() polls the event every
///   millisecond.
/// - Allocation: the constructor only (device memory for the actors, mapped pinned memory for the
///   control words and results); it throws dfg::AllocError or dfg::CudaError. launch() throws
///   dfg::CudaError (a kernel that cannot be resident, a failed launch); wait() throws
///   dfg::CudaError for a fault in the kernel and dfg::IslandError for an actor that stopped
///   before the end of its streams (after cancel()).
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <array>
#include <bit>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

#include "dfg/cuda/check.hpp"
#include "dfg/cuda/stream.hpp"
#include "dfg/detail/ring_span.hpp"
#include "dfg/host_buffer.hpp"
#include "dfg/island.hpp"

namespace dfg {

/// What GpuIsland needs of an actor: trivially copyable (it is copied to the device as bytes), with
/// `__device__ bool step()`, `bool done()` and `void close()`.
template <class A>
concept GpuActorType = std::is_trivially_copyable_v<A> && requires(A& a) {
  { a.step() } -> std::same_as<bool>;
  { a.done() } -> std::same_as<bool>;
  a.close();
};

namespace detail {

/// The host's stop word and each actor's outcome, in mapped pinned memory.
struct GpuIslandControl {
  alignas(128) std::uint32_t stop;
};
struct GpuActorResult {
  std::uint64_t firings;
  std::uint32_t ended;  // 1: reached the end of its streams; 0: stopped by cancel()
};
inline constexpr std::size_t kIslandControlBytes = (sizeof(GpuIslandControl) + 255) / 256 * 256;

/// Byte offset of actor `index` among A... laid out in order, each at its alignment; with
/// index == sizeof...(A), the size of the whole layout.
template <class... A>
DFG_HOST_DEVICE constexpr std::size_t actor_offset(std::size_t index) {
  constexpr std::size_t sizes[] = {sizeof(A)...};
  constexpr std::size_t aligns[] = {alignof(A)...};
  std::size_t offset = 0;
  for (std::size_t i = 0; i < sizeof...(A); ++i) {
    offset = (offset + aligns[i] - 1) / aligns[i] * aligns[i];
    if (i == index) return offset;
    offset += sizes[i];
  }
  return offset;
}

#if defined(__CUDACC__)

/// One block's life: steps until the actor is done (then closes its outputs) or the host stops
/// the island.
template <class A>
__device__ void run_gpu_actor(A& actor, GpuIslandControl* control, GpuActorResult* result) {
  __shared__ int outcome;  // 0: go on, 1: ended, 2: stopped
  std::uint64_t firings = 0;
  unsigned sleep_ns = 0;
  for (;;) {
    if (actor.step()) {
      ++firings;
      sleep_ns = 0;
      __syncthreads();  // thread 0's updates of the actor's state, before the next step reads them
      continue;
    }
    if (threadIdx.x == 0) {
      int o = 0;
      if (actor.done()) {
        actor.close();
        o = 1;
      } else if (cuda::atomic_ref<std::uint32_t, cuda::thread_scope_system>(control->stop)
                     .load(cuda::std::memory_order_acquire) != 0) {
        o = 2;
      }
      outcome = o;
    }
    __syncthreads();
    const int o = outcome;
    __syncthreads();
    if (o != 0) {
      if (threadIdx.x == 0) {
        result->firings = firings;
        result->ended = o == 1 ? 1u : 0u;
      }
      return;
    }
    sleep_ns = sleep_ns == 0 ? 64 : (sleep_ns < 2048 ? 2 * sleep_ns : 2048);
    __nanosleep(sleep_ns);
  }
}

template <class... A, std::size_t... I>
__device__ void dispatch_gpu_actor(std::byte* actors, GpuIslandControl* control,
                                   GpuActorResult* results, std::index_sequence<I...>) {
  ((blockIdx.x == I
        ? run_gpu_actor(*reinterpret_cast<A*>(actors + actor_offset<A...>(I)), control, results + I)
        : void()),
   ...);
}

template <class... A>
__global__ void gpu_island_kernel(std::byte* actors, GpuIslandControl* control,
                                  GpuActorResult* results) {
  dispatch_gpu_actor<A...>(actors, control, results, std::index_sequence_for<A...>{});
}

#endif

}  // namespace detail

#if defined(__CUDACC__)

template <GpuActorType... A>
class GpuIsland {
  static_assert(sizeof...(A) > 0, "dfg::GpuIsland: an island needs at least one actor");

 public:
  static constexpr std::size_t kActors = sizeof...(A);

  /// Copies the actors to `device`; `threads` threads per block (1..1024, a multiple of 32).
  GpuIsland(std::string name, int device, unsigned threads,
            std::array<std::string_view, kActors> names, const A&... actors)
      : name_(std::move(name)), device_(device), threads_(threads) {
    for (std::size_t i = 0; i < kActors; ++i) names_[i] = std::string(names[i]);
    if (threads_ == 0 || threads_ > 1024 || threads_ % 32 != 0)
      throw std::invalid_argument("dfg: gpu island " + name_ +
                                  ": threads per block must be a multiple of 32 in 1..1024");
    DeviceGuard guard(device_);
    const std::size_t actor_bytes = detail::actor_offset<A...>(kActors);
    const std::size_t control_bytes =
        detail::kIslandControlBytes + kActors * sizeof(detail::GpuActorResult);
    cudaError_t e = cudaMalloc(&actors_, actor_bytes);
    if (e == cudaSuccess)
      e = cudaHostAlloc(&control_host_, control_bytes, cudaHostAllocMapped | cudaHostAllocPortable);
    if (e == cudaSuccess) e = cudaHostGetDevicePointer(&control_device_, control_host_, 0);
    if (e != cudaSuccess) {
      release();
      throw AllocError(detail::alloc_message("gpu island " + name_, actor_bytes + control_bytes,
                                             cuda_error_message(e, {})));
    }
    std::memset(control_host_, 0, control_bytes);
    std::byte staging[detail::actor_offset<A...>(kActors) + 1];
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (std::memcpy(staging + detail::actor_offset<A...>(I), &actors, sizeof(A)), ...);
    }(std::index_sequence_for<A...>{});
    try {
      DFG_CUDA_CHECK(cudaMemcpy(actors_, staging, actor_bytes, cudaMemcpyHostToDevice),
                     "gpu island " + name_ + ": copy the actors");
      DFG_CUDA_CHECK(
          cudaEventCreateWithFlags(&ended_, cudaEventDisableTiming | cudaEventBlockingSync),
          "gpu island " + name_ + ": event");
    } catch (...) {
      release();
      throw;
    }
  }
  ~GpuIsland() {
    if (running_) {
      cancel();
      cuda_check_noexcept(cudaEventSynchronize(ended_), "gpu island: wait at destruction");
    }
    release();
  }
  GpuIsland(const GpuIsland&) = delete;
  GpuIsland& operator=(const GpuIsland&) = delete;

  /// Launches the island's kernel on `stream` and returns; once per island.
  void launch(cudaStream_t stream) {
    if (launched_) throw std::logic_error("dfg: gpu island " + name_ + " launched twice");
    DeviceGuard guard(device_);
    const void* kernel = reinterpret_cast<const void*>(&detail::gpu_island_kernel<A...>);
    int per_sm = 0, sms = 0, cooperative = 0;
    DFG_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                                 static_cast<int>(threads_), 0),
                   "gpu island " + name_ + ": occupancy");
    DFG_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device_),
                   "multiprocessor count");
    DFG_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device_),
                   "cooperative launch");
    if (cooperative == 0)
      throw CudaError(cudaErrorNotSupported, "gpu island " + name_ + ": device " +
                                                 std::to_string(device_) +
                                                 " cannot launch cooperative kernels");
    if (static_cast<std::size_t>(per_sm) * static_cast<std::size_t>(sms) < kActors)
      throw CudaError(cudaErrorCooperativeLaunchTooLarge,
                      "gpu island " + name_ + ": " + std::to_string(kActors) + " actors need " +
                          std::to_string(kActors) + " resident blocks of " +
                          std::to_string(threads_) + " threads; device " + std::to_string(device_) +
                          " holds " + std::to_string(per_sm * sms));
    std::byte* actors = static_cast<std::byte*>(actors_);
    auto* control = static_cast<detail::GpuIslandControl*>(control_device_);
    auto* results = reinterpret_cast<detail::GpuActorResult*>(
        static_cast<std::byte*>(control_device_) + detail::kIslandControlBytes);
    void* args[] = {&actors, &control, &results};
    DFG_CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(static_cast<unsigned>(kActors)),
                                               dim3(threads_), args, 0, stream),
                   "gpu island " + name_ + ": launch");
    DFG_CUDA_CHECK(cudaEventRecord(ended_, stream), "gpu island " + name_ + ": record");
    launched_ = running_ = true;
  }

  /// Blocks (sleeping, not spinning) until the kernel ends; throws for a fault in it or an actor
  /// that did not reach the end of its streams.
  void wait() {
    if (!running_) return;
    running_ = false;
    DFG_CUDA_CHECK(cudaEventSynchronize(ended_), "gpu island " + name_);
    check_ended();
  }
  /// wait() for at most `timeout`; false (and the kernel still running) if it had not ended.
  bool wait_for(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (running_) {
      const cudaError_t e = cudaEventQuery(ended_);
      if (e == cudaSuccess) break;
      if (e != cudaErrorNotReady) cuda_check(e, "gpu island " + name_);
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    wait();
    return true;
  }
  /// Asks every block that is idle to stop (an island whose inputs never end); wait() then
  /// reports the actors that had not ended.
  void cancel() noexcept {
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_system>(control()->stop)
        .store(1, cuda::std::memory_order_release);
  }

  /// After wait(): firings of actor i, and whether it reached the end of its streams.
  std::uint64_t firings(std::size_t i) const noexcept { return results()[i].firings; }
  bool ended(std::size_t i) const noexcept { return results()[i].ended != 0; }
  const std::string& name() const noexcept { return name_; }

  /// After wait(): a copy of actor I's state on the device.
  template <std::size_t I>
  auto fetch() const {
    using Actor = std::tuple_element_t<I, std::tuple<A...>>;
    std::array<std::byte, sizeof(Actor)> bytes;
    DFG_CUDA_CHECK(
        cudaMemcpy(bytes.data(), static_cast<std::byte*>(actors_) + detail::actor_offset<A...>(I),
                   sizeof(Actor), cudaMemcpyDeviceToHost),
        "gpu island " + name_ + ": fetch actor " + names_[I]);
    return std::bit_cast<Actor>(bytes);
  }

 private:
  detail::GpuIslandControl* control() const noexcept {
    return static_cast<detail::GpuIslandControl*>(control_host_);
  }
  const detail::GpuActorResult* results() const noexcept {
    return reinterpret_cast<const detail::GpuActorResult*>(
        static_cast<const std::byte*>(control_host_) + detail::kIslandControlBytes);
  }
  void check_ended() const {
    for (std::size_t i = 0; i < kActors; ++i) {
      if (!ended(i))
        throw IslandError("gpu island " + name_ + ": actor " + names_[i] + " stopped after " +
                          std::to_string(firings(i)) + " firings, before the end of its streams");
    }
  }
  void release() noexcept {
    if (ended_ != nullptr) cuda_check_noexcept(cudaEventDestroy(ended_), "gpu island event");
    if (actors_ != nullptr) cuda_check_noexcept(cudaFree(actors_), "gpu island actors");
    if (control_host_ != nullptr)
      cuda_check_noexcept(cudaFreeHost(control_host_), "gpu island control");
    ended_ = nullptr;
    actors_ = nullptr;
    control_host_ = nullptr;
  }

  std::string name_;
  std::array<std::string, kActors> names_;
  int device_;
  unsigned threads_;
  void* actors_ = nullptr;
  void* control_host_ = nullptr;
  void* control_device_ = nullptr;
  cudaEvent_t ended_ = nullptr;
  bool launched_ = false;
  bool running_ = false;
};

#endif

}  // namespace dfg
