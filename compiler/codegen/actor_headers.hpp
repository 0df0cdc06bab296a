/// \file
/// The actor headers in the generated project. Every file Clang read for the actors (ActorFiles:
/// the actor headers and the user's headers they include) is copied under actors/, by its path
/// from the deepest directory that holds them all, so that the includes between them, `..` ones
/// too, find the same files there. actors/ is the one include directory, and each actor header is
/// included by its path from there ("filter.hpp", or "a/filter.hpp" beside "b/filter.hpp"), so
/// that two headers of the same name in different directories stay apart. The directories of the
/// actor headers follow it, as dfgc's Clang had them, for the includes found there. The project
/// needs nothing outside it but the system's headers and the files the actors include by an
/// absolute path (ActorFiles::external, not copied): it builds wherever those are.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "actors/frontend.hpp"

namespace dfgc::codegen {

class ActorHeaders {
 public:
  /// The project's directory of the copies, and its include directory.
  static constexpr std::string_view kDir = "actors";
  /// The project's directory of the generated island classes (codegen/island.hpp).
  static constexpr std::string_view kIslandDir = "dfg_islands/";

  /// `files`: what the actors stage read (check_actors), kept by reference.
  explicit ActorHeaders(const ActorFiles& files);

  /// The include directories, relative to the project: actors/, then each other directory of an
  /// actor header (as check_actors gave Clang the headers' directories), in order of their paths.
  std::vector<std::string> include_dirs() const;
  /// Path in the project ("actors/a/filter.hpp") -> text, of every file copied.
  std::map<std::string, std::string> copies() const;
  /// The argument of the #include line for the header dfgc opened as `header_path`
  /// (ir::Impl::header_path, PlanNode::header_path): "\"a/filter.hpp\"", or "<a\"b/filter.hpp>"
  /// when the path holds a double quote.
  std::string include(const std::string& header_path) const;

 private:
  /// `absolute`'s path under actors/.
  std::string relative(const std::string& absolute) const;

  const ActorFiles& files_;
  std::filesystem::path root_;  ///< the deepest directory that holds every file read
};

}  // namespace dfgc::codegen
