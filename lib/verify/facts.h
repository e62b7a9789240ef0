/* lib/verify/facts.h - what the checker asks MLIR about an op and the MLIR C
 * API cannot answer: memory effects with the values they touch (and those
 * values' alias roots), speculatability, exact integer attributes, and
 * diagnostics with a note. Implemented in facts.cpp, private to lib/verify:
 * the answers are the checker's own, nothing is shared with the scheduler's
 * dependency rules. */
#ifndef OPSCHED_VERIFY_FACTS_H
#define OPSCHED_VERIFY_FACTS_H

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum opsched_vfx_kind {
  OPSCHED_VFX_READ,
  OPSCHED_VFX_WRITE,
  OPSCHED_VFX_FREE,
  OPSCHED_VFX_ALLOC
} opsched_vfx_kind;

/* Where an alias root comes from. Two distinct allocations never alias,
 * nor does an allocation alias an argument of the function or a global; a
 * local allocation (one that does not escape: every use of it and its
 * views reads, writes or frees it) aliases nothing but itself; anything
 * else may alias anything. */
typedef enum opsched_vfx_origin {
  OPSCHED_VFX_ANY,
  OPSCHED_VFX_ALLOCATION,
  OPSCHED_VFX_ARGUMENT,
  OPSCHED_VFX_GLOBAL,
  OPSCHED_VFX_LOCAL
} opsched_vfx_origin;

/* One memory effect of an op or of an op nested in it. `root` identifies the
 * buffer the effect's value is a view of (through casts, subviews, reshapes,
 * bufferization.to_tensor/to_buffer), 0 when the effect is on the whole
 * resource. */
typedef struct opsched_vfx {
  uintptr_t resource;
  uintptr_t root;
  int32_t kind;
  int32_t origin; /* opsched_vfx_origin of the root */
} opsched_vfx;

typedef struct opsched_vfacts {
  int unknown;        /* some nested op's effects are unknown */
  int speculatable;   /* mlir::isSpeculatable (nested ops included) */
  int may_not_return; /* a call, cf.assert, or unknown effects */
  int stack_alloc;    /* allocates on the automatic allocation scope */
  int stack_scope;    /* saves or restores the stack pointer */
} opsched_vfacts;

/* What the ops of one function contribute to their ancestors' facts, kept
 * so that an op nested d deep is read once, not once per ancestor. Valid
 * while the IR does not change; one per thread. */
typedef struct opsched_vfx_cache opsched_vfx_cache;

/* A new empty cache; NULL when out of memory. */
opsched_vfx_cache *opschedVerifyFactsCacheNew(void);

/* Frees `cache` (NULL: nothing). */
void opschedVerifyFactsCacheFree(opsched_vfx_cache *cache);

/* The facts and effects of `op` and everything nested in it, through
 * `cache`. Returns the number of effects (which may exceed `cap`; only `cap`
 * are written), in getEffectsRecursively's order, then the readers of a
 * tensor made from a memref (bufferization.to_tensor, also through tensor
 * views), counted as readers of that memref, in walk order. */
int64_t opschedVerifyOpFacts(opsched_vfx_cache *cache, MlirOperation op, opsched_vfx *out,
                             int64_t cap, opsched_vfacts *facts);

/* Reads an integer attribute exactly: 1 with *out set when its value (signed
 * for si/signless/index, unsigned for ui) fits in int64; 0 when it does not,
 * with its decimal value in `text` (truncated to `n`). */
int opschedVerifyIntAttr(MlirAttribute a, int64_t *out, char *text, int n);

/* Emits an error at `loc` and, when `noteLoc` is not null, a note at it. */
void opschedVerifyEmit(MlirLocation loc, const char *message, MlirLocation noteLoc,
                       const char *note);

#ifdef __cplusplus
}
#endif

#endif
