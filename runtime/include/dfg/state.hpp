/// \file
/// dfg::State: an actor's state as bytes, for a node that migrates (`migrates` in the spec). An
/// actor that keeps state from one firing to the next declares
///
///     void save(dfg::State& s) const { s.put(sum); s.write(history, sizeof history); }
///     void restore(const dfg::State& s) { sum = s.get<double>(); s.read(history, sizeof history);
///     }
///
/// and dfgc calls save() on the old instance after its last firing before the switch and
/// restore() on the new one before its first (dfg::StateHandoff). restore() reads what save()
/// wrote, in the same order. An actor without them moves as a fresh instance (init()ed at
/// start-up): it must then keep no state between firings. On one host the handoff runs for every
/// move, with or without state, so that the new instance's first firing comes after the old one's
/// last: a sink's output stays in iteration order across the move.
///
/// dfg::StateHandoff carries one node's state from the worker thread of its old PE to the one of
/// its new PE: on one host through its own bytes, between hosts through a StateTransport (the
/// rank's dfg::mpi::MigrationLink: an MPI message of the bytes, sent and received by the rank's
/// communication thread, with the tag the plan reserves for the alternative). The migrator
/// routes each move before it takes effect (route()): the iteration it resumes with, and the
/// host at the other end; a move without a route stays on the host.
///
/// Guarantees:
/// - State: not thread-safe; put()/write() allocate only beyond the capacity reserved by the
///   constructor (kCapacity); get()/read() throw std::out_of_range past what was written.
/// - StateHandoff: save() is called by the old instance's worker, restore() by the new one's;
///   save() publishes with a release store, restore() waits (yielding) for the iteration it
///   resumes with an acquire load, so that the bytes save() wrote are visible; it throws
///   dfg::Aborted once the run stopped. The old instance's last firing is in an earlier cycle
///   than the new one's first (the migrations pass's delta), so the wait ends.
/// - Between hosts: save() hands the bytes to the transport (which copies them and returns),
///   restore() waits in the transport for the message of iteration j. route() is called by the
///   migrator thread before the change that moves the node is made (WindowTable::settle): the
///   workers read it after they begin a cycle of the new windows (seq_cst in the table), so the
///   route's plain fields are visible; a ring of kRoutes keeps the recent moves, more than the
///   moves a node can have in flight (one at a time).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <thread>
#include <tuple>
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
    static_assert(std::is_trivially_copyable_v<T>,
                  "dfg::State::put: trivially copyable types only");
    write(&value, sizeof value);
  }
  /// Reads the next value as `T`.
  template <class T>
  T get() const {
    static_assert(std::is_trivially_copyable_v<T>,
                  "dfg::State::get: trivially copyable types only");
    T value;
    read(&value, sizeof value);
    return value;
  }
  void write(const void* data, std::size_t n) {
    const auto* p = static_cast<const std::byte*>(data);
    bytes_.insert(bytes_.end(), p, p + n);
  }
  void read(void* data, std::size_t n) const {
    if (n > bytes_.size() - at_)
      throw std::out_of_range("dfg::State: restore reads more than save wrote");
    std::memcpy(data, bytes_.data() + at_, n);
    at_ += n;
  }
  std::size_t size() const noexcept { return bytes_.size(); }
  /// What save() wrote (a checkpoint's section: dfg/checkpoint.hpp).
  std::span<const std::byte> bytes() const noexcept { return bytes_; }
  /// Replaces the bytes with a saved state, to be read from its start (a restart).
  void assign(std::span<const std::byte> saved) {
    bytes_.assign(saved.begin(), saved.end());
    at_ = 0;
  }

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

/// Carries a node's state to or from another host (dfg::mpi::MigrationLink).
class StateTransport {
 public:
  /// Sends `state`, which resumes with iteration `next`, to `host` with `tag`; returns once the
  /// bytes are copied.
  virtual void send(std::size_t handoff, const State& state, std::int64_t next, int host,
                    int tag) = 0;
  /// Waits for the state that resumes with iteration `j` from `host` with `tag`, into `state`.
  virtual void receive(std::size_t handoff, State& state, std::int64_t j, int host, int tag) = 0;

 protected:
  ~StateTransport() = default;
};

class StateHandoff {
 public:
  static constexpr std::size_t kRoutes = 16;

  /// The handoff's index in the host's list, and the transport of its moves between hosts.
  void connect(std::size_t index, StateTransport* transport) noexcept {
    index_ = index;
    transport_ = transport;
  }
  /// The move that resumes with iteration `j` goes to or comes from `host` (MPI `tag`).
  void route(std::int64_t j, int host, int tag) noexcept {
    Route& r = routes_[next_route_++ % kRoutes];
    r.host = host;
    r.tag = tag;
    r.j.store(j, std::memory_order_release);
  }

  /// The old instance, after its firing of iteration `next` - 1. An actor without save() hands
  /// over no bytes: the handoff then only orders the new instance's first firing after the old
  /// one's last (on one host).
  template <class Actor>
  void save(const Actor& actor, std::int64_t next) {
    state_.clear();
    if constexpr (requires { actor.save(state_); }) actor.save(state_);
    if (const Route* r = route_of(next); r != nullptr && transport_ != nullptr) {
      transport_->send(index_, state_, next, r->host, r->tag);
      return;
    }
    ready_.store(next, std::memory_order_release);
  }
  /// The new instance, before its firing of iteration `j`: waits for the state saved for j.
  template <class Actor>
  void restore(Actor&& actor, std::int64_t j, Abort& abort = process_abort()) {
    if (const Route* r = route_of(j); r != nullptr && transport_ != nullptr) {
      transport_->receive(index_, state_, j, r->host, r->tag);
    } else {
      while (ready_.load(std::memory_order_acquire) != j) {
        if (abort.stopped()) throw Aborted();
        std::this_thread::yield();
      }
    }
    state_.rewind();
    if constexpr (requires { actor.restore(state_); }) actor.restore(state_);
  }

 private:
  struct Route {
    std::atomic<std::int64_t> j{-1};
    int host = -1;
    int tag = -1;
  };
  const Route* route_of(std::int64_t j) const noexcept {
    for (const Route& r : routes_)
      if (r.j.load(std::memory_order_acquire) == j) return &r;
    return nullptr;
  }

  State state_;
  std::atomic<std::int64_t> ready_{-1};  ///< the iteration the saved state resumes with
  std::size_t index_ = 0;
  StateTransport* transport_ = nullptr;
  Route routes_[kRoutes];
  std::size_t next_route_ = 0;  ///< the migrator thread's
};

/// A node's state with the histories of its peek windows (dfg/peek_window.hpp), as one for a
/// handoff: the windows' histories first, in port order, then the actor's save/restore, if it
/// has them. The generated worker passes `dfg::with_windows(node.actor, window0, ...)` where it
/// would pass the actor.
template <class Actor, class... Windows>
struct StateWithWindows {
  Actor& actor;
  std::tuple<Windows&...> windows;

  void save(State& s) const {
    std::apply([&s](const Windows&... w) { (w.save(s), ...); }, windows);
    if constexpr (requires { actor.save(s); }) actor.save(s);
  }
  void restore(const State& s) {
    std::apply([&s](Windows&... w) { (w.restore(s), ...); }, windows);
    if constexpr (requires { actor.restore(s); }) actor.restore(s);
  }
};

template <class Actor, class... Windows>
StateWithWindows<Actor, Windows...> with_windows(Actor& actor, Windows&... windows) {
  return {actor, std::tuple<Windows&...>(windows...)};
}

}  // namespace dfg
