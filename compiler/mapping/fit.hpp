/// \file
/// Fitted costs: an actor's firing time written as a formula with unknown coefficients
///
///     "OpeningsHead": {"gpu": {"ms": "c_open * (last - first + 1) + c_pass * ...",
///                              "fit": ["c_open", "c_pass"]}}
///
/// whose values come from measurements of its nodes (`nodes` entries, with the params they were
/// measured at: `"at": {"first": 1, "last": 20}`, as `--profile` writes them). A coefficient name
/// is shared by every entry that fits it, so one profile of a head and a tail with different
/// params determines both coefficients of their common formula.
///
/// The fit is linear least squares on relative errors: each measurement t of a node whose actor's
/// entry (for that PE, else for its kind) fits coefficients gives the equation f(params, c) = t,
/// weighted by 1 / t. The formula must be linear in the coefficients (checked numerically).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir.hpp"
#include "mapping/costs.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::mapping {

struct FitResult {
  std::vector<std::pair<std::string, double>> coefficients;  ///< name order; milliseconds per unit
  std::size_t measurements = 0;
  double rms_relative = 0;  ///< root mean square of (f - t) / t over the measurements
  double max_relative = 0;  ///< the largest |f - t| / t
};

/// Fits every coefficient named by a `fit` of `costs` and stores them in costs.coefficients.
/// `program` says which actor each measured node belongs to, and gives the params of a
/// measurement without `at`. Returns an empty result when nothing is to be fitted; nullopt after
/// reporting when a coefficient has no measurement or the measurements do not determine it, or
/// a formula is not linear in its coefficients.
std::optional<FitResult> fit_costs(CostFile& costs, const ir::Program& program,
                                   DiagnosticEngine& diags);

/// "fitted c_open = 0.0213 ms, c_pass = 0.0101 ms from 2 measurements (exact)" or "... (rms
/// error 1.2%, largest 2.0%)"; empty when nothing was fitted.
std::string describe_fit(const FitResult& fit);

}  // namespace dfgc::mapping
