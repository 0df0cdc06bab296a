// A watchdog for multi-threaded tests: if the guarded scope has not finished after `seconds`,
// it prints what hung and ends the process with a failure, instead of letting the test hang.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace dfg_test {

class HangGuard {
 public:
  HangGuard(std::string what, int seconds) : what_(std::move(what)) {
    watchdog_ = std::thread([this, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!cv_.wait_for(lock, std::chrono::seconds(seconds), [this] { return done_; })) {
        std::fprintf(stderr, "FAILED: hang guard: '%s' did not finish within %d s\n", what_.c_str(),
                     seconds);
        std::fflush(stderr);
        std::_Exit(3);
      }
    });
  }
  ~HangGuard() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    watchdog_.join();
  }
  HangGuard(const HangGuard&) = delete;
  HangGuard& operator=(const HangGuard&) = delete;

 private:
  std::string what_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread watchdog_;
};

// Generous: the machine running the tests may be loaded, and sanitizers slow threads down.
inline constexpr int kHangSeconds = 300;

}  // namespace dfg_test
