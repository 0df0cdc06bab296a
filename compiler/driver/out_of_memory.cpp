#include "driver/out_of_memory.hpp"

#include <cstdlib>
#include <new>

#include <unistd.h>

#include <llvm/Support/ErrorHandling.h>

namespace dfgc::driver {

namespace {

/// Writes with write(2) alone: nothing here may allocate.
[[noreturn]] void out_of_memory() {
  static constexpr char kMessage[] =
      "dfgc: error: out of memory (the spec needs more memory than this process may use)\n";
  [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  std::_Exit(2);
}

void llvm_out_of_memory(void*, const char*, bool) { out_of_memory(); }

}  // namespace

void install_out_of_memory_handlers() {
  std::set_new_handler(out_of_memory);
  llvm::install_bad_alloc_error_handler(llvm_out_of_memory);
}

}  // namespace dfgc::driver
