#include "mapping/json_document.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace dfgc::mapping {

namespace {

using Json = nlohmann::json;

/// Closes a file descriptor when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string_view file_kind(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// Builds the document from nlohmann's SAX events, and keeps the place and text of the first
/// error instead of throwing it (nlohmann's DOM parser throws out_of_range, without a position,
/// for a number beyond a double's range).
class Builder final : public nlohmann::json_sax<Json> {
 public:
  Json root;
  std::optional<std::size_t> error_at;  ///< the byte offset of the error
  std::size_t error_length = 1;
  std::string error;

  bool null() override { return place(nullptr); }
  bool boolean(bool v) override { return place(v); }
  bool number_integer(number_integer_t v) override { return place(v); }
  bool number_unsigned(number_unsigned_t v) override { return place(v); }
  bool number_float(number_float_t v, const string_t&) override { return place(v); }
  bool string(string_t& v) override { return place(std::move(v)); }
  bool binary(binary_t& v) override { return place(Json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool key(string_t& k) override {
    member_ = &(*stack_.back())[k];
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_array() override { return close(); }

  bool parse_error(std::size_t position, const std::string& last_token,
                   const Json::exception& ex) override {
    std::string what = ex.what();
    if (const auto* syntax = dynamic_cast<const Json::parse_error*>(&ex)) {
      // "[json.exception.parse_error.101] parse error at line 2, column 3: syntax error ..."
      // without the prefix and the position (the diagnostic shows it).
      auto colon = what.find(": ");
      error = "invalid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2));
      error_at = syntax->byte == 0 ? 0 : syntax->byte - 1;
    } else {
      // A number out of range: `position` is just past its text.
      error = fmt::format("invalid JSON: number {} is beyond the range of a double", last_token);
      error_length = std::max<std::size_t>(last_token.size(), 1);
      error_at = position - std::min(position, last_token.size());
    }
    return false;
  }

 private:
  /// Stores `v` where the next value goes; returns where it went.
  Json* put(Json v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    Json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    *member_ = std::move(v);
    return member_;
  }
  bool place(Json v) {
    put(std::move(v));
    return true;
  }
  // A container on the stack is its parent's last member while it is filled, so the parent does
  // not move it (an array grows only after its last element is complete).
  bool open(Json v) {
    stack_.push_back(put(std::move(v)));
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  std::vector<Json*> stack_;
  Json* member_ = nullptr;
};

}  // namespace

std::optional<std::uint32_t> load_json_file(const std::string& path, std::string_view what,
                                            SourceManager& sources, DiagnosticEngine& diags) {
  auto fail = [&](std::string_view why) -> std::optional<std::uint32_t> {
    diags.error({}, fmt::format("cannot read {} '{}': {}", what, path, why));
    return std::nullopt;
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
  Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) return fail(std::strerror(errno));
  struct stat st{};
  if (::fstat(fd.get(), &st) != 0) return fail(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return fail("it is a directory");
  if (!S_ISREG(st.st_mode))
    return fail(fmt::format("it is {}, not a regular file", file_kind(st.st_mode)));
  auto too_large = [&] {
    return fail(fmt::format("it is larger than {} MiB, the most a {} may hold",
                            kMaxJsonFileBytes >> 20, what));
  };
  if (static_cast<std::uint64_t>(st.st_size) > kMaxJsonFileBytes) return too_large();
  std::string text;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(std::strerror(errno));
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxJsonFileBytes) return too_large();  // it grew while being read
  }
  return sources.add_buffer(path, std::move(text));
}

std::optional<JsonDocument> parse_json(std::uint32_t file, const SourceManager& sources,
                                       DiagnosticEngine& diags) {
  std::string_view text = sources.contents(file);
  auto at = [&](std::size_t offset) {
    return SourceLoc{file, static_cast<std::uint32_t>(std::min(offset, text.size()))};
  };
  if (auto deep = first_too_deep(text, kMaxJsonDepth)) {
    diags.error(at(*deep), fmt::format("JSON nested more than {} deep", kMaxJsonDepth));
    return std::nullopt;
  }
  Builder builder;
  if (!Json::sax_parse(text.begin(), text.end(), &builder) || builder.error_at) {
    diags.error(at(builder.error_at.value_or(0)),
                builder.error.empty() ? "invalid JSON" : builder.error,
                static_cast<std::uint32_t>(builder.error_length));
    return std::nullopt;
  }
  JsonDocument doc{std::move(builder.root), JsonLocations(text, kMaxJsonDepth)};
  for (const JsonLocations::Duplicate& d : doc.where.duplicates())
    diags.error(at(d.again), fmt::format("duplicate key '{}'; an object gives a key once", d.key))
        .note(at(d.first), "first given here");
  if (!doc.where.duplicates().empty()) return std::nullopt;
  return doc;
}

}  // namespace dfgc::mapping
