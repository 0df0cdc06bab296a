// Binary morphology on a bit-packed cubic volume, for the granulometry actors (openings.cuh).
//
// Layout: voxel (x, y, z) of a volume of side S is bit x % 32 of word x / 32 of row (y, z); a row
// is W = ceil(S / 32) words, rows are stored y-major within a z-plane: word (w, y, z) is at
// (z * S + y) * W + w. Bits past S in a row's last word are zero. A voxel is set where the uint8
// volume is non-zero: the volume is binary, as the Reader makes it.
//
// One erosion or dilation with the 6-neighbour cross, voxels outside the volume counting as
// empty (so an erosion clears every boundary voxel and a dilation never grows past the volume),
// is, on one word: the word and its x-neighbours (shifts, carrying one bit from the words beside
// it) ANDed (erosion) or ORed (dilation) with the same word of the rows y - 1, y + 1, z - 1, z + 1.
//
// morpho_steps fuses several such steps per launch (temporal blocking): a block loads a tile of
// edge x edge rows (in y and z; a row is all of x) into shared memory, does `steps` steps there,
// each on one row fewer on every side, and writes the centre of edge - 2 * steps rows on a side.
// The first step may be an erosion, whose centre is stored as well (the eroded volume carries
// over from one opening to the next); the last may count the centre's voxels instead of storing
// them (popcount, one 64-bit atomic add per block: integer, so the count does not depend on the
// block order). Where a row is a whole number of 16-byte units (S a multiple of 128), a thread
// works on four words at once. On sm_90 and later, consecutive launches are programmatic
// dependent launches: one starts while the previous finishes, and waits for it before reading.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

// The default tiling (Openings::init): bench/granulometry/packed_check times the others.
#ifndef PACKED_TILE_EDGE
#define PACKED_TILE_EDGE 24
#endif
#ifndef PACKED_TILE_STEPS
#define PACKED_TILE_STEPS 4
#endif

namespace packed {

/// One launch of morpho_steps.
struct Steps {
  const std::uint32_t* in = nullptr;
  std::uint32_t* out = nullptr;            // the centre after the last step, or null
  std::uint32_t* eroded = nullptr;         // the centre after the first step (an erosion), or null
  unsigned long long* count = nullptr;     // += set voxels of the centre after the last step, or null
  int side = 0;
  int words = 0;
  int edge = 0;   // tile rows on a side, halo included
  int steps = 0;  // 1 <= steps, edge - 2 * steps >= 1
  bool erode_first = false;
};

static __device__ __forceinline__ std::uint32_t last_word_mask(int side) {
  const int bits = side % 32;
  return bits == 0 ? ~0u : (1u << bits) - 1u;
}

// Calls f(yy, zz) for this thread's share of the rows [lo, lo + width)^2 of a tile: the block's
// threadIdx.y rows take the square row by row, y fastest.
template <class F>
static __device__ __forceinline__ void sweep_rows(int lo, int width, F f) {
  const int rows = static_cast<int>(blockDim.y);
  int yy = lo + static_cast<int>(threadIdx.y) % width, zz = lo + static_cast<int>(threadIdx.y) / width;
  const int step_y = rows % width, step_z = rows / width;
  while (zz < lo + width) {
    f(yy, zz);
    yy += step_y;
    zz += step_z;
    if (yy >= lo + width) {
      yy -= width;
      ++zz;
    }
  }
}

// Loads of a tile in flight per thread: the tile's rows come from L2 (the packed volume is a few
// MB), and one load at a time would leave the block waiting on its latency once per load.
constexpr int kLoadsInFlight = 4;

// Rows move between the volume and a tile in units of V: uint4 where a row is a whole number of
// 16-byte units, else single words.
template <class V>
static __device__ __forceinline__ void load_tile(const Steps& a, std::uint32_t* tile, int y0, int z0) {
  const int units = a.words * static_cast<int>(sizeof(std::uint32_t)) / static_cast<int>(sizeof(V));
  const int total = a.edge * a.edge * units;
  const int threads = static_cast<int>(blockDim.x * blockDim.y);
  const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  const V* in = reinterpret_cast<const V*>(a.in);
  V* to = reinterpret_cast<V*>(tile);
  for (int base = tid; base < total; base += threads * kLoadsInFlight) {
    V v[kLoadsInFlight];
#pragma unroll
    for (int u = 0; u < kLoadsInFlight; ++u) {
      const int i = base + u * threads;
      v[u] = V{};
      if (i >= total) continue;
      const int row = i / units, y = y0 + row % a.edge, z = z0 + row / a.edge;
      if (y >= 0 && y < a.side && z >= 0 && z < a.side)
        v[u] = in[(static_cast<std::size_t>(z) * a.side + y) * units + (i - row * units)];
    }
#pragma unroll
    for (int u = 0; u < kLoadsInFlight; ++u)
      if (base + u * threads < total) to[base + u * threads] = v[u];
  }
}

// Calls f(unit of the tile, unit of the volume) for every unit of the tile's centre rows inside
// the volume.
template <class V, class F>
static __device__ __forceinline__ void for_centre(const Steps& a, int y0, int z0, F f) {
  const int units = a.words * static_cast<int>(sizeof(std::uint32_t)) / static_cast<int>(sizeof(V));
  const int centre = a.edge - 2 * a.steps, total = centre * centre * units;
  const int threads = static_cast<int>(blockDim.x * blockDim.y);
  for (int i = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x); i < total; i += threads) {
    const int row = i / units, yy = a.steps + row % centre, zz = a.steps + row / centre;
    const int y = y0 + yy, z = z0 + zz, unit = i - row * units;
    if (y < a.side && z < a.side)
      f((zz * a.edge + yy) * units + unit, (static_cast<std::size_t>(z) * a.side + y) * units + unit);
  }
}

template <class V>
static __device__ __forceinline__ void store_centre(const Steps& a, const std::uint32_t* tile,
                                                    std::uint32_t* out, int y0, int z0) {
  const V* from = reinterpret_cast<const V*>(tile);
  V* to = reinterpret_cast<V*>(out);
  for_centre<V>(a, y0, z0, [&](int t, std::size_t g) { to[g] = from[t]; });
}

static __device__ __forceinline__ int popcount(std::uint32_t v) { return __popc(v); }
static __device__ __forceinline__ int popcount(uint4 v) {
  return __popc(v.x) + __popc(v.y) + __popc(v.z) + __popc(v.w);
}

template <class V>
static __device__ __forceinline__ unsigned long long count_centre(const Steps& a, const std::uint32_t* tile,
                                                                  int y0, int z0) {
  const V* from = reinterpret_cast<const V*>(tile);
  unsigned long long count = 0;
  for_centre<V>(a, y0, z0, [&](int t, std::size_t) { count += static_cast<unsigned>(popcount(from[t])); });
  return count;
}

// One step on one unit of row (yy, zz) of a tile: the unit `at` (in units of V) of src, its
// x-neighbour bits from the units beside it, the same unit of the rows y -/+ 1 and z -/+ 1.
struct StepShape {
  int units;        // units of V per row
  int plane_units;  // units of V per z-layer of the tile
  std::uint32_t last_mask;
  bool erode;
};

static __device__ __forceinline__ std::uint32_t combine(std::uint32_t c, std::uint32_t xm, std::uint32_t xp,
                                                        std::uint32_t ym, std::uint32_t yp, std::uint32_t zm,
                                                        std::uint32_t zp, bool erode) {
  return erode ? c & xm & xp & ym & yp & zm & zp : c | xm | xp | ym | yp | zm | zp;
}

static __device__ __forceinline__ void step_unit(const std::uint32_t* src, std::uint32_t* dst, int at, int u,
                                                 const StepShape& k, bool in_volume) {
  const std::uint32_t c = src[at];
  const std::uint32_t left = u > 0 ? src[at - 1] : 0u, right = u + 1 < k.units ? src[at + 1] : 0u;
  std::uint32_t v = combine(c, __funnelshift_l(left, c, 1), __funnelshift_r(c, right, 1), src[at - k.units],
                            src[at + k.units], src[at - k.plane_units], src[at + k.plane_units], k.erode);
  if (u == k.units - 1) v &= k.last_mask;
  dst[at] = in_volume ? v : 0u;
}

// Four words at once: 16-byte loads of the unit and of its four neighbour rows, single words
// of the units beside it for the bits that cross.
static __device__ __forceinline__ void step_unit(const uint4* src, uint4* dst, int at, int u,
                                                 const StepShape& k, bool in_volume) {
  const uint4 c = src[at];
  const std::uint32_t* words = reinterpret_cast<const std::uint32_t*>(src);
  const std::uint32_t left = u > 0 ? words[4 * at - 1] : 0u;
  const std::uint32_t right = u + 1 < k.units ? words[4 * at + 4] : 0u;
  const uint4 ym = src[at - k.units], yp = src[at + k.units];
  const uint4 zm = src[at - k.plane_units], zp = src[at + k.plane_units];
  uint4 v;
  v.x = combine(c.x, __funnelshift_l(left, c.x, 1), __funnelshift_r(c.x, c.y, 1), ym.x, yp.x, zm.x, zp.x, k.erode);
  v.y = combine(c.y, __funnelshift_l(c.x, c.y, 1), __funnelshift_r(c.y, c.z, 1), ym.y, yp.y, zm.y, zp.y, k.erode);
  v.z = combine(c.z, __funnelshift_l(c.y, c.z, 1), __funnelshift_r(c.z, c.w, 1), ym.z, yp.z, zm.z, zp.z, k.erode);
  v.w = combine(c.w, __funnelshift_l(c.z, c.w, 1), __funnelshift_r(c.w, right, 1), ym.w, yp.w, zm.w, zp.w, k.erode);
  if (u == k.units - 1) v.w &= k.last_mask;
  dst[at] = in_volume ? v : uint4{0u, 0u, 0u, 0u};
}

// Waits for the grid this launch depends on (programmatic dependent launch, sm_90 and later: the
// launch may start while the previous one finishes) and lets the next launch start.
static __device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}

template <class V>
static __device__ __forceinline__ void morpho_tile(const Steps& a, std::uint32_t* tile) {
  const int centre = a.edge - 2 * a.steps;
  const int y0 = static_cast<int>(blockIdx.x) * centre - a.steps;
  const int z0 = static_cast<int>(blockIdx.y) * centre - a.steps;
  StepShape k;
  k.units = a.words * static_cast<int>(sizeof(std::uint32_t)) / static_cast<int>(sizeof(V));
  k.plane_units = a.edge * k.units;
  k.last_mask = last_word_mask(a.side);
  const int tile_words = a.edge * a.edge * a.words;

  wait_for_previous_grid();
  load_tile<V>(a, tile, y0, z0);
  __syncthreads();

  for (int s = 1; s <= a.steps; ++s) {
    const V* src = reinterpret_cast<const V*>(tile + ((s - 1) & 1) * tile_words);
    V* dst = reinterpret_cast<V*>(tile + (s & 1) * tile_words);
    k.erode = a.erode_first && s == 1;
    sweep_rows(s, a.edge - 2 * s, [&](int yy, int zz) {
      const int y = y0 + yy, z = z0 + zz;
      const bool in_volume = y >= 0 && y < a.side && z >= 0 && z < a.side;
      for (int u = static_cast<int>(threadIdx.x); u < k.units; u += blockDim.x)
        step_unit(src, dst, zz * k.plane_units + yy * k.units + u, u, k, in_volume);
    });
    __syncthreads();
    if (s == 1 && a.erode_first && a.eroded != nullptr)
      store_centre<V>(a, reinterpret_cast<const std::uint32_t*>(dst), a.eroded, y0, z0);
  }

  const std::uint32_t* result = tile + (a.steps & 1) * tile_words;
  if (a.out != nullptr) store_centre<V>(a, result, a.out, y0, z0);
  if (a.count == nullptr) return;
  __shared__ unsigned long long block_count;
  const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  if (tid == 0) block_count = 0;
  __syncthreads();
  atomicAdd(&block_count, count_centre<V>(a, result, y0, z0));
  __syncthreads();
  if (tid == 0) atomicAdd(a.count, block_count);
}

static __global__ void morpho_steps(Steps a) {
  extern __shared__ uint4 tile_storage[];  // two buffers of edge * edge rows of `words` words
  std::uint32_t* tile = reinterpret_cast<std::uint32_t*>(tile_storage);
  if (a.words % 4 == 0) morpho_tile<uint4>(a, tile);
  else morpho_tile<std::uint32_t>(a, tile);
}

// One thread per voxel of a row padded to W * 32: a warp's ballot is one word.
static __global__ void pack_volume(const std::uint8_t* in, std::uint32_t* out, int side, int words) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const std::size_t row = static_cast<std::size_t>(blockIdx.z) * side + blockIdx.y;
  const bool set = x < side && in[row * side + x] != 0;
  const std::uint32_t word = __ballot_sync(0xffffffffu, set);
  if (threadIdx.x % 32 == 0 && x / 32 < words) out[row * words + x / 32] = word;
}

static __global__ void unpack_volume(const std::uint32_t* in, std::uint8_t* out, int side, int words) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= side) return;
  const std::size_t row = static_cast<std::size_t>(blockIdx.z) * side + blockIdx.y;
  out[row * side + x] = static_cast<std::uint8_t>((in[row * words + x / 32] >> (x % 32)) & 1u);
}

/// The openings of one volume on the packed form: pack on arrival, openings first..last (each
/// erodes the carried volume once more, then dilates it k times and counts), unpack the carried
/// volume. All work is enqueued on the caller's stream; nothing synchronises.
class Openings {
 public:
  static constexpr int kEdge = PACKED_TILE_EDGE;       // tile rows on a side, halo included
  static constexpr int kMaxSteps = PACKED_TILE_STEPS;  // steps fused per launch (the halo)

  /// Allocates for a volume of side^3 voxels; edge and max_steps choose the tiling (the defaults
  /// unless a benchmark sweeps them). Returns CUDA's error where one fails.
  cudaError_t init(int side, int edge = kEdge, int max_steps = kMaxSteps) {
    side_ = side;
    words_ = (side + 31) / 32;
    words_total_ = static_cast<std::size_t>(side) * side * words_;
    const void* kernel = reinterpret_cast<const void*>(&morpho_steps);
    int device = 0, optin = 0;
    cudaFuncAttributes attributes{};
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attributes, kernel);
    if (e != cudaSuccess) return e;
    optin -= static_cast<int>(attributes.sharedSizeBytes);  // the dynamic part's limit
    // Shrink the tile until two buffers fit, keeping a centre of at least one row.
    edge_ = std::min(edge, side + 2 * max_steps);
    max_steps_ = max_steps;
    while (edge_ > 3 && shared_bytes(edge_) > static_cast<std::size_t>(optin)) --edge_;
    max_steps_ = std::max(1, std::min(max_steps_, (edge_ - 1) / 2));
    if (shared_bytes(edge_) > static_cast<std::size_t>(optin)) return cudaErrorInvalidConfiguration;
    e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
    int major = 0;
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    dependent_launches_ = major >= 9;
    for (std::uint32_t*& p : buffers_)
      if (e == cudaSuccess) e = cudaMalloc(&p, words_total_ * sizeof(std::uint32_t));
    return e;
  }

  Openings() = default;
  Openings(const Openings&) = delete;
  Openings& operator=(const Openings&) = delete;
  ~Openings() {
    for (std::uint32_t* p : buffers_) cudaFree(p);
  }

  /// Packs a side^3 uint8 volume (non-zero: set) as the carried volume. Returns the launch's error.
  cudaError_t pack(const std::uint8_t* volume, cudaStream_t stream) {
    carried_ = 0;
    pack_volume<<<row_grid(), kRowThreads, 0, stream>>>(volume, buffers_[carried_], side_, words_);
    return cudaGetLastError();
  }

  /// Openings first..last: counts[k - 1] = voxels left by opening k (int64, zeroed first: the
  /// caller's array has `count_slots` elements). The carried volume ends eroded `last` times.
  /// Returns the first error of the enqueued work.
  cudaError_t run(int first, int last, std::int64_t* counts, std::size_t count_slots, cudaStream_t stream) {
    cudaError_t e = cudaMemsetAsync(counts, 0, count_slots * sizeof(std::int64_t), stream);
    for (int k = first; k <= last; ++k) {
      unsigned long long* count = reinterpret_cast<unsigned long long*>(counts + (k - 1));
      const std::uint32_t* in = buffers_[carried_];
      const int eroded = 1 - carried_;
      int left = k + 1;  // one erosion, k dilations
      int work = 2;      // buffers 2 and 3 take turns for the dilations between launches
      bool first_launch = true;
      while (left > 0) {
        const int steps = std::min(left, max_steps_);
        left -= steps;
        Steps a;
        a.in = in;
        a.side = side_;
        a.words = words_;
        a.edge = std::min(edge_, side_ + 2 * steps);
        a.steps = steps;
        a.erode_first = first_launch;
        a.eroded = first_launch ? buffers_[eroded] : nullptr;
        const bool only_erosion = first_launch && steps == 1;
        if (left == 0) a.count = count;
        else if (!only_erosion) a.out = buffers_[work];
        if (e == cudaSuccess) e = launch(a, stream);
        if (left > 0) {
          in = only_erosion ? buffers_[eroded] : buffers_[work];
          if (!only_erosion) work = 5 - work;
        }
        first_launch = false;
      }
      carried_ = eroded;
    }
    return e;
  }

  /// Unpacks the carried volume into a side^3 uint8 volume (0 or 1). Returns the launch's error.
  cudaError_t unpack(std::uint8_t* volume, cudaStream_t stream) const {
    unpack_volume<<<row_grid(), kRowThreads, 0, stream>>>(buffers_[carried_], volume, side_, words_);
    return cudaGetLastError();
  }

  int edge() const { return edge_; }
  int max_steps() const { return max_steps_; }

 private:
  static constexpr unsigned kRowThreads = 256;
  static constexpr unsigned kTileThreads = 512;

  std::size_t shared_bytes(int edge) const {
    return 2 * static_cast<std::size_t>(edge) * edge * words_ * sizeof(std::uint32_t);
  }

  dim3 row_grid() const {
    const unsigned padded = static_cast<unsigned>(words_) * 32;
    return dim3((padded + kRowThreads - 1) / kRowThreads, static_cast<unsigned>(side_),
                static_cast<unsigned>(side_));
  }

  // A tile launch; on sm_90 and later a programmatic dependent launch, so that it starts while
  // the previous tile launch finishes (morpho_steps waits for it before reading).
  cudaError_t launch(const Steps& a, cudaStream_t stream) const {
    const int centre = a.edge - 2 * a.steps;
    const unsigned tiles = static_cast<unsigned>((side_ + centre - 1) / centre);
    const int units = words_ % 4 == 0 ? words_ / 4 : words_;  // uint4 or single words
    const unsigned x = static_cast<unsigned>(std::min(units, 32));
    cudaLaunchAttribute dependent{};
    dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    dependent.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(tiles, tiles);
    config.blockDim = dim3(x, kTileThreads / x);
    config.dynamicSmemBytes = shared_bytes(a.edge);
    config.stream = stream;
    config.attrs = &dependent;
    config.numAttrs = dependent_launches_ ? 1 : 0;
    Steps args = a;
    void* params[] = {&args};
    return cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(&morpho_steps), params);
  }

  int side_ = 0, words_ = 0, edge_ = 0, max_steps_ = 0;
  bool dependent_launches_ = false;
  std::size_t words_total_ = 0;
  std::uint32_t* buffers_[4] = {nullptr, nullptr, nullptr, nullptr};  // carried (2 turns), work (2 turns)
  int carried_ = 0;
};

}  // namespace packed
