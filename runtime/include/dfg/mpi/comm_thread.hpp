/// \file
/// dfg::mpi::CommThread: the rank's communication thread. While the cycle loop runs it makes every
/// MPI call of the rank: it posts the operations other threads hand it (CommTask: a cycle's
/// host-to-host transfers, the ranks' barrier) and polls them until they complete, so that a
/// transfer progresses while the CPU worker fires its actors, however long a firing takes.
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
/// Abort. The comm thread checks the Abort given to start() between polls, and wakes from its idle sleep
/// when the stop is raised (it is an AbortListener): once the stop is raised by any thread of
/// the rank, it calls the `on_stop` given to start() (dfg::mpi::abort_job: the rank and the
/// reason, then MPI_Abort), which must not return. It owns MPI, so it may; and the job ends
/// within a second even while a CPU actor is in a long firing. An exception from a task's MPI
/// calls (an MpiError, a staging copy's CudaError) is recorded in the Abort as an error of
/// "the communication thread", and ends the job the same way. Should on_stop return (a test's),
/// the thread ends.
///
/// Guarantees:
/// - start() and finish() are called by one thread, the one that owns MPI before and after
///   (run_mpi_worker: the host's CPU worker); thread creation and join order its MPI calls and
///   the comm thread's. Between them no other thread of the rank calls MPI.
/// - submit() may be called by any thread while the comm thread runs (a mutex, held for a few
///   stores; it never allocates). A task is posted in submission order, and must stay alive and
///   unsubmitted again until done() returned true.
/// - done() is an acquire load: what the task's post() and test() wrote (a received slot, the
///   task's times) is visible to the thread that saw it true.
/// - The comm thread polls (test() on every task in flight, then std::this_thread::yield) while
///   it has tasks in flight or had some within kIdleSpin; then it sleeps on a condition variable
///   until a submission, finish(), the stop, or kIdleCheck passes.
/// - wait_until() polls (yielding) for kWaitSpin, then sleeps until the comm thread completes a
///   task, the stop, or kWaitCheck passes: a CPU worker that waits long leaves its core to the
///   comm thread and the other workers. The comm thread notifies only when someone sleeps.
/// - The comm thread allocates only to grow its list of tasks in flight (reserved for 64).
#pragma once

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

class CommThread final : private AbortListener {
 public:
  /// How long the comm thread keeps polling after its last task completed before it sleeps.
  static constexpr std::chrono::microseconds kIdleSpin{1000};
  /// The longest it sleeps before it looks at the Abort again (the AbortListener wakes it first).
  static constexpr std::chrono::milliseconds kIdleCheck{50};

  /// How long wait_until() polls before it sleeps, and the longest it sleeps between checks.
  static constexpr std::chrono::microseconds kWaitSpin{50};
  static constexpr std::chrono::milliseconds kWaitCheck{1};

  CommThread() { flight_.reserve(64); }
  ~CommThread() { finish(); }

  CommThread(const CommThread&) = delete;
  CommThread& operator=(const CommThread&) = delete;

  /// Starts the thread, watching `abort`; `on_stop` runs on it once it sees the stop raised and
  /// should not return. Throws std::logic_error if it runs already, std::system_error if it
  /// cannot start.
  void start(Abort& abort, std::function<void()> on_stop) {
    if (thread_.joinable()) throw std::logic_error("dfg::mpi::CommThread: started twice");
    abort_ = &abort;
    on_stop_ = std::move(on_stop);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finishing_ = false;
    }
    abort.subscribe(*this);
    running_.store(true, std::memory_order_release);
    try {
      thread_ = std::thread([this] { loop(); });
    } catch (...) {
      running_.store(false, std::memory_order_release);
      abort.unsubscribe(*this);
      throw;
    }
  }

  /// Lets the thread end once every submitted task completed, and joins it. Does nothing if it
  /// does not run. Never returns while the thread handles the stop (on_stop ends the process).
  void finish() noexcept {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finishing_ = true;
    }
    wake_.notify_one();
    thread_.join();
    running_.store(false, std::memory_order_release);
    abort_->unsubscribe(*this);
  }

  /// Returns once `ready()` (a test of tasks' done()) is true; throws dfg::Aborted once `abort`
  /// is raised. Any thread but the comm thread.
  template <class Ready>
  void wait_until(Ready ready, const Abort& abort) {
    const auto spin_end = std::chrono::steady_clock::now() + kWaitSpin;
    while (!ready()) {
      abort.throw_if_stopped();
      if (std::chrono::steady_clock::now() < spin_end) {
        std::this_thread::yield();
        continue;
      }
      std::unique_lock<std::mutex> lock(done_mutex_);
      waiters_.fetch_add(1, std::memory_order_seq_cst);
      std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with the one in loop()
      if (!ready() && !abort.stopped()) done_cv_.wait_for(lock, kWaitCheck);
      waiters_.fetch_sub(1, std::memory_order_relaxed);
    }
  }

  /// Whether start() ran and finish() did not.
  bool running() const noexcept { return running_.load(std::memory_order_acquire); }

  /// Hands `task` to the comm thread, which posts it at its next turn and polls it until done().
  /// Throws std::logic_error if the thread does not run or the task is still in flight.
  void submit(CommTask& task) {
    if (!running()) throw std::logic_error("dfg::mpi::CommThread: a task submitted while the thread does not run");
    if (!task.done()) throw std::logic_error("dfg::mpi::CommThread: a task submitted again before it completed");
    task.done_.store(false, std::memory_order_relaxed);
    task.next_ = nullptr;
    bool sleeping = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (tail_ != nullptr) tail_->next_ = &task;
      else head_ = &task;
      tail_ = &task;
      pending_.store(true, std::memory_order_release);
      sleeping = sleeping_;
    }
    if (sleeping) wake_.notify_one();
  }

 private:
  void on_abort() noexcept override {
    wake_.notify_all();
    done_cv_.notify_all();
  }

  /// The comm thread: post what was submitted, poll what is in flight, sleep when idle.
  void loop() {
    using Clock = std::chrono::steady_clock;
    Clock::time_point last_busy = Clock::now();
    try {
      while (true) {
        if (abort_->stopped()) break;
        if (pending_.load(std::memory_order_acquire)) take();
        bool completed = false;
        for (std::size_t i = 0; i < flight_.size();) {
          if (!flight_[i]->test()) {
            ++i;
            continue;
          }
          flight_[i]->done_.store(true, std::memory_order_release);
          flight_[i] = flight_.back();
          flight_.pop_back();
          completed = true;
        }
        if (completed) {
          std::atomic_thread_fence(std::memory_order_seq_cst);  // a sleeper saw done() false, or is woken
          if (waiters_.load(std::memory_order_relaxed) > 0) {
            std::lock_guard<std::mutex> lock(done_mutex_);
            done_cv_.notify_all();
          }
        }
        if (!flight_.empty()) {
          last_busy = Clock::now();
        } else if (Clock::now() - last_busy >= kIdleSpin) {
          if (sleep()) return;
          last_busy = Clock::now();
          continue;
        }
        std::this_thread::yield();
      }
    } catch (const std::exception& e) {
      abort_->raise("the communication thread", -1, e.what());
    } catch (...) {
      abort_->raise("the communication thread", -1, "unknown exception");
    }
    on_stop_();
  }

  /// Posts the submitted tasks, in submission order.
  void take() {
    CommTask* task = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task = head_;
      head_ = tail_ = nullptr;
      pending_.store(false, std::memory_order_relaxed);
    }
    while (task != nullptr) {
      CommTask* next = task->next_;
      flight_.push_back(task);
      task->post();
      task = next;
    }
  }

  /// Sleeps until a submission, finish() or the stop (or kIdleCheck). Returns true when the
  /// thread should end: finish() was called and nothing is left.
  bool sleep() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (head_ != nullptr) return false;
    if (finishing_) return true;
    sleeping_ = true;
    wake_.wait_for(lock, kIdleCheck);
    sleeping_ = false;
    return false;
  }

  Abort* abort_ = nullptr;
  std::function<void()> on_stop_;
  std::thread thread_;
  std::atomic<bool> running_{false};
  std::atomic<bool> pending_{false};  ///< a hint that head_ is not null: the loop locks only then
  std::mutex mutex_;
  std::condition_variable wake_;
  CommTask* head_ = nullptr;  ///< submitted, not yet posted (under mutex_)
  CommTask* tail_ = nullptr;
  bool finishing_ = false;  ///< under mutex_
  bool sleeping_ = false;   ///< under mutex_
  std::vector<CommTask*> flight_;  ///< posted, not yet complete (the comm thread's own)
  std::mutex done_mutex_;          ///< wait_until()'s sleep
  std::condition_variable done_cv_;
  std::atomic<int> waiters_{0};    ///< threads asleep in wait_until()
};

}  // namespace dfg::mpi
