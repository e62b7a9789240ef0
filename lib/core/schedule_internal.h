/* lib/core/schedule_internal.h - the schedule's layout, shared by the core's
 * schedulers (list scheduling here, stream placement and improvement in
 * streams.c). Not installed. */
#ifndef OPSCHED_CORE_SCHEDULE_INTERNAL_H
#define OPSCHED_CORE_SCHEDULE_INTERNAL_H

#include "opsched/schedule.h"

struct opsched_schedule {
  int32_t n;
  int32_t streams;        /* streams available */
  int32_t resource_limit; /* capacity used */
  int32_t *order;         /* sequential order */
  int64_t *start, *end;
  int32_t *stream;
  int64_t *rank;
  uint8_t *critical;
  int64_t makespan, critical_path, total_work;
};

/* Allocates a schedule for n nodes with every array zeroed; NULL on OOM. */
opsched_schedule *opsched_schedule_alloc(int32_t n);

/* Fills rank, critical, critical_path and total_work from the graph. */
void opsched_schedule_set_ranks(opsched_schedule *s, const opsched_graph *g);

/* Recomputes `order` from start times (ties by end, then stream, then id)
 * and `makespan`. Zero-duration ops are placed after their zero-duration
 * predecessors because ties are broken by a topological position. */
opsched_status opsched_schedule_sort_order(opsched_schedule *s,
                                           const opsched_graph *g);

#endif
