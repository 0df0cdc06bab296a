/// \file
/// Optimal-string-alignment distance and the nearest-name suggestion built on it.
#include "sema/suggest.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dfgc::sema {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // d[i][j]: distance between the first i characters of a and the first j of b.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  constexpr std::size_t kMaxEdits = 2;
  const std::string* best = nullptr;
  std::size_t best_distance = kMaxEdits + 1;
  for (const std::string& c : candidates) {
    if (c == name) continue;
    std::size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best = &c;
      best_distance = d;
    }
  }
  return best ? fmt::format("; did you mean '{}'?", *best) : std::string();
}

}  // namespace dfgc::sema
