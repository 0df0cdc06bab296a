#include "actors/portability.hpp"

#include <array>
#include <string_view>

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>
#include <fmt/format.h>

#include "actors/frontend.hpp"

namespace dfgc::actors {

namespace {

/// Builtins of Clang's that GCC 12 and nvcc lack: whole families by prefix, then single names.
constexpr std::array<std::string_view, 10> kClangBuiltinFamilies = {
    "__builtin_elementwise_", "__builtin_reduce_",    "__builtin_matrix_",
    "__builtin_bitreverse",   "__builtin_rotateleft", "__builtin_rotateright",
    "__builtin_align_",       "__builtin_is_aligned", "__builtin_memcpy_inline",
    "__builtin_memset_inline"};
constexpr std::array<std::string_view, 3> kClangBuiltins = {
    "__builtin_convertvector", "__builtin_dump_struct", "__builtin_nondeterministic_value"};

bool is_clang_builtin(llvm::StringRef name) {
  for (std::string_view family : kClangBuiltinFamilies)
    if (name.starts_with(llvm::StringRef(family))) return true;
  for (std::string_view builtin : kClangBuiltins)
    if (name == llvm::StringRef(builtin)) return true;
  return false;
}

/// Clang's predefined macros that g++ and nvcc do not define.
bool is_clang_macro(llvm::StringRef name) {
  return name == "__clang__" || name == "__clang_major__" || name == "__clang_minor__" ||
         name == "__clang_patchlevel__" || name == "__clang_version__" ||
         name == "__clang_literal_encoding__" || name == "__clang_wide_literal_encoding__";
}

class BuiltinFinder : public clang::RecursiveASTVisitor<BuiltinFinder> {
 public:
  BuiltinFinder(const std::set<clang::FileID>& files, const clang::SourceManager& sm,
                Locator& where, DiagnosticEngine& diags)
      : files_(files), sm_(sm), where_(where), diags_(diags) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseDecl(clang::Decl* decl) {
    if (!decl || llvm::isa<clang::TranslationUnitDecl>(decl))
      return RecursiveASTVisitor::TraverseDecl(decl);
    clang::SourceLocation loc = sm_.getFileLoc(decl->getLocation());
    if (loc.isValid() && !files_.contains(sm_.getFileID(loc))) return true;
    return RecursiveASTVisitor::TraverseDecl(decl);
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const auto* function = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
    if (!function || function->getBuiltinID() == 0 || !is_clang_builtin(function->getName()))
      return true;
    Place at = where_.token(ref->getLocation());
    diags_.warning(at.loc,
                   fmt::format("'{}' is a builtin of Clang's: dfgc checks this header with Clang, "
                               "but g++ and nvcc, which build the project, do not have it",
                               function->getName().str()),
                   at.length);
    return true;
  }

 private:
  const std::set<clang::FileID>& files_;
  const clang::SourceManager& sm_;
  Locator& where_;
  DiagnosticEngine& diags_;
};

/// Each of `file`'s raw tokens that names one of Clang's own macros, comments and strings aside.
void find_clang_macros(const clang::SourceManager& sm, const clang::LangOptions& lang,
                       clang::FileID file, Locator& where, DiagnosticEngine& diags) {
  llvm::StringRef text = sm.getBufferData(file);
  clang::Lexer lexer(sm.getLocForStartOfFile(file), lang, text.begin(), text.begin(), text.end());
  clang::Token token;
  unsigned last_line = 0;  // one warning a line: `#if defined(__clang__) && __clang_major__ > 18`
  do {
    lexer.LexFromRawLexer(token);
    if (!token.is(clang::tok::raw_identifier) || !is_clang_macro(token.getRawIdentifier()))
      continue;
    const unsigned line = sm.getSpellingLineNumber(token.getLocation());
    if (line == last_line) continue;
    last_line = line;
    Place at = where.token(token.getLocation());
    diags.warning(at.loc,
                  fmt::format("'{}' is defined by Clang only: dfgc checks this header as Clang "
                              "reads it, but g++ and nvcc, which build the project, do not define "
                              "it and compile other code than was checked",
                              token.getRawIdentifier().str()),
                  at.length);
  } while (token.isNot(clang::tok::eof));
}

}  // namespace

void lint_portability(clang::ASTUnit& unit, const std::set<std::string>& user_files, Locator& where,
                      DiagnosticEngine& diags) {
  const clang::SourceManager& sm = unit.getSourceManager();
  std::set<clang::FileID> files;
  std::set<std::string> lexed;
  for (unsigned i = 0; i < sm.local_sloc_entry_size(); ++i) {
    const clang::SrcMgr::SLocEntry& entry = sm.getLocalSLocEntry(i);
    if (!entry.isFile() || !entry.getFile().getContentCache().OrigEntry) continue;
    std::string path =
        normal_absolute_path(entry.getFile().getContentCache().OrigEntry->getName().str());
    if (!user_files.contains(path)) continue;
    clang::FileID file = sm.getFileID(clang::SourceLocation::getFromRawEncoding(entry.getOffset()));
    files.insert(file);
    if (lexed.insert(path).second) find_clang_macros(sm, unit.getLangOpts(), file, where, diags);
  }
  BuiltinFinder(files, sm, where, diags)
      .TraverseDecl(unit.getASTContext().getTranslationUnitDecl());
}

}  // namespace dfgc::actors
