/* lib/mlir/summary.h - the `summary` output as JSON Lines or CSV (internal
 * to lib/mlir; the pretty line is driver.c's). */
#ifndef OPSCHED_MLIR_SUMMARY_H
#define OPSCHED_MLIR_SUMMARY_H

#include "block_plan.h"
#include "mlir-c/IR.h"

#include <stdint.h>
#include <stdio.h>

/* Writes `func`'s figures in `format` (OPSCHED_SUMMARY_JSON or _CSV; others
 * write nothing): its opsched.* attributes as written, then every scheduled
 * block of `plans` (`count` plans, `top_level[i]` = block of the function's
 * own body). Call after the attributes are written. */
void opsched_summary_write(FILE *out, int format, MlirOperation func,
                           const opsched_block_plan *plans, const uint8_t *top_level,
                           size_t count);

#endif
