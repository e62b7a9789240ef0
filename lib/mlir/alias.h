/* lib/mlir/alias.h - alias classes of the buffers a block's memory effects
 * touch (internal to lib/mlir; docs/Passes.md, "Dependency rules").
 *
 * A value's class is the allocation it is derived from through view-like
 * ops (mlir::ViewLikeOpInterface, memref.transpose, and
 * bufferization.to_buffer of a to_tensor): each memref.alloc/alloca result
 * of the function is a class of its own, and two distinct allocations never
 * alias. Everything else (function and block arguments, call results,
 * loads, globals, what cannot be traced) is the one class
 * OPSCHED_ALIAS_UNKNOWN. An allocation escapes when a value derived from it
 * is used by an op that neither views it nor reads, writes or frees it
 * (stored, passed to a call or an unknown op, returned, yielded, made a
 * tensor): the unknown class may alias every escaped allocation. */
#ifndef OPSCHED_MLIR_ALIAS_H
#define OPSCHED_MLIR_ALIAS_H

#include "mlir-c/IR.h"
#include "ptrmap.h"

#include <stddef.h>
#include <stdint.h>

enum { OPSCHED_ALIAS_UNKNOWN = 0 };

/* A value a walk up the views went through: its root's class and its
 * distance to the root (the class holds up to VIEW_CHAIN_MAX steps). */
typedef struct opsched_alias_seen {
  const void *value;
  int32_t root_class, depth;
} opsched_alias_seen;

typedef struct opsched_alias {
  opsched_ptrmap roots; /* allocation value -> class */
  uint8_t *escaped;     /* per class; the unknown class counts as escaped */
  int32_t count, cap;   /* classes, the unknown one included */
  MlirValue *work;      /* scratch of the escape walk */
  size_t nwork, capwork;
  /* Every value a walk went through, so that a chain of views is walked
   * once, not once per access below it (quadratic on long chains). */
  opsched_ptrmap seen_index; /* value -> entry of seen */
  opsched_alias_seen *seen;
  size_t nseen, capseen;
  MlirValue *path; /* scratch of the walk up */
  size_t capath;
  int failed; /* out of memory */
} opsched_alias;

/* Room for `cap` distinct allocations. Returns non-zero when out of memory. */
int opsched_alias_init(opsched_alias *a, int32_t cap);
void opsched_alias_free(opsched_alias *a);

/* The class of the buffer `v` (not null) refers to: OPSCHED_ALIAS_UNKNOWN
 * or an allocation's class (1, 2, ... in first-seen order). Sets `failed`
 * when out of memory (the answer is then OPSCHED_ALIAS_UNKNOWN). */
int32_t opsched_alias_class(opsched_alias *a, MlirValue v);

#endif
