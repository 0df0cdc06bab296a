#include "mapping/divisible.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

#include "support/assert.hpp"

namespace dfgc::mapping::divisible {

namespace {

constexpr double kFractionTolerance = 1e-9;

bool positive(double v) { return std::isfinite(v) && v > 0; }

bool check_platform(const Platform& p, DiagnosticEngine& diags) {
  bool ok = true;
  if (p.gpus() == 0) {
    diags.error({}, "divisible load: no GPU to split over (N = 0)");
    return false;
  }
  for (int j = 0; j < p.gpus(); ++j) {
    if (!positive(p.compute_s_per_byte[static_cast<std::size_t>(j)])) {
      diags.error({}, fmt::format("divisible load: gpu {}'s compute time per byte (Tcp) must be "
                                  "positive and finite, not {}",
                                  j, p.compute_s_per_byte[static_cast<std::size_t>(j)]));
      ok = false;
    }
  }
  auto bandwidth = [&](double v, const char* what) {
    if (!positive(v)) {
      diags.error({}, fmt::format("divisible load: the {} must be positive, not {}", what, v));
      ok = false;
    }
  };
  bandwidth(p.h2d_bytes_per_s, "host-to-device bandwidth of one GPU (b)");
  bandwidth(p.h2d_aggregate_bytes_per_s, "aggregate host-to-device bandwidth (B)");
  bandwidth(p.peer_bytes_per_s, "peer bandwidth");
  if (!std::isfinite(p.installment_s) || p.installment_s < 0) {
    diags.error({}, fmt::format("divisible load: the per-installment cost o must be zero or more, "
                                "not {}",
                                p.installment_s));
    ok = false;
  }
  return ok;
}

bool check_m_and_load(int m, double load, DiagnosticEngine& diags) {
  bool ok = true;
  if (m < 1) {
    diags.error({}, fmt::format("divisible load: the number of installments m must be at least "
                                "1, not {}",
                                m));
    ok = false;
  }
  if (!positive(load)) {
    diags.error({}, fmt::format("divisible load: the load must be positive, not {}", load));
    ok = false;
  }
  return ok;
}

bool identical(const Platform& p) {
  const auto& t = p.compute_s_per_byte;
  return std::all_of(t.begin(), t.end(), [&](double v) { return v == t.front(); });
}

/// c: the time per byte of a copy when every GPU copies at once.
double concurrent_copy_s_per_byte(const Platform& p) {
  return std::max(1 / p.h2d_bytes_per_s, p.gpus() / p.h2d_aggregate_bytes_per_s);
}

/// The m weights ρ^0 .. ρ^(m-1), scaled so that the largest is 1 (no overflow for large ρ^m).
std::vector<double> geometric_weights(double rho, int m) {
  std::vector<double> w(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i)
    w[static_cast<std::size_t>(i)] = rho > 1 ? std::pow(rho, i - (m - 1)) : std::pow(rho, i);
  return w;
}

/// Per-byte time of one GPU under an algorithm, its share's copies running at c per byte: the
/// k_j of the equal-finish-time system T = fixed + k_j L_j.
double per_byte_time(Algorithm a, double c, double tcp, int m) {
  switch (a) {
    case Algorithm::C: return c + tcp;
    case Algorithm::F: return ((c + tcp) + (m - 1) * std::max(c, tcp)) / m;
    case Algorithm::P: {
      auto w = geometric_weights(tcp / c, m);
      double sum = std::accumulate(w.begin(), w.end(), 0.0);
      return c * w.front() / sum + tcp;
    }
    case Algorithm::M: break;
  }
  DFGC_UNREACHABLE("per_byte_time of M");
}

/// M's sizes on identical GPUs: the relays a_i (a_i = q·a_(i+1), q = 1 + 1/β, β = Tcp · peer
/// bandwidth, so that computing the kept part takes as long as forwarding the rest), then the
/// installments ρ^k·x (k = 1..m-1, ρ = Tcp / c), x the last relay.
Plan m_plan(const Platform& p, int m, double load) {
  int n = p.gpus();
  double tcp = p.compute_s_per_byte.front();
  double q = 1 + 1 / (tcp * p.peer_bytes_per_s);
  double rho = tcp / concurrent_copy_s_per_byte(p);
  // Every gpu j keeps q^j·x in the pipelined stage: Σ_j q^j = (q^N - 1) / (q - 1).
  double kept = 0, qj = 1;
  for (int j = 0; j < n; ++j, qj *= q) kept += qj;
  double installments = 0, rk = 1;
  for (int k = 1; k < m; ++k) installments += (rk *= rho);
  double x = load / (kept + n * installments);

  Plan plan;
  plan.algorithm = Algorithm::M;
  plan.installments = m;
  plan.relay.resize(static_cast<std::size_t>(n));
  for (int i = n - 1; i >= 0; --i)
    plan.relay[static_cast<std::size_t>(i)] =
        i == n - 1 ? x : plan.relay[static_cast<std::size_t>(i + 1)] * q;
  plan.chunks.resize(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    auto& c = plan.chunks[static_cast<std::size_t>(j)];
    for (int i = n - j; i < n; ++i)
      c.push_back(plan.relay[static_cast<std::size_t>(i - 1)] -
                  plan.relay[static_cast<std::size_t>(i)]);
    c.push_back(x);
    rk = 1;
    for (int k = 1; k < m; ++k) c.push_back(x * (rk *= rho));
  }
  return plan;
}

}  // namespace

std::string_view name(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::C: return "C";
    case Algorithm::F: return "F";
    case Algorithm::P: return "P";
    case Algorithm::M: return "M";
  }
  DFGC_UNREACHABLE("bad Algorithm");
}

Platform report_platform(int n, double beta) {
  Platform p;
  p.compute_s_per_byte.assign(static_cast<std::size_t>(std::max(n, 0)), beta);
  p.h2d_bytes_per_s = 1;
  p.h2d_aggregate_bytes_per_s = 1;
  p.peer_bytes_per_s = 1;
  p.installment_s = 0;
  return p;
}

double Plan::load() const {
  double sum = 0;
  for (const auto& c : chunks) sum = std::accumulate(c.begin(), c.end(), sum);
  return sum;
}

std::optional<double> closed_form_time(Algorithm algorithm, const Platform& p, int m, double load,
                                       DiagnosticEngine& diags) {
  bool ok = check_platform(p, diags);
  ok = check_m_and_load(m, load, diags) && ok;
  if (!ok) return std::nullopt;
  if (!identical(p)) {
    diags.error({},
                "divisible load: the closed forms assume identical GPUs; for unequal ones "
                "use make_plan and predict_time");
    return std::nullopt;
  }
  int n = p.gpus();
  double o = p.installment_s;
  double tcp = p.compute_s_per_byte.front();
  double c = concurrent_copy_s_per_byte(p);
  double share = load / n;
  switch (algorithm) {
    case Algorithm::C:
      // m times: copy L/(Nm), then compute it. The report's (1 + ρ)L with c = N, o = 0.
      return 2 * m * o + (c + tcp) * share;
    case Algorithm::F: {
      // The first copy, the last computation, and m-1 steps of the slower of the two.
      double x = share / m;
      return (m + 1) * o + (c + tcp) * x + (m - 1) * std::max(c, tcp) * x;
    }
    case Algorithm::P: {
      // Computing chunk i ends as copying chunk i+1 does: all copies, then the last chunk; equal
      // to the first copy then all computations. The report's (1 - ρ^(m+1)) / (1 - ρ^m) L.
      auto w = geometric_weights(tcp / c, m);
      double first = share * w.front() / std::accumulate(w.begin(), w.end(), 0.0);
      return (m + 1) * o + c * first + tcp * share;
    }
    case Algorithm::M: {
      double b = p.h2d_bytes_per_s;
      if (p.h2d_aggregate_bytes_per_s != b || p.peer_bytes_per_s != b || o != 0) {
        diags.error({},
                    "divisible load: M's closed form (the report's 5.7) holds only on a shared "
                    "bus (B = b) with peer copies at b and o = 0; use predict_time on "
                    "make_plan's M plan");
        return std::nullopt;
      }
      // In units of the time to send one byte (Tcm = 1/b): β = Tcp·b, ρ = β/N, q = 1 + 1/β,
      // S = Σ_(k<m-1) ρ^k; T = (q^N + ρS) / (q^N + S - 1) · L.
      double beta = tcp * b, rho = beta / n, q = 1 + 1 / beta;
      double qn = std::pow(q, n), s = 0, rk = 1;
      for (int k = 0; k + 1 < m; ++k, rk *= rho) s += rk;
      return (qn + rho * s) / (qn + s - 1) * load / b;
    }
  }
  DFGC_UNREACHABLE("bad Algorithm");
}

std::optional<double> report_time(Algorithm algorithm, int n, int m, double beta, double load,
                                  DiagnosticEngine& diags) {
  if (!positive(beta)) {
    diags.error({}, fmt::format("divisible load: β (compute over copy time per byte) must be "
                                "positive, not {}",
                                beta));
    return std::nullopt;
  }
  return closed_form_time(algorithm, report_platform(n, beta), m, load, diags);
}

std::optional<Plan> make_plan(Algorithm algorithm, const Platform& p, int m, double load,
                              const std::vector<double>& fractions, DiagnosticEngine& diags) {
  bool ok = check_platform(p, diags);
  ok = check_m_and_load(m, load, diags) && ok;
  if (!ok) return std::nullopt;
  int n = p.gpus();
  if (!fractions.empty()) {
    if (static_cast<int>(fractions.size()) != n) {
      diags.error({}, fmt::format("divisible load: {} fractions for {} GPUs", fractions.size(), n));
      return std::nullopt;
    }
    double sum = 0;
    for (std::size_t j = 0; j < fractions.size(); ++j) {
      if (!std::isfinite(fractions[j]) || fractions[j] < 0) {
        diags.error({}, fmt::format("divisible load: gpu {}'s fraction must be between 0 and 1, "
                                    "not {}",
                                    j, fractions[j]));
        return std::nullopt;
      }
      sum += fractions[j];
    }
    if (std::abs(sum - 1) > kFractionTolerance) {
      diags.error({}, fmt::format("divisible load: the fractions sum to {}, not 1", sum));
      return std::nullopt;
    }
  }
  if (algorithm == Algorithm::M) {
    bool equal = std::all_of(fractions.begin(), fractions.end(),
                             [&](double f) { return std::abs(f - 1.0 / n) <= kFractionTolerance; });
    if (!identical(p) || !equal) {
      diags.error({},
                  "divisible load: M's daisy chain is defined for identical GPUs with its own "
                  "shares; give no fractions");
      return std::nullopt;
    }
    return m_plan(p, m, load);
  }

  double c = concurrent_copy_s_per_byte(p);
  std::vector<double> share(static_cast<std::size_t>(n));
  if (!fractions.empty()) {
    for (int j = 0; j < n; ++j)
      share[static_cast<std::size_t>(j)] = fractions[static_cast<std::size_t>(j)] * load;
  } else {
    // Equal finish times: T = fixed + k_j L_j for every j and Σ L_j = L. The fixed part is the
    // same on every GPU, so the system is diagonal: L_j = L (1/k_j) / Σ_i (1/k_i).
    double inverse_sum = 0;
    for (double tcp : p.compute_s_per_byte) inverse_sum += 1 / per_byte_time(algorithm, c, tcp, m);
    for (int j = 0; j < n; ++j)
      share[static_cast<std::size_t>(j)] =
          load / per_byte_time(algorithm, c, p.compute_s_per_byte[static_cast<std::size_t>(j)], m) /
          inverse_sum;
  }

  Plan plan;
  plan.algorithm = algorithm;
  plan.installments = m;
  plan.chunks.resize(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    auto& chunks = plan.chunks[static_cast<std::size_t>(j)];
    double l = share[static_cast<std::size_t>(j)];
    if (algorithm == Algorithm::P) {
      auto w = geometric_weights(p.compute_s_per_byte[static_cast<std::size_t>(j)] / c, m);
      double sum = std::accumulate(w.begin(), w.end(), 0.0);
      for (double wi : w) chunks.push_back(l * wi / sum);
    } else {
      chunks.assign(static_cast<std::size_t>(m), l / m);
    }
  }
  return plan;
}

std::vector<Op> make_schedule(const Plan& plan) {
  std::vector<Op> ops;
  auto add = [&](Op::Kind kind, int gpu, double bytes, std::vector<int> after) {
    ops.push_back(Op{kind, gpu, bytes, std::move(after)});
    return static_cast<int>(ops.size()) - 1;
  };
  int n = static_cast<int>(plan.chunks.size());
  if (plan.algorithm != Algorithm::M) {
    // Installment by installment, every GPU's copy then its computation; for C the next copy
    // waits for the computation.
    std::vector<int> last_compute(static_cast<std::size_t>(n), -1);
    for (int k = 0; k < plan.installments; ++k) {
      for (int j = 0; j < n; ++j) {
        std::vector<int> after;
        int prev = last_compute[static_cast<std::size_t>(j)];
        if (plan.algorithm == Algorithm::C && prev >= 0) after.push_back(prev);
        double bytes = plan.chunks[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)];
        int copy = add(Op::Kind::host_copy, j, bytes, std::move(after));
        last_compute[static_cast<std::size_t>(j)] = add(Op::Kind::compute, j, bytes, {copy});
      }
    }
    return ops;
  }

  // M. Interval i (0-based): the host sends relay[i] to gpu n-1, and every gpu j < n-1 that has a
  // share (i >= n-1-j) receives relay[i] from gpu j+1, which received relay[i-1] in interval i-1.
  // In interval i a gpu computes the part of relay[i-1] it did not forward.
  std::vector<std::vector<int>> received(static_cast<std::size_t>(n),
                                         std::vector<int>(static_cast<std::size_t>(n), -1));
  for (int i = 0; i < n; ++i) {
    for (int j = n - 1; j >= n - 1 - i; --j) {
      double bytes = plan.relay[static_cast<std::size_t>(i)];
      int& r = received[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)];
      if (j == n - 1)
        r = add(Op::Kind::host_copy, j, bytes, {});
      else
        r = add(Op::Kind::peer_copy, j, bytes,
                {received[static_cast<std::size_t>(j + 1)][static_cast<std::size_t>(i - 1)]});
    }
  }
  int last_relay = received[static_cast<std::size_t>(n - 1)][static_cast<std::size_t>(n - 1)];
  for (int j = 0; j < n; ++j) {
    const auto& chunks = plan.chunks[static_cast<std::size_t>(j)];
    const auto& got = received[static_cast<std::size_t>(j)];
    // j kept parts: the one computed in interval i needs relay[i-1], i = n-j .. n-1.
    for (int t = 0; t < j; ++t)
      add(Op::Kind::compute, j, chunks[static_cast<std::size_t>(t)],
          {got[static_cast<std::size_t>(n - j - 1 + t)]});
    add(Op::Kind::compute, j, chunks[static_cast<std::size_t>(j)],
        {got[static_cast<std::size_t>(n - 1)]});
    // The installments come from the host once it has sent its last relay.
    for (std::size_t k = static_cast<std::size_t>(j) + 1; k < chunks.size(); ++k) {
      int copy = add(Op::Kind::host_copy, j, chunks[k], {last_relay});
      add(Op::Kind::compute, j, chunks[k], {copy});
    }
  }
  return ops;
}

Timeline simulate(const std::vector<Op>& schedule, const Platform& p) {
  const std::size_t count = schedule.size();
  Timeline tl;
  tl.start.assign(count, -1);
  tl.finish.assign(count, -1);
  // Streams, in schedule order: (kind, gpu) -> op indices.
  std::map<std::pair<int, int>, std::vector<int>> stream_ops;
  for (std::size_t i = 0; i < count; ++i)
    stream_ops[{static_cast<int>(schedule[i].kind), schedule[i].gpu}].push_back(
        static_cast<int>(i));
  struct Stream {
    std::vector<int> ops;
    std::size_t next = 0;  ///< the first op not started
    int running = -1;
  };
  std::vector<Stream> streams;
  for (auto& [key, ops] : stream_ops) streams.push_back(Stream{ops, 0, -1});

  // A running op: fixed-cost time left, then bytes left (host copies) or time left (others).
  std::vector<double> latency_left(count, 0), work_left(count, 0);
  double t = 0;
  std::size_t done = 0;
  while (done < count) {
    for (auto& s : streams) {
      if (s.running >= 0 || s.next == s.ops.size()) continue;
      int i = s.ops[s.next];
      const Op& op = schedule[static_cast<std::size_t>(i)];
      bool ready = std::all_of(op.after.begin(), op.after.end(),
                               [&](int a) { return tl.finish[static_cast<std::size_t>(a)] >= 0; });
      if (!ready) continue;
      s.running = i;
      ++s.next;
      auto ui = static_cast<std::size_t>(i);
      tl.start[ui] = t;
      latency_left[ui] = p.installment_s;
      double tcp = p.compute_s_per_byte[static_cast<std::size_t>(op.gpu)];
      switch (op.kind) {
        case Op::Kind::host_copy: work_left[ui] = op.bytes; break;
        case Op::Kind::peer_copy: work_left[ui] = op.bytes / p.peer_bytes_per_s; break;
        case Op::Kind::compute: work_left[ui] = op.bytes * tcp; break;
      }
    }
    // Host copies past their fixed cost share B, none above b.
    int sharing = 0;
    for (const auto& s : streams)
      if (s.running >= 0 &&
          schedule[static_cast<std::size_t>(s.running)].kind == Op::Kind::host_copy &&
          latency_left[static_cast<std::size_t>(s.running)] <= 0)
        ++sharing;
    double rate =
        sharing == 0 ? 0 : std::min(p.h2d_bytes_per_s, p.h2d_aggregate_bytes_per_s / sharing);
    auto time_left = [&](int i) {
      auto ui = static_cast<std::size_t>(i);
      if (latency_left[ui] > 0) return latency_left[ui];
      return schedule[ui].kind == Op::Kind::host_copy ? work_left[ui] / rate : work_left[ui];
    };
    double dt = std::numeric_limits<double>::infinity();
    for (const auto& s : streams)
      if (s.running >= 0) dt = std::min(dt, time_left(s.running));
    DFGC_INTERNAL_ASSERT(std::isfinite(dt), "divisible: the schedule deadlocks at t = ", t);
    t += dt;
    for (auto& s : streams) {
      if (s.running < 0) continue;
      auto ui = static_cast<std::size_t>(s.running);
      double left = time_left(s.running);
      if (left <= dt * (1 + 1e-12)) {
        if (latency_left[ui] > 0) {
          latency_left[ui] = 0;  // the fixed cost is paid; its bytes start at the next step
          if (work_left[ui] > 0) continue;
        }
        tl.finish[ui] = t;
        s.running = -1;
        ++done;
      } else if (latency_left[ui] > 0) {
        latency_left[ui] -= dt;
      } else {
        work_left[ui] -= schedule[ui].kind == Op::Kind::host_copy ? rate * dt : dt;
      }
    }
  }
  tl.makespan = t;
  return tl;
}

std::optional<double> predict_time(const Plan& plan, const Platform& p, DiagnosticEngine& diags) {
  if (!check_platform(p, diags)) return std::nullopt;
  int n = p.gpus();
  if (static_cast<int>(plan.chunks.size()) != n ||
      (plan.algorithm == Algorithm::M && static_cast<int>(plan.relay.size()) != n)) {
    diags.error({}, fmt::format("divisible load: the plan is for {} GPUs, the platform has {}",
                                plan.chunks.size(), n));
    return std::nullopt;
  }
  if (!check_m_and_load(plan.installments, 1, diags)) return std::nullopt;
  for (int j = 0; j < n; ++j) {
    const auto& c = plan.chunks[static_cast<std::size_t>(j)];
    std::size_t expected = static_cast<std::size_t>(plan.installments) +
                           (plan.algorithm == Algorithm::M ? static_cast<std::size_t>(j) : 0);
    if (c.size() != expected) {
      diags.error({}, fmt::format("divisible load: gpu {} has {} chunks, {} expected for {} with "
                                  "m = {}",
                                  j, c.size(), expected, name(plan.algorithm), plan.installments));
      return std::nullopt;
    }
    for (double v : c) {
      if (!std::isfinite(v) || v < 0) {
        diags.error({}, fmt::format("divisible load: gpu {} has a chunk of {} bytes", j, v));
        return std::nullopt;
      }
    }
  }
  return simulate(make_schedule(plan), p).makespan;
}

double f_best_m(const Platform& p, double load) {
  if (p.installment_s <= 0 || p.gpus() == 0) return 0;
  double c = concurrent_copy_s_per_byte(p);
  double tcp = p.compute_s_per_byte.front();
  return std::sqrt(std::min(c, tcp) * (load / p.gpus()) / p.installment_s);
}

std::optional<Choice> choose(const Platform& p, double load, int max_m, DiagnosticEngine& diags) {
  bool ok = check_platform(p, diags);
  ok = check_m_and_load(max_m, load, diags) && ok;
  if (!ok) return std::nullopt;
  std::optional<Choice> best;
  auto consider = [&](Algorithm a, int m) {
    auto plan = make_plan(a, p, m, load, {}, diags);
    DFGC_INTERNAL_ASSERT(plan, "divisible: no plan for valid input");
    double seconds = simulate(make_schedule(*plan), p).makespan;
    if (!best || seconds < best->seconds * (1 - 1e-9)) {
      best = Choice{};
      best->plan = std::move(*plan);
      best->seconds = seconds;
    }
  };
  consider(Algorithm::C, 1);
  double c_seconds = best->seconds;
  for (Algorithm a : {Algorithm::F, Algorithm::P})
    for (int m = 1; m <= max_m; ++m) consider(a, m);
  if (p.gpus() >= 2 && identical(p))
    for (int m = 1; m <= max_m; ++m) consider(Algorithm::M, m);

  Choice& choice = *best;
  choice.c_seconds = c_seconds;
  double total = choice.plan.load();
  for (const auto& c : choice.plan.chunks)
    choice.fractions.push_back(std::accumulate(c.begin(), c.end(), 0.0) / total);

  double c = concurrent_copy_s_per_byte(p);
  double tcp_max = *std::max_element(p.compute_s_per_byte.begin(), p.compute_s_per_byte.end());
  double rho = tcp_max / c;
  std::string why;
  if (choice.plan.algorithm == Algorithm::C) {
    why = fmt::format("overlap hides too little to pay its fixed costs (o = {:.3g} s)",
                      p.installment_s);
  } else if (choice.plan.installments == max_m) {
    why = p.installment_s > 0
              ? fmt::format("the search stopped at m = {}; more installments may still help", max_m)
              : std::string(
                    "with no fixed cost per installment, more always help; m is the "
                    "largest allowed");
  } else {
    why = fmt::format(
        "more installments cost more in fixed costs (o = {:.3g} s each) than they "
        "hide",
        p.installment_s);
  }
  choice.reason = fmt::format(
      "{} with m = {} on {} GPU(s): {:.4g} s predicted, {:.3f}x over C without installments "
      "({:.4g} s); ρ = Tcp/c = {:.3g} ({}-bound); {}",
      name(choice.plan.algorithm), choice.plan.installments, p.gpus(), choice.seconds,
      c_seconds / choice.seconds, c_seconds, rho, rho >= 1 ? "compute" : "copy", why);
  return best;
}

}  // namespace dfgc::mapping::divisible
