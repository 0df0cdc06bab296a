/// \file
/// dfg::Context: what a firing may ask of the runtime. Host-only header: it names the CUDA stream
/// type without including CUDA, so CPU actors compile without the CUDA toolkit.
///
/// Guarantees: a Context is owned by the worker thread of one processing element and passed to
/// the actor it fires; its accessors do not block, allocate or synchronise, except
/// runtime_param() and elements(name), which allocate the message of the exception they throw
/// for an unknown name, and end_stream(), which takes its run's lock once (dfg::StreamEnd).
/// Everything a context reads besides the iteration, the run's runtime params (through one
/// pointer to the run state's table), the node's firings per call and its port elements, is set
/// once by the node's set-up (dfg::Node::set_up) in its worker's constructor, on the main thread
/// before any worker thread starts, and only read afterwards: the threads' creation orders the
/// writes before every read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/stream_end.hpp"

struct CUstream_st;  // cudaStream_t is `CUstream_st*` in the CUDA runtime

namespace dfg {

/// The values of the program's runtime params in this run, by name (`runtime param` in the spec,
/// set by --set and --params).
struct RuntimeParamValues {
  std::vector<std::string> names;
  std::vector<std::int64_t> values;
  /// A restarted run's first cycle (--restart): what the nodes add to the cycle a firing's
  /// context says (dfg::Node); 0 otherwise.
  std::int64_t first_cycle = 0;
};

class Context {
 public:
  /// The stream every GPU firing must enqueue its work on (null on a CPU).
  CUstream_st* stream() const noexcept { return stream_; }
  /// The CUDA device ordinal of the firing's GPU; -1 on a CPU.
  int device() const noexcept { return device_; }
  /// The iteration this firing produces (0-based, counted from the node's first valid firing);
  /// for a `block` implementation of a batched program (`batch K`), the first of the K
  /// iterations its call makes.
  std::int64_t iteration() const noexcept { return iteration_; }
  /// Elements per token of the port with this index in the actor's declaration order; with rates,
  /// the tokens of one firing (rate x token), or of the whole block (all firings of the cycle)
  /// for an implementation declared `block`.
  std::size_t elements(std::size_t port) const noexcept {
    return port < port_count_ ? port_elements_[port] : 0;
  }
  /// The same for the port named `port` in the actor's declaration. Throws
  /// std::invalid_argument for a name the actor has no port of (dfgc checks a literal name).
  std::size_t elements(std::string_view port) const {
    for (std::size_t i = 0; port_names_ != nullptr && i < port_count_; ++i)
      if (port == port_names_[i]) return port_elements_[i];
    std::string known;
    for (std::size_t i = 0; port_names_ != nullptr && i < port_count_; ++i)
      known += (i > 0 ? ", " : "") + std::string(port_names_[i]);
    throw std::invalid_argument("ctx.elements(\"" + std::string(port) +
                                "\"): the actor has no port of that name (its ports: " + known +
                                ")");
  }
  /// The value of the runtime param `name` in this run (its default unless --set or --params
  /// changed it): what an actor needs of the runtime params beyond its token sizes, such as the
  /// width and height of an image whose tokens hold W * H pixels. Throws std::invalid_argument
  /// for a name the program has no runtime param of.
  std::int64_t runtime_param(std::string_view name) const {
    for (std::size_t i = 0;
         params_ != nullptr && i < params_->names.size() && i < params_->values.size(); ++i)
      if (params_->names[i] == name) return params_->values[i];
    throw std::invalid_argument("no runtime param '" + std::string(name) + "' in this program");
  }

  /// The node's firings per iteration (its entry of the repetition vector): 1 without rates.
  /// fire is called that many times per iteration, once per firing, unless the implementation
  /// is declared `block` (then one call makes them all, and this counts the firings of the
  /// whole cycle: K times as many in a program of `batch K`).
  std::uint32_t firings() const noexcept { return firings_; }
  /// Which firing of the iteration this call makes: 0 .. firings() - 1, in order; always 0 for a
  /// `block` implementation.
  std::uint32_t firing() const noexcept { return firing_; }
  /// How many of the node's first firings see a value from before the stream: a peek window's
  /// history, an edge's initial tokens outside a loop, or a token that such a firing upstream
  /// made (dfgc computes it; the plan and schedule.txt show it as the node's "warm-up"). 0 when
  /// every firing sees the stream's own tokens only.
  std::int64_t warm_up() const noexcept { return warm_up_; }
  /// Whether this call's firing is one of those (for a `block` implementation, its first
  /// firing): a sink that compares its input with a reference that has no warm-up (StreamIt's
  /// filters wait for full windows) skips it.
  bool warming_up() const noexcept { return number_ < warm_up_; }

  /// Ends the stream after this iteration: its firings and everything downstream of them run,
  /// no later iteration does, and the run ends normally (every node drained, `finish` called,
  /// exit status 0). With a batch of K iterations a cycle, the run ends after the batch that
  /// holds this iteration. Only for a node whose actor says `ends stream;` in the spec: throws
  /// std::logic_error otherwise. Several calls, or several nodes: the earliest end wins.
  void end_stream() { request_end(iteration_); }
  /// Ends the stream before this iteration: what this firing makes is never consumed (a source
  /// that finds no more input). In iteration 0 the run fires nothing downstream of the node.
  void end_stream_before() { request_end(iteration_ - 1); }

  // Set by the generated program only.
  /// The node may end the stream (`ends stream;`): `end` is its run's, `who` names the node in
  /// the run's report; `batch` and `first_cycle` as dfg::Node's.
  void set_end(StreamEnd* end, const char* who, std::int64_t batch,
               std::int64_t first_cycle) noexcept {
    end_ = end;
    who_ = who;
    batch_ = batch;
    first_cycle_ = first_cycle;
  }
  /// The names of the ports, in the actor's declaration order (as many as set_node's count).
  void set_port_names(const char* const* names) noexcept { port_names_ = names; }
  void set_stream(CUstream_st* s) noexcept { stream_ = s; }
  void set_device(int d) noexcept { device_ = d; }
  void set_iteration(std::int64_t i) noexcept { iteration_ = i; }
  void set_firing(std::uint32_t k) noexcept { firing_ = k; }
  /// The node's warm-up firings (warm_up()), and the number of this call's (first) firing in the
  /// run, counted from 0 (what warming_up() compares).
  void set_warm_up(std::int64_t firings) noexcept { warm_up_ = firings; }
  void set_number(std::int64_t firing) noexcept { number_ = firing; }
  /// The run's runtime params (its run state's table, which outlives the context), the node's
  /// firings per iteration and the elements per port one call sees.
  void set_node(const RuntimeParamValues* params, std::uint32_t firings,
                const std::size_t* elements, std::size_t count) noexcept {
    params_ = params;
    firings_ = firings;
    port_elements_ = elements;
    port_count_ = count;
  }

 private:
  const RuntimeParamValues* params_ = nullptr;
  CUstream_st* stream_ = nullptr;
  int device_ = -1;
  std::int64_t iteration_ = 0;
  std::uint32_t firings_ = 1;
  std::uint32_t firing_ = 0;
  std::int64_t warm_up_ = 0, number_ = 0;
  const std::size_t* port_elements_ = nullptr;
  std::size_t port_count_ = 0;
  const char* const* port_names_ = nullptr;
  StreamEnd* end_ = nullptr;
  const char* who_ = "";
  std::int64_t batch_ = 1, first_cycle_ = 0;

  /// The cycle of this run that holds iteration i (-1 and less: before the run's first).
  std::int64_t cycle_of(std::int64_t i) const noexcept {
    const std::int64_t q = i / batch_ - (i % batch_ < 0 ? 1 : 0);  // floor
    return q - first_cycle_;
  }
  void request_end(std::int64_t last_iteration) {
    if (end_ == nullptr)
      throw std::logic_error(
          "ctx.end_stream(): only a node whose actor says `ends stream;` in the spec may end "
          "the stream");
    end_->request(cycle_of(last_iteration), cycle_of(iteration_), who_, last_iteration);
  }
};

}  // namespace dfg
