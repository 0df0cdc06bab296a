// packed_check: the packed openings of samples/granulometry/actors (packed_morphology.cuh) against
// the unpacked definition, on random volumes, then their time per 256^3 volume.
//
//   packed_check [--seed N] [--csv FILE]
//
// Checks, each on fresh random volumes (noise of several densities, and balls with noise, so that
// erosions leave something for many openings):
//   - the curve of 40 openings equals the CPU's unpacked curve (uint8 voxels, min / max over the
//     6-neighbour cross, outside voxels empty: the definition of openings.cuh) for sides up to 100,
//     and the unpacked GPU kernels' curve (the actors' former code) for larger sides;
//   - the split between the head and the tail: openings 1..s, the carried volume unpacked to
//     uint8, packed again, openings s+1..40 give the same curve, and the unpacked volume equals the
//     CPU's s-times eroded volume;
//   - every tiling that the timing sweeps gives the same curve.
// Then it times pack + 40 openings of a 256^3 volume of balls (as the Reader makes) with CUDA
// events, for each tiling, and the unpacked kernels once. Exit status 1 on any mismatch.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "../../samples/granulometry/actors/packed_morphology.cuh"

namespace {

#define CHECK(expr)                                                                               \
  do {                                                                                            \
    const cudaError_t e_ = (expr);                                                                \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, cudaGetErrorString(e_)); \
      std::exit(2);                                                                               \
    }                                                                                             \
  } while (0)

constexpr int kOpenings = 40;
cudaStream_t stream = nullptr;  // a stream of its own, as the actors get
using Volume = std::vector<std::uint8_t>;
using Curve = std::vector<std::int64_t>;

// --- the unpacked definition on the CPU
// -------------------------------------------------------------
Volume cpu_step(const Volume& in, int side, bool erode) {
  Volume out(in.size());
  auto at = [&](int x, int y, int z) -> std::uint8_t {
    if (x < 0 || x >= side || y < 0 || y >= side || z < 0 || z >= side) return 0;
    return in[(static_cast<std::size_t>(z) * side + y) * side + x];
  };
  for (int z = 0; z < side; ++z)
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x) {
        std::uint8_t v = at(x, y, z);
        const std::uint8_t n[6] = {at(x + 1, y, z), at(x - 1, y, z), at(x, y + 1, z),
                                   at(x, y - 1, z), at(x, y, z + 1), at(x, y, z - 1)};
        for (std::uint8_t w : n) v = erode ? std::min(v, w) : std::max(v, w);
        out[(static_cast<std::size_t>(z) * side + y) * side + x] = v;
      }
  return out;
}

// Curve of openings first..last from `start`; `eroded` ends eroded `last` times.
Curve cpu_curve(Volume start, int side, int first, int last, Volume* eroded = nullptr) {
  Curve curve(kOpenings, 0);
  for (int k = first; k <= last; ++k) {
    start = cpu_step(start, side, true);
    Volume v = start;
    for (int d = 0; d < k; ++d) v = cpu_step(v, side, false);
    curve[k - 1] = std::count_if(v.begin(), v.end(), [](std::uint8_t b) { return b != 0; });
  }
  if (eroded) *eroded = start;
  return curve;
}

// --- the unpacked definition on the GPU (the actors' former kernels)
// --------------------------------
__global__ void unpacked_step(const std::uint8_t* in, std::uint8_t* out, int side, bool erode) {
  const std::size_t n = static_cast<std::size_t>(side) * side * side;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int x = static_cast<int>(i % side), y = static_cast<int>(i / side % side);
  const int z = static_cast<int>(i / (static_cast<std::size_t>(side) * side));
  std::uint8_t v = in[i];
  const int dx[6] = {1, -1, 0, 0, 0, 0}, dy[6] = {0, 0, 1, -1, 0, 0}, dz[6] = {0, 0, 0, 0, 1, -1};
  for (int d = 0; d < 6; ++d) {
    const int a = x + dx[d], b = y + dy[d], c = z + dz[d];
    const bool inside = a >= 0 && a < side && b >= 0 && b < side && c >= 0 && c < side;
    const std::uint8_t w = inside ? in[(static_cast<std::size_t>(c) * side + b) * side + a] : 0;
    v = erode ? (w < v ? w : v) : (w > v ? w : v);
  }
  out[i] = v;
}

__global__ void unpacked_count(const std::uint8_t* in, std::size_t n, unsigned long long* count) {
  unsigned long long c = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    c += in[i] != 0;
  atomicAdd(count, c);
}

struct UnpackedGpu {
  int side;
  std::size_t n;
  std::uint8_t *eroded, *work[2];
  unsigned long long* counts;
  explicit UnpackedGpu(int s) : side(s), n(static_cast<std::size_t>(s) * s * s) {
    CHECK(cudaMalloc(&eroded, n));
    CHECK(cudaMalloc(&work[0], n));
    CHECK(cudaMalloc(&work[1], n));
    CHECK(cudaMalloc(&counts, kOpenings * sizeof(unsigned long long)));
  }
  ~UnpackedGpu() {
    cudaFree(eroded);
    cudaFree(work[0]);
    cudaFree(work[1]);
    cudaFree(counts);
  }
  void enqueue(const std::uint8_t* volume, cudaStream_t s) {
    const unsigned threads = 256, blocks = static_cast<unsigned>((n + threads - 1) / threads);
    CHECK(cudaMemcpyAsync(eroded, volume, n, cudaMemcpyDeviceToDevice, s));
    CHECK(cudaMemsetAsync(counts, 0, kOpenings * sizeof(unsigned long long), s));
    for (int k = 1; k <= kOpenings; ++k) {
      unpacked_step<<<blocks, threads, 0, s>>>(eroded, work[0], side, true);
      CHECK(cudaMemcpyAsync(eroded, work[0], n, cudaMemcpyDeviceToDevice, s));
      for (int d = 0; d < k; ++d)
        unpacked_step<<<blocks, threads, 0, s>>>(work[d % 2], work[(d + 1) % 2], side, false);
      unpacked_count<<<264, 256, 0, s>>>(work[k % 2], n, counts + (k - 1));
    }
    CHECK(cudaGetLastError());
  }
  Curve curve(const std::uint8_t* volume) {
    enqueue(volume, nullptr);
    std::vector<unsigned long long> c(kOpenings);
    CHECK(cudaMemcpy(c.data(), counts, c.size() * sizeof(c[0]), cudaMemcpyDeviceToHost));
    return Curve(c.begin(), c.end());
  }
};

// --- random volumes
// ---------------------------------------------------------------------------------
Volume noise(int side, double density, std::mt19937_64& rng) {
  Volume v(static_cast<std::size_t>(side) * side * side);
  std::bernoulli_distribution set(density);
  std::uniform_int_distribution<int> value(1, 255);  // any non-zero value is a set voxel
  for (auto& b : v) b = set(rng) ? static_cast<std::uint8_t>(value(rng)) : 0;
  return v;
}

Volume balls(int side, int count, double flip, std::mt19937_64& rng) {
  Volume v(static_cast<std::size_t>(side) * side * side, 0);
  std::uniform_real_distribution<double> pos(0, side), radius(1, std::max(2.0, side / 4.0));
  for (int b = 0; b < count; ++b) {
    const double cx = pos(rng), cy = pos(rng), cz = pos(rng), r = radius(rng);
    const int lo_z = std::max(0, static_cast<int>(cz - r)),
              hi_z = std::min(side - 1, static_cast<int>(cz + r));
    const int lo_y = std::max(0, static_cast<int>(cy - r)),
              hi_y = std::min(side - 1, static_cast<int>(cy + r));
    const int lo_x = std::max(0, static_cast<int>(cx - r)),
              hi_x = std::min(side - 1, static_cast<int>(cx + r));
    for (int z = lo_z; z <= hi_z; ++z)
      for (int y = lo_y; y <= hi_y; ++y)
        for (int x = lo_x; x <= hi_x; ++x)
          if ((x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz) <= r * r)
            v[(static_cast<std::size_t>(z) * side + y) * side + x] = 1;
  }
  std::bernoulli_distribution flip_one(flip);
  for (auto& b : v)
    if (flip_one(rng)) b = b ? 0 : 1;
  return v;
}

// The Reader's volume v (samples/granulometry/actors/reader.hpp).
Volume reader_volume(int side, int v) {
  Volume volume(static_cast<std::size_t>(side) * side * side);
  const std::size_t cell = 32, radius = 4 + static_cast<std::size_t>(v),
                    s = static_cast<std::size_t>(side);
  auto d = [&](std::size_t c) { return c > cell / 2 ? c - cell / 2 : cell / 2 - c; };
  for (std::size_t i = 0; i < volume.size(); ++i) {
    std::size_t x = i % s % cell, y = i / s % s % cell, z = i / (s * s) % cell;
    volume[i] = d(x) * d(x) + d(y) * d(y) + d(z) * d(z) <= radius * radius ? 1 : 0;
  }
  return volume;
}

// --- the packed openings
// ----------------------------------------------------------------------------
struct Tiling {
  int edge, steps;
};
const Tiling kTilings[] = {{24, 4},  {32, 4},  {28, 5}, {32, 6}, {36, 6}, {40, 8},
                           {48, 10}, {56, 12}, {20, 3}, {24, 2}, {32, 1}};

struct Device {
  std::uint8_t* volume = nullptr;
  std::uint8_t* eroded = nullptr;
  std::int64_t* counts = nullptr;
  std::size_t n = 0;
  explicit Device(std::size_t voxels) : n(voxels) {
    CHECK(cudaMalloc(&volume, n));
    CHECK(cudaMalloc(&eroded, n));
    CHECK(cudaMalloc(&counts, kOpenings * sizeof(std::int64_t)));
  }
  ~Device() {
    cudaFree(volume);
    cudaFree(eroded);
    cudaFree(counts);
  }
};

Curve download(const std::int64_t* counts) {
  Curve c(kOpenings);
  CHECK(cudaMemcpy(c.data(), counts, c.size() * sizeof(c[0]), cudaMemcpyDeviceToHost));
  return c;
}

// Packed curve of openings 1..40 (tiling t); with split > 0, as the head (1..split) then the tail.
Curve packed_curve(const Volume& v, int side, Tiling t, int split, Volume* eroded_at_split) {
  Device d(v.size());
  packed::Openings o;
  CHECK(o.init(side, t.edge, t.steps));
  CHECK(cudaMemcpy(d.volume, v.data(), v.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d.counts, 0xA5, kOpenings * sizeof(std::int64_t)));  // poisoned: run zeroes it
  if (split == 0) {
    CHECK(o.pack(d.volume, stream));
    CHECK(o.run(1, kOpenings, d.counts, kOpenings, stream));
    CHECK(cudaStreamSynchronize(stream));
    return download(d.counts);
  }
  CHECK(cudaMemset(d.eroded, 0xA5, v.size()));  // poisoned: unpack writes every voxel
  CHECK(o.pack(d.volume, stream));
  CHECK(o.run(1, split, d.counts, kOpenings, stream));
  CHECK(o.unpack(d.eroded, stream));
  CHECK(cudaStreamSynchronize(stream));
  Curve head = download(d.counts);
  eroded_at_split->resize(v.size());
  CHECK(cudaMemcpy(eroded_at_split->data(), d.eroded, v.size(), cudaMemcpyDeviceToHost));
  packed::Openings tail;
  CHECK(tail.init(side, t.edge, t.steps));
  CHECK(tail.pack(d.eroded, stream));
  CHECK(tail.run(split + 1, kOpenings, d.counts, kOpenings, stream));
  CHECK(cudaStreamSynchronize(stream));
  Curve rest = download(d.counts);
  for (int k = 0; k < kOpenings; ++k) head[k] += rest[k];
  return head;
}

int failures = 0;

void expect_equal(const Curve& got, const Curve& want, const std::string& what) {
  if (got == want) return;
  ++failures;
  std::printf("MISMATCH %s\n", what.c_str());
  for (int k = 0; k < kOpenings; ++k)
    if (got[k] != want[k])
      std::printf("  opening %d: packed %lld, unpacked %lld\n", k + 1,
                  static_cast<long long>(got[k]), static_cast<long long>(want[k]));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed =
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  const char* csv_path = nullptr;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
      seed = std::strtoull(argv[++a], nullptr, 10);
    else if (std::strcmp(argv[a], "--csv") == 0 && a + 1 < argc)
      csv_path = argv[++a];
    else {
      std::fprintf(stderr, "usage: packed_check [--seed N] [--csv FILE]\n");
      return 2;
    }
  }
  std::printf("packed_check: seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  CHECK(cudaStreamCreate(&stream));

  // 1. Against the CPU, small sides (every boundary case of the packing: 1, under, at, over 32).
  int checks = 0;
  for (int side : {1, 2, 5, 31, 32, 33, 47, 64, 100}) {
    std::vector<Volume> volumes = {balls(side, 6, 0.01, rng)};
    if (side <= 64) {  // the CPU takes seconds a curve at side 100: one volume there
      volumes.push_back(noise(side, 0.5, rng));
      volumes.push_back(noise(side, 0.97, rng));
    }
    for (std::size_t i = 0; i < volumes.size(); ++i) {
      const Volume& v = volumes[i];
      const int split = std::uniform_int_distribution<int>(1, kOpenings - 1)(rng);
      const Curve want = cpu_curve(v, side, 1, kOpenings);
      Volume cpu_split_eroded;
      cpu_curve(v, side, 1, split, &cpu_split_eroded);
      const std::string what = "side " + std::to_string(side) + " volume " + std::to_string(i);
      expect_equal(packed_curve(v, side, kTilings[0], 0, nullptr), want, what + " vs CPU");
      Volume gpu_eroded;
      expect_equal(packed_curve(v, side, kTilings[0], split, &gpu_eroded), want,
                   what + " split " + std::to_string(split) + " vs CPU");
      for (auto& b : cpu_split_eroded) b = b != 0;
      if (gpu_eroded != cpu_split_eroded) {
        ++failures;
        std::printf("MISMATCH %s: the volume eroded %d times\n", what.c_str(), split);
      }
      for (const Tiling& t : kTilings)
        expect_equal(
            packed_curve(v, side, t, 0, nullptr), want,
            what + " tiling " + std::to_string(t.edge) + "/" + std::to_string(t.steps) + " vs CPU");
      checks += 3 + static_cast<int>(std::size(kTilings));
    }
  }
  std::printf("packed_check: CPU comparisons done (%d curves, %d mismatches)\n", checks, failures);

  // 2. Against the unpacked GPU kernels, larger sides.
  for (int side : {97, 128, 130, 256}) {
    UnpackedGpu reference(side);
    Device d(static_cast<std::size_t>(side) * side * side);
    std::vector<Volume> volumes = {noise(side, 0.9, rng), balls(side, 40, 0.02, rng),
                                   reader_volume(side, 7)};
    for (std::size_t i = 0; i < volumes.size(); ++i) {
      const Volume& v = volumes[i];
      CHECK(cudaMemcpy(d.volume, v.data(), v.size(), cudaMemcpyHostToDevice));
      const Curve want = reference.curve(d.volume);
      const std::string what = "side " + std::to_string(side) + " volume " + std::to_string(i);
      const int split = std::uniform_int_distribution<int>(1, kOpenings - 1)(rng);
      Volume gpu_eroded;
      expect_equal(packed_curve(v, side, kTilings[0], split, &gpu_eroded), want,
                   what + " split " + std::to_string(split) + " vs unpacked GPU");
      for (const Tiling& t : kTilings)
        expect_equal(packed_curve(v, side, t, 0, nullptr), want,
                     what + " tiling " + std::to_string(t.edge) + "/" + std::to_string(t.steps) +
                         " vs unpacked GPU");
      checks += 1 + static_cast<int>(std::size(kTilings));
    }
  }
  std::printf("packed_check: %d curves compared, %d mismatches\n", checks, failures);

  // 3. Time per 256^3 volume: pack + 40 openings (the tail's share and the head's unpack are in
  // the dfgc program's time, not here).
  const int side = 256, reps = 30;
  const Volume v = reader_volume(side, 7);
  Device d(v.size());
  CHECK(cudaMemcpy(d.volume, v.data(), v.size(), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  FILE* csv = csv_path ? std::fopen(csv_path, "w") : nullptr;
  if (csv) std::fprintf(csv, "variant,edge,steps,median_ms,min_ms\n");
  std::printf("\n%-22s %6s %6s %10s %10s\n", "variant", "edge", "steps", "median_ms", "min_ms");
  for (const Tiling& t : kTilings) {
    packed::Openings o;
    if (o.init(side, t.edge, t.steps) != cudaSuccess) {
      std::printf("%-22s %6d %6d  (does not fit)\n", "packed", t.edge, t.steps);
      cudaGetLastError();
      continue;
    }
    std::vector<double> ms;
    for (int r = 0; r < reps + 3; ++r) {
      CHECK(cudaEventRecord(start, stream));
      CHECK(o.pack(d.volume, stream));
      CHECK(o.run(1, kOpenings, d.counts, kOpenings, stream));
      CHECK(cudaEventRecord(stop, stream));
      CHECK(cudaEventSynchronize(stop));
      CHECK(cudaGetLastError());
      float f = 0;
      CHECK(cudaEventElapsedTime(&f, start, stop));
      if (r >= 3) ms.push_back(f);
    }
    const double med = median(ms), lo = *std::min_element(ms.begin(), ms.end());
    std::printf("%-22s %6d %6d %10.3f %10.3f\n", "packed", o.edge(), o.max_steps(), med, lo);
    if (csv) std::fprintf(csv, "packed,%d,%d,%.4f,%.4f\n", o.edge(), o.max_steps(), med, lo);
  }
  {
    UnpackedGpu reference(side);
    std::vector<double> ms;
    for (int r = 0; r < 4; ++r) {
      CHECK(cudaEventRecord(start, stream));
      reference.enqueue(d.volume, stream);
      CHECK(cudaEventRecord(stop, stream));
      CHECK(cudaEventSynchronize(stop));
      float f = 0;
      CHECK(cudaEventElapsedTime(&f, start, stop));
      if (r >= 1) ms.push_back(f);
    }
    std::printf("%-22s %6s %6s %10.3f %10.3f\n", "unpacked (former)", "-", "-", median(ms),
                *std::min_element(ms.begin(), ms.end()));
    if (csv)
      std::fprintf(csv, "unpacked,,,%.4f,%.4f\n", median(ms),
                   *std::min_element(ms.begin(), ms.end()));
  }
  if (csv) std::fclose(csv);
  std::printf("\npacked_check: %s on %s (%d curves, %d mismatches)\n",
              failures ? "FAILED" : "passed", prop.name, checks, failures);
  return failures ? 1 : 0;
}
