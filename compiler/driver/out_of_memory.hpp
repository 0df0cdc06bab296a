/// \file
/// Running out of memory is an error of the run, not a crash: the handlers installed here print
/// one line and end dfgc with exit status 2, whether the failed allocation was C++'s (new) or
/// LLVM's own (Clang reading the actor headers, clang-format laying out a generated file), which
/// would otherwise abort with "LLVM ERROR: out of memory" and SIGABRT. The project writer
/// journals what it writes, so a project cut short this way is never left looking valid.
#pragma once

namespace dfgc::driver {

/// Installs both handlers for the rest of the process. Call once, first thing in main.
void install_out_of_memory_handlers();

}  // namespace dfgc::driver
