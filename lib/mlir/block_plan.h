/* lib/mlir/block_plan.h - one block's dependency graph and schedule, built
 * from MLIR and written back (internal to lib/mlir).
 *
 * Building never mutates the IR; applying does. The pass builds the plans of
 * every block of a function first and applies them only when all succeeded,
 * so a failing function is never left half-rewritten. */
#ifndef OPSCHED_MLIR_BLOCK_PLAN_H
#define OPSCHED_MLIR_BLOCK_PLAN_H

#include "buffers.h"
#include "mlir-c/IR.h"
#include "op_facts.h"
#include "op_notes.h"
#include "opsched/arena.h"
#include "opsched/graph.h"
#include "opsched/options.h"
#include "opsched/schedule.h"

/* The candidates the frontier layer scheduled for a block (a copy of
 * opsched_frontier_result's points, sized to them), for the reports. */
typedef struct opsched_plan_frontier {
  int32_t num_points, chosen, unconstrained; /* unconstrained: -1 = none */
  int64_t floor_peak;                        /* -1 = not computed */
  int64_t *makespan, *peak, *budget, *arena; /* arena -1: not packed */
  int32_t *policy;                           /* opsched_memory_policy */
} opsched_plan_frontier;

typedef struct opsched_block_plan {
  MlirBlock block;
  int32_t n;                 /* schedulable ops (the terminator excluded) */
  MlirOperation *ops;        /* in original order */
  MlirOperation terminator;  /* null when the block has none */
  int32_t max_results;       /* most results of one op (read with the ops) */
  opsched_graph *graph;      /* NULL when the block is left untouched */
  opsched_schedule *schedule;
  opsched_block_buffers bufs; /* the memory model (bufs.buffers may be NULL) */
  opsched_arena *arena;       /* slots and offsets; NULL when not assigned */
  int64_t reuse_waits;        /* waits added so buffers can share memory */
  /* From the frontier layer (opsched/frontier.h): the unconstrained
   * schedule's makespan and peak (-1: not computed), whether the peak and
   * the arena fit max-memory. */
  int64_t unconstrained_makespan, unconstrained_peak;
  int memory_limit_met, arena_limit_met;
  opsched_plan_frontier *frontier; /* owned; NULL when not from the frontier */
} opsched_block_plan;

/* Where a plan's schedule comes from. */
typedef enum opsched_plan_source {
  OPSCHED_PLAN_SCHEDULE,  /* opsched_schedule_run (op-schedule, op-dep-graph) */
  OPSCHED_PLAN_PLACEMENT  /* the IR as it is: opsched.start/end/stream when every
                           * op has them, else the IR order on one stream */
} opsched_plan_source;

typedef enum opsched_plan_result {
  OPSCHED_PLAN_OK,        /* graph and schedule built */
  OPSCHED_PLAN_UNTOUCHED, /* nothing to do (or a warned-about cycle) */
  OPSCHED_PLAN_FAILED     /* an error was emitted at the offending op */
} opsched_plan_result;

/* Builds `plan` for `block`; diagnostics go to the ops' locations. The plan
 * must be released with opsched_block_plan_release whatever the result. */
opsched_plan_result opsched_block_plan_build(opsched_block_plan *plan, MlirBlock block,
                                             const opsched_options *options,
                                             opsched_plan_source source);

/* The steps of a build, reported to timers (--mlir-timing). */
typedef enum opsched_plan_phase {
  OPSCHED_PLAN_PHASE_GRAPH,    /* ops, costs, buffers, edges */
  OPSCHED_PLAN_PHASE_SCHEDULE, /* order, memory policy, streams (or the IR's placement) */
  OPSCHED_PLAN_PHASE_ARENA     /* buffer slots and offsets */
} opsched_plan_phase;
typedef struct opsched_plan_hooks {
  void (*phase)(void *user, opsched_plan_phase phase, int begin);
  void *user;
} opsched_plan_hooks;

/* A block of fewer ops calls no hooks: its phases are counted in the
 * caller's enclosing timer only. Under --mlir-timing each phase boundary
 * costs MLIR's pass timing a thread-id system call or two (about 20 us a
 * block of three phases on the machines of docs/benchmarks-scale.md, round
 * 29): on 50,000 blocks of 2 ops the nested timers had tripled the plan's
 * time, while on a block of 128 ops they cost a few percent of it. */
enum { OPSCHED_PHASE_TIMER_MIN_OPS = 128 };

/* opsched_block_plan_build, calling `hooks` (nullable) around each phase of
 * a block of at least OPSCHED_PHASE_TIMER_MIN_OPS ops, with the summaries
 * of the function's region ops in `facts` (nullable; one cache for every
 * block of a function saves walking nested regions again at each level:
 * op_facts.h), counting the per-op notes in the function's `notes`
 * (nullable: a note at every op; op_notes.h). */
opsched_plan_result opsched_block_plan_build_timed(opsched_block_plan *plan, MlirBlock block,
                                                   const opsched_options *options,
                                                   opsched_plan_source source,
                                                   const opsched_plan_hooks *hooks,
                                                   opsched_op_facts *facts,
                                                   opsched_note_budget *notes);

void opsched_block_plan_release(opsched_block_plan *plan);

/* Frees what opsched_block_plan_apply does not read: the graph and the
 * core's buffer model (plan->graph and plan->bufs.buffers become NULL; the
 * per-op buffer arrays stay). For a plan that no report will read, so that
 * the attributes apply creates can reuse the memory. */
void opsched_block_plan_trim(opsched_block_plan *plan);

/* What opsched_block_plan_apply writes. */
enum {
  OPSCHED_APPLY_RANKS = 1,    /* rank, critical */
  OPSCHED_APPLY_SCHEDULE = 2, /* start, end, live bytes, streams, and the new order */
  OPSCHED_APPLY_SLOTS = 4     /* slot, offset, size per result (or removes them) */
};

struct opsched_attr_writer;

/* Writes the plan back through `w` (a writer of the ops' context, shared by
 * the blocks of a run): the attributes `flags` select, each op's in one
 * dictionary update, and with OPSCHED_APPLY_SCHEDULE the new order. */
void opsched_block_plan_apply(const opsched_block_plan *plan, int flags,
                              struct opsched_attr_writer *w);

#endif
