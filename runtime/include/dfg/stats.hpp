/// \file
/// dfg::Stats: `--stats`. Per firing and per transfer: count, mean, min and max time; the
/// iteration period (the mean time between consecutive iteration ends in steady state, after
/// the first `warmup` cycles that fill the pipeline); the throughput (iterations/s, and bytes/s
/// from the bytes every transfer moves per iteration); the peak memory per processing element.
/// print() writes a fixed-width table:
///
///     kind      name                      pe            count   mean ms    min ms    max ms
///     firing    i1 (Inc)                  A.g0            100     1.234     1.200     1.500
///     transfer  p.m -> i1.a               A.cpu>A.g0      100     0.310     0.305     0.400
///     iteration period: 1.250 ms over 97 iterations (after 2 warm-up cycles)
///     throughput: 800.0 iterations/s, 12.5 GiB/s
///     peak memory: A.cpu 32 MiB, A.g0 64 MiB
///
/// A row is a run of the entry, once a cycle. A node that fires q times a cycle (rates, `batch`)
/// is called q times in one run: its row ends with the count and the mean time of one call,
/// "  x4: 0.98 us a firing".
///
/// On several hosts each rank prints its own table, headed by its host (print()'s `host`), and a
/// transfer between two hosts, timed on each rank from posting its end to seeing it complete,
/// says which end the row is:
///
///     host A
///     kind      name                      pe            count   mean ms    min ms    max ms
///     transfer  i1.b@A.cpu -> i1.b@B.cpu  A.cpu>B.cpu     100     0.410     0.380     0.600 sender
///
/// The sender's time also holds the wait for a receiver that is late to post; the receiver's is
/// the one --profile takes for the link.
///
/// The end of cycle k is the latest end_cycle(pe, k) over the processing elements. The median of
/// an entry is over its last kMaxSamples runs (all of them in a run of at most that many cycles).
///
/// format_json() writes the same summary for programs (`--stats-json FILE`), with the run's
/// settings; times in seconds:
///
///     {"format": "dfg-stats", "version": 1, "host": "A", "strategy": "overlap",
///      "sync": "neighbours", "iterations": 100, "warmup_cycles": 2, "params": {"N": 64},
///      "period_s": 0.00125, "periods": 97, "iterations_per_s": 800.0, "bytes_per_s": 1.3e10,
///      "entries": [{"kind": "firing", "name": "i1 (Inc)", "pe": "A.g0", "count": 100,
///                   "min_s": ..., "median_s": ..., "mean_s": ..., "max_s": ...,
///                   "firings": 100, "firing_mean_s": ...}, ...],
///      "peak_memory": [{"pe": "A.cpu", "bytes": 33554432}, ...]}
///
/// A firing's "count", "min_s" ... are its runs' (one a cycle), "firings" its calls of the node
/// (count times q) and "firing_mean_s" the mean time of one call (mean_s / q).
///
/// On several hosts, a transfer between this rank's host and another has "end": "sender" or
/// "receiver", as in the table: which end's time the entry is (a transfer within the host has
/// none; "host" names the rank's host on one host too).
///
/// A program whose cycle runs several iterations (the app's `batch K`) writes "batch": K, and
/// its "period_s" and "periods" count iterations (a cycle's period over K, K per cycle).
///
/// "period_s", "iterations_per_s" and "bytes_per_s" are null when the period was not measured;
/// "entries" is empty when nothing was timed inside a cycle (--stats=period).
///
/// Guarantees:
/// - add_entry() and add_pe() are set-up only (they allocate, are not synchronised).
/// - Each entry has one writer thread (the PE that runs it), which calls add_time(); each PE's
///   thread calls end_cycle() for its own PE. Neither locks nor allocates (cycle ends and the
///   samples of the median go into arrays sized at set-up; cycles beyond them are ignored, the
///   oldest samples overwritten).
/// - note_alloc()/note_free() may be called from any thread (relaxed atomics: a counter, no
///   ordering needed; the peak is a CAS-max).
/// - summary()/print() run after the workers are joined.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dfg/bytes.hpp"

namespace dfg {

/// The run's settings that format_json() writes beside the measurements.
struct RunSettings {
  std::string host;
  bool overlap = true;
  bool barrier_sync = false;
  std::int64_t iterations = 0;
  std::vector<std::pair<std::string, std::int64_t>> params;  ///< the runtime params, in table order
  bool complete = true;  ///< false: the run stopped on an error; the figures cover its start
};

class Stats {
 public:
  using Clock = std::chrono::steady_clock;
  /// The most recent runs of an entry that its median is taken over.
  static constexpr std::int64_t kMaxSamples = 8192;
  /// The most cycles whose ends are kept (8 MiB a PE): the period is measured over the first
  /// ones of a longer run (one bounded by --iterations 2^62 and ended by its source).
  static constexpr std::int64_t kMaxCycleEnds = std::int64_t{1} << 20;

  /// `cycles`: how many cycles the run will have (iterations plus the pipeline latency);
  /// `warmup`: how many first cycles the period leaves out.
  /// `batch`: the iterations one cycle runs (the app's `batch`).
  Stats(std::int64_t cycles, std::int64_t warmup, std::int64_t batch = 1)
      : cycles_(std::clamp<std::int64_t>(cycles, 0, kMaxCycleEnds)),
        warmup_(warmup),
        batch_(batch) {}

  /// A processing element; returns its index.
  int add_pe(std::string name) {
    auto pe = std::make_unique<Pe>();
    pe->name = std::move(name);
    pe->cycle_end.assign(static_cast<std::size_t>(cycles_), Clock::time_point::min());
    pes_.push_back(std::move(pe));
    return static_cast<int>(pes_.size() - 1);
  }

  /// A firing ("firing", "i1 (Inc)", "A.g0", its calls of the node a run) or a transfer
  /// ("transfer", "p.m -> i1.a", "A.cpu>A.g0", bytes per iteration); returns its index.
  int add_entry(std::string kind, std::string name, std::string pe,
                std::uint64_t bytes_per_iteration = 0, std::uint32_t firings = 1) {
    auto e = std::make_unique<Entry>();
    e->kind = std::move(kind);
    e->name = std::move(name);
    e->pe = std::move(pe);
    e->bytes = bytes_per_iteration;
    e->firings = std::max<std::uint32_t>(firings, 1);
    e->samples.assign(static_cast<std::size_t>(std::clamp<std::int64_t>(cycles_, 1, kMaxSamples)),
                      0.0);
    entries_.push_back(std::move(e));
    return static_cast<int>(entries_.size() - 1);
  }

  /// One run of entry `e` took `seconds`. From the entry's writer thread.
  void add_time(int e, double seconds) noexcept {
    Entry& x = *entries_[static_cast<std::size_t>(e)];
    x.samples[static_cast<std::size_t>(x.count % x.samples.size())] = seconds;
    ++x.count;
    x.sum += seconds;
    x.min = std::min(x.min, seconds);
    x.max = std::max(x.max, seconds);
  }

  /// PE `pe` finished cycle k at time t. From that PE's thread.
  void end_cycle(int pe, std::int64_t k, Clock::time_point t = Clock::now()) noexcept {
    if (k < 0 || k >= cycles_) return;
    pes_[static_cast<std::size_t>(pe)]->cycle_end[static_cast<std::size_t>(k)] = t;
  }

  void note_alloc(int pe, std::uint64_t bytes) noexcept {
    Pe& p = *pes_[static_cast<std::size_t>(pe)];
    const std::uint64_t now = p.current.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    std::uint64_t peak = p.peak.load(std::memory_order_relaxed);
    while (now > peak && !p.peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }
  void note_free(int pe, std::uint64_t bytes) noexcept {
    pes_[static_cast<std::size_t>(pe)]->current.fetch_sub(bytes, std::memory_order_relaxed);
  }

  struct EntrySummary {
    std::string kind, name, pe;
    std::uint64_t count = 0;
    double mean_s = 0, min_s = 0, max_s = 0;
    double median_s = 0;        ///< over the last kMaxSamples runs
    std::uint32_t firings = 1;  ///< a firing's calls of the node a run; 1 otherwise
  };
  struct Summary {
    std::vector<EntrySummary> entries;
    std::int64_t periods = 0;  ///< consecutive cycle ends the period is averaged over
    double period_s = 0;       ///< a cycle's; 0 when fewer than two steady-state cycle ends
    double iterations_per_s = 0;
    std::int64_t batch = 1;  ///< iterations a cycle: an iteration's period is period_s / batch
    double bytes_per_s = 0;
    std::vector<std::pair<std::string, std::uint64_t>> peak_memory;  ///< per PE, in add_pe order
  };

  Summary summary() const {
    Summary s;
    s.batch = batch_;
    std::uint64_t bytes_per_iteration = 0;
    for (const auto& e : entries_) {
      EntrySummary x{e->kind, e->name, e->pe, e->count, 0, 0, 0, 0, e->firings};
      if (e->count > 0) {
        x.mean_s = e->sum / static_cast<double>(e->count);
        x.min_s = e->min;
        x.max_s = e->max;
        x.median_s = median(e->samples, e->count);
      }
      bytes_per_iteration += e->bytes;
      s.entries.push_back(std::move(x));
    }
    // Iteration ends: the latest PE end of each cycle; the first and last complete steady ones.
    std::int64_t first = -1, last = -1;
    Clock::time_point first_t{}, last_t{};
    for (std::int64_t k = std::max<std::int64_t>(warmup_, 0); k < cycles_; ++k) {
      Clock::time_point end = Clock::time_point::min();
      bool complete = !pes_.empty();
      for (const auto& p : pes_) {
        const Clock::time_point t = p->cycle_end[static_cast<std::size_t>(k)];
        if (t == Clock::time_point::min()) complete = false;
        end = std::max(end, t);
      }
      if (!complete) continue;
      if (first < 0) {
        first = k;
        first_t = end;
      }
      last = k;
      last_t = end;
    }
    if (first >= 0 && last > first) {
      s.periods = last - first;
      s.period_s =
          std::chrono::duration<double>(last_t - first_t).count() / static_cast<double>(s.periods);
      if (s.period_s > 0) {
        s.iterations_per_s = static_cast<double>(batch_) / s.period_s;
        s.bytes_per_s = static_cast<double>(bytes_per_iteration) / s.period_s;
      }
    }
    for (const auto& p : pes_)
      s.peak_memory.emplace_back(p->name, p->peak.load(std::memory_order_relaxed));
    return s;
  }

  /// The fixed-width table shown above; without `entries`, the period, throughput and memory
  /// lines only (--stats=period when --profile timed the entries all the same).
  /// `host`: on several hosts, this rank's (the table's heading; the end of each transfer).
  void print(std::ostream& os, bool entries = true, std::string_view host = {}) const {
    Summary s = summary();
    if (!entries) s.entries.clear();
    os << format(s, warmup_, host);
  }

  /// The JSON document shown above, of the summary `s` (with or without its entries).
  std::string json(const Summary& s, const RunSettings& run) const {
    return format_json(s, warmup_, run);
  }

  /// "sender" or "receiver" for a transfer between `host` and another host ("A.cpu>B.cpu"),
  /// else "".
  static std::string_view transfer_end(std::string_view pe, std::string_view host) {
    const auto arrow = pe.find('>');
    if (host.empty() || arrow == std::string_view::npos) return {};
    const std::string_view from = pe.substr(0, pe.find('.')), to_pe = pe.substr(arrow + 1);
    const std::string_view to = to_pe.substr(0, to_pe.find('.'));
    if (from == to) return {};
    if (from == host) return "sender";
    if (to == host) return "receiver";
    return {};
  }

  static std::string format_json(const Summary& s, std::int64_t warmup, const RunSettings& run) {
    std::string out = "{\"format\": \"dfg-stats\", \"version\": 1";
    if (!run.complete) out += ", \"complete\": false";
    out += ", \"host\": " + json_string(run.host);
    out += ", \"strategy\": ";
    out += run.overlap ? "\"overlap\"" : "\"no-overlap\"";
    out += ", \"sync\": ";
    out += run.barrier_sync ? "\"barrier\"" : "\"neighbours\"";
    out += ", \"iterations\": " + std::to_string(run.iterations);
    out += ", \"warmup_cycles\": " + std::to_string(warmup);
    out += ", \"params\": {";
    for (std::size_t i = 0; i < run.params.size(); ++i) {
      out += (i == 0 ? "" : ", ") + json_string(run.params[i].first) + ": " +
             std::to_string(run.params[i].second);
    }
    out += "}";
    const bool measured = s.periods > 0;
    if (s.batch != 1) out += ", \"batch\": " + std::to_string(s.batch);
    out += ", \"period_s\": " +
           (measured ? json_number(s.period_s / static_cast<double>(s.batch)) : "null");
    out += ", \"periods\": " + std::to_string(s.periods * s.batch);
    out += ", \"iterations_per_s\": " + (measured ? json_number(s.iterations_per_s) : "null");
    out += ", \"bytes_per_s\": " + (measured ? json_number(s.bytes_per_s) : "null");
    out += ",\n \"entries\": [";
    for (std::size_t i = 0; i < s.entries.size(); ++i) {
      const EntrySummary& e = s.entries[i];
      out += i == 0 ? "\n  " : ",\n  ";
      out += "{\"kind\": " + json_string(e.kind) + ", \"name\": " + json_string(e.name) +
             ", \"pe\": " + json_string(e.pe) + ", \"count\": " + std::to_string(e.count) +
             ", \"min_s\": " + json_number(e.min_s) + ", \"median_s\": " + json_number(e.median_s) +
             ", \"mean_s\": " + json_number(e.mean_s) + ", \"max_s\": " + json_number(e.max_s);
      if (e.kind == "firing") {
        out += ", \"firings\": " + std::to_string(e.count * e.firings) +
               ", \"firing_mean_s\": " + json_number(e.mean_s / e.firings);
      }
      if (const std::string_view end = transfer_end(e.pe, run.host); !end.empty()) {
        out += ", \"end\": " + json_string(end);
      }
      out += "}";
    }
    out += s.entries.empty() ? "]" : "\n ]";
    out += ",\n \"peak_memory\": [";
    for (std::size_t i = 0; i < s.peak_memory.size(); ++i) {
      out += (i == 0 ? "" : ", ") + std::string("{\"pe\": ") + json_string(s.peak_memory[i].first) +
             ", \"bytes\": " + std::to_string(s.peak_memory[i].second) + "}";
    }
    out += "]}\n";
    return out;
  }

  static std::string format(const Summary& s, std::int64_t warmup, std::string_view host = {}) {
    std::string out;
    if (!host.empty()) out += "host " + std::string(host) + "\n";
    char line[256];
    if (!s.entries.empty()) {  // --stats=period: no table, not even its heading
      std::snprintf(line, sizeof line, "%-9s %-25s %-13s %6s %9s %9s %9s\n", "kind", "name", "pe",
                    "count", "mean ms", "min ms", "max ms");
      out += line;
    }
    for (const EntrySummary& e : s.entries) {
      std::snprintf(line, sizeof line, "%-9s %-25s %-13s %6llu %9.3f %9.3f %9.3f", e.kind.c_str(),
                    e.name.c_str(), e.pe.c_str(), static_cast<unsigned long long>(e.count),
                    e.mean_s * 1e3, e.min_s * 1e3, e.max_s * 1e3);
      out += line;
      if (e.firings > 1) {
        std::snprintf(line, sizeof line, "  x%u: %.3g us a firing", e.firings,
                      e.mean_s / e.firings * 1e6);
        out += line;
      }
      if (const std::string_view end = transfer_end(e.pe, host); !end.empty())
        out += "  " + std::string(end);
      out += '\n';
    }
    if (s.periods > 0) {
      std::snprintf(line, sizeof line,
                    "iteration period: %.3f ms over %lld iterations (after %lld warm-up cycles)\n",
                    s.period_s / static_cast<double>(s.batch) * 1e3,
                    static_cast<long long>(s.periods * s.batch), static_cast<long long>(warmup));
      out += line;
      // The bytes are those copied between PEs: none where every edge is shared memory.
      std::snprintf(line, sizeof line, "throughput: %.1f iterations/s", s.iterations_per_s);
      out += line;
      if (s.bytes_per_s > 0)
        out += ", " + format_bytes(static_cast<std::uint64_t>(s.bytes_per_s)) + "/s";
      out += '\n';
    } else {
      out += "iteration period: not measured (too few cycles after the warm-up)\n";
    }
    out += "peak memory:";
    for (std::size_t i = 0; i < s.peak_memory.size(); ++i) {
      out += (i == 0 ? " " : ", ") + s.peak_memory[i].first + " " +
             format_bytes(s.peak_memory[i].second);
    }
    out += '\n';
    return out;
  }

 private:
  /// The median of the last min(count, samples.size()) values of the ring `samples`.
  static double median(std::vector<double> samples, std::uint64_t count) {
    samples.resize(static_cast<std::size_t>(std::min<std::uint64_t>(count, samples.size())));
    const auto mid = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
    std::nth_element(samples.begin(), mid, samples.end());
    if (samples.size() % 2 == 1) return *mid;
    return (*mid + *std::max_element(samples.begin(), mid)) / 2;
  }

  static std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
  }

  static std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x",
                      static_cast<unsigned>(static_cast<unsigned char>(c)));
        out += buf;
      } else {
        out += c;
      }
    }
    return out + '"';
  }

  struct alignas(64) Entry {
    std::string kind, name, pe;
    std::uint64_t bytes = 0;
    std::uint32_t firings = 1;
    std::vector<double> samples;  ///< a ring of the last runs' times, for the median
    std::uint64_t count = 0;
    double sum = 0;
    double min = std::numeric_limits<double>::infinity();
    double max = 0;
  };
  struct alignas(64) Pe {
    std::string name;
    std::vector<Clock::time_point> cycle_end;
    std::atomic<std::uint64_t> current{0};
    std::atomic<std::uint64_t> peak{0};
  };

  std::int64_t cycles_;
  std::int64_t warmup_;
  std::int64_t batch_ = 1;
  std::vector<std::unique_ptr<Pe>> pes_;
  std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace dfg
