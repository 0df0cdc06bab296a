/// \file
/// dfg::mpi::CommThread: the rank's communication thread. While the cycle loop runs it makes the
/// MPI calls of the rank, but the CPU worker's direct ones (small tokens and the barrier, under
/// MPI_THREAD_MULTIPLE: dfg/mpi/session.hpp): it posts the operations other threads hand it
/// (CommTask: a cycle's host-to-host transfers, the ranks' barrier) and polls them until they
/// complete, so that a transfer progresses while the CPU worker fires its actors, however long a
/// firing takes.
///
///     comm.start(abort, [&] { dfg::mpi::abort_job(session, abort); });   // run_mpi_worker
///     comm.submit(task);          // any thread: the comm thread posts it at its next turn
///     ... fire ...
///     comm.wait_until([&] { return task.done(); }, abort);
///     comm.finish();              // joins it; MPI belongs to the calling thread again
///
/// Why a thread of its own. MPI moves a message only inside MPI calls (Open MPI and MPICH make no
/// asynchronous progress by default): a large token (rendezvous) waits, mid-way, for its sender
/// and its receiver to call MPI again. When the CPU worker made the calls, between its firings,
/// a transfer crawled while a CPU actor computed. Of the two ways to progress it elsewhere, this
/// one keeps MPI_THREAD_SERIALIZED: one thread makes every call, so the library takes no lock per
/// call and libraries without MPI_THREAD_MULTIPLE work; the other (MULTIPLE, the worker posting
/// and a second thread polling) needs both. bench/hosts/mpi_progress.cpp measures the two.
///
/// Two lanes. A rank that receives a token from one rank and sends one to another (a middle rank
/// of a chain) has both transfers in flight every cycle, and each needs MPI calls on this rank to
/// move: over Open MPI's shared memory the receive is one long copy made inside an MPI call
/// (CMA's single copy), and while the one thread that calls MPI is in it, the send's handshake
/// waits; the two transfers then take their sum. With two lanes (start(abort, on_stop, 2), which
/// needs MPI_THREAD_MULTIPLE), the receives and the barrier run on one thread (lane 0) and the
/// sends on another (lane 1), each polling its own tasks, so that the send and the receive move
/// at once. submit(task, lane) names the lane; with one lane every task runs on lane 0's thread.
/// Two lanes cost a few microseconds a cycle where the tokens are small (the library locks on
/// every call, and both threads poll it), so a rank runs them only where they pay: the endpoints
/// tell the comm thread, as they are built, what the rank moves each cycle (expect()), and
/// wanted_lanes() is lanes_for() of that: two where the rank both sends and receives, and receives
/// at least kTwoLaneBytes a cycle. The Session caps it at what the library provides, or overrides
/// it with DFG_MPI_LANES (dfg/mpi/session.hpp); bench/hosts/overlap_sweep.py measures both.
///
/// Abort. Each lane's thread checks the Abort given to start() between polls, and wakes from its
/// idle sleep when the stop is raised (it is an AbortListener): once the stop is raised by any
/// thread of the rank, it calls the `on_stop` given to start() (dfg::mpi::abort_job: the rank and
/// the reason, then MPI_Abort), which must not return. It owns MPI, so it may; and the job ends
/// within a second even while a CPU actor is in a long firing. An exception from a task's MPI
/// calls (an MpiError, a staging copy's CudaError) is recorded in the Abort as an error of
/// "the communication thread", and ends the job the same way. Should on_stop return (a test's),
/// the thread ends.
///
/// Guarantees:
/// - start() and finish() are called by one thread, the one that owns MPI before and after
///   (run_mpi_worker: the host's CPU worker); thread creation and join order its MPI calls and
///   the comm thread's. Between them no other thread of the rank calls MPI, but the CPU worker
///   for its direct endpoints and barrier (Session::direct(), MPI_THREAD_MULTIPLE), which the
///   comm thread never touches.
/// - submit() may be called by any thread while the comm thread runs (a mutex, held for a few
///   stores; it never allocates). A task is posted in submission order, and must stay alive and
///   unsubmitted again until done() returned true.
/// - done() is an acquire load: what the task's post() and test() wrote (a received slot, the
///   task's times) is visible to the thread that saw it true.
/// - Each lane's thread polls (test() on every task in flight, then a pause instruction, and
///   std::this_thread::yield every kYieldEvery polls) while it has tasks in flight or had some
///   within kIdleSpin; then it sleeps on a condition variable until a submission, finish(), the
///   stop, or kIdleCheck passes. Only lane 0's thread runs on_stop; lane 1's ends at the stop,
///   and lane 0's ends only after it (so a task of lane 1 that fails still ends the job).
/// - wait_until() polls (pausing, yielding every kYieldEvery polls) for kWaitSpin, then sleeps
///   until a lane completes a task, the stop, or kWaitCheck passes: a CPU worker that waits long
///   leaves its core to the comm threads and the other workers. A lane notifies only when
///   someone sleeps.
/// - The comm threads allocate only to grow their lists of tasks in flight (reserved for 64).
/// - expect() and forget() may be called by any thread (relaxed atomic counters); wanted_lanes()
///   reads them once, when start() is about to be called, after every endpoint was built.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "dfg/abort.hpp"

namespace dfg::mpi {

class CommThread;

/// One operation the communication thread runs for another thread: post() makes its MPI calls
/// (nonblocking), test() polls them (true once complete). Both run on the comm thread only.
class CommTask {
 public:
  /// Whether the comm thread saw the task complete (acquire).
  bool done() const noexcept { return done_.load(std::memory_order_acquire); }

 protected:
  CommTask() = default;
  ~CommTask() = default;
  CommTask(const CommTask&) = delete;
  CommTask& operator=(const CommTask&) = delete;

  virtual void post() = 0;
  virtual bool test() = 0;

 private:
  friend class CommThread;
  std::atomic<bool> done_{true};
  CommTask* next_ = nullptr;  ///< the submission queue, under CommThread::mutex_
};

/// A short pause in a polling loop: the CPU's spin-wait hint (no system call).
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

/// A rank's MPI traffic each cycle, as its endpoints declare it.
struct RankTraffic {
  std::size_t receive_bytes = 0;  ///< the bytes of every token it receives, summed
  std::size_t sends = 0;          ///< the transfers it sends
};

/// Below this many received bytes a cycle, one lane: measured with Open MPI 4.1.6 over shared
/// memory on a 3-rank chain (bench/hosts/README.md), two lanes cost 1-3.6 us a cycle more than
/// one with 1-byte tokens, and a one-lane middle rank loses the time of its received copy (about
/// 7 us for 64 KiB at the 9 GB/s of a single copy), which two lanes hide behind the send.
inline constexpr std::size_t kTwoLaneBytes = std::size_t{64} << 10;

/// The lanes a rank with `traffic` needs: 2 where it both sends and receives, and receives at
/// least kTwoLaneBytes a cycle (its receive's copy would hold the one lane's send back); else 1.
constexpr int lanes_for(const RankTraffic& traffic) noexcept {
  return traffic.sends > 0 && traffic.receive_bytes >= kTwoLaneBytes ? 2 : 1;
}

class CommThread final : private AbortListener {
 public:
  /// The lanes: receives and the barrier on lane 0, sends on lane 1 (when there are two).
  static constexpr int kReceiveLane = 0;
  static constexpr int kSendLane = 1;
  static constexpr int kMaxLanes = 2;

  /// How long a lane keeps polling after its last task completed before it sleeps.
  static constexpr std::chrono::microseconds kIdleSpin{1000};
  /// The longest it sleeps before it looks at the Abort again (the AbortListener wakes it first).
  static constexpr std::chrono::milliseconds kIdleCheck{50};

  /// How long wait_until() polls before it sleeps, and the longest it sleeps between checks.
  static constexpr std::chrono::microseconds kWaitSpin{1000};
  static constexpr std::chrono::milliseconds kWaitCheck{1};

  /// A polling loop yields its core once every kYieldEvery polls and pauses between the others.
  static constexpr unsigned kYieldEvery = 64;

  CommThread() {
    for (Lane& lane : lanes_) lane.flight.reserve(64);
  }
  ~CommThread() { finish(); }

  CommThread(const CommThread&) = delete;
  CommThread& operator=(const CommThread&) = delete;

  /// Starts `lanes` threads (1 or 2; two need MPI_THREAD_MULTIPLE), watching `abort`; `on_stop`
  /// runs on lane 0's thread once it sees the stop raised and should not return. Throws
  /// std::logic_error if it runs already, std::invalid_argument for another number of lanes,
  /// std::system_error if a thread cannot start.
  void start(Abort& abort, std::function<void()> on_stop, int lanes = 1) {
    if (running()) throw std::logic_error("dfg::mpi::CommThread: started twice");
    if (lanes < 1 || lanes > kMaxLanes)
      throw std::invalid_argument("dfg::mpi::CommThread: 1 or 2 lanes");
    abort_ = &abort;
    on_stop_ = std::move(on_stop);
    lane_count_ = lanes;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finishing_ = false;
      for (Lane& lane : lanes_) lane.ended = false;
    }
    abort.subscribe(*this);
    running_.store(true, std::memory_order_release);
    try {
      for (int i = lanes - 1; i >= 0; --i)
        lanes_[static_cast<std::size_t>(i)].thread = std::thread([this, i] { loop(i); });
    } catch (...) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        finishing_ = true;
      }
      for (Lane& lane : lanes_) lane.wake.notify_all();
      for (Lane& lane : lanes_)
        if (lane.thread.joinable()) lane.thread.join();
      running_.store(false, std::memory_order_release);
      abort.unsubscribe(*this);
      throw;
    }
  }

  /// Lets the threads end once every submitted task completed, and joins them. Does nothing if
  /// they do not run. Never returns while lane 0 handles the stop (on_stop ends the process).
  void finish() noexcept {
    if (!running()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finishing_ = true;
    }
    for (Lane& lane : lanes_) lane.wake.notify_all();
    for (Lane& lane : lanes_)
      if (lane.thread.joinable()) lane.thread.join();
    running_.store(false, std::memory_order_release);
    abort_->unsubscribe(*this);
  }

  /// Returns once `ready()` (a test of tasks' done()) is true; throws dfg::Aborted once `abort`
  /// is raised. Any thread but the comm threads.
  template <class Ready>
  void wait_until(Ready ready, const Abort& abort) {
    const auto spin_end = std::chrono::steady_clock::now() + kWaitSpin;
    unsigned polls = 0;
    while (!ready()) {
      abort.throw_if_stopped();
      if (std::chrono::steady_clock::now() < spin_end) {
        if (++polls % kYieldEvery == 0)
          std::this_thread::yield();
        else
          cpu_relax();
        continue;
      }
      std::unique_lock<std::mutex> lock(done_mutex_);
      waiters_.fetch_add(1, std::memory_order_seq_cst);
      std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with the one in loop()
      if (!ready() && !abort.stopped()) done_cv_.wait_for(lock, kWaitCheck);
      waiters_.fetch_sub(1, std::memory_order_relaxed);
    }
  }

  /// An endpoint of the rank that moves a token of `bytes` each cycle, receiving or sending, was
  /// built; forget() undoes it when the endpoint goes. Any thread.
  void expect(bool receiving, std::size_t bytes) noexcept {
    if (receiving)
      receive_bytes_.fetch_add(bytes, std::memory_order_relaxed);
    else
      sends_.fetch_add(1, std::memory_order_relaxed);
  }
  void forget(bool receiving, std::size_t bytes) noexcept {
    if (receiving)
      receive_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
    else
      sends_.fetch_sub(1, std::memory_order_relaxed);
  }

  /// What the endpoints built so far move each cycle.
  RankTraffic traffic() const noexcept {
    return {receive_bytes_.load(std::memory_order_relaxed), sends_.load(std::memory_order_relaxed)};
  }

  /// The lanes this rank's traffic needs (lanes_for()); the Session caps it (comm_lanes()).
  int wanted_lanes() const noexcept { return lanes_for(traffic()); }

  /// Whether start() ran and finish() did not.
  bool running() const noexcept { return running_.load(std::memory_order_acquire); }

  /// The number of lanes start() was given (1 before the first start()).
  int lanes() const noexcept { return lane_count_; }

  /// Hands `task` to lane `lane`'s thread (lane 0 when there is one), which posts it at its
  /// next turn and polls it until done(). Throws std::logic_error if the threads do not run or
  /// the task is still in flight.
  void submit(CommTask& task, int lane = kReceiveLane) {
    if (!running())
      throw std::logic_error(
          "dfg::mpi::CommThread: a task submitted while the thread does not run");
    if (!task.done())
      throw std::logic_error("dfg::mpi::CommThread: a task submitted again before it completed");
    Lane& to = lanes_[static_cast<std::size_t>(lane > 0 && lane < lane_count_ ? lane : 0)];
    task.done_.store(false, std::memory_order_relaxed);
    task.next_ = nullptr;
    bool sleeping = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (to.tail != nullptr)
        to.tail->next_ = &task;
      else
        to.head = &task;
      to.tail = &task;
      to.pending.store(true, std::memory_order_release);
      sleeping = to.sleeping;
    }
    if (sleeping) to.wake.notify_one();
  }

 private:
  /// One polling thread: its submissions (under mutex_) and its tasks in flight (its own).
  struct Lane {
    std::thread thread;
    std::atomic<bool> pending{false};  ///< a hint that head is not null: the loop locks only then
    std::condition_variable wake;
    CommTask* head = nullptr;  ///< submitted, not yet posted (under mutex_)
    CommTask* tail = nullptr;
    bool sleeping = false;          ///< under mutex_
    bool ended = false;             ///< under mutex_: the thread left its loop
    std::vector<CommTask*> flight;  ///< posted, not yet complete
  };

  void on_abort() noexcept override {
    for (Lane& lane : lanes_) lane.wake.notify_all();
    done_cv_.notify_all();
  }

  /// Lane `index`'s thread: post what was submitted, poll what is in flight, sleep when idle.
  void loop(int index) {
    using Clock = std::chrono::steady_clock;
    Lane& lane = lanes_[static_cast<std::size_t>(index)];
    Clock::time_point last_busy = Clock::now();
    unsigned polls = 0;
    try {
      while (true) {
        if (abort_->stopped()) break;
        if (lane.pending.load(std::memory_order_acquire)) take(lane);
        bool completed = false;
        for (std::size_t i = 0; i < lane.flight.size();) {
          if (!lane.flight[i]->test()) {
            ++i;
            continue;
          }
          lane.flight[i]->done_.store(true, std::memory_order_release);
          lane.flight[i] = lane.flight.back();
          lane.flight.pop_back();
          completed = true;
        }
        if (completed) {
          std::atomic_thread_fence(
              std::memory_order_seq_cst);  // a sleeper saw done() false, or is woken
          if (waiters_.load(std::memory_order_relaxed) > 0) {
            std::lock_guard<std::mutex> lock(done_mutex_);
            done_cv_.notify_all();
          }
        }
        if (!lane.flight.empty()) {
          last_busy = Clock::now();
        } else if (Clock::now() - last_busy >= kIdleSpin) {
          if (sleep(index)) break;
          last_busy = Clock::now();
          continue;
        }
        if (++polls % kYieldEvery == 0)
          std::this_thread::yield();
        else
          cpu_relax();
      }
    } catch (const std::exception& e) {
      abort_->raise("the communication thread", -1, e.what());
    } catch (...) {
      abort_->raise("the communication thread", -1, "unknown exception");
    }
    if (index != 0) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        lane.ended = true;
      }
      lanes_[0].wake.notify_all();
      return;
    }
    if (abort_->stopped()) on_stop_();
  }

  /// Posts the lane's submitted tasks, in submission order.
  void take(Lane& lane) {
    CommTask* task = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task = lane.head;
      lane.head = lane.tail = nullptr;
      lane.pending.store(false, std::memory_order_relaxed);
    }
    while (task != nullptr) {
      CommTask* next = task->next_;
      lane.flight.push_back(task);
      task->post();
      task = next;
    }
  }

  /// Sleeps until a submission, finish() or the stop (or kIdleCheck). Returns true when lane
  /// `index`'s thread should end: finish() was called, nothing is left, and (lane 0) the other
  /// lanes ended.
  bool sleep(int index) {
    Lane& lane = lanes_[static_cast<std::size_t>(index)];
    std::unique_lock<std::mutex> lock(mutex_);
    if (lane.head != nullptr) return false;
    if (finishing_ && (index != 0 || others_ended())) return true;
    lane.sleeping = true;
    lane.wake.wait_for(lock, kIdleCheck);
    lane.sleeping = false;
    return false;
  }

  /// Whether every lane but 0 left its loop (under mutex_).
  bool others_ended() const {
    for (int i = 1; i < lane_count_; ++i)
      if (!lanes_[static_cast<std::size_t>(i)].ended) return false;
    return true;
  }

  Abort* abort_ = nullptr;
  std::function<void()> on_stop_;
  int lane_count_ = 1;
  std::atomic<bool> running_{false};
  std::mutex mutex_;
  std::array<Lane, kMaxLanes> lanes_;
  bool finishing_ = false;  ///< under mutex_
  std::mutex done_mutex_;   ///< wait_until()'s sleep
  std::condition_variable done_cv_;
  std::atomic<int> waiters_{0};                ///< threads asleep in wait_until()
  std::atomic<std::size_t> receive_bytes_{0};  ///< expect(): the rank's received bytes a cycle
  std::atomic<std::size_t> sends_{0};          ///< expect(): the rank's sends a cycle
};

}  // namespace dfg::mpi
