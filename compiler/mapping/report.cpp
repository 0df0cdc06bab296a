#include "mapping/report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ir/byte_count.hpp"

namespace dfgc::mapping {

namespace {

std::string_view objective_name(Objective o) {
  switch (o) {
    case Objective::period: return "period";
    case Objective::latency: return "latency";
    case Objective::memory: return "memory";
  }
  return "?";
}

std::string percent(double part, double whole) {
  return whole > 0 ? fmt::format("{:.1f}%", 100 * part / whole) : "-";
}

/// How a runner-up differs from the best: "i2 @ A.g1, split = 27".
std::string difference(const TunedCandidate& best, const TunedCandidate& c) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < c.tuned.size(); ++i)
    if (!c.tuned[i].replicas && c.tuned[i].value != best.tuned[i].value)
      parts.push_back(fmt::format("{} = {}", c.tuned[i].param, c.tuned[i].value));
  for (std::size_t i = 0; i < c.placed.size(); ++i)
    if (c.placed[i].second != best.placed[i].second)
      parts.push_back(fmt::format("{} @ {}", c.placed[i].first, c.placed[i].second));
  std::string text;
  for (const std::string& s : parts) text += (text.empty() ? "" : ", ") + s;
  return text;
}

std::string figures_table(const ir::Program& p, const Prediction& pred) {
  const StrategyPrediction& ov = pred[ir::Strategy::overlap];
  const StrategyPrediction& no = pred[ir::Strategy::no_overlap];
  std::string out = fmt::format("  {:<24} {:>14} {:>14}\n", "", "overlap", "no-overlap");
  out += fmt::format("  {:<24} {:>14} {:>14}\n", "period", format_time(ov.period),
                     format_time(no.period));
  out += fmt::format("  {:<24} {:>14} {:>14}\n", "latency (cycles)", ov.latency_cycles,
                     no.latency_cycles);
  out += fmt::format("  {:<24} {:>14} {:>14}\n", "latency", format_time(ov.latency),
                     format_time(no.latency));
  for (ir::PeId pe = 0; pe < p.arch.pes.size(); ++pe) {
    // A host's cpus share its memory, given once under its first cpu.
    const ir::Host& host = p.arch.hosts[p.arch.pes[pe].host];
    const bool cpu = p.arch.pes[pe].kind == ir::PeKind::cpu;
    if (cpu && host.cpus.size() > 1 && pe != host.cpu) continue;
    std::string what =
        cpu && host.cpus.size() > 1 ? "memory host " + host.name : "memory " + p.arch.pes[pe].name;
    out += fmt::format("  {:<24} {:>14} {:>14}\n", what, format_bytes(ov.memory[pe]),
                       format_bytes(no.memory[pe]));
  }
  return out;
}

/// A runner-up within kNearPeriod of the best's period that needs at most half its memory or
/// half its latency: the objective alone would not show the trade (a replica count that raises
/// the batch buys a little period with a lot of both).
constexpr double kNearPeriod = 0.02;

std::string cheaper_note(const TuneResult& res) {
  const Candidate& best = res.best.front().candidate;
  for (std::size_t i = 1; i < res.best.size(); ++i) {
    const Candidate& c = res.best[i].candidate;
    if (c.period > best.period * (1 + kNearPeriod)) break;
    const bool memory = c.peak_memory >= 0 && best.peak_memory > 0 &&
                        !ir::saturated(best.peak_memory) && c.peak_memory <= best.peak_memory / 2;
    const bool latency = 2 * c.latency <= best.latency;
    if (!memory && !latency) continue;
    std::string what =
        memory && latency
            ? fmt::format("{:.0f}% of its memory and {:.0f}% of its latency",
                          100.0 * c.peak_memory / best.peak_memory, 100 * c.latency / best.latency)
        : memory ? fmt::format("{:.0f}% of its memory", 100.0 * c.peak_memory / best.peak_memory)
                 : fmt::format("{:.0f}% of its latency", 100 * c.latency / best.latency);
    return fmt::format(
        "  note: {} runs {:.1f}% longer a period than the choice with {} "
        "(--max-memory, --max-latency or --objective latency choose it)\n",
        i + 1, 100 * (c.period / best.period - 1), what);
  }
  return "";
}

}  // namespace

std::string format_time(double seconds) { return fmt::format("{:.3f} ms", seconds * 1e3); }

std::string format_bytes(std::int64_t bytes) {
  return fmt::format("{}{:.1f} MiB", ir::saturated(bytes) ? "at least " : "",
                     static_cast<double>(bytes) / 1048576.0);
}

std::string render_report(const Report& r) {
  const TuneResult& res = *r.result;
  const SearchOptions& o = *r.options;
  const std::size_t free = res.free_nodes;
  const bool ranges = std::any_of(res.best.front().tuned.begin(), res.best.front().tuned.end(),
                                  [](const TunedValue& v) { return v.replicas; });
  std::string out = fmt::format(
      "app {} on {}: free nodes {} ({:.0f} mapping{}), {} combinations {}; {} search: "
      "{} mappings evaluated, {} built\n",
      r.program->app_name, r.program->arch.name, free, res.mappings, res.mappings == 1 ? "" : "s",
      ranges ? "tunable value and replica count" : "tunable value", res.combinations,
      res.exact ? "exact" : "heuristic", res.evaluated, res.built);
  if (res.rejected)
    out += fmt::format("refused by the spec's checks: {} combination{}, the first with {}\n",
                       res.rejected, res.rejected == 1 ? "" : "s", res.first_rejected);
  out += fmt::format("objective: {} with {}\n", objective_name(o.objective),
                     ir::to_string(o.strategy));
  if (!r.fit.empty()) out += "costs: " + r.fit + "\n";
  out += "\n";
  out += r.splits ? "chosen (spec lines to paste: --apply does not split a placement written "
                    "once):\n"
                  : "chosen (spec lines to paste, or run with --apply):\n";
  for (const std::string& line : r.fragment) out += line + "\n";
  if (r.fragment.empty())
    out += "  (nothing to choose: every node is pinned, no param is tunable)\n";
  out += "\npredicted:\n" + figures_table(*r.program, *r.prediction);
  const ir::Program& p = *r.program;
  if (p.batch != p.written_batch) {
    const double per = static_cast<double>(p.written_batch) / p.batch;
    out += fmt::format(
        "  a cycle runs {} iterations (the replicas' copies; the app's batch is {}): "
        "a period of {} and {} per {}\n",
        p.batch, p.written_batch, format_time((*r.prediction)[ir::Strategy::overlap].period * per),
        format_time((*r.prediction)[ir::Strategy::no_overlap].period * per),
        p.written_batch == 1 ? "iteration" : fmt::format("{} iterations", p.written_batch));
  }
  if (res.best.size() > 1) {
    out += fmt::format("\nalternatives ({}):\n", ir::to_string(o.strategy));
    const TunedCandidate& best = res.best.front();
    for (std::size_t i = 1; i < res.best.size(); ++i) {
      const Candidate& c = res.best[i].candidate;
      out += fmt::format("  {}. period {} ({:+.1f}%), latency {} cycles ({}), peak memory {}: {}\n",
                         i + 1, format_time(c.period), 100 * (c.period / best.candidate.period - 1),
                         c.latency_cycles, format_time(c.latency), format_bytes(c.peak_memory),
                         difference(best, res.best[i]));
    }
    out += cheaper_note(res);
  }
  out += render_loop_refusal(res, &res.best.front().candidate);
  return out;
}

std::string render_loop_refusal(const TuneResult& res, const Candidate* chosen) {
  if (!res.loop_best) return "";
  const LoopRefusal& x = *res.loop_best;
  if (chosen && x.candidate.period >= chosen->period) return "";
  std::string out = fmt::format(
      "\nleft out: {} mapping{} under which a loop lacks initial tokens; the fastest, {}, would "
      "have a period of {}{} by its loads, but its loop lets one iteration through every {} / {} "
      "cycles, which bounds the period to {} (the program's cycles do not stretch, so it cannot "
      "run): {}\n",
      res.loop_refused, res.loop_refused == 1 ? "" : "s", res.loop_where,
      format_time(x.candidate.period),
      chosen ? fmt::format(" ({:+.1f}%)", 100 * (x.candidate.period / chosen->period - 1)) : "",
      x.loop.cycles(), x.loop.tokens, format_time(x.bound), res.loop_why);
  return out;
}

std::string render_explain(const ir::Program& p, const Prediction& pred) {
  const StrategyPrediction& ov = pred[ir::Strategy::overlap];
  std::vector<Resource> rs = ov.resources;
  std::stable_sort(rs.begin(), rs.end(),
                   [](const Resource& a, const Resource& b) { return a.load > b.load; });
  std::string out = "\nexplain, with overlap (the period is the busiest resource + overhead):\n";
  if (!rs.empty()) {
    const Resource& top = rs.front();
    out += fmt::format("  bottleneck: {}, {} of the {} period ({})\n", top.name(p.arch),
                       format_time(top.load), format_time(ov.period), percent(top.load, ov.period));
    out += fmt::format("  {:<36} {:>12} {:>7} {:>12}\n", "resource", "load", "share", "slack");
    for (const Resource& r : rs)
      out += fmt::format("  {:<36} {:>12} {:>7} {:>12}\n", r.name(p.arch), format_time(r.load),
                         percent(r.load, ov.period), format_time(top.load - r.load));
  }
  const StrategyPrediction& no = pred[ir::Strategy::no_overlap];
  out += "explain, without overlap (the period is the sum of the phases + overhead):\n";
  for (std::size_t i = 0; i < no.phases.size(); ++i) {
    std::string phase = i + 1 < no.phases.size() ? fmt::format("transfer step {}", i) : "firings";
    out += fmt::format("  {:<16} {:>12} {:>7}  set by {}\n", phase, format_time(no.phases[i].load),
                       percent(no.phases[i].load, no.period), no.phases[i].name(p.arch));
  }
  return out;
}

namespace {

/// Seconds to milliseconds, rounded to the nanosecond (so that the JSON shows short numbers).
double ms(double seconds) { return std::round(seconds * 1e9) / 1e6; }

}  // namespace

std::string render_evaluation(const ir::Program& p, const Prediction& pred,
                              const ir::PerStrategy<double>& overhead) {
  using Json = nlohmann::ordered_json;
  Json out;
  out["app"] = p.app_name;
  out["arch"] = p.arch.name;
  for (ir::Strategy s : ir::kStrategies) {
    const StrategyPrediction& x = pred[s];
    Json j;
    j["period_ms"] = ms(x.period);
    j["overhead_ms"] = ms(overhead[s]);
    j["latency_cycles"] = x.latency_cycles;
    j["latency_ms"] = ms(x.latency);
    if (s == ir::Strategy::overlap) {
      Json loads = Json::object();
      const Resource* top = nullptr;
      for (const Resource& r : x.resources) {
        loads[r.name(p.arch)] = ms(r.load);
        if (!top || r.load > top->load) top = &r;
      }
      j["bottleneck"] = top ? top->name(p.arch) : "";
      j["loads_ms"] = loads;
    } else {
      Json phases = Json::array();
      for (std::size_t i = 0; i < x.phases.size(); ++i)
        phases.push_back({{"phase", i + 1 < x.phases.size() ? fmt::format("transfer step {}", i)
                                                            : std::string("firings")},
                          {"resource", x.phases[i].name(p.arch)},
                          {"ms", ms(x.phases[i].load)}});
      j["phases_ms"] = phases;
    }
    Json memory = Json::object();
    for (ir::PeId pe = 0; pe < p.arch.pes.size(); ++pe) memory[p.arch.pes[pe].name] = x.memory[pe];
    j["memory_bytes"] = memory;
    j["fits"] = x.overflows.empty();
    out[std::string(ir::to_string(s))] = j;
  }
  return out.dump(2) + "\n";
}

}  // namespace dfgc::mapping
