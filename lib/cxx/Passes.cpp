//===- Passes.cpp - opsched pass classes: options, then forward to C ------===//
//
// The passes are op-agnostic: on a function they schedule it; on anything
// else (the module, in the flag form) they schedule every function inside,
// in parallel when threading is on, writing reports in function order.
//
//===----------------------------------------------------------------------===//

#include "opsched/Passes.h"

#include "Functions.h"

#include "PassConfig.h"
#include "driver.h"
#include "opsched/report.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;

namespace {

/// A FILE that collects one function's report text in memory.
struct MemoryStream {
  char *data = nullptr;
  size_t size = 0;
  FILE *file = nullptr;
  explicit MemoryStream(bool wanted) {
    if (wanted)
      file = open_memstream(&data, &size);
  }
  ~MemoryStream() {
    if (file)
      fclose(file);
    free(data);
  }
  std::string take() {
    if (!file)
      return {};
    fflush(file);
    return std::string(data, size);
  }
};

template <typename Derived>
struct OpSchedPassBase : public PassWrapper<Derived, OperationPass<>> {
  using Base = PassWrapper<Derived, OperationPass<>>;
  OpSchedPassBase() = default;
  OpSchedPassBase(const OpSchedPassBase &other) : Base(other), config(other.config) {}

  Pass::Option<std::string> costModel{
      *this, "cost-model",
      llvm::cl::desc("Op durations: roofline (from shapes) or unit (every op costs 1)"),
      llvm::cl::init("roofline")};
  Pass::Option<std::string> device{
      *this, "device",
      llvm::cl::desc("Device profile of the roofline: generic, h100, a100, cpu"),
      llvm::cl::init("generic")};
  Pass::Option<std::string> dot{
      *this, "dot", llvm::cl::desc("Write the dependency graph in Graphviz to this file"),
      llvm::cl::init("")};

  opsched_options config;

  /// Parses every option through the C validators; a bad value is an error
  /// naming the option and its accepted values.
  LogicalResult parseConfig(MLIRContext *ctx) {
    opsched_options_init(&config);
    char err[512] = "";
    int bad = opsched_options_set_cost_model(&config, costModel.c_str(), err, sizeof err) ||
              opsched_options_set_device(&config, device.c_str(), err, sizeof err) ||
              static_cast<Derived *>(this)->parseExtra(err, sizeof err);
    if (bad)
      return emitError(UnknownLoc::get(ctx)) << this->getArgument() << ": " << err;
    return success();
  }

  LogicalResult initialize(MLIRContext *ctx) override { return parseConfig(ctx); }

  virtual bool reorders() const = 0;
  virtual bool slotsOnly() const { return false; }
  /// Report files besides `dot`: (option name, path) pairs.
  virtual std::string tablePath() const { return ""; }
  virtual std::string summaryPath() const { return ""; }
  virtual std::string tracePath() const { return ""; }
  virtual std::string reportPath() const { return ""; }
  virtual std::string optionsText() const { return ""; }

  void runOnOperation() override {
    Operation *root = this->getOperation();
    SmallVector<Operation *> funcs = opsched::collectFunctions(root);
    bool wantDot = !dot.empty(), wantTable = !tablePath().empty(),
         wantSummary = !summaryPath().empty(), wantTrace = !tracePath().empty(),
         wantReport = !reportPath().empty();
    if ((wantDot || wantTable || wantSummary || wantTrace || wantReport) &&
        isa<FunctionOpInterface>(root) && root->getParentOp()) {
      // Functions run in parallel: a report file would see them in any order.
      root->emitError() << this->getArgument()
                        << ": report outputs ('dot', 'table', 'summary', 'trace', 'report') "
                           "need the pass to run "
                           "on the module (the flag form, or builtin.module("
                        << this->getArgument() << "{...})), so functions are written "
                        << "in a deterministic order";
      return this->signalPassFailure();
    }

    SmallVector<std::string> dotText(funcs.size()), tableText(funcs.size()),
        summaryText(funcs.size());
    // The trace and HTML report need every function's plans at once.
    struct ReportDeleter {
      void operator()(opsched_function_report *r) const {
        opschedMlirFunctionReportDestroy(r);
      }
    };
    std::vector<std::unique_ptr<opsched_function_report, ReportDeleter>> reports(
        funcs.size());
    auto runOne = [&](size_t i) -> LogicalResult {
      MemoryStream dotStream(wantDot), tableStream(wantTable), summaryStream(wantSummary);
      int clusters = static_cast<int>(i) << 16;
      opsched_function_report *report = nullptr;
      opsched_run_outputs out;
      memset(&out, 0, sizeof out);
      out.reorder = reorders() ? 1 : 0;
      out.slots_only = slotsOnly() ? 1 : 0;
      out.dot = dotStream.file;
      out.table = tableStream.file;
      out.summary = summaryStream.file;
      out.cluster_counter = &clusters;
      out.report = (wantTrace || wantReport) ? &report : nullptr;
      MlirLogicalResult r = opschedMlirRunOnFunction(wrap(funcs[i]), &config, &out);
      reports[i].reset(report);
      dotText[i] = dotStream.take();
      tableText[i] = tableStream.take();
      summaryText[i] = summaryStream.take();
      return mlirLogicalResultIsSuccess(r) ? success() : failure();
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
    if (wantDot && failed(writeFile(dot, [&](FILE *f) {
          opsched_dot_begin(f);
          for (const std::string &t : dotText)
            fwrite(t.data(), 1, t.size(), f);
          opsched_dot_end(f);
        })))
      return this->signalPassFailure();
    if (wantTable && failed(writeTexts(tablePath(), tableText)))
      return this->signalPassFailure();
    if (wantSummary && failed(writeTexts(summaryPath(), summaryText)))
      return this->signalPassFailure();
    if (wantTrace || wantReport) {
      std::vector<opsched_function_report *> list;
      for (auto &r : reports)
        list.push_back(r.get());
      std::string subtitle = optionsText();
      auto writeOne = [&](const std::string &path, bool trace) {
        return writeFile(path, [&](FILE *f) {
          if (opschedMlirWriteReports(list.data(), list.size(), subtitle.c_str(),
                                      trace ? f : nullptr, trace ? nullptr : f))
            this->getOperation()->emitError()
                << this->getArgument() << ": writing '" << path << "' failed";
        });
      };
      if ((wantTrace && failed(writeOne(tracePath(), true))) ||
          (wantReport && failed(writeOne(reportPath(), false))))
        return this->signalPassFailure();
    }
  }

  LogicalResult writeTexts(const std::string &path, ArrayRef<std::string> texts) {
    return writeFile(path, [&](FILE *f) {
      for (const std::string &t : texts)
        fwrite(t.data(), 1, t.size(), f);
    });
  }

  template <typename Fn>
  LogicalResult writeFile(const std::string &path, Fn &&fn) {
    FILE *f = path == "-" ? stdout : fopen(path.c_str(), "w");
    if (!f)
      return this->getOperation()->emitError()
             << this->getArgument() << ": cannot open '" << path << "' for writing";
    fn(f);
    if (f == stdout)
      fflush(f);
    else
      fclose(f);
    return success();
  }
};

struct OpSchedulePass : public OpSchedPassBase<OpSchedulePass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OpSchedulePass)
  StringRef getArgument() const override { return "op-schedule"; }
  StringRef getDescription() const override {
    return "Reorder each block by critical-path list scheduling and annotate the schedule";
  }
  OpSchedulePass() = default;
  OpSchedulePass(const OpSchedulePass &other) : OpSchedPassBase(other) {}

  Option<std::string> priority{
      *this, "priority",
      llvm::cl::desc("Ready-queue priority: critical-path (upward rank) or program-order (FIFO)"),
      llvm::cl::init("critical-path")};
  Option<int64_t> streams{*this, "streams", llvm::cl::desc("Parallel streams (>= 1)"),
                          llvm::cl::init(1)};
  Option<int64_t> resourceLimit{
      *this, "resource-limit",
      llvm::cl::desc("Capacity: running ops' resource demands sum to at most this (0 = streams)"),
      llvm::cl::init(0)};
  Option<int64_t> effort{*this, "effort",
                         llvm::cl::desc("Improvement budget after list scheduling (0 = none)"),
                         llvm::cl::init(0)};
  Option<std::string> table{
      *this, "table",
      llvm::cl::desc("Print each block's schedule as the seed's 'name start end' table to this file ('-' = stdout)"),
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
  Option<bool> strictMemory{
      *this, "strict-memory",
      llvm::cl::desc("An unmet max-memory is an error instead of a warning"),
      llvm::cl::init(false)};
  Option<double> makespanTolerance{
      *this, "makespan-tolerance",
      llvm::cl::desc("Several streams without max-memory: the lowest-peak schedule within this "
                     "percentage of the best makespan found is kept (0 to 100)"),
      llvm::cl::init(1.0)};
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
      llvm::cl::desc("Write one line of figures per function to this file ('-' = stdout)"),
      llvm::cl::init("")};

  int parseExtra(char *err, size_t n) {
    return opsched_options_set_priority(&config, priority.c_str(), err, n) ||
           opsched_options_set_streams(&config, streams, err, n) ||
           opsched_options_set_resource_limit(&config, resourceLimit, err, n) ||
           opsched_options_set_effort(&config, effort, err, n) ||
           opsched_options_set_max_memory(&config, maxMemory.c_str(), err, n) ||
           opsched_options_set_policy(&config, policy.c_str(), err, n) ||
           opsched_options_set_alignment(&config, alignment, err, n) ||
           opsched_options_set_makespan_tolerance(&config, makespanTolerance, err, n) ||
           (config.strict_memory = strictMemory, config.buffer_slots = bufferSlots,
            config.sync_reuse = syncReuse, 0);
  }
  bool reorders() const override { return true; }
  std::string tablePath() const override { return table; }
  std::string summaryPath() const override { return summary; }
  std::string tracePath() const override { return trace; }
  std::string reportPath() const override { return report; }
  std::string optionsText() const override {
    std::string text;
    llvm::raw_string_ostream os(text);
    const_cast<OpSchedulePass *>(this)->printAsTextualPipeline(os);
    return text;
  }
};

struct OpDepGraphPass : public OpSchedPassBase<OpDepGraphPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OpDepGraphPass)
  StringRef getArgument() const override { return "op-dep-graph"; }
  StringRef getDescription() const override {
    return "Annotate upward ranks and the critical path of each block without moving ops";
  }
  OpDepGraphPass() = default;
  OpDepGraphPass(const OpDepGraphPass &other) : OpSchedPassBase(other) {}

  int parseExtra(char *, size_t) {
    config.buffer_slots = 0; /* analysis only: nothing is placed */
    return 0;
  }
  bool reorders() const override { return false; }
};

struct OpBufferSlotsPass : public OpSchedPassBase<OpBufferSlotsPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OpBufferSlotsPass)
  StringRef getArgument() const override { return "op-buffer-slots"; }
  StringRef getDescription() const override {
    return "Assign arena slots and offsets to the buffers of each block under the "
           "schedule the IR carries (op-schedule runs this by default)";
  }
  OpBufferSlotsPass() = default;
  OpBufferSlotsPass(const OpBufferSlotsPass &other) : OpSchedPassBase(other) {}

  Option<int64_t> alignment{*this, "alignment",
                            llvm::cl::desc("Byte alignment of arena offsets, a power of two"),
                            llvm::cl::init(64)};

  int parseExtra(char *err, size_t n) {
    return opsched_options_set_alignment(&config, alignment, err, n);
  }
  bool reorders() const override { return false; }
  bool slotsOnly() const override { return true; }
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

void opsched::registerPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    PassRegistration<OpSchedulePass>();
    PassRegistration<OpDepGraphPass>();
    PassRegistration<OpBufferSlotsPass>();
  });
  registerVerifyPass();
}

//===- For lib/capi (PassConfig.h) -----------------------------------------===//

template <typename P>
static FailureOr<opsched::detail::PassConfig> passConfigOf(P &pass, MLIRContext *ctx) {
  if (failed(pass.parseConfig(ctx)))
    return failure();
  return opsched::detail::PassConfig{pass.config, pass.dot, pass.tablePath(),
                                     pass.summaryPath(), pass.reorders()};
}

FailureOr<opsched::detail::PassConfig> opsched::detail::getPassConfig(Pass &pass,
                                                                      MLIRContext *ctx) {
  if (auto *p = dyn_cast<OpSchedulePass>(&pass))
    return passConfigOf(*p, ctx);
  if (auto *p = dyn_cast<OpDepGraphPass>(&pass))
    return passConfigOf(*p, ctx);
  return failure();
}
