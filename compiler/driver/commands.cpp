#include "driver/commands.hpp"

#include <algorithm>
#include <iostream>
#include <limits>

#include <clang/Basic/Version.h>
#include <fmt/format.h>

#include "driver/graphviz.hpp"
#include "driver/pipeline.hpp"
#include "ir/ig.hpp"
#include "ir/ir.hpp"

namespace dfgc::driver {

Stage last_stage(Emit emit) {
  switch (emit) {
    case Emit::ast: return Stage::parse;
    // What `check` checks: the passes to the migrations (loops, moves), then the actors.
    case Emit::nothing:
    case Emit::ir:
    case Emit::dot:
    case Emit::svg: return Stage::actors;
    // schedule.txt names the alternatives' MPI tags and the mapped tokens: the plan's entries.
    case Emit::schedule: return Stage::plan_entries;
    case Emit::plan: return kPlanned;
    case Emit::code: return Stage::write;
  }
  return Stage::write;
}

std::optional<std::string> print_emit(Emit what, const Compilation& c,
                                      const SourceManager& sources) {
  switch (what) {
    case Emit::nothing:
    case Emit::code: break;
    case Emit::ast:
      for (const auto& module : c.spec->modules) std::cout << ast::dump(*module, sources);
      break;
    case Emit::ir: std::cout << ir::dump(*c.program); break;
    case Emit::schedule: std::cout << render_schedule(*c.program, c.passes); break;
    case Emit::dot: std::cout << ir::render_dot(*c.program, *c.passes.ig); break;
    case Emit::svg: {
      std::string svg;
      if (auto error = render_svg(ir::render_dot(*c.program, *c.passes.ig), svg)) return error;
      std::cout << svg;
      break;
    }
    case Emit::plan: std::cout << dump(*c.passes.hosts); break;
  }
  return std::nullopt;
}

namespace {

/// check, dump-ast, dump-ir, schedule: the pipeline up to what the command prints (its own output
/// or --emit's), then that output on stdout.
class PipelineCommand : public Command {
 public:
  PipelineCommand(std::string_view name, std::string_view summary, Emit output)
      : name_(name), summary_(summary), output_(output) {}

  std::string_view name() const override { return name_; }
  std::string_view summary() const override { return summary_; }

  std::vector<Stage> stages(const CommonOptions& common) const override {
    std::vector<Stage> out;
    for (auto s = Stage::parse; s <= last_stage(emit(common));
         s = static_cast<Stage>(static_cast<int>(s) + 1))
      if (s != Stage::actors || common.read_actors) out.push_back(s);
    return out;
  }

  std::optional<std::string> check(const CommonOptions& common) const override {
    if (emit(common) == Emit::code)
      return fmt::format(
          "'{} --emit=code': only 'compile' (and 'map', of the mapping it chooses) writes "
          "the project: dfgc compile SPEC -o DIR",
          name_);
    return std::nullopt;
  }

  int run(const std::string& spec, const CommonOptions& common) override {
    return run_pipeline_to(spec, common, {});
  }

 protected:
  Emit emit(const CommonOptions& common) const { return common.emit.value_or(output_); }

  /// Runs the pipeline up to the output's stage and prints the output.
  int run_pipeline_to(const std::string& spec, const CommonOptions& common,
                      const std::filesystem::path& out_dir, const std::string& depfile = {},
                      std::size_t format_limit = codegen::kFormatLimit) const {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    diags.set_warnings_as_errors(common.werror);
    Instrumentation instrumentation(common.instrumentation(), std::cerr);
    PipelineInput in{common.sema, common.read_actors, out_dir,
                     depfile,     common.short_path,  common.plan};
    in.sema.spec_file = spec;
    in.format_limit = format_limit;
    Compilation c;
    const Emit what = emit(common);
    bool ok = run_pipeline(in, last_stage(what), sources, diags, instrumentation.hooks(), c);
    instrumentation.report();
    std::optional<std::string> print_error;
    if (ok && !diags.has_errors()) print_error = print_emit(what, c, sources);
    diags.print(std::cerr);
    if (print_error) {
      std::cerr << "dfgc: error: " << *print_error << "\n";
      return 1;
    }
    if (c.write_error) {
      std::cerr << "dfgc: error: " << *c.write_error << "\n";
      return 1;
    }
    return ok && !diags.has_errors() ? 0 : 1;
  }

 private:
  std::string_view name_;
  std::string_view summary_;
  Emit output_;
};

/// compile: the project written into -o DIR, or with --emit what that names, and nothing written.
class CompileCommand final : public PipelineCommand {
 public:
  CompileCommand()
      : PipelineCommand(
            "compile",
            "write the generated project (C++/CUDA sources, CMakeLists.txt, schedule.txt,\n"
            "graph.dot, the runtime) into the directory given with -o; with --emit=WHAT other\n"
            "than code, print that instead and write nothing",
            Emit::code) {}

  std::string_view usage() const override { return "<spec.dfg> -o DIR [options]"; }

  // The options of 'compile' alone.
  OptionTable options() override {
    return {
        {"-o", "DIR", "a directory",
         "where the project is written: a new or empty directory, or one that dfgc\n"
         "wrote before (its files are replaced, other files are kept)",
         [this](std::string_view v) {
           out_dir_ = std::string(v);
           return true;
         }},
        {"--depfile", "FILE", "a file",
         "also write a Make-style depfile of every file read (the spec, its imports, the\n"
         "actor headers and what they include) for DIR/dfgc-manifest.txt; FILE must be a\n"
         "regular file or a new path (a symlink is written through), not an input nor in DIR",
         [this](std::string_view v) {
           depfile_ = std::string(v);
           return true;
         }},
        {"--clang-format", "WHEN", "auto, always or never",
         "lay the generated sources out with clang-format: 'auto' (the default) those of at\n"
         "most 128 KiB, 'always' every one (slow on specs of thousands of nodes), 'never' none;\n"
         "the includes are sorted either way",
         [this](std::string_view v) {
           if (v == "auto")
             format_limit_ = codegen::kFormatLimit;
           else if (v == "always")
             format_limit_ = std::numeric_limits<std::size_t>::max();
           else if (v == "never")
             format_limit_ = 0;
           else
             return false;
           return true;
         }},
    };
  }

  std::optional<std::string> check(const CommonOptions& common) const override {
    const Emit what = emit(common);
    if (what != Emit::code && !out_dir_.empty())
      return fmt::format("'compile --emit={}' writes nothing: drop '-o'", driver::name(what));
    if (what == Emit::code && out_dir_.empty())
      return "'compile' needs an output directory: -o DIR";
    if (what != Emit::code && !depfile_.empty())
      return fmt::format("'compile --emit={}' writes nothing: drop '--depfile'",
                         driver::name(what));
    if (what == Emit::code && !common.read_actors)
      return "'compile' reads the actor headers: drop '--no-actors'";
    return std::nullopt;
  }

  int run(const std::string& spec, const CommonOptions& common) override {
    return run_pipeline_to(spec, common, out_dir_, depfile_, format_limit_);
  }

 private:
  std::string out_dir_;
  std::string depfile_;
  std::size_t format_limit_ = codegen::kFormatLimit;
};

std::vector<std::unique_ptr<Command>> all_commands() {
  std::vector<std::unique_ptr<Command>> out;
  out.push_back(std::make_unique<PipelineCommand>(
      "check", "parse and verify the spec and its actor headers; diagnostics only", Emit::nothing));
  out.push_back(std::make_unique<PipelineCommand>(
      "dump-ast", "print the syntax tree of the spec (and of its imports)", Emit::ast));
  out.push_back(std::make_unique<PipelineCommand>(
      "dump-ir", "print the checked program: params, types, graph, architecture, mapping",
      Emit::ir));
  out.push_back(std::make_unique<PipelineCommand>(
      "schedule", "run the passes and print the implementation graph (schedule.txt)",
      Emit::schedule));
  out.push_back(std::make_unique<CompileCommand>());
  out.push_back(make_map_command());
  return out;
}

std::unique_ptr<Command> find_command(std::string_view name) {
  for (auto& command : all_commands())
    if (command->name() == name) return std::move(command);
  return nullptr;
}

std::string indent(std::string_view text, std::string_view margin) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    auto end = std::min(text.find('\n', at), text.size());
    out += fmt::format("{}{}\n", out.empty() ? "" : margin, text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

std::string global_help() {
  CommonOptions ignored;
  OptionTable common = common_options(ignored);
  std::string out =
      "usage: dfgc <command> <spec.dfg> [options]\n"
      "       dfgc help <command>   a command's own options (as 'dfgc <command> --help')\n"
      "       dfgc --version        dfgc's version and the Clang libraries it links\n"
      "\ncommands:\n";
  for (const auto& command : all_commands())
    out += fmt::format("  {:<10} {}", command->name(), indent(command->summary(), "             "));
  out += "\noptions of every command:\n";
  out += render_options(common, options_width({&common}));
  return out;
}

std::string version() {
  return fmt::format("dfgc {}\nlinked with {}\n", DFGC_VERSION, clang::getClangFullVersion());
}

int usage_error(const std::string& message, std::string_view command) {
  std::cerr << "dfgc: error: " << message << "\n"
            << "run 'dfgc " << command << (command.empty() ? "" : " ") << "--help' for usage\n";
  return 1;
}

}  // namespace

std::string command_help(Command& command) {
  CommonOptions ignored;
  OptionTable common = common_options(ignored);
  OptionTable own = command.options();
  std::size_t width = options_width({&common, &own});
  std::string out = fmt::format("usage: dfgc {} {}\n\n{}", command.name(), command.usage(),
                                indent(command.summary(), ""));
  if (!command.description().empty()) out += fmt::format("\n{}", command.description());
  if (!own.empty())
    out += fmt::format("\noptions of '{}':\n{}", command.name(), render_options(own, width));
  out += "\noptions of every command:\n" + render_options(common, width);
  return out;
}

int run_command(const std::vector<std::string_view>& args) {
  if (!args.empty() && args[0] == "--version") {
    if (args.size() > 1) return usage_error(fmt::format("unexpected argument '{}'", args[1]), "");
    std::cout << version();
    return 0;
  }
  if (!args.empty() && args[0] == "help") {
    if (args.size() == 1) {
      std::cout << global_help();
      return 0;
    }
    if (args.size() > 2) return usage_error(fmt::format("unexpected argument '{}'", args[2]), "");
    auto command = find_command(args[1]);
    if (!command) return usage_error(fmt::format("unknown command '{}'", args[1]), "");
    std::cout << command_help(*command);
    return 0;
  }

  CommonOptions common;
  const OptionTable common_table = common_options(common);
  std::vector<const OptionTable*> tables = {&common_table};
  std::unique_ptr<Command> command;
  OptionTable own;
  std::string spec;
  auto positional = [&](std::string_view a) -> std::optional<std::string> {
    if (!command) {
      command = find_command(a);
      if (!command) return fmt::format("unknown command '{}'", a);
      own = command->options();
      tables.push_back(&own);
    } else if (spec.empty()) {
      spec = std::string(a);
    } else {
      return fmt::format("unexpected argument '{}'", a);
    }
    return std::nullopt;
  };
  auto unknown = [&](std::string_view flag) {
    std::string_view bare = flag.substr(0, flag.find('='));
    for (const auto& other : all_commands()) {
      if (command && other->name() == command->name()) continue;
      for (const Option& o : other->options())
        if (o.flag == bare)
          return fmt::format("'{}' is an option of '{}'{}", bare, other->name(),
                             command ? fmt::format(", not of '{}'", command->name()) : "");
    }
    return command ? fmt::format("unknown option '{}' for '{}'", flag, command->name())
                   : fmt::format("unknown option '{}'", flag);
  };
  auto error = parse_options(args, tables, positional, unknown);
  std::string_view name = command ? command->name() : std::string_view();
  if (error) return usage_error(*error, name);
  if (common.help) {
    std::cout << (command ? command_help(*command) : global_help());
    return 0;
  }
  if (!command) return usage_error("no command given", name);
  if (spec.empty()) return usage_error(fmt::format("'{}' needs a spec file", name), name);
  if (auto refused = command->check(common)) return usage_error(*refused, name);
  const auto stages = command->stages(common);
  for (Stage stage : common.dump_after) {
    if (std::find(stages.begin(), stages.end(), stage) == stages.end()) {
      std::string ran;
      for (Stage s : stages) ran += fmt::format("{}{}", ran.empty() ? "" : ", ", dfgc::name(s));
      std::string what(name);
      if (common.emit) what += fmt::format(" --emit={}", driver::name(*common.emit));
      return usage_error(fmt::format("'--dump-after={}': '{}' does not run that stage; it runs {}",
                                     dfgc::name(stage), what, ran),
                         name);
    }
  }
  return command->run(spec, common);
}

}  // namespace dfgc::driver
