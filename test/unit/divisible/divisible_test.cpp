#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "mapping/divisible.hpp"

using namespace dfgc;
using namespace dfgc::mapping::divisible;

namespace {

struct Diags {
  SourceManager sources;
  DiagnosticEngine engine{sources};
  bool said(const std::string& text) const {
    for (const auto& d : engine.diagnostics())
      if (d.message.find(text) != std::string::npos) return true;
    return false;
  }
};

constexpr Algorithm kAll[] = {Algorithm::C, Algorithm::F, Algorithm::P, Algorithm::M};

double closed(Algorithm a, const Platform& p, int m, double load) {
  Diags d;
  auto t = closed_form_time(a, p, m, load, d.engine);
  REQUIRE(t);
  return *t;
}

double simulated(Algorithm a, const Platform& p, int m, double load) {
  Diags d;
  auto plan = make_plan(a, p, m, load, {}, d.engine);
  REQUIRE(plan);
  CHECK(plan->load() == Approx(load).epsilon(1e-12));
  auto t = predict_time(*plan, p, d.engine);
  REQUIRE(t);
  return *t;
}

double report(Algorithm a, int n, int m, double beta, double load = 1) {
  Diags d;
  auto t = report_time(a, n, m, beta, load, d.engine);
  REQUIRE(t);
  return *t;
}

/// Two H200s as measured: 55 GB/s each alone, 108 GB/s together, NVLink 337 GB/s, 5 µs a call.
Platform h200s(int n, double beta, double o) {
  Platform p;
  p.h2d_bytes_per_s = 55e9;
  p.h2d_aggregate_bytes_per_s = 108e9;
  p.peer_bytes_per_s = 337e9;
  p.installment_s = o;
  p.compute_s_per_byte.assign(static_cast<std::size_t>(n), beta / p.h2d_bytes_per_s);
  return p;
}

}  // namespace

TEST_CASE("each closed form is the simulated time of the schedule its sizes describe",
          "[divisible]") {
  for (int n : {1, 2, 3, 4})
    for (int m : {1, 2, 3, 5, 8})
      for (double beta : {0.1, 0.5, 1.0, 2.0, 3.0, 4.0, 100.0})
        for (Algorithm a : kAll) {
          INFO(name(a) << " N=" << n << " m=" << m << " beta=" << beta);
          auto p = report_platform(n, beta);
          CHECK(simulated(a, p, m, 7.0) == Approx(closed(a, p, m, 7.0)).epsilon(1e-9));
        }
}

TEST_CASE("C, F and P stay exact with an aggregate cap and a per-installment cost", "[divisible]") {
  for (int n : {1, 2, 3})
    for (int m : {1, 2, 4, 9})
      for (double beta : {0.1, 1.0, 1.9, 2.0, 2.1, 30.0})
        for (Algorithm a : {Algorithm::C, Algorithm::F, Algorithm::P}) {
          INFO(name(a) << " N=" << n << " m=" << m << " beta=" << beta);
          auto p = h200s(n, beta, 5e-6);
          CHECK(simulated(a, p, m, 1 << 28) == Approx(closed(a, p, m, 1 << 28)).epsilon(1e-9));
        }
}

TEST_CASE("the report's checks", "[divisible]") {
  for (double beta : {0.1, 0.7, 1.0, 5.0, 100.0}) {
    INFO("beta=" << beta);
    // N = m = 1: everything is T_C = (1 + β)L.
    for (Algorithm a : kAll) CHECK(report(a, 1, 1, beta, 3) == Approx((1 + beta) * 3));
    // N = 1, m = 2: M is P.
    CHECK(report(Algorithm::M, 1, 2, beta) == Approx(report(Algorithm::P, 1, 2, beta)));
    // T_C = (1 + ρ)L on N GPUs.
    CHECK(report(Algorithm::C, 4, 3, beta) == Approx(1 + beta / 4));
  }
  // At ρ = 1 (β = N), P's chunks are equal: T_P = T_F.
  for (int n : {1, 2, 4})
    for (int m : {2, 5})
      CHECK(report(Algorithm::P, n, m, n) == Approx(report(Algorithm::F, n, m, n)));
  // Thm 1 and 5: the speed-up over C tends to 1 + ρ (ρ < 1) or (1 + ρ)/ρ (ρ ≥ 1).
  for (int n : {1, 3})
    for (double beta : {0.3, 0.9, 1.5, 20.0}) {
      double rho = beta / n, limit = rho < 1 ? 1 + rho : (1 + rho) / rho;
      double c = report(Algorithm::C, n, 1, beta);
      CHECK(c / report(Algorithm::F, n, 100000, beta) == Approx(limit).epsilon(1e-4));
      CHECK(c / report(Algorithm::P, n, 400, beta) == Approx(limit).epsilon(1e-4));
    }
  // Fig. 9, N = 1, m = 5: β = 100 gives S_F 1.008, S_P 1.010; β = 0.1 gives 1.078 and 1.100.
  auto speedup = [](Algorithm a, double beta) {
    return report(Algorithm::C, 1, 1, beta) / report(a, 1, 5, beta);
  };
  CHECK(speedup(Algorithm::F, 100) == Approx(1.008).margin(5e-4));
  CHECK(speedup(Algorithm::P, 100) == Approx(1.010).margin(5e-4));
  CHECK(speedup(Algorithm::F, 0.1) == Approx(1.078).margin(5e-4));
  CHECK(speedup(Algorithm::P, 0.1) == Approx(1.100).margin(5e-4));
  // T_C > T_F > T_P for N, m ≥ 2 away from ρ = 1 (Appendix B); M at least matches P.
  for (int n : {2, 3})
    for (int m : {2, 4})
      for (double beta : {0.5, 5.0}) {
        INFO("N=" << n << " m=" << m << " beta=" << beta);
        CHECK(report(Algorithm::C, n, m, beta) > report(Algorithm::F, n, m, beta));
        CHECK(report(Algorithm::F, n, m, beta) > report(Algorithm::P, n, m, beta));
      }
}

TEST_CASE("with a per-installment cost the best m is finite and near √(min(c, Tcp)·L/N / o)",
          "[divisible]") {
  for (double beta : {0.2, 5.0}) {
    auto p = h200s(1, beta, 10e-6);
    double load = 1 << 30;
    int best = 1;
    for (int m = 2; m <= 400; ++m)
      if (closed(Algorithm::F, p, m, load) < closed(Algorithm::F, p, best, load)) best = m;
    double star = f_best_m(p, load);
    INFO("beta=" << beta << " best=" << best << " m*=" << star);
    CHECK(best < 400);
    CHECK(std::abs(best - star) <= 1);
  }
  Diags d;
  auto choice = choose(h200s(2, 1.5, 10e-6), 1 << 28, 64, d.engine);
  REQUIRE(choice);
  CHECK(choice->plan.installments < 64);
  CHECK(choice->seconds < choice->c_seconds);
  CHECK(choice->reason.find("fixed costs") != std::string::npos);
}

TEST_CASE("without a per-installment cost the chooser takes the most installments", "[divisible]") {
  Diags d;
  auto choice = choose(report_platform(2, 2.0), 1, 12, d.engine);
  REQUIRE(choice);
  CHECK(choice->plan.installments == 12);
  CHECK(choice->plan.algorithm != Algorithm::C);
}

TEST_CASE("unequal GPUs: the equal-finish fractions beat equal shares", "[divisible]") {
  auto p = h200s(3, 2.0, 5e-6);
  p.compute_s_per_byte = {1.0 / 55e9, 2.0 / 55e9, 4.0 / 55e9};
  for (Algorithm a : {Algorithm::C, Algorithm::F, Algorithm::P}) {
    INFO(name(a));
    Diags d;
    auto fitted = make_plan(a, p, 6, 1 << 28, {}, d.engine);
    auto equal = make_plan(a, p, 6, 1 << 28, {1.0 / 3, 1.0 / 3, 1.0 / 3}, d.engine);
    REQUIRE(fitted);
    REQUIRE(equal);
    double shares[3];
    for (int j = 0; j < 3; ++j) {
      shares[j] = 0;
      for (double c : fitted->chunks[static_cast<std::size_t>(j)]) shares[j] += c;
    }
    CHECK(shares[0] > shares[1]);
    CHECK(shares[1] > shares[2]);
    CHECK(*predict_time(*fitted, p, d.engine) < *predict_time(*equal, p, d.engine));
  }
  Diags d;
  auto choice = choose(p, 1 << 28, 16, d.engine);
  REQUIRE(choice);
  CHECK(choice->plan.algorithm != Algorithm::M);  // M needs identical GPUs
  CHECK(choice->fractions.size() == 3);
}

TEST_CASE("bad input is refused with a clear error", "[divisible]") {
  {
    Diags d;
    CHECK_FALSE(report_time(Algorithm::F, 2, 0, 1.0, 1, d.engine));
    CHECK(d.said("number of installments m must be at least 1, not 0"));
  }
  {
    Diags d;
    CHECK_FALSE(report_time(Algorithm::F, 0, 2, 1.0, 1, d.engine));
    CHECK(d.said("no GPU to split over (N = 0)"));
  }
  for (double beta : {0.0, -1.0}) {
    Diags d;
    CHECK_FALSE(report_time(Algorithm::P, 2, 2, beta, 1, d.engine));
    CHECK(d.said("β (compute over copy time per byte) must be positive"));
  }
  {
    Diags d;
    CHECK_FALSE(make_plan(Algorithm::F, report_platform(2, 1), 3, 1, {0.5, 0.6}, d.engine));
    CHECK(d.said("the fractions sum to 1.1, not 1"));
  }
  {
    Diags d;
    CHECK_FALSE(make_plan(Algorithm::F, report_platform(2, 1), 3, 1, {1.0}, d.engine));
    CHECK(d.said("1 fractions for 2 GPUs"));
  }
  {
    Diags d;
    CHECK_FALSE(closed_form_time(Algorithm::M, h200s(2, 1, 0), 3, 1, d.engine));
    CHECK(d.said("M's closed form"));
  }
  {
    Diags d;
    auto p = report_platform(2, 1);
    p.compute_s_per_byte[1] = 2;
    CHECK_FALSE(closed_form_time(Algorithm::F, p, 3, 1, d.engine));
    CHECK(d.said("identical GPUs"));
    CHECK_FALSE(make_plan(Algorithm::M, p, 3, 1, {}, d.engine));
  }
  {
    Diags d;
    auto plan = make_plan(Algorithm::F, report_platform(2, 1), 3, 1, {}, d.engine);
    REQUIRE(plan);
    CHECK_FALSE(predict_time(*plan, report_platform(3, 1), d.engine));
    CHECK(d.said("the plan is for 2 GPUs, the platform has 3"));
  }
}
