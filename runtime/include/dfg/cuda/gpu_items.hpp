/// \file
/// dfg::GpuItems: the items of a GPU's cycle loop (dfg::Items), each enqueued on its stream
/// between the two events of its probe (dfg::GpuProbes), a firing's kernel launch checked.
/// With overlap the cycles run ahead of the thread (dfg::GpuCycles: the worker's streams and
/// their orders); without, the loop waits for its streams before each cycle's end:
///
///     dfg::GpuItems items(run_, where, kPe_A_g0, probes_, {compute_, h2d_}, {{compute_, h2d_,
///     1}}); items.cycles([&](std::int64_t c) {   // begin(c): GpuCycles::begin, the windows of
///     cycle c
///       items.copy(overlap::transfer_p_m_A_g0, h2d_, dst, src);     // the entry's bytes
///       items.fire(overlap::fire_i1, compute_, [&](std::int64_t j) { ... });
///     });                                   // end_cycle(c): GpuCycles::end, on the GPU
///
///     dfg::GpuItems items(run_, where, kPe_A_g0, probes_);      // without overlap
///     ...  dfg::synchronize(compute_, h2d_);  // then end_cycle(c): the probes' times, then
///                                             // RunState::end_cycle
///
/// Guarantees: as dfg::Items and dfg::GpuCycles; an item's probe records its events on the
/// item's stream and never blocks the host (dfg::GpuProbes). A failed launch throws
/// dfg::CudaError.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "dfg/bounded.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/cuda/gpu_cycles.hpp"
#include "dfg/cuda/gpu_graphs.hpp"
#include "dfg/cuda/gpu_probes.hpp"
#include "dfg/cuda/stream.hpp"
#include "dfg/items.hpp"
#include "dfg/nvtx.hpp"

namespace dfg {

/// A firing whose input is fed by an edge with a delay: in its first `cycles` cycles it reads
/// initial tokens, a different one each cycle (GpuItems::graphs).
struct InitialReads {
  std::size_t entry;
  std::int64_t cycles;
};

template <class Run>
class GpuItems {
 public:
  /// Cycles that end on the host: the loop waits for its streams before end_cycle().
  GpuItems(Run& run, Where& where, int pe, GpuProbes& probes)
      : items_(run, where, pe), probes_(probes) {}
  /// Cycles run ahead of the thread on `streams`, ordered by `orders`, released to the CPU
  /// neighbours as `release` says (dfg::GpuCycles).
  GpuItems(Run& run, Where& where, int pe, GpuProbes& probes,
           std::initializer_list<cudaStream_t> streams, std::initializer_list<StreamOrder> orders,
           Release release = Release::copies)
      : items_(run, where, pe), probes_(probes), release_(release), streams_(streams) {
    cycles_.emplace(run, pe, probes, streams, orders, release);
  }

  /// Lets the cycles run as CUDA graphs (dfg::CycleGraphs) whose slots repeat every `phases`
  /// cycles: the plan's word that every firing of this GPU enqueues the same work each cycle.
  /// `cycles` > 1: the plan's word that no other PE waits for this GPU's cycles nor it for
  /// theirs, so that a graph may hold that many cycles in a row (--graph-cycles sets how many;
  /// a multiple of `phases`) wherever every item runs in each of them; the first and last
  /// cycles of the pipeline are relaunched one by one. A cycle in which a firing of `initial`
  /// reads initial tokens is enqueued call by call (a graph would freeze which). Nothing changes
  /// with --no-graphs or while the items are timed (--stats, --trace, --profile: the probes'
  /// events belong to each cycle); with --sync=barrier a graph holds one cycle. Before the loop
  /// only.
  void graphs(std::uint32_t phases, std::int64_t cycles = 1,
              std::initializer_list<InitialReads> initial = {}) {
    Run& run = items_.state();
    // A checkpoint or a restart calls the actors' save and restore between firings: each cycle
    // is then enqueued call by call.
    if (!cycles_ || !run.graphs || probes_.on() || streams_.empty() || run.checkpoints.active())
      return;
    int device = 0;
    DFG_CUDA_CHECK(cudaGetDevice(&device), "cudaGetDevice");
    const cudaStream_t compute = streams_.front();
    graphs_.emplace(device, phases, streams_, run.pe_names[items_.pe()]);
    initial_.assign(initial.begin(), initial.end());
    // Every cycle joins its streams into the compute stream: the cycles follow each other there,
    // so the streams need no orders between cycles.
    cycles_.reset();
    cycles_.emplace(run, items_.pe(), probes_, std::initializer_list<cudaStream_t>{compute},
                    std::initializer_list<StreamOrder>{}, release_);
    if (cycles > 1 && run.graph_cycles != 1 && !run.barrier_sync) {
      const std::int64_t want = run.graph_cycles > 0 ? run.graph_cycles : cycles;
      const std::int64_t p = graphs_->phases();
      block_ = (want + p - 1) / p * p;
      if (block_ > 1) cycles_->hold(2 * static_cast<std::size_t>(block_));
    }
  }

  void begin(std::int64_t c) {
    if (cycles_) cycles_->begin(c);
    items_.begin(c);
    cycle_ = c;
  }
  bool resumes(std::size_t entry, std::int64_t j) const noexcept {
    return items_.resumes(entry, j);
  }
  bool suspends(std::size_t entry, std::int64_t j) const noexcept {
    return items_.suspends(entry, j);
  }
  /// Ends cycle c of the PE: on the GPU (GpuCycles::end), or, after the loop's wait for the
  /// streams, hands the probes' times on and ends it (RunState::end_cycle).
  void end_cycle(std::int64_t c) {
    if (cycles_) {
      cycles_->end(c);
      return;
    }
    probes_.poll();
    items_.end_cycle(c);
  }
  /// The loop is over: every cycle enqueued has finished and been published; the PE leaves
  /// (RunState::leave).
  void leave() {
    if (cycles_) cycles_->drain();
    items_.leave();
  }
  /// The cycle loop, as Items::cycles.
  template <class Body, class Between>
  void cycles(Body&& body, Between&& between) {
    const StreamEnd& end = items_.state().stream_end;
    if (!graphs_) {
      Items<Run>::cycle_loop(*this, end, body, between);
      return;
    }
    for (std::int64_t c = 0; c < end.stop();) {
      begin(c);
      if (c >= end.stop()) break;
      list(c, body);
      if (block_ > 1 && steady(c, end.stop())) {
        graph_block(c, body);
        for (std::int64_t k = 0; k < block_; ++k) between();
        c += block_;
        continue;
      }
      graph_cycle(c, body);
      end_cycle(c);
      between();
      ++c;
    }
    leave();
  }
  template <class Body>
  void cycles(Body&& body) {
    cycles(body, [] {});
  }

  /// A firing: the actor enqueues its kernels on `stream`; the launch is checked.
  template <class Body>
  void fire(std::size_t entry, cudaStream_t stream, Body&& body) {
    item(entry, stream, body, Kind::firing);
  }
  /// A delay copy on `stream`.
  template <class Body>
  void copy(std::size_t entry, cudaStream_t stream, Body&& body) {
    item(entry, stream, body, Kind::local);
  }
  /// A transfer within the host that this GPU launches on `stream`: the entry's bytes from
  /// `src` to `dst` (cudaMemcpyAsync).
  void copy(std::size_t entry, cudaStream_t stream, void* dst, const void* src) {
    item(
        entry, stream, [&] { copy_async(dst, src, bytes(entry), stream, "cudaMemcpyAsync"); },
        Kind::transfer);
  }
  /// The same for a bounded token: its length cell and its used bytes only.
  void copy(std::size_t entry, cudaStream_t stream, SlotToken dst, SlotToken src) {
    item(
        entry, stream,
        [&] {
          *dst.used_bytes = *src.used_bytes;
          copy_async(dst.data, src.data, used_bytes(entry, src), stream, "cudaMemcpyAsync");
        },
        Kind::transfer);
  }
  /// The same between two GPUs' memories (cudaMemcpyPeerAsync).
  void copy_peer(std::size_t entry, cudaStream_t stream, void* dst, int dst_device, const void* src,
                 int src_device) {
    item(
        entry, stream,
        [&] {
          copy_peer_async(dst, dst_device, src, src_device, bytes(entry), stream,
                          "cudaMemcpyPeerAsync");
        },
        Kind::transfer);
  }
  /// The same for a bounded token: its length cell and its used bytes only.
  void copy_peer(std::size_t entry, cudaStream_t stream, SlotToken dst, int dst_device,
                 SlotToken src, int src_device) {
    item(
        entry, stream,
        [&] {
          *dst.used_bytes = *src.used_bytes;
          copy_peer_async(dst.data, dst_device, src.data, src_device, used_bytes(entry, src),
                          stream, "cudaMemcpyPeerAsync");
        },
        Kind::transfer);
  }

 private:
  /// The bytes a bounded token uses, checked against the entry's (the capacity's).
  std::size_t used_bytes(std::size_t entry, SlotToken src) const {
    return dfg::used_bytes(src, bytes(entry));
  }

  std::size_t bytes(std::size_t entry) const {
    const Run& run = items_.state();
    return run.entries[entry].bytes(run.params);
  }

  /// A firing (its launch checked), a transfer (host or peer memory), or a delay copy within the
  /// GPU's memory.
  enum class Kind { firing, transfer, local };

  /// Which items run in cycle c, begun (the body called with `listing_`: nothing enqueued):
  /// `running_`, of the `listed_` the body has.
  template <class Body>
  void list(std::int64_t c, Body& body) {
    running_.clear();
    listed_ = 0;
    listing_ = true;
    try {
      body(c);
    } catch (...) {
      listing_ = false;
      throw;
    }
    listing_ = false;
  }

  /// Whether cycles c .. c + block_ - 1 may be one graph: c begins a phase, they are all in
  /// the run, and every item of the GPU runs in c and still in the last of them (the plan gives
  /// such a GPU no moving node: its windows are the pipeline's).
  bool steady(std::int64_t c, std::int64_t count) const {
    if (c % graphs_->phases() != 0 || c + block_ > count || running_.size() != listed_ ||
        reads_initial(c))
      return false;
    for (std::size_t entry : running_)
      if (items_.active_until(entry) < c + block_) return false;
    return true;
  }

  /// Whether a firing reads initial tokens in cycle c.
  bool reads_initial(std::int64_t c) const {
    const Run& run = items_.state();
    for (const InitialReads& r : initial_) {
      const std::int64_t j = c - run.entries[r.entry].first_cycle;
      if (j >= 0 && j < r.cycles) return true;
    }
    return false;
  }

  /// Cycle c as a graph: its items' graph of c's phase, captured the first time, launched; or,
  /// where a firing reads initial tokens in c or once a capture has failed, the cycle enqueued
  /// as a graph would hold it.
  template <class Body>
  void graph_cycle(std::int64_t c, Body& body) {
    CycleGraphs& graphs = *graphs_;
    auto cycle = [&] { body(c); };
    if (!graphs.failed() && !reads_initial(c)) {
      const std::uint32_t phase = graphs.phase(c);
      cudaGraphExec_t exec = graphs.find(phase, running_, 1);
      if (!exec) exec = graphs.capture(phase, running_, 1, [&] { graphs.enqueue_joined(cycle); });
      if (exec) {
        graphs.launch(exec);
        return;
      }
    }
    graphs.enqueue_joined(cycle);
  }

  /// Cycles c .. c + block_ - 1, c begun and steady(), as one graph (captured the first time)
  /// and one end; or, once a capture has failed, each enqueued as the graph would hold it.
  template <class Body>
  void graph_block(std::int64_t c, Body& body) {
    CycleGraphs& graphs = *graphs_;
    const std::int64_t last = c + block_ - 1;
    for (std::int64_t k = c + 1; k <= last; ++k) {  // room for them all, their windows
      cycles_->begin(k);
      items_.begin(k);
    }
    auto each = [&] {
      for (std::int64_t k = c; k <= last; ++k) {
        items_.name_cycle(k);
        auto cycle = [&] { body(k); };
        graphs.enqueue_joined(cycle);
      }
    };
    cudaGraphExec_t exec = nullptr;
    if (!graphs.failed()) {
      exec = graphs.find(graphs.phase(c), running_, block_);
      if (!exec) exec = graphs.capture(graphs.phase(c), running_, block_, each);
    }
    if (exec) {
      graphs.launch(exec);
    } else {
      each();
    }
    cycle_ = last;
    cycles_->end(c, last);
  }

  template <class Body>
  void item(std::size_t entry, cudaStream_t stream, Body&& body, Kind kind) {
    std::int64_t j = 0;
    if (listing_) ++listed_;
    if (!items_.enter(entry, j)) return;
    if (listing_) {
      running_.push_back(entry);
      return;
    }
    DFG_NVTX_RANGE(items_.state().entries[entry].name);
    if (cycles_ && !graphs_ && kind != Kind::local) cycles_->item(cycle_, kind == Kind::transfer);
    probes_.start(entry, stream);
    Items<Run>::call(body, j);
    if (kind == Kind::firing) DFG_CUDA_CHECK(cudaGetLastError(), "launch");
    probes_.stop(entry, stream, j);
  }

  Items<Run> items_;
  GpuProbes& probes_;
  std::optional<GpuCycles<Run>> cycles_;
  std::int64_t cycle_ = 0;  ///< the cycle begun last
  Release release_ = Release::copies;
  std::vector<cudaStream_t> streams_;  ///< the worker's streams, compute first
  std::optional<CycleGraphs> graphs_;  ///< graphs(): the cycles as CUDA graphs
  std::vector<std::size_t> running_;   ///< list(): the items that run
  std::size_t listed_ = 0;             ///< list(): the items the body has, running or not
  bool listing_ = false;               ///< list(): list the items only
  std::int64_t block_ = 1;             ///< graphs(): the cycles one graph may hold
  std::vector<InitialReads> initial_;  ///< graphs(): the firings that read initial tokens
};

}  // namespace dfg
