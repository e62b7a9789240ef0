/* lib/core/memory.h - memory.c's internal entry points: the one-stream
 * memory orders shared by the scheduler runs of one frontier search.
 *
 * opsched_frontier_schedule runs the scheduler up to ~10 times on one
 * graph and buffer set; each budgeted run asks opsched_memory_schedule for
 * the min-memory order, which runs every heuristic of the keep-best
 * (memory.c). All of them but the critical-path order ignore the limit, so
 * their orders and peaks are the same in every run: the memo keeps them
 * from the first run; the critical-path orders are kept with the range of
 * limits each holds for. Valid only for one graph and buffer set. */
#ifndef OPSCHED_CORE_MEMORY_H
#define OPSCHED_CORE_MEMORY_H

#include "memory_exact.h"
#include "opsched/memory.h"

/* A critical-path order (it depends on the limit) and the limits it holds
 * for: every limit in [fit_max, fail_min) gives this order
 * (mem_order_critical_path_range). */
typedef struct opsched_cp_memo {
  int64_t fit_max, fail_min, peak;
  int32_t *order;
} opsched_cp_memo;

enum { OPSCHED_CP_MEMO_MAX = 8 };

typedef struct opsched_memory_memo {
  int32_t *order[OPSCHED_MEMORY_POLICY_COUNT]; /* NULL: not run yet */
  int64_t peak[OPSCHED_MEMORY_POLICY_COUNT];
  /* The latest critical-path orders, replaced oldest first: the budgets of
   * a search often fall in one order's range, and a run that falls back to
   * the keep-best asks for its limit's order twice. */
  int32_t cp_count, cp_next;
  opsched_cp_memo cp[OPSCHED_CP_MEMO_MAX];
  /* The program order's peak (every result's original peak) once a query
   * computed it (program_known). */
  int64_t program_peak;
  int program_known;
  /* The latest exact search: the incumbent it started from (order and
   * peak) and its budgets, and what it returned. The search is
   * deterministic, and a budgeted run's heuristics often end on the
   * unconstrained run's incumbent: a query starting from the same one gets
   * the same answer without searching again. exact_in NULL: none yet. */
  int32_t *exact_in, *exact_out;
  int64_t exact_in_peak, exact_budget, exact_work;
  mem_exact_stats exact_stats;
  /* The memory model of model_graph and model_buffers (NULL before the
   * first query), shared by the queries. */
  struct mem_model *model;
  const opsched_graph *model_graph;
  const opsched_buffers *model_buffers;
} opsched_memory_memo;

void opsched_memory_memo_free(opsched_memory_memo *memo);

/* opsched_memory_schedule with a memo (NULL: none). Same results. */
opsched_status opsched_memory_schedule_memo(const opsched_graph *g, const opsched_buffers *b,
                                            const opsched_memory_options *o,
                                            opsched_memory_memo *memo,
                                            opsched_memory_result **out);

#endif
