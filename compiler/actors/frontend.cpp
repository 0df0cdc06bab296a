/// \file
/// check_actors: opens every implementation's header, parses the CPU headers as one translation
/// unit and the GPU headers as another (in parallel), forwards Clang's errors, then checks each
/// implementation's contract, lints the firings' numbering (actors/firing_lint.hpp) and GPU
/// implementations for overlap.
#include "actors/frontend.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <utility>

#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/Preprocessor.h>
#include <fmt/format.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include "actors/contract.hpp"
#include "actors/firing_lint.hpp"
#include "actors/locations.hpp"
#include "actors/overlap_lint.hpp"
#include "actors/parse.hpp"
#include "actors/port_lint.hpp"
#include "actors/portability.hpp"
#include "actors/struct_layout.hpp"

namespace dfgc {

namespace {

using actors::HeaderFile;
using actors::Locator;
using actors::Place;

/// One implementation to check, with its header.
struct ImplRef {
  ir::ActorId actor = 0;
  std::size_t impl = 0;
  std::size_t header = 0;  ///< index into the run's headers
};

/// The headers of one kind of implementation, parsed as one translation unit.
struct Batch {
  ir::PeKind kind = ir::PeKind::cpu;
  std::vector<std::size_t> headers;  ///< in order of first use
  std::vector<std::string> dirs;     ///< the headers' directories, in order of first use
  actors::ParsedUnit unit;
};

class ActorFrontend {
 public:
  ActorFrontend(const ir::Program& program, const ActorFrontendOptions& options,
                SourceManager& sources, DiagnosticEngine& diags)
      : program_(program), options_(options), sources_(sources), diags_(diags) {}

  ActorCheck run();

 private:
  const ir::Impl& impl_of(const ImplRef& ref) const {
    return program_.dfg.actors[ref.actor].impls[ref.impl];
  }
  std::optional<std::size_t> open_header(const ir::Impl& impl);
  std::vector<Batch> make_batches() const;
  void parse(std::vector<Batch>& batches) const;
  std::size_t forward_clang_diagnostics(const Batch& batch, Locator* where);
  void note_impls(DiagnosticBuilder& d, ir::PeKind kind, std::size_t header) const;
  void check_batch(const Batch& batch, const ActorFiles& files, ActorSignatures& signatures);
  /// `users`: the normal absolute paths of the user's files.
  void check_macros(const Batch& batch, Locator& where, const std::set<std::string>& users);

  const ir::Program& program_;
  const ActorFrontendOptions& options_;
  SourceManager& sources_;
  DiagnosticEngine& diags_;
  std::vector<HeaderFile> headers_;
  std::vector<ImplRef> impls_;
  /// Clang errors already reported: a header in both batches is parsed twice.
  std::set<std::tuple<std::uint32_t, std::uint32_t, std::string>> reported_;
  std::set<ir::StructId> structs_checked_;  ///< by the first batch that declares each
};

ActorCheck ActorFrontend::run() {
  for (ir::ActorId a = 0; a < program_.dfg.actors.size(); ++a) {
    const ir::Actor& actor = program_.dfg.actors[a];
    if (actor.island) continue;  // its class is generated
    for (std::size_t i = 0; i < actor.impls.size(); ++i)
      if (auto header = open_header(actor.impls[i])) impls_.push_back({a, i, *header});
  }
  std::vector<Batch> batches = make_batches();
  parse(batches);
  ActorCheck out;
  for (const Batch& batch : batches) {
    if (batch.unit.ast) actors::add_files_read(*batch.unit.ast, options_, batch.dirs, out.files);
    check_batch(batch, out.files, out.signatures);
  }
  // An island's generated class: fire takes its ports in order and the context; init(ctx) when
  // a member has init.
  // A GPU island's init puts its rings and actors on the device: it always has one.
  for (const ir::Island& island : program_.islands) {
    const ir::PeKind kind = program_.dfg.actors[island.actor].impls.front().kind;
    ActorSignature s;
    for (std::uint32_t p = 0; p < program_.dfg.actors[island.actor].ports.size(); ++p)
      s.fire_ports.push_back(p);
    s.fire_takes_context = true;
    s.has_init = kind == ir::PeKind::gpu;
    for (const ir::IslandMember& m : island.members) {
      auto member = out.signatures.find({m.actor, kind});
      s.has_init = s.has_init || (member != out.signatures.end() && member->second.has_init);
    }
    s.init_takes_context = s.has_init;
    out.signatures[{island.actor, kind}] = std::move(s);
  }
  // Each header as dfgc read it too, should Clang have reached its file under another name.
  for (const ImplRef& ref : impls_) {
    const HeaderFile& header = headers_[ref.header];
    out.files.headers[impl_of(ref).header_path] = header.absolute;
    out.files.text.try_emplace(header.absolute, sources_.contents(header.file));
    out.files.external.erase(header.absolute);
  }
  return out;
}

/// Loads the header into dfgc's SourceManager (to quote its lines) and identifies the file.
std::optional<std::size_t> ActorFrontend::open_header(const ir::Impl& impl) {
  std::string reason;
  llvm::sys::fs::UniqueID id;
  // The source manager refuses what is not a regular file of a sane size (a directory,
  // /dev/zero, a FIFO) before Clang, which reads the header on its own, is given its path.
  std::optional<std::uint32_t> file = sources_.load_file(impl.header_path, &reason);
  if (file) {
    std::error_code ec = llvm::sys::fs::getUniqueID(impl.header_path, id);
    if (ec) {
      reason = ec.message();
      file.reset();
    }
  }
  if (!file) {
    bool at_string = impl.header_loc.valid();
    diags_.error(at_string ? impl.header_loc : impl.loc,
                 fmt::format("cannot open actor header '{}': {}", impl.header, reason),
                 at_string ? static_cast<std::uint32_t>(impl.header.size() + 2) : 1);
    return std::nullopt;
  }
  for (std::size_t h = 0; h < headers_.size(); ++h)
    if (headers_[h].id == id) return h;
  headers_.push_back({impl.header_path, normal_absolute_path(impl.header_path), id, *file});
  return headers_.size() - 1;
}

std::vector<Batch> ActorFrontend::make_batches() const {
  std::vector<Batch> batches;
  for (ir::PeKind kind : {ir::PeKind::cpu, ir::PeKind::gpu}) {
    Batch batch;
    batch.kind = kind;
    for (const ImplRef& ref : impls_)
      if (impl_of(ref).kind == kind &&
          std::find(batch.headers.begin(), batch.headers.end(), ref.header) == batch.headers.end())
        batch.headers.push_back(ref.header);
    if (!batch.headers.empty()) batches.push_back(std::move(batch));
  }
  return batches;
}

/// Parses every batch, each on its own thread: the two translation units are independent.
void ActorFrontend::parse(std::vector<Batch>& batches) const {
  auto parse_one = [this](Batch& batch) {
    std::vector<std::string> files;
    for (std::size_t h : batch.headers) {
      files.push_back(headers_[h].absolute);
      std::string dir = llvm::sys::path::parent_path(headers_[h].absolute).str();
      if (std::find(batch.dirs.begin(), batch.dirs.end(), dir) == batch.dirs.end())
        batch.dirs.push_back(dir);
    }
    batch.unit = actors::parse_headers(batch.kind, files,
                                       actors::clang_args(batch.kind, options_, batch.dirs));
  };
  std::vector<std::thread> threads;
  for (std::size_t b = 1; b < batches.size(); ++b)
    threads.emplace_back(parse_one, std::ref(batches[b]));
  if (!batches.empty()) parse_one(batches[0]);
  for (std::thread& t : threads) t.join();
}

void ActorFrontend::note_impls(DiagnosticBuilder& d, ir::PeKind kind, std::size_t header) const {
  for (const ImplRef& ref : impls_)
    if (ref.header == header && impl_of(ref).kind == kind)
      d.note(impl_of(ref).loc, fmt::format("actor '{}' implementation declared here",
                                           program_.dfg.actors[ref.actor].name));
}

/// Reports Clang's errors (with the notes that follow them) as they are; warnings are the
/// user's business. `where` is null when Clang produced no AST (nothing to locate against).
/// Returns how many of the batch's headers are left to check: those included before the first
/// one with an error. The ones after it are not checked either, as an error (a missing brace)
/// may leave the parser inside one of its declarations.
std::size_t ActorFrontend::forward_clang_diagnostics(const Batch& batch, Locator* where) {
  std::size_t checked = batch.unit.ast ? batch.headers.size() : 0;
  const auto& clang_diags = batch.unit.collector->diagnostics();
  using Level = clang::DiagnosticsEngine::Level;
  for (std::size_t i = 0; i < clang_diags.size(); ++i) {
    const actors::ClangDiagnostic& cd = clang_diags[i];
    if (cd.level != Level::Error && cd.level != Level::Fatal) continue;
    // A plain index rather than an optional: GCC 12 reports a std::optional<std::size_t> read
    // after this loop's `continue` as maybe uninitialized.
    constexpr std::size_t kNoHeader = std::numeric_limits<std::size_t>::max();
    std::size_t header = where ? where->header_of(cd.loc).value_or(kNoHeader) : kNoHeader;
    std::size_t position = header != kNoHeader
                               ? static_cast<std::size_t>(
                                     std::find(batch.headers.begin(), batch.headers.end(), header) -
                                     batch.headers.begin())
                               : 0;
    checked = std::min(checked, position);
    Place at = where ? where->point(cd.loc) : Place{};
    if (!reported_.emplace(at.loc.file, at.loc.offset, cd.message).second) continue;
    DiagnosticBuilder d = diags_.error(at.loc, cd.message, at.length);
    for (std::size_t n = i + 1; n < clang_diags.size() && clang_diags[n].level == Level::Note;
         ++n) {
      Place note_at = where ? where->point(clang_diags[n].loc) : Place{};
      d.note(note_at.loc, clang_diags[n].message, note_at.length);
    }
    if (header != kNoHeader) note_impls(d, batch.kind, header);
  }
  return checked;
}

void ActorFrontend::check_batch(const Batch& batch, const ActorFiles& files,
                                ActorSignatures& signatures) {
  std::optional<Locator> where;
  if (batch.unit.ast)
    where.emplace(batch.unit.ast->getSourceManager(), batch.unit.ast->getLangOpts(), sources_,
                  headers_);
  std::size_t count = forward_clang_diagnostics(batch, where ? &*where : nullptr);
  if (count == 0) return;
  std::vector<std::size_t> checked(batch.headers.begin(), batch.headers.begin() + count);
  clang::ASTContext& ast = batch.unit.ast->getASTContext();
  std::set<const clang::CXXMethodDecl*> linted;
  std::set<std::pair<const clang::CXXRecordDecl*, const ir::Actor*>> linted_classes;
  for (const ImplRef& ref : impls_) {
    const ir::Impl& impl = impl_of(ref);
    if (impl.kind != batch.kind ||
        std::find(checked.begin(), checked.end(), ref.header) == checked.end())
      continue;
    const ir::Actor& actor = program_.dfg.actors[ref.actor];
    actors::ContractResult result = actors::check_contract(ast, batch.unit.ast->getSema(), program_,
                                                           actor, impl, *where, diags_);
    if (result.signature && result.fire) {
      result.signature->fire_const = result.fire->isConst();
      result.signature->fire_reads_iteration = actors::reads_iteration(*result.fire);
    }
    if (result.signature) signatures[{ref.actor, impl.kind}] = std::move(*result.signature);
    if (result.fire && !actor.dynamic) {
      actors::lint_firing_count(*result.fire, program_, actor, impl, *where, diags_);
      if (result.cls && linted_classes.insert({result.cls, &actor}).second)
        actors::lint_port_names(*result.cls, actor, *where, diags_);
    }
    if (impl.kind == ir::PeKind::gpu && result.fire && linted.insert(result.fire).second)
      actors::lint_overlap(*result.fire, *where, diags_);
    for (const ir::Port& port : actor.ports) {
      if (port.fifo_elem) continue;
      const ir::TokenType& token = program_.types[port.type];
      if (token.record && !structs_checked_.count(token.record->id) &&
          actors::check_struct_layout(ast, program_.structs[token.record->id], *where, diags_))
        structs_checked_.insert(token.record->id);
    }
  }
  // The user's files only (those the project copies or includes where they are): not CUDA's
  // headers nor dfgc's runtime.
  std::set<std::string> user_files = files.external;
  for (const auto& [path, text] : files.text) user_files.insert(path);
  check_macros(batch, *where, user_files);
  actors::lint_portability(*batch.unit.ast, user_files, *where, diags_);
}

/// The generated sources include every actor header of a PE into one translation unit, before
/// the code that names the actor classes: a macro that a user's header leaves defined reaches
/// that code. One named like an actor class (`#define Producer Consumer`: the wrong class is
/// built, silently), a keyword (`#define void int`) or a namespace of the generated code (app,
/// dfg, std, param) is an error at its #define.
void ActorFrontend::check_macros(const Batch& batch, Locator& where,
                                 const std::set<std::string>& users) {
  const clang::Preprocessor& pp = batch.unit.ast->getPreprocessor();
  const clang::SourceManager& sm = batch.unit.ast->getSourceManager();
  std::set<std::string> classes;
  for (const ir::Actor& actor : program_.dfg.actors)
    for (const ir::Impl& impl : actor.impls) classes.insert(impl.class_name);
  const std::set<std::string> namespaces = {"app", "dfg", "std", "param"};
  std::vector<std::pair<clang::SourceLocation, std::string>> found;
  for (const auto& [ident, state] : pp.macros()) {
    const clang::MacroInfo* macro = pp.getMacroInfo(ident);
    if (!macro || macro->isBuiltinMacro()) continue;
    const clang::SourceLocation loc = macro->getDefinitionLoc();
    if (loc.isInvalid() || sm.getFileCharacteristic(loc) != clang::SrcMgr::C_User) continue;
    const clang::OptionalFileEntryRef file = sm.getFileEntryRefForID(sm.getFileID(loc));
    if (!file || !users.count(normal_absolute_path(file->getName().str()))) continue;
    const std::string name = ident->getName().str();
    std::string what;
    if (ident->isKeyword(batch.unit.ast->getLangOpts()))
      what = fmt::format("the keyword '{}'", name);
    else if (classes.count(name))
      what = fmt::format("actor class '{}', so the generated code would build another class", name);
    else if (namespaces.count(name))
      what = fmt::format("the generated code's namespace '{}'", name);
    else
      continue;
    found.emplace_back(loc, fmt::format("macro '{}' of an actor header stays defined into the "
                                        "generated code, where it would replace {}; #undef it "
                                        "at the end of the header",
                                        name, what));
  }
  // In the headers' order, for a stable report.
  std::sort(found.begin(), found.end(), [&](const auto& a, const auto& b) {
    return sm.isBeforeInTranslationUnit(a.first, b.first);
  });
  for (const auto& [loc, message] : found) {
    const Place at = where.token(loc);
    if (reported_.insert({at.loc.file, at.loc.offset, message}).second)
      diags_.error(at.loc, message, at.length);
  }
}

}  // namespace

ActorCheck check_actors(const ir::Program& program, const ActorFrontendOptions& options,
                        SourceManager& sources, DiagnosticEngine& diags) {
  return ActorFrontend(program, options, sources, diags).run();
}

std::string normal_absolute_path(const std::string& path) {
  llvm::SmallString<256> out(path);
  (void)llvm::sys::fs::make_absolute(out);  // on failure (no working directory) kept as given
  llvm::sys::path::remove_dots(out, /*remove_dot_dot=*/true);
  return std::string(out);
}

}  // namespace dfgc
