/// \file
/// Runs Clang on an in-memory main file that includes the actor headers of one batch, with a
/// diagnostic consumer that keeps what Clang reports instead of printing it.
#include "actors/parse.hpp"

#include <algorithm>
#include <cstdlib>

#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include "actors/regular_files.hpp"

namespace dfgc::actors {

namespace {

// CUDA 13's headers are too new for clang 19's own CUDA wrapper, so GPU headers are read with
// -nocudainc and this prelude instead: the runtime API, the execution-space attributes, the
// launch-configuration hook that `<<<...>>>` calls, threadIdx/blockIdx, and declarations of the
// device intrinsics that kernels commonly call (bit counts, warp votes and shuffles, atomics,
// fences), and the device math functions (sqrtf, fminf, cosf, ...: clang's own declarations of
// CUDA's math API over libdevice), which the wrapper would have brought. `__host__` is redefined
// too: CUDA's headers leave it empty outside nvcc, which would make every `__host__ __device__`
// function after the prelude (cuComplex.h's, under cufft.h; the user's own helpers) device-only,
// so that host code could not call it. <stdlib.h> first: clang's cuda_wrappers/new, reached
// through any standard header that includes <new>, calls ::malloc and ::free.
// Only declarations: dfgc reads the actors' classes and never generates code from these.
constexpr const char* kCudaPrelude = R"(#include <stdlib.h>
#include <cuda_runtime.h>
#undef __host__
#define __host__ __attribute__((host))
#undef __launch_bounds__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#undef __global__
#define __global__ __attribute__((global))
#undef __device__
#define __device__ __attribute__((device))
#undef __shared__
#define __shared__ __attribute__((shared))
extern "C" unsigned __cudaPushCallConfiguration(dim3, dim3, size_t = 0, cudaStream_t = 0);
#include <__clang_cuda_builtin_vars.h>
#include <math.h>
#include <cuda.h>
#include <__clang_cuda_libdevice_declares.h>
#undef __DEVICE__
#define __DEVICE__ static __device__ __forceinline__
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
#undef __DEVICE__
__device__ int __popc(unsigned int);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __clzll(long long);
__device__ int __ffs(int);
__device__ int __ffsll(long long);
__device__ unsigned int __brev(unsigned int);
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ void __syncwarp(unsigned int = 0xffffffffu);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ void __threadfence_system();
__device__ long long clock64();
__device__ unsigned int __activemask();
__device__ unsigned int __ballot_sync(unsigned int, int);
__device__ int __any_sync(unsigned int, int);
__device__ int __all_sync(unsigned int, int);
template <class T> __device__ T __shfl_sync(unsigned int, T, int, int = 32);
template <class T> __device__ T __shfl_up_sync(unsigned int, T, unsigned int, int = 32);
template <class T> __device__ T __shfl_down_sync(unsigned int, T, unsigned int, int = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned int, T, int, int = 32);
template <class T> __device__ T __ldg(const T*);
template <class T> __device__ T atomicAdd(T*, T);
template <class T> __device__ T atomicSub(T*, T);
template <class T> __device__ T atomicExch(T*, T);
template <class T> __device__ T atomicMin(T*, T);
template <class T> __device__ T atomicMax(T*, T);
template <class T> __device__ T atomicAnd(T*, T);
template <class T> __device__ T atomicOr(T*, T);
template <class T> __device__ T atomicXor(T*, T);
template <class T> __device__ T atomicCAS(T*, T, T);
)";

constexpr const char* kVirtualDir = "/dfgc-virtual/";
constexpr const char* kPreludePath = "/dfgc-virtual/cuda_prelude.h";

/// dfgc's runtime headers (<dfg/context.hpp>): $DFGC_RUNTIME_INCLUDE when set (a relocated
/// checkout), else those installed beside dfgc (DFGC_INSTALLED_RUNTIME_INCLUDE, relative to the
/// directory of the dfgc executable) when they are there, else the runtime/include of the source
/// tree dfgc was built from.
std::string runtime_include_dir() {
  const char* env = std::getenv("DFGC_RUNTIME_INCLUDE");
  if (env && *env) return env;
  static int anchor;
  llvm::SmallString<256> installed(
      llvm::sys::path::parent_path(llvm::sys::fs::getMainExecutable(nullptr, &anchor)));
  llvm::sys::path::append(installed, DFGC_INSTALLED_RUNTIME_INCLUDE);
  llvm::sys::path::remove_dots(installed, /*remove_dot_dot=*/true);
  llvm::SmallString<256> probe(installed);
  llvm::sys::path::append(probe, "dfg", "context.hpp");
  return llvm::sys::fs::exists(probe) ? std::string(installed) : DFGC_RUNTIME_INCLUDE_DIR;
}

std::string or_default(const std::string& value, const char* fallback) {
  return value.empty() ? fallback : value;
}

/// Whether `path` lies in the directory `dir` (both normal and absolute).
bool is_under(const std::string& path, std::string dir) {
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return path.starts_with(dir);
}

/// Keeps the AST of the one translation unit it is run on (clang::tooling's own builder, which
/// buildASTFromCodeWithArgs does not let a caller give a file system).
class AstBuilder : public clang::tooling::ToolAction {
 public:
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation,
                     clang::FileManager* files, std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer* consumer) override {
    ast = clang::ASTUnit::LoadFromCompilerInvocation(
        invocation, std::move(pch),
        clang::CompilerInstance::createDiagnostics(&invocation->getDiagnosticOpts(), consumer,
                                                   /*ShouldOwnClient=*/false),
        files);
    return ast != nullptr;
  }
  std::unique_ptr<clang::ASTUnit> ast;
};

/// Whether the #include at `at` spells an absolute path ("/opt/lib/x.hpp", </opt/lib/x.hpp>).
bool spells_absolute(const clang::SourceManager& sm, clang::SourceLocation at) {
  bool invalid = false;
  const char* name = sm.getCharacterData(at, &invalid);
  if (invalid || (*name != '"' && *name != '<')) return false;
  const char close = *name == '"' ? '"' : '>';
  llvm::StringRef rest(name + 1);
  return llvm::sys::path::is_absolute(
      rest.take_until([&](char c) { return c == close || c == '\n'; }));
}

/// Whether the file included at `at` was reached through an #include of an absolute path, its own
/// or one of a file that includes it. The in-memory main file names the actor headers by their
/// absolute paths, as the spec named them: those do not count.
bool reached_absolutely(const clang::SourceManager& sm, clang::SourceLocation at) {
  for (; at.isValid(); at = sm.getIncludeLoc(sm.getFileID(at))) {
    clang::FileID includer = sm.getFileID(at);
    if (includer == sm.getMainFileID()) return false;
    if (spells_absolute(sm, at)) return true;
  }
  return false;
}

std::string main_file(const std::vector<std::string>& headers) {
  std::string text;
  for (const std::string& h : headers) text += "#include \"" + h + "\"\n";
  return text;
}

}  // namespace

void DiagnosticCollector::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                           const clang::Diagnostic& info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);
  llvm::SmallString<256> message;
  info.FormatDiagnostic(message);
  diagnostics_.push_back({level, info.getLocation(), std::string(message)});
}

std::vector<std::string> clang_args(ir::PeKind kind, const ActorFrontendOptions& options,
                                    const std::vector<std::string>& header_dirs) {
  std::vector<std::string> args;
  if (kind == ir::PeKind::gpu) {
    args = {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
            "-Wno-unknown-cuda-version",
            "-I" + or_default(options.cuda_include_dir, DFGC_CUDA_INCLUDE_DIR),
            // libcu++ (<cuda/atomic>), where CUDA 12 puts it and nvcc finds it
            "-I" + or_default(options.cuda_include_dir, DFGC_CUDA_INCLUDE_DIR) + "/cccl",
            "-include", kPreludePath};
  } else {
    args = {"-x", "c++"};
  }
  args.push_back("-std=c++20");
  args.push_back("-resource-dir=" +
                 or_default(options.clang_resource_dir, DFGC_CLANG_RESOURCE_DIR));
  args.push_back("-I" + runtime_include_dir());
  for (const std::string& dir : header_dirs) args.push_back("-I" + dir);
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  return args;
}

void add_files_read(const clang::ASTUnit& unit, const ActorFrontendOptions& options,
                    const std::vector<std::string>& header_dirs, ActorFiles& files) {
  const std::string runtime = normal_absolute_path(runtime_include_dir());
  const std::string cuda =
      normal_absolute_path(or_default(options.cuda_include_dir, DFGC_CUDA_INCLUDE_DIR));
  const clang::SourceManager& sm = unit.getSourceManager();
  std::set<std::string> external;
  for (unsigned i = 0; i < sm.local_sloc_entry_size(); ++i) {
    const clang::SrcMgr::SLocEntry& entry = sm.getLocalSLocEntry(i);
    if (!entry.isFile() || entry.getFile().getFileCharacteristic() != clang::SrcMgr::C_User)
      continue;
    const clang::SrcMgr::ContentCache& content = entry.getFile().getContentCache();
    std::optional<llvm::StringRef> text = content.getBufferDataIfLoaded();
    if (!content.OrigEntry || !text) continue;
    std::string path = normal_absolute_path(content.OrigEntry->getName().str());
    if (is_under(path, runtime)) files.runtime.insert(path);
    if (path.starts_with(kVirtualDir) || is_under(path, runtime) || is_under(path, cuda)) continue;
    auto in_header_dir = [&](const std::string& dir) {
      return is_under(path, normal_absolute_path(dir));
    };
    if (reached_absolutely(sm, entry.getFile().getIncludeLoc()) &&
        std::none_of(header_dirs.begin(), header_dirs.end(), in_header_dir))
      external.insert(path);
    else
      files.text.try_emplace(path, text->str());
  }
  for (const std::string& path : external)
    if (!files.text.contains(path)) files.external.insert(path);
}

ParsedUnit parse_headers(ir::PeKind kind, const std::vector<std::string>& headers,
                         const std::vector<std::string>& args) {
  ParsedUnit unit;
  unit.collector = std::make_unique<DiagnosticCollector>();
  const char* file_name =
      kind == ir::PeKind::gpu ? "/dfgc-virtual/gpu_actors.cu" : "/dfgc-virtual/cpu_actors.cpp";
  // clang::tooling::buildASTFromCodeWithArgs, over a file system that opens regular files only.
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(file_name, 0, llvm::MemoryBuffer::getMemBufferCopy(main_file(headers)));
  if (kind == ir::PeKind::gpu)
    memory->addFile(kPreludePath, 0, llvm::MemoryBuffer::getMemBuffer(kCudaPrelude));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      regular_files_only(llvm::vfs::getRealFileSystem()));
  overlay->pushOverlay(memory);
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), overlay);

  std::vector<std::string> command{"dfgc", "-fsyntax-only"};
  std::vector<std::string> adjusted =
      clang::tooling::getClangStripDependencyFileAdjuster()(args, file_name);
  command.insert(command.end(), adjusted.begin(), adjusted.end());
  command.push_back(file_name);
  AstBuilder builder;
  clang::tooling::ToolInvocation invocation(std::move(command), &builder, files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  invocation.setDiagnosticConsumer(unit.collector.get());
  if (invocation.run()) unit.ast = std::move(builder.ast);
  return unit;
}

}  // namespace dfgc::actors
