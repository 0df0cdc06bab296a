/// \file
/// dfg::GpuIslandCycle: an island of dynamic actors on one GPU, run to quiescence inside each
/// firing of its static node by one kernel on the node's stream. No CPU thread waits on it or
/// spins over it; the firing enqueues the kernel and a check of its report, and returns.
///
///     struct State {                               // generated: dfg_islands/<island>.cuh
///       dfg::GpuUnpack<int> port_x_;               // member 0: the input token into fifo0
///       dfg::GpuPack<int> port_y_;                 // member 1: fifo1 into the output token
///       ::Mul node_m_;                             // member 2: an actor, `__device__ bool step`
///       dfg::DeviceRing<int> fifo0, fifo1;
///       static constexpr unsigned threads = 1;                // a parallel action's batch
///       static constexpr unsigned block_threads = 96;         // the block kernel's block
///       __device__ void begin(unsigned b, const Tokens& t);   // the adapters' tokens
///       __device__ bool step(unsigned b);                     // member b, one step
///       __device__ static bool parallel(unsigned b);          // member b fires in parallel:
///       __device__ bool fire(unsigned b);                     // a batch, every thread
///       __device__ void finish(unsigned b, dfg::GpuIslandReporter& r);  // the adapters' checks
///     };
///     dfg::GpuIslandCycle<State, Tokens> island("island_m", "node island_m (...) @ A.g0",
///                                               {"x", "y", "m"}, 2);
///     state.fifo0 = island.ring(fifo0_owner);      // the rings as the kernel's members use them
///     island.set_up(device, state);                // once: the state to the device
///     island.fire(tokens, stream, j);              // each iteration j: enqueues, returns
///
/// Two kernels run the members (adapters and actors), as DFG_GPU_ISLAND_KERNEL says:
/// - `block` (the default): one block, a warp per member (a warp steps several where more
///   members than fit a block). The firing copies the state into shared memory where it fits
///   (detail::kIslandSharedState) and back at quiescence: a store to device memory sends the
///   next load of it to L2, so an actor's fields and the rings' descriptors there made each step
///   a chain of L2 round trips. A round: lane 0 of each warp calls its actors' steps, each until
///   it returns false (an adapter's step runs on every lane of its warp, which copy the token's
///   elements 32 at a time, eight loads a lane in flight), and polls them again while another
///   warp still fires (a shared count of the warps that fired since they last found nothing), so
///   tokens flow down a chain of actors in one round rather than one actor a round; a block
///   barrier; every thread fires the parallel members in turn (each until it fires no batch); the
///   fired bits go into the round's word in shared memory; a block barrier ends the round. The
///   rings between the members stay in device memory at block scope (ring(): the positions'
///   acquire and release at .cta, which the SM's L1 serves; in shared memory they measured 5%
///   faster, and compute-sanitizer's racecheck, which does not model release and acquire, would
///   report every handoff). What it gives up: the members share one SM.
/// - `grid`: a cooperative kernel, one block per member. Every block's thread 0 points its
///   adapter at the iteration's token (device memory, where the static cycle put it), then
///   rounds follow: in a round each block's thread 0 calls its step until it returns false (a
///   block whose actor has a parallel action: every thread calls fire, dfg::block_fire_parallel
///   over GpuConsume / GpuProduce ports, until it fires no batch), and notes in the round's word
///   whether it fired; a grid-wide barrier (cooperative_groups grid sync) ends the round.
///
/// In both, a round in which no member fired is quiescence: no ring changed during it, and
/// every step returned false on it. The members then check their adapters: an input whose token
/// did not all go in (the island is stuck), an output whose token is not full (no token for
/// this iteration), or a member that fired more than `max_firings` times (the island does not
/// quiesce) is written to the report. The actors and the rings keep their state from one firing
/// to the next, in device memory.
///
/// Errors: a host function enqueued after the kernel reads the report and raises the process's
/// stop (dfg/abort.hpp) with the node, the iteration and the message of dfg::Island's errors
/// ("island island_m: output 'y' produced 17 of 64 elements in iteration 3: no token for this
/// iteration"); main then prints it and exits with status 1.
///
/// Guarantees:
/// - Threads: set_up() and fire() from the worker thread of the GPU; the host function runs on
///   a CUDA runtime thread, touches only the report and raises the stop (which never blocks).
/// - Memory ordering: the rings are dfg::DeviceRing (release commit, acquire peek; at block
///   scope between the warps of one block, at device scope between blocks that run at once).
///   The round words are shared (block) or device-scope atomics (grid; relaxed: the barrier
///   orders them); every block reads the word of round r after the barrier
///   that ends round r, and no block writes it again before round r + 3, after two more
///   barriers, so every block takes the same decision. The input tokens were written before the
///   kernel started (stream order), the output tokens are read after it ended. The report, in
///   mapped pinned memory, is written by the one block that claims it (a device-scope CAS) and
///   read by the host function after the kernel completed (stream order), which clears it before
///   the next kernel starts (the host function holds the stream).
/// - Progress (grid): every block must be resident at once (a block waits at the barrier for the
///   others): the kernel is launched with cudaLaunchCooperativeKernel, and set_up() checks that
///   the device holds that many blocks of State::threads threads. A cooperative launch has one
///   block size: every block has State::threads threads, of which a block that steps uses
///   thread 0 only.
/// - Parallel firing: a batch of n firings (n from the elements there and the room downstream,
///   at most the block's threads) runs firing i on thread i with window i of every port, so
///   FIFO order is kept; the rings' ends stay thread 0's (dfg/cuda/parallel_firing.hpp states
///   the barrier that orders the other threads' accesses before thread 0's release and commit).
/// - Allocation: set_up() only (device memory for the state and the round words, mapped pinned
///   memory for the report); it throws dfg::AllocError or dfg::CudaError. fire() throws
///   dfg::CudaError for a failed launch.
/// - Shared memory (block): the state's copy is the firing's; every member's accesses end at the
///   barrier after quiescence, before the copy back.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "dfg/abort.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/cuda/gpu_island_adapters.hpp"
#include "dfg/cuda/gpu_island_kernels.hpp"
#include "dfg/cuda/gpu_ports.hpp"
#include "dfg/cuda/parallel_firing.hpp"  // dfg::block_fire_parallel, for the generated islands
#include "dfg/cuda/stream.hpp"
#include "dfg/host_buffer.hpp"

namespace dfg {

#if defined(__CUDACC__)

/// The owner of a dfg::DeviceRing: its positions (each on its own 128-byte line) and its slots,
/// zeroed, in one allocation of device memory on the current device.
template <class T>
class GpuIslandRing {
 public:
  GpuIslandRing() noexcept = default;
  /// At least `min_capacity` slots (rounded up to a power of two) that hold `initial` elements
  /// of `value` before the stream (an edge's `delay`; at most `min_capacity`); `name` for the
  /// error.
  GpuIslandRing(std::string_view name, std::size_t min_capacity, std::size_t initial = 0,
                const T& value = T{})
      : capacity_(std::bit_ceil(min_capacity < 1 ? std::size_t{1} : min_capacity)) {
    if (initial > capacity_)
      throw std::invalid_argument(std::string(name) + ": more initial elements than slots");
    const std::size_t bytes = kHeader + capacity_ * sizeof(T);
    cudaError_t e = cudaMalloc(&data_, bytes);
    if (e == cudaSuccess) e = cudaMemset(data_, 0, bytes);
    if (e == cudaSuccess && initial > 0) {  // the slots, then the written position
      const std::vector<T> slots(initial, value);
      const std::uint64_t written = initial;
      e = cudaMemcpy(static_cast<std::byte*>(data_) + kHeader, slots.data(), initial * sizeof(T),
                     cudaMemcpyHostToDevice);
      if (e == cudaSuccess)
        e = cudaMemcpy(data_, &written, sizeof(written), cudaMemcpyHostToDevice);
    }
    if (e == cudaSuccess) e = cudaDeviceSynchronize();  // set before any kernel reads it
    if (e != cudaSuccess) {
      if (data_ != nullptr) static_cast<void>(cudaFree(data_));
      data_ = nullptr;
      throw AllocError(detail::alloc_message(name, bytes, cuda_error_message(e, {})));
    }
  }
  ~GpuIslandRing() {
    if (data_ != nullptr) cuda_check_noexcept(cudaFree(data_), "free gpu island ring");
  }
  GpuIslandRing(GpuIslandRing&& o) noexcept { *this = std::move(o); }
  GpuIslandRing& operator=(GpuIslandRing&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(capacity_, o.capacity_);
    return *this;
  }
  GpuIslandRing(const GpuIslandRing&) = delete;
  GpuIslandRing& operator=(const GpuIslandRing&) = delete;

  /// The ring as the kernel's blocks use it (device addresses).
  DeviceRing<T> ring() const noexcept {
    auto* base = static_cast<std::byte*>(data_);
    return {reinterpret_cast<std::uint64_t*>(base), reinterpret_cast<std::uint64_t*>(base + 128),
            reinterpret_cast<T*>(base + kHeader), capacity_ - 1, false};
  }

 private:
  static constexpr std::size_t kHeader = 256;
  void* data_ = nullptr;
  std::size_t capacity_ = 0;
};

#endif

/// How a GPU island's kernel runs its members (adapters and actors): `block`, one block whose
/// warps step them and whose threads fire their parallel actions, rounds ended by block
/// barriers; `grid`, a cooperative kernel of one block per member, rounds ended by grid
/// barriers.
enum class GpuIslandKernel { block, grid };

inline constexpr const char* kGpuIslandKernelEnv = "DFG_GPU_ISLAND_KERNEL";

/// The kernel DFG_GPU_ISLAND_KERNEL names ("block" or "grid"); unset or empty: block, the
/// faster on every island measured (bench/dynamic). Any other value throws
/// std::invalid_argument.
inline GpuIslandKernel gpu_island_kernel() {
  const char* env = std::getenv(kGpuIslandKernelEnv);
  const std::string_view v = env == nullptr ? std::string_view() : std::string_view(env);
  if (v.empty() || v == "block") return GpuIslandKernel::block;
  if (v == "grid") return GpuIslandKernel::grid;
  throw std::invalid_argument(std::string(kGpuIslandKernelEnv) + "=" + std::string(v) +
                              ": expected 'block' or 'grid'");
}

#if defined(__CUDACC__)

template <class State, class Tokens>
class GpuIslandCycle {
  static_assert(std::is_trivially_copyable_v<State>,
                "dfg::GpuIslandCycle: the island's state is copied to the device as bytes");

 public:
  /// `blocks`: the name of each block's adapter or actor, in block order (for the messages);
  /// `adapters`: how many of the first blocks are adapters (the others are actors); `who`
  /// names the node in an error ("node island_m (Island_m) @ A.g0").
  GpuIslandCycle(std::string name, std::string who, std::vector<std::string> blocks,
                 std::size_t adapters, std::uint64_t max_firings = std::uint64_t{1} << 26)
      : name_(std::move(name)),
        who_(std::move(who)),
        blocks_(std::move(blocks)),
        adapters_(adapters),
        max_firings_(max_firings) {}
  ~GpuIslandCycle() { release(); }
  GpuIslandCycle(const GpuIslandCycle&) = delete;
  GpuIslandCycle& operator=(const GpuIslandCycle&) = delete;

  /// Copies `state` to `device` (whose current context the caller holds) and checks that its
  /// blocks fit at once.
  void set_up(int device, const State& state) {
    if (mode() == GpuIslandKernel::block)
      size_block();
    else
      check_grid(device);
    cudaError_t e = cudaMalloc(&state_, sizeof(State));
    if (e == cudaSuccess) e = cudaMalloc(&rounds_, sizeof(detail::GpuIslandRounds));
    if (e == cudaSuccess)
      e = cudaHostAlloc(reinterpret_cast<void**>(&report_host_), sizeof(GpuIslandReport),
                        cudaHostAllocMapped | cudaHostAllocPortable);
    if (e == cudaSuccess)
      e = cudaHostGetDevicePointer(reinterpret_cast<void**>(&report_device_), report_host_, 0);
    if (e != cudaSuccess) {
      release();
      throw AllocError(detail::alloc_message(
          "gpu island " + name_,
          sizeof(State) + sizeof(detail::GpuIslandRounds) + sizeof(GpuIslandReport),
          cuda_error_message(e, {})));
    }
    std::memset(report_host_, 0, sizeof(GpuIslandReport));
    DFG_CUDA_CHECK(cudaMemset(rounds_, 0, sizeof(detail::GpuIslandRounds)),
                   "gpu island " + name_ + ": round words");
    DFG_CUDA_CHECK(cudaMemcpy(state_, &state, sizeof(State), cudaMemcpyHostToDevice),
                   "gpu island " + name_ + ": copy the actors");
  }

  /// Enqueues the firing of iteration j on `stream` (the kernel, then the check of its report)
  /// and returns.
  void fire(const Tokens& tokens, cudaStream_t stream, std::int64_t j) {
    if (mode() == GpuIslandKernel::block) {
      detail::gpu_island_block_kernel<State, Tokens><<<1, threads_, 0, stream>>>(
          state_, tokens, rounds_, report_device_, j, max_firings_,
          static_cast<unsigned>(blocks_.size()), static_cast<unsigned>(adapters_));
      DFG_CUDA_CHECK(cudaGetLastError(), "gpu island " + name_ + ": launch");
    } else {
      const void* kernel =
          reinterpret_cast<const void*>(&detail::gpu_island_cycle_kernel<State, Tokens>);
      State* state = state_;
      Tokens t = tokens;
      detail::GpuIslandRounds* rounds = rounds_;
      GpuIslandReport* report = report_device_;
      std::int64_t iteration = j;
      std::uint64_t max_firings = max_firings_;
      void* args[] = {&state, &t, &rounds, &report, &iteration, &max_firings};
      DFG_CUDA_CHECK(
          cudaLaunchCooperativeKernel(kernel, dim3(static_cast<unsigned>(blocks_.size())),
                                      dim3(State::threads), args, 0, stream),
          "gpu island " + name_ + ": launch");
    }
    DFG_CUDA_CHECK(cudaLaunchHostFunc(stream, &GpuIslandCycle::check, this),
                   "gpu island " + name_ + ": enqueue the check");
  }

  const std::string& name() const noexcept { return name_; }

  /// How the kernel runs (gpu_island_kernel(), read at the first call).
  GpuIslandKernel mode() {
    if (!mode_) mode_ = gpu_island_kernel();
    return *mode_;
  }
  /// One of the island's rings in device memory, as the kernel's members use it: at block scope
  /// when one block runs them all.
  template <class T>
  DeviceRing<T> ring(const GpuIslandRing<T>& owner) {
    DeviceRing<T> r = owner.ring();
    r.block = mode() == GpuIslandKernel::block;
    return r;
  }

 private:
  /// Whether the device launches cooperative kernels and holds every member's block at once.
  void check_grid(int device) const {
    const void* kernel =
        reinterpret_cast<const void*>(&detail::gpu_island_cycle_kernel<State, Tokens>);
    int per_sm = 0, sms = 0, cooperative = 0;
    DFG_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device),
                   "cooperative launch");
    if (cooperative == 0)
      throw CudaError(cudaErrorNotSupported, "gpu island " + name_ + ": device " +
                                                 std::to_string(device) +
                                                 " cannot launch cooperative kernels");
    DFG_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, State::threads, 0),
        "gpu island " + name_ + ": occupancy");
    DFG_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
                   "multiprocessor count");
    if (static_cast<std::size_t>(per_sm) * static_cast<std::size_t>(sms) < blocks_.size())
      throw CudaError(cudaErrorCooperativeLaunchTooLarge,
                      "gpu island " + name_ + ": " + std::to_string(blocks_.size()) +
                          " blocks of " + std::to_string(State::threads) +
                          " threads must be resident at once; device " + std::to_string(device) +
                          " holds " + std::to_string(per_sm * sms));
  }
  /// One block's threads: State::block_threads (the plan's: a warp per member and at least
  /// State::threads for the parallel actions), at most what the device runs this kernel with in
  /// whole warps (a warp then steps several members, and a batch takes several passes of the
  /// threads).
  void size_block() {
    static_assert(State::block_threads % 32 == 0 && State::block_threads >= State::threads,
                  "dfg::GpuIslandCycle: the block is whole warps and holds a batch");
    cudaFuncAttributes attributes{};
    DFG_CUDA_CHECK(
        cudaFuncGetAttributes(&attributes, &detail::gpu_island_block_kernel<State, Tokens>),
        "gpu island " + name_ + ": kernel attributes");
    const unsigned most = static_cast<unsigned>(attributes.maxThreadsPerBlock) / 32 * 32;
    threads_ = std::min(State::block_threads, most);
  }
  /// After a firing's kernel: its report into the process's stop, then cleared.
  static void CUDART_CB check(void* self) {
    auto& island = *static_cast<GpuIslandCycle*>(self);
    GpuIslandReport& r = *island.report_host_;
    if (r.code == GpuIslandReport::ok) return;
    const std::string at = std::to_string(r.iteration);
    const std::string& block = island.blocks_[r.block];
    std::string what = "island " + island.name_ + ": ";
    if (r.code == GpuIslandReport::no_quiescence)
      what += (r.block < island.adapters_ ? "adapter " : "actor ") + block + " still fires after " +
              std::to_string(r.size) + " firings in iteration " + at +
              "; the island does not quiesce";
    else if (r.code == GpuIslandReport::stuck)
      what += "input '" + block + "' took " + std::to_string(r.done) + " of " +
              std::to_string(r.size) + " elements in iteration " + at + "; the island is stuck";
    else
      what += "output '" + block + "' produced " + std::to_string(r.done) + " of " +
              std::to_string(r.size) + " elements in iteration " + at +
              ": no token for this iteration";
    process_abort().raise(island.who_, r.iteration, what);
    r.code = GpuIslandReport::ok;
  }

  void release() noexcept {
    if (state_ != nullptr) cuda_check_noexcept(cudaFree(state_), "gpu island state");
    if (rounds_ != nullptr) cuda_check_noexcept(cudaFree(rounds_), "gpu island rounds");
    if (report_host_ != nullptr)
      cuda_check_noexcept(cudaFreeHost(report_host_), "gpu island report");
    state_ = nullptr;
    rounds_ = nullptr;
    report_host_ = nullptr;
    report_device_ = nullptr;
  }

  std::string name_, who_;
  std::vector<std::string> blocks_;
  std::size_t adapters_;
  std::uint64_t max_firings_;
  std::optional<GpuIslandKernel> mode_;
  unsigned threads_ = 32;  ///< the block's, with GpuIslandKernel::block
  State* state_ = nullptr;
  detail::GpuIslandRounds* rounds_ = nullptr;
  GpuIslandReport* report_host_ = nullptr;
  GpuIslandReport* report_device_ = nullptr;
};

#endif

}  // namespace dfg
