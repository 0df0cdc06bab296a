/// \file
/// Transfer classification for the host plan: which PE launches or runs a transfer, on which CUDA
/// stream, whether it goes between hosts (an MPI message, with its tag from net_tags(); every tag
/// of the program: plan_detail::program_tags()) or over a gpudirect link, and whether it touches a
/// GPU's colour in mapped host memory (mapped tokens, plan.hpp's file comment). plan_host()
/// and dfgc map's quick model ask it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ig.hpp"

namespace dfgc {

struct PlanOptions;

enum class StreamKind : std::uint8_t { compute, h2d, d2h, peer };
/// "compute", "h2d", "d2h", "peer".
std::string_view to_string(StreamKind s);

/// Whether `t` goes between two hosts (a net or gpudirect link): an MPI message.
bool is_net(const ir::Program& program, const ir::IgTransfer& t);
/// Whether `t` goes over a gpudirect link: an MPI message between two GPUs' buffers.
bool is_gpudirect(const ir::Program& program, const ir::IgTransfer& t);
/// The PE that runs one end of a host-to-host transfer: the CPU of `end`'s host.
ir::PeId net_runner(const ir::Program& program, ir::PeId end);

/// Whether a transfer from `from` to `to` goes between a CPU and a GPU of one host: the only
/// transfers a mapped colour's members may have (mapped tokens, the file comment).
bool between_cpu_and_gpu(const ir::ArchGraph& arch, ir::PeId from, ir::PeId to);
/// Whether a GPU's colour of `bytes` a slot (at the defaults of the runtime params) is mapped:
/// transfers between the GPU and a CPU of its host touch its members `with_cpu` times, other
/// transfers `other` times. dfgc map's quick model asks it of one buffer (quick_model.hpp).
bool mapped_colour(std::int64_t bytes, std::uint32_t with_cpu, std::uint32_t other,
                   const PlanOptions& options);
/// Per colour of `s`: whether it lives in mapped host memory (PlanColour::mapped).
std::vector<bool> mapped_colours(const ir::Program& program, const ir::IgStrategy& s,
                                 const PlanOptions& options);
/// Whether `t` goes between a CPU and a GPU's mapped colour (`mapped`: mapped_colours()): a host
/// copy of its CPU end (Entry::Transfer::mapped), no copy call of the GPU.
bool is_mapped(const ir::Program& program, const ir::IgStrategy& s, const std::vector<bool>& mapped,
               const ir::IgTransfer& t);

/// The MPI tag of every host-to-host transfer, per strategy and TransferId (-1 for the others):
/// numbered 0, 1, ... in schedule.txt order, the overlap strategy first, then no-overlap (a tag
/// is unique in the program).
ir::PerStrategy<std::vector<int>> net_tags(const ir::Program& program, const ir::Ig& ig);

/// The PE whose thread launches a transfer within a host.
ir::PeId launcher(const ir::Program& program, const ir::IgTransfer& t);
StreamKind stream_of(const ir::Program& program, const ir::IgTransfer& t);

}  // namespace dfgc
