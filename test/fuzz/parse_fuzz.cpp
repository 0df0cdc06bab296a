/// \file
/// libFuzzer target for the .dfg lexer and parser: any bytes, parsed as one in-memory file, must
/// give diagnostics or a module, never a crash, a hang, a sanitizer report or a leak. The AST dump
/// and the diagnostics rendering run on the result too, as `dfgc dump-ast` and `dfgc check` would.
#include <cstddef>
#include <cstdint>
#include <string>

#include "spec/parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dfgc::SourceManager sources;
  dfgc::DiagnosticEngine diags(sources);
  std::uint32_t file =
      sources.add_buffer("fuzz.dfg", std::string(reinterpret_cast<const char*>(data), size));
  std::unique_ptr<dfgc::ast::Module> module = dfgc::parse_module(file, sources, diags);
  if (diags.has_errors())
    (void)diags.render();
  else
    (void)dfgc::ast::dump(*module, sources);
  return 0;
}
