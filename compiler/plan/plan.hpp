/// \file
/// The host plan: what each host's threads do, as data, before any code is printed. For each host
/// (one MPI rank of a program on several hosts) and each strategy: every firing, transfer and
/// delay copy as an entry with the processing element (PE) whose thread runs it, the CUDA stream
/// it goes on, the slots it reads and writes and, between hosts, its MPI tag; per PE its storage
/// (one allocation per colour), the buffers its thread touches, its neighbours and its steps (the
/// order its cycle runs in); per GPU its streams (a GPU of the host that runs nothing and holds
/// no storage is not in the plan: the program never selects its device). Code generation
/// (compiler/codegen/) prints it.
///
/// Who runs what: a firing and a delay copy run on their own PE (a GPU's on its compute stream);
/// a transfer within a host is launched by its GPU end: CPU -> GPU by the destination on its h2d
/// stream, GPU -> CPU by the source on its d2h stream, GPU -> GPU by the destination on its peer
/// stream. A host-to-host transfer (a net link between two CPUs, or a gpudirect link between two
/// GPUs) is an entry of both hosts' CPUs: the source host's sends it, the destination host's
/// receives it, through MPI, with the transfer's tag (net_tags()); over a gpudirect link from and
/// into the GPU's own buffer (device memory). Two PEs are neighbours when their threads touch a
/// common allocation (a colour): the owner of a colour and the launcher of every transfer that
/// reads or writes one of its members; a host-to-host transfer's end on a host is run by that
/// host's first CPU (a GPU and its CPU are neighbours through a gpudirect buffer; never across
/// hosts). The cpus of a host share its memory: a firing on one reads a buffer of another
/// directly, and its cpu is then a neighbour of the buffer's owner and of the launchers of the
/// transfers touching its colour (not of the other cpus that only read it).
///
/// A PE's steps, in the cycle model of latency.hpp:
///  - with overlap: its transfers (host-to-host sends, then receives, then the ones it launches
///    within its host, each group by destination name), its firings in schedule order, each
///    followed by its delay copies; the MPI transfers complete; the cycle ends (a GPU's cycle
///    ends on the GPU, its streams ordered by GpuCycles: its thread does not wait for it);
///  - without overlap: per transfer step, the step's transfers, the MPI ones completed, a wait for
///    the streams of the PE's transfers, the end of the phase (a PE without transfers only ends
///    the phases); then the firings with their delay copies, a GPU's wait, the end of the cycle.
/// Every host runs the whole program's cycles (the latency is the largest first cycle of any
/// host), so that the ranks' cycles correspond.
///
/// Mapped tokens: a GPU's colour whose slots are at most PlanOptions::mapped_bytes at the defaults
/// of the runtime params, and whose members no transfer touches but those between the GPU and a
/// CPU of its host, lives in mapped host memory (PlanColour::mapped): the GPU's kernels read and
/// write it through its device pointer. A transfer into or out of it (Entry::Transfer::mapped) is
/// no copy call of the GPU's but a std::memcpy of the CPU end's thread, a step of that CPU's cycle
/// (Step::Kind::mapped_copy); the CPU is then a neighbour of the GPU, which releases a cycle to
/// its CPUs only once it has finished, kernels included (GpuCycles::mapped). Small tokens so
/// save a GPU's cycle its tiny copies (each costs the GPU several us); large ones are copied, as
/// a kernel reading host memory goes at the link's speed on every access.
///
/// Migration alternatives (`migrates`, passes/migrations.hpp). With Migrations, each strategy's
/// plan is the union of the base graph G0 and every alternative G1: G0's entries first, as above,
/// then each alternative's new-only entries (all of G1's when its delta is not 0, every entry's
/// iteration moving), named `m<a>_<ident>`, their first cycles shifted by delta and their transfer
/// steps aligned on the union's last one; a PE's order keeps G1's order for G1's entries and G0's
/// for the old-only ones. A G1 buffer that keeps its G0 namesake's storage is that buffer; every
/// other one gets a colour of its own on its PE, after the base's colours: allocated at start-up,
/// never shared with storage the transition uses. The node's instance on the alternative's PE is
/// one more PlanNode of that PE, constructed and init()ed at start-up like the others. Per
/// alternative the plan lists the entries a switch at iteration j* stops (old-only: they run the
/// iterations before j*) and starts (new-only: from j* on, in cycle first_cycle + j); the
/// program runs G0 until a move reprograms those windows.
///
/// Needs: the Program, the Ig, and the Migrations when the program has alternatives. Produces:
/// HostPlans, one HostPlan per host in spec order.
#pragma once

#include <string>

#include "ir/actor_signature.hpp"
#include "ir/ig.hpp"
#include "plan/host_plan.hpp"

namespace dfgc {

/// The cycles of `gpu` in `sp` run ahead of its thread (with overlap): its streams, and their
/// orders derived from the lags of the slots its entries touch (StreamOrder).
GpuCycles gpu_cycles(const HostPlan& h, const StrategyPlan& sp, ir::PeId gpu);

struct Migrations;

/// The plan is made in stages, each a stage of the pipeline (stages/stages.hpp) with its dump, each
/// reading what the ones before it decided:
///  - plan_entries: the program's tables and MPI tags (ProgramPlan), then per host its nodes and,
///    per strategy, its entries, storage, views and neighbours, the union with every migration
///    alternative, its GPUs and their streams, and what both strategies give a PE alike;
///  - plan_steps: each PE's steps, and a GPU's stream orders with overlap (GpuCycles);
///  - plan_islands: the islands and the mapped rings between them;
///  - plan_handoffs: with the actors read, how each node is called and the state handoffs
///    (HostPlan::signed_nodes), which code generation needs;
///  - plan_names: the generated files' names and the workers' members, views and endpoints.
HostPlans plan_entries(const ir::Program& program, const ir::Ig& ig,
                       const Migrations* migrations = nullptr, const PlanOptions& options = {});
void plan_steps(HostPlans& plans);
void plan_islands(const ir::Program& program, HostPlans& plans);
void plan_handoffs(const ir::Program& program, const ActorSignatures* signatures, HostPlans& plans);
void plan_names(HostPlans& plans);

/// Every stage above, in order: plans every host of the program; with `migrations`, the union of
/// the base and every alternative; with `signatures` (the actors were read), how each node is
/// called and the state handoffs.
HostPlans plan_hosts(const ir::Program& program, const ir::Ig& ig,
                     const Migrations* migrations = nullptr, const PlanOptions& options = {},
                     const ActorSignatures* signatures = nullptr);

/// The plan, host by host, PE by PE, one item a line, by spec names only (`dfgc schedule
/// --emit=plan`; --dump-after=<a plan stage> prints what the stages so far decided).
std::string dump(const HostPlans& plans);

}  // namespace dfgc