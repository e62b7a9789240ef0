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

/* One memory effect of an op or of an op nested in it, with the value it
 * touches (null when the effect is on the whole resource). Allocations are
 * left out but for the read of OPSCHED_RESOURCE_AUTOMATIC_SCOPE a stack
 * allocation makes. */
typedef struct opsched_value_effect {
  uintptr_t resource;
  MlirValue value;
  int write; /* write or free */
} opsched_value_effect;

/* The memory effects of `op` and everything nested in it, one entry per
 * (resource, value) in first-seen order (write wins). Returns the number of
 * entries (which may exceed `cap`; only `cap` are written), or -1 when the
 * effects are unknown. */
int64_t opsched_mlir_op_value_effects(MlirOperation op, opsched_value_effect *out, int64_t cap);

/* What an op says of itself, for the per-op summaries (op_facts.h). */
enum {
  OPSCHED_OP_RECURSIVE_EFFECTS = 1, /* HasRecursiveMemoryEffects */
  OPSCHED_OP_SPECULATABLE = 2,      /* ConditionallySpeculatable: Speculatable */
  OPSCHED_OP_RECURSIVELY_SPECULATABLE = 4, /* ... RecursivelySpeculatable */
  OPSCHED_OP_DESTINATION_STYLE = 8, /* DestinationStyleOpInterface */
  OPSCHED_OP_CONDITIONALLY_SPECULATABLE = 16, /* has the interface */
  OPSCHED_OP_ALWAYS_SPECULATABLE = 32 /* AlwaysSpeculatableImplTrait: every op
                                         of the name is Speculatable */
};

/* The bits a name decides: RECURSIVE_EFFECTS, DESTINATION_STYLE,
 * CONDITIONALLY_SPECULATABLE and ALWAYS_SPECULATABLE (traits and interfaces
 * belong to the op name). */
int opsched_mlir_op_name_traits(MlirOperation op);

/* The SPECULATABLE / RECURSIVELY_SPECULATABLE bits of `op` (0 without the
 * ConditionallySpeculatable interface). */
int opsched_mlir_op_speculatability(MlirOperation op);

/* `op`'s own memory effects (not its nested ops'), as
 * opsched_mlir_op_value_effects filters them but neither merged nor
 * deduplicated, in MemoryEffectOpInterface order. Returns the number of
 * effects (may exceed `cap`; only `cap` are written), or -1 when `op` lacks
 * the interface. */
int64_t opsched_mlir_op_own_effects(MlirOperation op, opsched_value_effect *out, int64_t cap);

/* A shaped type's rank (-1 unranked, -2 not a shaped type), its sizes in
 * *dims (MLIR's own storage, `rank` entries; a dynamic size is
 * mlirShapedTypeGetDynamicSize()) and its element type in *element (unset
 * when not shaped). One ShapedType cast for what the C API asks one per
 * dimension and query. */
intptr_t opsched_mlir_type_shape(MlirType type, const int64_t **dims, MlirType *element);

/* The width of a float type (mlir::FloatType), 0 for any other type: one
 * cast for the C API's mlirTypeIsAFloat + mlirFloatTypeGetWidth. */
int64_t opsched_mlir_float_width(MlirType type);

/* For a view-like op (mlir::ViewLikeOpInterface, plus memref.transpose,
 * which lacks it), the operand index of the buffer it views; -1 otherwise. */
intptr_t opsched_mlir_view_source(MlirOperation op);

/* 1 when `v` is a fresh buffer: its defining op has an Allocate effect on
 * it (memref.alloc, memref.alloca, ...). */
int opsched_mlir_value_is_allocation(MlirValue v);

/* 1 when `op` is a mere accessor of `v`: its effects (nested ones
 * included) are known and one of them reads, writes or frees `v`, it
 * returns no memref or tensor, and it passes no buffer into a region (a block
 * argument of memref type): it touches the buffer's contents and keeps no
 * reference to it. */
int opsched_mlir_op_accesses_value(MlirOperation op, MlirValue v);

/* 1 when `op` may run earlier than in program order without a trap or
 * other behaviour the original would not have: MLIR's isSpeculatable
 * (ConditionallySpeculatable, recursively through regions), plus ops whose
 * only effects are allocations. Ops without the interface are not. */
int opsched_mlir_op_is_speculatable(MlirOperation op);

/* 1 when `op`, or anything nested in it, may not return to the next op or
 * does something the program may observe before it ends: unknown effects
 * (no interface, unregistered ops, calls of any kind), a write or free of a
 * whole resource (cf.assert, vector.print) or of any resource but the
 * default one, or a region op that may not end (docs/Passes.md,
 * "Dependency rules"). A write or free of a buffer value in memory (a
 * store, a linalg op on memrefs, a dealloc) is not observable in itself:
 * only a later read sees it, and the effect rules order that read. */
int opsched_mlir_op_may_not_return(MlirOperation op);

/* For a destination-passing op, the operand index tied to result
 * `result_index` (the init it writes in place), or -1. */
int64_t opsched_mlir_op_tied_operand(MlirOperation op, int64_t result_index);

/* For a destination-passing op, its init operands, which are contiguous:
 * their number, the first one's index in *first (0 when there are none).
 * opsched_mlir_op_tied_operand(op, r) is *first + r for r below both this
 * number and the op's result count (the verifier makes the results no
 * more than the inits), -1 otherwise. -1 when `op` is no DPS op. */
int64_t opsched_mlir_op_dps_inits(MlirOperation op, int64_t *first);

/* `op`'s attribute dictionary (a uniqued pointer; inherent attributes
 * stored as properties are not in it). */
const void *opsched_mlir_op_attr_dict(MlirOperation op);

/* The discardable attributes of `op` named `a` and `b` (null when absent),
 * found with one call: each is what mlirOperationGetDiscardableAttributeByName
 * returns when mlirOperationGetNumDiscardableAttributes(op) != 0, and null
 * when it is 0. */
void opsched_mlir_op_discardable_pair(MlirOperation op, MlirStringRef a, MlirStringRef b,
                                      MlirAttribute *va, MlirAttribute *vb);

/* 1 when `a` and `b` have one name and equal properties (inherent
 * attributes): with equal attribute dictionaries and operand types, e.g.
 * equal linalg indexing maps. */
int opsched_mlir_op_same_properties(MlirOperation a, MlirOperation b);

/* Removes the discardable attributes named in `remove` and sets those in
 * `set`, in one dictionary update (the C API rebuilds the dictionary at
 * every single change). Both arrays must be sorted by name (byte-wise, the
 * order of a DictionaryAttr) without repeats, and no name may be in both:
 * the new dictionary is then merged in order, never sorted. `ctx` is the
 * op's context, passed in: asking the op for it reads its location, one
 * more cold line per op at a million ops. */
void opsched_mlir_update_discardable_attrs(MlirContext ctx, MlirOperation op,
                                       const MlirNamedAttribute *set, intptr_t nset,
                                       const MlirIdentifier *remove, intptr_t nremove);

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
