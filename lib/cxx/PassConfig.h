//===- PassConfig.h - an opsched pass's parsed options, for lib/capi -*- C++ -*-===//
//
// Internal (not installed). The C API checks an options string when it
// creates a pass, and its direct entry schedules a function with the options
// a pass would use; both reuse the pass classes' own parsing through this.
//
//===----------------------------------------------------------------------===//
#ifndef OPSCHED_CXX_PASSCONFIG_H
#define OPSCHED_CXX_PASSCONFIG_H

#include "opsched/options.h"

#include "mlir/Pass/Pass.h"

#include <string>

namespace opsched::detail {

/// What an opsched pass runs with once its options are parsed.
struct PassConfig {
  opsched_options options;
  std::string dot, table, summary; // report paths; empty = none
  bool reorders;                   // op-schedule (true) or op-dep-graph
};

/// The configuration `pass` (from createOpSchedulePass/createOpDepGraphPass,
/// options set with Pass::initializeOptions) would compute in initialize():
/// the same C validators, the same messages, emitted as errors on `ctx`.
/// Fails for a bad value or for a pass that is not an opsched pass.
mlir::FailureOr<PassConfig> getPassConfig(mlir::Pass &pass, mlir::MLIRContext *ctx);

} // namespace opsched::detail

#endif // OPSCHED_CXX_PASSCONFIG_H
