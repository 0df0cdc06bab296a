/// \file
/// dfg::CpuPartition: the dynamic actors of one CPU thread, run until every one has reached the
/// end of its streams: the host side of a network whose other actors run in dfg::GpuIsland
/// kernels or on other threads, joined by SPSC rings (dfg::RingRef over host memory or mapped
/// pinned memory, dfg::Fifo).
///
///     dfg::CpuPartition cpu("fir cpu");
///     cpu.add(source, "source");  cpu.add(mul1, "mul_1");  cpu.add(sink, "sink");
///     cpu.run();                  // returns when every actor is done
///
/// Its actors follow the GPU actors' concept (dfg/cuda/gpu_island.hpp) on one thread: step()
/// selects and fires an action and returns whether it fired; after a step that fired nothing,
/// done() says whether the actor can never fire again (its inputs drained, a source exhausted),
/// and then close() closes its outputs, once. run() steps every actor not yet done, round after
/// round; a round in which nothing fired and some actor is not done means that actor waits for
/// another thread or the GPU: the thread yields, then sleeps (1 us doubling to 128 us).
///
/// Guarantees: one thread calls add() (set-up; it allocates) and run(); run() allocates nothing
/// and returns once every actor's close() has been called, or throws dfg::IslandError after
/// stop() (another thread's request, a release store that run() loads with acquire each idle
/// round), naming the actors that had not ended. Termination is by end of stream, never by an
/// idle timeout. Memory ordering between threads is the rings' own.
#pragma once

#include <atomic>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "dfg/island.hpp"

namespace dfg {

/// An actor that ends: step(), then done() and close() at the end of its streams.
template <class A>
concept StreamActor = DynamicActor<A> && requires(A& a) {
  { a.done() } -> std::same_as<bool>;
  a.close();
};

class CpuPartition {
 public:
  explicit CpuPartition(std::string name) : name_(std::move(name)) {}
  CpuPartition(const CpuPartition&) = delete;
  CpuPartition& operator=(const CpuPartition&) = delete;

  /// Adds `actor` (which must outlive the partition) after those added before.
  template <StreamActor A>
  void add(A& actor, std::string_view name) {
    members_.push_back({&actor, [](void* a) { return static_cast<A*>(a)->step(); },
                        [](void* a) { return static_cast<A*>(a)->done(); },
                        [](void* a) { static_cast<A*>(a)->close(); }, std::string(name), false, 0});
  }

  /// Runs every actor to the end of its streams; returns the firings.
  std::uint64_t run() {
    std::uint64_t total = 0;
    std::size_t open = members_.size();
    unsigned idle_rounds = 0;
    while (open != 0) {
      bool fired = false;
      for (Member& m : members_) {
        if (m.ended) continue;
        if (m.step(m.actor)) {
          fired = true;
          ++m.firings;
          ++total;
        } else if (m.done(m.actor)) {
          m.close(m.actor);
          m.ended = true;
          --open;
        }
      }
      if (fired) {
        idle_rounds = 0;
        continue;
      }
      if (open == 0) break;
      if (stop_.load(std::memory_order_acquire)) throw_stopped();
      back_off(++idle_rounds);
    }
    return total;
  }

  /// From any thread: makes run() give up at its next idle round.
  void stop() noexcept { stop_.store(true, std::memory_order_release); }

  const std::string& name() const noexcept { return name_; }
  /// Firings of the actor added i-th, over every run().
  std::uint64_t firings(std::size_t i) const noexcept { return members_[i].firings; }

 private:
  struct Member {
    void* actor;
    bool (*step)(void*);
    bool (*done)(void*);
    void (*close)(void*);
    std::string name;
    bool ended;
    std::uint64_t firings;
  };

  static void back_off(unsigned idle_rounds) {
    if (idle_rounds < 16) {
      std::this_thread::yield();
      return;
    }
    const unsigned shift = idle_rounds - 16 < 7 ? idle_rounds - 16 : 7;
    std::this_thread::sleep_for(std::chrono::microseconds(1u << shift));
  }

  [[noreturn]] void throw_stopped() const {
    std::string waiting;
    for (const Member& m : members_) {
      if (m.ended) continue;
      if (!waiting.empty()) waiting += ", ";
      waiting += m.name;
    }
    throw IslandError("cpu partition " + name_ + ": stopped before the end of stream of " +
                      waiting);
  }

  std::string name_;
  std::vector<Member> members_;
  std::atomic<bool> stop_{false};
};

}  // namespace dfg
