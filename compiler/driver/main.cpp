// dfgc's command-line driver: the commands and their options are in commands.hpp, the stages
// they run in pipeline.hpp. Exit status: 0 success, 1 user error (diagnostics printed), 2
// internal error (running out of memory too: driver/out_of_memory.hpp).

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "driver/commands.hpp"
#include "driver/out_of_memory.hpp"

namespace {

/// Flushes stdout: a command whose output did not all reach it (a full disk, a closed descriptor)
/// has failed, whatever it returned.
int flush_stdout(int status) {
  errno = 0;
  bool lost = std::fflush(stdout) != 0;  // std::cout writes through stdout's buffer
  int error = errno;
  std::cout.flush();
  lost = lost || !std::cout || std::ferror(stdout);
  if (!lost) return status;
  std::cerr << "dfgc: error: cannot write to standard output"
            << (error ? fmt::format(": {}", std::generic_category().message(error)) : std::string())
            << "\n";
  return status == 0 ? 1 : status;
}

}  // namespace

int main(int argc, char** argv) {
  dfgc::driver::install_out_of_memory_handlers();
  return flush_stdout(dfgc::driver::run_command({argv + 1, argv + argc}));
}
