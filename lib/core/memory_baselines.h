/* lib/core/memory_baselines.h - the memory-ordering heuristics (ours and
 * the XLA / Inductor baselines) over the memory model (internal). */
#ifndef OPSCHED_CORE_MEMORY_BASELINES_H
#define OPSCHED_CORE_MEMORY_BASELINES_H

#include "memory_model.h"

/* Each heuristic writes a topological order of m's nodes to `order`
 * (length n). Returns OPSCHED_OK or OPSCHED_ERR_NOMEM. `limit` (critical
 * path only) is the live-bytes cap, INT64_MAX for none. */
opsched_status mem_order_program(const mem_model *m, int32_t *order);
opsched_status mem_order_critical_path(const mem_model *m, int64_t limit,
                                       int32_t *order);
/* mem_order_critical_path that also reports the limits under which it
 * writes the same order: every limit in [*fit_max, *fail_min) (the largest
 * live + allocation of a pick that fit, the smallest of a ready node that
 * did not fit and comes before the pick, or of any when none fit;
 * INT64_MAX when there is none). */
opsched_status mem_order_critical_path_range(const mem_model *m, int64_t limit,
                                             int32_t *order, int64_t *fit_max,
                                             int64_t *fail_min);
opsched_status mem_order_xla_list(const mem_model *m, int32_t *order);
opsched_status mem_order_xla_dfs(const mem_model *m, int32_t *order);
opsched_status mem_order_xla_postorder(const mem_model *m, int32_t *order);
opsched_status mem_order_inductor_lpmf(const mem_model *m, int32_t *order);
opsched_status mem_order_inductor_bfs(const mem_model *m, int32_t *order);
opsched_status mem_order_inductor_dfs(const mem_model *m, int32_t *order);
opsched_status mem_order_sethi_ullman(const mem_model *m, int32_t *order);

#endif
