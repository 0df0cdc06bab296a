// A chain of hosts joined by dfg::mpi transfers, shaped like a generated program: one rank per
// host, the host's CPU worker starts the transfers (dfg::mpi::CycleTransfers) and the rank's
// communication thread makes every MPI call, cycles with (double buffers, transfers in flight
// while the node fires) or without overlap (single buffers, a transfer phase, then a firing
// phase). Host 0 produces token j, every middle host adds 1 to each payload element, the
// last host checks every token: its iteration and every byte, so a lost, duplicated, reordered
// or misplaced message (or chunk) fails the run.
//
// Each hop h -> h+1 carries two transfers: a small token (tag 2h, 256 bytes, sent eagerly by
// MPI) and a large one (tag 2h+1, --big bytes, default 64 KiB + 13, cut into --chunk-byte
// messages).
//
//   mpiexec -n 3 mpi_pipeline --hosts 3 --iterations 1000 [--no-overlap] [--hostmap C=0,A=1,B=2]
//                             [--big BYTES] [--chunk BYTES] [--standard-send] [--staged]
//                             [--fail-host B --fail-thread cpu|gpu --fail-at K] [--long-firing]
//                             [--fire-waits] [--lead] [--count-direct] [--poll-direct]
//                             [--rank-barrier] [--window-copy] [--barrier-check]
//
// With --window-copy the small token's receiver takes the path of a windowed receive into a GPU's
// slot under a CUDA-aware library (Endpoint::copy_window_through): the token goes from the
// window's host buffer into the slot through a StagingCopy, not std::memcpy; the last rank
// reports how many tokens that copy moved.
//
// With --staged the large token takes the path of a gpudirect transfer on a library that is not
// CUDA-aware (dfg::mpi::Staging): MPI sends from and receives into a staging buffer, and a
// StagingCopy moves the token between it and the slot. Here the "device" is host memory and the
// copy XORs every byte with 0x5A on the way out and back on the way in, so a token reaches the
// next host intact only if both copies ran, once each, on the whole token; each rank then
// also reports how many tokens it staged.
//
// With --fire-waits (and overlap) every firing of a receiving host waits, reading memory only,
// until the large token that its cycle receives (the next iteration's, into the other slot) has
// arrived in the slot: it arrives only if the comm thread moves it during the firing (a large
// token travels by rendezvous, which needs MPI calls on both ends after the receive is posted);
// a firing that waits 30 s fails the run.
//
// With --lead (two hosts, tokens of at most dfg::mpi::kWindowMaxBytes: --big 1000) host B's
// firings sleep 2 ms each, and the job checks how far host A's sends run ahead of host B: each
// host notes the time (steady_clock, one clock for every process of a machine) at which it
// started each receive (B) and saw each send complete (A); the lead of token m is m minus the
// last token whose receive B had started by then. With a window W (dfg::mpi::Session::window())
// the lead must be at least 2 (A runs ahead) and at most W (never further); without one
// (DFG_MPI_WINDOW=0: MPI_Issend) at most 0.
//
// With --count-direct each rank also reports how many of the transfers it started were direct
// (dfg::mpi::CycleTransfers::direct_in_flight() right after the cycle's starts): the windowed
// ones where the Session is direct (MPI_THREAD_MULTIPLE), none with DFG_MPI_DIRECT=0. With
// --poll-direct it reports how many direct transfers the poll after a firing completed: none
// (dfg::mpi::CycleTransfers::poll() leaves them to the cycle-end wait()).
//
// With --barrier-check (implies --rank-barrier) each host arrives last at the barrier of every
// cycle c with c % hosts == its index, 200 us after the others, and notes when it arrived at and
// left each barrier (steady_clock); the job checks that no rank left a barrier before the last
// arrived at it, and each rank reports the barriers checked and how the ranks met
// (dfg::mpi::Session::barrier_name()).
//
// Prints "ok: <host>: ..." per rank on success. With --fail-*, host B's CPU actor (cpu) or a
// second worker standing for its GPU PE (gpu) throws at iteration K while the job would
// otherwise run for --iterations: the job must end through dfg::mpi::abort_job. With
// --long-firing the CPU actor of the failing host, from iteration K + 1 on, sleeps 10 minutes per
// firing: the comm thread must end the job without waiting for the firing.
#include "dfg/abort.hpp"
#include "dfg/mpi/abort.hpp"
#include "dfg/mpi/barrier.hpp"
#include "dfg/mpi/cycle_transfers.hpp"
#include "dfg/mpi/session.hpp"
#include "dfg/mpi/transfer.hpp"
#include "dfg/probe.hpp"
#include "dfg/trace.hpp"
#include "dfg/worker.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

constexpr std::array<std::string_view, 4> kAllHosts = {"A", "B", "C", "D"};
constexpr std::size_t kSmallWords = 32;  // 256-byte small token: word 0 is the iteration

struct Args {
  int hosts = 2;
  std::int64_t iterations = 1000;
  bool overlap = true;
  std::string hostmap;
  std::size_t big = 64 * 1024 + 13;  // above the eager limits: sent by rendezvous
  std::size_t chunk = dfg::mpi::kDefaultChunkBytes;
  dfg::mpi::SendMode send_mode = dfg::mpi::SendMode::synchronous;
  std::string fail_host;
  std::string fail_thread = "cpu";
  std::int64_t fail_at = -1;
  bool rank_barrier = false;
  bool staged = false;
  bool window_copy = false;
  bool long_firing = false;
  bool fire_waits = false;
  bool lead = false;
  bool count_direct = false;
  bool barrier_check = false;
  bool poll_direct = false;
};

// The stand-in for dfg::mpi::GpuDirect's copy into a device slot on a CUDA-aware library
// (--window-copy): a plain copy, counted.
class CountingCopy final : public dfg::mpi::StagingCopy {
 public:
  void to_host(void* host, const void* slot, std::size_t bytes) override {
    std::memcpy(host, slot, bytes);
  }
  void to_slot(void* slot, const void* host, std::size_t bytes) override {
    std::memcpy(slot, host, bytes);
    ++in;
  }
  std::int64_t in = 0;
};

// The stand-in for dfg::mpi::GpuDirect's copies (see the file comment).
class XorStaging final : public dfg::mpi::StagingCopy {
 public:
  void to_host(void* host, const void* slot, std::size_t bytes) override {
    scramble(static_cast<unsigned char*>(host), static_cast<const unsigned char*>(slot), bytes);
    ++out;
  }
  void to_slot(void* slot, const void* host, std::size_t bytes) override {
    scramble(static_cast<unsigned char*>(slot), static_cast<const unsigned char*>(host), bytes);
    ++in;
  }
  std::int64_t out = 0;
  std::int64_t in = 0;

 private:
  static void scramble(unsigned char* dst, const unsigned char* src, std::size_t bytes) {
    for (std::size_t i = 0; i < bytes; ++i) dst[i] = static_cast<unsigned char>(src[i] ^ 0x5A);
  }
};

std::int64_t to_int(std::string_view s) {
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size())
    throw std::invalid_argument("not an integer: " + std::string(s));
  return v;
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string_view f = argv[i];
    auto next = [&]() -> std::string_view {
      if (i + 1 >= argc) throw std::invalid_argument("missing value for " + std::string(f));
      return argv[++i];
    };
    if (f == "--hosts")
      a.hosts = static_cast<int>(to_int(next()));
    else if (f == "--iterations")
      a.iterations = to_int(next());
    else if (f == "--no-overlap")
      a.overlap = false;
    else if (f == "--hostmap")
      a.hostmap = next();
    else if (f == "--big")
      a.big = static_cast<std::size_t>(to_int(next()));
    else if (f == "--chunk")
      a.chunk = static_cast<std::size_t>(to_int(next()));
    else if (f == "--standard-send")
      a.send_mode = dfg::mpi::SendMode::standard;
    else if (f == "--rank-barrier")
      a.rank_barrier = true;
    else if (f == "--staged")
      a.staged = true;
    else if (f == "--window-copy")
      a.window_copy = true;
    else if (f == "--long-firing")
      a.long_firing = true;
    else if (f == "--fire-waits")
      a.fire_waits = true;
    else if (f == "--lead")
      a.lead = true;
    else if (f == "--count-direct")
      a.count_direct = true;
    else if (f == "--barrier-check")
      a.barrier_check = a.rank_barrier = true;
    else if (f == "--poll-direct")
      a.poll_direct = true;
    else if (f == "--fail-host")
      a.fail_host = next();
    else if (f == "--fail-thread")
      a.fail_thread = next();
    else if (f == "--fail-at")
      a.fail_at = to_int(next());
    else
      throw std::invalid_argument("unknown argument " + std::string(f));
  }
  return a;
}

std::uint64_t small_word(std::int64_t j, std::size_t i) {
  std::uint64_t x =
      static_cast<std::uint64_t>(j) * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}

unsigned char big_byte(std::int64_t j, std::size_t i) {
  const std::uint32_t x = static_cast<std::uint32_t>(j) * 2654435761u ^
                          static_cast<std::uint32_t>(i) * 40503u ^
                          static_cast<std::uint32_t>(i >> 8);
  return static_cast<unsigned char>(x ^ (x >> 11));
}

// One token: the small and the large message of a hop, in one slot of a buffer.
struct Token {
  std::vector<std::uint64_t> small;
  std::vector<unsigned char> big;
  explicit Token(std::size_t big_bytes) : small(kSmallWords), big(big_bytes) {}
};

struct Buffer {
  std::vector<Token> slots;
  Buffer(int depth, std::size_t big_bytes)
      : slots(static_cast<std::size_t>(depth), Token(big_bytes)) {}
  Token& slot(std::int64_t j) {
    return slots[static_cast<std::size_t>(j % static_cast<std::int64_t>(slots.size()))];
  }
};

[[noreturn]] void bad_token(std::string_view what, std::int64_t j, std::size_t i) {
  throw std::runtime_error("token check failed: " + std::string(what) + " of iteration " +
                           std::to_string(j) + " at index " + std::to_string(i));
}

// The node of host h on token j: produce (h == 0), add one (middle), or check (last host, which
// sees the tokens after `hops` additions).
void fire(int h, int hosts, std::int64_t j, Token* in, Token* out) {
  if (h == 0) {
    out->small[0] = static_cast<std::uint64_t>(j);
    for (std::size_t i = 1; i < kSmallWords; ++i) out->small[i] = small_word(j, i);
    for (std::size_t i = 0; i < out->big.size(); ++i) out->big[i] = big_byte(j, i);
    return;
  }
  if (in->small[0] != static_cast<std::uint64_t>(j)) {
    throw std::runtime_error("host " + std::to_string(h) + " expected iteration " +
                             std::to_string(j) + ", got " + std::to_string(in->small[0]));
  }
  const auto adds = static_cast<unsigned>(h - 1);
  for (std::size_t i = 1; i < kSmallWords; ++i) {
    if (in->small[i] != small_word(j, i) + adds) bad_token("small token", j, i);
  }
  for (std::size_t i = 0; i < in->big.size(); ++i) {
    if (in->big[i] != static_cast<unsigned char>(big_byte(j, i) + adds))
      bad_token("large token", j, i);
  }
  if (h + 1 == hosts) return;
  out->small[0] = in->small[0];
  for (std::size_t i = 1; i < kSmallWords; ++i) out->small[i] = in->small[i] + 1;
  for (std::size_t i = 0; i < in->big.size(); ++i)
    out->big[i] = static_cast<unsigned char>(in->big[i] + 1);
}

// Waits, making no MPI call, until the large token of iteration j (host h's input) is in `t`:
// 64 bytes spread over it hold their values. Throws after 30 s.
void arrived(Token& t, std::int64_t j, int h) {
  const auto adds = static_cast<unsigned>(h - 1);
  const std::size_t n = t.big.size();
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (std::size_t k = 0; k < 64; ++k) {
    const std::size_t i = k * (n - 1) / 63;
    const auto expected = static_cast<unsigned char>(big_byte(j, i) + adds);
    while (std::atomic_ref<unsigned char>(t.big[i]).load(std::memory_order_acquire) != expected) {
      if (std::chrono::steady_clock::now() > give_up) {
        throw std::runtime_error("iteration " + std::to_string(j) +
                                 " did not arrive during a firing");
      }
      std::this_thread::yield();
    }
  }
}

// --lead, after the cycles (the main thread owns MPI again): host B sends its receive starts
// to host A, which returns "lead L (window W)" or an error; B returns "".
std::string check_lead(const dfg::mpi::Session& mpi, std::vector<std::int64_t>& times) {
  const int count = static_cast<int>(times.size());
  constexpr int kTag = 1000;
  if (mpi.host() == 1) {
    dfg::mpi::check(
        MPI_Send(times.data(), count, MPI_INT64_T, mpi.rank_of_host(0), kTag, mpi.comm()),
        "MPI_Send (lead)");
    return "";
  }
  std::vector<std::int64_t> starts(times.size());
  dfg::mpi::check(MPI_Recv(starts.data(), count, MPI_INT64_T, mpi.rank_of_host(1), kTag, mpi.comm(),
                           MPI_STATUS_IGNORE),
                  "MPI_Recv (lead)");
  std::int64_t lead = -count;
  std::int64_t started = -1;  // the last token whose receive B started before A's send of m
  for (std::int64_t m = 0; m < count; ++m) {
    while (started + 1 < count &&
           starts[static_cast<std::size_t>(started + 1)] < times[static_cast<std::size_t>(m)])
      ++started;
    lead = std::max(lead, m - started);
  }
  const int w = mpi.window();
  const std::string text = "lead " + std::to_string(lead) + " (window " + std::to_string(w) + ")";
  if (w == 0 ? lead > 0 : lead < 2 || lead > w) return "error: " + text;
  return text;
}

// --barrier-check: no rank left barrier c before the last rank arrived at it. Collective, on the
// main thread after the workers joined. Returns "barriers checked: ..." or "error: ...".
std::string check_barriers(const dfg::mpi::Session& mpi, std::vector<std::int64_t>& arrived,
                           std::vector<std::int64_t>& left) {
  const int count = static_cast<int>(arrived.size());
  dfg::mpi::check(
      MPI_Allreduce(MPI_IN_PLACE, arrived.data(), count, MPI_INT64_T, MPI_MAX, mpi.comm()),
      "MPI_Allreduce (arrivals)");
  dfg::mpi::check(MPI_Allreduce(MPI_IN_PLACE, left.data(), count, MPI_INT64_T, MPI_MIN, mpi.comm()),
                  "MPI_Allreduce (departures)");
  for (int c = 0; c < count; ++c) {
    if (left[static_cast<std::size_t>(c)] < arrived[static_cast<std::size_t>(c)]) {
      return "error: a rank left the barrier of cycle " + std::to_string(c) + " " +
             std::to_string(arrived[static_cast<std::size_t>(c)] -
                            left[static_cast<std::size_t>(c)]) +
             " ns before the last rank arrived";
    }
  }
  return "barriers checked: " + std::to_string(count) + ", " + mpi.barrier_name();
}

}  // namespace

int main(int argc, char** argv) {
  dfg::mpi::Session mpi(argc, argv);
  Args args;
  try {
    args = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
  const std::span<const std::string_view> hosts(kAllHosts.data(),
                                                static_cast<std::size_t>(args.hosts));
  if (const int s = mpi.place(hosts, {args.hostmap, true}, std::cerr); s != 0) return s;

  const int h = mpi.host();
  const int n = args.hosts;
  const bool first = h == 0;
  const bool last = h + 1 == n;
  // Latencies (cycles) of this host's receive, firing and send, as the latency pass gives them:
  // with overlap each inter-host double buffer adds a cycle, without it the firing follows the
  // transfer phase of the same cycle.
  const std::int64_t l_fire = args.overlap ? 2 * h : h;
  const std::int64_t l_in = args.overlap ? l_fire - 1 : l_fire;
  const std::int64_t l_out = l_fire + 1;
  const int depth = args.overlap ? 2 : 1;
  const std::int64_t cycles = args.iterations + (args.overlap ? 2 * (n - 1) : n - 1);

  std::unique_ptr<Buffer> in = first ? nullptr : std::make_unique<Buffer>(depth, args.big);
  std::unique_ptr<Buffer> out = last ? nullptr : std::make_unique<Buffer>(depth, args.big);
  using dfg::mpi::RecvEndpoint;
  using dfg::mpi::SendEndpoint;
  auto host_name = [&](int i) {
    return i < 0 || i >= n ? std::string() : std::string(hosts[static_cast<std::size_t>(i)]);
  };
  const std::string in_name = host_name(h - 1) + " -> " + host_name(h);
  const std::string out_name = host_name(h) + " -> " + host_name(h + 1);
  std::unique_ptr<RecvEndpoint> recv_small, recv_big;
  std::unique_ptr<SendEndpoint> send_small, send_big;
  if (!first) {
    const int peer = mpi.rank_of_host(h - 1);
    recv_small = std::make_unique<RecvEndpoint>(mpi, peer, 2 * (h - 1), kSmallWords * 8,
                                                in_name + " (small)");
    recv_big = std::make_unique<RecvEndpoint>(mpi, peer, 2 * (h - 1) + 1, args.big,
                                              in_name + " (large)", args.chunk);
  }
  if (!last) {
    const int peer = mpi.rank_of_host(h + 1);
    send_small =
        std::make_unique<SendEndpoint>(mpi, peer, 2 * h, kSmallWords * 8, out_name + " (small)",
                                       dfg::mpi::kDefaultChunkBytes, args.send_mode);
    send_big = std::make_unique<SendEndpoint>(mpi, peer, 2 * h + 1, args.big, out_name + " (large)",
                                              args.chunk, args.send_mode);
  }
  XorStaging staging;
  std::vector<unsigned char> staging_in(args.staged && !first ? args.big : 0);
  std::vector<unsigned char> staging_out(args.staged && !last ? args.big : 0);
  if (args.staged && !first) recv_big->stage_through({staging_in.data(), &staging});
  if (args.staged && !last) send_big->stage_through({staging_out.data(), &staging});
  CountingCopy window_copy;
  if (args.window_copy && !first) recv_small->copy_window_through(window_copy);
  dfg::Tracer tracer(0, false);
  dfg::Probes probes(tracer, nullptr);
  dfg::mpi::CycleTransfers net(probes, 4);
  dfg::mpi::RankBarrier barrier(mpi);

  const bool failing_host = !args.fail_host.empty() && args.fail_host == mpi.host_name();
  std::atomic<std::int64_t> cycle_done{-1};
  std::int64_t checked = 0;
  std::int64_t started = 0;  // --count-direct: transfers started, and how many were direct
  std::int64_t direct = 0;
  std::int64_t polled_direct = 0;  // --poll-direct: direct transfers that a poll completed
  std::string fire_where =
      "node " + std::string(mpi.host_name()) + " @ " + std::string(mpi.host_name()) + ".cpu";

  auto in_window = [&](std::int64_t c, std::int64_t lag) {
    return c - lag >= 0 && c - lag < args.iterations;
  };
  // --lead: host B's receive starts, host A's send completions (ns of steady_clock).
  std::vector<std::int64_t> times(args.lead ? static_cast<std::size_t>(args.iterations) : 0);
  auto now_ns = [] {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };

  // --barrier-check: when this rank arrived at and left each cycle's barrier (ns of steady_clock).
  const std::size_t checked_barriers = args.barrier_check ? static_cast<std::size_t>(cycles) : 0;
  std::vector<std::int64_t> arrived_ns(checked_barriers), left_ns(checked_barriers);

  auto cpu_worker = [&](dfg::Where& where) {
    for (std::int64_t c = 0; c < cycles; ++c) {
      // Transfers of the cycle: every receive and send posted before anything waits.
      if (!first && in_window(c, l_in)) {
        const std::int64_t j = c - l_in;
        where.at("transfer (receive)", j);
        Token& t = in->slot(j);
        if (args.lead) times[static_cast<std::size_t>(j)] = now_ns();
        net.start(*recv_small, 0, j, t.small.data());
        net.start(*recv_big, 0, j, t.big.data());
      }
      if (!last && in_window(c, l_out)) {
        const std::int64_t j = c - l_out;
        where.at("transfer (send)", j);
        Token& t = out->slot(j);
        net.start(*send_small, 0, j, t.small.data());
        net.start(*send_big, 0, j, t.big.data());
      }
      started += static_cast<std::int64_t>(net.in_flight());
      direct += static_cast<std::int64_t>(net.direct_in_flight());
      if (!args.overlap) {
        where.at("transfer phase", c);
        net.wait();
      }
      if (in_window(c, l_fire)) {
        const std::int64_t j = c - l_fire;
        where.at(fire_where, j);
        if (failing_host && args.fail_thread == "cpu" && j == args.fail_at) {
          throw std::runtime_error("injected failure");
        }
        if (failing_host && args.long_firing && j > args.fail_at)
          std::this_thread::sleep_for(std::chrono::minutes(10));
        if (args.lead && !first) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        if (args.fire_waits && args.overlap && !first && in_window(c, l_in))
          arrived(in->slot(j + 1), j + 1, h);
        // With overlap, the transfers of this cycle are in flight while the node fires.
        fire(h, n, j, first ? nullptr : &in->slot(j), last ? nullptr : &out->slot(j));
        if (last) ++checked;
        const std::size_t direct_before = net.direct_in_flight();
        net.poll();
        polled_direct += static_cast<std::int64_t>(direct_before - net.direct_in_flight());
      }
      where.at("end of cycle", c);
      net.wait();
      if (args.lead && first && in_window(c, l_out))
        times[static_cast<std::size_t>(c - l_out)] = now_ns();
      if (args.barrier_check) {
        if (c % n == h) std::this_thread::sleep_for(std::chrono::microseconds(200));
        arrived_ns[static_cast<std::size_t>(c)] = now_ns();
      }
      if (args.rank_barrier) barrier.arrive_and_wait();
      if (args.barrier_check) left_ns[static_cast<std::size_t>(c)] = now_ns();
      cycle_done.store(c, std::memory_order_release);
    }
  };

  return dfg::mpi::main_guard(mpi, [&] {
    dfg::Workers workers;
    const std::string cpu_name = std::string(mpi.host_name()) + ".cpu";
    workers.spawn(cpu_name, [&](dfg::Where& where) {
      dfg::mpi::run_mpi_worker(mpi, where, [&] { cpu_worker(where); });
    });
    if (failing_host && args.fail_thread == "gpu") {
      // Stands for the worker of GPU PE B.g0: it fails while the CPU worker waits on MPI.
      workers.spawn("B.g0", [&](dfg::Where& where) {
        while (cycle_done.load(std::memory_order_acquire) < args.fail_at) {
          dfg::process_abort().throw_if_stopped();
          std::this_thread::yield();
        }
        where.at("node i2 (Inc) @ B.g0", args.fail_at);
        throw std::runtime_error(
            "cudaErrorIllegalAddress: an illegal memory access was encountered");
      });
    }
    int status = workers.join();
    std::string lead;
    if (status == 0 && args.lead) {
      lead = check_lead(mpi, times);
      if (lead.rfind("error", 0) == 0) {
        std::cerr << lead << '\n';
        status = 1;
      }
    }
    std::string barriers;
    if (status == 0 && args.barrier_check) {
      barriers = check_barriers(mpi, arrived_ns, left_ns);
      if (barriers.rfind("error", 0) == 0) {
        std::cerr << barriers << '\n';
        status = 1;
      }
    }
    if (status == 0) {
      // One write per rank: mpiexec forwards every rank's output as it comes.
      std::string line = "ok: " + mpi.who() + ": " + std::to_string(cycles) + " cycles";
      if (last) line += ", " + std::to_string(checked) + " tokens checked";
      if (!lead.empty()) line += ", " + lead;
      if (!barriers.empty()) line += ", " + barriers;
      if (args.count_direct)
        line +=
            ", " + std::to_string(direct) + " of " + std::to_string(started) + " transfers direct";
      if (args.poll_direct)
        line +=
            ", " + std::to_string(polled_direct) + " direct transfers completed between firings";
      if (args.window_copy && !first)
        line += ", window copied " + std::to_string(window_copy.in) + " in";
      if (args.staged)
        line += ", staged " + std::to_string(staging.out) + " out, " + std::to_string(staging.in) +
                " in";
      line += '\n';
      std::fwrite(line.data(), 1, line.size(), stdout);
      std::fflush(stdout);
    }
    return status;
  });
}
