//===- CAPI.cpp - the opsched C API (include/opsched-c) ---------------------===//
//
// C++ only where it must be: creating mlir::Pass objects and parsing their
// options with the pass classes' own parser. Scheduling itself is the C in
// lib/mlir and lib/core, reached through opsched_mlir_run_on_function.
//
//===----------------------------------------------------------------------===//

#include "opsched-c/OpSched.h"

#include "PassConfig.h"
#include "PassTable.h"
#include "opsched/Passes.h"
#include "opsched/Version.h"

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
  if (failed(opsched::detail::initializePass(*pass, &ctx))) {
    report(callback, userData, message);
    return MlirPass{nullptr};
  }
  return wrap(pass.release());
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

MlirPass opschedCreatePass(MlirStringRef name, MlirStringRef options,
                           MlirStringCallback errorCallback, void *userData) {
  const opsched::PassInfo *info = opsched::findPass(unwrap(name));
  if (!info) {
    report(errorCallback, userData,
           ("opschedCreatePass: no opsched pass named '" + unwrap(name) + "'").str());
    return MlirPass{nullptr};
  }
  return createPass(info->create(), options, errorCallback, userData);
}

intptr_t opschedGetNumPasses(void) {
  size_t count;
  opsched::passTable(&count);
  return static_cast<intptr_t>(count);
}

MlirStringRef opschedGetPassArgument(intptr_t index) {
  size_t count;
  const opsched::PassInfo *table = opsched::passTable(&count);
  if (index < 0 || static_cast<size_t>(index) >= count)
    return MlirStringRef{nullptr, 0};
  return wrap(StringRef(table[index].argument));
}

MlirPass opschedCreateOpDepGraphPass(MlirStringRef options, MlirStringCallback errorCallback,
                                     void *userData) {
  return createPass(opsched::createOpDepGraphPass(), options, errorCallback, userData);
}

void opschedPassDestroy(MlirPass pass) { delete unwrap(pass); }

MlirLogicalResult opschedScheduleFunction(MlirOperation func, MlirStringRef options,
                                          OpschedFigures *figures,
                                          MlirStringCallback errorCallback, void *userData) {
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

  opsched::detail::OutputFiles files;
  if (failed(files.open(*config, op, "op-schedule")))
    return mlirLogicalResultFailure();
  opsched::detail::FunctionRun run;
  opsched::detail::runFunction(op, *config, 0, {}, run);
  if (!run.succeeded)
    return mlirLogicalResultFailure();
  const opsched::detail::FunctionRun *runs[] = {&run};
  if (failed(files.write(runs, op, "op-schedule")))
    return mlirLogicalResultFailure();

  if (figures) {
    // The driver's own figures: nothing is read back from the attributes.
    const opsched_function_figures &f = run.figures;
    OpschedFigures all;
    memset(&all, 0, sizeof all);
    all.structSize = figures->structSize;
    all.scheduled = f.scheduled;
    // The streams the schedule uses (opsched.streams), not the option.
    all.streams = f.streams_used > 0 ? f.streams_used : 1;
    all.makespan = f.scheduled ? f.makespan : 0;
    all.criticalPath = f.scheduled ? f.critical_path : 0;
    all.totalWork = f.scheduled ? f.work : 0;
    all.peakMemory = f.scheduled ? f.peak : -1;
    all.arenaBytes = f.scheduled ? f.arena : -1;
    size_t n = figures->structSize < sizeof all ? figures->structSize : sizeof all;
    memcpy(figures, &all, n);
  }
  return mlirLogicalResultSuccess();
}
