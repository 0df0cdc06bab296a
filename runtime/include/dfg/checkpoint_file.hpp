/// \file
/// The checkpoint file of a generated program (--checkpoint, --restart; dfg/checkpoint.hpp): its
/// encoding, its checks, and its atomic replacement.
///
/// Layout (host byte order; a checkpoint is read back on the machine kind that wrote it):
///
///     "dfgc-checkpoint\n"          16 bytes
///     u32 format                   kCheckpointFormat
///     u64 spec, u64 mapping        the program's digests (the graph; the placement)
///     u32 hosts, u32 rank          the program's hosts, this rank's
///     i64 iteration, i64 batch     the cycle it resumes with; iterations a cycle
///     str app                      u32 length + bytes
///     u32 count, count x (str name, i64 value)          the runtime params
///     u32 count, count x (u8 kind, str name, u64 size, size bytes)   the sections: a node's
///                                  saved state (kind 0) or the tokens a delayed input reads
///                                  in the iterations from `iteration` on (kind 1)
///     u64 checksum                 FNV-1a of every byte before it
///
/// Guarantees: decode_checkpoint() reads nothing past the span and accepts only a file whose
/// checksum matches (a truncated or changed file is refused, never half read);
/// replace_file() writes FILE.tmp, flushes it to the disk and renames it over FILE, so FILE is
/// the old checkpoint or the new one, never a torn one, whenever the process is killed. Both
/// allocate; neither throws but std::bad_alloc.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dfg {

inline constexpr std::string_view kCheckpointMagic = "dfgc-checkpoint\n";
inline constexpr std::uint32_t kCheckpointFormat = 1;

/// FNV-1a, 64 bits: the file's checksum (a torn or changed file, not an adversary).
inline std::uint64_t fnv1a(std::span<const std::byte> bytes,
                           std::uint64_t h = 14695981039346656037ULL) noexcept {
  for (const std::byte b : bytes) h = (h ^ static_cast<std::uint64_t>(b)) * 1099511628211ULL;
  return h;
}

/// One checkpoint, decoded.
struct CheckpointData {
  struct Section {
    std::uint8_t kind = 0;  ///< 0: a node's state; 1: a delayed input's tokens
    std::string name;
    std::vector<std::byte> bytes;
  };
  std::string app;
  std::uint64_t spec = 0, mapping = 0;
  std::uint32_t hosts = 1, rank = 0;
  std::int64_t iteration = 0;  ///< in cycles
  std::int64_t batch = 1;
  std::vector<std::pair<std::string, std::int64_t>> params;
  std::vector<Section> sections;
};

/// Appends the encoding of a checkpoint's fields to a byte vector.
class CheckpointWriter {
 public:
  template <class T>
  void put(const T& v) {
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    out.insert(out.end(), p, p + sizeof v);
  }
  void put_bytes(std::span<const std::byte> b) { out.insert(out.end(), b.begin(), b.end()); }
  void put_string(std::string_view s) {
    put(static_cast<std::uint32_t>(s.size()));
    put_bytes(std::as_bytes(std::span(s.data(), s.size())));
  }
  /// The header, up to the sections' count.
  void header(const CheckpointData& d, std::uint32_t sections) {
    put_bytes(std::as_bytes(std::span(kCheckpointMagic.data(), kCheckpointMagic.size())));
    put(kCheckpointFormat);
    put(d.spec);
    put(d.mapping);
    put(d.hosts);
    put(d.rank);
    put(d.iteration);
    put(d.batch);
    put_string(d.app);
    put(static_cast<std::uint32_t>(d.params.size()));
    for (const auto& [name, value] : d.params) {
      put_string(name);
      put(value);
    }
    put(sections);
  }
  void section(std::uint8_t kind, std::string_view name, std::span<const std::byte> bytes) {
    put(kind);
    put_string(name);
    put(static_cast<std::uint64_t>(bytes.size()));
    put_bytes(bytes);
  }
  /// Ends the file with its checksum.
  void seal() { put(fnv1a(out)); }

  std::vector<std::byte> out;
};

/// The encoding of `d`, checksum included.
inline std::vector<std::byte> encode_checkpoint(const CheckpointData& d) {
  CheckpointWriter w;
  w.header(d, static_cast<std::uint32_t>(d.sections.size()));
  for (const CheckpointData::Section& s : d.sections) w.section(s.kind, s.name, s.bytes);
  w.seal();
  return std::move(w.out);
}

/// Decodes `bytes` into `out`: "" or why it is not a whole checkpoint of this format.
inline std::string decode_checkpoint(std::span<const std::byte> bytes, CheckpointData& out) {
  const std::size_t magic = kCheckpointMagic.size();
  if (bytes.size() < magic ||
      std::memcmp(bytes.data(), kCheckpointMagic.data(), kCheckpointMagic.size()) != 0)
    return "not a dfgc checkpoint (it does not begin with \"dfgc-checkpoint\")";
  std::size_t at = magic;
  auto get = [&](auto& v) {
    if (bytes.size() - at < sizeof v) return false;
    std::memcpy(&v, bytes.data() + at, sizeof v);
    at += sizeof v;
    return true;
  };
  std::uint32_t format = 0;
  if (!get(format)) return "truncated: it ends inside its header";
  if (format != kCheckpointFormat)
    return "format " + std::to_string(format) + "; this program reads format " +
           std::to_string(kCheckpointFormat);
  if (bytes.size() < at + sizeof(std::uint64_t)) return "truncated: it ends inside its header";
  const std::size_t body = bytes.size() - sizeof(std::uint64_t);
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + body, sizeof stored);
  if (fnv1a(bytes.first(body)) != stored)
    return "corrupted or truncated: its checksum does not match its contents";
  bytes = bytes.first(body);
  auto get_string = [&](std::string& s) {
    std::uint32_t n = 0;
    if (!get(n) || bytes.size() - at < n) return false;
    s.assign(reinterpret_cast<const char*>(bytes.data() + at), n);
    at += n;
    return true;
  };
  std::uint32_t params = 0, sections = 0;
  const char* const bad = "malformed: its fields do not fit its length";
  if (!get(out.spec) || !get(out.mapping) || !get(out.hosts) || !get(out.rank) ||
      !get(out.iteration) || !get(out.batch) || !get_string(out.app) || !get(params))
    return bad;
  for (std::uint32_t i = 0; i < params; ++i) {
    std::pair<std::string, std::int64_t> p;
    if (!get_string(p.first) || !get(p.second)) return bad;
    out.params.push_back(std::move(p));
  }
  if (!get(sections)) return bad;
  for (std::uint32_t i = 0; i < sections; ++i) {
    CheckpointData::Section s;
    std::uint64_t size = 0;
    if (!get(s.kind) || !get_string(s.name) || !get(size) || bytes.size() - at < size) return bad;
    s.bytes.assign(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                   bytes.begin() + static_cast<std::ptrdiff_t>(at + size));
    at += size;
    out.sections.push_back(std::move(s));
  }
  if (at != bytes.size()) return bad;
  return {};
}

/// Reads the whole of `path` into `out`: "" or the reason (strerror) it cannot.
inline std::string read_whole_file(const std::string& path, std::vector<std::byte>& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::strerror(errno);
  struct stat st{};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return "not a regular file";
  }
  out.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? std::strerror(errno) : "it shrank while being read";
      ::close(fd);
      return why;
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return {};
}

/// Replaces `path` with `bytes` atomically: FILE.tmp written and flushed to the disk, renamed
/// over FILE, the directory flushed. "" or what failed.
inline std::string replace_file(const std::string& path, std::span<const std::byte> bytes) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot create '" + tmp + "': " + std::strerror(errno);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return "cannot write '" + tmp + "': " + why;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return "cannot flush '" + tmp + "': " + why;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    return "cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(errno);
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  if (const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
    ::fsync(d);
    ::close(d);
  }
  return {};
}

}  // namespace dfg
