/* lib/core/streams.h - multi-stream placement (HEFT-style) and the local
 * search that improves it (internal). */
#ifndef OPSCHED_CORE_STREAMS_H
#define OPSCHED_CORE_STREAMS_H

#include "schedule_object.h"

/* HEFT-style placement: ops in priority order (ready list keyed like the
 * list scheduler), each at its earliest start on the capacity and stream
 * profile, inserted into idle gaps. Overwrites s->start/end only when its
 * makespan is strictly lower (ties keep the list schedule); *improved tells
 * which. Leaves times untouched when they could overflow. */
opsched_status opsched_streams_heft(const opsched_graph *g,
                                    const opsched_schedule_options *o,
                                    opsched_schedule *s, int *improved);

/* HEFT's times are a function of the graph, the priority, the streams and
 * the capacity (the ranks are the graph's): the runs of one search keep
 * them here (schedule.h). `start` NULL: none kept. */
typedef struct opsched_heft_memo {
  const opsched_graph *g;
  int32_t streams, cap, priority;
  int64_t *start, *end, makespan;
} opsched_heft_memo;

void opsched_heft_memo_free(opsched_heft_memo *m);

/* opsched_streams_heft through `memo` (NULL: none). The same results. */
opsched_status opsched_streams_heft_memo(const opsched_graph *g,
                                         const opsched_schedule_options *o,
                                         opsched_schedule *s, int *improved,
                                         opsched_heft_memo *memo);

/* Local search over topological activity lists decoded by the same
 * insertion placement, bounded by about `placements` op placements
 * (effort * OPSCHED_EFFORT_UNIT, opsched_effort_placements; see
 * docs/streams.md); none when <= 0. Only replaces s->start/end by a
 * strictly shorter schedule. */
opsched_status opsched_streams_improve(const opsched_graph *g,
                                       opsched_schedule *s, int64_t placements);

/* Acceptance test for a candidate schedule's times: non-zero to accept. A
 * function of the times alone (the search asks again only when they
 * changed). */
typedef int (*opsched_times_filter)(void *ctx, const int64_t *start,
                                    const int64_t *end);

/* opsched_streams_improve where a new best schedule is kept only when
 * `accept` (nullable: accept all) accepts its times; the search itself may
 * walk through rejected schedules. With accept == NULL it is exactly
 * opsched_streams_improve. */
opsched_status opsched_streams_improve_filtered(const opsched_graph *g,
                                                opsched_schedule *s,
                                                int64_t placements,
                                                opsched_times_filter accept,
                                                void *ctx);

/* opsched_streams_improve_filtered that also ends after `stall_stop`
 * iterations (list decodes and trial moves, docs/streams.md) without a new
 * best, counted from the start and from each new best; 0: the
 * placements' whole budget, exactly opsched_streams_improve_filtered. The frontier's
 * third try per budget uses it (OPSCHED_FRONTIER_STALL). */
opsched_status opsched_streams_improve_stall(const opsched_graph *g, opsched_schedule *s,
                                             int64_t placements, int64_t stall_stop,
                                             opsched_times_filter accept, void *ctx);

/* What keeps a placement's memory through a charge (docs/streams.md,
 * "Charging the runtime"): every buffer freed before an op allocates in the
 * placed times is still freed before it allocates in the charged ones, so
 * no two buffers that did not overlap in time overlap after, and the peak
 * in time never grows (intervals that meet pairwise share an instant).
 * The op starts after those buffers' holders end on its own stream and
 * handoff_ns after those on other streams: reusing their memory there
 * takes a wait (the arena's sync-reuse adds it), which the runtime pays.
 * Built from the placed times; each charge walk reads it in s->order.
 * Buffers that are never freed (results) and empty ones impose nothing. */
struct mem_model;
typedef struct opsched_charge_barrier {
  const struct mem_model *m;
  int32_t nb;   /* freed buffers, by placed free instant (doubled time) */
  int32_t *buf;
  int64_t *key;
  /* Walk state: the buffers passed so far, and their holders' latest
   * charged end (doubled time) on one stream and on any other (-1: none). */
  int32_t next;
  int64_t top, other;
  int32_t top_stream;
} opsched_charge_barrier;

opsched_status opsched_charge_barrier_build(opsched_charge_barrier *b,
                                            const struct mem_model *m,
                                            const opsched_schedule *s);
void opsched_charge_barrier_free(opsched_charge_barrier *b);

/* Re-times a finished schedule with the runtime's costs of several streams
 * (opsched_schedule_options.handoff_ns/region_ns): streams and each
 * stream's order are kept; in s->order, each op starts at the earliest time
 * after its stream predecessor's end and, for each predecessor (dependency
 * or sync), that predecessor's end plus handoff_ns when it is on another
 * stream, and no earlier than the capacity allows (only checked when the
 * streams' demands can exceed it); an op of non-zero cost lasts region_ns
 * longer; no earlier than `barrier` allows (nullable, above). O(ops +
 * edges) without the capacity check. Leaves s->order (no longer sorted),
 * waits and memory figures to the caller. */
opsched_status opsched_streams_charge(const opsched_graph *g, opsched_schedule *s,
                                      int64_t region_ns, int64_t handoff_ns,
                                      opsched_charge_barrier *barrier);

/* A charged placement that knows the hand-off: the ops in s->order (a
 * placement's sequential order), each on the stream where it starts
 * earliest: after that stream's last op and each predecessor's end plus
 * handoff_ns when the predecessor is on another stream, no earlier than
 * the barrier (nullable) and the capacity allow. Candidates: the
 * predecessors' streams, the stream free first and the one whose buffers
 * the barrier waits for; ties: the stream holding more predecessors, then
 * the lower index. An op of non-zero cost lasts region_ns longer. Rewrites
 * s->start/end/stream; O((ops + edges) log streams) without the capacity
 * check. Leaves the rest to the caller, as opsched_streams_charge. */
opsched_status opsched_streams_charge_place(const opsched_graph *g, opsched_schedule *s,
                                            int64_t region_ns, int64_t handoff_ns,
                                            opsched_charge_barrier *barrier);

/* opsched_streams_charge_place, sticky: an op goes on its home stream when
 * it starts there at most handoff_ns after the earliest start elsewhere
 * (a wait on another stream costs more than the hand-off: it waits for the
 * slower of two jittery ops, docs/streams.md). Its home is the stream of
 * its heaviest (non-zero cost) placed predecessor; for an op with none (an
 * allocation, a fill), the stream of the heaviest placed other predecessor
 * of its heaviest successor (none: no home). */
opsched_status opsched_streams_charge_place_sticky(const opsched_graph *g, opsched_schedule *s,
                                                   int64_t region_ns, int64_t handoff_ns,
                                                   opsched_charge_barrier *barrier);

#endif
