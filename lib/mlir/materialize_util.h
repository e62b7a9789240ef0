/* lib/mlir/materialize_util.h - small IR helpers the materializing passes
 * share (internal). */
#ifndef OPSCHED_MLIR_MATERIALIZE_UTIL_H
#define OPSCHED_MLIR_MATERIALIZE_UTIL_H

#include "mlir-c/IR.h"
#include "queries.h"

#include <stdint.h>

/* Whether `op` is named `name` (e.g. "memref.alloc"). */
int opsched_op_is(MlirOperation op, const char *name);

/* Whether `op` hands values out of its region by name (`*.yield`,
 * `*.return`, branches): a buffer used there leaves the block. */
int opsched_op_is_terminator_like(MlirOperation op);

/* Bytes one element of `t` takes in a buffer (whole bytes), or 0. */
int64_t opsched_type_storage_bytes(MlirType t);

/* Reads the first entry of an `array<i64>` attribute `name` on `op`:
 * 1 and `*out` when present with exactly one entry per result, 0 when
 * absent, -1 when malformed. */
int opsched_read_single_i64(MlirOperation op, const char *name, int64_t *out);

/* Reads an i64 attribute: 1 present, 0 absent, -1 not an integer. */
int opsched_read_i64(MlirOperation op, const char *name, int64_t *out);

/* A printf-formatted diagnostic at `op`. */
void opsched_emitf(MlirOperation op, opsched_severity severity, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
