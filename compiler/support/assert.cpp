#include "support/assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace dfgc {

void internal_error(const char* file, int line, const char* condition, const std::string& message) {
  std::fprintf(stderr,
               "dfgc: internal error: %s:%d: assertion '%s' failed%s%s\n"
               "This is a bug in dfgc, not in your spec. Please report it with the command line "
               "and the input files.\n",
               file, line, condition, message.empty() ? "" : ": ", message.c_str());
  std::fflush(stderr);
  std::exit(2);
}

}  // namespace dfgc
