/// \file
/// The generated program's output files and standard output: --trace FILE, --stats-json FILE and
/// --profile FILE are opened when the program starts, so that a bad path stops it before the run
/// rather than after; on several hosts each host writes its own file (per_host_file); at exit, a
/// failed write to the standard output (--stats or --help into a full disk, a closed pipe) is an
/// error.
///
///     if (std::string e = dfg::open_outputs(options, /*per_host=*/false); !e.empty()) ...
///     ... the run; the report writes FILE again, from its beginning ...
///     return dfg::finish_stdout(status, std::cerr);
///
/// What a FILE may be:
/// - on one host: any path that can be opened for writing: a new or regular file, which is
///   created or replaced at start-up by a report marked unwritten (unwritten_report: what a run
///   that never reaches its report leaves), or a special file such as /dev/null, which is written
///   as it is; a directory is refused;
/// - on several hosts (FILE becomes FILE with the host's name before the extension, one file per
///   rank): FILE must be a new or regular file; a directory or a special file (/dev/null,
///   /dev/stdout, a FIFO) is refused, as there is no sensible per-host name for it.
///
/// Guarantees: called by the main thread only, at start-up or at exit; they allocate and do file
/// system calls; they never throw except std::bad_alloc. An error is one line that starts with
/// "error: " and names the flag and the path.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>

#include "dfg/options.hpp"

namespace dfg {

/// FILE with the host's name before the extension: trace.json -> trace.A.json, out/t -> out/t.A.
inline std::string per_host_file(const std::string& file, std::string_view host) {
  const std::size_t slash = file.find_last_of('/');
  const std::size_t dot = file.find_last_of('.');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  const std::size_t at = has_ext ? dot : file.size();
  return file.substr(0, at) + "." + std::string(host) + file.substr(at);
}

/// What a regular output file holds from start-up until its report replaces it: a report of a run
/// that ended before writing it (a rank ended by another's MPI_Abort, a killed program), marked
/// so, in the format of `flag`'s file, so that readers refuse it for its reason, not as broken
/// JSON: the trace's process labelled, `"complete": false` in the JSON stats and the profile.
inline std::string_view unwritten_report(std::string_view flag) {
  if (flag == "--trace")
    return R"([{"name":"process_labels","ph":"M","pid":0,"tid":0,)"
           R"("args":{"labels":"run ended before its trace was written"}}])"
           "\n";
  if (flag == "--stats-json")
    return "{\"format\": \"dfg-stats\", \"version\": 1, \"complete\": false}\n";
  if (flag == "--profile") return "{\n  \"profile\": {\n    \"complete\": false\n  }\n}\n";
  return {};
}

/// Opens the output `path` of `flag` ("--trace") for writing, creating or replacing a regular
/// file with unwritten_report(flag), and closes it again: "" when it can be written, else the
/// one-line error. `per_host`:
/// `path` is the FILE given on the command line of a program on several hosts (see the file
/// comment); the caller then opens each host's own name with per_host false. An empty path
/// (the flag was not given) is fine.
inline std::string open_output(std::string_view flag, const std::string& path, bool per_host) {
  namespace fs = std::filesystem;
  if (path.empty()) return {};
  const std::string what = "error: " + std::string(flag) + " " + path + ": ";
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  const bool exists = !ec && fs::exists(status);
  if (exists && fs::is_directory(status)) return what + "is a directory, not a file";
  if (exists && !fs::is_regular_file(status)) {
    if (per_host) {
      return what +
             "not a regular file; on several hosts each host writes its own file, named FILE with the "
             "host's name before the extension";
    }
    // A device or a FIFO is written as it is; opening a FIFO would wait for its reader.
    if (::access(path.c_str(), W_OK) != 0)
      return what + "cannot open for writing (" + std::strerror(errno) + ")";
    return {};
  }
  if (per_host) return {};
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out << unwritten_report(flag) << std::flush;
  if (!out) {
    return what + "cannot open for writing" +
           (errno != 0 ? " (" + std::string(std::strerror(errno)) + ")" : "");
  }
  return {};
}

/// Opens --trace FILE, --stats-json FILE and --profile FILE (open_output): "" or the first
/// one-line error.
/// `per_host`: the FILEs as given to a program on several hosts, before per_host_file().
inline std::string open_outputs(const Options& options, bool per_host) {
  if (std::string e = open_output("--trace", options.trace_file, per_host); !e.empty()) return e;
  if (std::string e = open_output("--stats-json", options.stats_json_file, per_host); !e.empty())
    return e;
  return open_output("--profile", options.profile_file, per_host);
}

/// At exit: flushes the standard output; when a write to it failed, prints the error on `err`
/// and returns 1 (or `status` if it is already an error), else `status`.
inline int finish_stdout(int status, std::ostream& err) {
  std::cout.flush();
  const bool failed = !std::cout.good() || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (!failed) return status;
  err << "error: cannot write the standard output\n";
  return status != 0 ? status : 1;
}

}  // namespace dfg
