/* lib/verify/verify.h - the independent checker of annotated schedules
 * (op-schedule-verify, docs/Passes.md).
 *
 * Re-derives dependencies, happens-before, buffer liveness, live bytes and
 * capacity from the IR and the opsched.* attributes alone, with code of its
 * own: nothing here calls lib/core's scheduling, stream, memory or arena
 * functions, so a bug there cannot hide a bug in its output. */
#ifndef OPSCHED_VERIFY_H
#define OPSCHED_VERIFY_H

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Checks every block of `func` (the body and nested regions) carrying
 * schedule attributes; blocks without any are skipped. Emits one error per
 * violation at the op concerned (function-wide limits at `func`), in IR
 * order. Returns the number of errors emitted (0: the schedule is valid). */
int64_t opsched_verify_function(MlirOperation func);

#ifdef __cplusplus
}
#endif

#endif
