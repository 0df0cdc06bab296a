#include "driver/options.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <system_error>

#include <fmt/format.h>

namespace dfgc::driver {

std::string_view name(Emit emit) { return kEmitNames[static_cast<std::size_t>(emit)]; }

Instrumentation::Options CommonOptions::instrumentation() const {
  Instrumentation::Options o;
  o.time = time_passes;
  for (std::size_t i = 0; i < kStageNames.size(); ++i)
    o.dump[i] = dump_all || std::find(dump_after.begin(), dump_after.end(),
                                      static_cast<Stage>(i)) != dump_after.end();
  return o;
}

namespace {

/// "parse, sema, ..."; with `per_line`, a line break after every `per_line` stages.
std::string stage_list(std::size_t per_line = 0) {
  std::string out;
  for (std::size_t i = 0; i < kStageNames.size(); ++i)
    out += fmt::format("{}{}", kStageNames[i],
                       i + 1 == kStageNames.size()           ? ""
                       : per_line && (i + 1) % per_line == 0 ? ",\n"
                                                             : ", ");
  return out;
}

std::string emit_list() {
  std::string out;
  for (std::size_t i = 1; i < kEmitNames.size(); ++i)
    out += fmt::format("{}{}", kEmitNames[i],
                       i + 2 < kEmitNames.size()    ? ", "
                       : i + 2 == kEmitNames.size() ? " or "
                                                    : "");
  return out;
}

/// `v` as a whole number in [0, most], all of it digits; none otherwise.
std::optional<std::int64_t> whole_number(
    std::string_view v, std::int64_t most = std::numeric_limits<std::int64_t>::max()) {
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || n < 0 || n > most) return std::nullopt;
  return n;
}

}  // namespace

OptionTable common_options(CommonOptions& o) {
  return {
      {"-D", "NAME=VALUE", "NAME=VALUE",
       "override a param of the spec (integer; one -D per param); fixes a tunable one",
       [&o](std::string_view v) {
         auto eq = v.find('=');
         if (eq == std::string_view::npos || eq == 0) return false;
         o.sema.defines.push_back({std::string(v.substr(0, eq)), std::string(v.substr(eq + 1))});
         return true;
       }},
      {"--app", "NAME", "an app name", "the app to use when the spec declares several",
       [&o](std::string_view v) {
         o.sema.app = std::string(v);
         return true;
       }},
      {"--Werror", "", "", "treat warnings as errors",
       [&o](std::string_view) { return o.werror = true; }},
      {"--no-actors", "", "", "do not read the actor headers",
       [&o](std::string_view) {
         o.read_actors = false;
         return true;
       }},
      {"--time-passes", "", "", "print to stderr the time each stage took (summed over its runs)",
       [&o](std::string_view) { return o.time_passes = true; }},
      {"--dump-after", "STAGES", "stages (" + stage_list() + ") separated by commas, or 'all'",
       "print a stage's result to stderr once it has run, several stages' with a\n"
       "list (sema,plan_names), or every stage's with 'all'; the stages, in order: " +
           stage_list(5) + "\n(the command must run each stage)",
       [&o](std::string_view v) {
         o.dump_after.clear();
         o.dump_all = v == "all";
         for (std::size_t begin = 0; !o.dump_all;) {
           std::size_t end = std::min(v.find(',', begin), v.size());
           auto stage = stage_named(v.substr(begin, end - begin));
           if (!stage) return false;
           o.dump_after.push_back(*stage);
           if (end == v.size()) break;
           begin = end + 1;
         }
         return true;
       }},
      {"--emit", "WHAT", emit_list(),
       "what the command prints instead of its own output, running the stages it\n"
       "needs: ast (the syntax tree), ir (the checked program), schedule\n"
       "(schedule.txt), dot (graph.dot), svg (graph.dot drawn by Graphviz's dot, when\n"
       "installed), plan (what each host's threads do: storage,\n"
       "streams, steps, MPI tags), or code (the project: 'compile' writes it into\n"
       "-o DIR, its default); 'map' prints these of the mapping it chooses (ast\n"
       "excepted) and writes its project with --emit=code -o DIR",
       [&o](std::string_view v) {
         for (std::size_t i = 1; i < kEmitNames.size(); ++i)
           if (v == kEmitNames[i]) {
             o.emit = static_cast<Emit>(i);
             return true;
           }
         return false;
       }},
      {"--fifos", "HOW", "zero-copy or copied",
       "a fifo edge between an island on a CPU and one on a GPU of one host:\n"
       "zero-copy (the default: one ring in mapped pinned memory that both use) or\n"
       "copied (a token of the ring's capacity and its count, copied H2D or D2H by\n"
       "the static cycle each iteration: the zero-copy FIFO paper's comparison)",
       [&o](std::string_view v) {
         if (v != "zero-copy" && v != "copied") return false;
         o.sema.copied_fifos = v == "copied";
         return true;
       }},
      {"--short-path", "POLICY", "pad or pause",
       "a migration alternative whose path is shorter than the node's: pad it with\n"
       "delay slots (pad, the default: no pause, no gap) or pause the sources\n"
       "(pause, the task-migration paper's way); schedule.txt shows the cost",
       [&o](std::string_view v) {
         if (v != "pad" && v != "pause") return false;
         o.short_path = v == "pad" ? ShortPathPolicy::pad : ShortPathPolicy::pause;
         return true;
       }},
      {"--joints", "N", "a number of joint alternatives (0: none)",
       "moves of neighbouring nodes that change common firings or transfers run\n"
       "through a joint alternative, the mapping with all of them, planned like a\n"
       "single one: at most N a program (default " +
           std::to_string(kDefaultJoints) +
           "; schedule.txt lists them and\nthe sets left out, which a run refuses)",
       [&o](std::string_view v) {
         const std::optional<std::int64_t> n = whole_number(v, 4096);
         if (n) o.plan.joints = static_cast<std::size_t>(*n);
         return n.has_value();
       }},
      {"--mapped-tokens", "BYTES", "a number of bytes (0: none)",
       "tokens between a CPU and a GPU of one host whose GPU slots are at most BYTES\n"
       "(at the defaults of the runtime params) and whose GPU ports are `mappable`\n"
       "live in mapped host memory: the kernels read and write them there and the\n"
       "CPU's thread copies them, with no copy call of the GPU; 0 copies every token\n(default " +
           std::to_string(kMappedBytes) +
           "; --emit=plan shows the choice;\n`dfgc map` costs them as the plan moves them)",
       [&o](std::string_view v) {
         const std::optional<std::int64_t> bytes = whole_number(v);
         if (bytes) o.plan.mapped_bytes = *bytes;
         return bytes.has_value();
       }},
      {"--help", "", "", "print this help", [&o](std::string_view) { return o.help = true; }, "-h",
       true},
  };
}

std::optional<std::string> parse_options(
    const std::vector<std::string_view>& args, std::vector<const OptionTable*>& tables,
    const std::function<std::optional<std::string>(std::string_view)>& positional,
    const std::function<std::string(std::string_view flag)>& unknown) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (!a.starts_with("-") || a == "-") {
      if (auto error = positional(a)) return error;
      continue;
    }
    // The option `a` spells, and its value when `a` carries one.
    const Option* option = nullptr;
    std::optional<std::string_view> value;
    for (const OptionTable* table : tables)
      for (const Option& o : *table) {
        if (option) break;
        if (a == o.flag || (!o.alias.empty() && a == o.alias)) {
          option = &o;
        } else if (!o.flag.starts_with("--") && a.starts_with(o.flag) && !o.value.empty()) {
          option = &o;
          value = a.substr(o.flag.size());
          if (value->starts_with("=")) value->remove_prefix(1);
        } else if (a.starts_with(o.flag + "=")) {
          option = &o;
          value = a.substr(o.flag.size() + 1);
        }
      }
    if (!option) return unknown(a);
    if (option->value.empty()) {
      if (value) return fmt::format("'{}' takes no value", option->flag);
      option->set("");
      if (option->ends) return std::nullopt;
      continue;
    }
    if (!value && i + 1 < args.size()) value = args[++i];
    if (!value || value->empty()) return fmt::format("'{}' takes {}", option->flag, option->takes);
    if (!option->set(*value))
      return fmt::format("'{}' takes {}, not '{}'", option->flag, option->takes, *value);
  }
  return std::nullopt;
}

namespace {

std::string label(const Option& o) {
  std::string out = o.alias.empty() ? o.flag : o.alias + ", " + o.flag;
  if (!o.value.empty()) out += (o.flag.starts_with("--") ? "=" : " ") + o.value;
  return out;
}

}  // namespace

std::size_t options_width(const std::vector<const OptionTable*>& tables) {
  std::size_t width = 0;
  for (const OptionTable* table : tables)
    for (const Option& o : *table) width = std::max(width, label(o).size() + 4);
  return width;
}

std::string render_options(const OptionTable& table, std::size_t width) {
  std::string out;
  for (const Option& o : table) {
    std::string line = "  " + label(o);
    std::string_view help = o.help;
    for (bool first = true; first || !help.empty(); first = false) {
      auto end = help.find('\n');
      line.resize(width, ' ');
      out += line;
      out += help.substr(0, end);
      out += '\n';
      help = end == std::string_view::npos ? std::string_view() : help.substr(end + 1);
      line.clear();
    }
  }
  return out;
}

}  // namespace dfgc::driver
