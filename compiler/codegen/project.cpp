#include "codegen/project.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include <fmt/format.h>

#include "codegen/actor_headers.hpp"
#include "codegen/files.hpp"
#include "codegen/model.hpp"
#include "codegen/printer.hpp"
#include "codegen/runtime_files.hpp"
#include "codegen/templates.hpp"

namespace dfgc::codegen {

namespace fs = std::filesystem;

std::string file_header(const Model& m, std::string_view comment) {
  std::string text(template_text("file_header.txt"));
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return render_template(text, {{"comment", std::string(comment)},
                                {"version", DFGC_VERSION},
                                {"spec", spec_path_for_header(m.program->spec_file)}});
}

std::string spec_path_for_header(const std::string& spec_file) {
  fs::path path(spec_file);
  if (!path.is_absolute()) return path.generic_string();
  std::error_code ec;
  fs::path rel = fs::relative(path, ec);
  return ec || rel.empty() ? path.filename().generic_string() : rel.generic_string();
}

namespace {

/// The actor headers' include directory (actor_headers.hpp), relative to `out_dir`.
std::vector<std::string> actor_dirs(const ir::Program& p, const fs::path& out_dir) {
  fs::path base = fs::weakly_canonical(fs::absolute(out_dir));
  return {ActorHeaders(p).root().lexically_relative(base).generic_string()};
}

/// The runtime headers the program includes: the host-only ones, dfg/cuda/ where a host has a
/// GPU, dfg/mpi/ on several hosts (dfg/mpi/gpudirect.hpp, which needs CUDA too, only where a
/// transfer goes over a gpudirect link).
void add_runtime(std::span<const Model> hosts, Files& files) {
  bool gpu = false, gpudirect = false;
  for (const Model& m : hosts) {
    gpu = gpu || m.has_gpu();
    gpudirect = gpudirect || m.has_gpudirect();
  }
  for (const auto& [path, text] : runtime_files()) {
    bool cuda = path.starts_with("cuda/");
    bool mpi = path.starts_with("mpi/") && (path != "mpi/gpudirect.hpp" || gpudirect);
    bool host = path.find('/') == std::string_view::npos || path.starts_with("detail/");
    if (host || (cuda && gpu) || (mpi && hosts.size() > 1))
      files[fmt::format("runtime/dfg/{}", path)] = std::string(text);
  }
}

std::string manifest(const Model& m, const Files& files) {
  std::string out = file_header(m, "#") +
                    "\n# The files dfgc wrote here. 'dfgc compile -o' replaces them and keeps any "
                    "other file.\n";
  for (const auto& [path, text] : files) out += path + "\n";
  out += std::string(kManifest) + "\n";
  return out;
}

}  // namespace

Files generate_project(const ir::Program& program, const ir::Ig& ig, const ActorSignatures& signatures,
                       const fs::path& out_dir) {
  std::vector<Model> hosts;
  for (ir::HostId h = 0; h < program.arch.hosts.size(); ++h) hosts.push_back(build_model(program, ig, signatures, h));
  Files files;
  files["CMakeLists.txt"] = render_cmake(hosts, actor_dirs(program, out_dir));
  files["README.md"] = render_readme(hosts);
  if (hosts.size() > 1) files["main.cpp"] = render_main(hosts);
  for (const Model& m : hosts) {
    files[app_header_file(m)] = render_app_header(m);
    files[rank_file(m)] = render_rank(m);
    for (ir::PeId gpu : program.arch.hosts[m.host].gpus) files[gpu_file(m, gpu)] = render_gpu(m, gpu);
  }
  files["schedule.txt"] = ir::render_schedule(program, ig);
  files["graph.dot"] = ir::render_dot(program, ig);
  add_runtime(hosts, files);
  files[std::string(kManifest)] = manifest(hosts.front(), files);
  return files;
}

// ---- writing ----

namespace {

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Writes `text` to `path`, creating its directory; leaves an identical file untouched (so that
/// a rebuild after an unchanged compile has nothing to do).
std::optional<std::string> write_file(const fs::path& path, const std::string& text) {
  if (auto old = read_file(path); old && *old == text) return std::nullopt;
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return fmt::format("cannot create '{}': {}", path.parent_path().string(), ec.message());
  fs::path tmp = path;
  tmp += ".dfgc-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) return fmt::format("cannot write '{}'", tmp.string());
  }
  fs::rename(tmp, path, ec);
  if (ec) return fmt::format("cannot write '{}': {}", path.string(), ec.message());
  return std::nullopt;
}

/// The files of an earlier compile's manifest (its comment lines left out).
std::vector<std::string> manifest_files(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

std::optional<std::string> write_fresh(const Files& files, const fs::path& dir) {
  fs::path tmp = dir;
  tmp += fmt::format(".dfgc-tmp-{}", static_cast<long>(::getpid()));
  std::error_code ec;
  fs::remove_all(tmp, ec);
  for (const auto& [path, text] : files) {
    if (auto error = write_file(tmp / path, text)) {
      fs::remove_all(tmp, ec);
      return error;
    }
  }
  if (fs::exists(dir)) fs::remove(dir, ec);  // empty, checked by the caller
  fs::rename(tmp, dir, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove_all(tmp, ignored);
    return fmt::format("cannot create '{}': {}", dir.string(), ec.message());
  }
  return std::nullopt;
}

std::optional<std::string> write_over(const Files& files, const fs::path& dir, const std::string& old_manifest) {
  for (const auto& [path, text] : files)
    if (auto error = write_file(dir / path, text)) return error;
  std::error_code ec;
  for (const std::string& old : manifest_files(old_manifest)) {
    if (files.count(old) || old.find("..") != std::string::npos) continue;
    fs::remove(dir / old, ec);
    for (fs::path parent = fs::path(old).parent_path(); !parent.empty(); parent = parent.parent_path())
      if (fs::is_empty(dir / parent, ec)) fs::remove(dir / parent, ec);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> write_project(const Files& files, const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return write_fresh(files, dir);
  if (!fs::is_directory(dir, ec)) return fmt::format("'{}' exists and is not a directory", dir.string());
  if (fs::is_empty(dir, ec)) return write_fresh(files, dir);
  auto old_manifest = read_file(dir / kManifest);
  if (!old_manifest)
    return fmt::format(
        "refusing to write into '{}': the directory is not empty and dfgc did not write it (no {}); "
        "choose a new or empty directory",
        dir.string(), kManifest);
  return write_over(files, dir, *old_manifest);
}

}  // namespace dfgc::codegen
