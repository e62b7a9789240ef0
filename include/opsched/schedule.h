/* opsched/schedule.h - list scheduling of a dependency graph, pure C.
 *
 * A *schedule* maps each op to a start time and a stream (the seed's
 * resource); it never changes what an op computes. Every schedule also has a
 * sequential order: a topological order consistent with start times, which
 * is the order ops are written back into the block.
 *
 * Ownership: opsched_schedule_run() hands the caller a schedule it frees
 * with opsched_schedule_destroy(). Array accessors borrow from it.
 */
#ifndef OPSCHED_SCHEDULE_H
#define OPSCHED_SCHEDULE_H

#include "opsched/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ready-queue priority of list scheduling. */
typedef enum opsched_priority {
  /* Highest upward rank first, ties by original position (the default). */
  OPSCHED_PRIORITY_CRITICAL_PATH = 0,
  /* Original position first: FIFO as in the seed's demo; on one stream this
   * reproduces the input order. */
  OPSCHED_PRIORITY_PROGRAM_ORDER = 1
} opsched_priority;

typedef struct opsched_schedule_options {
  opsched_priority priority;
  int32_t streams;        /* parallel streams, >= 1 (0 means 1) */
  int32_t resource_limit; /* capacity: sum of running demands; 0 = streams */
  int32_t effort;         /* improvement budget after list scheduling; 0 = none */
} opsched_schedule_options;

/* Fills `options` with the defaults: critical path, 1 stream, capacity = streams. */
void opsched_schedule_options_init(opsched_schedule_options *options);

typedef struct opsched_schedule opsched_schedule;

/* Schedules a finalized graph. On success *out receives a schedule the
 * caller owns. Fails with OPSCHED_ERR_INFEASIBLE when a node's demand
 * exceeds the capacity, OPSCHED_ERR_INVALID on bad options. */
opsched_status opsched_schedule_run(const opsched_graph *graph,
                                    const opsched_schedule_options *options,
                                    opsched_schedule **out);

/* Frees a schedule; NULL is allowed. */
void opsched_schedule_destroy(opsched_schedule *schedule);

int32_t opsched_schedule_num_nodes(const opsched_schedule *schedule);
/* The sequential order: node ids, a topological order sorted by start time
 * (ties by stream, then issue order). */
const int32_t *opsched_schedule_order(const opsched_schedule *schedule);
/* Per node (indexed by node id). */
const int64_t *opsched_schedule_starts(const opsched_schedule *schedule);
const int64_t *opsched_schedule_ends(const opsched_schedule *schedule);
const int32_t *opsched_schedule_streams(const opsched_schedule *schedule);
/* Upward ranks used as priorities (indexed by node id). */
const int64_t *opsched_schedule_ranks(const opsched_schedule *schedule);
/* 1 where the node lies on a critical path (rank + downward == length). */
const uint8_t *opsched_schedule_critical(const opsched_schedule *schedule);

/* Latest end time. */
int64_t opsched_schedule_makespan(const opsched_schedule *schedule);
/* Length of the longest dependency chain by duration. */
int64_t opsched_schedule_critical_path(const opsched_schedule *schedule);
/* Sum of all node costs (the one-stream makespan). */
int64_t opsched_schedule_total_work(const opsched_schedule *schedule);
/* max(critical path, ceil(total work / streams)). */
int64_t opsched_schedule_lower_bound(const opsched_schedule *schedule);
int32_t opsched_schedule_stream_count(const opsched_schedule *schedule);

#ifdef __cplusplus
}
#endif

#endif /* OPSCHED_SCHEDULE_H */
