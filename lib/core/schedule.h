/* lib/core/schedule.h - schedule.c's internal entry point: a scheduler run
 * that shares its memory orders and gated schedules with the other runs of
 * a frontier search. */
#ifndef OPSCHED_CORE_SCHEDULE_H
#define OPSCHED_CORE_SCHEDULE_H

#include "opsched/schedule.h"

#include "memory.h"
#include "streams.h"

/* A gated list schedule of one search (schedule.c, gated_candidates): its
 * inputs (priority, order window, streams, capacity), the limits it holds
 * for and its result (times, streams, peak in time). The limit enters the
 * gated scheduler only through its comparisons of live bytes plus an
 * allocation against it: every limit in [fit_max, fail_min) (the largest
 * sum that fit, the smallest that did not, INT64_MAX when none or above)
 * decides each the same way, so the run is the same under it. */
typedef struct opsched_gated_memo {
  int64_t fit_max, fail_min, peak; /* peak -1: not computed yet */
  int64_t makespan;
  int32_t window, streams, cap;
  int64_t *prio, *start, *end; /* one block, `prio` owning it */
  int32_t *stream;
} opsched_gated_memo;

enum { OPSCHED_GATED_MEMO_MAX = 32, OPSCHED_AKEY_MEMO_MAX = 4 };

/* What the scheduler runs of one frontier search share (one graph, one
 * buffer set): the memory orders (memory.h) and the gated list schedules
 * (the latest OPSCHED_GATED_MEMO_MAX, replaced oldest first). A budget is
 * tried with up to three runs (the rank, the min-memory order, the rank
 * with a local search) whose gated schedules over one memory order are the
 * same, and budgets of a bisection often fall in the same range of a
 * gated schedule: each is computed once. */
typedef struct opsched_schedule_memo {
  opsched_memory_memo memory;
  int32_t gated_count, gated_next; /* entries; the one replaced next when full */
  opsched_gated_memo gated[OPSCHED_GATED_MEMO_MAX];
  /* The memory model and augmented graph every run schedules on, built by
   * the first run with buffers (NULL before); for `model_graph` and
   * `model_buffers`, rebuilt when another run brings others. */
  struct mem_model *model;
  opsched_graph *aug;
  const opsched_graph *model_graph;
  const opsched_buffers *model_buffers;
  /* HEFT's times on the augmented graph (streams.h), cleared with it. */
  opsched_heft_memo heft;
  /* The peak of the model's program order (every run's
   * original_peak_memory) once a run computed it (program_peak_known);
   * cleared with the model. */
  int64_t program_peak;
  int program_peak_known;
  /* The ranks of the graph the runs schedule (opsched_schedule_set_ranks)
   * once a run computed them: rank and critical per node (NULL before),
   * for `ranks_graph`. */
  int64_t *rank;
  uint8_t *critical;
  const opsched_graph *ranks_graph;
  int64_t critical_path, total_work;
  /* Per op of `model`, the bytes it allocates (schedule.c, op_allocs),
   * NULL before a gated run computed them; cleared with the model. */
  struct acc128 *allocs;
  /* The free gated runs' allocation orders (schedule.c, alloc_keys), the
   * latest OPSCHED_AKEY_MEMO_MAX priorities (the rank's and the memory
   * orders' alternate): for the priority akey_prio[i], akey[i][v] is v's
   * position; NULL before, cleared with the model. */
  int64_t *akey_prio[OPSCHED_AKEY_MEMO_MAX], *akey[OPSCHED_AKEY_MEMO_MAX];
  int32_t akey_next;
  /* The gated runs' (priority, id) orders (schedule.c, prio_places), the
   * latest OPSCHED_AKEY_MEMO_MAX priorities: for the priority
   * place_prio[i], place[i][v] is v's position and place[i][n + k] the op
   * at position k; NULL before, cleared with the model. */
  int64_t *place_prio[OPSCHED_AKEY_MEMO_MAX];
  int32_t *place[OPSCHED_AKEY_MEMO_MAX];
  int32_t place_next;
  /* The peak in time of the latest HEFT times a run under a limit
   * checked (schedule.c, heft_peak): HEFT's times are the same in every
   * budgeted run (`heft`), their peak too. For the times hp_start/hp_end
   * (NULL before); cleared with the model. */
  int64_t *hp_start, *hp_end, hp_peak;
  /* Set by the frontier around one run (0 otherwise): that run's local
   * search under a limit also ends after this many iterations without a
   * new best (opsched_streams_improve_stall). */
  int64_t improve_stall;
} opsched_schedule_memo;

void opsched_schedule_memo_free(opsched_schedule_memo *memo);

/* opsched_schedule_run with a memo (NULL: none). Same results. */
opsched_status opsched_schedule_run_memo(const opsched_graph *g,
                                         const opsched_schedule_options *o,
                                         opsched_schedule_memo *memo, opsched_schedule **out);

/* opsched_schedule_run_memo up to the times, for a frontier search that
 * keeps one schedule of several runs: with a memo, buffers, several
 * streams and no hand-off charge, *out has its times, makespan and
 * peak_memory (the same as the full run's) and the rest is left to
 * opsched_schedule_finish; otherwise this is opsched_schedule_run_memo. */
opsched_status opsched_schedule_run_times(const opsched_graph *g,
                                          const opsched_schedule_options *o,
                                          opsched_schedule_memo *memo, opsched_schedule **out);

/* Completes a schedule of opsched_schedule_run_times (the same g, o and
 * memo) into what opsched_schedule_run_memo returns; a complete schedule
 * is left as it is. On failure the schedule stays pending. */
opsched_status opsched_schedule_finish(const opsched_graph *g,
                                       const opsched_schedule_options *o,
                                       opsched_schedule_memo *memo, opsched_schedule *s);

/* The peak memory of the schedule opsched_schedule_run_memo makes under
 * `o` (in *peak; -1 on failure), with the same status. One stream, no
 * limit and a policy other than critical-path (the frontier's floor)
 * need only the policy's order: its peak, without the schedule. */
opsched_status opsched_schedule_one_stream_peak(const opsched_graph *g0,
                                                const opsched_schedule_options *o,
                                                opsched_schedule_memo *memo, int64_t *peak);

#endif
