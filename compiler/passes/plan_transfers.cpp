// Transfer classification for the host plan (plan_transfers.hpp).
#include "passes/plan_transfers.hpp"

#include <algorithm>
#include <tuple>

#include "passes/plan_hosts.hpp"
#include "support/assert.hpp"

namespace dfgc {

std::string_view to_string(StreamKind s) {
  switch (s) {
    case StreamKind::compute: return "compute";
    case StreamKind::h2d: return "h2d";
    case StreamKind::d2h: return "d2h";
    case StreamKind::peer: return "peer";
  }
  DFGC_UNREACHABLE("bad stream kind");
}

ir::PeId launcher(const ir::Program& program, const ir::IgTransfer& t) {
  return program.arch.pes[t.to_pe].kind == ir::PeKind::gpu ? t.to_pe : t.from_pe;
}

bool is_net(const ir::Program& program, const ir::IgTransfer& t) {
  return program.arch.pes[t.from_pe].host != program.arch.pes[t.to_pe].host;
}

bool is_gpudirect(const ir::Program& program, const ir::IgTransfer& t) {
  return program.arch.links[t.link].kind == ir::LinkKind::gpudirect;
}

ir::PeId net_runner(const ir::Program& program, ir::PeId end) {
  return program.arch.hosts[program.arch.pes[end].host].cpu;
}

bool between_cpu_and_gpu(const ir::ArchGraph& arch, ir::PeId from, ir::PeId to) {
  const ir::Pe &a = arch.pes[from], &b = arch.pes[to];
  return a.host == b.host && (a.kind == ir::PeKind::gpu) != (b.kind == ir::PeKind::gpu);
}

bool mapped_colour(std::int64_t bytes, std::uint32_t with_cpu, std::uint32_t other,
                   const PlanOptions& options) {
  return options.mapped_bytes > 0 && with_cpu > 0 && other == 0 && bytes <= options.mapped_bytes;
}

namespace {

/// Whether every firing that touches buffer `b` does so through a port declared `mappable`: its
/// kernels touch each byte once, so mapped host memory costs them no more than device memory
/// (bench/mapped/touch.cu on an H200: atomics or re-reads in mapped memory cost 3.9 to 121 times
/// a copy).
bool touched_once(const ir::Program& program, const ir::IgBuffer& b) {
  auto mappable = [&](const ir::Access& a) {
    return a.kind != ir::Access::Kind::firing || program.dfg.actor_of(a.id).ports[a.port].mappable;
  };
  return mappable(b.writer) && std::all_of(b.readers.begin(), b.readers.end(), mappable);
}

}  // namespace

/// A GPU's colour some member of which a transfer with a CPU of its host touches, and no member
/// any other transfer (between GPUs, or between hosts), of slots of at most mapped_bytes, whose
/// members only ports declared `mappable` touch.
std::vector<bool> mapped_colours(const ir::Program& program, const ir::IgStrategy& s,
                                 const PlanOptions& options) {
  const ir::ArchGraph& arch = program.arch;
  std::vector<std::uint32_t> with_cpu(s.colours.size(), 0), other(s.colours.size(), 0);
  std::vector<bool> once(s.colours.size(), true);
  for (const ir::IgBuffer& b : s.buffers)
    if (arch.pes[b.pe].kind == ir::PeKind::gpu && !touched_once(program, b)) once[b.colour] = false;
  for (const ir::IgTransfer& t : s.transfers) {
    const bool cpu_gpu = between_cpu_and_gpu(arch, t.from_pe, t.to_pe);
    for (ir::BufferId b : {t.from, t.to}) {
      const ir::ColourId c = s.buffers[b].colour;
      if (arch.pes[s.colours[c].pe].kind != ir::PeKind::gpu) continue;
      ++(cpu_gpu ? with_cpu : other)[c];
    }
  }
  std::vector<bool> mapped(s.colours.size(), false);
  for (ir::ColourId c = 0; c < s.colours.size(); ++c)
    mapped[c] = once[c] && mapped_colour(s.colours[c].bytes, with_cpu[c], other[c], options);
  return mapped;
}

bool is_mapped(const ir::Program& program, const ir::IgStrategy& s, const std::vector<bool>& mapped,
               const ir::IgTransfer& t) {
  if (!between_cpu_and_gpu(program.arch, t.from_pe, t.to_pe)) return false;
  const bool to_gpu = program.arch.pes[t.to_pe].kind == ir::PeKind::gpu;
  return mapped[s.buffers[to_gpu ? t.to : t.from].colour];
}

ir::PerStrategy<std::vector<int>> net_tags(const ir::Program& program, const ir::Ig& ig) {
  ir::PerStrategy<std::vector<int>> tags;
  int next = 0;
  for (ir::Strategy strategy : ir::kStrategies) {
    const ir::IgStrategy& s = ig[strategy];
    tags[strategy].assign(s.transfers.size(), -1);
    // schedule.txt lists a transfer under its source PE, by (source, destination) name.
    std::vector<ir::TransferId> order;
    for (ir::TransferId t = 0; t < s.transfers.size(); ++t)
      if (is_net(program, s.transfers[t])) order.push_back(t);
    auto key = [&](ir::TransferId t) {
      const ir::IgTransfer& x = s.transfers[t];
      return std::tie(x.from_pe, s.buffers[x.from].name, s.buffers[x.to].name);
    };
    std::sort(order.begin(), order.end(),
              [&](ir::TransferId a, ir::TransferId b) { return key(a) < key(b); });
    for (ir::TransferId t : order) tags[strategy][t] = next++;
  }
  return tags;
}

StreamKind stream_of(const ir::Program& program, const ir::IgTransfer& t) {
  bool from_gpu = program.arch.pes[t.from_pe].kind == ir::PeKind::gpu;
  bool to_gpu = program.arch.pes[t.to_pe].kind == ir::PeKind::gpu;
  if (from_gpu && to_gpu) return StreamKind::peer;
  return to_gpu ? StreamKind::h2d : StreamKind::d2h;
}

}  // namespace dfgc
