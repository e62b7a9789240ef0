/* lib/core/schedule_object.h - the schedule's layout and the functions of
 * the object itself, the base layer under every scheduler (schedule.c,
 * streams.c). Not installed. */
#ifndef OPSCHED_CORE_SCHEDULE_OBJECT_H
#define OPSCHED_CORE_SCHEDULE_OBJECT_H

#include "opsched/schedule.h"

#include "heap.h"

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
  /* The search's memo (schedule.h), set only while opsched_schedule_run_memo runs. */
  struct opsched_schedule_memo *memo;
  /* Left by opsched_schedule_run_times (schedule.h): 0 when the schedule
   * is complete, else what opsched_schedule_finish still builds (the
   * order, stream names, waits and memory figures; makespan and
   * peak_memory are already set). */
  int32_t pending;
};

/* The local search's budget under `o`, in op placements: its
 * effort_placements when set, else effort * OPSCHED_EFFORT_UNIT; 0 when
 * effort <= 0. */
int64_t opsched_effort_placements(const opsched_schedule_options *o);

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

/* As opsched_schedule_sort_order_by; `hint` (NULL or a permutation of the
 * node ids) is where the sort starts from: the same order whatever it is,
 * in O(n) when it is nearly sorted already (a list schedule's start order,
 * only ops started at one instant out of place). */
opsched_status opsched_schedule_sort_order_hint(opsched_schedule *s, const opsched_graph *g,
                                                const int32_t *tie, const int32_t *hint);

/* The sort behind them (internal; exposed for the unit tests): records of
 * (start, end, tie position, id), sorted by those four in that order into
 * rec, tmp as scratch of n records. Returns the insertion moves spent
 * before it fell back to a merge sort (over 8n + 64 moves). */
typedef struct opsched_order_rec {
  int64_t start, end;
  int32_t stream, topo, id;
} opsched_order_rec;
int64_t opsched_sort_order_recs(opsched_order_rec *rec, opsched_order_rec *tmp, int32_t n);
/* As opsched_sort_order_recs; when the starts are already nondecreasing
 * (a list schedule's start order), each run of one start is sorted alone,
 * each with its own budget: a run of many zero-duration ops at one instant
 * out of order then costs its own merge sort, not the whole array's.
 * Returns the moves summed over the runs. */
int64_t opsched_sort_order_runs(opsched_order_rec *rec, opsched_order_rec *tmp, int32_t n);

/* Streams an op can be put on, lowest index first: O(log) per take/give
 * instead of a scan, and storage for at most min(streams, n) lanes, since
 * no more than n ops ever run at once. */
typedef struct opsched_lanes {
  opsched_heap released; /* given back, by index (more than 64 lanes) */
  int32_t fresh;         /* lanes >= fresh were never taken */
  int32_t small;         /* at most 64 lanes: `bits` instead of `released` */
  uint64_t bits;         /* given back, bit k for lane k */
} opsched_lanes;

/* 0, or -1 when out of memory. */
int opsched_lanes_init(opsched_lanes *l, int32_t streams, int32_t n);
void opsched_lanes_free(opsched_lanes *l);
/* The lowest free lane; the caller keeps takes <= streams. */
int32_t opsched_lanes_take(opsched_lanes *l);
void opsched_lanes_give(opsched_lanes *l, int32_t lane);

/* min(streams, n), at least 1: the streams a block of n ops can use. */
int32_t opsched_lanes_usable(int32_t streams, int32_t n);

#endif
