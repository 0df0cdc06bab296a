/// \file
/// "Did you mean ...?" for unknown names: the closest candidate within two edits.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dfgc::sema {

/// Edit distance counting insertions, deletions, substitutions and swaps of adjacent characters
/// (so that "flaot" is one edit from "float").
std::size_t edit_distance(std::string_view a, std::string_view b);

/// "; did you mean 'float'?" for the candidate nearest to `name` (the first of equals, so the
/// answer follows the candidates' order) when it is at most two edits away; "" otherwise.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace dfgc::sema
