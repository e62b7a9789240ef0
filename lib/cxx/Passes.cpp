//===- Passes.cpp - opsched pass classes: options, then forward to C ------===//
//
// The passes are op-agnostic: on a function they schedule it; on anything
// else (the module, in the flag form) they schedule every function inside,
// in parallel when threading is on. Outputs (dot, table, summary, trace,
// report) are opened before scheduling and written in IR order at the end;
// in the nested form (func.func(op-schedule{...})) the functions' outputs
// are collected across the pass's parallel clones and written by the last
// function of the module to finish.
//
//===----------------------------------------------------------------------===//

#include "opsched/Passes.h"

#include "Functions.h"
#include "PassConfig.h"
#include "PassTable.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;
using opsched::PassId;
using opsched::detail::FunctionRun;
using opsched::detail::OutputFiles;
using opsched::detail::PassConfig;
using opsched::detail::PhaseHooks;

namespace {

/// The driver's phases as nested timers under the pass (--mlir-timing):
/// MLIR's pass timing nests analysis timers under the running pass, and a
/// pass reaches the instrumentor only through its analysis manager.
struct PhaseTimers {
  PassInstrumentor *instrumentor;
  Operation *op;
  static void callback(void *user, opsched_run_phase phase, int begin) {
    static const char *const names[OPSCHED_PHASE_COUNT] = {
        "opsched: plan",   "opsched: attributes", "opsched: reports",
        "opsched: output files", "opsched: graph",
        "opsched: schedule (order, memory, streams)", "opsched: arena"};
    static const char ids[OPSCHED_PHASE_COUNT] = {0};
    auto *t = static_cast<PhaseTimers *>(user);
    TypeID id = TypeID::getFromOpaquePointer(&ids[phase]);
    if (begin)
      t->instrumentor->runBeforeAnalysis(names[phase], id, t->op);
    else
      t->instrumentor->runAfterAnalysis(names[phase], id, t->op);
  }
};

/// Writes the output files under the `opsched: output files` timer: with a
/// large report this is a good part of the pass.
LogicalResult writeTimed(OutputFiles &files, ArrayRef<const FunctionRun *> runs, Operation *at,
                         StringRef who, const PhaseHooks &hooks) {
  if (hooks.callback)
    hooks.callback(hooks.user, OPSCHED_PHASE_FILES, 1);
  LogicalResult result = files.write(runs, at, who);
  if (hooks.callback)
    hooks.callback(hooks.user, OPSCHED_PHASE_FILES, 0);
  return result;
}

/// Collects one run's function outputs in the nested form, where the pass
/// manager runs a clone of the pass per function, possibly in parallel.
class RunCollector {
public:
  /// Registers `func`'s run; the first function of a module's run opens the
  /// files. Fails (an error emitted once) when they cannot be opened.
  LogicalResult begin(Operation *func, const PassConfig &config, StringRef who,
                      size_t &index) {
    std::lock_guard<std::mutex> lock(mutex);
    Operation *p = func->getParentOp();
    auto it = p == parent ? position.find(func) : position.end();
    if (it == position.end() || runs[it->second].has_value())
      reset(func, config, who);
    index = position.lookup(func);
    return failure(filesFailed);
  }

  /// Records `run`; the last function of the module writes every output in
  /// IR order.
  LogicalResult finish(size_t index, FunctionRun run, StringRef who, const PhaseHooks &hooks) {
    std::lock_guard<std::mutex> lock(mutex);
    anyFailed |= !run.succeeded;
    runs[index].emplace(std::move(run));
    if (++done < runs.size())
      return success();
    LogicalResult result = success();
    if (!anyFailed && !filesFailed) {
      std::vector<const FunctionRun *> list;
      for (const std::optional<FunctionRun> &r : runs)
        list.push_back(&*r);
      result = writeTimed(*files, list, parent, who, hooks);
    }
    clear();
    return result;
  }

private:
  std::mutex mutex;
  Operation *parent = nullptr;
  llvm::DenseMap<Operation *, size_t> position;
  std::vector<std::optional<FunctionRun>> runs;
  size_t done = 0;
  bool anyFailed = false, filesFailed = false;
  std::unique_ptr<OutputFiles> files;

  void clear() {
    parent = nullptr;
    position.clear();
    runs.clear();
    done = 0;
    anyFailed = filesFailed = false;
    files.reset();
  }

  /// A new run over the functions beside `func` (its parent's children with
  /// its op name: the ones the nested pipeline visits).
  void reset(Operation *func, const PassConfig &config, StringRef who) {
    clear();
    parent = func->getParentOp();
    for (Region &region : parent->getRegions())
      for (Block &block : region)
        for (Operation &op : block)
          if (op.getName() == func->getName())
            position.try_emplace(&op, position.size());
    runs.resize(position.size());
    files = std::make_unique<OutputFiles>();
    filesFailed = failed(files->open(config, parent, who));
  }
};

template <typename Derived>
struct OpSchedPassBase : public PassWrapper<Derived, OperationPass<>> {
  using Base = PassWrapper<Derived, OperationPass<>>;
  OpSchedPassBase() = default;
  OpSchedPassBase(const OpSchedPassBase &other)
      : Base(other), config(other.config), collector(other.collector) {}

  StringRef getName() const override { return opsched::passName(Derived::kId); }
  StringRef getArgument() const override { return opsched::passArgument(Derived::kId); }

  PassConfig config;
  /// Shared by the clones the pass manager makes of this pass.
  std::shared_ptr<RunCollector> collector = std::make_shared<RunCollector>();

  /// Parses every option through the C validators; a bad value is an error
  /// naming the option and its accepted values.
  LogicalResult parseConfig(MLIRContext *ctx) {
    config = PassConfig();
    opsched_options_init(&config.options);
    char err[512] = "";
    if (static_cast<Derived *>(this)->fillConfig(err, sizeof err))
      return emitError(UnknownLoc::get(ctx)) << getArgument() << ": " << err;
    return success();
  }

  LogicalResult initialize(MLIRContext *ctx) override { return parseConfig(ctx); }

  /// cost-model and device, for the passes that compute durations.
  int fillCost(const std::string &costModel, const std::string &device, char *err,
               size_t n) {
    return opsched_options_set_cost_model(&config.options, costModel.c_str(), err, n) ||
           opsched_options_set_device(&config.options, device.c_str(), err, n);
  }

  void runOnOperation() override {
    Operation *root = this->getOperation();
    PhaseTimers timers{this->getAnalysisManager().getPassInstrumentor(), root};
    PhaseHooks hooks;
    if (timers.instrumentor)
      hooks = {&PhaseTimers::callback, &timers};
    if (config.wantsFiles() && isa<FunctionOpInterface>(root) && root->getParentOp())
      return runNested(root, hooks);

    SmallVector<Operation *> funcs = opsched::collectFunctions(root);
    OutputFiles files;
    if (config.wantsFiles() && failed(files.open(config, root, getArgument())))
      return this->signalPassFailure();
    std::vector<FunctionRun> runs(funcs.size());
    auto runOne = [&](size_t i) {
      opsched::detail::runFunction(funcs[i], config, i, hooks, runs[i]);
      return success(runs[i].succeeded);
    };
    LogicalResult result = success();
    if (funcs.size() == 1) {
      result = runOne(0);
    } else {
      // Like the pass manager: diagnostics are ordered by function, not by
      // whichever thread finishes first.
      MLIRContext *ctx = &this->getContext();
      ParallelDiagnosticHandler handler(ctx);
      result = failableParallelForEachN(ctx, 0, funcs.size(), [&](size_t i) {
        handler.setOrderIDForThread(i);
        LogicalResult r = runOne(i);
        handler.eraseOrderIDForThread();
        return r;
      });
    }
    if (failed(result))
      return this->signalPassFailure();
    if (!config.wantsFiles())
      return;
    std::vector<const FunctionRun *> list;
    for (const FunctionRun &r : runs)
      list.push_back(&r);
    if (failed(writeTimed(files, list, root, getArgument(), hooks)))
      this->signalPassFailure();
  }

  void runNested(Operation *func, const PhaseHooks &hooks) {
    size_t index = 0;
    bool ok = succeeded(collector->begin(func, config, getArgument(), index));
    FunctionRun run;
    if (ok)
      opsched::detail::runFunction(func, config, index, hooks, run);
    ok &= run.succeeded;
    if (failed(collector->finish(index, std::move(run), getArgument(), hooks)) || !ok)
      this->signalPassFailure();
  }
};

// The options of the passes that compute durations (op-schedule,
// op-dep-graph), declared per pass so that --help lists under each pass only
// what it uses. A macro: Pass::Option members must live in the pass class.
#define OPSCHED_COST_OPTIONS                                                              \
  Option<std::string> costModel{                                                          \
      *this, "cost-model",                                                                \
      llvm::cl::desc("Op durations: roofline (from shapes) or unit (every op costs 1)"),  \
      llvm::cl::init("roofline")};                                                        \
  Option<std::string> device{                                                             \
      *this, "device",                                                                    \
      llvm::cl::desc("Device profile of the roofline: generic, h100, a100, cpu"),         \
      llvm::cl::init("generic")};                                                         \
  Option<std::string> dot{                                                                \
      *this, "dot",                                                                       \
      llvm::cl::desc("Write the dependency graph in Graphviz to this file ('-' = stderr)"), \
      llvm::cl::init("")}

struct OpSchedulePass : public OpSchedPassBase<OpSchedulePass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OpSchedulePass)
  static constexpr PassId kId = PassId::OpSchedulePass;
  StringRef getDescription() const override {
    return "Reorder each block by critical-path list scheduling and annotate the schedule";
  }
  OpSchedulePass() = default;
  OpSchedulePass(const OpSchedulePass &other) : OpSchedPassBase(other) {}

  OPSCHED_COST_OPTIONS;

  Option<std::string> priority{
      *this, "priority",
      llvm::cl::desc("Ready-queue priority: critical-path (upward rank) or program-order (FIFO)"),
      llvm::cl::init("critical-path")};
  Option<int64_t> streams{*this, "streams", llvm::cl::desc("Parallel streams (>= 1; a schedule opens at most 256, with a warning when more would be used)"),
                          llvm::cl::init(1)};
  Option<int64_t> resourceLimit{
      *this, "resource-limit",
      llvm::cl::desc("Capacity: running ops' resource demands sum to at most this (0 = streams, "
                     "at most the device profile's cores)"),
      llvm::cl::init(0)};
  Option<int64_t> effort{*this, "effort",
                         llvm::cl::desc("Improvement budget after list scheduling (0 = none)"),
                         llvm::cl::init(0)};
  Option<std::string> table{
      *this, "table",
      llvm::cl::desc("Print each block's schedule as the seed's 'name start end' table to this file ('-' = stderr)"),
      llvm::cl::init("")};

  Option<std::string> maxMemory{
      *this, "max-memory",
      llvm::cl::desc("Peak live bytes allowed: 0 (none), or a size such as 4096, 512KiB, 64MiB, 2GiB"),
      llvm::cl::init("0")};
  Option<std::string> policy{
      *this, "policy",
      llvm::cl::desc("Memory policy: critical-path (default), min-memory, program-order, exact, "
                     "or a baseline: xla-list, xla-dfs, xla-postorder, inductor-lpmf, "
                     "inductor-bfs, inductor-dfs, sethi-ullman"),
      llvm::cl::init("critical-path")};
  Option<int64_t> alignment{*this, "alignment",
                            llvm::cl::desc("Byte alignment of arena offsets, a power of two"),
                            llvm::cl::init(64)};
  Option<bool> bufferSlots{
      *this, "buffer-slots",
      llvm::cl::desc("Assign arena slots and offsets to buffers after scheduling"),
      llvm::cl::init(true)};
  Option<bool> syncReuse{
      *this, "sync-reuse",
      llvm::cl::desc("On several streams, let two buffers share memory when the schedule's "
                     "timeline orders them, adding the waits that make it race-free (no op "
                     "is delayed); only when that shrinks the arena"),
      llvm::cl::init(true)};
  Option<bool> programOrderInPlace{
      *this, "program-order-in-place",
      llvm::cl::desc("On tensors, predict in-place writes as one-shot bufferization decides "
                     "them on the input's order (exact allocations), and keep them valid by "
                     "ordering each reused buffer's readers before its next writer"),
      llvm::cl::init(false)};
  Option<bool> strictMemory{
      *this, "strict-memory",
      llvm::cl::desc("An unmet max-memory is an error instead of a warning"),
      llvm::cl::init(false)};
  Option<double> makespanTolerance{
      *this, "makespan-tolerance",
      llvm::cl::desc("Several streams without max-memory: the lowest-peak schedule within this "
                     "percentage of the best makespan found is kept (0 to 100)"),
      llvm::cl::init(2.0)}; /* OPSCHED_DEFAULT_MAKESPAN_TOLERANCE in percent */
  Option<std::string> trace{
      *this, "trace",
      llvm::cl::desc("Write a Chrome trace (Perfetto, chrome://tracing) of the schedules to this file"),
      llvm::cl::init("")};
  Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write a self-contained HTML report of the schedules to this file"),
      llvm::cl::init("")};
  Option<std::string> summary{
      *this, "summary",
      llvm::cl::desc("Write one line of figures per function to this file ('-' = stderr)"),
      llvm::cl::init("")};
  Option<bool> dotFold{*this, "dot-fold",
                       llvm::cl::desc("Leave zero-cost ops (constants, empty tensors, views) "
                                      "out of 'dot'"),
                       llvm::cl::init(false)};
  Option<std::string> summaryFormat{
      *this, "summary-format",
      llvm::cl::desc("Format of 'summary': pretty (a line per function), json (an object "
                     "per function and its blocks, JSON Lines), csv (function,block,figure,value)"),
      llvm::cl::init("pretty")};

  int fillConfig(char *err, size_t n) {
    opsched_options *o = &config.options;
    if (fillCost(costModel, device, err, n) ||
        opsched_options_set_priority(o, priority.c_str(), err, n) ||
        opsched_options_set_streams(o, streams, err, n) ||
        opsched_options_set_resource_limit(o, resourceLimit, err, n) ||
        opsched_options_set_effort(o, effort, err, n) ||
        opsched_options_set_max_memory(o, maxMemory.c_str(), err, n) ||
        opsched_options_set_policy(o, policy.c_str(), err, n) ||
        opsched_options_set_alignment(o, alignment, err, n) ||
        opsched_options_set_summary_format(o, summaryFormat.c_str(), err, n) ||
        opsched_options_set_makespan_tolerance(o, makespanTolerance, err, n))
      return 1;
    o->dot_fold = dotFold;
    o->strict_memory = strictMemory;
    o->buffer_slots = bufferSlots;
    o->sync_reuse = syncReuse;
    o->inplace_program_order = programOrderInPlace;
    config.reorders = true;
    config.dot = dot;
    config.table = table;
    config.summary = summary;
    config.trace = trace;
    config.report = report;
    llvm::raw_string_ostream os(config.subtitle);
    printAsTextualPipeline(os);
    return 0;
  }
};

struct OpDepGraphPass : public OpSchedPassBase<OpDepGraphPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OpDepGraphPass)
  static constexpr PassId kId = PassId::OpDepGraphPass;
  StringRef getDescription() const override {
    return "Annotate upward ranks and the critical path of each block without moving ops";
  }
  OpDepGraphPass() = default;
  OpDepGraphPass(const OpDepGraphPass &other) : OpSchedPassBase(other) {}

  OPSCHED_COST_OPTIONS;
  Option<bool> dotFold{*this, "dot-fold",
                       llvm::cl::desc("Leave zero-cost ops (constants, empty tensors, views) "
                                      "out of 'dot'"),
                       llvm::cl::init(false)};

  int fillConfig(char *err, size_t n) {
    if (fillCost(costModel, device, err, n))
      return 1;
    config.options.buffer_slots = 0; /* analysis only: nothing is placed */
    config.options.dot_fold = dotFold;
    config.dot = dot;
    return 0;
  }
};

struct OpBufferSlotsPass : public OpSchedPassBase<OpBufferSlotsPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OpBufferSlotsPass)
  static constexpr PassId kId = PassId::OpBufferSlotsPass;
  StringRef getDescription() const override {
    return "Assign arena slots and offsets to the buffers of each block under the "
           "schedule the IR carries (op-schedule runs this by default)";
  }
  OpBufferSlotsPass() = default;
  OpBufferSlotsPass(const OpBufferSlotsPass &other) : OpSchedPassBase(other) {}

  Option<int64_t> alignment{*this, "alignment",
                            llvm::cl::desc("Byte alignment of arena offsets, a power of two"),
                            llvm::cl::init(64)};

  int fillConfig(char *err, size_t n) {
    config.slotsOnly = true;
    return opsched_options_set_alignment(&config.options, alignment, err, n);
  }
};

} // namespace

std::unique_ptr<Pass> opsched::createOpBufferSlotsPass() {
  return std::make_unique<OpBufferSlotsPass>();
}

std::unique_ptr<Pass> opsched::createOpSchedulePass() {
  return std::make_unique<OpSchedulePass>();
}

std::unique_ptr<Pass> opsched::createOpDepGraphPass() {
  return std::make_unique<OpDepGraphPass>();
}

//===- For lib/capi (PassConfig.h) -----------------------------------------===//

FailureOr<PassConfig> opsched::detail::getPassConfig(Pass &pass, MLIRContext *ctx) {
  if (failed(initializePass(pass, ctx)))
    return failure();
  if (auto *p = dyn_cast<OpSchedulePass>(&pass))
    return p->config;
  if (auto *p = dyn_cast<OpDepGraphPass>(&pass))
    return p->config;
  if (auto *p = dyn_cast<OpBufferSlotsPass>(&pass))
    return p->config;
  return failure();
}
