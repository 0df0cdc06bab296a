/// \file
/// Architectures: hosts, their PEs, and links with their bandwidths and latencies (units applied).
#include <cmath>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "spec/parser_impl.hpp"

namespace dfgc::spec {

namespace {

/// A unit: value * multiplier / divisor is in bytes per second or in seconds (dividing keeps
/// 5 us exactly the double nearest to 5e-6).
struct Unit {
  std::string_view name;
  double multiplier;
  double divisor;
};

constexpr Unit kBandwidthUnits[] = {
    {"B/s", 1, 1},     {"KB/s", 1e3, 1},     {"MB/s", 1e6, 1},        {"GB/s", 1e9, 1},
    {"TB/s", 1e12, 1}, {"KiB/s", 1024.0, 1}, {"MiB/s", 1048576.0, 1}, {"GiB/s", 1073741824.0, 1},
    {"Kb/s", 1e3, 8},  {"Mb/s", 1e6, 8},     {"Gb/s", 1e9, 8},
};

constexpr Unit kLatencyUnits[] = {{"ns", 1, 1e9}, {"us", 1, 1e6}, {"ms", 1, 1e3}, {"s", 1, 1}};

constexpr Unit kMemoryUnits[] = {
    {"B", 1, 1},           {"KB", 1e3, 1},           {"MB", 1e6, 1},
    {"GB", 1e9, 1},        {"TB", 1e12, 1},          {"KiB", 1024.0, 1},
    {"MiB", 1048576.0, 1}, {"GiB", 1073741824.0, 1}, {"TiB", 1099511627776.0, 1},
};

const Unit* find_unit(std::string_view name, const auto& units) {
  for (const Unit& u : units)
    if (u.name == name) return &u;
  return nullptr;
}

}  // namespace

// arch := 'arch' IDENT '{' { host | link } '}'
bool Parser::parse_arch() {
  ast::ArchDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("an architecture name after 'arch'");
  if (!name) return false;
  d.name = std::move(*name);
  if (!at(Tok::l_brace)) {
    error_here(fmt::format("expected '{{' after arch name '{}', found {}", d.name.name, found()));
    return false;
  }
  parse_block("arch body", [&] { return parse_arch_item(d); });
  module_->archs.push_back(std::move(d));
  return true;
}

bool Parser::parse_arch_item(ast::ArchDecl& arch) {
  if (at_word("host")) return parse_host(arch);
  if (at_word("link")) return parse_link(arch);
  error_here(fmt::format("expected 'host' or 'link' in arch body, found {}", found()));
  return false;
}

// host := 'host' IDENT '{' { 'cpu' [IDENT [INTEGER]] ';' | 'gpu' IDENT '=' expr ';' } '}'
bool Parser::parse_host(ast::ArchDecl& arch) {
  ast::HostDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("a host name after 'host'");
  if (!name) return false;
  d.name = std::move(*name);
  if (!at(Tok::l_brace)) {
    error_here(fmt::format("expected '{{' after host name '{}', found {}", d.name.name, found()));
    return false;
  }
  parse_block("host body", [&] { return parse_pe(d); });
  arch.hosts.push_back(std::move(d));
  return true;
}

bool Parser::parse_pe(ast::HostDecl& host) {
  ast::PeDecl d;
  d.loc = tok_.loc;
  if (at_word("cpu")) {
    d.kind = take_ident();
    d.name = d.kind;
    if (at(Tok::identifier)) d.name = take_ident();
    if (at(Tok::integer)) {
      d.count = tok_.int_value;
      d.count_loc = tok_.loc;
      advance();
    }
    std::string what = d.count ? "cpu count" : d.name.name == "cpu" ? "'cpu'" : "cpu name";
    host.pes.push_back(std::move(d));
    return expect_semi(what);
  }
  if (!at_word("gpu")) {
    error_here(fmt::format("expected 'cpu' or 'gpu' in host body, found {}", found()));
    return false;
  }
  d.kind = take_ident();
  auto name = expect_ident("a GPU name after 'gpu'");
  if (!name || !expect(Tok::equal, fmt::format("after GPU name '{}'", name->name))) return false;
  d.name = std::move(*name);
  d.ordinal = parse_expr();
  if (!d.ordinal) return false;
  if (at(Tok::l_paren) && !parse_memory(d)) return false;
  host.pes.push_back(std::move(d));
  return expect_semi("GPU declaration");
}

// memory := '(' 'memory' NUMBER UNIT ')', UNIT one of B, KB, MB, GB, TB, KiB, MiB, GiB, TiB
bool Parser::parse_memory(ast::PeDecl& gpu) {
  SourceLoc open = tok_.loc;
  advance();
  if (!at_word("memory")) {
    error_here(fmt::format("expected 'memory' after '(' in GPU declaration, found {}", found()));
    return false;
  }
  advance();
  if (!at(Tok::integer) && !at(Tok::real)) {
    error_here(fmt::format("expected a memory size (e.g. 24 GiB), found {}", found()));
    return false;
  }
  double value = at(Tok::integer) ? static_cast<double>(tok_.int_value) : tok_.real_value;
  gpu.memory_loc = tok_.loc;
  std::uint32_t number_length = tok_.length;
  advance();
  const Unit* factor = at(Tok::identifier) ? find_unit(tok_.text, kMemoryUnits) : nullptr;
  if (!factor) {
    error_here(fmt::format(
        "expected a memory unit (B, KB, MB, GB, TB, KiB, MiB, GiB or TiB), found {}", found()));
    return false;
  }
  advance();
  gpu.memory = value * factor->multiplier / factor->divisor;
  if (!(*gpu.memory >= 1) || !std::isfinite(*gpu.memory)) {
    error(gpu.memory_loc, "GPU memory must be at least one byte and finite", number_length);
    return false;
  }
  // Byte counts are 64-bit signed integers: 2^63 bytes (8 EiB) and more would wrap.
  if (*gpu.memory >= 0x1p63) {
    error(gpu.memory_loc, "GPU memory must be less than 2^63 bytes (8 EiB)", number_length);
    return false;
  }
  return expect_closing(Tok::r_paren, open, "after memory size");
}

// link := 'link' peref ('<->' | '->') peref IDENT '(' bandwidth [',' latency] ')' ';'
bool Parser::parse_link(ast::ArchDecl& arch) {
  ast::LinkDecl d;
  d.loc = tok_.loc;
  advance();
  auto a = parse_peref("after 'link'");
  if (!a) return false;
  if (!at(Tok::bidir_arrow) && !at(Tok::arrow)) {
    error_here(fmt::format("expected '<->' or '->' after '{}.{}', found {}", a->host.name,
                           a->pe.name, found()));
    return false;
  }
  d.bidirectional = at(Tok::bidir_arrow);
  std::string arrow(tok_.text);
  advance();
  auto b = parse_peref(fmt::format("after '{}'", arrow));
  if (!b) return false;
  auto kind = expect_ident(fmt::format("a link kind (pcie, nvlink, net or gpudirect) after '{}.{}'",
                                       b->host.name, b->pe.name));
  if (!kind) return false;
  SourceLoc open = tok_.loc;
  if (!expect(Tok::l_paren, fmt::format("after link kind '{}'", kind->name)) || !parse_bandwidth(d))
    return false;
  if (at(Tok::comma)) {
    advance();
    if (!parse_latency(d) || !expect_closing(Tok::r_paren, open, "after latency")) return false;
  } else if (!at(Tok::r_paren)) {
    error_here(fmt::format("expected ',' or ')' after bandwidth, found {}", found()),
               {{open, "to match this '('"}});
    return false;
  } else {
    advance();
  }
  d.a = std::move(*a);
  d.b = std::move(*b);
  d.kind = std::move(*kind);
  arch.links.push_back(std::move(d));
  return expect_semi("link declaration");
}

// bandwidth := NUMBER UNIT, UNIT := IDENT '/' 's' (B/s, GB/s, GiB/s, Gb/s, ...)
bool Parser::parse_bandwidth(ast::LinkDecl& link) {
  if (!at(Tok::integer) && !at(Tok::real)) {
    error_here(fmt::format("expected a bandwidth (e.g. 25 GB/s), found {}", found()));
    return false;
  }
  double value = at(Tok::integer) ? static_cast<double>(tok_.int_value) : tok_.real_value;
  link.bandwidth_loc = tok_.loc;
  std::uint32_t number_length = tok_.length;
  advance();
  if (!at(Tok::identifier)) {
    error_here(
        fmt::format("expected a bandwidth unit (e.g. GB/s) after the number, found {}", found()));
    return false;
  }
  Token prefix = tok_;
  advance();
  if (!at(Tok::slash) || !peek_next().is_word("s")) {
    error_here(
        fmt::format("expected '/s' after '{}' in bandwidth, found {}", prefix.text, found()));
    return false;
  }
  advance();
  std::uint32_t unit_length = tok_.loc.offset + tok_.length - prefix.loc.offset;
  advance();
  std::string unit = fmt::format("{}/s", prefix.text);
  const Unit* factor = find_unit(unit, kBandwidthUnits);
  if (!factor) {
    error(prefix.loc,
          fmt::format("unknown bandwidth unit '{}'; expected B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, "
                      "MiB/s, GiB/s, Kb/s, Mb/s or Gb/s",
                      unit),
          unit_length);
    return false;
  }
  link.bandwidth = value * factor->multiplier / factor->divisor;
  if (link.bandwidth <= 0) {
    error(link.bandwidth_loc, "link bandwidth must be greater than zero", number_length);
    return false;
  }
  if (!std::isfinite(link.bandwidth)) {
    error(link.bandwidth_loc, "link bandwidth is too large", number_length);
    return false;
  }
  return true;
}

// latency := NUMBER ('ns' | 'us' | 'ms' | 's')
bool Parser::parse_latency(ast::LinkDecl& link) {
  if (!at(Tok::integer) && !at(Tok::real)) {
    error_here(fmt::format("expected a latency (e.g. 5 us) after ',', found {}", found()));
    return false;
  }
  double value = at(Tok::integer) ? static_cast<double>(tok_.int_value) : tok_.real_value;
  link.latency_loc = tok_.loc;
  advance();
  const Unit* factor = at(Tok::identifier) ? find_unit(tok_.text, kLatencyUnits) : nullptr;
  if (!factor) {
    error_here(fmt::format("expected a latency unit (ns, us, ms or s), found {}", found()));
    return false;
  }
  advance();
  link.latency = value * factor->multiplier / factor->divisor;
  return true;
}

}  // namespace dfgc::spec
