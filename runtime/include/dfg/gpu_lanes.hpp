/// \file
/// dfg::one_stream_bytes and dfg::runs_on_one_stream: whether a GPU's cycles with overlap run
/// on its compute stream alone, which a run asks for with DFG_GPU_ONE_STREAM_BYTES=N in the
/// environment: a GPU whose copies of a cycle are all at most N bytes enqueues its whole cycle
/// on the compute stream, in order: no stream orders, one end event a cycle. Separate copy
/// streams let the copies run beside the kernels, but every cycle costs the host a cross-stream
/// wait per order and an end event per stream, and the device a hop between streams. Measured on
/// an H100 with 4-byte tokens (bench/results/overlap/h100-2026-11-24-gpu_cycle): P -> Inc -> C
/// with a short kernel takes 11.8 us a cycle on one stream against 12.6 on three; with a kernel
/// of about 100 us, 111.2 against 103.1, as the kernel then waits for the copies. So the default
/// keeps the streams; one stream pays only where the kernels are as short as the copies.
///
///     if (dfg::runs_on_one_stream(run.entries, run.params, {h2d_track, d2h_track},
///                                 dfg::one_stream_bytes()))
///       ...  // the copy streams are the compute stream (dfg::Stream::alias)
///
/// one_stream_bytes(): DFG_GPU_ONE_STREAM_BYTES where it is set to a number, else 0 (never one
/// stream). Reads the environment; call it at set-up. runs_on_one_stream allocates nothing and
/// never throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <span>

namespace dfg {

inline constexpr const char* kOneStreamEnv = "DFG_GPU_ONE_STREAM_BYTES";

/// The longest copy (bytes per cycle) with which a GPU's cycles run on one stream:
/// DFG_GPU_ONE_STREAM_BYTES where it holds a number, else 0 (never).
inline std::size_t one_stream_bytes() noexcept {
  const char* env = std::getenv(kOneStreamEnv);
  if (env == nullptr || *env == '\0') return 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(env, &end, 10);
  return *end == '\0' ? static_cast<std::size_t>(v) : 0;
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
