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

/// Registers every opsched pass (the pass table, lib/cxx/PassTable.def:
/// op-schedule, op-dep-graph, op-buffer-slots, op-schedule-verify, ...) with
/// the global pass registry. Safe to call more than once and from several
/// threads.
void registerPasses();

/// `op-schedule`: reorders each block by critical-path list scheduling and
/// writes the schedule as attributes.
std::unique_ptr<mlir::Pass> createOpSchedulePass();

/// `op-dep-graph`: annotates ranks and the critical path without moving ops.
std::unique_ptr<mlir::Pass> createOpDepGraphPass();

/// `op-buffer-slots`: assigns arena slots and offsets under the schedule the
/// IR carries (op-schedule does this itself by default).
std::unique_ptr<mlir::Pass> createOpBufferSlotsPass();

/// `op-schedule-verify`: checks an annotated module independently of the
/// scheduler (lib/verify); errors at the ops concerned, nothing modified.
std::unique_ptr<mlir::Pass> createOpScheduleVerifyPass();

/// Registers `op-schedule-verify` alone (registerPasses() calls it). Safe to
/// call more than once and from several threads.
void registerVerifyPass();

/// `op-materialize-arena` / `op-materialize-streams` (docs/materialize.md):
/// the schedule's buffer slots and streams turned into executable IR.
std::unique_ptr<mlir::Pass> createOpMaterializeArenaPass();
std::unique_ptr<mlir::Pass> createOpMaterializeStreamsPass();

} // namespace opsched

#endif // OPSCHED_PASSES_H
