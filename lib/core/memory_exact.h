/* lib/core/memory_exact.h - the exact minimal-peak search over the memory
 * model (internal). */
#ifndef OPSCHED_CORE_MEMORY_EXACT_H
#define OPSCHED_CORE_MEMORY_EXACT_H

#include "memory_model.h"

/* Result of the exact search. */
typedef struct mem_exact_stats {
  int proven;          /* search exhausted: `order` is optimal */
  int improved;        /* found an order better than the incumbent */
  int64_t peak;        /* peak of `order` */
  int64_t lower_bound; /* proven lower bound on the optimum */
  int64_t states;      /* states stored */
} mem_exact_stats;

/* Best-first search for the minimal peak. `order` holds on entry an
 * incumbent with peak `incumbent_peak` and on return the best order found.
 * `budget` caps stored states. */
opsched_status mem_exact(const mem_model *m, int64_t budget, int32_t *order,
                         int64_t incumbent_peak, mem_exact_stats *stats);

#endif
