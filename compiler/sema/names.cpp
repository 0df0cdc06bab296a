/// \file
/// Duplicate declarations and unknown names, reported the same way for every kind of name.
#include "sema/names.hpp"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

bool NameTable::declare(const ast::Ident& id, std::size_t index, DiagnosticEngine& diags) {
  return declare(id.name, span_of(id), index, diags);
}

bool NameTable::declare(const std::string& name, Span here, std::size_t index,
                        DiagnosticEngine& diags) {
  if (name.empty()) return false;
  auto [it, inserted] = entries_.try_emplace(name, Entry{index, here.loc, here.length});
  if (!inserted) {
    diags.error(here.loc, fmt::format("duplicate {} '{}'", what_, name), here.length)
        .note(it->second.loc, "previous definition is here", it->second.length);
    return false;
  }
  names_.push_back(name);
  return true;
}

std::optional<std::size_t> NameTable::find(std::string_view name) const {
  auto it = entries_.find(name);
  if (it == entries_.end()) return std::nullopt;
  return it->second.index;
}

std::optional<std::size_t> NameTable::resolve(const ast::Ident& id, DiagnosticEngine& diags,
                                              std::string message) const {
  if (id.name.empty()) return std::nullopt;
  if (auto index = find(id.name)) return index;
  if (message.empty()) message = fmt::format("unknown {} '{}'", what_, id.name);
  error_at(diags, span_of(id), message + did_you_mean(id.name, names_));
  return std::nullopt;
}

namespace {

/// The keywords of C++20 and the alternative tokens (and, bitor, ...).
constexpr std::string_view kKeywords[] = {"alignas",       "alignof",     "and",
                                          "and_eq",        "asm",         "auto",
                                          "bitand",        "bitor",       "bool",
                                          "break",         "case",        "catch",
                                          "char",          "char8_t",     "char16_t",
                                          "char32_t",      "class",       "compl",
                                          "concept",       "const",       "consteval",
                                          "constexpr",     "constinit",   "const_cast",
                                          "continue",      "co_await",    "co_return",
                                          "co_yield",      "decltype",    "default",
                                          "delete",        "do",          "double",
                                          "dynamic_cast",  "else",        "enum",
                                          "explicit",      "export",      "extern",
                                          "false",         "float",       "for",
                                          "friend",        "goto",        "if",
                                          "inline",        "int",         "long",
                                          "mutable",       "namespace",   "new",
                                          "noexcept",      "not",         "not_eq",
                                          "nullptr",       "operator",    "or",
                                          "or_eq",         "private",     "protected",
                                          "public",        "register",    "reinterpret_cast",
                                          "requires",      "return",      "short",
                                          "signed",        "sizeof",      "static",
                                          "static_assert", "static_cast", "struct",
                                          "switch",        "template",    "this",
                                          "thread_local",  "throw",       "true",
                                          "try",           "typedef",     "typeid",
                                          "typename",      "union",       "unsigned",
                                          "using",         "virtual",     "void",
                                          "volatile",      "wchar_t",     "while",
                                          "xor",           "xor_eq"};

/// Object-like and function-like macros of the C and C++ standard headers, POSIX and the
/// compilers' predefined ones that the generated sources may see.
constexpr std::string_view kMacros[] = {"NULL",
                                        "EOF",
                                        "BUFSIZ",
                                        "FILENAME_MAX",
                                        "FOPEN_MAX",
                                        "L_tmpnam",
                                        "TMP_MAX",
                                        "SEEK_SET",
                                        "SEEK_CUR",
                                        "SEEK_END",
                                        "stdin",
                                        "stdout",
                                        "stderr",
                                        "errno",
                                        "assert",
                                        "offsetof",
                                        "setjmp",
                                        "va_start",
                                        "va_arg",
                                        "va_end",
                                        "va_copy",
                                        "EXIT_SUCCESS",
                                        "EXIT_FAILURE",
                                        "RAND_MAX",
                                        "MB_CUR_MAX",
                                        "CLOCKS_PER_SEC",
                                        "CHAR_BIT",
                                        "CHAR_MIN",
                                        "CHAR_MAX",
                                        "SCHAR_MIN",
                                        "SCHAR_MAX",
                                        "UCHAR_MAX",
                                        "SHRT_MIN",
                                        "SHRT_MAX",
                                        "USHRT_MAX",
                                        "INT_MIN",
                                        "INT_MAX",
                                        "UINT_MAX",
                                        "LONG_MIN",
                                        "LONG_MAX",
                                        "ULONG_MAX",
                                        "LLONG_MIN",
                                        "LLONG_MAX",
                                        "ULLONG_MAX",
                                        "MB_LEN_MAX",
                                        "SIZE_MAX",
                                        "PTRDIFF_MIN",
                                        "PTRDIFF_MAX",
                                        "SIG_ATOMIC_MIN",
                                        "SIG_ATOMIC_MAX",
                                        "WCHAR_MIN",
                                        "WCHAR_MAX",
                                        "WINT_MIN",
                                        "WINT_MAX",
                                        "INT8_MIN",
                                        "INT8_MAX",
                                        "INT16_MIN",
                                        "INT16_MAX",
                                        "INT32_MIN",
                                        "INT32_MAX",
                                        "INT64_MIN",
                                        "INT64_MAX",
                                        "UINT8_MAX",
                                        "UINT16_MAX",
                                        "UINT32_MAX",
                                        "UINT64_MAX",
                                        "INTPTR_MIN",
                                        "INTPTR_MAX",
                                        "UINTPTR_MAX",
                                        "INTMAX_MIN",
                                        "INTMAX_MAX",
                                        "UINTMAX_MAX",
                                        "INT8_C",
                                        "INT16_C",
                                        "INT32_C",
                                        "INT64_C",
                                        "UINT8_C",
                                        "UINT16_C",
                                        "UINT32_C",
                                        "UINT64_C",
                                        "INTMAX_C",
                                        "UINTMAX_C",
                                        "FLT_MIN",
                                        "FLT_MAX",
                                        "FLT_EPSILON",
                                        "FLT_DIG",
                                        "DBL_MIN",
                                        "DBL_MAX",
                                        "DBL_EPSILON",
                                        "DBL_DIG",
                                        "LDBL_MIN",
                                        "LDBL_MAX",
                                        "LDBL_EPSILON",
                                        "HUGE_VAL",
                                        "HUGE_VALF",
                                        "HUGE_VALL",
                                        "INFINITY",
                                        "NAN",
                                        "FP_NAN",
                                        "FP_INFINITE",
                                        "FP_ZERO",
                                        "FP_NORMAL",
                                        "FP_SUBNORMAL",
                                        "EDOM",
                                        "ERANGE",
                                        "EILSEQ",
                                        "EINVAL",
                                        "ENOMEM",
                                        "EAGAIN",
                                        "EINTR",
                                        "ENOENT",
                                        "EEXIST",
                                        "EACCES",
                                        "EPERM",
                                        "EBUSY",
                                        "EIO",
                                        "EBADF",
                                        "EPIPE",
                                        "ENOSPC",
                                        "ETIMEDOUT",
                                        "SIGABRT",
                                        "SIGFPE",
                                        "SIGILL",
                                        "SIGINT",
                                        "SIGSEGV",
                                        "SIGTERM",
                                        "SIG_DFL",
                                        "SIG_ERR",
                                        "SIG_IGN",
                                        "LC_ALL",
                                        "LC_COLLATE",
                                        "LC_CTYPE",
                                        "LC_MONETARY",
                                        "LC_NUMERIC",
                                        "LC_TIME",
                                        "linux",
                                        "unix"};

/// Prefixes of macros and names other headers of the generated code reserve, with their owner.
constexpr std::pair<std::string_view, std::string_view> kReservedPrefixes[] = {
    {"MPI_", "MPI"}, {"PMPI_", "MPI"}, {"DFG_", "dfgc's runtime"}, {"NVTX", "NVTX"}};

bool listed(std::span<const std::string_view> list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

bool check_cxx_name(const ast::Ident& id, std::string_view what, DiagnosticEngine& diags) {
  const std::string& name = id.name;
  if (name.empty()) return true;
  std::string why;
  if (listed(kKeywords, name)) {
    why = "it is a C++ keyword, and spec names become C++ identifiers";
  } else if (listed(kMacros, name)) {
    why = "it is a macro of the C and C++ standard headers, which the generated code includes";
  } else if (name.front() == '_' || name.back() == '_' || name.find("__") != std::string::npos) {
    why =
        "spec names may not begin or end with '_' nor contain '__' (dfgc joins them with '_' into "
        "C++ identifiers, and C++ reserves '__')";
  } else {
    for (const auto& [prefix, owner] : kReservedPrefixes)
      if (name.starts_with(prefix))
        why = fmt::format("{} reserves the names that begin with '{}'", owner, prefix);
  }
  if (why.empty()) return true;
  error_at(diags, span_of(id), fmt::format("'{}' cannot name a {}: {}", name, what, why));
  return false;
}

}  // namespace dfgc::sema
