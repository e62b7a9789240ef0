/* lib/mlir/queries.h - the few C-callable MLIR queries the MLIR C API lacks.
 * Implemented in C++ (lib/mlir/queries.cpp); everything else in lib/mlir uses
 * the C API only. */
#ifndef OPSCHED_MLIR_QUERIES_H
#define OPSCHED_MLIR_QUERIES_H

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One memory effect of an op: the resource it touches (an opaque identity,
 * equal for equal resources) and whether it writes (write, free) or only
 * reads. Allocation effects are left out: a fresh value cannot be touched by
 * another op without an SSA edge. */
typedef struct opsched_effect {
  uintptr_t resource;
  int write;
} opsched_effect;

/* Resource identities the C code names (others are opaque addresses). */
enum { OPSCHED_RESOURCE_DEFAULT = 1, OPSCHED_RESOURCE_AUTOMATIC_SCOPE = 2 };

/* The memory effects of `op` and everything nested in it, one entry per
 * resource (write wins). An allocation on the automatic allocation scope
 * (memref.alloca, llvm.alloca) is reported as a read of
 * OPSCHED_RESOURCE_AUTOMATIC_SCOPE; other allocations are left out. Returns the number of entries (which may exceed
 * `cap`; only `cap` are written), or -1 when the effects are unknown (no
 * interface, unregistered op): such an op must order against every
 * effectful op. */
int64_t opsched_mlir_op_effects(MlirOperation op, opsched_effect *out, int64_t cap);

/* 1 when `op` may run earlier than in program order without a trap or
 * other behaviour the original would not have: MLIR's isSpeculatable
 * (ConditionallySpeculatable, recursively through regions), plus ops whose
 * only effects are allocations. Ops without the interface are not. */
int opsched_mlir_op_is_speculatable(MlirOperation op);

/* 1 when `op`, or anything nested in it, may not return to the next op or
 * does something the program may observe before it ends: unknown effects
 * (no interface, unregistered ops, calls of any kind), any write or free
 * (cf.assert, vector.print, stores), or regions MLIR cannot prove
 * speculatable (a loop that may not end). */
int opsched_mlir_op_may_not_return(MlirOperation op);

/* For a destination-passing op, the operand index tied to result
 * `result_index` (the init it writes in place), or -1. */
int64_t opsched_mlir_op_tied_operand(MlirOperation op, int64_t result_index);

/* Removes the discardable attributes named in `remove` and sets those in
 * `set`, in one dictionary update (the C API rebuilds the dictionary at
 * every single change). Both arrays must be sorted by name (byte-wise, the
 * order of a DictionaryAttr) without repeats, and no name may be in both:
 * the new dictionary is then merged in order, never sorted. */
void opsched_mlir_update_discardable_attrs(MlirOperation op, const MlirNamedAttribute *set,
                                       intptr_t nset, const MlirIdentifier *remove,
                                       intptr_t nremove);

typedef enum opsched_severity {
  OPSCHED_SEVERITY_ERROR,
  OPSCHED_SEVERITY_WARNING,
  OPSCHED_SEVERITY_REMARK
} opsched_severity;

/* Emits a diagnostic at `loc` (the C API only emits errors). */
void opsched_mlir_emit(MlirLocation loc, opsched_severity severity,
                     const char *message);

#ifdef __cplusplus
}
#endif

#endif
