/// \file
/// dfg::Profile: `--profile FILE`. After a run, writes a costs file (docs/costs.md) from what the
/// run measured, valid input to `dfgc map --costs`:
///
///     nodes.<node>.<PE>.ms              the mean firing time of each node on each PE it ran on
///                                       (a node moved while running: one figure per PE, the
///                                       mean over all its firings there)
///     nodes.<node>.<PE>.at              the node's params in this run (dfgc map fits with them)
///     links."<X> -> <Y>"                each link direction used: bandwidth_GB_s, latency_us
///     host_copies."<X> -> <Y>"          each direction of a link whose mapped tokens (small
///                                       tokens in a GPU's mapped host memory) the CPU end
///                                       copied on the host: bandwidth_GB_s, latency_us
///     pes.<PE>.kind                     each PE's kind ("cpu", "gpu"): dfgc map counts a node's
///                                       time on a PE for the PEs of that kind it has no time on
///     cycle_overhead_ms.<strategy>      the strategy that ran: period minus the model's loads
///     profile                           what the run was (ignored by dfgc map)
///
/// Link figures: each transfer entry gives (bytes, mean time). When every transfer over a
/// direction moves the same bytes, bandwidth = bytes / mean time and latency = 0 (the latency is
/// then inside the bandwidth; 0 overrides the spec's, which would otherwise count twice). With
/// two or more sizes, time = latency + bytes / bandwidth is fitted by least squares (weighted by
/// the transfers' counts); a fit with a negative latency or a non-positive slope falls back to
/// total bytes / total time with latency 0.
///
/// A mapped token's transfer (its --profile name "host copy A.cpu -> A.g0") is a host copy run by
/// its CPU end's thread, no copy call of the GPU: it is timed as that, its figures go to
/// host_copies (fitted as a link's), and never to its link, whose copy engine it does not use.
///
/// Several hosts: each rank writes its own file, of its host's PEs (profile.host names it). A
/// transfer between two hosts is timed on both ranks, each from posting its end to seeing it
/// complete; the sender's time also holds the wait for a receiver that is late to post, so a
/// link between hosts is figured from its receiving rank's time only, and the sending rank's file
/// leaves that link out (links and loads). `dfgc map --costs A.json --costs B.json` merges the
/// files of one run in any order (docs/costs.md).
///
/// Overhead: the measured period minus what the measured item times give by the cost model's
/// rule, each item's mean weighted by the share of the cycles it ran (count / the largest count:
/// 1 but for the instances and transfers of a node that moved), never below 0 (profile.model_ms
/// keeps the rule's figure, so the raw difference can be read back):
///  - with overlap, the largest resource load: each PE's firings (the sum of its nodes' mean
///    times, and a CPU's host copies: one thread runs both), each link direction (the sum of its
///    transfers' mean times), each GPU's copy engines (H2D: every transfer into it; D2H: every
///    transfer out of it);
///  - without overlap, the sum of the phases: per transfer step the busiest link direction, copy
///    engine or CPU's host copies of that step, then the busiest PE's firings.
/// Delay copies are not items of the model: their time is part of the overhead.
///
/// Everything is in a fixed order (names sorted, PEs in add order), so one run's numbers always
/// give the same text.
///
/// Guarantees: built and written on one thread after the workers are joined (add_*() allocate);
/// figures() and json() are pure; write() only touches its file; nothing throws except
/// std::bad_alloc.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dfg/detail/json.hpp"
#include "dfg/stats.hpp"

namespace dfg {

class Profile {
 public:
  /// One resource of the model with its load (seconds per cycle).
  struct Load {
    std::string name;  ///< "A.g0 firings", "link A.cpu -> A.g0", "A.g0 copy engine H2D",
                       ///< "A.cpu host copies"
    double seconds = 0;
  };
  struct Figures {
    double model_s = 0;        ///< overlap: the largest load; no overlap: the sum of the phases
    std::vector<Load> loads;   ///< overlap: every resource with a load, in a fixed order
    std::vector<Load> phases;  ///< no overlap: each step's busiest resource, then the firings
    bool measured = false;     ///< the period was measured (enough cycles after the warm-up)
    double overhead_s = 0;     ///< max(0, period - model_s) when measured
  };

  /// `summary`: the run's Stats; its entries are matched with add_entry() calls by index.
  Profile(bool overlap, std::int64_t iterations, Stats::Summary summary)
      : overlap_(overlap), iterations_(iterations), summary_(std::move(summary)) {}

  /// A processing element and its kind ("cpu" or "gpu").
  void add_pe(std::string name, std::string_view kind) {
    pes_.push_back({std::move(name), kind == "gpu"});
  }

  /// On several hosts: this rank's host, written as profile.host.
  void set_host(std::string host) { host_ = std::move(host); }
  /// A run that stopped on an error: the file says `"complete": false` (dfgc map refuses it).
  void set_incomplete() { complete_ = false; }

  /// The next Stats entry: `kind` "firing", "transfer" or "copy"; `key` a firing's node, a
  /// transfer's link direction ("A.cpu -> A.g0") or a mapped transfer's host copy ("host copy
  /// A.cpu -> A.g0"), null for a copy; `where` a firing's PE or a transfer's "A.cpu>A.g0"; a
  /// transfer's bytes and (without overlap) step.
  /// `at`: a firing's node params, "first=1 last=28" (written as the entry's "at"); may be null.
  void add_entry(std::string_view kind, const char* key, std::string_view where,
                 std::uint64_t bytes, int step, const char* at = nullptr) {
    Item item;
    item.at = at != nullptr ? at : "";
    item.kind = kind == "firing"     ? Item::Kind::firing
                : kind == "transfer" ? Item::Kind::transfer
                                     : Item::Kind::other;
    item.key = key != nullptr ? key : "";
    if (item.kind == Item::Kind::transfer && item.key.starts_with(kHostCopy)) {
      item.kind = Item::Kind::host_copy;
      item.key.erase(0, kHostCopy.size());
    }
    item.bytes = bytes;
    item.step = std::max(step, 0);
    const auto arrow = where.find('>');
    item.from = std::string(where.substr(0, arrow));
    if (arrow != std::string_view::npos) item.to = std::string(where.substr(arrow + 1));
    const std::size_t i = items_.size();
    if (i < summary_.entries.size()) {
      item.count = summary_.entries[i].count;
      item.mean_s = summary_.entries[i].mean_s;
    }
    items_.push_back(std::move(item));
  }

  Figures figures() const {
    Figures f;
    // Resources in the model's order: PE firings (add order), link directions (by name), H2D
    // and D2H engines (PE order); per step without overlap.
    std::vector<double> fire(pes_.size(), 0);
    std::map<std::string, std::map<int, double>> link;  // direction -> step -> load
    std::vector<std::map<int, double>> h2d(pes_.size()), d2h(pes_.size()), copies(pes_.size());
    int steps = 0;
    // An item's load is its mean time for the share of the cycles it ran: with migration
    // alternatives, a node's instances (and the transfers of each placement) each ran part of
    // the iterations; every other item runs every iteration, the most any item ran.
    std::uint64_t most = 0;
    for (const Item& it : items_) most = std::max<std::uint64_t>(most, it.count);
    for (const Item& it : items_) {
      if (it.count == 0 || sent_elsewhere(it)) continue;
      const double load = it.mean_s * static_cast<double>(it.count) / static_cast<double>(most);
      if (it.kind == Item::Kind::firing) {
        if (const int pe = pe_index(it.from); pe >= 0) fire[static_cast<std::size_t>(pe)] += load;
      } else if (it.kind == Item::Kind::transfer) {
        const int step = overlap_ ? 0 : it.step;
        steps = std::max(steps, step + 1);
        link["link " + it.key][step] += load;
        if (const int to = pe_index(it.to); to >= 0 && pes_[static_cast<std::size_t>(to)].gpu)
          h2d[static_cast<std::size_t>(to)][step] += load;
        if (const int from = pe_index(it.from);
            from >= 0 && pes_[static_cast<std::size_t>(from)].gpu)
          d2h[static_cast<std::size_t>(from)][step] += load;
      } else if (it.kind == Item::Kind::host_copy) {
        const int step = overlap_ ? 0 : it.step;
        steps = std::max(steps, step + 1);
        if (const int cpu = host_copier(it); cpu >= 0)
          copies[static_cast<std::size_t>(cpu)][step] += load;
      }
    }
    auto total = [](const std::map<int, double>& by_step) {
      double t = 0;
      for (const auto& step : by_step) t += step.second;
      return t;
    };
    auto at = [](const std::map<int, double>& by_step, int step) {
      const auto it = by_step.find(step);
      return it == by_step.end() ? 0.0 : it->second;
    };
    // Transfer resources of one step (or, with step < 0, of the whole cycle).
    auto transfer_loads = [&](int step) {
      std::vector<Load> out;
      auto load = [&](const std::map<int, double>& by_step) {
        return step < 0 ? total(by_step) : at(by_step, step);
      };
      for (const auto& [name, by_step] : link) out.push_back({name, load(by_step)});
      for (std::size_t pe = 0; pe < pes_.size(); ++pe)
        out.push_back({pes_[pe].name + " copy engine H2D", load(h2d[pe])});
      for (std::size_t pe = 0; pe < pes_.size(); ++pe)
        out.push_back({pes_[pe].name + " copy engine D2H", load(d2h[pe])});
      if (step >= 0)  // with overlap a CPU's host copies are in its firings' load
        for (std::size_t pe = 0; pe < pes_.size(); ++pe)
          if (!pes_[pe].gpu) out.push_back({pes_[pe].name + " host copies", load(copies[pe])});
      return out;
    };
    auto busiest = [](const std::vector<Load>& loads) {
      Load best;
      for (const Load& l : loads)
        if (best.name.empty() || l.seconds > best.seconds) best = l;
      return best;
    };
    std::vector<Load> firings;
    for (std::size_t pe = 0; pe < pes_.size(); ++pe)
      firings.push_back({pes_[pe].name + " firings", fire[pe]});
    if (overlap_) {
      std::vector<Load> all = firings;
      for (std::size_t pe = 0; pe < pes_.size(); ++pe) all[pe].seconds += total(copies[pe]);
      for (Load& l : transfer_loads(-1)) all.push_back(std::move(l));
      for (const Load& l : all) {
        if (l.seconds > 0) f.loads.push_back(l);
        f.model_s = std::max(f.model_s, l.seconds);
      }
    } else {
      for (int step = 0; step < steps; ++step) f.phases.push_back(busiest(transfer_loads(step)));
      if (!firings.empty()) f.phases.push_back(busiest(firings));
      for (const Load& l : f.phases) f.model_s += l.seconds;
    }
    if (summary_.periods > 0) {
      f.measured = true;
      f.overhead_s = std::max(0.0, summary_.period_s - f.model_s);
    }
    return f;
  }

  /// The costs file's text.
  std::string json() const {
    const Figures f = figures();
    const char* strategy = overlap_ ? "overlap" : "no-overlap";
    std::string out = "{\n  \"profile\": {\n";
    if (!host_.empty()) out += "    \"host\": " + detail::json_string(host_) + ",\n";
    out += "    \"strategy\": \"" + std::string(strategy) + "\",\n";
    out += "    \"iterations\": " + std::to_string(iterations_) + ",\n";
    if (!complete_) out += "    \"complete\": false,\n";
    if (f.measured) {
      out += "    \"period_ms\": " + number(summary_.period_s * 1e3) + ",\n";
      out += "    \"periods\": " + std::to_string(summary_.periods) + ",\n";
    }
    out += "    \"model_ms\": " + number(f.model_s * 1e3) + ",\n";
    if (overlap_) {
      out += "    \"loads_ms\": {";
      for (std::size_t i = 0; i < f.loads.size(); ++i)
        out += std::string(i == 0 ? "\n" : ",\n") + "      " +
               detail::json_string(f.loads[i].name) + ": " + number(f.loads[i].seconds * 1e3);
      out += f.loads.empty() ? "}\n" : "\n    }\n";
    } else {
      out += "    \"phases_ms\": [";
      for (std::size_t i = 0; i < f.phases.size(); ++i)
        out += std::string(i == 0 ? "\n" : ",\n") +
               "      {\"resource\": " + detail::json_string(f.phases[i].name) +
               ", \"ms\": " + number(f.phases[i].seconds * 1e3) + "}";
      out += f.phases.empty() ? "]\n" : "\n    ]\n";
    }
    out += "  },\n";

    // nodes: node -> PE -> mean ms, sorted by node then PE. A node with several entries on one
    // PE (a migration alternative's instance, or its firings re-timed by an alternative) gets
    // one figure, the mean over all its firings there.
    struct NodeOnPe {
      double total_s = 0;
      std::uint64_t count = 0;
      std::string at;
    };
    std::map<std::string, std::map<std::string, NodeOnPe>> nodes;
    for (const Item& it : items_)
      if (it.kind == Item::Kind::firing && it.count > 0 && !it.key.empty()) {
        NodeOnPe& n = nodes[it.key][it.from];
        n.total_s += it.mean_s * static_cast<double>(it.count);
        n.count += it.count;
        if (n.at.empty()) n.at = it.at;
      }
    out += "  \"nodes\": {";
    bool first = true;
    for (const auto& [node, per_pe] : nodes) {
      out += std::string(first ? "\n" : ",\n") + "    " + detail::json_string(node) + ": {";
      bool first_pe = true;
      for (const auto& [pe, item] : per_pe) {
        out += std::string(first_pe ? "" : ", ") + detail::json_string(pe) +
               ": {\"ms\": " + number(item.total_s / static_cast<double>(item.count) * 1e3);
        if (!item.at.empty()) out += ", \"at\": " + at_json(item.at);
        out += "}";
        first_pe = false;
      }
      out += "}";
      first = false;
    }
    out += nodes.empty() ? "},\n" : "\n  },\n";

    // links: direction -> fitted figures, sorted by name.
    std::map<std::string, std::vector<const Item*>> links;
    for (const Item& it : items_)
      if (it.kind == Item::Kind::transfer && it.count > 0 && it.mean_s > 0 && !it.key.empty() &&
          !sent_elsewhere(it))
        links[it.key].push_back(&it);
    // A section of fitted figures by name: {"NAME": {"bandwidth_GB_s": .., "latency_us": ..}, ...};
    // a name whose fit has no positive bandwidth is left out.
    const auto fitted = [&](const char* section,
                            const std::map<std::string, std::vector<const Item*>>& by_name) {
      out += std::string("  \"") + section + "\": {";
      bool first_entry = true;
      for (const auto& [name, measured] : by_name) {
        const auto [bandwidth, latency] = fit(measured);
        if (!(bandwidth > 0)) continue;
        out += std::string(first_entry ? "\n" : ",\n") + "    " + detail::json_string(name) +
               ": {\"bandwidth_GB_s\": " + number(bandwidth / 1e9) +
               ", \"latency_us\": " + number(latency * 1e6) + "}";
        first_entry = false;
      }
      out += first_entry ? "}" : "\n  }";
    };
    fitted("links", links);

    // host_copies: direction -> fitted figures of the mapped tokens' host copies, by name.
    std::map<std::string, std::vector<const Item*>> host_copies;
    for (const Item& it : items_)
      if (it.kind == Item::Kind::host_copy && it.count > 0 && it.mean_s > 0 && !it.key.empty())
        host_copies[it.key].push_back(&it);
    if (!host_copies.empty()) {
      out += ",\n";
      fitted("host_copies", host_copies);
    }
    // pes: each PE's kind, sorted by name, so that the measurements on them carry over to PEs of
    // the same kind, of this machine or another (docs/costs.md).
    if (!pes_.empty()) {
      std::map<std::string, bool> kinds;
      for (const Pe& pe : pes_) kinds[pe.name] = pe.gpu;
      out += ",\n  \"pes\": {";
      bool first_pe = true;
      for (const auto& [name, gpu] : kinds) {
        out += std::string(first_pe ? "" : ", ") + detail::json_string(name) + ": {\"kind\": \"" +
               (gpu ? "gpu" : "cpu") + "\"}";
        first_pe = false;
      }
      out += "}";
    }
    if (f.measured) {
      out += ",\n  \"cycle_overhead_ms\": {" + detail::json_string(strategy) + ": " +
             number(f.overhead_s * 1e3) + "}";
    }
    out += "\n}\n";
    return out;
  }

  /// Writes json() to `path`; returns "" or the one-line error.
  std::string write(const std::string& path) const {
    const std::string text = json();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) return "error: --profile: cannot write '" + path + "'";
    return {};
  }

  /// Whether the period was measured (else the file has no cycle_overhead_ms).
  bool period_measured() const noexcept { return summary_.periods > 0; }

  /// "%.6g": enough digits for any measurement, the same text for the same double.
  static std::string number(double v) {
    if (!std::isfinite(v)) v = 0;  // NaN and infinities are not JSON
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
  }

 private:
  struct Pe {
    std::string name;
    bool gpu = false;
  };
  /// The start of a mapped transfer's key (dfgc's kHostCopyProfile, plan/plan.hpp).
  static constexpr std::string_view kHostCopy = "host copy ";

  struct Item {
    enum class Kind { firing, transfer, host_copy, other };
    Kind kind = Kind::other;
    std::string key;       ///< a host copy's without "host copy "
    std::string from, to;  ///< a firing's PE in `from`; a transfer's ends
    std::uint64_t bytes = 0;
    int step = 0;
    std::uint64_t count = 0;
    double mean_s = 0;
    std::string at;  ///< a firing's node params: "first=1 last=28"
  };

  /// "first=1 last=28" as a JSON object, {"first": 1, "last": 28}.
  static std::string at_json(std::string_view at) {
    std::string out = "{";
    while (!at.empty()) {
      const std::size_t space = at.find(' ');
      const std::string_view pair = at.substr(0, space);
      const std::size_t eq = pair.find('=');
      if (out.size() > 1) out += ", ";
      out += detail::json_string(pair.substr(0, eq)) + ": " + std::string(pair.substr(eq + 1));
      at = space == std::string_view::npos ? std::string_view() : at.substr(space + 1);
    }
    return out + "}";
  }

  /// A transfer this rank sends to another host: its time is the sender's (see the file comment).
  bool sent_elsewhere(const Item& it) const {
    return it.kind == Item::Kind::transfer && pe_index(it.from) >= 0 && pe_index(it.to) < 0;
  }

  /// The PE index of a host copy's CPU end (the thread that ran it); -1 when not of this rank.
  int host_copier(const Item& it) const {
    const int from = pe_index(it.from);
    return from >= 0 && !pes_[static_cast<std::size_t>(from)].gpu ? from : pe_index(it.to);
  }

  int pe_index(const std::string& name) const {
    for (std::size_t i = 0; i < pes_.size(); ++i)
      if (pes_[i].name == name) return static_cast<int>(i);
    return -1;
  }

  /// (bandwidth in bytes/s, latency in s) of one link direction's transfers.
  static std::pair<double, double> fit(const std::vector<const Item*>& transfers) {
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    bool one_size = true;
    for (const Item* t : transfers) {
      const double w = static_cast<double>(t->count);
      const double x = static_cast<double>(t->bytes);
      n += w;
      sx += w * x;
      sy += w * t->mean_s;
      sxx += w * x * x;
      sxy += w * x * t->mean_s;
      one_size = one_size && t->bytes == transfers.front()->bytes;
    }
    if (!one_size) {
      const double det = n * sxx - sx * sx;
      if (det > 0) {
        const double slope = (n * sxy - sx * sy) / det;
        const double latency = (sy - slope * sx) / n;
        if (slope > 0 && latency >= 0) return {1.0 / slope, latency};
      }
    }
    return {sy > 0 ? sx / sy : 0.0, 0.0};
  }

  bool overlap_;
  std::int64_t iterations_;
  std::string host_;
  bool complete_ = true;  ///< false: the run stopped on an error (set_incomplete())
  Stats::Summary summary_;
  std::vector<Pe> pes_;
  std::vector<Item> items_;
};

}  // namespace dfg
