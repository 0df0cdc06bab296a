/// \file
/// dfg::Checkpoints: periodic checkpoints of a run on one host (--checkpoint FILE,
/// --checkpoint-every N) and the restart from one (--restart FILE).
///
/// A checkpoint of iteration K holds what a run that begins at K needs besides the program:
/// - the state of every node whose actor has save/restore, saved right after its firing of
///   iteration K - 1 (whichever PE fired it, when the node migrates);
/// - per input fed by an edge with a delay d, the d tokens its node reads in iterations
///   K .. K + d - 1 (its producer's outputs of K - d .. K - 1, or initial tokens), kept as the
///   node reads them.
/// Tokens on edges without a delay are not saved: the restarted run makes them again from its
/// sources, which must compute iteration K's tokens from K (ctx.iteration()) or from their
/// saved state. A node that keeps state without save/restore (its class keeps a data member
/// other than its params) starts as init() leaves it: the program warns at start-up.
///
/// The workers fill a checkpoint as they fire; the last part completes it and a writer thread
/// of its own encodes it and replaces FILE atomically (dfg/checkpoint_file.hpp), so the workers
/// never write to the disk. A ring of generations lets the workers fill later checkpoints while
/// an earlier one is written; a worker that finds its generation still being written waits (a
/// disk slower than the checkpoints).
///
/// A restarted run is a run of the iterations K .. N - 1 (N from --iterations) whose cycles are
/// numbered from 0 as usual: its items see j from 0, the actors see j + K (dfg::Node adds it to
/// ctx.iteration()), the nodes with state restore it before their first firing and the delayed
/// inputs read the saved tokens as their initial tokens (restore_initial_tokens). Its outputs
/// are those of the uninterrupted run from iteration K on.
///
/// Guarantees:
/// - Construction (main thread, before the workers): reads and checks --restart FILE, checks
///   that --checkpoint FILE can be written, and throws std::runtime_error with a one-line
///   `error: --restart FILE: ...` or `error: --checkpoint FILE: ...` (nothing has run); starts
///   the writer thread.
/// - restore(), save(), keep() are called by the worker of the node's PE; the inline tests
///   neither block nor allocate; a save or keep that fills a checkpoint copies bytes (save()
///   may allocate past dfg::State's reserve) and may wait for the writer (throws dfg::Aborted
///   once the run stopped).
/// - finish() (main thread, after the workers joined) lets the writer write every complete
///   checkpoint and joins it; the destructor does too.
#pragma once

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "dfg/abort.hpp"
#include "dfg/checkpoint_file.hpp"
#include "dfg/options.hpp"
#include "dfg/state.hpp"

namespace dfg {

/// An input fed by an edge with a delay, as the generated tables list it: "f.state", its delay
/// in cycles, the bytes of one token at the run's params.
template <class Params>
struct CheckpointInput {
  const char* name;
  std::int64_t delay;
  std::size_t (*bytes)(const Params&);
};

/// What the generated program says a checkpoint of it holds (app.hpp's kCheckpoint).
template <class Params>
struct CheckpointTable {
  const char* app = "";
  std::uint64_t spec = 0;     ///< digest of the graph: nodes, actors, edges, delays, params
  std::uint64_t mapping = 0;  ///< digest of the placement and the migration alternatives
  std::span<const char* const> nodes = {};  ///< the nodes with save/restore, by index
  std::span<const CheckpointInput<Params>> inputs = {};
  /// Per node that keeps state without save/restore: "node 'x' (class X) keeps data member 'm'".
  std::span<const char* const> unsaved = {};
  const char* refused = "";  ///< why this program takes no checkpoints; "" when it can
};

/// A CheckpointTable at the run's params: what dfg::Checkpoints works with.
struct CheckpointLayout {
  struct Input {
    std::string name;
    std::int64_t delay = 0;
    std::size_t bytes = 0;
  };
  std::string app;
  std::uint64_t spec = 0, mapping = 0;
  std::vector<std::string> nodes;
  std::vector<Input> inputs;
  std::vector<std::string> unsaved;
  std::string refused;
  std::vector<std::pair<std::string, std::int64_t>> params;  ///< the runtime params' values
  std::int64_t batch = 1;

  template <class Params>
  static CheckpointLayout of(const CheckpointTable<Params>& t, const Params& params,
                             const Options& options) {
    CheckpointLayout l;
    l.app = t.app;
    l.spec = t.spec;
    l.mapping = t.mapping;
    l.nodes.assign(t.nodes.begin(), t.nodes.end());
    for (const CheckpointInput<Params>& in : t.inputs)
      l.inputs.push_back({in.name, in.delay, in.bytes(params)});
    l.unsaved.assign(t.unsaved.begin(), t.unsaved.end());
    l.refused = t.refused;  // the plan refuses a program with no part: see plan_checkpoints
    for (std::size_t i = 0; i < options.params.size() && i < options.param_names.size(); ++i)
      l.params.emplace_back(options.param_names[i], options.params[i]);
    l.batch = options.batch;
    return l;
  }
};

class Checkpoints {
 public:
  /// Without --checkpoint and --restart: does nothing. `latency`: the strategy's pipeline depth
  /// in cycles (how many checkpoints can be filled at once). Throws std::runtime_error (the
  /// one-line start-up error).
  Checkpoints(const Options& options, CheckpointLayout layout, std::int64_t latency,
              Abort& abort = process_abort())
      : layout_(std::move(layout)),
        file_(options.checkpoint_file),
        every_(options.checkpoint_file.empty() ? 0 : options.checkpoint_every),
        total_(options.iterations),
        abort_(abort) {
    if (options.checkpoint_file.empty() && options.restart_file.empty()) return;
    const std::string flag = options.restart_file.empty() ? "--checkpoint" : "--restart";
    if (!layout_.refused.empty())
      throw std::runtime_error(flag + ": this program takes no checkpoints: " + layout_.refused);
    if (!options.restart_file.empty()) load(options.restart_file);
    if (every_ > 0) open_for_writing(latency);
    flag_ = flag;
    restart_file_ = options.restart_file;
  }
  ~Checkpoints() { finish(); }
  Checkpoints(const Checkpoints&) = delete;
  Checkpoints& operator=(const Checkpoints&) = delete;

  /// Once the run's start-up checks passed: warns of the nodes whose state a restart cannot
  /// give back, and says where a restarted run resumes.
  void announce(std::ostream& err) const {
    if (flag_.empty()) return;
    for (const std::string& u : layout_.unsaved)
      err << "warning: " << flag_ << ": " << u
          << " but has no save/restore: a restarted run begins it as init() leaves it\n";
    if (first_ > 0)
      err << "restart: from " << restart_file_ << ", iteration " << first_ * layout_.batch << " of "
          << total_ * layout_.batch << '\n';
  }

  /// The cycle the run resumes with (--restart), 0 otherwise.
  std::int64_t first() const noexcept { return first_; }
  /// Whether the run writes checkpoints or resumes from one: actors must then be called every
  /// cycle (a GPU relaunches no CUDA graph).
  bool active() const noexcept { return every_ > 0 || first_ > 0; }

  /// Before node `node`'s firing of the run's cycle j: the first one restores its state.
  template <class Actor>
  void restore(std::size_t node, Actor& actor, std::int64_t j) {
    if (j != 0 || first_ == 0) return;
    State& s = restored_[node];
    s.rewind();
    if constexpr (requires { actor.restore(s); }) actor.restore(s);
  }
  /// After node `node`'s firing of the run's cycle j: saves its state when a checkpoint begins
  /// with the next iteration.
  template <class Actor>
  void save(std::size_t node, const Actor& actor, std::int64_t j) {
    const std::int64_t next = j + 1 + first_;
    if (every_ == 0 || next % every_ != 0 || next >= total_) return;
    Generation& g = acquire(next);
    State& s = g.states[node];
    s.clear();
    if constexpr (requires { actor.save(s); }) actor.save(s);
    part_done(g);
  }
  /// Delayed input `input`'s token of cycle j, about to be read by its node: kept, when a
  /// checkpoint needs it, by `copy(destination, bytes)`. Returns `token`.
  template <class T, class Copy>
  T* keep_with(std::size_t input, std::int64_t j, T* token, Copy&& copy) {
    if (every_ == 0) return token;
    const std::int64_t a = j + first_;
    const CheckpointLayout::Input& in = layout_.inputs[input];
    for (std::int64_t k = a / every_ * every_; k > first_ && a - k < in.delay; k -= every_) {
      Generation& g = acquire(k);
      copy(g.tokens[input].data() + static_cast<std::size_t>(a - k) * in.bytes, in.bytes);
      part_done(g);
    }
    return token;
  }
  /// The same, for a token in host memory.
  template <class T>
  T* keep(std::size_t input, std::int64_t j, T* token) {
    return keep_with(input, j, token, [token](std::byte* to, std::size_t n) {
      std::memcpy(to, static_cast<const void*>(token), n);
    });
  }

  /// A restarted run: token k (< the input's delay) that delayed input `input` reads in the
  /// run's cycle k; null otherwise.
  const std::byte* restored_token(std::size_t input, std::int64_t k) const noexcept {
    if (first_ == 0) return nullptr;
    return restored_tokens_[input].data() +
           static_cast<std::size_t>(k) * layout_.inputs[input].bytes;
  }
  std::size_t token_bytes(std::size_t input) const noexcept { return layout_.inputs[input].bytes; }

  /// After the workers joined: the writer writes every checkpoint the run completed, then ends;
  /// says on `err` what FILE holds. Idempotent.
  void finish(std::ostream* err = nullptr) {
    if (writer_.joinable()) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
      }
      done_.notify_all();
      writer_.join();
    }
    if (err == nullptr || every_ == 0) return;
    if (!write_error_.empty()) *err << "warning: --checkpoint: " << write_error_ << '\n';
    if (written_ == 0)
      *err << "checkpoint: none written (the run ended before iteration "
           << (first_ / every_ + 1) * every_ * layout_.batch << " was complete)\n";
    else
      *err << "checkpoint: " << file_ << " holds iteration " << last_written_ * layout_.batch
           << " (" << written_ << " written)\n";
  }

 private:
  struct Generation {
    std::atomic<std::int64_t> owner{-1};         ///< the checkpoint it is for (its iteration)
    std::atomic<std::size_t> missing{0};         ///< parts not yet filled
    std::vector<State> states;                   ///< per node
    std::vector<std::vector<std::byte>> tokens;  ///< per delayed input: delay tokens
  };

  std::size_t parts() const noexcept {
    std::size_t n = layout_.nodes.size();
    for (const CheckpointLayout::Input& in : layout_.inputs)
      n += static_cast<std::size_t>(in.delay);
    return n;
  }

  void load(const std::string& path) {
    const std::string head = "--restart " + path + ": ";
    std::vector<std::byte> bytes;
    if (std::string why = read_whole_file(path, bytes); !why.empty())
      throw std::runtime_error(head + "cannot read it: " + why);
    CheckpointData d;
    if (std::string why = decode_checkpoint(bytes, d); !why.empty())
      throw std::runtime_error(head + why);
    if (d.app != layout_.app)
      throw std::runtime_error(head + "a checkpoint of application '" + d.app +
                               "', not of this program's '" + layout_.app + "'");
    if (d.spec != layout_.spec)
      throw std::runtime_error(head + "a checkpoint of another version of application '" + d.app +
                               "' (its nodes, actors, edges, delays or params differ from this "
                               "program's)");
    if (d.mapping != layout_.mapping)
      throw std::runtime_error(head + "a checkpoint of another mapping of application '" + d.app +
                               "' (its nodes are placed elsewhere); restart it with the "
                               "program generated from that mapping");
    if (d.hosts != 1)
      throw std::runtime_error(head + "taken by a program on " + std::to_string(d.hosts) +
                               " hosts (ranks); this one runs on 1");
    if (d.batch != layout_.batch)
      throw std::runtime_error(head + "taken with " + std::to_string(d.batch) +
                               " iterations a cycle; this program runs " +
                               std::to_string(layout_.batch));
    if (d.params != layout_.params) {
      for (std::size_t i = 0; i < layout_.params.size(); ++i) {
        const auto& [name, value] = layout_.params[i];
        const std::string was = i < d.params.size() && d.params[i].first == name
                                    ? std::to_string(d.params[i].second)
                                    : std::string("(none)");
        if (was != std::to_string(value))
          throw std::runtime_error(head + "taken with runtime param " + name + " = " + was +
                                   "; this run has " + name + " = " + std::to_string(value) +
                                   " (give --set " + name + "=" + was + ")");
      }
      throw std::runtime_error(head + "its runtime params differ from this program's");
    }
    if (d.iteration <= 0 || d.iteration >= total_)
      throw std::runtime_error(head + "it resumes with iteration " +
                               std::to_string(d.iteration * d.batch) +
                               ", at or past the end of this run (--iterations " +
                               std::to_string(total_ * d.batch) + "); nothing to run");
    restored_.resize(layout_.nodes.size());
    restored_tokens_.resize(layout_.inputs.size());
    std::vector<bool> found(layout_.nodes.size() + layout_.inputs.size(), false);
    for (const CheckpointData::Section& s : d.sections) {
      const std::vector<std::string>* names = nullptr;
      std::size_t i = 0;
      if (s.kind == 0) {
        names = &layout_.nodes;
        i = static_cast<std::size_t>(std::find(names->begin(), names->end(), s.name) -
                                     names->begin());
        if (i < names->size()) restored_[i].assign(s.bytes);
      } else {
        auto it =
            std::find_if(layout_.inputs.begin(), layout_.inputs.end(),
                         [&](const CheckpointLayout::Input& in) { return in.name == s.name; });
        i = static_cast<std::size_t>(it - layout_.inputs.begin());
        if (it != layout_.inputs.end()) {
          if (s.bytes.size() != static_cast<std::size_t>(it->delay) * it->bytes)
            throw std::runtime_error(
                head + "its tokens of input '" + s.name + "' are " +
                std::to_string(s.bytes.size()) + " bytes, not the " +
                std::to_string(static_cast<std::size_t>(it->delay) * it->bytes) +
                " this program's delay and token size make");
          restored_tokens_[i] = s.bytes;
        }
        i += layout_.nodes.size();
      }
      if (i >= found.size() || (s.kind == 0 && i >= layout_.nodes.size()))
        throw std::runtime_error(head + "it holds " + (s.kind == 0 ? "node '" : "input '") +
                                 s.name + "', which this program does not have");
      found[i] = true;
    }
    for (std::size_t i = 0; i < found.size(); ++i)
      if (!found[i])
        throw std::runtime_error(head + "it holds nothing for " +
                                 (i < layout_.nodes.size()
                                      ? "node '" + layout_.nodes[i]
                                      : "input '" + layout_.inputs[i - layout_.nodes.size()].name) +
                                 "'");
    first_ = d.iteration;
  }

  void open_for_writing(std::int64_t latency) {
    const std::string head = "--checkpoint " + file_ + ": ";
    struct stat st{};
    if (::stat(file_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      throw std::runtime_error(head + "not a regular file (a checkpoint replaces FILE whole)");
    // The writer's FILE.tmp must be creatable beside FILE: tried now, not at the first
    // checkpoint.
    const std::string tmp = file_ + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      throw std::runtime_error(head + "cannot create '" + tmp + "': " + std::strerror(errno));
    ::close(fd);
    ::unlink(tmp.c_str());
    // Checkpoints whose parts can be filled at once: those within the pipeline's depth and the
    // longest delay, plus one being written.
    std::int64_t span = latency + 1;
    for (const CheckpointLayout::Input& in : layout_.inputs)
      span = std::max(span, latency + in.delay);
    const std::size_t count =
        static_cast<std::size_t>(std::min<std::int64_t>(64, 2 + (span + every_ - 1) / every_));
    generations_ = std::make_unique<Generation[]>(count);
    count_ = count;
    const std::int64_t first_n = first_ / every_ + 1;
    for (std::size_t i = 0; i < count; ++i) {
      const std::int64_t n = first_n + static_cast<std::int64_t>(i);  // checkpoint n: n x every
      Generation& g = slot_of(n * every_);
      g.owner.store(n * every_, std::memory_order_relaxed);
      g.missing.store(parts(), std::memory_order_relaxed);
      g.states.resize(layout_.nodes.size());
      for (const CheckpointLayout::Input& in : layout_.inputs)
        g.tokens.emplace_back(static_cast<std::size_t>(in.delay) * in.bytes);
    }
    writer_ = std::thread([this, first_n] { write_loop(first_n); });
  }

  Generation& slot_of(std::int64_t k) noexcept {
    return generations_[static_cast<std::size_t>(k / every_) % count_];
  }
  /// The generation of the checkpoint of iteration k, once the writer has released it.
  Generation& acquire(std::int64_t k) {
    Generation& g = slot_of(k);
    while (g.owner.load(std::memory_order_acquire) != k) {
      if (abort_.stopped()) throw Aborted();
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    return g;
  }
  void part_done(Generation& g) {
    if (g.missing.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    std::lock_guard<std::mutex> lock(mutex_);
    done_.notify_all();
  }

  void write_loop(std::int64_t n) {
    for (;; ++n) {
      const std::int64_t k = n * every_;
      Generation& g = slot_of(k);
      {
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return g.missing.load(std::memory_order_acquire) == 0 || stop_; });
        if (g.missing.load(std::memory_order_acquire) != 0) return;  // stopped, incomplete
      }
      write(g, k);
      g.missing.store(parts(), std::memory_order_relaxed);
      g.owner.store(k + static_cast<std::int64_t>(count_) * every_, std::memory_order_release);
    }
  }
  void write(const Generation& g, std::int64_t k) {
    CheckpointData header;
    header.app = layout_.app;
    header.spec = layout_.spec;
    header.mapping = layout_.mapping;
    header.iteration = k;
    header.batch = layout_.batch;
    header.params = layout_.params;
    CheckpointWriter w;
    w.header(header, static_cast<std::uint32_t>(layout_.nodes.size() + layout_.inputs.size()));
    for (std::size_t i = 0; i < layout_.nodes.size(); ++i)
      w.section(0, layout_.nodes[i], g.states[i].bytes());
    for (std::size_t i = 0; i < layout_.inputs.size(); ++i)
      w.section(1, layout_.inputs[i].name, g.tokens[i]);
    w.seal();
    if (std::string why = replace_file(file_, w.out); !why.empty()) {
      if (write_error_.empty())
        write_error_ = why + " (the checkpoint of iteration " + std::to_string(k * layout_.batch) +
                       " and later ones are lost; '" + file_ + "' keeps the one before)";
      return;
    }
    ++written_;
    last_written_ = k;
  }

  const CheckpointLayout layout_;
  const std::string file_;
  const std::int64_t every_;  ///< cycles between checkpoints; 0: none written
  const std::int64_t total_;  ///< the iterations (cycles) of the whole run, from 0
  Abort& abort_;
  std::string flag_, restart_file_;  ///< the flag that asked for them; --restart's file
  std::int64_t first_ = 0;
  std::vector<State> restored_;                          ///< per node, a restart's
  std::vector<std::vector<std::byte>> restored_tokens_;  ///< per delayed input, a restart's
  std::unique_ptr<Generation[]> generations_;
  std::size_t count_ = 0;
  std::mutex mutex_;
  std::condition_variable done_;
  bool stop_ = false;
  std::thread writer_;
  // The writer's, read by finish() after joining it.
  std::int64_t written_ = 0, last_written_ = 0;
  std::string write_error_;
};

/// A restarted run: fills the initial tokens of delayed input `input` (`buffer`, a host buffer
/// of one slot per token) with the tokens the checkpoint kept. Start-up, the owner's thread.
template <class Buffer>
void restore_initial_tokens(const Checkpoints& checkpoints, std::size_t input,
                            const Buffer& buffer) {
  for (std::size_t k = 0; k < buffer.slots(); ++k) {
    const std::byte* saved = checkpoints.restored_token(input, static_cast<std::int64_t>(k));
    if (saved == nullptr) return;
    std::memcpy(buffer.template slot_as<std::byte>(k), saved, checkpoints.token_bytes(input));
  }
}

}  // namespace dfg
