// divisible_bench: the report's experiment on real GPUs (compiler/mapping/divisible.hpp
// has the model). A load of --mib MiB in pinned host memory is split over N GPUs (N = 1 .. every
// GPU visible) and sent in m installments (m = 1 .. --max-m) by algorithm C (copy then compute,
// one stream), F (m equal chunks, copies on one stream, kernels on another, an event between),
// P (geometric chunks of ratio ρ = Tcp / c) and M (N >= 2: a daisy chain host -> GPU N-1 -> ... ->
// GPU 0 through cudaMemcpyPeerAsync, then m-1 geometric installments from the host). The kernel
// does `iters` dependent FMAs per float, iters calibrated so that computing a byte takes β times
// as long as copying it to one GPU alone. --logical-gpus N lays N GPUs round robin over the visible
// ones: every schedule (M's chain too) then runs where fewer GPUs are lent, its times meaningless.
// Each configuration runs once to warm up, then --reps times; the median is printed with the closed
// forms (one JSON object a line):
//   {"kind":"platform", ...}  the measured b, B(N), o and the device
//   {"kind":"beta", ...}      a calibrated β: target, iters, measured Tcp
//   {"kind":"run", "algorithm", "n", "m", "beta", "measured_ms", "model_ms", "model_o_ms",
//    "ratio", "model_holds"}   model_ms: the report's (o = 0), model_o_ms: with the measured o;
//                              ratio = measured / model_o
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                 \
  do {                                                                   \
    cudaError_t err_ = (call);                                           \
    if (err_ != cudaSuccess) {                                           \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(err_));                            \
      std::exit(1);                                                      \
    }                                                                    \
  } while (0)

namespace {

__global__ void work(float* data, long long count, int iters) {
  long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    float v = data[i];
    for (int k = 0; k < iters; ++k) v = fmaf(v, 0.999f, 0.001f);
    data[i] = v;
  }
}

float host_work(float v, int iters) {
  for (int k = 0; k < iters; ++k) v = std::fmaf(v, 0.999f, 0.001f);
  return v;
}

struct Gpu {
  int device = 0;
  float* buffer = nullptr;  // 2 L: relays and installments never overlap
  cudaStream_t copy = nullptr, compute = nullptr;
  std::vector<cudaEvent_t> events;
  int blocks = 0;
};

std::vector<Gpu> gpus;
float* host = nullptr;
long long load_floats = 0;

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void sync_all(int n) {
  for (int j = 0; j < n; ++j) {
    CHECK_CUDA(cudaSetDevice(gpus[j].device));
    CHECK_CUDA(cudaDeviceSynchronize());
  }
}

cudaEvent_t event(Gpu& g, std::size_t i) {
  while (g.events.size() <= i) {
    cudaEvent_t e;
    CHECK_CUDA(cudaSetDevice(g.device));
    CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    g.events.push_back(e);
  }
  return g.events[i];
}

void launch(Gpu& g, cudaStream_t s, long long offset, long long count, int iters) {
  work<<<g.blocks, 256, 0, s>>>(g.buffer + offset, count, iters);
  CHECK_CUDA(cudaGetLastError());
}

/// Float counts of chunks of the given weights summing to total (cumulative rounding).
std::vector<long long> split(const std::vector<double>& weights, long long total) {
  double sum = 0;
  for (double w : weights) sum += w;
  std::vector<long long> counts;
  double acc = 0;
  long long given = 0;
  for (double w : weights) {
    acc += w;
    long long upto = std::llround(acc / sum * static_cast<double>(total));
    counts.push_back(upto - given);
    given = upto;
  }
  return counts;
}

std::vector<double> geometric(double rho, int m) {
  std::vector<double> w(m);
  for (int i = 0; i < m; ++i) w[i] = rho > 1 ? std::pow(rho, i - (m - 1)) : std::pow(rho, i);
  return w;
}

/// Enqueues one run of C, F or P on n GPUs; the chunks are each GPU's (equal shares).
void run_cfp(char algorithm, int n, const std::vector<long long>& chunks, int iters) {
  long long share = load_floats / n;
  for (int j = 0; j < n; ++j) {
    Gpu& g = gpus[j];
    CHECK_CUDA(cudaSetDevice(g.device));
    long long offset = 0;
    for (std::size_t k = 0; k < chunks.size(); ++k) {
      long long count = chunks[k];
      const float* src = host + j * share + offset;
      if (algorithm == 'C') {
        CHECK_CUDA(
            cudaMemcpyAsync(g.buffer + offset, src, count * 4, cudaMemcpyHostToDevice, g.copy));
        launch(g, g.copy, offset, count, iters);
      } else {
        CHECK_CUDA(
            cudaMemcpyAsync(g.buffer + offset, src, count * 4, cudaMemcpyHostToDevice, g.copy));
        CHECK_CUDA(cudaEventRecord(event(g, k), g.copy));
        CHECK_CUDA(cudaStreamWaitEvent(g.compute, event(g, k), 0));
        launch(g, g.compute, offset, count, iters);
      }
      offset += count;
    }
  }
}

/// M on n >= 2 GPUs: relays[i] floats in interval i, then the installments of every GPU.
void run_m(int n, const std::vector<long long>& relays, const std::vector<long long>& inst,
           int iters) {
  std::vector<long long> relay_offset(n, 0);
  for (int i = 1; i < n; ++i) relay_offset[i] = relay_offset[i - 1] + relays[i - 1];
  long long inst_base = relay_offset[n - 1] + relays[n - 1];
  // events: [i] the receipt of relay i, [n + k] the receipt of installment k.
  for (int i = 0; i < n; ++i) {
    for (int j = n - 1; j >= n - 1 - i; --j) {
      Gpu& g = gpus[j];
      CHECK_CUDA(cudaSetDevice(g.device));
      if (j == n - 1) {
        CHECK_CUDA(cudaMemcpyAsync(g.buffer + relay_offset[i], host + relay_offset[i],
                                   relays[i] * 4, cudaMemcpyHostToDevice, g.copy));
      } else {
        Gpu& up = gpus[j + 1];
        CHECK_CUDA(cudaStreamWaitEvent(g.copy, event(up, i - 1), 0));
        // The first relays[i] floats of what gpu j+1 received in interval i-1.
        CHECK_CUDA(cudaMemcpyPeerAsync(g.buffer + relay_offset[i], g.device,
                                       up.buffer + relay_offset[i - 1], up.device, relays[i] * 4,
                                       g.copy));
      }
      CHECK_CUDA(cudaEventRecord(event(g, i), g.copy));
    }
  }
  for (int j = 0; j < n; ++j) {
    Gpu& g = gpus[j];
    CHECK_CUDA(cudaSetDevice(g.device));
    // Kept parts: in interval i, what was not forwarded of relay i-1.
    for (int i = n - j; i < n; ++i) {
      CHECK_CUDA(cudaStreamWaitEvent(g.compute, event(g, i - 1), 0));
      launch(g, g.compute, relay_offset[i - 1] + relays[i], relays[i - 1] - relays[i], iters);
    }
    CHECK_CUDA(cudaStreamWaitEvent(g.compute, event(g, n - 1), 0));
    launch(g, g.compute, relay_offset[n - 1], relays[n - 1], iters);
    if (j != n - 1) CHECK_CUDA(cudaStreamWaitEvent(g.copy, event(gpus[n - 1], n - 1), 0));
    long long offset = inst_base;
    for (std::size_t k = 0; k < inst.size(); ++k) {
      CHECK_CUDA(cudaMemcpyAsync(g.buffer + offset, host + offset, inst[k] * 4,
                                 cudaMemcpyHostToDevice, g.copy));
      CHECK_CUDA(cudaEventRecord(event(g, n + k), g.copy));
      CHECK_CUDA(cudaStreamWaitEvent(g.compute, event(g, n + k), 0));
      launch(g, g.compute, offset, inst[k], iters);
      offset += inst[k];
    }
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

/// The median over reps of a run on n GPUs (after one warm-up).
template <typename F>
double time_ms(int n, int reps, F enqueue) {
  std::vector<double> t;
  for (int r = 0; r <= reps; ++r) {
    sync_all(n);
    double start = now_ms();
    enqueue();
    sync_all(n);
    if (r > 0) t.push_back(now_ms() - start);
  }
  return median(t);
}

double kernel_ms(int iters, int reps) {
  Gpu& g = gpus[0];
  return time_ms(1, reps, [&] { launch(g, g.compute, 0, load_floats, iters); });
}

}  // namespace

int main(int argc, char** argv) {
  double mib = 128;
  int max_m = 16, reps = 5, max_n = 0, logical = 0;
  std::vector<double> betas = {0.1, 0.5, 1, 2, 10, 100};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "divisible_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return std::string(argv[++i]);
    };
    if (a == "--mib")
      mib = std::stod(next());
    else if (a == "--max-m")
      max_m = std::stoi(next());
    else if (a == "--reps")
      reps = std::stoi(next());
    else if (a == "--max-n")
      max_n = std::stoi(next());
    else if (a == "--logical-gpus")
      logical = std::stoi(next());
    else if (a == "--betas") {
      betas.clear();
      std::string s = next();
      for (std::size_t p = 0; p < s.size();) {
        std::size_t q = s.find(',', p);
        betas.push_back(std::stod(s.substr(p, q - p)));
        p = q == std::string::npos ? s.size() : q + 1;
      }
    } else {
      std::fprintf(stderr,
                   "usage: divisible_bench [--mib MiB] [--max-m M] [--reps R] [--max-n N] "
                   "[--betas b1,b2,...]\n");
      return 2;
    }
  }
  int visible = 0;
  CHECK_CUDA(cudaGetDeviceCount(&visible));
  // --logical-gpus N: N GPUs laid round robin over the visible ones, to run every schedule (M's
  // chain included) where fewer GPUs are lent; its times say nothing of N real GPUs.
  int top = logical > 0 ? logical : max_n > 0 ? std::min(max_n, visible) : visible;
  load_floats = static_cast<long long>(mib * 1024 * 1024 / 4);
  CHECK_CUDA(cudaMallocHost(&host, load_floats * 2 * 4));
  for (long long i = 0; i < load_floats * 2; ++i)
    host[i] = 0.5f + 0.25f * ((i * 7919) % 1000) / 1000.0f;
  gpus.resize(top);
  for (int j = 0; j < top; ++j) {
    Gpu& g = gpus[j];
    g.device = j % visible;
    CHECK_CUDA(cudaSetDevice(g.device));
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, g.device));
    g.blocks = prop.multiProcessorCount * 8;
    CHECK_CUDA(cudaMalloc(&g.buffer, load_floats * 2 * 4));
    CHECK_CUDA(cudaStreamCreateWithFlags(&g.copy, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamCreateWithFlags(&g.compute, cudaStreamNonBlocking));
    for (int k = 0; k < visible && j < visible && k < top; ++k) {
      int can = 0;
      if (k != j) CHECK_CUDA(cudaDeviceCanAccessPeer(&can, j, k));
      if (can) CHECK_CUDA(cudaDeviceEnablePeerAccess(k, 0));
    }
  }
  cudaDeviceProp prop0;
  CHECK_CUDA(cudaGetDeviceProperties(&prop0, 0));
  const double bytes = static_cast<double>(load_floats) * 4;

  // b: one GPU alone; B(n): n GPUs each copying L/n at once; o: a tiny copy plus an empty kernel.
  auto h2d = [&](int n) {
    return time_ms(n, reps, [&] {
      for (int j = 0; j < n; ++j) {
        CHECK_CUDA(cudaSetDevice(gpus[j].device));
        long long share = load_floats / n;
        CHECK_CUDA(cudaMemcpyAsync(gpus[j].buffer, host + j * share, share * 4,
                                   cudaMemcpyHostToDevice, gpus[j].copy));
      }
    });
  };
  double copy_ms = h2d(1);
  double b = bytes / (copy_ms * 1e-3);
  std::vector<double> aggregate(top + 1, b);
  for (int n = 2; n <= top; ++n) aggregate[n] = bytes / (h2d(n) * 1e-3);
  double peer = 0;
  if (top >= 2) {
    peer = bytes / (time_ms(2, reps,
                            [&] {
                              CHECK_CUDA(cudaSetDevice(gpus[0].device));
                              CHECK_CUDA(cudaMemcpyPeerAsync(gpus[0].buffer, gpus[0].device,
                                                             gpus[1].buffer, gpus[1].device,
                                                             load_floats * 4, gpus[0].copy));
                            }) *
                    1e-3);
  }
  const int pairs = 200;
  double o_ms =
      time_ms(1, reps,
              [&] {
                Gpu& g = gpus[0];
                CHECK_CUDA(cudaSetDevice(0));
                for (int k = 0; k < pairs; ++k) {
                  CHECK_CUDA(cudaMemcpyAsync(g.buffer, host, 4, cudaMemcpyHostToDevice, g.copy));
                  launch(g, g.copy, 0, 0, 0);
                }
              }) /
      (2 * pairs);
  std::printf(
      "{\"kind\":\"platform\",\"device\":\"%s\",\"visible\":%d,\"bytes\":%.0f,\"h2d_gbps\":%.3f,"
      "\"peer_gbps\":%.3f,\"o_us\":%.3f,\"logical_gpus\":%d,\"aggregate_gbps\":[",
      prop0.name, visible, bytes, b / 1e9, peer / 1e9, o_ms * 1e3, logical);
  for (int n = 1; n <= top; ++n) std::printf("%s%.3f", n > 1 ? "," : "", aggregate[n] / 1e9);
  std::printf("]}\n");
  std::fflush(stdout);

  // Correctness of the kernel once: F on one GPU, m = 3, against the host.
  {
    const int iters = 37;
    run_cfp('F', 1, split({1, 1, 1}, load_floats), iters);
    sync_all(1);
    std::vector<float> back(4096);
    CHECK_CUDA(cudaMemcpy(back.data(), gpus[0].buffer + load_floats - 4096, 4096 * 4,
                          cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4096; ++i) {
      float want = host_work(host[load_floats - 4096 + i], iters);
      if (std::fabs(back[i] - want) > 1e-5f * std::fabs(want)) {
        std::fprintf(stderr, "divisible_bench: wrong result at %d: %g, expected %g\n", i, back[i],
                     want);
        return 1;
      }
    }
  }

  for (double target : betas) {
    // The smallest iters whose kernel over L takes at least β times the copy of L.
    double want = target * copy_ms;
    int lo = 0, hi = 1;
    while (kernel_ms(hi, 3) < want) lo = hi, hi *= 2;
    while (hi - lo > 1) {
      int mid = (lo + hi) / 2;
      (kernel_ms(mid, 3) < want ? lo : hi) = mid;
    }
    int iters = hi;
    double kms = kernel_ms(iters, reps);
    double beta = kms / copy_ms;
    double tcp = kms * 1e-3 / bytes;  // s per byte
    int r = target >= 50 ? std::max(1, reps - 2) : reps;
    std::printf(
        "{\"kind\":\"beta\",\"target\":%g,\"iters\":%d,\"beta\":%.4f,\"kernel_ms\":%.4f,"
        "\"copy_ms\":%.4f}\n",
        target, iters, beta, kms, copy_ms);
    std::fflush(stdout);
    for (int n = 1; n <= top; ++n) {
      double c = std::max(1 / b, n / aggregate[n]);
      double rho = tcp / c, l = bytes / n, o = o_ms * 1e-3;
      for (char alg : {'C', 'F', 'P', 'M'}) {
        if (alg == 'M' && n < 2) continue;
        for (int m = 1; m <= max_m; ++m) {
          double model0 = 0, model_o = 0;
          bool holds = true;
          double measured = 0;
          if (alg == 'M') {
            // The report's chain: q = 1 + 1/β' (β' = Tcp · peer), installments ρ^k x.
            double q = 1 + 1 / (tcp * peer), kept = 0, qj = 1, inst = 0, rk = 1;
            for (int j = 0; j < n; ++j, qj *= q) kept += qj;
            std::vector<double> iw;
            for (int k = 1; k < m; ++k) iw.push_back(rk *= rho), inst += rk;
            double x = bytes / 4 / (kept + n * inst);
            std::vector<long long> relays(n);
            for (int i = n - 1; i >= 0; --i) relays[i] = std::llround(x * std::pow(q, n - 1 - i));
            std::vector<long long> ic;
            for (double w : iw) ic.push_back(std::llround(x * w));
            measured = time_ms(n, r, [&] { run_m(n, relays, ic, iters); });
            // (5.7) in units of 1/b, exact only on a shared bus with peers at b and o = 0.
            double bb = tcp * b, rr = bb / n, qq = 1 + 1 / bb, s = 0, rp = 1;
            for (int k = 0; k + 1 < m; ++k, rp *= rr) s += rp;
            double qn = std::pow(qq, n);
            model0 = model_o = (qn + rr * s) / (qn + s - 1) * bytes / b * 1e3;
            holds = false;
          } else {
            std::vector<double> w = alg == 'P' ? geometric(rho, m) : std::vector<double>(m, 1.0);
            auto chunks = split(w, load_floats / n);
            measured = time_ms(n, r, [&] { run_cfp(alg, n, chunks, iters); });
            double x = l / m;
            if (alg == 'C') {
              model0 = (c + tcp) * l;
              model_o = model0 + 2 * m * o;
            } else if (alg == 'F') {
              model0 = (c + tcp) * x + (m - 1) * std::max(c, tcp) * x;
              model_o = model0 + (m + 1) * o;
            } else {
              double sum = 0;
              for (double v : w) sum += v;
              model0 = c * l * w.front() / sum + tcp * l;
              model_o = model0 + (m + 1) * o;
            }
            model0 *= 1e3;
            model_o *= 1e3;
          }
          std::printf(
              "{\"kind\":\"run\",\"algorithm\":\"%c\",\"n\":%d,\"m\":%d,\"beta_target\":%g,"
              "\"beta\":%.4f,\"measured_ms\":%.4f,\"model_ms\":%.4f,\"model_o_ms\":%.4f,"
              "\"ratio\":%.4f,\"model_holds\":%s}\n",
              alg, n, m, target, beta, measured, model0, model_o, measured / model_o,
              holds ? "true" : "false");
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
