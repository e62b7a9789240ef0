/* lib/mlir/op_work.h - what one MLIR op costs: static FLOPs and bytes from
 * its shapes, fed to the core's cost model (internal to lib/mlir). */
#ifndef OPSCHED_MLIR_OP_WORK_H
#define OPSCHED_MLIR_OP_WORK_H

#include "mlir-c/IR.h"
#include "opsched/cost.h"

#include <stddef.h>
#include <stdint.h>

/* Bits of one element of `type` (int, float incl. f8/f4, index = 64,
 * complex = twice its element), or 0 when unknown. */
int64_t opsched_element_bits(MlirType element);

/* Elements of a shaped type; dynamic dimensions count as 1 and set
 * *dynamic. Unranked: 1 and *dynamic. Saturates instead of overflowing. */
int64_t opsched_shaped_numel(MlirType type, int *dynamic);

/* Bytes of a value of `type`: ceil(numel * bits / 8) for shaped types,
 * 0 for scalars. Saturates; sets *dynamic as above. */
int64_t opsched_type_bytes(MlirType type, int *dynamic);

/* Measures `op`'s work. *dynamic is set when a shape was not static. */
void opsched_op_work_measure(MlirOperation op, opsched_op_work *work, int *dynamic);

/* Answers already measured, by type and by linalg op shape (a function's
 * ops share a few types and a few kinds of linalg op). Types and
 * attributes are uniqued: a pointer names one. */
typedef struct opsched_work_memo opsched_work_memo;

/* An empty memo sized for blocks of about `ops` ops (its tables never
 * exceed a fixed size); NULL when out of memory. */
opsched_work_memo *opsched_work_memo_new(size_t ops);
/* 1 when `memo` (nullable) is as large as a new memo for `ops` would be. */
int opsched_work_memo_fits(const opsched_work_memo *memo, size_t ops);
void opsched_work_memo_free(opsched_work_memo *memo);

/* As opsched_op_work_measure, answered from `memo` (nullable) when it can:
 * the same work and *dynamic. */
void opsched_op_work_measure_memo(MlirOperation op, opsched_op_work *work, int *dynamic,
                                  opsched_work_memo *memo);

#endif
