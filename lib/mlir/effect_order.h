/* lib/mlir/effect_order.h - edges between ops of a block from their memory
 * effects, keyed by resource and alias class (internal to lib/mlir).
 *
 * An effect touches a resource either whole (no value: it conflicts with
 * every effect on that resource) or through a buffer of an alias class
 * (alias.h: it conflicts with the same class and, for the unknown class and
 * escaped allocations, with each other). Conflicting effects keep program
 * order when one of them writes (RAW, WAR, WAW; a free is a write). An op
 * with unknown effects orders against every effectful op. */
#ifndef OPSCHED_MLIR_EFFECT_ORDER_H
#define OPSCHED_MLIR_EFFECT_ORDER_H

#include "alias.h"
#include "opsched/graph.h"

#include <stdint.h>

enum { OPSCHED_EFFECT_WHOLE = -1 };

typedef struct opsched_fx {
  uintptr_t resource;
  int32_t cls; /* alias class, or OPSCHED_EFFECT_WHOLE */
  int32_t write;
} opsched_fx;

typedef struct opsched_effect_order opsched_effect_order;

/* State for a block of `n` ops whose effects name classes of `alias`
 * (classes must all be assigned before the first op is added). NULL when out
 * of memory. */
opsched_effect_order *opsched_effect_order_new(const opsched_alias *alias, int32_t n);
void opsched_effect_order_free(opsched_effect_order *s);

/* Adds op `v`'s edges (ops in program order): `nfx` effects, or nfx < 0
 * for unknown effects. Returns non-zero when out of memory. */
int opsched_effect_order_add(opsched_effect_order *s, opsched_graph *g, int32_t v,
                             const opsched_fx *fx, int64_t nfx);

#endif
