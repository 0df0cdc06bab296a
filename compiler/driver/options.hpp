/// \file
/// The command line, declared as data: each command-line option is a row of a table with its
/// spelling, its value, its help and what it does. The same tables parse the arguments and print
/// `--help`, so the two cannot drift apart. The options every command takes are one table
/// (common_options()); each command adds its own (commands.hpp).
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sema/sema.hpp"
#include "stages/stages.hpp"

namespace dfgc::driver {

/// One option. Spellings: a long flag takes its value as `--flag=V` or `--flag V`; a short one
/// (`-D`, `-o`) as `-DV`, `-D V` or `-D=V`.
struct Option {
  std::string flag;   ///< "--costs", "-o"
  std::string value;  ///< how the help names its value ("FILE"); empty: the option takes none
  std::string takes;  ///< what the value must be, for errors: "'--seed' takes <takes>"
  std::string help;   ///< the help text; '\n' between its lines
  /// Applies the value ("" for an option without one); false when the value is not valid.
  std::function<bool(std::string_view value)> set;
  std::string alias = {};  ///< another spelling ("-h" of "--help")
  bool ends = false;       ///< the arguments after it are not read (--help)
};

using OptionTable = std::vector<Option>;

/// What a command prints (--emit): each one runs the pipeline up to the stage it needs.
enum class Emit { nothing, ast, ir, schedule, dot, svg, plan, code };

inline constexpr std::array<std::string_view, 8> kEmitNames = {"nothing", "ast", "ir",   "schedule",
                                                               "dot",     "svg", "plan", "code"};

std::string_view name(Emit emit);

/// The options of every command.
struct CommonOptions {
  SemaOptions sema;
  bool werror = false;
  bool read_actors = true;
  bool time_passes = false;
  std::vector<Stage> dump_after;                      ///< --dump-after's stages, in order
  bool dump_all = false;                              ///< --dump-after=all
  std::optional<Emit> emit;                           ///< unset: the command's own output
  ShortPathPolicy short_path = ShortPathPolicy::pad;  ///< --short-path
  PlanOptions plan;                                   ///< --mapped-tokens
  bool help = false;

  /// --time-passes and --dump-after as the pipeline's hooks take them.
  Instrumentation::Options instrumentation() const;
};

/// The table of the options of every command, applied to `o`.
OptionTable common_options(CommonOptions& o);

/// Reads `args` with `tables` (a table may be added while reading: `positional` is called with
/// each argument that is not an option and may add the options of the command it names).
/// `unknown(flag)` words the error of an option no table has. Returns the first error.
std::optional<std::string> parse_options(
    const std::vector<std::string_view>& args, std::vector<const OptionTable*>& tables,
    const std::function<std::optional<std::string>(std::string_view)>& positional,
    const std::function<std::string(std::string_view flag)>& unknown);

/// The help lines of `table`, the help text in a column `width` characters from the left.
std::string render_options(const OptionTable& table, std::size_t width);
/// The width render_options() needs so that every option of `tables` fits.
std::size_t options_width(const std::vector<const OptionTable*>& tables);

}  // namespace dfgc::driver
