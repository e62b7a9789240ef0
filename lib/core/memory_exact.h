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

/* Blocks above this many ops are not searched (the state bitsets grow with
 * n * n / 8 bytes): the incumbent is kept, unproven. */
#define MEM_EXACT_MAX_NODES 16384

/* Best-first search for the minimal peak. `order` holds on entry an
 * incumbent with peak `incumbent_peak` and on return the best order found.
 * `budget` caps stored states; `work_budget` (0 = none) caps the word
 * operations of the search (see mem_exact_work_budget). */
opsched_status mem_exact(const mem_model *m, int64_t budget, int64_t work_budget,
                         int32_t *order, int64_t incumbent_peak,
                         mem_exact_stats *stats);

/* The default work budget, proportional to the block: MEM_EXACT_WORK_PER_ITEM
 * word operations per op, dependency and buffer use (docs/memory.md). */
#define MEM_EXACT_WORK_PER_ITEM 32768
static inline int64_t mem_exact_work_budget(const mem_model *m) {
  int64_t items = (int64_t)m->n + m->succ_off[m->n] + m->use_off[m->n] + 1;
  return items * MEM_EXACT_WORK_PER_ITEM;
}

#endif
