// dfgc's command-line driver: a straight line from the spec to the requested output.
//   parse -> check (sema) -> read actor headers -> schedule -> insert buffers -> buffer depth
//   -> latency -> resync inputs -> colour buffers -> implementation graph -> [emit | codegen]
// Exit status: 0 success, 1 user error (diagnostics printed), 2 internal error.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "actors/frontend.hpp"
#include "codegen/project.hpp"
#include "driver/depfile.hpp"
#include "ir/ig.hpp"
#include "ir/ir.hpp"
#include "mapping/map_command.hpp"
#include "passes/build_ig.hpp"
#include "sema/sema.hpp"
#include "spec/parser.hpp"
#include "support/diagnostics.hpp"

namespace {

constexpr const char* kUsage = R"(usage: dfgc <command> <spec.dfg> [options]

commands:
  check      parse and verify the spec and its actor headers; diagnostics only
  dump-ast   print the syntax tree of the spec (and of its imports)
  dump-ir    print the checked program: params, types, graph, architecture, mapping
  schedule   run the passes and print the implementation graph (schedule.txt)
  compile    write the generated project (C++/CUDA sources, CMakeLists.txt, schedule.txt,
             graph.dot, the runtime) into the directory given with -o
  map        choose the free nodes' PEs and the tunable params' values from a costs file,
             predict and explain the result (options: 'dfgc map --help')

options:
  -D NAME=VALUE     override a param of the spec (integer)
  --app NAME        the app to use when the spec declares several
  --Werror          treat warnings as errors
  --no-actors       do not read the actor headers
  --time-passes     print the time each stage took to stderr
  --dump-after=PASS print a pass's result to stderr: schedule, insert_buffers, buffer_depth,
                    latency, resync_inputs, color_buffers, or all
  --emit=WHAT       what 'schedule' prints: ir, schedule (schedule.txt, the default) or dot
  -o DIR            where 'compile' writes the project: a new or empty directory, or one that
                    dfgc wrote before (its files are replaced, other files are kept)
  --depfile FILE    with 'compile': write a Make-style depfile of every file read (the spec,
                    its imports, the actor headers and what they include) for DIR/dfgc-manifest.txt
  -h, --help        print this help
)";

struct Options {
  std::string command;
  std::string spec;
  dfgc::SemaOptions sema;
  bool werror = false;
  bool read_actors = true;
  bool time_passes = false;
  std::string dump_after;
  std::string emit = "schedule";
  std::string out_dir;
  std::string depfile;
};

const std::vector<std::string_view> kPasses = {"schedule", "insert_buffers", "buffer_depth",
                                               "latency",  "resync_inputs",  "color_buffers"};

/// Times the stages of one run for --time-passes.
class StageTimer {
 public:
  explicit StageTimer(bool on) : on_(on) {}
  template <typename F>
  auto run(const char* stage, F&& f) {
    auto start = std::chrono::steady_clock::now();
    auto result = f();
    if (on_) {
      std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
      std::fprintf(stderr, "dfgc: %-14s %8.2f ms\n", stage, ms.count());
    }
    return result;
  }

 private:
  bool on_;
};

/// Prints a pass's result to stderr when --dump-after names it (or says all).
class PassDumper {
 public:
  explicit PassDumper(std::string pass) : pass_(std::move(pass)) {}
  template <typename F>
  void after(std::string_view pass, F&& render) const {
    if (pass_ == "all" || pass_ == pass) std::cerr << "// after " << pass << "\n" << render();
  }

 private:
  std::string pass_;
};

/// Parses argv; on a bad flag prints the reason and returns nullopt.
std::optional<Options> parse_args(int argc, char** argv, bool& help) {
  Options o;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  auto fail = [](const std::string& message) {
    std::cerr << "dfgc: error: " << message << "\n" << "run 'dfgc --help' for usage\n";
    return std::nullopt;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    auto value = [&](std::string_view flag) -> std::optional<std::string> {
      if (a.size() > flag.size() && a.substr(0, flag.size()) == flag) {
        std::string_view rest = a.substr(flag.size());
        if (rest.front() == '=') rest.remove_prefix(1);
        return std::string(rest);
      }
      if (i + 1 < args.size()) return std::string(args[++i]);
      return std::nullopt;
    };
    if (a == "-h" || a == "--help") {
      help = true;
      return o;
    } else if (a.starts_with("-D")) {
      auto v = value("-D");
      if (!v) return fail("missing NAME=VALUE after '-D'");
      auto eq = v->find('=');
      if (eq == std::string::npos || eq == 0)
        return fail(fmt::format("'-D {}': expected NAME=VALUE", *v));
      o.sema.defines.push_back({v->substr(0, eq), v->substr(eq + 1)});
    } else if (a == "--app" || a.starts_with("--app=")) {
      auto v = value("--app");
      if (!v || v->empty()) return fail("missing app name after '--app'");
      o.sema.app = *v;
    } else if (a == "--Werror") {
      o.werror = true;
    } else if (a == "--no-actors") {
      o.read_actors = false;
    } else if (a == "--time-passes") {
      o.time_passes = true;
    } else if (a == "--dump-after" || a.starts_with("--dump-after=")) {
      auto v = value("--dump-after");
      if (!v || (*v != "all" && std::find(kPasses.begin(), kPasses.end(), *v) == kPasses.end()))
        return fail(
            fmt::format("'--dump-after' takes a pass name or 'all', not '{}'", v.value_or("")));
      o.dump_after = *v;
    } else if (a == "--emit" || a.starts_with("--emit=")) {
      auto v = value("--emit");
      if (!v || (*v != "ir" && *v != "schedule" && *v != "dot"))
        return fail(fmt::format("'--emit' takes ir, schedule or dot, not '{}'", v.value_or("")));
      o.emit = *v;
    } else if (a == "-o" || a.starts_with("-o")) {
      auto v = value("-o");
      if (!v || v->empty()) return fail("missing directory after '-o'");
      o.out_dir = *v;
    } else if (a == "--depfile" || a.starts_with("--depfile=")) {
      auto v = value("--depfile");
      if (!v || v->empty()) return fail("missing file after '--depfile'");
      o.depfile = *v;
    } else if (a.starts_with("-") && a != "-") {
      return fail(fmt::format("unknown option '{}'", a));
    } else if (o.command.empty()) {
      o.command = a;
    } else if (o.spec.empty()) {
      o.spec = a;
    } else {
      return fail(fmt::format("unexpected argument '{}'", a));
    }
  }
  static const std::vector<std::string_view> commands = {"check", "dump-ast", "dump-ir",
                                                         "schedule", "compile"};
  if (o.command.empty()) return fail("no command given");
  if (std::find(commands.begin(), commands.end(), o.command) == commands.end())
    return fail(fmt::format("unknown command '{}'", o.command));
  if (o.spec.empty()) return fail(fmt::format("'{}' needs a spec file", o.command));
  if (o.command != "schedule" && (o.emit != "schedule" || !o.dump_after.empty()))
    return fail("'--emit' and '--dump-after' need the 'schedule' command");
  if (o.command == "compile" && o.out_dir.empty())
    return fail("'compile' needs an output directory: -o DIR");
  if (o.command != "compile" && !o.out_dir.empty()) return fail("'-o' needs the 'compile' command");
  if (o.command != "compile" && !o.depfile.empty())
    return fail("'--depfile' needs the 'compile' command");
  if (o.command == "compile" && !o.read_actors)
    return fail("'compile' reads the actor headers: drop '--no-actors'");
  o.sema.spec_file = o.spec;
  return o;
}

int run(const Options& o) {
  dfgc::SourceManager sources;
  dfgc::DiagnosticEngine diags(sources);
  diags.set_warnings_as_errors(o.werror);
  StageTimer timer(o.time_passes);
  auto finish = [&](int status) {
    diags.print(std::cerr);
    return diags.has_errors() ? 1 : status;
  };

  auto spec = timer.run("parse", [&] { return dfgc::load_spec(o.spec, sources, diags); });
  if (!spec || diags.has_errors()) return finish(1);
  if (o.command == "dump-ast") {
    for (const auto& module : spec->modules) std::cout << dfgc::ast::dump(*module, sources);
    return finish(0);
  }

  auto program = timer.run("sema", [&] { return dfgc::analyze(*spec, o.sema, sources, diags); });
  if (!program || diags.has_errors()) return finish(1);

  dfgc::ActorSignatures signatures;
  std::vector<std::string> files_read;
  for (const auto& module : spec->modules) files_read.push_back(sources.name(module->file));
  if (o.read_actors) {
    signatures = timer.run("actors", [&] {
      return dfgc::check_actors(*program, dfgc::ActorFrontendOptions{}, sources, diags,
                                &files_read);
    });
    if (diags.has_errors()) return finish(1);
  }
  if (o.command == "dump-ir") std::cout << dfgc::ir::dump(*program);
  if (o.command != "schedule" && o.command != "compile") return finish(0);
  if (o.emit == "ir") {
    std::cout << dfgc::ir::dump(*program);
    return finish(0);
  }

  const dfgc::ir::Program& p = *program;
  const PassDumper dump(o.dump_after);
  auto order = timer.run("schedule", [&] { return dfgc::schedule(p.dfg, p.arch, p.mapping); });
  dump.after("schedule", [&] { return dfgc::dump(order, p); });
  auto plan =
      timer.run("insert_buffers", [&] { return dfgc::insert_buffers(p.dfg, p.arch, p.mapping); });
  dump.after("insert_buffers", [&] { return dfgc::dump(plan, p); });
  auto depths = timer.run("buffer_depth", [&] { return dfgc::buffer_depth(plan); });
  dump.after("buffer_depth", [&] { return dfgc::dump(depths, plan); });
  auto latencies = timer.run("latency", [&] { return dfgc::compute_latency(p.dfg, order, plan); });
  dump.after("latency", [&] { return dfgc::dump(latencies, p, plan); });
  auto delays = timer.run("resync_inputs", [&] {
    return dfgc::resync_inputs(p.dfg, p.arch, p.mapping, plan, latencies);
  });
  dump.after("resync_inputs", [&] { return dfgc::dump(delays, plan); });
  auto colours = timer.run("color_buffers", [&] {
    return dfgc::color_buffers(p, order, plan, depths, latencies, delays);
  });
  dump.after("color_buffers", [&] { return dfgc::dump(colours, p); });
  auto ig = timer.run("build_ig", [&] {
    return dfgc::build_ig(p, order, plan, depths, latencies, delays, colours);
  });
  if (o.command == "compile") {
    auto files = timer.run("codegen", [&] {
      return dfgc::codegen::generate_project(p, ig, signatures, o.out_dir);
    });
    auto error = timer.run("write", [&] { return dfgc::codegen::write_project(files, o.out_dir); });
    if (!error && !o.depfile.empty())
      error = dfgc::write_depfile(o.depfile, o.out_dir + "/dfgc-manifest.txt", files_read);
    diags.print(std::cerr);
    if (error) {
      std::cerr << "dfgc: error: " << *error << "\n";
      return 1;
    }
    return diags.has_errors() ? 1 : 0;
  }
  std::cout << (o.emit == "dot" ? dfgc::ir::render_dot(p, ig) : dfgc::ir::render_schedule(p, ig));
  return finish(0);
}

int run_command(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "map")
    return dfgc::mapping::map_main({argv + 2, argv + argc});
  bool help = false;
  auto options = parse_args(argc, argv, help);
  if (help) {
    std::cout << kUsage;
    return 0;
  }
  if (!options) return 1;
  return run(*options);
}

/// Flushes stdout: a command whose output did not all reach it (a full disk, a closed descriptor) has
/// failed, whatever it returned.
int flush_stdout(int status) {
  errno = 0;
  bool lost = std::fflush(stdout) != 0;  // std::cout writes through stdout's buffer
  int error = errno;
  std::cout.flush();
  lost = lost || !std::cout || std::ferror(stdout);
  if (!lost) return status;
  std::cerr << "dfgc: error: cannot write to standard output"
            << (error ? fmt::format(": {}", std::generic_category().message(error)) : std::string()) << "\n";
  return status == 0 ? 1 : status;
}

}  // namespace

int main(int argc, char** argv) { return flush_stdout(run_command(argc, argv)); }
