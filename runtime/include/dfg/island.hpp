/// \file
/// dfg::Island: dynamic actors run to quiescence inside one firing of the static cycle, on the
/// thread of one CPU processing element, over dfg::Fifo rings; dfg::Unpack and dfg::Pack, the
/// adapters at its boundary, turn the static tokens of the iteration into ring elements and back.
///
///     dfg::Fifo<std::uint8_t> coded(256);  dfg::Fifo<std::uint8_t> bytes(64);
///     dfg::Unpack<std::uint8_t> in(coded, "coded");         // static token -> ring
///     Expand expand{coded, bytes};                          // a dynamic actor: bool step()
///     dfg::Pack<std::uint8_t> out(bytes, 64, "block");     // ring -> static token of 64
///     dfg::Island island("decoder");
///     island.add(in, "coded");  island.add(expand, "expand");  island.add(out, "block");
///     ...
///     in.load(token, n);  out.begin(block);                 // each iteration j
///     island.run(j);                                        // to quiescence
///     in.finish(j);  out.finish(j);                         // all consumed, all produced
///
/// A dynamic actor is any class with `bool step()`: it selects one of its actions by its guards
/// (tokens available on its input rings, room on its outputs, its state), fires it, and returns
/// whether it fired. run() calls every actor's step() in the order they were added, round after
/// round, until a round in which none fired: quiescence. The actors keep their state and the
/// rings keep their tokens from one iteration to the next.
///
/// dfg::PackBounded packs a token of a bounded type: its length is what the island produced.
///
/// Errors (dfg::IslandError, what() naming the island, the port and the iteration; the generated
/// program adds the node): a Pack whose static token is not full at quiescence ("produced 17 of
/// 64 elements"), a PackBounded given more than its token's capacity, an Unpack whose token was not
/// all taken in ("took 10 of 64 elements": the island is stuck, its ring full), more than
/// `max_firings` firings in one run() (an island that never quiesces).
///
/// Guarantees: one thread runs an island and its actors; run() does not block or allocate, except
/// to build an error's message; add() allocates (set-up only). The rings between the island's
/// actors are SPSC rings whose both ends this thread holds, so their memory ordering is that of
/// dfg::Fifo (release commits, acquire reads) and costs one uncontended atomic per batch.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dfg/fifo.hpp"

namespace dfg {

/// An island that is stuck, incomplete or does not quiesce in an iteration.
class IslandError final : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What run() needs of an actor.
template <class A>
concept DynamicActor = requires(A& a) {
  { a.step() } -> std::same_as<bool>;
};

class Island {
 public:
  explicit Island(std::string name, std::uint64_t max_firings = std::uint64_t{1} << 26)
      : name_(std::move(name)), max_firings_(max_firings) {}

  Island(const Island&) = delete;
  Island& operator=(const Island&) = delete;

  /// Adds `actor` (which must outlive the island) to the round, after those added before.
  template <DynamicActor A>
  void add(A& actor, std::string_view name) {
    actors_.push_back(
        {&actor, [](void* a) { return static_cast<A*>(a)->step(); }, std::string(name)});
  }

  /// Fires the actors round after round until none fires; returns the firings of this run.
  /// Throws IslandError after more than max_firings firings.
  std::uint64_t run(std::int64_t iteration) {
    std::uint64_t firings = 0;
    for (bool fired = true; fired;) {
      fired = false;
      for (Member& m : actors_) {
        while (m.step(m.actor)) {  // an actor fires while it can: fewer rounds, same result
          fired = true;
          if (++firings > max_firings_) {
            throw IslandError("island " + name_ + ": actor " + m.name + " still fires after " +
                              std::to_string(max_firings_) + " firings in iteration " +
                              std::to_string(iteration) + "; the island does not quiesce");
          }
        }
      }
    }
    total_ += firings;
    return firings;
  }

  const std::string& name() const noexcept { return name_; }
  /// Firings over every run().
  std::uint64_t total_firings() const noexcept { return total_; }

 private:
  struct Member {
    void* actor;
    bool (*step)(void*);
    std::string name;
  };

  std::string name_;
  std::uint64_t max_firings_;
  std::uint64_t total_ = 0;
  std::vector<Member> actors_;
};

/// The adapter into an island: each iteration, one static token's elements into a ring, as the
/// ring has room.
template <class T>
class Unpack {
 public:
  Unpack(Fifo<T>& out, const char* port) noexcept : out_(out), port_(port) {}

  /// This iteration's token: `n` elements at `data`, valid until finish().
  void load(const T* data, std::size_t n) noexcept {
    data_ = data;
    size_ = n;
    done_ = 0;
  }
  /// Pushes what fits; fired when it pushed anything.
  bool step() noexcept {
    if (done_ == size_) return false;
    const std::size_t k = out_.push_some(data_ + done_, size_ - done_);
    done_ += k;
    return k != 0;
  }
  /// Throws IslandError unless every element went in.
  void finish(std::string_view island, std::int64_t iteration) const {
    if (done_ == size_) return;
    throw IslandError("island " + std::string(island) + ": input '" + port_ + "' took " +
                      std::to_string(done_) + " of " + std::to_string(size_) +
                      " elements in iteration " + std::to_string(iteration) +
                      "; the island is stuck");
  }

 private:
  Fifo<T>& out_;
  const char* port_;
  const T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t done_ = 0;
};

/// The adapter out of an island: each iteration, one static token of `elements` elements from a
/// ring. It takes no more than the token holds: the rest stays for the next iteration.
template <class T>
class Pack {
 public:
  Pack(Fifo<T>& in, std::size_t elements, const char* port) noexcept
      : in_(in), size_(elements), port_(port) {}

  /// This iteration's token, `elements` elements at `data`.
  void begin(T* data) noexcept {
    data_ = data;
    done_ = 0;
  }
  bool step() noexcept {
    if (done_ == size_ || data_ == nullptr) return false;
    const std::size_t k = in_.pop_some(data_ + done_, size_ - done_);
    done_ += k;
    return k != 0;
  }
  /// Throws IslandError unless the token is full: the island produced no token this iteration.
  void finish(std::string_view island, std::int64_t iteration) {
    const std::size_t done = done_;
    data_ = nullptr;
    if (done == size_) return;
    throw IslandError("island " + std::string(island) + ": output '" + port_ + "' produced " +
                      std::to_string(done) + " of " + std::to_string(size_) +
                      " elements in iteration " + std::to_string(iteration) +
                      ": no token for this iteration");
  }

 private:
  Fifo<T>& in_;
  std::size_t size_;
  const char* port_;
  T* data_ = nullptr;
  std::size_t done_ = 0;
};

/// The adapter out of an island into a token of a bounded type read by a static actor: each
/// iteration, all the elements the island produced, up to the token's capacity; finish() gives
/// their count, the token's length. More than the capacity is an error, not the next token's
/// start: one firing of the island gives one token.
template <class T>
class PackBounded {
 public:
  PackBounded(Fifo<T>& in, const char* port) noexcept : in_(in), port_(port) {}

  /// This iteration's token: room for `capacity` elements at `data`.
  void begin(T* data, std::size_t capacity) noexcept {
    data_ = data;
    capacity_ = capacity;
    done_ = 0;
  }
  bool step() noexcept {
    if (data_ == nullptr || done_ == capacity_) return false;
    const std::size_t k = in_.pop_some(data_ + done_, capacity_ - done_);
    done_ += k;
    return k != 0;
  }
  /// The token's length; throws IslandError if the ring still holds elements at quiescence.
  std::size_t finish(std::string_view island, std::int64_t iteration) {
    const std::size_t done = done_;
    data_ = nullptr;
    if (in_.available() == 0) return done;
    throw IslandError("island " + std::string(island) + ": output '" + port_ +
                      "' produced more than the token's capacity of " + std::to_string(capacity_) +
                      " elements in iteration " + std::to_string(iteration));
  }

 private:
  Fifo<T>& in_;
  const char* port_;
  T* data_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t done_ = 0;
};

}  // namespace dfg
