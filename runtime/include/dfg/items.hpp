/// \file
/// dfg::Items: the items of one processing element's cycle loop (its firings, transfers and
/// delay copies), each run only inside its window, with what an error in it names (dfg::Where),
/// its NVTX range and its probe around it, so that a generated loop holds only each item's own
/// work:
///
///     dfg::Items items(run_, where, kPe_A_cpu);
///     items.cycles([&](std::int64_t c) {   // begin(c), the body, end_cycle(c), for every cycle
///       items.run(overlap::fire_p, [&](std::int64_t j) { p_node_.fire(j, ...); });
///     });                                   // ~Items: the loop is over (WindowCursor::finish)
///
/// An item's body is called with its iteration j (cycle c minus the entry's first cycle), or
/// with nothing where it takes nothing. `Run` is a dfg::RunState (dfg/run.hpp): its entries give
/// each item's first cycle, label and name.
///
/// Guarantees: an Items belongs to the worker thread of its PE. begin() blocks as
/// RunState::begin_cycle and WindowCursor::begin do, and throws dfg::Aborted once the run
/// stopped; an item allocates nothing beyond what its body does and reads the clock only when
/// the probes are on (dfg::Probe). An exception from a body leaves the item named in the Where.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "dfg/nvtx.hpp"
#include "dfg/probe.hpp"
#include "dfg/stream_end.hpp"
#include "dfg/window.hpp"
#include "dfg/worker.hpp"

namespace dfg {

template <class Run>
class Items {
 public:
  Items(Run& run, Where& where, int pe)
      : run_(run), where_(where), pe_(pe), win_(run.windows.cursor(pe)) {}
  /// The loop is over (or left by an exception): no window change waits for this PE any more.
  ~Items() { win_.finish(); }
  Items(const Items&) = delete;
  Items& operator=(const Items&) = delete;

  /// Begins cycle c: with overlap and --sync=neighbours, waits for the neighbours' cycle c - 1;
  /// fixes the cycle's windows.
  void begin(std::int64_t c) {
    run_.begin_cycle(pe_, c);
    win_.begin(c);
    cycle_ = c;
  }
  /// Names the items after cycle c, begun earlier, where every item has the same window in c
  /// as in the cycle begun last (a GPU's graph of several cycles, dfg::GpuItems).
  void name_cycle(std::int64_t c) noexcept { cycle_ = c; }
  /// The cycle before which `entry`'s window of the current cycle ends (or the stream does).
  std::int64_t active_until(std::size_t entry) const noexcept {
    return std::min(win_.window(entry).stop,
                    run_.entries[entry].first_cycle + run_.stream_end.last() + 1);
  }
  /// Ends cycle c of the PE (RunState::end_cycle).
  void end_cycle(std::int64_t c) { run_.end_cycle(pe_, c); }

  /// The cycle loop: for every cycle c of the run, begin(c), body(c), end_cycle(c), then
  /// between() (on several hosts: what the rank's threads do between two of its cycles).
  template <class Body, class Between>
  void cycles(Body&& body, Between&& between) {
    cycle_loop(*this, run_.stream_end, body, between);
  }
  template <class Body>
  void cycles(Body&& body) {
    cycles(body, [] {});
  }

  /// The loop of cycles() for `items`, an Items or a dfg::GpuItems: until the run's stop, which
  /// a node that ends the stream lowers (dfg::StreamEnd); a cycle begun past it does not run.
  /// Then the PE leaves (RunState::leave).
  template <class Loop, class Body, class Between>
  static void cycle_loop(Loop& items, const StreamEnd& end, Body& body, Between& between) {
    for (std::int64_t c = 0; c < end.stop(); ++c) {
      items.begin(c);
      if (c >= end.stop()) break;
      body(c);
      items.end_cycle(c);
      between();
    }
    items.leave();
  }
  /// The PE's loop is over: drained, it leaves (RunState::leave).
  void leave() noexcept { run_.leave(pe_); }

  /// A CPU firing or delay copy: timed by a dfg::Probe.
  template <class Body>
  void run(std::size_t entry, Body&& body) {
    if (!active(entry)) return;
    const std::int64_t j = name(entry);
    DFG_NVTX_RANGE(run_.entries[entry].name);
    Probe probe(run_.probes, entry, j);
    call(body, j);
  }

  /// This host's end of a host-to-host transfer, posted to MPI: timed by the transfer itself.
  template <class Body>
  void post(std::size_t entry, Body&& body) {
    if (!active(entry)) return;
    const std::int64_t j = name(entry);
    DFG_NVTX_RANGE(run_.entries[entry].name);
    call(body, j);
  }

  /// Whether `entry` runs in this cycle; if so, names it in the Where and returns true with its
  /// iteration in `j`. For the items timed elsewhere (a GPU's: dfg::GpuItems).
  bool enter(std::size_t entry, std::int64_t& j) {
    if (!active(entry)) return false;
    j = name(entry);
    return true;
  }

  /// A node whose state moves (dfg/state.hpp): whether its iteration j is the first of its
  /// window after a switch (restore before firing) or the last before one (save after).
  bool resumes(std::size_t entry, std::int64_t j) const noexcept {
    return j > 0 && j == win_.window(entry).start - run_.entries[entry].first_cycle;
  }
  bool suspends(std::size_t entry, std::int64_t j) const noexcept {
    const std::int64_t stop = win_.window(entry).stop - run_.entries[entry].first_cycle;
    return j + 1 == stop && stop < run_.iterations;
  }

  Run& state() const noexcept { return run_; }
  int pe() const noexcept { return pe_; }

  /// Calls body(j), or body() where it takes no iteration.
  template <class Body>
  static void call(Body& body, std::int64_t j) {
    if constexpr (std::is_invocable_v<Body&, std::int64_t>) {
      body(j);
    } else {
      body();
    }
  }

 private:
  /// Names `entry` in the Where, with the first iteration the cycle runs of it; returns its
  /// cycle j (cycle_ minus its first cycle; with a batch of K, iterations j K .. j K + K - 1).
  std::int64_t name(std::size_t entry) {
    const std::int64_t j = cycle_ - run_.entries[entry].first_cycle;
    where_.at(run_.labels[entry], (j + run_.runtime_params.first_cycle) * run_.batch);
    return j;
  }

  /// Whether `entry` runs in the current cycle: in its window, and not past the stream's end.
  bool active(std::size_t entry) const noexcept {
    return win_.active(entry) && cycle_ - run_.entries[entry].first_cycle <= run_.stream_end.last();
  }

  Run& run_;
  Where& where_;
  int pe_;
  WindowCursor win_;
  std::int64_t cycle_ = -1;
};

}  // namespace dfg
