/// \file
/// The stages of a compilation, in order, and the hooks that see each one run (MLIR's
/// PassInstrumentation, Halide's LoweringLogger). The list exists here once: the driver's
/// pipeline (driver/pipeline.hpp) runs the front end, then these passes through run_passes(),
/// then code generation, each stage through run_stage(); the mapping search runs the passes
/// through run_passes() too. Timing (--time-passes) and dumps (--dump-after) are hooks on it.
///
/// Needs: a checked program (sema). Produces: each pass's typed result, up to the stage asked for.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "ir/ig.hpp"
#include "passes/buffer_depth.hpp"
#include "passes/color_buffers.hpp"
#include "passes/insert_buffers.hpp"
#include "passes/latency.hpp"
#include "passes/migrations.hpp"
#include "passes/resync_inputs.hpp"
#include "passes/schedule.hpp"
#include "plan/plan.hpp"

namespace dfgc {

/// Every stage, in the order a compilation runs them.
enum class Stage : std::uint8_t {
  parse,           ///< the spec and its imports -> syntax trees
  sema,            ///< the checked program (IR)
  schedule,        ///< passes: the order of firings
  insert_buffers,  ///< buffer nodes on every edge
  buffer_depth,    ///< their slots
  latency,         ///< each firing's first cycle
  resync_inputs,   ///< delay lines
  color_buffers,   ///< buffer sharing
  build_ig,        ///< the implementation graph (schedule.txt)
  migrations,      ///< each migration alternative's graph, set against it
  actors,          ///< the actor headers, read with Clang (the host plans hold what it finds)
  plan_entries,    ///< the host plans' entries and storage, per strategy (plan/plan.hpp)
  plan_steps,      ///< each PE's steps, a GPU's stream orders
  plan_islands,    ///< the islands and their mapped rings
  plan_handoffs,   ///< how each node is called, the state handoffs (the actors read)
  plan_names,      ///< the generated files' and members' names: the whole plan
  codegen,         ///< the project's files, in memory
  write,           ///< the project written into its directory
};

/// The stages' names, indexed by Stage: what --dump-after and --time-passes call them.
inline constexpr std::array<std::string_view, 18> kStageNames = {
    "parse",      "sema",          "schedule",      "insert_buffers", "buffer_depth",
    "latency",    "resync_inputs", "color_buffers", "build_ig",       "migrations",
    "actors",     "plan_entries",  "plan_steps",    "plan_islands",   "plan_handoffs",
    "plan_names", "codegen",       "write"};
static_assert(static_cast<std::size_t>(Stage::write) + 1 == kStageNames.size());

/// The plan's last stage: once it has run, the plan is whole (what code generation prints).
inline constexpr Stage kPlanned = Stage::plan_names;

std::string_view name(Stage stage);
/// The stage called `name`, if any.
std::optional<Stage> stage_named(std::string_view name);

/// Called around every stage a pipeline runs.
class PipelineHooks {
 public:
  virtual ~PipelineHooks() = default;
  virtual void before(Stage stage) = 0;
  /// `render` prints the stage's result; a hook calls it only when it wants that text.
  virtual void after(Stage stage, const std::function<std::string()>& render) = 0;
};

/// Runs one stage: `run()`, with the hooks around it when there are any (none: nothing but the
/// call). `render(result)` is the stage's dump.
template <typename Run, typename Render>
auto run_stage(PipelineHooks* hooks, Stage stage, Run&& run, Render&& render) {
  if (!hooks) return run();
  hooks->before(stage);
  auto result = run();
  hooks->after(stage, [&] { return render(result); });
  return result;
}

/// --time-passes and --dump-after: sums each stage's time over its runs, and prints the dump of
/// each chosen stage to `out` ("// after STAGE" then the dump) as soon as the stage has run.
class Instrumentation final : public PipelineHooks {
 public:
  struct Options {
    bool time = false;
    std::array<bool, kStageNames.size()> dump{};  ///< indexed by Stage
  };
  Instrumentation(Options options, std::ostream& out);

  /// This, or nullptr when neither timing nor dumping is on (the stages then run bare).
  PipelineHooks* hooks() { return on() ? this : nullptr; }
  /// Timing without dumps, for stages run many times over (the mapping search's passes);
  /// nullptr when not timing.
  PipelineHooks* timing_only() { return options_.time ? &timing_ : nullptr; }

  /// With --time-passes: one line per stage that ran, in pipeline order, with its total time
  /// and, when it ran more than once, how many times.
  void report() const;

  void before(Stage stage) override;
  void after(Stage stage, const std::function<std::string()>& render) override;

 private:
  bool on() const;

  class Timing final : public PipelineHooks {
   public:
    explicit Timing(Instrumentation& owner) : owner_(owner) {}
    void before(Stage stage) override { owner_.start(stage); }
    void after(Stage stage, const std::function<std::string()>&) override { owner_.stop(stage); }

   private:
    Instrumentation& owner_;
  };

  void start(Stage stage);
  void stop(Stage stage);

  using Clock = std::chrono::steady_clock;
  Options options_;
  std::ostream& out_;
  Timing timing_{*this};
  std::array<Clock::time_point, kStageNames.size()> started_{};
  std::array<Clock::duration, kStageNames.size()> total_{};
  std::array<std::uint64_t, kStageNames.size()> runs_{};
};

/// The passes' results, each set once its pass has run.
struct PassResults {
  std::optional<Schedule> order;
  std::optional<BufferPlan> plan;
  std::optional<BufferDepths> depths;
  std::optional<Latencies> latencies;
  std::optional<DelayLines> delays;
  std::optional<BufferColouring> colours;
  std::optional<ir::Ig> ig;
  std::optional<Migrations> migrations;
  std::optional<HostPlans> hosts;
  /// The last plan stage that has run on `hosts` (plan_entries to plan_names); none before.
  std::optional<Stage> planned;

  /// Whether a loop's initial tokens do not cover its latency, in the program or in one of its
  /// migration alternatives: the passes after it did not run (driver/pipeline.hpp reports it).
  bool uncovered() const;
};

/// The passes, schedule up to `last` (a pass: a stage from schedule to plan_names but actors),
/// each through run_stage() with `hooks`; `short_path` is the migrations pass's policy, `plan`
/// what the host plan decides beyond the program (its mapped tokens' threshold), `signatures` the
/// actor front end's findings, which the host plans copy (plan_handoffs()). They stop after a stage
/// whose result is uncovered().
PassResults run_passes(const ir::Program& program, Stage last, PipelineHooks* hooks = nullptr,
                       ShortPathPolicy short_path = ShortPathPolicy::pad,
                       const PlanOptions& plan = {}, const ActorSignatures* signatures = nullptr);
/// The same, resumed: the passes whose results `results` lacks, up to `last`. The pipeline runs
/// the passes to migrations, checks them and reads the actors, then goes on to the plan's stages.
void resume_passes(PassResults& results, const ir::Program& program, Stage last,
                   PipelineHooks* hooks = nullptr,
                   ShortPathPolicy short_path = ShortPathPolicy::pad, const PlanOptions& plan = {},
                   const ActorSignatures* signatures = nullptr);

/// schedule.txt: the implementation graph, then a section per migration alternative.
std::string render_schedule(const ir::Program& program, const PassResults& results);

/// The implementation graph: the passes up to build_ig.
ir::Ig run_passes(const ir::Program& program, PipelineHooks* hooks = nullptr);

}  // namespace dfgc
