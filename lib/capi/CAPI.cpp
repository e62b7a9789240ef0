//===- CAPI.cpp - the opsched C API (include/opsched-c) ---------------------===//
//
// C++ only where it must be: creating mlir::Pass objects and parsing their
// options with the pass classes' own parser. Scheduling itself is the C in
// lib/mlir and lib/core, reached through opschedMlirRunOnFunction.
//
//===----------------------------------------------------------------------===//

#include "opsched-c/OpSched.h"

#include "PassConfig.h"
#include "driver.h"
#include "opsched/Passes.h"
#include "opsched/Version.h"
#include "opsched/report.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>

using namespace mlir;

namespace {

void report(MlirStringCallback callback, void *userData, StringRef message) {
  if (callback)
    callback(wrap(message), userData);
}

/// "file:line:col: message" (location omitted when it has no file position),
/// followed by the diagnostic's notes.
std::string formatDiagnostic(Diagnostic &diag) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto printLoc = [&](Location loc) {
    if (auto file = loc->findInstanceOf<FileLineColLoc>())
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn() << ": ";
  };
  printLoc(diag.getLocation());
  os << diag.str();
  for (Diagnostic &note : diag.getNotes()) {
    os << "\n";
    printLoc(note.getLocation());
    os << "note: " << note.str();
  }
  return text;
}

/// Sends the errors this thread emits on `ctx` to `callback` while alive;
/// other diagnostics, and other threads', go on to the context's handlers.
/// Does nothing without a callback.
class ErrorForwarder {
public:
  ErrorForwarder(MLIRContext *ctx, MlirStringCallback callback, void *userData) {
    if (!callback)
      return;
    std::thread::id self = std::this_thread::get_id();
    handler.emplace(ctx, [=](Diagnostic &diag) -> LogicalResult {
      if (diag.getSeverity() != DiagnosticSeverity::Error ||
          std::this_thread::get_id() != self)
        return failure();
      report(callback, userData, formatDiagnostic(diag));
      return success();
    });
  }

private:
  std::optional<ScopedDiagnosticHandler> handler;
};

/// Sets `options` on `pass` with the pass's own parser; errors go to
/// `onError` as "<pass>: <message>".
template <typename Fn>
LogicalResult setOptions(Pass &pass, MlirStringRef options, Fn &&onError) {
  return pass.initializeOptions(unwrap(options), [&](const Twine &message) {
    std::string text = message.str();
    // Drop the option parser's own name: the pass's is more useful.
    StringRef parserPrefix = "<Pass-Options-Parser>: ";
    if (StringRef(text).starts_with(parserPrefix))
      text.erase(0, parserPrefix.size());
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
      text.pop_back();
    // A value of the wrong type: llvm::cl printed why to llvm::errs() and
    // left the message empty.
    if (text.empty())
      text = ("cannot parse the options '" + unwrap(options) + "'").str();
    text = (pass.getArgument() + ": " + text).str();
    onError(text);
    return failure();
  });
}

MlirPass createPass(std::unique_ptr<Pass> pass, MlirStringRef options,
                    MlirStringCallback callback, void *userData) {
  if (failed(setOptions(*pass, options, [&](const std::string &message) {
        report(callback, userData, message);
      })))
    return MlirPass{nullptr};
  // Check the values as the pass's initialize() will, now rather than when
  // the pipeline runs. A private context: no dialects, no threads.
  MLIRContext ctx(MLIRContext::Threading::DISABLED);
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  if (failed(opsched::detail::getPassConfig(*pass, &ctx))) {
    report(callback, userData, message);
    return MlirPass{nullptr};
  }
  return wrap(pass.release());
}

/// An output file of the direct entry: "-" is stdout, empty is none.
struct OutputFile {
  FILE *file = nullptr;
  bool owned = false;
  LogicalResult open(const std::string &path, Operation *op, StringRef option) {
    if (path.empty())
      return success();
    if (path == "-") {
      file = stdout;
      return success();
    }
    file = fopen(path.c_str(), "w");
    owned = file != nullptr;
    if (!file)
      return op->emitError() << "op-schedule: cannot open '" << path << "' for writing ("
                             << option << ")";
    return success();
  }
  ~OutputFile() {
    if (owned)
      fclose(file);
    else if (file)
      fflush(file);
  }
};

std::optional<int64_t> getI64(Operation *op, StringRef name) {
  if (auto attr = dyn_cast_or_null<IntegerAttr>(op->getAttr(name)))
    return attr.getValue().getSExtValue();
  return std::nullopt;
}

} // namespace

MlirStringRef opschedGetVersion(void) { return wrap(StringRef(OPSCHED_VERSION_STRING)); }

MlirStringRef opschedGetMlirVersion(void) {
  return wrap(StringRef(OPSCHED_MLIR_VERSION_STRING));
}

void opschedRegisterPasses(void) { opsched::registerPasses(); }

MlirPass opschedCreateOpSchedulePass(MlirStringRef options, MlirStringCallback errorCallback,
                                     void *userData) {
  return createPass(opsched::createOpSchedulePass(), options, errorCallback, userData);
}

MlirPass opschedCreateOpDepGraphPass(MlirStringRef options, MlirStringCallback errorCallback,
                                     void *userData) {
  return createPass(opsched::createOpDepGraphPass(), options, errorCallback, userData);
}

void opschedPassDestroy(MlirPass pass) { delete unwrap(pass); }

MlirLogicalResult opschedScheduleFunction(MlirOperation func, MlirStringRef options,
                                          OpschedFigures *figures,
                                          MlirStringCallback errorCallback, void *userData) {
  static constexpr const char *kMakespan = "opsched.makespan";
  static constexpr const char *kCriticalPath = "opsched.critical_path";
  Operation *op = unwrap(func);
  MLIRContext *ctx = op->getContext();
  ErrorForwarder forwarder(ctx, errorCallback, userData);

  if (figures && figures->structSize < offsetof(OpschedFigures, scheduled)) {
    op->emitError() << "opschedScheduleFunction: figures->structSize is not set "
                       "(call opschedFiguresInit first)";
    return mlirLogicalResultFailure();
  }
  if (!isa<FunctionOpInterface>(op)) {
    op->emitError() << "opschedScheduleFunction: expected a function-like op, got '"
                    << op->getName() << "'";
    return mlirLogicalResultFailure();
  }
  std::unique_ptr<Pass> pass = opsched::createOpSchedulePass();
  if (failed(setOptions(*pass, options, [&](const std::string &message) {
        if (errorCallback)
          report(errorCallback, userData, message);
        else
          op->emitError() << message;
      })))
    return mlirLogicalResultFailure();
  FailureOr<opsched::detail::PassConfig> config = opsched::detail::getPassConfig(*pass, ctx);
  if (failed(config))
    return mlirLogicalResultFailure();

  OutputFile dot, table, summary;
  if (failed(dot.open(config->dot, op, "dot")) ||
      failed(table.open(config->table, op, "table")) ||
      failed(summary.open(config->summary, op, "summary")))
    return mlirLogicalResultFailure();

  // Figures come back as the function's attributes; clear stale ones first so
  // "nothing to schedule" reads as such, and restore them on failure.
  Attribute oldMakespan = op->removeAttr(kMakespan);
  Attribute oldCriticalPath = op->removeAttr(kCriticalPath);
  int clusters = 0;
  opsched_run_outputs outputs;
  memset(&outputs, 0, sizeof outputs); // fields added later stay off
  outputs.reorder = config->reorders ? 1 : 0;
  outputs.dot = dot.file;
  outputs.table = table.file;
  outputs.summary = summary.file;
  outputs.cluster_counter = &clusters;
  if (dot.file)
    opsched_dot_begin(dot.file);
  MlirLogicalResult result = opschedMlirRunOnFunction(func, &config->options, &outputs);
  if (dot.file)
    opsched_dot_end(dot.file);
  if (mlirLogicalResultIsFailure(result)) {
    if (oldMakespan)
      op->setAttr(kMakespan, oldMakespan);
    if (oldCriticalPath)
      op->setAttr(kCriticalPath, oldCriticalPath);
    return result;
  }

  if (figures) {
    OpschedFigures all;
    memset(&all, 0, sizeof all);
    all.structSize = figures->structSize;
    std::optional<int64_t> makespan = getI64(op, kMakespan);
    std::optional<int64_t> criticalPath = getI64(op, kCriticalPath);
    all.scheduled = criticalPath.has_value();
    int32_t streams = config->options.schedule.streams;
    all.streams = streams > 0 ? streams : 1;
    all.makespan = makespan.value_or(0);
    all.criticalPath = criticalPath.value_or(0);
    // Durations of the body's ops (end - start), as the driver's total work.
    all.totalWork = 0;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &inner : block) {
          std::optional<int64_t> start = getI64(&inner, "opsched.start"),
                                 end = getI64(&inner, "opsched.end");
          if (start && end)
            all.totalWork += *end - *start;
        }
    // The driver writes opsched.peak_memory when it has a memory model of
    // the body, and removes a stale one otherwise.
    all.peakMemory = getI64(op, "opsched.peak_memory").value_or(-1);
    // opsched.arena_size exists when buffer slots were assigned.
    all.arenaBytes = getI64(op, "opsched.arena_size").value_or(-1);
    size_t n = figures->structSize < sizeof all ? figures->structSize : sizeof all;
    memcpy(figures, &all, n);
  }
  return result;
}
