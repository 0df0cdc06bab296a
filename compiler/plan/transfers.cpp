// Transfer classification for the host plan (transfers.hpp).
#include "plan/transfers.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "plan/detail.hpp"
#include "plan/plan.hpp"
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

namespace plan_detail {

ProgramTags program_tags(const ir::Program& program, const ir::Ig& ig,
                         const std::vector<Migration>& alts) {
  ProgramTags out;
  out.base = net_tags(program, ig);
  const ir::PerStrategy<std::vector<int>>& tags = out.base;
  // The alternatives' MPI tags follow the base's and each other's: a tag is unique in the program.
  std::vector<ir::PerStrategy<std::vector<int>>>& alt_tags = out.alternatives;
  int next_tag = 0;
  for (ir::Strategy s : ir::kStrategies)
    for (int t : tags[s]) next_tag = std::max(next_tag, t + 1);
  for (const Migration& m : alts) {
    alt_tags.push_back(net_tags(m.program, m.ig));
    int most = next_tag;
    for (ir::Strategy s : ir::kStrategies)
      for (int& t : alt_tags.back()[s])
        if (t >= 0) {
          t += next_tag;
          most = std::max(most, t + 1);
        }
    next_tag = most;
  }
  // On several hosts, the tags of run-time migration follow: the ranks' agreement on a live
  // move, then the state of each alternative that moves its node between hosts.
  out.state.assign(alts.size(), -1);
  if (!alts.empty() && program.arch.hosts.size() > 1) {
    out.control = next_tag++;
    for (std::size_t a = 0; a < alts.size(); ++a)
      if (program.arch.pes[alts[a].from].host != program.arch.pes[alts[a].to].host)
        out.state[a] = next_tag++;
  }
  for (ir::Strategy s : ir::kStrategies)
    for (ir::TransferId t = 0; t < ig[s].transfers.size(); ++t)
      if (tags[s][t] >= 0) {
        const ir::IgTransfer& x = ig[s].transfers[t];
        out.net_transfers.push_back({tags[s][t], s, ig[s].buffers[x.from].name,
                                     ig[s].buffers[x.to].name, is_gpudirect(program, x)});
      }
  // The alternatives' transfers in the union: the new-only ones, or all of G1's when its delta
  // is not 0 (merge_alternative).
  for (std::size_t a = 0; a < alts.size(); ++a)
    for (ir::Strategy s : ir::kStrategies) {
      const Migration& m = alts[a];
      std::set<ir::TransferId> used;
      if (m.sides[s].delta != 0) {
        for (ir::TransferId t = 0; t < m.ig[s].transfers.size(); ++t) used.insert(t);
      } else {
        for (const MigrationEntry& e : m.sides[s].new_only)
          if (e.kind == MigrationEntry::Kind::transfer) used.insert(e.id);
      }
      for (ir::TransferId t : used)
        if (alt_tags[a][s][t] >= 0) {
          const ir::IgTransfer& x = m.ig[s].transfers[t];
          out.net_transfers.push_back({alt_tags[a][s][t], s, m.ig[s].buffers[x.from].name,
                                       m.ig[s].buffers[x.to].name, is_gpudirect(m.program, x),
                                       static_cast<int>(a)});
        }
    }
  std::sort(out.net_transfers.begin(), out.net_transfers.end(),
            [](const NetTransfer& a, const NetTransfer& b) { return a.tag < b.tag; });
  return out;
}

}  // namespace plan_detail

}  // namespace dfgc
