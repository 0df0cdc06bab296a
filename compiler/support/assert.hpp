/// \file
/// The two tiers of failure. A user error (bad spec, bad actor, bad flag) is reported through the
/// DiagnosticEngine and never looks like a crash. DFGC_INTERNAL_ASSERT states an invariant of dfgc
/// itself: when it fails, the message says it is dfgc's bug and the process exits with status 2.
#pragma once

#include <sstream>
#include <string>

namespace dfgc {

[[noreturn]] void internal_error(const char* file, int line, const char* condition,
                                 const std::string& message);

namespace detail {
template <typename... Args>
std::string concat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}
}  // namespace detail

}  // namespace dfgc

#define DFGC_INTERNAL_ASSERT(cond, ...)                                                       \
  do {                                                                                        \
    if (!(cond))                                                                              \
      ::dfgc::internal_error(__FILE__, __LINE__, #cond, ::dfgc::detail::concat(__VA_ARGS__)); \
  } while (false)

#define DFGC_UNREACHABLE(...) \
  ::dfgc::internal_error(__FILE__, __LINE__, "unreachable", ::dfgc::detail::concat(__VA_ARGS__))
