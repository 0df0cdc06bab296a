/// \file
/// How the generated sources reach the actor headers: through one include directory, the deepest
/// directory that holds every header the program uses, and each header by its path from there
/// ("filter.hpp", or "a/filter.hpp" beside "b/filter.hpp"), so that two headers of the same name
/// in different directories stay apart.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "ir/ir.hpp"

namespace dfgc::codegen {

class ActorHeaders {
 public:
  /// The headers of the implementations the program's nodes use on their PEs.
  explicit ActorHeaders(const ir::Program& program);

  /// The include directory: absolute, symbolic links of directories resolved.
  const std::filesystem::path& root() const { return root_; }
  /// The argument of the #include line for `impl`'s header: "\"a/filter.hpp\"", or
  /// "<a\"b/filter.hpp>" when the path holds a double quote.
  std::string include(const ir::Impl& impl) const;

 private:
  std::filesystem::path root_;
  std::map<std::string, std::filesystem::path> resolved_;  ///< header_path -> absolute path
};

}  // namespace dfgc::codegen
