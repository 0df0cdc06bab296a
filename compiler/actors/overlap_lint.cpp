/// \file
/// Finds, in a GPU actor's `fire`, the CUDA calls and kernel launches that serialise a firing
/// with the transfers dfgc overlaps, and says what to write instead.
#include "actors/overlap_lint.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <fmt/format.h>

namespace dfgc::actors {

namespace {

constexpr std::string_view kBlocks =
    "blocks the host thread and serialises with the transfers dfgc overlaps";
constexpr std::string_view kWaits =
    "blocks the host thread until the work it waits for has finished, and stalls the firings and "
    "transfers of the cycle behind it; remove it: dfgc waits for ctx.stream() at the end of the "
    "cycle";
constexpr std::string_view kAllocates =
    "synchronises the whole device on every firing; allocate once, in init";
constexpr std::string_view kFrees =
    "synchronises the whole device on every firing; allocate in init and free in the destructor";

/// A synchronous CUDA runtime call and what to say about it.
struct SyncCall {
  std::string_view name;
  std::string_view reason;      ///< why it breaks overlap, and the remedy when there is no
                                ///< asynchronous form
  std::string_view async_form;  ///< the asynchronous call to use instead, if there is one
};

constexpr SyncCall kSyncCalls[] = {
    {"cudaMemcpy", kBlocks, "cudaMemcpyAsync"},
    {"cudaMemcpy2D", kBlocks, "cudaMemcpy2DAsync"},
    {"cudaMemcpy3D", kBlocks, "cudaMemcpy3DAsync"},
    {"cudaMemset", kBlocks, "cudaMemsetAsync"},
    {"cudaMemcpyToSymbol", kBlocks, "cudaMemcpyToSymbolAsync"},
    {"cudaMemcpyFromSymbol", kBlocks, "cudaMemcpyFromSymbolAsync"},
    {"cudaDeviceSynchronize", kWaits, ""},
    {"cudaStreamSynchronize", kWaits, ""},
    {"cudaEventSynchronize", kWaits, ""},
    {"cudaMalloc", kAllocates, ""},
    {"cudaMallocHost", kAllocates, ""},
    {"cudaHostAlloc", kAllocates, ""},
    {"cudaMallocManaged", kAllocates, ""},
    {"cudaMallocPitch", kAllocates, ""},
    {"cudaFree", kFrees, ""},
    {"cudaFreeHost", kFrees, ""},
    {"cudaDeviceReset",
     "destroys the device's context, and with it dfgc's streams and buffers; "
     "remove it",
     ""},
    {"cudaSetDevice",
     "changes the device of the worker thread; remove it: dfgc selects "
     "ctx.device() before every firing",
     ""},
};

/// Asynchronous calls whose cudaStream_t parameter must be ctx.stream().
constexpr std::string_view kStreamCalls[] = {
    "cudaMemcpyAsync",     "cudaMemcpy2DAsync",       "cudaMemcpy3DAsync",
    "cudaMemcpyPeerAsync", "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync",
    "cudaMemsetAsync",     "cudaMemset2DAsync",       "cudaMemset3DAsync",
    "cudaLaunchKernel",
};

/// A library whose handles carry their stream: work submitted through a handle runs on the
/// stream last bound to it, so fire must bind ctx.stream() before submitting.
struct StreamBoundLibrary {
  std::string_view name;         ///< as `uses` names it
  std::string_view bind;         ///< binds a stream to a handle: bind(handle, stream)
  std::string_view work_prefix;  ///< the calls that enqueue work through their first argument
};

constexpr StreamBoundLibrary kStreamBoundLibraries[] = {
    {"cufft", "cufftSetStream", "cufftExec"},
};

/// Where an asynchronous operation is enqueued.
enum class StreamUse { context, missing, null, other };

StreamUse classify_stream(const clang::Expr* arg, clang::ASTContext& ast, int depth = 0) {
  if (!arg || llvm::isa<clang::CXXDefaultArgExpr>(arg)) return StreamUse::missing;
  const clang::Expr* e = arg->IgnoreParenCasts();
  if (e->isNullPointerConstant(ast, clang::Expr::NPC_ValueDependentIsNotNull))
    return StreamUse::null;
  if (const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(e)) {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    if (method && method->getQualifiedNameAsString() == "dfg::Context::stream")
      return StreamUse::context;
  }
  // A local variable initialised from ctx.stream() (or from another such variable).
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && var->isLocalVarDecl() && var->getInit() && depth < 8)
      return classify_stream(var->getInit(), ast, depth + 1);
  }
  return StreamUse::other;
}

/// The index of `f`'s cudaStream_t parameter, if it has one.
std::optional<unsigned> stream_param(const clang::FunctionDecl& f) {
  for (unsigned i = 0; i < f.getNumParams(); ++i) {
    clang::QualType type = f.getParamDecl(i)->getType().getCanonicalType();
    const auto* pointer = type->getAs<clang::PointerType>();
    const clang::RecordDecl* record =
        pointer ? pointer->getPointeeType()->getAsRecordDecl() : nullptr;
    if (record && record->getName() == "CUstream_st") return i;
  }
  return std::nullopt;
}

/// A function of the CUDA runtime API: declared at global scope, as cuda_runtime_api.h does.
bool is_global(const clang::FunctionDecl& f) {
  return f.getDeclContext()->getRedeclContext()->isTranslationUnit();
}

/// The handle a library call names as its first argument, as a comparable key: `plan`,
/// `this.plan_.handle`; empty when the argument is not a plain variable or member chain.
std::string handle_key(const clang::Expr* e) {
  if (!e) return {};
  e = e->IgnoreParenImpCasts();
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
    return ref->getDecl()->getNameAsString();
  if (llvm::isa<clang::CXXThisExpr>(e)) return "this";
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
    std::string base = handle_key(member->getBase());
    return base.empty() ? std::string() : base + "." + member->getMemberDecl()->getNameAsString();
  }
  return {};
}

class CallCollector : public clang::RecursiveASTVisitor<CallCollector> {
 public:
  explicit CallCollector(std::vector<const clang::CallExpr*>& calls) : calls_(&calls) {}
  bool VisitCallExpr(clang::CallExpr* call) {
    calls_->push_back(call);
    return true;
  }

 private:
  std::vector<const clang::CallExpr*>* calls_;
};

/// Every call in `body`, lambdas included, in traversal order.
std::vector<const clang::CallExpr*> calls_in(const clang::Stmt& body) {
  std::vector<const clang::CallExpr*> calls;
  CallCollector(calls).TraverseStmt(const_cast<clang::Stmt*>(&body));
  return calls;
}

class OverlapLint {
 public:
  OverlapLint(const clang::CXXMethodDecl& fire, Locator& where, DiagnosticEngine& diags)
      : fire_(fire), ast_(fire.getASTContext()), where_(where), diags_(diags) {}

  void run();

 private:
  void check_call(const clang::CallExpr& call, const clang::CallExpr* via);
  void check_launch(const clang::CUDAKernelCallExpr& launch, const clang::CallExpr* via);
  void check_stream(const clang::CallExpr& call, const clang::Expr* stream, std::string subject,
                    std::string_view remedy, const clang::CallExpr* via);
  void check_library(const clang::CallExpr& call, const clang::CallExpr* via);
  void warn(Place at, std::string message, const clang::CallExpr* via);
  const clang::FunctionDecl* same_class_helper(const clang::CallExpr& call) const;

  /// The handles bound to ctx.stream() so far, per library (an empty key: some handle dfgc
  /// cannot name, taken to be any).
  std::vector<std::pair<std::string_view, std::string>> bound_;

  const clang::CXXMethodDecl& fire_;
  clang::ASTContext& ast_;
  Locator& where_;
  DiagnosticEngine& diags_;
};

void OverlapLint::run() {
  std::vector<std::pair<const clang::FunctionDecl*, const clang::CallExpr*>> helpers;
  for (const clang::CallExpr* call : calls_in(*fire_.getBody())) {
    check_call(*call, nullptr);
    const clang::FunctionDecl* helper = same_class_helper(*call);
    bool seen = std::any_of(helpers.begin(), helpers.end(),
                            [&](const auto& h) { return h.first == helper; });
    if (helper && !seen) helpers.emplace_back(helper, call);
  }
  for (const auto& [helper, via] : helpers)
    for (const clang::CallExpr* call : calls_in(*helper->getBody())) check_call(*call, via);
}

/// The definition of a member function of fire's class that `call` calls, other than fire.
const clang::FunctionDecl* OverlapLint::same_class_helper(const clang::CallExpr& call) const {
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call.getDirectCallee());
  if (!method || method->getParent()->getCanonicalDecl() != fire_.getParent()->getCanonicalDecl())
    return nullptr;
  const clang::FunctionDecl* definition = method->getDefinition();
  if (!definition || !definition->getBody() ||
      definition->getCanonicalDecl() == fire_.getCanonicalDecl())
    return nullptr;
  return definition;
}

void OverlapLint::check_call(const clang::CallExpr& call, const clang::CallExpr* via) {
  if (const auto* launch = llvm::dyn_cast<clang::CUDAKernelCallExpr>(&call)) {
    check_launch(*launch, via);
    return;
  }
  const clang::FunctionDecl* callee = call.getDirectCallee();
  if (!callee || !callee->getIdentifier() || !is_global(*callee)) return;
  check_library(call, via);
  std::string_view name = callee->getName();
  Place at = where_.token(call.getCallee()->getExprLoc());
  for (const SyncCall& sync : kSyncCalls) {
    if (sync.name != name) continue;
    std::string message = fmt::format("'{}' {}", name, sync.reason);
    if (!sync.async_form.empty())
      message += fmt::format("; use {} on ctx.stream()", sync.async_form);
    warn(at, std::move(message), via);
    return;
  }
  for (std::string_view async : kStreamCalls) {
    if (async != name) continue;
    auto index = stream_param(*callee);
    if (!index) return;
    const clang::Expr* stream = *index < call.getNumArgs() ? call.getArg(*index) : nullptr;
    check_stream(call, stream, fmt::format("'{}'", name), "pass ctx.stream()", via);
    return;
  }
}

/// A library call through a stream-bound handle: a bind must pass ctx.stream(); work must come
/// after a bind of its handle to ctx.stream() in fire (calls in traversal order, helpers after
/// fire's own calls).
void OverlapLint::check_library(const clang::CallExpr& call, const clang::CallExpr* via) {
  std::string_view name = call.getDirectCallee()->getName();
  for (const StreamBoundLibrary& library : kStreamBoundLibraries) {
    const std::string handle = handle_key(call.getNumArgs() > 0 ? call.getArg(0) : nullptr);
    if (name == library.bind) {
      const clang::Expr* stream = call.getNumArgs() > 1 ? call.getArg(1) : nullptr;
      if (classify_stream(stream, ast_) == StreamUse::context)
        bound_.emplace_back(library.name, handle);
      else
        check_stream(call, stream, fmt::format("'{}'", name), "pass ctx.stream()", via);
      return;
    }
    if (!name.starts_with(library.work_prefix)) continue;
    const bool is_bound = std::any_of(bound_.begin(), bound_.end(), [&](const auto& b) {
      return b.first == library.name && (b.second.empty() || handle.empty() || b.second == handle);
    });
    if (!is_bound)
      warn(where_.token(call.getCallee()->getExprLoc()),
           fmt::format("'{}' runs on the stream last bound to its handle, and fire binds none to "
                       "ctx.stream() before it: by default the legacy default stream, which "
                       "serialises with the transfers dfgc overlaps; call {}(handle, ctx.stream()) "
                       "in fire before it",
                       name, library.bind),
           via);
    return;
  }
}

void OverlapLint::check_launch(const clang::CUDAKernelCallExpr& launch,
                               const clang::CallExpr* via) {
  const clang::CallExpr* config = launch.getConfig();
  const clang::Expr* stream = config && config->getNumArgs() > 3 ? config->getArg(3) : nullptr;
  const clang::FunctionDecl* kernel = launch.getDirectCallee();
  std::string subject = kernel && kernel->getIdentifier()
                            ? fmt::format("launch of '{}'", kernel->getName().str())
                            : std::string("kernel launch");
  check_stream(launch, stream, std::move(subject),
               "launch it with <<<grid, block, shared_bytes, ctx.stream()>>>", via);
}

void OverlapLint::check_stream(const clang::CallExpr& call, const clang::Expr* stream,
                               std::string subject, std::string_view remedy,
                               const clang::CallExpr* via) {
  constexpr std::string_view kDefaultStream =
      "runs on the legacy default stream, which serialises with the transfers dfgc overlaps";
  switch (classify_stream(stream, ast_)) {
    case StreamUse::context: return;
    case StreamUse::missing:
      warn(where_.token(call.getCallee()->getExprLoc()),
           fmt::format("{} without a stream {}; {}", subject, kDefaultStream, remedy), via);
      return;
    case StreamUse::null:
      warn(where_.range(stream->getSourceRange()),
           fmt::format("{} on stream 0 {}; {}", subject, kDefaultStream, remedy), via);
      return;
    case StreamUse::other:
      warn(where_.range(stream->getSourceRange()),
           fmt::format("{} uses a stream other than ctx.stream(), so dfgc cannot order it with "
                       "the transfers of the cycle; {}",
                       subject, remedy),
           via);
      return;
  }
}

void OverlapLint::warn(Place at, std::string message, const clang::CallExpr* via) {
  DiagnosticBuilder d = diags_.warning(at.loc, std::move(message), at.length);
  if (!via) return;
  Place call = where_.token(via->getCallee()->getExprLoc());
  d.note(call.loc, "called from 'fire' here", call.length);
}

}  // namespace

void lint_overlap(const clang::CXXMethodDecl& fire, Locator& where, DiagnosticEngine& diags) {
  OverlapLint(fire, where, diags).run();
}

}  // namespace dfgc::actors
