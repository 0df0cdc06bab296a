/// \file
/// load_spec: parses a spec and follows its `import` declarations. Import paths are relative to
/// the importing file's directory and joined lexically (so diagnostics print readable relative
/// paths); a file is identified by its weakly canonical path, parsed once, and placed after every
/// module it imports. Reports files that cannot be read and import cycles (with the chain as
/// notes); a file imported twice by the same module is a warning. A chain of imports deeper than
/// kMaxImportDepth is an error at the import that goes too deep, which bounds the recursion.
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "spec/parser.hpp"
#include "spec/reporter.hpp"

namespace dfgc {

namespace {

namespace fs = std::filesystem;
using spec::Note;
using spec::report_error;
using spec::too_many_errors;

/// How many files a chain of imports may hold, the root included.
constexpr std::size_t kMaxImportDepth = 256;

/// The identity of a file: its weakly canonical path (the lexical absolute path if even that
/// fails).
std::string identity(const fs::path& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  if (ec) canonical = fs::absolute(path, ec).lexically_normal();
  return canonical.generic_string();
}

/// The length of the string literal starting at `loc`, for underlining it.
std::uint32_t literal_length(const SourceManager& sources, SourceLoc loc) {
  std::string_view text = sources.contents(loc.file).substr(loc.offset);
  std::size_t i = 1;
  while (i < text.size() && text[i] != '"' && text[i] != '\n') i += text[i] == '\\' ? 2 : 1;
  return static_cast<std::uint32_t>(std::min(i + 1, text.size()));
}

class Loader {
 public:
  Loader(SourceManager& sources, DiagnosticEngine& diags) : sources_(sources), diags_(diags) {}

  std::unique_ptr<Spec> load(const std::string& path);

 private:
  enum class State { loading, loaded };

  /// A module being loaded; `import` is the declaration that led to it (null for the root).
  struct Frame {
    std::string identity;
    std::uint32_t file;
    const ast::ImportDecl* import;
  };

  void visit(std::uint32_t file, const std::string& id, const ast::ImportDecl* import);
  void follow(const ast::Module& from, const ast::ImportDecl& import,
              std::map<std::string, const ast::ImportDecl*>& seen);
  void report_cycle(const ast::ImportDecl& import, const std::string& id);

  SourceManager& sources_;
  DiagnosticEngine& diags_;
  std::map<std::string, State> states_;
  std::vector<Frame> stack_;
  std::unique_ptr<Spec> spec_ = std::make_unique<Spec>();
};

std::unique_ptr<Spec> Loader::load(const std::string& path) {
  std::string reason;
  auto file = sources_.load_file(path, &reason);
  if (!file) {
    diags_.error({}, fmt::format("cannot open '{}': {}", path, reason));
    return nullptr;
  }
  visit(*file, identity(path), nullptr);
  return std::move(spec_);
}

void Loader::visit(std::uint32_t file, const std::string& id, const ast::ImportDecl* import) {
  states_[id] = State::loading;
  stack_.push_back({id, file, import});
  std::unique_ptr<ast::Module> module = parse_module(file, sources_, diags_);
  std::map<std::string, const ast::ImportDecl*> seen;
  for (const ast::ImportDecl& i : module->imports) {
    if (too_many_errors(diags_)) break;
    follow(*module, i, seen);
  }
  stack_.pop_back();
  states_[id] = State::loaded;
  spec_->modules.push_back(std::move(module));
}

void Loader::follow(const ast::Module& from, const ast::ImportDecl& import,
                    std::map<std::string, const ast::ImportDecl*>& seen) {
  fs::path path =
      (fs::path(sources_.name(from.file)).parent_path() / import.path).lexically_normal();
  std::string id = identity(path);
  std::uint32_t length = literal_length(sources_, import.path_loc);
  if (auto previous = seen.find(id); previous != seen.end()) {
    diags_.warning(import.path_loc, fmt::format("'{}' is imported twice", import.path), length)
        .note(previous->second->path_loc, "first imported here",
              literal_length(sources_, previous->second->path_loc));
    return;
  }
  seen.emplace(id, &import);
  if (auto state = states_.find(id); state != states_.end()) {
    if (state->second == State::loading) report_cycle(import, id);
    return;
  }
  if (stack_.size() >= kMaxImportDepth) {
    report_error(diags_, import.path_loc,
                 fmt::format("imports are nested too deeply (more than {} files in a chain)",
                             kMaxImportDepth),
                 length);
    return;
  }
  std::string reason;
  auto file = sources_.load_file(path.generic_string(), &reason);
  if (!file) {
    report_error(diags_, import.path_loc,
                 fmt::format("cannot open imported file '{}': {}", import.path, reason), length);
    return;
  }
  visit(*file, id, &import);
}

/// `import` (in the module on top of the stack) names `id`, which is further down the stack.
void Loader::report_cycle(const ast::ImportDecl& import, const std::string& id) {
  std::size_t first = 0;
  while (stack_[first].identity != id) ++first;
  std::string message =
      fmt::format("import cycle: '{}' imports itself", sources_.name(stack_[first].file));
  for (std::size_t i = first + 1; i < stack_.size(); ++i)
    message +=
        fmt::format("{}'{}'", i == first + 1 ? " through " : " -> ", sources_.name(stack_[i].file));
  std::vector<Note> notes;
  for (std::size_t i = first + 1; i < stack_.size(); ++i) {
    const ast::ImportDecl& link = *stack_[i].import;
    notes.push_back({link.path_loc,
                     fmt::format("'{}' imports '{}' here", sources_.name(stack_[i - 1].file),
                                 sources_.name(stack_[i].file)),
                     literal_length(sources_, link.path_loc)});
  }
  report_error(diags_, import.path_loc, std::move(message),
               literal_length(sources_, import.path_loc), std::move(notes));
}

}  // namespace

std::unique_ptr<Spec> load_spec(const std::string& path, SourceManager& sources,
                                DiagnosticEngine& diags) {
  return Loader(sources, diags).load(path);
}

}  // namespace dfgc
