/// \file
/// dfg::mpi::MpiError and check(): a failed MPI call becomes an exception that names the call and
/// carries MPI_Error_string's text, so that it follows the runtime's error path (dfg::Abort, then
/// dfg/mpi/abort.hpp ends the job with the rank and the reason).
///
/// The runtime's communicator (Session::comm()) has MPI_ERRORS_RETURN, so MPI calls on it return
/// their error codes instead of ending the process without a word.
///
/// Every dfg/mpi header includes <mpi.h> through this one, after asking MPICH and Open MPI to leave
/// out their deprecated C++ bindings (unused here; Open MPI's casts between function types fail
/// -Wextra -Werror builds with g++).
///
/// Guarantees: check() never blocks; it allocates only to build the exception's message. It makes
/// no MPI call on success; on failure it calls MPI_Error_class / MPI_Error_string, which MPI
/// permits from the thread that made the failed call.
#pragma once

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace dfg::mpi {

class MpiError final : public std::runtime_error {
 public:
  MpiError(std::string message, int code) : std::runtime_error(std::move(message)), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// The text of an MPI error code ("MPI_ERR_TRUNCATE: message truncated", as the library says it).
inline std::string error_string(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS || length <= 0) {
    return "MPI error " + std::to_string(code);
  }
  return std::string(text, static_cast<std::size_t>(length));
}

/// Throws MpiError("<what>: <MPI's text>") unless rc is MPI_SUCCESS.
inline void check(int rc, std::string_view what) {
  if (rc == MPI_SUCCESS) return;
  throw MpiError(std::string(what) + ": " + error_string(rc), rc);
}

}  // namespace dfg::mpi
