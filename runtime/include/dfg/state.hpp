/// \file
/// dfg::State: an actor's state as bytes, for a node that migrates (`migrates` in the spec). An
/// actor that keeps state from one firing to the next declares
///
///     void save(dfg::State& s) const { s.put(sum); s.write(history, sizeof history); }
///     void restore(const dfg::State& s) { sum = s.get<double>(); s.read(history, sizeof history); }
///
/// and dfgc calls save() on the old instance after its last firing before the switch and
/// restore() on the new one before its first (dfg::StateHandoff). restore() reads what save()
/// wrote, in the same order. An actor without them moves as a fresh instance (init()ed at
/// start-up): it must then keep no state between firings.
///
/// dfg::StateHandoff carries one node's state from the worker thread of its old PE to the one of
/// its new PE, on one host.
///
/// Guarantees:
/// - State: not thread-safe; put()/write() allocate only beyond the capacity reserved by the
///   constructor (kCapacity); get()/read() throw std::out_of_range past what was written.
/// - StateHandoff: save() is called by the old instance's worker, restore() by the new one's;
///   save() publishes with a release store, restore() waits (yielding) for the iteration it
///   resumes with an acquire load, so that the bytes save() wrote are visible; it throws
///   dfg::Aborted once the run stopped. The old instance's last firing is in an earlier cycle
///   than the new one's first (the migrations pass's delta), so the wait ends.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

#include "dfg/abort.hpp"

namespace dfg {

class State {
 public:
  static constexpr std::size_t kCapacity = 64 * 1024;

  State() { bytes_.reserve(kCapacity); }

  /// Appends the bytes of `value` (trivially copyable).
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "dfg::State::put: trivially copyable types only");
    write(&value, sizeof value);
  }
  /// Reads the next value as `T`.
  template <class T>
  T get() const {
    static_assert(std::is_trivially_copyable_v<T>, "dfg::State::get: trivially copyable types only");
    T value;
    read(&value, sizeof value);
    return value;
  }
  void write(const void* data, std::size_t n) {
    const auto* p = static_cast<const std::byte*>(data);
    bytes_.insert(bytes_.end(), p, p + n);
  }
  void read(void* data, std::size_t n) const {
    if (n > bytes_.size() - at_) throw std::out_of_range("dfg::State: restore reads more than save wrote");
    std::memcpy(data, bytes_.data() + at_, n);
    at_ += n;
  }
  std::size_t size() const noexcept { return bytes_.size(); }

  /// Empties it for a save.
  void clear() noexcept {
    bytes_.clear();
    at_ = 0;
  }
  /// Reads from the start again.
  void rewind() const noexcept { at_ = 0; }

 private:
  std::vector<std::byte> bytes_;
  mutable std::size_t at_ = 0;
};

class StateHandoff {
 public:
  /// The old instance, after its firing of iteration `next` - 1.
  template <class Actor>
  void save(const Actor& actor, std::int64_t next) {
    state_.clear();
    actor.save(state_);
    ready_.store(next, std::memory_order_release);
  }
  /// The new instance, before its firing of iteration `j`: waits for the state saved for j.
  template <class Actor>
  void restore(Actor& actor, std::int64_t j, Abort& abort = process_abort()) {
    while (ready_.load(std::memory_order_acquire) != j) {
      if (abort.stopped()) throw Aborted();
      std::this_thread::yield();
    }
    state_.rewind();
    actor.restore(state_);
  }

 private:
  State state_;
  std::atomic<std::int64_t> ready_{-1};  ///< the iteration the saved state resumes with
};

}  // namespace dfg
