/// \file
/// Divisible load on N GPUs: how a node whose input divides freely is split over N GPUs, each
/// GPU's share arriving in m installments so that copying installment k+1 overlaps computing
/// installment k (after the divisible-load report NSC 99-2221-E-006-103, NCKU, 2010-11).
///
/// The model, in real units (seconds, bytes):
/// - GPU j computes one byte of input in `compute_s_per_byte[j]` (Tcp). It computes an
///   installment only once all of it has arrived, and its installments in order.
/// - The host copies to every GPU at once. A GPU copying alone receives at `h2d_bytes_per_s` (b);
///   the copies in flight share `h2d_aggregate_bytes_per_s` (B) max-min fairly, none above b.
///   The report's shared bus, where sending x to each of N GPUs costs N·x, is B = b; two H200s
///   measured 55 GB/s alone and 108 GB/s together, B ≈ 2b: no shared bus. A chain of N GPUs all
///   copying at once thus costs c = max(1/b, N/B) per byte received by each.
/// - A GPU forwards to its neighbour at `peer_bytes_per_s` (algorithm M's daisy chain), one link
///   per neighbouring pair, shared with nothing.
/// - Every copy and every computation costs `installment_s` (o) on top of its bytes: the copy
///   call and the kernel launch. The report has none, so there more installments always help;
///   with o > 0 the best m is finite (the argument of UMR, Yang & Casanova, IPDPS 2003).
/// - Buffers are unbounded: a GPU holds its whole share (copies never wait for a free buffer).
///
/// The four algorithms of the report:
/// - C: no overlap; each installment is copied, then computed (T_C = (1+ρ)L in the report).
/// - F: m equal installments, copy k+1 overlapping compute k.
/// - P: geometric installments, computing installment i taking as long as copying i+1 (ratio
///   ρ = Tcp / c; ρ = β/N in the report).
/// - M: a daisy chain host → GPU_N → … → GPU_1 first (the pipelined stage, each GPU keeping
///   part of what it receives and forwarding the rest), then m−1 geometric installments sent to
///   every GPU by the host. GPU_N is `gpu N-1` here (0-based), next to the host.
///
/// The closed forms of C, F and P are exact under this model for identical GPUs (the copies then
/// move in lockstep); M's is the report's (5.7), exact where its assumptions hold (shared bus,
/// peer copies at the host link's speed, o = 0). predict_time simulates a plan event by event
/// and is the truth of the model for any plan, identical GPUs or not; choose() searches it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostics.hpp"

namespace dfgc::mapping::divisible {

enum class Algorithm { C, F, P, M };

std::string_view name(Algorithm algorithm);  ///< "C", "F", "P", "M"

struct Platform {
  std::vector<double> compute_s_per_byte;  ///< Tcp of each GPU; its size is N
  double h2d_bytes_per_s = 0;              ///< b: one GPU copying from the host alone
  double h2d_aggregate_bytes_per_s = 0;    ///< B: all copies from the host together
  double peer_bytes_per_s = 0;             ///< GPU to GPU, for M's chain
  double installment_s = 0;                ///< o: fixed cost of each copy and each computation

  int gpus() const { return static_cast<int>(compute_s_per_byte.size()); }
};

/// The report's platform: N identical GPUs, Tcm = 1 s per byte (the unit), Tcp = β, a shared bus
/// (B = b), peer copies as fast as the host link, no per-installment cost.
Platform report_platform(int n, double beta);

/// What an algorithm sends: the installments each GPU computes, in order, and for M the
/// pipelined stage's relays.
struct Plan {
  Algorithm algorithm = Algorithm::C;
  int installments = 1;  ///< m
  /// chunks[j][k]: the bytes GPU j computes in its k-th computation. For C, F and P these are
  /// its m installments, each copied from the host. For M, gpu j (0-based) first computes j
  /// parts kept of the relays it receives (the part of relay i-1 not forwarded as relay i, in
  /// interval i), then the last relay whole, then the m-1 installments copied from the host.
  std::vector<std::vector<double>> chunks;
  /// M only: relay[i] (i = 0..N-1) is what the host sends gpu N-1 in interval i+1 and every
  /// gpu that already has a share receives from its upper neighbour in that interval.
  std::vector<double> relay;

  double load() const;  ///< the sum of every chunk
};

/// The closed form of the algorithm's time on identical GPUs, under the model above; nullopt
/// after reporting for bad input (N = 0, m = 0, a non-positive time or bandwidth, unequal GPUs)
/// and for M where its closed form does not hold (it says to use predict_time).
std::optional<double> closed_form_time(Algorithm algorithm, const Platform& platform, int m,
                                       double load, DiagnosticEngine& diags);

/// The report's normalised time (Table 3: T_C, T_F, T_P, T_M) for N GPUs, β and load L.
std::optional<double> report_time(Algorithm algorithm, int n, int m, double beta, double load,
                                  DiagnosticEngine& diags);

/// The installments of the algorithm for `load` bytes. `fractions` (one per GPU, summing to 1)
/// gives each GPU's share; empty: equal finish times, which for unequal GPUs solve the linear
/// system T = (m+1)·o + k_j·L_j (j = 1..N), ΣL_j = L, k_j the per-byte time of GPU j under the
/// algorithm (the copies assumed concurrent, at c per byte). M needs identical GPUs and equal
/// fractions. nullopt after reporting for bad input.
std::optional<Plan> make_plan(Algorithm algorithm, const Platform& platform, int m, double load,
                              const std::vector<double>& fractions, DiagnosticEngine& diags);

/// One operation of a schedule: a copy from the host, a copy from a neighbouring GPU, or a
/// computation. An operation starts when the ones in `after` have finished and the previous
/// operation of its stream has (streams: each GPU's host-to-device copies, each GPU's copies
/// from its neighbour, each GPU's computations; in the order of the schedule).
struct Op {
  enum class Kind { host_copy, peer_copy, compute };
  Kind kind = Kind::compute;
  int gpu = 0;  ///< the GPU that receives or computes
  double bytes = 0;
  std::vector<int> after;  ///< indices of earlier operations
};

/// The operations that carry out a plan, in an order consistent with their dependencies.
std::vector<Op> make_schedule(const Plan& plan);

struct Timeline {
  std::vector<double> start, finish;  ///< per operation, seconds
  double makespan = 0;
};

/// Simulates the schedule under the platform's link model: host copies in flight share B max-min
/// fairly (none above b), each after its fixed cost o.
Timeline simulate(const std::vector<Op>& schedule, const Platform& platform);

/// The simulated time of a plan; nullopt after reporting for bad input (a plan for another N,
/// negative chunks, a bad platform).
std::optional<double> predict_time(const Plan& plan, const Platform& platform,
                                   DiagnosticEngine& diags);

struct Choice {
  Plan plan;
  double seconds = 0;    ///< predicted (simulated)
  double c_seconds = 0;  ///< C with one installment, the baseline
  std::vector<double> fractions;
  std::string reason;
};

/// The best (algorithm, m, fractions) for `load` bytes, m from 1 to max_m, by simulated time
/// (ties to the simpler algorithm, then to fewer installments), with the reason in words.
std::optional<Choice> choose(const Platform& platform, double load, int max_m,
                             DiagnosticEngine& diags);

/// F's best m under overhead o on identical GPUs: √(min(c, Tcp)·(L/N) / o); 0 when o = 0
/// (no finite optimum).
double f_best_m(const Platform& platform, double load);

}  // namespace dfgc::mapping::divisible
