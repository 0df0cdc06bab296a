/// \file
/// dfgc's commands. Each declares its name, its help and its own options (a table, beside the
/// options of every command, options.hpp) and runs the pipeline (pipeline.hpp) up to the stage
/// its output needs: check, dump-ast, dump-ir, schedule and compile (commands.cpp) differ only in
/// what they print by default; map (map_command.cpp) searches mappings, runs the passes on each
/// one it builds, then the pipeline on the mapping it chose, up to what it prints. `run_command`
/// reads the command line and runs the command it names.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/options.hpp"
#include "driver/pipeline.hpp"

namespace dfgc::driver {

class Command {
 public:
  virtual ~Command() = default;
  virtual std::string_view name() const = 0;
  /// What follows `dfgc NAME` in the usage line.
  virtual std::string_view usage() const { return "<spec.dfg> [options]"; }
  /// One paragraph for the list of commands; '\n' between its lines.
  virtual std::string_view summary() const = 0;
  /// More for `dfgc help NAME`, or empty.
  virtual std::string_view description() const { return {}; }
  /// The command's own options, applied to this command.
  virtual OptionTable options() { return {}; }
  /// The stages the command runs with `common`, in order; --dump-after must name one of them.
  virtual std::vector<Stage> stages(const CommonOptions& common) const = 0;
  /// The error of a combination of options the command refuses, once all are read.
  virtual std::optional<std::string> check(const CommonOptions& common) const = 0;
  /// Runs on `spec`; the exit status.
  virtual int run(const std::string& spec, const CommonOptions& common) = 0;
};

/// The last stage whose result `emit` prints: parse for ast, ..., write for code.
Stage last_stage(Emit emit);

/// Prints the output `what` of a compilation run up to last_stage(what) on stdout (code and
/// nothing print nothing); the reason when it cannot.
std::optional<std::string> print_emit(Emit what, const Compilation& c,
                                      const SourceManager& sources);

/// The map command (map_command.cpp).
std::unique_ptr<Command> make_map_command();

/// The help of `command`, generated from its option tables.
std::string command_help(Command& command);

/// Runs `dfgc ARGS...` (the arguments after the program's name); the exit status.
int run_command(const std::vector<std::string_view>& args);

}  // namespace dfgc::driver
