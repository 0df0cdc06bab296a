/// \file
/// The hand-built programs of the actor frontend tests.
#include "actors_test_util.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dfgc::test {

namespace {
constexpr std::uint32_t kSpecFile = 1;

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "?";
}
}  // namespace

SourceLoc ActorProgram::line(const std::string& text) {
  std::size_t indent = text.find_first_not_of(' ');
  SourceLoc loc{kSpecFile, static_cast<std::uint32_t>(spec_.size() + indent)};
  spec_ += text + "\n";
  return loc;
}

void ActorProgram::close_actor() {
  if (open_) line("}");
  open_ = false;
}

ActorProgram& ActorProgram::actor(const std::string& name) {
  close_actor();
  ir::Actor a;
  a.name = name;
  a.loc = line(fmt::format("actor {} {{", name));
  program_.dfg.actors.push_back(std::move(a));
  open_ = true;
  return *this;
}

ActorProgram& ActorProgram::port(ir::PortDir dir, const std::string& name, ir::ElemType elem) {
  ir::TokenType type;
  type.name = fmt::format("T{}", program_.types.size());
  type.elem = elem;
  type.count = {16, "16", false, {ir::SizeTerm::Kind::integer, 16, "", false, {}}};
  program_.types.push_back(type);
  ir::Port p;
  p.name = name;
  p.dir = dir;
  p.type = static_cast<ir::TypeId>(program_.types.size() - 1);
  p.loc = line(
      fmt::format("  {} {} {};", dir == ir::PortDir::in ? "in" : "out", ir::spec_name(elem), name));
  program_.dfg.actors.back().ports.push_back(std::move(p));
  return *this;
}

ActorProgram& ActorProgram::in(const std::string& name, ir::ElemType elem) {
  return port(ir::PortDir::in, name, elem);
}

ActorProgram& ActorProgram::out(const std::string& name, ir::ElemType elem) {
  return port(ir::PortDir::out, name, elem);
}

ActorProgram& ActorProgram::param(const std::string& type, const std::string& name) {
  ir::ActorParam p;
  p.name = name;
  p.type = type;
  p.loc = line(fmt::format("  param {} {};", type, name));
  program_.dfg.actors.back().params.push_back(std::move(p));
  return *this;
}

ActorProgram& ActorProgram::impl(ir::PeKind kind, const std::string& header,
                                 const std::string& class_name) {
  ir::Impl i;
  i.kind = kind;
  i.header = header;
  i.header_path = header;
  i.class_name = class_name;
  std::string text = fmt::format("  {} \"{}\" {};", ir::to_string(kind), header, class_name);
  i.loc = line(text);
  i.header_loc = {kSpecFile, i.loc.offset + static_cast<std::uint32_t>(text.find('"') - 2)};
  program_.dfg.actors.back().impls.push_back(std::move(i));
  return *this;
}

ActorProgram& ActorProgram::cpu(const std::string& header, const std::string& class_name) {
  return impl(ir::PeKind::cpu, header, class_name);
}

ActorProgram& ActorProgram::gpu(const std::string& header, const std::string& class_name) {
  return impl(ir::PeKind::gpu, header, class_name);
}

ActorSignatures ActorProgram::check(bool werror) {
  close_actor();
  sources_.add_buffer("spec.dfg", spec_);
  diags_.set_warnings_as_errors(werror);
  ActorCheck checked = check_actors(program_, ActorFrontendOptions{}, sources_, diags_);
  files_ = std::move(checked.files);
  return std::move(checked.signatures);
}

std::vector<std::string> ActorProgram::reported() const {
  std::vector<std::string> out;
  auto one = [&](const Diagnostic& d, const char* indent) {
    if (!d.loc.valid()) {
      out.push_back(fmt::format("{}{}: {}", indent, severity_name(d.severity), d.message));
      return;
    }
    LineCol lc = sources_.line_col(d.loc);
    out.push_back(fmt::format("{}{}:{}:{}: {}: {}", indent, sources_.name(d.loc.file), lc.line,
                              lc.col, severity_name(d.severity), d.message));
  };
  // The engine's render order: by location, stable.
  std::vector<const Diagnostic*> sorted;
  for (const Diagnostic& d : diags_.diagnostics()) sorted.push_back(&d);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic* a, const Diagnostic* b) {
    return a->loc.file != b->loc.file ? a->loc.file < b->loc.file : a->loc.offset < b->loc.offset;
  });
  for (const Diagnostic* d : sorted) {
    one(*d, "");
    for (const Diagnostic& n : d->notes) one(n, "  ");
  }
  return out;
}

}  // namespace dfgc::test
