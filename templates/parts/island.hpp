Sections of the islands' headers and mapped rings (compiler/codegen/island.cpp):
the pieces a printer repeats or chooses, by name. A line `@@ name` begins a section; the
newline before the next `@@` line or the file's end is not part of it (codegen/templates.hpp).

@@ gpu_island_actor
$cls$ $ident$_;  // member $block$: node $name$ ($actor$)

@@ gpu_island_adapter
dfg::$adapter$<$elem$> port_$port$_;  // member $block$: $dir$ $port$, ring $fifo$

@@ gpu_island_adapter_step
port_$port$_.step()
@@ gpu_island_arg
$port$
@@ gpu_island_attach
s.port_$port$_.ring = kernel_.ring($fifo$_);

@@ gpu_island_begin
case $block$:
  port_$port$_.begin(t.$port$, $elements$);
  break;

@@ gpu_island_begin_counted_in
case $block$:
  port_$port$_.begin(t.$port$ + dfg::kCountedHeader<$elem$>, dfg::counted_length(t.$port$));
  break;

@@ gpu_island_begin_counted_out
case $block$:
  port_$port$_.begin(t.$port$, $elements$);
  break;

@@ gpu_island_block
"$label$"
@@ gpu_island_finish
case $block$:
  port_$port$_.finish(r);
  break;

@@ gpu_island_fire
case $block$:  // node $name$: $counts$ elements a firing
  return dfg::block_fire_parallel(
             threads, [this](std::size_t, auto... window) { $ident$_.fire(window...); },
             $ports$) != 0;

@@ gpu_island_fire_port
dfg::$port$<$elem$>{$fifo$_, $count$}
@@ gpu_island_init_call
s.$ident$_.init($ctx$);

@@ gpu_island_make
$ident$_ = dfg::GpuIslandRing<$elem$>("$island$: $edge$", $capacity$$initial$);
s.$ident$_ = kernel_.ring($ident$_);

@@ gpu_island_make_mapped
s.$ident$_ = dfg::device_ring(dfg_mapped::$ring$());  // $edge$: the mapped ring, zero-copy

@@ gpu_island_owner
dfg::GpuIslandRing<$elem$> $ident$_;  // $edge$

@@ gpu_island_parallel
case $block$:  // node $name$
  return true;

@@ gpu_island_param
s.$ident$_.$param$ = $value$;

@@ gpu_island_ring
dfg::DeviceRing<$elem$> $ident$_;  // $edge$: $capacity$ elements, $how$

@@ gpu_island_step
case $block$:
  return $call$;

@@ gpu_island_step_arg
dfg::$view$<$elem$>($fifo$_)
@@ gpu_island_step_call
$ident$_.step($args$)
@@ gpu_island_threads_batch
the largest batch of a parallel action ($batch$ firings) in warps of 32, at most $most$
@@ gpu_island_threads_step
every node steps, on thread 0 of its block
@@ gpu_island_token
$const$$elem$* $port$;

@@ gpu_island_who
node $name$ ($cls$) @ $pe$
@@ island_actor
$cls$ $ident$_;  // node $name$ ($actor$)

@@ island_add
island_.add($member$, "$label$");

@@ island_begin
port_$port$_.begin($port$);

@@ island_begin_bounded
port_$port$_.begin($port$.data(), $port$.capacity());

@@ island_begin_counted
port_$port$_.begin($port$ + dfg::kCountedHeader<$elem$>, $elements$);

@@ island_fifo
dfg::Fifo<$elem$> $ident$_{$capacity$$initial$};  // $edge$: $capacity$ elements, $how$

@@ island_fifo_mapped
dfg::Fifo<$elem$>& $ident$_ = dfg_mapped::$ring$().host();  // $edge$: the mapped ring $ring$, $capacity$ elements

@@ island_finish
port_$port$_.finish(island_.name(), j);

@@ island_finish_bounded
$port$.resize(port_$port$_.finish());

@@ island_finish_counted
dfg::set_counted_length($port$, port_$port$_.finish());

@@ island_finish_packed
$port$.resize(port_$port$_.finish(island_.name(), j));

@@ island_init

  void init(dfg::Context&$ctx$) {
    $calls$
  }

@@ island_init_call
$ident$_.init($ctx$);

@@ island_load
port_$port$_.load($port$, $elements$);

@@ island_load_bounded
port_$port$_.load($port$.data(), $port$.size());

@@ island_load_counted
port_$port$_.load($port$ + dfg::kCountedHeader<$elem$>, dfg::counted_length($port$));

@@ island_pack
dfg::Pack<$elem$> port_$port$_{$fifo$_, $elements$, "$port$"};  // output $port$ from $fifo$

@@ island_pack_bounded
dfg::PackBounded<$elem$> port_$port$_{$fifo$_, "$port$"};  // output $port$ from $fifo$, bounded

@@ island_pack_some
dfg::PackSome<$elem$> port_$port$_{$fifo$_};  // output $port$ from $fifo$, what it holds

@@ island_param
$ident$_.$param$ = $value$;

@@ island_param_in
const $elem$* $port$, 
@@ island_param_in_bounded
dfg::Bounded<const $elem$> $port$, 
@@ island_param_order_in
const $elem$* /* $port$: order only */, 
@@ island_param_order_out
$elem$* /* $port$: order only */, 
@@ island_param_out
$elem$* $port$, 
@@ island_param_out_bounded
dfg::Bounded<$elem$> $port$, 
@@ island_step_arg
dfg::$view$<$elem$>(island.$fifo$_)
@@ island_stepper
/// node $name$: its step on its rings.
struct Step_$name$ {
  $island$& island;
  bool step() { return island.$ident$_.step($args$); }
};
Step_$name$ step_$name$_{*this};

@@ island_batch_arg
dfg::$end$<$elem$>{island.$fifo$_, $count$}
@@ island_stepper_parallel
/// node $name$: its parallel action, up to $batch$ firings a step.
struct Step_$name$ {
  $island$& island;
  bool step() { return dfg::fire_batch($batch$, island.$ident$_, $args$) != 0; }
};
Step_$name$ step_$name$_{*this};

@@ island_unpack
dfg::Unpack<$elem$> port_$port$_{$fifo$_, "$port$"};  // input $port$ into $fifo$

@@ mapped_ring
/// $edge$: $from$ -> $to$, $capacity$ elements ($how$)
inline dfg::MappedRing<$elem$>& $ident$() {
  static dfg::MappedRing<$elem$> ring("$edge$", $capacity$$initial$);
  return ring;
}

