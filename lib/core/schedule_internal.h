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
  int64_t list_makespan; /* before the improvement step */
  /* Cross-stream waits after transitive reduction, CSR by node id. */
  int64_t *wait_off; /* n + 1 entries */
  int32_t *wait_ids; /* producer ids, sorted per node */
  int64_t num_waits, num_waits_unreduced;
  /* Synchronisation edges that are not dependencies (opsched_schedule_add_syncs),
   * CSR of predecessors by node id; NULL when none. */
  int64_t *sync_off; /* n + 1 entries */
  int32_t *sync_ids;
  int64_t num_syncs;
  /* Memory figures (options.buffers); peaks -1 and live_after NULL without. */
  int64_t peak_memory, original_peak_memory, resident_bytes;
  int64_t *live_after;
  int limit_met, exact_proven;
  const char *memory_winner; /* static string or NULL */
};

/* Allocates a schedule for n nodes with every array zeroed; NULL on OOM. */
opsched_schedule *opsched_schedule_alloc(int32_t n);

/* Fills rank, critical, critical_path and total_work from the graph. */
void opsched_schedule_set_ranks(opsched_schedule *s, const opsched_graph *g);

/* Recomputes `order` from start times (ties by end, then topological
 * position) and `makespan`. The ties make the order topological even with
 * zero-duration ops, and make it, restricted to one stream, that stream's
 * launch order (a zero-duration op at t precedes an op running from t). */
opsched_status opsched_schedule_sort_order(opsched_schedule *s,
                                           const opsched_graph *g);

/* As opsched_schedule_sort_order, but ties on (start, end) go by `tie`
 * (a position per node id, which must be consistent with the edges, e.g. a
 * topological order's positions) instead of the topological position. */
opsched_status opsched_schedule_sort_order_by(opsched_schedule *s,
                                              const opsched_graph *g,
                                              const int32_t *tie);

/* --- streams.c: multi-stream placement, improvement, streams and waits --- */

/* HEFT-style placement: ops in priority order (ready list keyed like the
 * list scheduler), each at its earliest start on the capacity and stream
 * profile, inserted into idle gaps. Overwrites s->start/end only when its
 * makespan is strictly lower (ties keep the list schedule); *improved tells
 * which. Leaves times untouched when they could overflow. */
opsched_status opsched_streams_heft(const opsched_graph *g,
                                    const opsched_schedule_options *o,
                                    opsched_schedule *s, int *improved);

/* Local search over topological activity lists decoded by the same
 * insertion placement, bounded by `effort` (see docs/streams.md). Only
 * replaces s->start/end by a strictly shorter schedule. */
opsched_status opsched_streams_improve(const opsched_graph *g,
                                       opsched_schedule *s, int32_t effort);

/* Acceptance test for a candidate schedule's times: non-zero to accept. */
typedef int (*opsched_times_filter)(void *ctx, const int64_t *start,
                                    const int64_t *end);

/* opsched_streams_improve where a new best schedule is kept only when
 * `accept` (nullable: accept all) accepts its times; the search itself may
 * walk through rejected schedules. With accept == NULL it is exactly
 * opsched_streams_improve. */
opsched_status opsched_streams_improve_filtered(const opsched_graph *g,
                                                opsched_schedule *s,
                                                int32_t effort,
                                                opsched_times_filter accept,
                                                void *ctx);

/* Assigns streams from start/end times and s->order: each op goes to a
 * stream idle at its start, preferring one holding most of its
 * predecessors, then the lowest index. OPSCHED_ERR_STATE if the times need
 * more than s->streams streams (a placement bug). */
opsched_status opsched_streams_assign(const opsched_graph *g,
                                      opsched_schedule *s);

/* Computes the waits with exact transitive reduction (vector clocks). */
opsched_status opsched_streams_waits(const opsched_graph *g,
                                     opsched_schedule *s);

#endif
