/// \file
/// Checks one actor implementation's class against the spec: the class, `fire` and its
/// parameters, `init`, and the data members that receive the actor's params.
#include "actors/contract.hpp"

#include <algorithm>
#include <string_view>

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Type.h>
#include <clang/Sema/Sema.h>
#include <fmt/format.h>

#include "actors/contract_types.hpp"
#include "support/assert.hpp"

namespace dfgc::actors {

namespace {

using namespace types;

class ContractChecker {
 public:
  ContractChecker(clang::ASTContext& ast, clang::Sema& sema, const ir::Program& program,
                  const ir::Actor& actor, const ir::Impl& impl, Locator& where,
                  DiagnosticEngine& diags)
      : ast_(ast),
        sema_(sema),
        program_(program),
        actor_(actor),
        impl_(impl),
        where_(where),
        diags_(diags) {}

  ContractResult run();

 private:
  const clang::CXXRecordDecl* find_class();
  void check_object(const clang::CXXRecordDecl& record);
  std::optional<const clang::CXXMethodDecl*> find_method(const clang::CXXRecordDecl& record,
                                                         const char* name);
  void check_callable(const clang::CXXMethodDecl& method, const char* name);
  void check_fire_params(const clang::CXXMethodDecl& fire, ActorSignature& signature);
  ContractResult run_dynamic(const clang::CXXRecordDecl& record);
  void check_step_params(const clang::CXXMethodDecl& step, ActorSignature& signature);
  void check_parallel_fire(const clang::CXXRecordDecl& record, ActorSignature& signature);
  /// Checks a parameter matched to a port (match_ring_params).
  using ParamCheck = void (ContractChecker::*)(const clang::ParmVarDecl& param, std::uint32_t port,
                                               Place at);
  void match_ring_params(const clang::CXXMethodDecl& method, const char* name,
                         ActorSignature& signature, ParamCheck check);
  void check_span_param(const clang::ParmVarDecl& param, std::uint32_t port, Place at);
  void check_view_param(const clang::ParmVarDecl& param, std::uint32_t port, Place at);
  void check_port_param(const clang::ParmVarDecl& param, std::uint32_t port);
  void check_group_param(const clang::ParmVarDecl& param, const std::vector<std::uint32_t>& group);
  bool is_view_of(clang::QualType type, std::string_view name, ir::ElemType elem, bool input,
                  const ir::TokenType* token = nullptr) const;
  void check_bounded_param(const clang::ParmVarDecl& param, std::uint32_t port);
  void check_init(const clang::CXXRecordDecl& record, ActorSignature& signature);
  void check_block(const clang::CXXMethodDecl& fire, const ActorSignature& signature);
  void check_initial_methods(const clang::CXXRecordDecl& record);
  void check_initial_method(const clang::CXXRecordDecl& record, const ir::Edge& edge);
  void check_state(const clang::CXXRecordDecl& record, ActorSignature& signature);
  void lint_migrating_state(const clang::CXXRecordDecl& record, const ActorSignature& signature);
  void check_replicated_state(const clang::CXXRecordDecl& record);
  void check_hook(const clang::CXXRecordDecl& record, const char* name, bool& has,
                  bool& takes_context);
  const clang::FieldDecl* state_member(const clang::CXXRecordDecl& record) const;
  void check_param_member(const clang::CXXRecordDecl& record, const ir::ActorParam& param);
  void check_param_values(const ir::ActorParam& param, const clang::FieldDecl& member);

  DiagnosticBuilder error(Place place, std::string message) {
    ok_ = false;
    return diags_.error(place.loc, std::move(message), place.length);
  }
  void note_impl(DiagnosticBuilder& d) {
    d.note(impl_.loc, fmt::format("actor '{}' implementation declared here", actor_.name));
  }
  void note_port(DiagnosticBuilder& d, std::uint32_t port) {
    const ir::Port& p = actor_.ports[port];
    if (p.group.empty())
      d.note(p.loc, fmt::format("port '{}' declared here", p.name));
    else
      d.note(p.loc, fmt::format("port group '{}' declared here", p.group), p.group.size());
  }
  void note_param(DiagnosticBuilder& d, const ir::ActorParam& param) {
    d.note(param.loc, fmt::format("param '{}' declared here", param.name));
  }
  bool before(const clang::Decl* a, const clang::Decl* b) const {
    return ast_.getSourceManager().isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
  }

  clang::ASTContext& ast_;
  clang::Sema& sema_;
  const ir::Program& program_;
  const ir::Actor& actor_;
  const ir::Impl& impl_;
  Locator& where_;
  DiagnosticEngine& diags_;
  bool ok_ = true;
};

ContractResult ContractChecker::run() {
  ContractResult result;
  const clang::CXXRecordDecl* record = find_class();
  if (!record) return result;
  result.cls = record;
  check_object(*record);
  if (actor_.dynamic) return run_dynamic(*record);
  auto fire = find_method(*record, "fire");
  if (!fire) {
    auto d = error(where_.token(record->getLocation()),
                   fmt::format("class '{}' has no member function 'fire'", impl_.class_name));
    note_impl(d);
  }
  ActorSignature signature;
  if (fire && *fire) {
    check_callable(**fire, "fire");
    check_fire_params(**fire, signature);
    check_block(**fire, signature);
    const clang::FunctionDecl* definition = (*fire)->getDefinition();
    if (definition && definition->getBody())
      result.fire = llvm::cast<clang::CXXMethodDecl>(definition);
  }
  check_init(*record, signature);
  check_initial_methods(*record);
  check_state(*record, signature);
  if (ok_) lint_migrating_state(*record, signature);
  if (ok_ && !signature.has_state)
    if (const clang::FieldDecl* state = state_member(*record))
      signature.state_member = state->getNameAsString();
  if (ok_) check_replicated_state(*record);
  for (const ir::ActorParam& param : actor_.params) check_param_member(*record, param);
  if (ok_) result.signature = std::move(signature);
  return result;
}

/// A dynamic actor's class: `bool step(...)` with one dfg::In<T> or dfg::Out<T> per port, by
/// value, matched by name; `init`; the data members of its params. On a GPU: `__device__ bool
/// step(...)` with dfg::GpuIn<T> and dfg::GpuOut<T>, in a trivially copyable class (the island
/// copies it to the device as bytes).
ContractResult ContractChecker::run_dynamic(const clang::CXXRecordDecl& record) {
  ContractResult result;
  ActorSignature signature;
  const bool gpu = impl_.kind == ir::PeKind::gpu;
  // find_method: nothing when there is no step, a null one when it was refused (reported).
  std::optional<const clang::CXXMethodDecl*> found;
  if (impl_.parallel.empty()) found = find_method(record, "step");
  const clang::CXXMethodDecl* step = found.value_or(nullptr);
  if (!impl_.parallel.empty()) {
    check_parallel_fire(record, signature);
  } else if (!found) {
    auto d = error(where_.token(record.getLocation()),
                   fmt::format("class '{}' has no member function 'step'; a dynamic actor fires by "
                               "'{}bool step(...)', one dfg::{}<T> or dfg::{}<T> per port",
                               impl_.class_name, gpu ? "__device__ " : "", gpu ? "GpuIn" : "In",
                               gpu ? "GpuOut" : "Out"));
    note_impl(d);
  }
  if (step != nullptr) {
    check_callable(*step, "step");
    check_step_params(*step, signature);
    if (gpu && !step->hasAttr<clang::CUDADeviceAttr>()) {
      auto d = error(where_.token(step->getLocation()),
                     fmt::format("'step' of class '{}' is not a device function; on a GPU, the "
                                 "island's kernel calls it: declare it '__device__ bool step(...)'",
                                 impl_.class_name));
      note_impl(d);
    }
  }
  if (gpu && !record.isTriviallyCopyable()) {
    auto d = error(where_.token(record.getLocation()),
                   fmt::format("class '{}' is not trivially copyable; a GPU island copies its "
                               "actors to the device as bytes: hold no owning members, declare "
                               "no copy operations or destructor",
                               impl_.class_name));
    note_impl(d);
  }
  check_init(record, signature);
  for (const ir::ActorParam& param : actor_.params) check_param_member(record, param);
  if (ok_) result.signature = std::move(signature);
  return result;
}

/// A parallel action: `__device__ void fire(dfg::RingSpan<const T> x, dfg::RingSpan<T> y) const`
/// on a GPU (`void fire(...) const` on a CPU), one span per port, by value, matched by name. The
/// island calls it on many threads at once (on a CPU in batches), each call with the elements of
/// one firing: const, as it must not write the actor's state
/// (a `mutable` member or a pointer still can; the contract forbids it, Clang cannot check it).
void ContractChecker::check_parallel_fire(const clang::CXXRecordDecl& record,
                                          ActorSignature& signature) {
  auto fire = find_method(record, "fire");
  if (!fire) {
    auto d = error(where_.token(record.getLocation()),
                   fmt::format("class '{}' has no member function 'fire'; the parallel action of "
                               "dynamic actor '{}' is '{}void fire(...) const', one "
                               "dfg::RingSpan<const T> per input and dfg::RingSpan<T> per output",
                               impl_.class_name, actor_.name,
                               impl_.kind == ir::PeKind::gpu ? "__device__ " : ""));
    d.note(impl_.parallel_loc, "declared 'parallel' here", 8);
    return;
  }
  if (!*fire) return;
  const clang::CXXMethodDecl& method = **fire;
  check_callable(method, "fire");
  const Place fire_at = where_.token(method.getLocation());
  if (impl_.kind == ir::PeKind::gpu && !method.hasAttr<clang::CUDADeviceAttr>()) {
    auto d = error(fire_at, fmt::format("'fire' of class '{}' is not a device function; the "
                                        "island's block calls it on its threads: declare it "
                                        "'__device__ void fire(...) const'",
                                        impl_.class_name));
    note_impl(d);
  }
  if (!method.getReturnType()->isVoidType()) {
    auto d =
        error(fire_at,
              fmt::format("'fire' of class '{}' returns '{}'; a parallel action fires whenever its "
                          "counts fit, so it returns nothing: declare it 'void fire(...) const'",
                          impl_.class_name,
                          method.getReturnType().getAsString(ast_.getPrintingPolicy())));
    note_impl(d);
  }
  if (!method.isConst()) {
    auto d = error(fire_at, fmt::format("'fire' of class '{}' is not const; the firings of a "
                                        "parallel action run {} and must "
                                        "not write the actor's state: declare it 'void "
                                        "fire(...) const'",
                                        impl_.class_name,
                                        impl_.kind == ir::PeKind::gpu
                                            ? "at once on many threads"
                                            : "in batches whose size depends on timing"));
    note_impl(d);
  }
  match_ring_params(method, "fire", signature, &ContractChecker::check_span_param);
}

/// `type` is the view `name`<T> (dfg::RingSpan, dfg::Ports) by value, T the element type `elem`,
/// const for an input and not for an output.
bool ContractChecker::is_view_of(clang::QualType type, std::string_view name, ir::ElemType elem,
                                 bool input, const ir::TokenType* token) const {
  const auto* spec = type->getAs<clang::TemplateSpecializationType>();
  const clang::TemplateDecl* decl = spec && spec->template_arguments().size() == 1
                                        ? spec->getTemplateName().getAsTemplateDecl()
                                        : nullptr;
  if (!decl || decl->getQualifiedNameAsString() != name || type.isVolatileQualified() ||
      spec->template_arguments()[0].getKind() != clang::TemplateArgument::Type)
    return false;
  clang::QualType arg = spec->template_arguments()[0].getAsType();
  return (token ? is_token_pointee(ast_, arg, *token) : is_elem_pointee(ast_, arg, elem)) &&
         arg.isConstQualified() == input;
}

/// A parallel action's parameter for `port`: dfg::RingSpan<const T> for an input,
/// dfg::RingSpan<T> for an output, by value.
void ContractChecker::check_span_param(const clang::ParmVarDecl& param, std::uint32_t port,
                                       Place at) {
  const ir::Port& p = actor_.ports[port];
  const bool input = p.dir == ir::PortDir::in;
  const ir::ElemType elem = p.fifo_elem.value_or(ir::ElemType::i32);
  const std::string expected =
      fmt::format("dfg::RingSpan<{}{}>", input ? "const " : "", ir::cxx_name(elem));
  clang::QualType type = param.getType();
  if (is_view_of(type, "dfg::RingSpan", elem, input)) return;
  auto d = error(at, fmt::format("parameter '{}' of 'fire' has type '{}', but {} port '{}' "
                                 "{} {} {} elements a firing, passed by value: declare it '{}'",
                                 param.getName().str(), type.getAsString(ast_.getPrintingPolicy()),
                                 input ? "input" : "output", p.name, input ? "takes" : "gives",
                                 impl_.parallel[port], ir::spec_name(elem), expected));
  note_port(d, port);
}

void ContractChecker::check_step_params(const clang::CXXMethodDecl& step,
                                        ActorSignature& signature) {
  if (!step.getReturnType()->isBooleanType()) {
    auto d = error(
        where_.token(step.getLocation()),
        fmt::format("'step' of class '{}' returns '{}'; it returns whether it fired: declare it "
                    "'bool step(...)'",
                    impl_.class_name, step.getReturnType().getAsString(ast_.getPrintingPolicy())));
    note_impl(d);
  }
  match_ring_params(step, "step", signature, &ContractChecker::check_view_param);
}

/// A step's parameter for `port`: ring_view()<T> by value.
void ContractChecker::check_view_param(const clang::ParmVarDecl& param, std::uint32_t port,
                                       Place at) {
  const ir::Port& p = actor_.ports[port];
  const bool input = p.dir == ir::PortDir::in;
  const ir::ElemType elem = p.fifo_elem.value_or(ir::ElemType::i32);
  const std::string expected =
      fmt::format("{}<{}>", ring_view(input, impl_.kind), ir::cxx_name(elem));
  clang::QualType type = param.getType();
  const clang::TemplateArgument* arg = ring_arg(type, input, impl_.kind);
  if (arg && arg->getKind() == clang::TemplateArgument::Type && !type.isVolatileQualified() &&
      is_elem_pointee(ast_, arg->getAsType(), elem) && !arg->getAsType().isConstQualified())
    return;
  auto d = error(
      at, fmt::format("parameter '{}' of 'step' has type '{}', but {} port '{}' is a ring of {} "
                      "elements, passed by value: declare it '{}'",
                      param.getName().str(), type.getAsString(ast_.getPrintingPolicy()),
                      input ? "input" : "output", p.name, ir::spec_name(elem), expected));
  note_port(d, port);
}

/// Matches the parameters of `method` (a dynamic actor's `step` or parallel `fire`, called
/// `name` in errors) to the actor's ports by name, in their order into signature.fire_ports:
/// checks each matched one's type with `check`, then reports every port without a parameter.
void ContractChecker::match_ring_params(const clang::CXXMethodDecl& method, const char* name,
                                        ActorSignature& signature, ParamCheck check) {
  std::vector<bool> matched(actor_.ports.size(), false);
  for (unsigned i = 0; i < method.getNumParams(); ++i) {
    const clang::ParmVarDecl& param = *method.getParamDecl(i);
    std::string param_name = param.getName().str();
    Place at = where_.range(param.getSourceRange());
    auto port = param_name.empty() ? std::nullopt : actor_.port_index(param_name);
    if (!port) {
      error(at, param_name.empty()
                    ? fmt::format("parameter {} of '{}' has no name; dfgc matches parameters to "
                                  "ports by name",
                                  i + 1, name)
                    : fmt::format("parameter '{}' of '{}' matches no port of actor '{}'",
                                  param_name, name, actor_.name))
          .note(actor_.loc, fmt::format("actor '{}' declared here", actor_.name));
      continue;
    }
    matched[*port] = true;
    signature.fire_ports.push_back(*port);
    (this->*check)(param, *port, at);
  }
  const Place method_at = where_.token(method.getLocation());
  for (std::uint32_t p = 0; p < actor_.ports.size(); ++p) {
    if (matched[p]) continue;
    const ir::Port& port = actor_.ports[p];
    auto d =
        error(method_at, fmt::format("'{}' has no parameter for {} port '{}'", name,
                                     port.dir == ir::PortDir::in ? "input" : "output", port.name));
    note_port(d, p);
  }
}

const clang::CXXRecordDecl* ContractChecker::find_class() {
  const clang::NamedDecl* decl = find_class_decl(ast_, impl_.class_name);
  if (decl && llvm::isa<clang::ClassTemplateDecl>(decl)) {
    auto d = error(where_.token(decl->getLocation()),
                   fmt::format("'{}' is a class template; an actor implementation must be a class",
                               impl_.class_name));
    note_impl(d);
    return nullptr;
  }
  const clang::CXXRecordDecl* record = decl ? record_of(*decl) : nullptr;
  if (!record) {
    error({impl_.loc, 1}, fmt::format("no class '{}' in '{}'", impl_.class_name, impl_.header));
    return nullptr;
  }
  const clang::CXXRecordDecl* definition = record->getDefinition();
  if (!definition) {
    Place declared = where_.token(record->getLocation());
    error({impl_.loc, 1}, fmt::format("class '{}' is declared but not defined in '{}'",
                                      impl_.class_name, impl_.header))
        .note(declared.loc, "declared here", declared.length);
    return nullptr;
  }
  if (definition->isUnion()) {
    auto d = error(where_.token(definition->getLocation()),
                   fmt::format("'{}' is a union; an actor implementation must be a class or struct",
                               impl_.class_name));
    note_impl(d);
    return nullptr;
  }
  return definition;
}

/// The generated code holds one object of the class per node, a data member of its worker
/// (`Inc i1_;`): the class must be default-constructible and destructible from outside, and
/// not abstract.
void ContractChecker::check_object(const clang::CXXRecordDecl& record) {
  auto* mutable_record = const_cast<clang::CXXRecordDecl*>(&record);
  Place class_at = where_.token(record.getLocation());
  if (record.isAbstract()) {
    auto d = error(class_at, fmt::format("class '{}' is abstract; dfgc creates an object of it "
                                         "for each node",
                                         impl_.class_name));
    for (const clang::CXXMethodDecl* m : record.methods())
      if (m->isPureVirtual()) {
        Place at = where_.token(m->getLocation());
        d.note(at.loc, fmt::format("'{}' is pure virtual", m->getNameAsString()), at.length);
      }
    note_impl(d);
    return;
  }
  // A constructor or destructor that is missing, deleted (explicitly, or implicitly by a member
  // or a base) or not public.
  auto problem = [&](const clang::CXXMethodDecl* m,
                     const char* what) -> std::optional<std::string> {
    if (!m) return fmt::format("it has no {}", what);
    if (m->isDeleted()) return fmt::format("its {} is deleted", what);
    if (m->getAccess() != clang::AS_public)
      return fmt::format("its {} is {}", what, spelling(m->getAccess()));
    return std::nullopt;
  };
  auto report = [&](const clang::CXXMethodDecl* m, const char* verb, const std::string& why) {
    auto d = error(class_at, fmt::format("class '{}' cannot be {}: {}; dfgc creates an object of "
                                         "it for each node",
                                         impl_.class_name, verb, why));
    if (m && !m->isImplicit()) {
      Place at = where_.token(m->getLocation());
      d.note(at.loc, "declared here", at.length);
    }
    if (!m)  // it declares constructors, none of them a default one
      for (const clang::CXXConstructorDecl* other : record.ctors())
        if (!other->isImplicit()) {
          Place at = where_.token(other->getLocation());
          d.note(at.loc, "constructor declared here", at.length);
          break;
        }
    note_impl(d);
  };
  const clang::CXXConstructorDecl* ctor = sema_.LookupDefaultConstructor(mutable_record);
  if (auto why = problem(ctor, "default constructor")) report(ctor, "default-constructed", *why);
  const clang::CXXDestructorDecl* dtor = sema_.LookupDestructor(mutable_record);
  if (auto why = problem(dtor, "destructor")) report(dtor, "destroyed", *why);
}

/// What makes a member function that find_method accepted impossible to call from the generated
/// code: deleted, `&&`-qualified, or not defined in the headers (the generated project compiles
/// only its own sources), or defined out of its class without `inline` (the header is included
/// by several generated sources).
void ContractChecker::check_callable(const clang::CXXMethodDecl& method, const char* name) {
  Place at = where_.token(method.getCanonicalDecl()->getLocation());  // in the class
  if (method.isDeleted()) {
    auto d = error(at, fmt::format("'{}' is deleted; the generated code calls it", name));
    note_impl(d);
    return;
  }
  if (method.isConsteval()) {
    auto d = error(at, fmt::format("'{}' is consteval; the generated code calls it at run time, "
                                   "with each cycle's buffers",
                                   name));
    note_impl(d);
    return;
  }
  if (method.getRefQualifier() == clang::RQ_RValue) {
    auto d = error(at, fmt::format("'{}' is '&&'-qualified; the generated code calls it on the "
                                   "actor object, an lvalue",
                                   name));
    note_impl(d);
  }
  const clang::FunctionDecl* definition = method.getDefinition();
  if (!definition) {
    error(at, fmt::format("'{}' is declared but not defined", name))
        .note(impl_.loc, fmt::format("the generated project compiles no source of its own for "
                                     "actors: define '{}' in '{}' or a file it includes",
                                     name, impl_.header));
    return;
  }
  if (definition->isOutOfLine() && !definition->isInlined()) {
    Place def_at = where_.token(definition->getLocation());
    auto d = error(def_at, fmt::format("'{}' is defined outside its class without 'inline'; the "
                                       "header is included by several generated sources, which "
                                       "would each define it",
                                       name));
    d.note(at.loc, "declared here", at.length);
    note_impl(d);
  }
}

/// nullopt: the class has no member `name`. Null: it has one, but not one dfgc can call (reported).
std::optional<const clang::CXXMethodDecl*> ContractChecker::find_method(
    const clang::CXXRecordDecl& record, const char* name) {
  std::vector<Found> found = find_member(record, ast_.Idents.get(name));
  if (found.empty()) return std::nullopt;
  std::sort(found.begin(), found.end(),
            [&](const Found& a, const Found& b) { return before(a.decl, b.decl); });
  const clang::NamedDecl* decl = found[0].decl;
  std::optional<DiagnosticBuilder> d;
  auto other_owner = std::find_if(found.begin(), found.end(),
                                  [&](const Found& f) { return f.owner != found[0].owner; });
  if (other_owner != found.end()) {
    Place first = where_.token(decl->getLocation());
    d = error(where_.token(other_owner->decl->getLocation()),
              fmt::format("'{}' of class '{}' is ambiguous: it is inherited from both '{}' and "
                          "'{}'; declare '{}' in '{}', or bring one in with a using-declaration",
                          name, impl_.class_name, found[0].owner->getQualifiedNameAsString(),
                          other_owner->owner->getQualifiedNameAsString(), name, impl_.class_name));
    d->note(first.loc, fmt::format("the other '{}' is here", name), first.length);
  } else if (found.size() > 1) {
    Place first = where_.token(decl->getLocation());
    d = error(where_.token(found[1].decl->getLocation()),
              fmt::format("'{}' is overloaded; dfgc needs exactly one '{}'", name, name));
    d->note(first.loc, fmt::format("other declaration of '{}' is here", name), first.length);
  } else if (llvm::isa<clang::FunctionTemplateDecl>(decl)) {
    d = error(where_.token(decl->getLocation()),
              fmt::format("'{}' is a template; dfgc needs a plain member function", name));
  } else if (!llvm::isa<clang::CXXMethodDecl>(decl)) {
    d = error(where_.token(decl->getLocation()),
              fmt::format("'{}' in class '{}' is not a member function", name, impl_.class_name));
  } else if (found[0].access != clang::AS_public) {
    d = error(
        where_.token(decl->getLocation()),
        fmt::format("'{}' is {} in class '{}'; the generated code calls it, so it must be public",
                    name, spelling(found[0].access), impl_.class_name));
  } else if (llvm::cast<clang::CXXMethodDecl>(decl)->isStatic()) {
    d = error(where_.token(decl->getLocation()),
              fmt::format("'{}' must not be static: dfgc calls it on each actor object", name));
  }
  if (!d) return llvm::cast<clang::CXXMethodDecl>(decl);
  note_impl(*d);
  return nullptr;
}

void ContractChecker::check_fire_params(const clang::CXXMethodDecl& fire,
                                        ActorSignature& signature) {
  std::vector<bool> matched(actor_.ports.size(), false);
  unsigned count = fire.getNumParams();
  for (unsigned i = 0; i < count; ++i) {
    const clang::ParmVarDecl& param = *fire.getParamDecl(i);
    clang::QualType type = param.getType();
    std::string name = param.getName().str();
    std::string what =
        name.empty() ? fmt::format("parameter {}", i + 1) : fmt::format("parameter '{}'", name);
    Place at = where_.range(param.getSourceRange());
    std::optional<DiagnosticBuilder> d;
    if (is_context_ref(type)) {
      if (i + 1 == count)
        signature.fire_takes_context = true;
      else
        d = error(at, "'dfg::Context&' must be the last parameter of 'fire'");
    } else if (mentions_context(type)) {
      d = error(at, fmt::format("{} takes the context as '{}'; dfgc passes it as 'dfg::Context&'",
                                what, type.getAsString(ast_.getPrintingPolicy())));
    } else if (name.empty()) {
      d = error(at, fmt::format("{} of 'fire' has no name; dfgc matches parameters to ports by "
                                "name",
                                what));
    } else if (std::vector<std::uint32_t> group = actor_.group_ports(name); !group.empty()) {
      for (std::uint32_t port : group) {
        matched[port] = true;
        signature.fire_ports.push_back(port);
      }
      signature.fire_groups.push_back(static_cast<std::uint32_t>(group.size()));
      check_group_param(param, group);
    } else if (auto port = actor_.port_index(name)) {
      matched[*port] = true;
      signature.fire_ports.push_back(*port);
      signature.fire_groups.push_back(0);
      check_port_param(param, *port);
    } else {
      error(at, fmt::format("{} of 'fire' matches no port of actor '{}'", what, actor_.name))
          .note(actor_.loc, fmt::format("actor '{}' declared here", actor_.name));
    }
    if (d) note_impl(*d);
  }
  // Without a group, every port is a parameter of its own (ActorSignature::fire_groups).
  if (std::all_of(signature.fire_groups.begin(), signature.fire_groups.end(),
                  [](std::uint32_t size) { return size == 0; }))
    signature.fire_groups.clear();
  Place fire_at = where_.token(fire.getLocation());
  for (std::uint32_t p = 0; p < actor_.ports.size(); ++p) {
    const ir::Port& port = actor_.ports[p];
    if (matched[p] || port.group_index > 0) continue;
    const char* dir = port.dir == ir::PortDir::in ? "input" : "output";
    auto d =
        error(fire_at, port.group.empty()
                           ? fmt::format("'fire' has no parameter for {} port '{}'", dir, port.name)
                           : fmt::format("'fire' has no parameter for {} port group '{}' "
                                         "(its {} ports, as one dfg::Ports)",
                                         dir, port.group, actor_.group_ports(port.group).size()));
    note_port(d, p);
  }
}

/// A group's parameter (`in T x[N];`): dfg::Ports<const T> for inputs, dfg::Ports<T> for
/// outputs, by value: one pointer a port, in the group's order.
void ContractChecker::check_group_param(const clang::ParmVarDecl& param,
                                        const std::vector<std::uint32_t>& group) {
  const ir::Port& port = actor_.ports[group.front()];
  const bool input = port.dir == ir::PortDir::in;
  const ir::TokenType& token = program_.types[port.type];
  const std::string expected =
      fmt::format("dfg::Ports<{}{}>", input ? "const " : "", token.elem_cxx());
  clang::QualType type = param.getType();
  if (is_view_of(type, "dfg::Ports", token.elem, input, &token)) return;
  auto d = error(where_.range(param.getSourceRange()),
                 fmt::format("parameter '{}' of 'fire' has type '{}', but {} port group '{}' of {} "
                             "ports is passed as one pointer a port, by value: declare it '{}'",
                             param.getName().str(), type.getAsString(ast_.getPrintingPolicy()),
                             input ? "input" : "output", port.group, group.size(), expected));
  note_port(d, group.front());
}

/// A port of a bounded type is passed as `dfg::Bounded<const T>` (input) or `dfg::Bounded<T>`
/// (output), by value: the elements and the token's length (dfg/bounded.hpp).
void ContractChecker::check_bounded_param(const clang::ParmVarDecl& param,
                                          std::uint32_t port_index) {
  const ir::Port& port = actor_.ports[port_index];
  const bool input = port.dir == ir::PortDir::in;
  const ir::TokenType& t = program_.types[port.type];
  std::string expected = fmt::format("dfg::Bounded<{}{}>", input ? "const " : "", t.elem_cxx());
  clang::QualType type = param.getType();
  std::string actual = type.getAsString(ast_.getPrintingPolicy());
  const clang::TemplateArgument* arg = bounded_arg(type);
  std::string message;
  if (!arg || type->isReferenceType() || type.isVolatileQualified())
    message = fmt::format(
        "parameter '{}' of 'fire' has type '{}', but port '{}' has bounded type "
        "'{}', passed by value with its length: declare it '{}'",
        port.name, actual, port.name, t.name, expected);
  else if (!is_token_pointee(ast_, arg->getAsType(), t) ||
           arg->getAsType().isConstQualified() != input)
    message = fmt::format(
        "parameter '{}' of 'fire' has type '{}', but {} port '{}' of bounded type "
        "'{}' is passed as '{}'",
        port.name, actual, input ? "input" : "output", port.name, t.name, expected);
  if (message.empty()) return;
  auto d = error(where_.range(param.getSourceRange()), std::move(message));
  note_port(d, port_index);
}

void ContractChecker::check_port_param(const clang::ParmVarDecl& param, std::uint32_t port_index) {
  const ir::Port& port = actor_.ports[port_index];
  if (program_.types[port.type].bounded) return check_bounded_param(param, port_index);
  bool input = port.dir == ir::PortDir::in;
  const ir::TokenType& token = program_.types[port.type];
  std::string expected = fmt::format("{}{} *", input ? "const " : "", token.elem_cxx());
  clang::QualType type = param.getType();
  std::string actual = type.getAsString(ast_.getPrintingPolicy());
  Place at = where_.range(param.getSourceRange());
  const auto* pointer = type->getAs<clang::PointerType>();
  clang::QualType pointee = pointer ? pointer->getPointeeType() : clang::QualType();
  std::string message;
  if (!pointer)
    message = fmt::format(
        "parameter '{}' of 'fire' has type '{}', but ports are passed by "
        "pointer: declare it '{}'",
        port.name, actual, expected);
  else if (!is_token_pointee(ast_, pointee, token))
    message = fmt::format(
        "parameter '{}' of 'fire' has type '{}', but the elements of {} port "
        "'{}' are {}{}: declare it '{}'",
        port.name, actual, input ? "input" : "output", port.name, token.record ? "struct " : "",
        token.elem_spec(), expected);
  else if (input && !pointee.isConstQualified())
    message = fmt::format(
        "parameter '{}' of 'fire' is '{}', but input port '{}' is read-only: "
        "declare it '{}'",
        port.name, actual, port.name, expected);
  else if (!input && pointee.isConstQualified())
    message = fmt::format(
        "parameter '{}' of 'fire' is '{}', but 'fire' writes output port '{}': "
        "declare it '{}'",
        port.name, actual, port.name, expected);
  if (message.empty()) return;
  auto d = error(at, std::move(message));
  note_port(d, port_index);
}

/// A `block` implementation's fire makes all the node's firings of an iteration in one call: it
/// must take the dfg::Context, which says how many (ctx.firings()) and how long each block is
/// (ctx.elements(port)).
void ContractChecker::check_block(const clang::CXXMethodDecl& fire,
                                  const ActorSignature& signature) {
  if (!impl_.block || signature.fire_takes_context) return;
  auto d =
      error(where_.token(fire.getLocation()),
            fmt::format("'fire' of class '{}' takes no 'dfg::Context&', but the implementation is "
                        "declared 'block': one call makes ctx.firings() firings on blocks of "
                        "ctx.elements(port) elements, which only the context tells; add a last "
                        "parameter 'dfg::Context& ctx' or drop 'block' (one call per firing)",
                        impl_.class_name));
  d.note(impl_.loc, fmt::format("actor '{}' implementation declared 'block' here", actor_.name));
}

/// Each edge into a node of this actor whose initial tokens its member function fills
/// (`delay 2 = fill()`), once per (function, port).
void ContractChecker::check_initial_methods(const clang::CXXRecordDecl& record) {
  std::set<std::pair<std::string, std::uint32_t>> seen;
  for (const ir::Edge& e : program_.dfg.edges) {
    if (e.initial_method.empty() || &program_.dfg.actor_of(e.dst) != &actor_) continue;
    if (seen.insert({e.initial_method, e.dst_port}).second) check_initial_method(record, e);
  }
}

/// `void fill(std::size_t j, T* token, std::size_t elements)`: fills initial token j.
void ContractChecker::check_initial_method(const clang::CXXRecordDecl& record,
                                           const ir::Edge& edge) {
  const ir::Port& port = actor_.ports[edge.dst_port];
  const ir::TokenType& token = program_.types[port.type];
  const std::string expected =
      fmt::format("void {}(std::size_t j, {}* token, std::size_t elements)", edge.initial_method,
                  token.elem_cxx());
  auto method = find_method(record, edge.initial_method.c_str());
  if (!method) {
    error({edge.loc, 2},
          fmt::format("class '{}' has no member function '{}' to fill the initial tokens of "
                      "input '{}'; declare '{}'",
                      impl_.class_name, edge.initial_method, port.name, expected))
        .note(impl_.loc, fmt::format("actor '{}' implementation declared here", actor_.name));
    return;
  }
  if (!*method) return;
  check_callable(**method, edge.initial_method.c_str());
  const clang::CXXMethodDecl& m = **method;
  auto integer = [](clang::QualType t) { return t->isIntegerType() && !t->isBooleanType(); };
  const auto* pointer =
      m.getNumParams() == 3 ? m.getParamDecl(1)->getType()->getAs<clang::PointerType>() : nullptr;
  const bool ok = pointer && integer(m.getParamDecl(0)->getType()) &&
                  integer(m.getParamDecl(2)->getType()) &&
                  is_token_pointee(ast_, pointer->getPointeeType(), token) &&
                  !pointer->getPointeeType().isConstQualified();
  if (ok) return;
  auto d =
      error(where_.token(m.getLocation()),
            fmt::format("'{}' fills the initial tokens of input '{}' ({} elements), so it must be "
                        "'{}'",
                        edge.initial_method, port.name, token.elem_spec(), expected));
  d.note(edge.loc, "initial tokens filled by it on this edge", 2);
}

void ContractChecker::check_init(const clang::CXXRecordDecl& record, ActorSignature& signature) {
  check_hook(record, "init", signature.has_init, signature.init_takes_context);
  check_hook(record, "finish", signature.has_finish, signature.finish_takes_context);
}

/// `init` or `finish`: no parameter or one dfg::Context&.
void ContractChecker::check_hook(const clang::CXXRecordDecl& record, const char* name, bool& has,
                                 bool& takes_context) {
  auto hook = find_method(record, name);
  if (!hook) return;
  has = true;
  if (!*hook) return;
  check_callable(**hook, name);
  unsigned count = (*hook)->getNumParams();
  if (count == 1 && is_context_ref((*hook)->getParamDecl(0)->getType())) {
    takes_context = true;
  } else if (count != 0) {
    auto d = error(where_.token((*hook)->getLocation()),
                   fmt::format("'{}' must take no parameter or one 'dfg::Context&'", name));
    note_impl(d);
  }
}

void ContractChecker::check_state(const clang::CXXRecordDecl& record, ActorSignature& signature) {
  auto save = find_method(record, "save");
  auto restore = find_method(record, "restore");
  if (!save && !restore) return;
  if (!save || !restore) {
    const char* has = save ? "save" : "restore";
    const char* lacks = save ? "restore" : "save";
    const clang::CXXMethodDecl* found = save ? *save : *restore;
    if (!found) return;  // reported by find_method
    auto d =
        error(where_.token(found->getLocation()),
              fmt::format("class '{}' has '{}' but no '{}'; an actor's state moves with both "
                          "'void save(dfg::State&) const' and 'void restore(const dfg::State&)'",
                          impl_.class_name, has, lacks));
    note_impl(d);
    return;
  }
  bool ok = true;
  if (*save) {
    const clang::CXXMethodDecl& m = **save;
    check_callable(m, "save");
    if (m.getNumParams() != 1 || !is_state_ref(m.getParamDecl(0)->getType(), false) ||
        !m.isConst() || !m.getReturnType()->isVoidType()) {
      auto d =
          error(where_.token(m.getLocation()), "'save' must be 'void save(dfg::State&) const'");
      note_impl(d);
      ok = false;
    }
  }
  if (*restore) {
    const clang::CXXMethodDecl& m = **restore;
    check_callable(m, "restore");
    if (m.getNumParams() != 1 || !is_state_ref(m.getParamDecl(0)->getType(), true) ||
        !m.getReturnType()->isVoidType()) {
      auto d = error(where_.token(m.getLocation()),
                     "'restore' must be 'void restore(const dfg::State&)'");
      note_impl(d);
      ok = false;
    }
  }
  signature.has_state = ok && *save && *restore;
}

/// A node of this actor that may migrate, with this implementation on one side of the move, moves
/// as a fresh instance unless the class has save/restore: a data member that is not a param may
/// hold state between firings (a filter's history), which the move would silently drop. A class
/// whose members hold nothing between firings (scratch memory set up by init) says so with
/// `static constexpr bool dfg_stateless = true;`.
/// The first data member of the class or its bases that is not an actor param: what may hold
/// state between firings. Null when there is none, or when the class declares
/// `static constexpr bool dfg_stateless = true;`.
const clang::FieldDecl* ContractChecker::state_member(const clang::CXXRecordDecl& record) const {
  for (const clang::Decl* d : record.decls())
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d);
        v && v->isStaticDataMember() && v->getName() == "dfg_stateless")
      return nullptr;
  const clang::FieldDecl* state = nullptr;
  auto scan = [&](const clang::CXXRecordDecl& r) {
    for (const clang::FieldDecl* f : r.fields()) {
      const std::string name = f->getNameAsString();
      const bool param = std::any_of(actor_.params.begin(), actor_.params.end(),
                                     [&](const ir::ActorParam& p) { return p.name == name; });
      if (!param && !state) state = f;
    }
  };
  scan(record);
  record.forallBases([&](const clang::CXXRecordDecl* base) {
    scan(*base);
    return true;
  });
  return state;
}

/// A replicated node (`@ {A.g0, A.g1}`) fires its iterations on several instances at once, so
/// no instance sees the iterations in order: its class must keep nothing between firings. State
/// handed over (save/restore) would serialise the replicas, so it does not qualify.
void ContractChecker::check_replicated_state(const clang::CXXRecordDecl& record) {
  const ir::Node* replica = nullptr;
  for (ir::NodeId n = 0; n < program_.dfg.nodes.size() && !replica; ++n) {
    const ir::Node& node = program_.dfg.nodes[n];
    if (&program_.dfg.actors[node.actor] != &actor_ || !node.replicated) continue;
    // A node dealt over shares for dfgc map may run on any of its candidates.
    bool here = program_.arch.pes[program_.mapping.pe_of[n]].kind == impl_.kind;
    for (ir::PeId pe : node.candidates) here = here || program_.arch.pes[pe].kind == impl_.kind;
    if (here) replica = &node;
  }
  if (!replica) return;
  const clang::FieldDecl* state = state_member(record);
  if (!state) return;
  auto d =
      error(where_.token(state->getLocation()),
            fmt::format("node '{}' {}, and class '{}' keeps data member '{}': "
                        "each replica's instance fires only some of the iterations, so what "
                        "'{}' carries from one firing to the next would differ from a run "
                        "on one processing element; keep the state in the graph (an edge "
                        "with a delay) or, if no member holds anything from one firing to "
                        "the next, say so with 'static constexpr bool dfg_stateless = true;'",
                        replica->origin,
                        replica->shares > 1 ? "has a replica range for dfgc map" : "runs replicas",
                        impl_.class_name, state->getNameAsString(), state->getNameAsString()));
  d.note(replica->loc, fmt::format("node '{}' is declared here", replica->origin),
         static_cast<std::uint32_t>(replica->origin.size()));
}

void ContractChecker::lint_migrating_state(const clang::CXXRecordDecl& record,
                                           const ActorSignature& signature) {
  if (signature.has_state) return;
  const ir::Node* mover = nullptr;
  for (ir::NodeId n = 0; n < program_.dfg.nodes.size() && !mover; ++n) {
    const ir::Node& node = program_.dfg.nodes[n];
    if (&program_.dfg.actors[node.actor] != &actor_ || node.alternatives.empty()) continue;
    bool here = program_.arch.pes[program_.mapping.pe_of[n]].kind == impl_.kind;
    for (const ir::Alternative& alt : node.alternatives)
      here = here || program_.arch.pes[alt.pe].kind == impl_.kind;
    if (here) mover = &node;
  }
  if (!mover) return;
  const clang::FieldDecl* state = state_member(record);
  if (!state) return;
  auto d = diags_.warning(
      where_.token(state->getLocation()).loc,
      fmt::format("node '{}' may migrate, and class '{}' keeps data member '{}' but has no "
                  "save/restore: after a move its new instance starts as init() left it, and "
                  "what '{}' held is lost; add 'void save(dfg::State&) const' and 'void "
                  "restore(const dfg::State&)', or 'static constexpr bool dfg_stateless = true;' "
                  "if no member holds anything from one firing to the next",
                  mover->name, impl_.class_name, state->getNameAsString(),
                  state->getNameAsString()),
      where_.token(state->getLocation()).length);
  d.note(mover->alternatives.front().loc, fmt::format("node '{}' may migrate here", mover->name));
}

void ContractChecker::check_param_member(const clang::CXXRecordDecl& record,
                                         const ir::ActorParam& param) {
  std::vector<Found> found = find_member(record, ast_.Idents.get(param.name));
  const Found* member = nullptr;
  for (const Found& f : found)
    if (llvm::isa<clang::FieldDecl>(f.decl) || llvm::isa<clang::VarDecl>(f.decl)) member = &f;
  if (!member) {
    auto d = error(where_.token(record.getLocation()),
                   fmt::format("class '{}' has no data member '{}' for actor param '{}'",
                               impl_.class_name, param.name, param.name));
    note_param(d, param);
    return;
  }
  Place at = where_.token(member->decl->getLocation());
  std::optional<DiagnosticBuilder> d;
  if (llvm::isa<clang::VarDecl>(member->decl)) {
    d = error(at, fmt::format("'{}' is a static data member; dfgc sets actor param '{}' on each "
                              "actor object",
                              param.name, param.name));
  } else if (member->access != clang::AS_public) {
    d = error(at, fmt::format("'{}' is {} in class '{}'; the generated code sets it, so it must be "
                              "public",
                              param.name, spelling(member->access), impl_.class_name));
  } else if (const auto* field = llvm::cast<clang::FieldDecl>(member->decl); field->isBitField()) {
    d = error(at, fmt::format("data member '{}' is a bit-field of {} bits; dfgc assigns actor "
                              "param '{}' to it, and a value that does not fit would be cut: "
                              "make it a whole member",
                              param.name, field->getBitWidthValue(ast_), param.name));
  } else if (clang::QualType type = llvm::cast<clang::FieldDecl>(member->decl)->getType();
             type.isConstQualified()) {
    d = error(at, fmt::format("data member '{}' is const; dfgc assigns actor param '{}' to it",
                              param.name, param.name));
  } else if (!holds(param.type, type)) {
    d = error(at, fmt::format("data member '{}' has type '{}', which cannot hold {} param '{}'",
                              param.name, type.getAsString(ast_.getPrintingPolicy()), param.type,
                              param.name));
  }
  if (d)
    note_param(*d, param);
  else
    check_param_values(param, *llvm::cast<clang::FieldDecl>(member->decl));
}

/// Every value the nodes of the actor give `param` (their own or the default) must fit in the
/// member's type: the generated code assigns it, and a narrowing conversion would change it
/// silently while the trace and the profile show the spec's value.
void ContractChecker::check_param_values(const ir::ActorParam& param,
                                         const clang::FieldDecl& member) {
  auto index = static_cast<std::size_t>(&param - actor_.params.data());
  clang::QualType type = member.getType().getCanonicalType();
  std::string type_name = member.getType().getAsString(ast_.getPrintingPolicy());
  std::vector<SourceLoc> reported;
  std::vector<const std::vector<ir::ParamValue>*> values;  // of every node of the actor
  for (const ir::Node& node : program_.dfg.nodes)
    if (&program_.dfg.actors[node.actor] == &actor_) values.push_back(&node.params);
  for (const ir::Island& island : program_.islands)
    for (const ir::IslandMember& m : island.members)
      if (&program_.dfg.actors[m.actor] == &actor_) values.push_back(&m.params);
  for (const std::vector<ir::ParamValue>* params : values) {
    if (index >= params->size()) continue;
    const ir::ParamValue& value = (*params)[index];
    if (std::find(reported.begin(), reported.end(), value.loc) != reported.end()) continue;
    auto range = does_not_fit(ast_, type, value.value);
    if (!range) continue;
    reported.push_back(value.loc);
    Place member_at = where_.token(member.getLocation());
    auto d = error(
        {value.loc, 1},
        fmt::format("value {} of param '{}' does not fit in data member '{}' of class "
                    "'{}', of type '{}' ({})",
                    value.literal, param.name, param.name, impl_.class_name, type_name, *range));
    d.note(member_at.loc, fmt::format("'{}' declared here", param.name), member_at.length);
  }
}

}  // namespace

ContractResult check_contract(clang::ASTContext& ast, clang::Sema& sema, const ir::Program& program,
                              const ir::Actor& actor, const ir::Impl& impl, Locator& where,
                              DiagnosticEngine& diags) {
  return ContractChecker(ast, sema, program, actor, impl, where, diags).run();
}

}  // namespace dfgc::actors
