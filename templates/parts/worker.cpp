Sections of the workers of rank_<host>.cpp (compiler/codegen/worker.cpp):
the pieces a printer repeats or chooses, by name. A line `@@ name` begins a section; the
newline before the next `@@` line or the file's end is not part of it (codegen/templates.hpp).

@@ worker_arg_bounded_in
$view$.bounded<const $elem$>($slot$, elements_$type$(run_.params), "$port$")
@@ worker_arg_bounded_out
$view$.bounded<$elem$>($slot$, elements_$type$(run_.params), "$port$")
@@ worker_arg_in
$view$.as<const $elem$>($slot$)
@@ worker_arg_initial
j < $d$ ? $m$.slot_as<const $elem$>(static_cast<std::size_t>(j)) : $arg$
@@ worker_arg_out
$view$.as<$elem$>($slot$)
@@ worker_arg_part
$m$.part($port$, k, $arg$)
@@ worker_arg_group
dfg::Ports<$const$$elem$>({$args$})
@@ worker_at
$view$.at($slot$)
@@ worker_base_cpu
dfg::CpuWorker<Run, $storage$>
@@ worker_base_gpu
dfg::GpuWorker<Run>
@@ worker_by_strategy
if (run.overlap) {
  $overlap$
} else {
  $no_overlap$
}

@@ worker_bytes
bytes_$type$(params)
@@ worker_checkpoint_keep
run_.checkpoints.keep($t$, j, $arg$);  // a checkpoint keeps it

@@ worker_checkpoint_keep_gpu
dfg::keep_on_device(run_.checkpoints, $t$, j, $arg$, $m$.ctx.stream());  // a checkpoint keeps it

@@ worker_checkpoint_restore
run_.checkpoints.restore($i$, $m$.actor, j);  // a restart: its state

@@ worker_checkpoint_save
run_.checkpoints.save($i$, $m$.actor, j);  // for a checkpoint

@@ worker_class
/// $pe$: $what$.
class $cls$ final : public $base$ {
 public:
  $ctor$;

 private:
  $loops$
$members$};


@@ worker_colour
storage_.emplace_back($dev$"$name$", $bytes$, $slots$$mapped$$lengths$);  // colour $index$

@@ worker_copy
// $comment$
items.copy($entry$, $stream$, $dst$, $src$);

@@ worker_copy_peer
// $comment$
items.copy_peer($entry$, $stream$, $dst$, $dst_device$, $src$, $src_device$);

@@ worker_ctor
$cls$::$cls$(Run& run$mpi$) : $init$ {
  $body$
}


@@ worker_ctor_decl
explicit $cls$(Run& run)
@@ worker_ctor_decl_mpi
$cls$(Run& run, dfg::mpi::Session& mpi)
@@ worker_ctor_mpi
, dfg::mpi::Session& mpi
@@ worker_ctx
$m$.ctx
@@ worker_delay_copy_cpu
std::memcpy($dst$, $src$, bytes_$type$(run_.params));

@@ worker_delay_copy_gpu
dfg::copy_async($dst$, $src$, bytes_$type$(run_.params), compute_, "cudaMemcpyAsync");
@@ worker_delay_copy_bounded_cpu
dfg::copy_token($dst$, $src$, bytes_$type$(run_.params));
@@ worker_delay_copy_bounded_gpu
dfg::copy_token_async($dst$, $src$, bytes_$type$(run_.params), compute_);

@@ worker_depth
, depth $depth$
@@ worker_dev
$d$, 
@@ worker_device_guard
dfg::DeviceGuard device($d$);

@@ worker_elements
elements_$type$(params)
@@ worker_end_cycle_rank_peer
if (run_.barrier_sync) run_.end_phase();  // while the CPU worker meets the other ranks

@@ worker_end_cycle_ranks
if (run_.barrier_sync) {  // the ranks' barrier, between two of this rank's cycles
  ranks_.arrive_and_wait();
  run_.end_phase();
}

@@ worker_end_phase
run_.end_phase();  // the end of transfer step $phase$

@@ worker_endpoint
// $dir$ host $peer$, tag $tag$$memory$
$m$.emplace(mpi, mpi.rank_of_host($host$), $tag$, $bytes$, "$name$");

@@ worker_endpoint_attach
$g$.attach(*$m$);

@@ worker_endpoint_gpudirect_note
, $dir$ the memory of $pe$ (gpudirect)
@@ worker_endpoint_member
std::optional<dfg::mpi::$type$> $m$;

@@ worker_entry
$ns$::$entry$
@@ worker_fire
$m$.at($j$);
$m$.actor.fire($args$);

@@ worker_fire_context
$m$.fire($j$, $args$);

@@ worker_fire_part
$m$.at($j$, k);
$m$.actor.fire($args$);

@@ worker_fire_part_context
$m$.fire_part($j$, k, $args$);

@@ worker_fire_parts
for (std::uint32_t k = 0; k < $q$; ++k) {  // $q$ firings, a call each
  $call$
}

@@ worker_gpu_mapped_comment
// Its mapped colours: a cycle is released to the cpus once finished, kernels included.

@@ worker_gpu_order
{$stream$, $after$, $cycles$}
@@ worker_gpu_order_comment
//   $stream$ in cycle c after $after$ in cycle c - $cycles$ ($colour$)

@@ worker_finish
void $cls$::finish_nodes(dfg::Where& where) {
  $calls$
}


@@ worker_finish_call
where.at("$label$", -1);
$m$.finish($last$);

@@ worker_finish_decl

void finish_nodes(dfg::Where& where) override;  // after a run that completed: the nodes' finish()
@@ worker_gpu_graphs
// Each cycle a CUDA graph, captured once per phase of the slots and relaunched.
items.graphs($phases$);  // the slots repeat every $phases$ cycles
@@ worker_gpu_graph_cycles
// Each cycle a CUDA graph, captured once per phase of the slots and relaunched; no other PE
// waits for this GPU's cycles, so that one graph holds $cycles$ of them in a row where all its
// items run (--graph-cycles).
items.graphs($phases$, $cycles$);  // the slots repeat every $phases$ cycles
@@ worker_gpu_graphs_initial
// Each cycle a CUDA graph, captured once per phase of the slots and relaunched, but for
// the first cycles of a node that reads initial tokens, enqueued call by call:
$initial$items.graphs($phases$, $cycles$, {$reads$});  // the slots repeat every $phases$ cycles
@@ worker_gpu_graph_initial_comment
//   $why$ in its first $cycles$

@@ worker_gpu_graph_initial
{$entry$, $cycles$}
@@ worker_gpu_no_graphs
// Each cycle enqueued call by call, not as a CUDA graph: $why$.
@@ worker_gpu_release_cycle
, dfg::Release::cycle
@@ worker_gpudirect_member
dfg::mpi::GpuDirect $m$;  // $pe$'s end of the gpudirect transfers: device memory or staged

@@ worker_init_call
$m$.actor.init($ctx$);

@@ worker_init_cpu
CpuWorker(run)
@@ worker_init_gpu
GpuWorker(run, kPe_$pe$, $device$, {$tracks$})
@@ worker_init_gpudirect
$m$(mpi, $device$, "$pe$")
@@ worker_init_net
net_(run.probes, $capacity$)
@@ worker_init_ranks
ranks_(mpi)
@@ worker_initial_alloc
$m$ = dfg::$type$($dev$"$name$", bytes_$t$(params), $d$);

@@ worker_initial_fill
dfg::fill_initial_tokens<$elem$>($m$, elements_$t$(params), static_cast<$elem$>($value$));

@@ worker_initial_fill_with
dfg::fill_initial_tokens_with<$elem$>($m$, elements_$t$(params), [&](std::size_t j, $elem$* token, std::size_t elements) {
  $node$.actor.$fn$(j, token, elements);
});

@@ worker_initial_restart
dfg::restore_initial_tokens(run.checkpoints, $t$, $m$);  // a restart: the kept ones

@@ worker_initial_member
dfg::$type$ $m$;  // the initial tokens of input $port$ ($d$)

@@ worker_initial_name
$node$.$port$ initial tokens
@@ worker_item
// $comment$
$head$
  $body$
});

@@ worker_item_head
items.$how$($entry$, $stream$[&]$j$ {
@@ worker_item_j
(std::int64_t j)
@@ worker_item_stream
$stream$, 
@@ worker_items_cpu
dfg::Items items(run_, where, kPe_$pe$);

@@ worker_items_gpu
dfg::GpuItems items(run_, where, kPe_$pe$, probes_);

@@ worker_items_gpu_cycles
// The cycles run ahead of this thread, each stream waiting on the GPU for the
// other streams' cycles whose slots it reuses:
$comments$$mapped$dfg::GpuItems items(run_, where, kPe_$pe$, probes_, {$streams$}, {$orders$}$release$);
$graphs$

@@ worker_label_link
$label$ ($link$)
@@ worker_label_mapped
$label$ ($link$, mapped: copied on the host)
@@ worker_loop
void $cls$::$fn$(dfg::Where& where) {
  $items$
  items.cycles([&](std::int64_t$c$) {
    $steps$
  });
}


@@ worker_loop_between
void $cls$::$fn$(dfg::Where& where) {
  $items$
  items.cycles(
      [&](std::int64_t$c$) {
        $steps$
      },
      [&] {
        $between$
      });
}


@@ worker_loop_idle
void $cls$::$fn$(dfg::Where& where) {
  $items$
  items.cycles([](std::int64_t) {});
}


@@ worker_loop_decl_shared
void cycles(dfg::Where& where) override;  // both strategies: the same steps
@@ worker_loop_decls
void cycles_overlap(dfg::Where& where) override;
void cycles_no_overlap(dfg::Where& where) override;
@@ worker_mapped
, dfg::kMapped
@@ worker_mapped_copy
dfg::copy_token($dst$, $src$, bytes_$type$(run_.params));

@@ worker_max
std::max({$calls$})
@@ worker_net_comment
// host-to-host transfers (MPI) of the chosen strategy, built by the constructor

@@ worker_net_complete
where.clear();
net_.wait();

@@ worker_net_complete_overlap
where.clear();
net_.wait();  // this cycle's host-to-host transfers

@@ worker_net_label_recv
$label$ ($link$: receive from host $peer$, tag $tag$)
@@ worker_net_label_send
$label$ ($link$: send to host $peer$, tag $tag$)
@@ worker_net_member
dfg::mpi::CycleTransfers net_;  // the ones in flight in a cycle

@@ worker_net_poll
net_.poll();  // progress the host-to-host transfers

@@ worker_net_start
net_.start(*$m$, $entry$, j, $at$);

@@ worker_no_node
no node; its storage and transfers
@@ worker_node_actor
$name$ ($actor$)
@@ worker_node_label_alternative
$name$, migration $alternative$'s instance
@@ worker_node_member
dfg::Node<::$cls$, $ports$> $m$;  // node $label$ ($actor$)

@@ worker_nodes
nodes $nodes$
@@ worker_order_only
// $comment$: order only, its ring is in mapped memory (no copy)


@@ worker_param
$m$.actor.$param$ = $value$;

@@ worker_params
const Params& params = run.params;

@@ worker_peer_access
if (dfg::can_access_peer($d$, $s$)) dfg::enable_peer_access($d$, $s$);  // else staged by the driver

@@ worker_publish
run.publish(kPe_$pe$, storage_, run.memory.$pe$);

@@ worker_ranks_member
dfg::mpi::RankBarrier ranks_;  // --sync=barrier: all ranks end each cycle together

@@ worker_report_gpudirect
dfg::mpi::report_gpudirect_path(mpi, std::cerr);  // which path the gpudirect transfers take

@@ worker_restore
if (items.resumes($entry$, j)) run_.handoffs[$h$].restore($state$, j);

@@ worker_save
if (items.suspends($entry$, j)) run_.handoffs[$h$].save($state$, j + 1);

@@ worker_set_gpu
$m$.set_gpu(compute_, $d$);

@@ worker_name_ports
$m$.name_ports({$names$});

@@ worker_warm_up
$m$.warm_up($n$);  // ctx.warming_up() in its first $n$ firings

@@ worker_may_end
$m$.may_end(run.stream_end, "$label$"$copies$);  // ends stream: ctx.end_stream()

@@ worker_set_up
$m$.set_up(run.runtime_params, {$elements$});

@@ worker_set_up_block
$m$.set_up(run.runtime_params, {$elements$}, $q$, true$batch$);  // in one call

@@ worker_set_up_parts
$m$.set_up(run.runtime_params, {$elements$}, $q$, false$batch$);  // a call each

@@ worker_slot
dfg::slot(c, $lag$, $slots$)
@@ worker_slots_by_strategy
run.overlap ? $overlap$ : $no_overlap$
@@ worker_stream
$kind$_
@@ worker_token
$view$.token($slot$)
@@ worker_track
kTrack_$pe$_$stream$
@@ worker_view
const dfg::SlotView& $id$ = run_.memory.$pe$[$i$];  // buffer $name$$depth$

@@ worker_wait
dfg::synchronize($streams$);

@@ worker_window
const $elem$* $local$ = $w$.window($j$, $arg$);

@@ worker_window_alloc
$m$ = dfg::$type$<$elem$>($dev$"$name$ window", elements_$block$(params), $history$ * elements_$token$(params), static_cast<$elem$>($value$));

@@ worker_window_gpu
const $elem$* $local$ = $w$.window($j$, $arg$, $m$.ctx.stream());

@@ worker_with_windows
dfg::with_windows($m$.actor, $windows$)
@@ worker_window_member
dfg::$type$<$elem$> $m$;  // input $port$'s window: $history$ of history

@@ worker_window_restore
run_.checkpoints.restore($i$, $w$, j);  // a restart: its history

@@ worker_window_save
run_.checkpoints.save($i$, $w$, j);  // a checkpoint: its history

@@ worker_with_lengths
, dfg::kWithLengths
