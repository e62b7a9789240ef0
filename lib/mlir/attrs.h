/* lib/mlir/attrs.h - the attributes opsched reads and writes (internal).
 * Their names and formats are an API: docs/Passes.md documents each. */
#ifndef OPSCHED_MLIR_ATTRS_H
#define OPSCHED_MLIR_ATTRS_H

#include "mlir-c/IR.h"

#include <stdint.h>

/* Read (user overrides). */
#define OPSCHED_ATTR_COST "opsched.cost"           /* i64 ns */
#define OPSCHED_ATTR_RESOURCES "opsched.resources" /* i64 demand */
/* Written on ops. */
#define OPSCHED_ATTR_RANK "opsched.rank"         /* i64 ns upward rank */
#define OPSCHED_ATTR_CRITICAL "opsched.critical" /* unit: on a critical path */
#define OPSCHED_ATTR_START "opsched.start"       /* i64 ns */
#define OPSCHED_ATTR_END "opsched.end"           /* i64 ns */
/* Written on functions. */
#define OPSCHED_ATTR_MAKESPAN "opsched.makespan"           /* i64 ns */
#define OPSCHED_ATTR_CRITICAL_PATH "opsched.critical_path" /* i64 ns */

void opsched_attr_set_i64(MlirOperation op, const char *name, int64_t value);
/* Sets a unit attribute when `present`, removes it otherwise. */
void opsched_attr_set_unit(MlirOperation op, const char *name, int present);

#endif
