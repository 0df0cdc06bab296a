/// \file
/// dfg::one_stream_bytes and dfg::runs_on_one_stream: whether a GPU's cycles with overlap run
/// on its compute stream alone. Separate copy streams let a GPU's copies run beside its
/// kernels, but every cycle then costs the host a cross-stream wait per stream order and an end
/// event per stream, and the device a hop between streams for each order (P -> Inc -> C with
/// 4-byte tokens on an H100: 15.7 us a cycle by hand against 11.5 on one stream, and 14.6 against
/// 11.8 generated: bench/results/gpu_cycle-2026-11-24T19-55Z-h100). Where every copy the GPU
/// launches in a cycle is at most one_stream_bytes() long, running the copies beside the kernels
/// saves less than that, so the GPU enqueues its whole cycle on the compute stream: in order, no
/// stream orders, one end event a cycle. The price: a GPU bound by its kernels waits for its
/// short copies too (a few us a cycle).
///
///     if (dfg::runs_on_one_stream(run.entries, run.params, {h2d_track, d2h_track},
///                                 dfg::one_stream_bytes()))
///       ...  // the copy streams are the compute stream (dfg::Stream::alias)
///
/// one_stream_bytes(): DFG_GPU_ONE_STREAM_BYTES where it is set to a number (0: never one
/// stream), else kOneStreamBytes. Reads the environment; call it at set-up. runs_on_one_stream
/// allocates nothing and never throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <span>

namespace dfg {

/// The longest copy (bytes per cycle) with which a GPU's cycles still run on one stream.
inline constexpr std::size_t kOneStreamBytes = std::size_t{64} << 10;
inline constexpr const char* kOneStreamEnv = "DFG_GPU_ONE_STREAM_BYTES";

/// DFG_GPU_ONE_STREAM_BYTES where it holds a number, else kOneStreamBytes.
inline std::size_t one_stream_bytes() noexcept {
  const char* env = std::getenv(kOneStreamEnv);
  if (env == nullptr || *env == '\0') return kOneStreamBytes;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(env, &end, 10);
  return *end == '\0' ? static_cast<std::size_t>(v) : kOneStreamBytes;
}

/// Whether every entry on one of `copy_tracks` (the GPU's copy streams' trace tracks; 0: no
/// such stream) is a copy of at most `limit` bytes, with at least one such copy. A GPU with no
/// copy stream has nothing to merge.
template <class Entry, class Params>
bool runs_on_one_stream(std::span<const Entry> entries, const Params& params,
                        std::initializer_list<int> copy_tracks, std::size_t limit) noexcept {
  if (limit == 0) return false;
  bool any = false;
  for (const Entry& e : entries) {
    bool copy_track = false;
    for (const int t : copy_tracks) copy_track = copy_track || (t != 0 && t == e.track);
    if (!copy_track) continue;
    if (e.bytes == nullptr || e.bytes(params) > limit) return false;
    any = true;
  }
  return any;
}

}  // namespace dfg
