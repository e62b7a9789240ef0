/* lib/mlir/materialize.h - the materializing passes' C entry points (called
 * by lib/cxx/MaterializePasses.cpp). They turn the schedule op-schedule
 * wrote as attributes into IR a stock MLIR pipeline executes. */
#ifndef OPSCHED_MLIR_MATERIALIZE_H
#define OPSCHED_MLIR_MATERIALIZE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Both entry points set `*annotated` when the function carries the plan
 * they materialize. A function without it is left alone and succeeds,
 * unless `report_unannotated` is set: then it is an error (the pass runs
 * that way when no function of the run was annotated, so a module holding
 * a scheduled function and, say, an unscheduled `main` works, and a
 * forgotten op-schedule does not go unnoticed). */

/* op-materialize-arena on one function: every `memref.alloc` of the body
 * with an `opsched.offset` becomes a `memref.view` into one arena
 * allocation of `opsched.arena_size` bytes; their deallocations go, the
 * arena is freed before each return. Escaping buffers, dynamic sizes and
 * layouts a view cannot produce keep their allocation (a remark says why).
 * On inconsistent annotations an error is emitted at the op and nothing is
 * rewritten. */
MlirLogicalResult opsched_mlir_materialize_arena(MlirOperation func, int report_unannotated,
                                              int *annotated);

/* op-materialize-streams on one function: the body's ops run, stream by
 * stream, inside `async.execute` regions ordered by stream order and
 * `opsched.waits`; values crossing regions travel as `!async.value`; every
 * region is awaited before the ops that follow the scheduled ones. Errors
 * (missing or malformed stream annotations) leave the IR untouched. */
MlirLogicalResult opsched_mlir_materialize_streams(MlirOperation func, int report_unannotated,
                                                int *annotated);

#ifdef __cplusplus
}
#endif

#endif
