/// \file
/// `dfgc map SPEC --costs FILE [options]`: choose the free nodes' PEs and the tunable params'
/// values, print the choice, its predicted figures and the runners-up; --apply writes the choice
/// into the spec. Exit status as every dfgc command: 0, 1 for a user error, 2 internal.
#pragma once

#include <string_view>
#include <vector>

namespace dfgc::mapping {

/// The help text of the command's options.
extern const char* const kMapUsage;

/// Runs the command on the arguments that follow `map`.
int map_main(const std::vector<std::string_view>& args);

}  // namespace dfgc::mapping
