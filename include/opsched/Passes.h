//===- opsched/Passes.h - opsched passes for C++ pipelines ------*- C++ -*-===//
//
// Registration and creation of the opsched passes. The passes are thin: they
// declare options and forward to the C code in lib/mlir.
//
//===----------------------------------------------------------------------===//
#ifndef OPSCHED_PASSES_H
#define OPSCHED_PASSES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace opsched {

/// Registers every opsched pass with the global pass registry. Safe to call
/// more than once and from several threads.
void registerPasses();

/// `op-schedule`: reorders each block by critical-path list scheduling and
/// writes the schedule as attributes.
std::unique_ptr<mlir::Pass> createOpSchedulePass();

/// `op-dep-graph`: annotates ranks and the critical path without moving ops.
std::unique_ptr<mlir::Pass> createOpDepGraphPass();

} // namespace opsched

#endif // OPSCHED_PASSES_H
