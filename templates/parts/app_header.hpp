Sections of app.hpp (compiler/codegen/app_header.cpp):
the pieces a printer repeats or chooses, by name. A line `@@ name` begins a section; the
newline before the next `@@` line or the file's end is not part of it (codegen/templates.hpp).

@@ app_alternative_list
inline constexpr std::size_t k$what$$a$[] = {$names$};

@@ app_alternative_row
    {"$node$", "$from$", "$to$", $reversible$, $stop$, $start$$parts$$state$},  // delta $delta$

@@ app_alternative_state
, {}, $handoff$, $from_host$, $to_host$, $state_tag$
@@ app_alternatives
/// Per migration alternative (dfg/migration.hpp): node, base PE, PE, reversible, the entries a
/// switch at iteration j* stops (they run the iterations before j*) and starts (from j* on); a
/// joint one (several nodes' moves at once) then lists its parts.
$lists$inline constexpr std::array<dfg::Alternative, $n$> kAlternatives = {{
$rows$}};

@@ app_batch

/// The app's `batch`: each cycle runs $k$ iterations of the graph, so --iterations is a multiple
/// of $k$ and every node fires $k$ times its firings per iteration a cycle.
inline constexpr std::uint32_t kBatch = $k$;

@@ app_bytes
inline std::size_t bytes_$type$(const Params& params) {
  return elements_$type$(params) * $bytes$;
}


@@ app_checkpoint
/// What a checkpoint of host $host$ holds (--checkpoint, --restart; dfg/checkpoint.hpp): $what$.
inline constexpr std::array<const char*, $n_nodes$> kCheckpointNodes = {$nodes$};
inline constexpr std::array<dfg::CheckpointInput<Params>, $n_inputs$> kCheckpointInputs = $inputs$;
inline constexpr std::array<const char*, $n_unsaved$> kCheckpointUnsaved = {$unsaved$};
inline constexpr dfg::CheckpointTable<Params> kCheckpoint = {
    $app$, 0x$spec$ULL, 0x$mapping$ULL, kCheckpointNodes, kCheckpointInputs, kCheckpointUnsaved,
    $refused$};
@@ app_checkpoint_input
    {$name$, $delay$, bytes_$type$},
@@ app_control_tag

/// The MPI tag of the ranks' agreement on a live move (dfg/mpi/migration_link.hpp).
inline constexpr int kControlTag = $tag$;
@@ app_entry_info
    {"$kind$", "$name$", "$where$", $track$, $first_cycle$, $bytes$, $profile$, $at$, $step$, $firings$},

@@ app_entry_name
  $ident$,  // $label$

@@ app_factory
std::unique_ptr<Worker> make_$pe$(Run& run);  // the worker of GPU $name$ ($file$)

@@ app_max
constexpr std::int64_t max(std::int64_t a, std::int64_t b) { return a < b ? b : a; }

@@ app_memory
std::array<dfg::SlotView, $n$> $pe$;

@@ app_min
constexpr std::int64_t min(std::int64_t a, std::int64_t b) { return a < b ? a : b; }

@@ app_neighbour_list
{$items$}
@@ app_param_bounds
, $min$, $max$
@@ app_param_constant
inline constexpr ::std::int64_t $name$_ = $value$;

@@ app_param_field
  ::std::int64_t $name$_ = $value$;

@@ app_param_row
    {"$name$", $value$$bounds$},

@@ app_param_value
values[$i$]
@@ app_params_fixed
// The params of the spec, fixed when dfgc ran (dfgc compile -D NAME=VALUE).
namespace param {
$constants$}  // namespace param


@@ app_params_none
/// The runtime params (--set NAME=VALUE, --params FILE): this app has none.
inline constexpr std::array<dfg::RuntimeParam, 0> kRuntimeParams = {};
struct Params {};
inline Params params_of(const std::vector<std::int64_t>&) { return Params{}; }
@@ app_params_runtime
/// The runtime params, with their defaults (and bounds): set with --set NAME=VALUE or
/// --params FILE when the program starts; every size that depends on them is computed then.
inline constexpr std::array<dfg::RuntimeParam, $n$> kRuntimeParams = {{
$table$}};
struct Params {
$fields$};
/// The values parse_flags returns, in the order of kRuntimeParams.
inline Params params_of(const std::vector<std::int64_t>& values) { return Params{$values$}; }
@@ app_size_check
    {"$type$", "$elem$[$count$]", "$names$", $bytes$, count_$type$},

@@ app_size_fixed
/// $type$ = $elem$[$count$]: elements and bytes per token.
inline std::size_t elements_$type$(const Params&) { return $cxx$; }

@@ app_size_runtime
/// $type$ = $elem$[$count$]: elements and bytes per token, computed from the runtime params
/// (and checked when the program starts: kRuntimeSizes).
inline dfg::Size count_$type$(const Params& params) {
  return $cxx$;
}
inline std::size_t elements_$type$(const Params& params) {
  return static_cast<std::size_t>(count_$type$(params).value());
}

@@ app_sizes_none
/// The token sizes that depend on runtime params (dfg::token_size_error): none.
inline constexpr std::array<dfg::TokenSize<Params>, 0> kRuntimeSizes = {};
@@ app_sizes_runtime
/// The token sizes that depend on runtime params: main refuses to start when one is not
/// positive or overflows at the values given (dfg::token_size_error).
inline constexpr std::array<dfg::TokenSize<Params>, $n$> kRuntimeSizes = {{
$checks$}};
@@ app_state_handoffs


/// The nodes handed over when they move (dfg::StateHandoff: their state where they have
/// save/restore; on one host, the first firing of the new instance after the last of the old): $names$.
inline constexpr std::size_t kStateHandoffs = $n$;
@@ app_strategy_close

}  // namespace $ns$
@@ app_strategy_entries
inline constexpr std::array<EntryInfo, $n$> kEntries = {{
$infos$}};
/// The last first cycle: a run has iterations + kLatency cycles.
inline constexpr std::int64_t kLatency = $latency$;

@@ app_strategy_enum
/// The firings, transfers and delay copies, in the order the threads run them.
enum Entry : std::size_t {
$names$};

@@ app_strategy_neighbours
/// Per PE, the PEs it shares memory with: the owner of a colour and the launchers of
/// the transfers that touch it. --sync=neighbours waits for these only.
inline std::vector<std::vector<int>> neighbours() {
  return {
      $lists$
  };
}

@@ app_strategy_open
/// $doc$
namespace $ns$ {


@@ app_strategy_shared_enum
using enum overlap::Entry;  // the same entries, in the same order

@@ expr_binary
$a$ $op$ $b$
@@ expr_call
$fn$($a$, $b$)
@@ expr_fixed_param
param::$name$_
@@ expr_negate
-$a$
@@ expr_parens
($a$)
@@ expr_runtime_param
dfg::Size(params.$name$_)
