// What a kernel pays for a small token in mapped host memory against device memory, by how it
// touches the token: the cases that decide dfgc's mapped-token rule (runtime/README.md, "Mapped
// tokens"). Each case is a kernel of `blocks` x 256 threads over a token of `bytes`, timed with
// events over `reps` launches on one stream, with the token (a) in device memory, (b) in mapped
// page-locked host memory (cudaHostAllocMapped, the device pointer of dfg::kMapped), and, for
// device memory, (c) followed by the one cudaMemcpyAsync of the token that a copied token costs.
//
//   touch [--reps N] [--blocks B]
// prints one line per case: case=<name> bytes=<n> device_us=<t> mapped_us=<t> copied_us=<t>
// mapped_over_copied=<r>.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "touch: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// One thread writes each word once (a sink's result, a small header).
__global__ void write_once(unsigned long long* token, int words, unsigned long long v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < words) token[i] = v + i;
}

// Every block adds its partial count into one word of the token (a histogram, a count: the
// granulometry's openings).
__global__ void accumulate(unsigned long long* token, int words) {
  __shared__ unsigned long long partial;
  if (threadIdx.x == 0) partial = 0;
  __syncthreads();
  atomicAdd(&partial, 1ull);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&token[blockIdx.x % words], partial);
}

// Every thread reads the whole token (coefficients, parameters read by every thread).
__global__ void read_all(const unsigned long long* token, int words, unsigned long long* sink) {
  unsigned long long s = 0;
  for (int i = 0; i < words; ++i) s += token[i];
  if (s == 0x5eed) sink[0] = s;
}

// Each thread reads one word once (an input consumed element by element).
__global__ void read_once(const unsigned long long* token, int words, unsigned long long* sink) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < words && token[i] == 0x5eed) sink[0] = token[i];
}

struct Case {
  const char* name;
  int bytes;
  bool output;  // the GPU writes it (copied: device -> host after), else reads it (host -> device
                // before)
};

}  // namespace

int main(int argc, char** argv) {
  int reps = 2000, blocks = 1024;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--blocks") && i + 1 < argc) {
      blocks = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: touch [--reps N] [--blocks B]\n");
      return 2;
    }
  }
  const Case cases[] = {{"write_once", 8, true},    {"write_once", 320, true},
                        {"write_once", 4096, true}, {"accumulate", 8, true},
                        {"accumulate", 320, true},  {"read_once", 8, false},
                        {"read_once", 4096, false}, {"read_all", 8, false},
                        {"read_all", 320, false},   {"read_all", 4096, false}};
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  unsigned long long *device, *mapped_host, *mapped, *host, *sink;
  check(cudaMalloc(&device, 4096), "cudaMalloc");
  check(cudaMalloc(&sink, 8), "cudaMalloc");
  check(cudaHostAlloc(&mapped_host, 4096, cudaHostAllocMapped), "cudaHostAlloc mapped");
  check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped), mapped_host, 0),
        "device pointer");
  check(cudaHostAlloc(&host, 4096, cudaHostAllocDefault), "cudaHostAlloc");
  std::memset(mapped_host, 0, 4096);
  std::memset(host, 0, 4096);
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");

  for (const Case& c : cases) {
    const int words = c.bytes / 8;
    const std::string name = c.name;
    auto launch = [&](unsigned long long* token) {
      if (name == "write_once")
        write_once<<<(words + 255) / 256, 256, 0, stream>>>(token, words, 1);
      if (name == "accumulate") accumulate<<<blocks, 256, 0, stream>>>(token, words);
      if (name == "read_all") read_all<<<blocks, 256, 0, stream>>>(token, words, sink);
      if (name == "read_once")
        read_once<<<(words + 255) / 256, 256, 0, stream>>>(token, words, sink);
    };
    auto time = [&](unsigned long long* token, bool copy) {
      for (int warm = 0; warm < 10; ++warm) launch(token);
      check(cudaEventRecord(start, stream), "record");
      for (int r = 0; r < reps; ++r) {
        if (copy && !c.output)
          cudaMemcpyAsync(token, host, c.bytes, cudaMemcpyHostToDevice, stream);
        launch(token);
        if (copy && c.output) cudaMemcpyAsync(host, token, c.bytes, cudaMemcpyDeviceToHost, stream);
      }
      check(cudaEventRecord(stop, stream), "record");
      check(cudaEventSynchronize(stop), "synchronize");
      check(cudaGetLastError(), name.c_str());
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
      return 1000.0 * ms / reps;
    };
    const double on_device = time(device, false);
    const double on_host = time(mapped, false);
    const double copied = time(device, true);
    std::printf(
        "case=%s bytes=%d blocks=%d device_us=%.3f mapped_us=%.3f copied_us=%.3f "
        "mapped_over_copied=%.3f\n",
        c.name, c.bytes, name == "write_once" || name == "read_once" ? (words + 255) / 256 : blocks,
        on_device, on_host, copied, on_host / copied);
  }
  return 0;
}
