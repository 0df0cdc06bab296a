/// \file
/// dfg::parse_flags: the generated program's command line.
///
///     --iterations N        iterations to run (default 100; 1 .. kMaxIterations)
///     --no-overlap          run the strategy without computation/communication overlap
///     --sync=barrier|neighbours  with overlap: end every cycle with a barrier of all PEs, or
///                           let each PE wait for its neighbours only (default)
///     --trace FILE          write Chrome/Perfetto trace events to FILE (--trace and --profile
///                           open FILE at start-up: dfg/outputs.hpp)
///     --stats               print per-node and per-transfer times, iteration period, throughput
///     --stats=period        print the iteration period and throughput only: nothing is timed
///                           inside a cycle, so the measurement does not perturb the schedule
///     --stats-json FILE     after the run, write the stats as JSON to FILE (dfg/stats.hpp: every
///                           entry's min/median/mean/max time, the period, the throughput, the
///                           run's settings); times every item unless --stats=period is given;
///                           opened at start-up like --trace
///     --profile FILE        after the run, write a costs file of `dfgc map` (docs/costs.md) with
///                           the measured firing and transfer times (times every item, like
///                           --stats, without printing; see dfg/profile.hpp)
///     --set NAME=VALUE      set a runtime param (an integer within its bounds)
///     --params FILE         read runtime params from FILE: `NAME = VALUE` lines, '#' comments
///                           (a regular file of at most kMaxParamsFileBytes)
///     --migrate NODE:PE@K   move NODE to its alternative on PE from iteration K (repeatable)
///     --migrate-control FILE   read moves (NODE:PE or NODE:PE@K, a line each) from FILE while
///                              the program runs
///     --rebalance[=MS]      move nodes among their alternatives when a PE becomes the bottleneck,
///                           and back when the load goes (dfg/rebalance.hpp), looking every MS
///                           ms (default kDefaultRebalanceMs; 1 .. kMaxRebalanceMs)
///     --hostmap H=R,...     run host H on MPI rank R (default: host i on rank i; see
///     dfg/mpi/placement.hpp)
///     --no-cuda-aware-mpi   stage GPU-to-remote-GPU transfers through host memory even if MPI is
///     CUDA-aware
///     --pin-cpus            pin the worker thread of the host's k-th PE (cpus first) to core k
///                           (modulo the cores the process may use; dfg/pin.hpp)
///     --checkpoint FILE     write the state of every node with save/restore (and the tokens on
///                           delayed edges) to FILE every --checkpoint-every iterations, whole
///                           or not at all (dfg/checkpoint.hpp)
///     --checkpoint-every N  iterations between two checkpoints (default 1000; a multiple of
///                           the app's batch)
///     --restart FILE        resume from the checkpoint in FILE: run its iteration on
///     --no-graphs           enqueue every GPU cycle call by call, even where the plan lets the
///                           GPU relaunch its cycles as CUDA graphs (dfg/cuda/gpu_graphs.hpp)
///     --graph-cycles N      cycles one graph holds on a GPU that no other PE waits for (the
///                           plan says which; default 8, 1 .. kMaxGraphCycles; rounded up to a
///                           multiple of its slots' phases)
///     --help                print the usage and exit
///
/// Every flag that takes a value accepts `--flag VALUE` and `--flag=VALUE`; a repeated flag
/// overrides the earlier one; --set and --params apply in command-line order, later wins.
/// Runtime params are validated against the program's table: known name, a whole decimal
/// integer that fits in an int64 (no sign but '-', no spaces, no trailing text), within the
/// param's bounds (`runtime param N = 256 in [1, 65536];`). The token sizes computed from them are
/// checked when the program starts (dfg/size.hpp).
///
/// Guarantees: pure functions of their arguments (parse_flags reads the --params files);
/// they never exit, print or throw except std::bad_alloc: a bad command line gives
/// FlagsResult::exit_code == 1 and a one-line `error:` message that names the flag and the
/// reason. Thread-safe (no shared state); allocate freely (start-up only).
#pragma once

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "dfg/detail/int_literal.hpp"
#include "dfg/options.hpp"

namespace dfg {

/// The largest --params file read (a few lines are expected; a larger file is a wrong path).
inline constexpr std::uintmax_t kMaxParamsFileBytes = 1 << 20;
/// The most cycles --graph-cycles lets one CUDA graph hold (each is a copy of the cycle's nodes
/// on the device).
inline constexpr std::int64_t kMaxGraphCycles = 1024;
/// --rebalance's interval between two looks at the PEs' loads, in ms: the default, the most.
inline constexpr std::int64_t kDefaultRebalanceMs = 200;
inline constexpr std::int64_t kMaxRebalanceMs = 60000;

struct FlagsResult {
  Options options;
  int exit_code = 0;  ///< 0: go on (or print the usage if options.help); 1: bad command line
  std::string error;  ///< "error: ..." (one line) when exit_code == 1
  bool ok() const noexcept { return exit_code == 0; }
};

namespace detail {

inline std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

/// Parses a whole string as an integer literal of the spec language (decimal or 0x hexadecimal,
/// '_' between digits: dfg/detail/int_literal.hpp); nullopt with `why` set otherwise.
inline std::optional<std::int64_t> parse_int(std::string_view s, std::string& why) {
  std::string reason;
  if (auto v = parse_int_literal(s, reason)) return v;
  why = (reason == "integer out of range"  ? "integer out of range, got "
         : reason == "expected an integer" ? "expected an integer, got "
                                           : reason + ", got ") +
        quoted(s);
  return std::nullopt;
}

inline std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

inline std::string known_params(std::span<const RuntimeParam> table) {
  if (table.empty()) return "this program has no runtime params";
  std::string s = "known: ";
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (i > 0) s += ", ";
    s += table[i].name;
  }
  return s;
}

/// "in [1, 65536]", ">= 0", "<= 9", or "" when `p` has no bounds.
inline std::string bounds_text(const RuntimeParam& p) {
  constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  if (p.min != lo && p.max != hi)
    return "in [" + std::to_string(p.min) + ", " + std::to_string(p.max) + "]";
  if (p.min != lo) return ">= " + std::to_string(p.min);
  if (p.max != hi) return "<= " + std::to_string(p.max);
  return {};
}

/// Sets param `name` to the text `value`; returns the error on failure ("" on success).
/// `where` prefixes messages ("--set N=0", "--params p.txt:3"); `where_has_value` says whether it
/// already shows the value (else a range error adds ", got VALUE").
inline std::string set_param(std::span<const RuntimeParam> table, std::vector<std::int64_t>& values,
                             std::string_view where, bool where_has_value, std::string_view name,
                             std::string_view value) {
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i].name != name) continue;
    std::string why;
    const auto v = parse_int(value, why);
    if (!v) return "error: " + std::string(where) + ": " + std::string(name) + ": " + why;
    if (*v < table[i].min || *v > table[i].max) {
      return "error: " + std::string(where) + ": " + std::string(name) + " must be " +
             bounds_text(table[i]) + (where_has_value ? "" : ", got " + std::to_string(*v));
    }
    values[i] = *v;
    return {};
  }
  return "error: " + std::string(where) + ": unknown runtime param " + quoted(name) + " (" +
         known_params(table) + ")";
}

/// Reads a --params file: a regular file of at most kMaxParamsFileBytes. Returns "" and sets
/// `text`, else the one-line error.
inline std::string read_params_file(const std::string& path, std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return "error: --params: cannot read " + detail::quoted(path);
  if (fs::is_directory(status))
    return "error: --params: " + detail::quoted(path) + " is a directory, not a file";
  if (!fs::is_regular_file(status))
    return "error: --params: " + detail::quoted(path) + " is not a regular file";
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxParamsFileBytes) {
    return "error: --params: " + detail::quoted(path) + " is too large (" + std::to_string(size) +
           " bytes; at most " + std::to_string(kMaxParamsFileBytes) + ")";
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  if (in) out << in.rdbuf();
  if (!in || in.bad()) return "error: --params: cannot read " + detail::quoted(path);
  text = std::move(out).str();
  return {};
}

}  // namespace detail

/// Applies the `NAME = VALUE` lines of `text` (read from `file`, for messages) to `values`.
/// Returns "" on success, else the one-line error.
inline std::string apply_params_text(std::string_view text, std::string_view file,
                                     std::span<const RuntimeParam> table,
                                     std::vector<std::int64_t>& values) {
  std::vector<bool> seen(table.size(), false);
  std::size_t line_no = 0;
  // A file saved with a UTF-8 byte order mark: the mark is not part of its first name.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  while (!text.empty()) {
    ++line_no;
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    line = detail::trim(line);
    if (line.empty()) continue;
    const std::string where = "--params " + std::string(file) + ":" + std::to_string(line_no);
    const auto eq = line.find('=');
    const std::string_view name =
        eq == std::string_view::npos ? std::string_view() : detail::trim(line.substr(0, eq));
    const std::string_view value =
        eq == std::string_view::npos ? std::string_view() : detail::trim(line.substr(eq + 1));
    if (name.empty() || value.empty()) {
      return "error: " + where + ": expected NAME = VALUE, got " + detail::quoted(line);
    }
    if (std::string e = detail::set_param(table, values, where, false, name, value); !e.empty())
      return e;
    for (std::size_t i = 0; i < table.size(); ++i) {
      if (table[i].name != name) continue;
      if (seen[i]) return "error: " + where + ": " + std::string(name) + " is set twice";
      seen[i] = true;
    }
  }
  return {};
}

/// Parses argv[1..argc). `table` lists the program's runtime params with their defaults; `batch`
/// is the iterations a cycle of the program runs (Options::batch).
inline FlagsResult parse_flags(int argc, const char* const* argv,
                               std::span<const RuntimeParam> table, std::int64_t batch = 1) {
  FlagsResult result;
  Options& o = result.options;
  bool iterations_given = false;
  bool every_given = false;
  for (const RuntimeParam& p : table) {
    o.params.push_back(p.default_value);
    o.param_names.emplace_back(p.name);
  }

  auto fail = [&result](std::string message) {
    result.exit_code = 1;
    result.error = std::move(message);
    return result;
  };

  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.size() < 3 || arg.substr(0, 2) != "--") {
      return fail("error: unexpected argument " + detail::quoted(arg) + " (see --help)");
    }
    std::string_view flag = arg;
    std::optional<std::string_view> inline_value;
    if (const auto eq = arg.find('='); eq != std::string_view::npos) {
      flag = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    }
    // The flag's value: inline after '=', else the next argument.
    auto value = [&](std::string_view& out) -> bool {
      if (inline_value) {
        out = *inline_value;
        return true;
      }
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    auto no_value = [&]() { return !inline_value.has_value(); };
    const std::string f(flag);
    // A whole number in [1, max] (`what` names it when missing) into `out`; false with the
    // error in `err`.
    auto count = [&](std::string_view what, std::int64_t max, std::int64_t& out, std::string& err) {
      std::string_view v;
      if (!value(v)) {
        err = "error: " + f + ": missing value (" + std::string(what) + ")";
        return false;
      }
      std::string why;
      const auto n = detail::parse_int(v, why);
      if (!n) {
        err = "error: " + f + ": " + why;
        return false;
      }
      if (*n < 1 || *n > max) {
        err = "error: " + f + ": must be in [1, " + std::to_string(max) + "], got " +
              std::to_string(*n);
        return false;
      }
      out = *n;
      return true;
    };

    if (flag == "--help") {
      if (!no_value()) return fail("error: --help: takes no value");
      o.help = true;
    } else if (flag == "--no-overlap") {
      if (!no_value()) return fail("error: --no-overlap: takes no value");
      o.overlap = false;
    } else if (flag == "--pin-cpus") {
      if (!no_value()) return fail("error: --pin-cpus: takes no value");
      o.pin_cpus = true;
    } else if (flag == "--no-graphs") {
      if (!no_value()) return fail("error: --no-graphs: takes no value");
      o.graphs = false;
    } else if (flag == "--no-cuda-aware-mpi") {
      if (!no_value()) return fail("error: --no-cuda-aware-mpi: takes no value");
      o.cuda_aware_mpi = false;
    } else if (flag == "--hostmap") {
      std::string_view v;
      if (!value(v) || v.empty()) return fail("error: --hostmap: missing value (HOST=RANK,...)");
      o.hostmap = v;
    } else if (flag == "--stats") {
      std::string_view v;
      if (!no_value() && (!value(v) || v != "period"))
        return fail("error: --stats: expected no value or 'period', got '" + std::string(v) + "'");
      o.stats = true;
      o.stats_per_item = v.empty();
    } else if (flag == "--rebalance") {
      o.rebalance_ms = kDefaultRebalanceMs;
      // --rebalance alone, or --rebalance=MS (the value only after '=': the flag takes none).
      std::string err;
      if (!no_value() && !count("ms between two looks", kMaxRebalanceMs, o.rebalance_ms, err))
        return fail(err);
    } else if (flag == "--iterations") {
      std::string err;
      if (!count("a positive integer", kMaxIterations, o.iterations, err)) return fail(err);
      iterations_given = true;
    } else if (flag == "--sync") {
      std::string_view v;
      if (!value(v)) return fail("error: --sync: missing value ('barrier' or 'neighbours')");
      if (v == "barrier")
        o.sync = SyncMode::barrier;
      else if (v == "neighbours")
        o.sync = SyncMode::neighbours;
      else
        return fail("error: --sync: expected 'barrier' or 'neighbours', got " + detail::quoted(v));
    } else if (flag == "--profile") {
      std::string_view v;
      if (!value(v) || v.empty()) return fail("error: --profile: missing value (an output file)");
      o.profile_file = v;
    } else if (flag == "--stats-json") {
      std::string_view v;
      if (!value(v) || v.empty())
        return fail("error: --stats-json: missing value (an output file)");
      o.stats_json_file = v;
    } else if (flag == "--trace") {
      std::string_view v;
      if (!value(v) || v.empty()) return fail("error: --trace: missing value (an output file)");
      o.trace_file = v;
    } else if (flag == "--set") {
      std::string_view v;
      if (!value(v)) return fail("error: --set: missing value (NAME=VALUE)");
      const auto eq = v.find('=');
      if (eq == std::string_view::npos || eq == 0 || eq + 1 == v.size()) {
        return fail("error: --set: expected NAME=VALUE, got " + detail::quoted(v));
      }
      if (std::string e = detail::set_param(table, o.params, "--set " + std::string(v), true,
                                            v.substr(0, eq), v.substr(eq + 1));
          !e.empty()) {
        return fail(std::move(e));
      }
    } else if (flag == "--params") {
      std::string_view v;
      if (!value(v) || v.empty()) return fail("error: --params: missing value (a file)");
      const std::string path(v);
      std::string text;
      if (std::string e = detail::read_params_file(path, text); !e.empty())
        return fail(std::move(e));
      if (std::string e = apply_params_text(text, path, table, o.params); !e.empty()) {
        return fail(std::move(e));
      }
    } else if (flag == "--migrate") {
      std::string_view v;
      if (!value(v)) return fail("error: --migrate: missing value (NODE:PE@ITERATION)");
      const auto colon = v.find(':');
      const auto at = v.rfind('@');
      std::string why;
      std::optional<std::int64_t> cycle;
      if (colon != std::string_view::npos && at != std::string_view::npos && colon > 0 &&
          at > colon + 1) {
        cycle = detail::parse_int(v.substr(at + 1), why);
      }
      if (!cycle || *cycle < 0) {
        return fail("error: --migrate: expected NODE:PE@ITERATION (e.g. i2:B.g1@25), got " +
                    detail::quoted(v));
      }
      o.migrations.push_back({std::string(v.substr(0, colon)),
                              std::string(v.substr(colon + 1, at - colon - 1)), *cycle});
    } else if (flag == "--checkpoint" || flag == "--restart") {
      std::string_view v;
      if (!value(v) || v.empty())
        return fail("error: " + f + ": missing value (a checkpoint file)");
      (flag == "--checkpoint" ? o.checkpoint_file : o.restart_file) = std::string(v);
    } else if (flag == "--checkpoint-every") {
      std::string err;
      if (!count("iterations", kMaxIterations, o.checkpoint_every, err)) return fail(err);
      every_given = true;
    } else if (flag == "--graph-cycles") {
      std::string err;
      if (!count("cycles a graph holds", kMaxGraphCycles, o.graph_cycles, err)) return fail(err);
    } else if (flag == "--migrate-control") {
      std::string_view v;
      if (!value(v) || v.empty())
        return fail("error: --migrate-control: missing value (a file or FIFO)");
      o.migrate_control = std::string(v);
    } else {
      return fail("error: unknown flag " + detail::quoted(flag) + " (see --help)");
    }
  }
  if (every_given && o.checkpoint_file.empty())
    return fail("error: --checkpoint-every: needs --checkpoint FILE (where to write them)");
  if (every_given && o.checkpoint_every % batch != 0)
    return fail("error: --checkpoint-every: " + std::to_string(o.checkpoint_every) +
                " is not a multiple of " + std::to_string(batch) +
                ", the iterations one cycle of this program runs (its app's `batch " +
                std::to_string(batch) + "`)");
  o.checkpoint_every = (o.checkpoint_every + batch - 1) / batch;  // in cycles
  if (batch > 1) {
    if (iterations_given && o.iterations % batch != 0)
      return fail("error: --iterations: " + std::to_string(o.iterations) +
                  " is not a multiple of " + std::to_string(batch) +
                  ", the iterations one cycle of this program runs (its app's `batch " +
                  std::to_string(batch) + "`)");
    o.iterations = (o.iterations + batch - 1) / batch;
    o.batch = batch;
  }
  return result;
}

inline FlagsResult parse_flags(int argc, char** argv, std::span<const RuntimeParam> table,
                               std::int64_t batch = 1) {
  return parse_flags(argc, const_cast<const char* const*>(argv), table, batch);
}

/// A program on `hosts` hosts (MPI ranks): the flags of a program on one host (--checkpoint,
/// --restart, --rebalance) are refused before anything runs; "" when none is given.
inline std::string several_hosts_flags_error(const Options& options, std::size_t hosts) {
  const std::string on = "it runs on " + std::to_string(hosts) + " hosts";
  if (!options.checkpoint_file.empty() || !options.restart_file.empty())
    return std::string("error: ") + (options.restart_file.empty() ? "--checkpoint" : "--restart") +
           ": this program takes no checkpoints: " + on +
           ", and checkpoints are taken on one host only";
  if (options.rebalance_ms > 0)
    return "error: --rebalance: " + on +
           ", and the rebalancing policy moves nodes on one host only (move them with "
           "--migrate-control)";
  return {};
}

/// The --help text, one flag a line, then the runtime params with their defaults; `batch` as
/// parse_flags takes it.
inline std::string usage(std::string_view program, std::span<const RuntimeParam> table,
                         std::int64_t batch = 1) {
  std::string s = "usage: " + std::string(program) + " [flags]\n\n";
  if (batch > 1)
    s += "Each cycle runs " + std::to_string(batch) +
         " iterations (the app's batch): --iterations is a multiple of " + std::to_string(batch) +
         ".\n\n";
  s += "  --iterations N          iterations to run (default 100, at most 2^62)\n"
       "  --no-overlap            no computation/communication overlap\n"
       "  --sync=barrier|neighbours  with overlap: a barrier per cycle, or wait for neighbours\n"
       "                          only (default neighbours)\n"
       "  --trace FILE            write Chrome/Perfetto trace events to FILE (opened at start-up)\n"
       "  --stats                 print times per node and transfer, period, throughput\n"
       "  --stats=period          print the period and throughput only (no per-item timing)\n"
       "  --stats-json FILE       write the stats as JSON to FILE (per-item times unless\n"
       "                          --stats=period; opened at start-up)\n"
       "  --profile FILE          write the measured costs to FILE (a costs file of dfgc map)\n"
       "                          (on several hosts, --trace, --stats-json and --profile write\n"
       "                          FILE.<host>.ext; FILE must be a regular file or a new one)\n"
       "  --set NAME=VALUE        set a runtime param\n"
       "  --params FILE           read runtime params from FILE (NAME = VALUE lines, # comments;\n"
       "                          a regular file of at most 1 MiB)\n"
       "  --migrate NODE:PE@K     move NODE to its alternative on PE from iteration K\n"
       "                          (repeatable, one move per node)\n"
       "  --migrate-control FILE  while running, read moves from FILE (or a FIFO), a line\n"
       "                          each: NODE:PE (as soon as possible) or NODE:PE@K\n"
       "  --rebalance[=MS]        move nodes among their alternatives when a PE becomes the\n"
       "                          bottleneck, and back when its load goes; look every MS ms\n"
       "                          (default 200)\n"
       "  --hostmap H=R,...       run host H on MPI rank R (default: host i on rank i; a program\n"
       "                          on one host accepts only its host on rank 0)\n"
       "  --no-cuda-aware-mpi     stage GPU data through host memory between hosts\n"
       "  --pin-cpus              pin the host's k-th PE's thread (cpus first) to core k\n"
       "  --checkpoint FILE       every --checkpoint-every iterations, write the state of the\n"
       "                          nodes with save/restore to FILE (replaced whole, never torn)\n"
       "  --checkpoint-every N    iterations between checkpoints (default 1000)\n"
       "  --restart FILE          resume from the checkpoint in FILE, at its iteration\n"
       "  --no-graphs             enqueue every GPU cycle call by call (default: a GPU whose\n"
       "                          plan allows it relaunches its cycles as CUDA graphs)\n"
       "  --graph-cycles N        cycles one graph holds on a GPU no other PE waits for\n"
       "                          (default 8; 1: a graph a cycle)\n"
       "  --help                  print this help\n";
  if (!table.empty()) {
    s += "\nruntime params:\n";
    for (const RuntimeParam& p : table) {
      std::string line = "  " + std::string(p.name) + " = " + std::to_string(p.default_value);
      if (const std::string bounds = detail::bounds_text(p); !bounds.empty())
        line += " (" + bounds + ")";
      if (!p.help.empty()) {
        if (line.size() < 26)
          line.append(26 - line.size(), ' ');
        else
          line += ' ';
        line += p.help;
      }
      s += line + '\n';
    }
  }
  return s;
}

}  // namespace dfg
