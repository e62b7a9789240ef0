/*===- opsched-c/Passes.h - opsched C API: passes in a pipeline ------*- C -*-===
 *
 * Registering the opsched passes, and creating them configured by an options
 * string to add to an MlirOpPassManager. docs/Passes.md documents every
 * option; docs/api.md has an example.
 *
 *===----------------------------------------------------------------------===*/
#ifndef OPSCHED_C_PASSES_H
#define OPSCHED_C_PASSES_H

#include "mlir-c/Pass.h"
#include "opsched-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Registers every opsched pass (op-schedule, op-dep-graph, op-buffer-slots,
 * op-schedule-verify, and any later one: opschedGetPassArgument lists them)
 * with MLIR's global pass registry, so that mlirParsePassPipeline() knows
 * them. Idempotent and thread-safe. */
OPSCHED_CAPI_EXPORTED void opschedRegisterPasses(void);

/* Creates an `op-schedule` pass configured by `options`, written as inside
 * the braces of a textual pipeline: "cost-model=unit streams=2" (empty:
 * every option at its default). The options are checked now, both their
 * syntax and their values, with the messages the pass itself would give.
 *
 * On success returns a pass the caller owns: hand it to
 * mlirOpPassManagerAddOwnedPass() / mlirPassManagerAddOwnedPass() (which take
 * ownership) or free it with opschedPassDestroy(). On failure returns a null
 * pass (opschedPassIsNull) and, when `errorCallback` is not NULL, calls it
 * once with the message and `userData`; nothing aborts or prints. */
OPSCHED_CAPI_EXPORTED MlirPass opschedCreateOpSchedulePass(
    MlirStringRef options, MlirStringCallback errorCallback, void *userData);

/* The same for `op-dep-graph` (annotates ranks and the critical path, moves
 * nothing). */
OPSCHED_CAPI_EXPORTED MlirPass opschedCreateOpDepGraphPass(
    MlirStringRef options, MlirStringCallback errorCallback, void *userData);

/* Creates the opsched pass whose pipeline name is `name` ("op-buffer-slots",
 * "op-schedule-verify", ...), configured by `options`, exactly as the two
 * functions above do for theirs (an unknown name is an error through
 * `errorCallback`). */
OPSCHED_CAPI_EXPORTED MlirPass opschedCreatePass(MlirStringRef name, MlirStringRef options,
                                                 MlirStringCallback errorCallback,
                                                 void *userData);

/* The number of opsched passes, and the pipeline name of the pass at
 * `index` (0 <= index < count; a null string ref outside). The strings are
 * static. */
OPSCHED_CAPI_EXPORTED intptr_t opschedGetNumPasses(void);
OPSCHED_CAPI_EXPORTED MlirStringRef opschedGetPassArgument(intptr_t index);

/* Frees a pass created above that was never added to a pass manager.
 * A null pass is allowed. */
OPSCHED_CAPI_EXPORTED void opschedPassDestroy(MlirPass pass);

static inline bool opschedPassIsNull(MlirPass pass) { return !pass.ptr; }

#ifdef __cplusplus
}
#endif

#endif /* OPSCHED_C_PASSES_H */
