//===- PassConfig.h - an opsched pass's run, shared with lib/capi -*- C++ -*-===//
//
// Internal (not installed). The passes and the C API's direct entry run
// functions the same way: options parsed by the pass classes' own code,
// output files opened (and probed) before anything is scheduled, each
// function scheduled by the C driver, outputs written in IR order at the end
// with every write checked.
//
//===----------------------------------------------------------------------===//
#ifndef OPSCHED_CXX_PASSCONFIG_H
#define OPSCHED_CXX_PASSCONFIG_H

#include "driver.h"
#include "opsched/options.h"

#include "mlir/Pass/Pass.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace opsched::detail {

/// What an opsched pass runs with once its options are parsed.
struct PassConfig {
  opsched_options options;
  // Output paths; empty = none, "-" = stderr (stdout carries the IR).
  std::string dot, table, summary, trace, report;
  std::string subtitle; // the report's subtitle: the pass and its options
  bool reorders = false;  // op-schedule (true) or op-dep-graph
  bool slotsOnly = false; // op-buffer-slots
  bool wantsFiles() const {
    return !dot.empty() || !table.empty() || !summary.empty() || !trace.empty() ||
           !report.empty();
  }
};

/// The configuration `pass` (any pass of PassTable.def, options set with
/// Pass::initializeOptions) runs with: the same C validators and messages as
/// its initialize(), emitted as errors on `ctx`. Fails for a bad value or a
/// pass that schedules nothing (op-schedule-verify).
mlir::FailureOr<PassConfig> getPassConfig(mlir::Pass &pass, mlir::MLIRContext *ctx);

/// Runs `pass`'s initialize() (options checked as the pass manager would).
mlir::LogicalResult initializePass(mlir::Pass &pass, mlir::MLIRContext *ctx);

/// One function's results, kept until the run's outputs are written.
struct FunctionRun {
  struct ReportDeleter {
    void operator()(opsched_function_report *r) const {
      opsched_mlir_function_report_destroy(r);
    }
  };
  std::string dot, table, summary;
  std::unique_ptr<opsched_function_report, ReportDeleter> report;
  opsched_function_figures figures{};
  bool succeeded = false;
};

/// Phase boundaries of the C driver, forwarded to `callback` (nullable).
struct PhaseHooks {
  opsched_phase_callback callback = nullptr;
  void *user = nullptr;
};

/// Schedules `func` with `config`, collecting the text of the outputs
/// `config` asks for. `index` numbers the function's DOT clusters.
void runFunction(mlir::Operation *func, const PassConfig &config, size_t index,
                 const PhaseHooks &hooks, FunctionRun &run);

/// The output files of one run, opened before scheduling: a path that cannot
/// be opened, or a device that refuses a write (/dev/full), fails here.
class OutputFiles {
public:
  OutputFiles() = default;
  OutputFiles(const OutputFiles &) = delete;
  OutputFiles &operator=(const OutputFiles &) = delete;
  ~OutputFiles();
  /// Errors are emitted at `at`, prefixed by `who` (the pass argument).
  mlir::LogicalResult open(const PassConfig &config, mlir::Operation *at,
                           llvm::StringRef who);
  /// Writes the functions' outputs in the order given, then closes; a failed
  /// write or close is an error at `at`.
  mlir::LogicalResult write(llvm::ArrayRef<const FunctionRun *> runs, mlir::Operation *at,
                            llvm::StringRef who);

private:
  struct File {
    std::string option, path;
    FILE *file = nullptr;
    bool owned = false;
  };
  File dot, table, summary, trace, report;
  std::string subtitle;
  mlir::LogicalResult openOne(File &f, llvm::StringRef option, const std::string &path,
                              mlir::Operation *at, llvm::StringRef who);
  mlir::LogicalResult finish(File &f, mlir::Operation *at, llvm::StringRef who);
};

} // namespace opsched::detail

#endif // OPSCHED_CXX_PASSCONFIG_H
