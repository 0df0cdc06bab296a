#include "codegen/actor_headers.hpp"

#include "support/assert.hpp"

namespace dfgc::codegen {

namespace fs = std::filesystem;

namespace {

/// `path` absolute, its directory's symbolic links resolved, its file name as written.
fs::path resolve(const std::string& path) {
  fs::path absolute = fs::absolute(path);
  return fs::weakly_canonical(absolute.parent_path()) / absolute.filename();
}

/// The deepest directory that holds both.
fs::path common_dir(const fs::path& a, const fs::path& b) {
  fs::path out;
  for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end() && *i == *j; ++i, ++j) out /= *i;
  return out;
}

}  // namespace

ActorHeaders::ActorHeaders(const ir::Program& p) {
  bool first = true;
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n) {
    const ir::Impl* impl = p.dfg.actor_of(n).impl_for(p.arch.pes[p.mapping.pe_of[n]].kind);
    DFGC_INTERNAL_ASSERT(impl, "node '", p.dfg.nodes[n].name, "' has no implementation for its PE");
    auto [it, added] = resolved_.try_emplace(impl->header_path);
    if (!added) continue;
    it->second = resolve(impl->header_path);
    root_ = first ? it->second.parent_path() : common_dir(root_, it->second.parent_path());
    first = false;
  }
}

std::string ActorHeaders::include(const ir::Impl& impl) const {
  auto it = resolved_.find(impl.header_path);
  DFGC_INTERNAL_ASSERT(it != resolved_.end(), "header '", impl.header_path, "' of no node");
  std::string path = it->second.lexically_relative(root_).generic_string();
  if (path.find('"') != std::string::npos) return "<" + path + ">";
  return "\"" + path + "\"";
}

}  // namespace dfgc::codegen
