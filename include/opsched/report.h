/* opsched/report.h - human-readable views of a schedule, pure C. */
#ifndef OPSCHED_REPORT_H
#define OPSCHED_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "opsched/arena.h"
#include "opsched/graph.h"
#include "opsched/memory.h"
#include "opsched/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Starts / ends a Graphviz digraph on `out`. */
void opsched_dot_begin(FILE *out);
void opsched_dot_end(FILE *out);

/* Writes one block as a cluster `cluster_id` titled `title`: a node per op
 * labelled with `labels[v]`, its cost and rank, numbered by its position in
 * the schedule's sequential order; critical-path nodes and the edges between
 * them (u->v with rank(u) == cost(u) + rank(v)) drawn red and bold. */
void opsched_dot_cluster(FILE *out, int cluster_id, const char *title,
                         const opsched_graph *graph,
                         const opsched_schedule *schedule,
                         const char *const *labels);

/* As opsched_dot_cluster; with `fold` != 0, zero-cost ops (constants,
 * empty tensors, views) are left out unless every op costs 0, and an edge
 * u -> v is drawn (dashed) where v depends on u through left-out ops only. */
void opsched_dot_cluster_folded(FILE *out, int cluster_id, const char *title,
                                const opsched_graph *graph,
                                const opsched_schedule *schedule,
                                const char *const *labels, int fold);

/* Prints the schedule as the seed's plain table: "name start end" per op in
 * sequential order, then "makespan: N". */
void opsched_print_table(FILE *out, const opsched_schedule *schedule,
                         const char *const *labels);

/* ---- Visual reports: Chrome trace JSON and a self-contained HTML page ----
 *
 * The caller describes what it scheduled in plain structs that only borrow
 * (nothing is copied or freed by the writers) and hands them to a writer.
 * Every part beyond graph + schedule is optional: a NULL array or a 0 count
 * means "not known" and the view that needs it is left out or says so.
 *
 * Positions: memory arrays are indexed by *position* in an order (0 = the
 * first op run). The original order is the block's op order, so position i
 * there is node i. The scheduled memory order is `mem_order` when given,
 * otherwise the schedule's sequential order (opsched_schedule_order). */

/* One buffer of the arena picture. */
typedef struct opsched_report_buffer {
  int64_t offset; /* byte offset in the arena (>= 0) */
  int64_t size;   /* bytes (>= 0) */
  int32_t first;  /* first position (scheduled memory order) it is live */
  int32_t last;   /* last position it is live, inclusive (>= first) */
  int32_t slot;   /* arena slot id (buffers sharing memory share it), -1 = none */
  int32_t node;   /* allocating node id, -1 = none/resident */
} opsched_report_buffer;

/* The makespan / peak-memory frontier a block's schedule was chosen on
 * (opsched/frontier.h): every candidate the frontier layer scheduled, in
 * run order. Arrays have num_points entries and only borrow. */
#define OPSCHED_REPORT_FRONTIER_MAX_POINTS 64
typedef struct opsched_report_frontier {
  int32_t num_points;      /* 1 .. OPSCHED_REPORT_FRONTIER_MAX_POINTS */
  int32_t chosen;          /* index of the block's schedule */
  int32_t unconstrained;   /* index of the unconstrained run; -1 = none */
  const int64_t *makespan; /* ns */
  const int64_t *peak;     /* bytes (peak of live bytes); -1 = no memory
                            * model (allowed only with not_run) */
  const int64_t *budget;   /* max-memory the run had, 0 = none; NULL = unknown */
  const int32_t *policy;   /* opsched_memory_policy of the run; NULL = unknown */
  const int64_t *arena;    /* arena size when packed, -1 = not; NULL = unknown */
  int64_t floor_peak;      /* one-stream peak of the policy's order; -1 = none */
  int64_t memory_limit;    /* max-memory; 0 = none */
  /* The makespan tolerance when the choice was "lowest peak within it of
   * the best makespan" (several streams, no limit, critical path); < 0
   * when another rule chose. */
  double tolerance;
  /* Why the frontier made one run and no sweep (e.g. "one stream"); NULL
   * when it swept. */
  const char *not_run;
} opsched_report_frontier;

/* One scheduled block. `graph` (finalized) and `schedule` (of that graph)
 * are required; everything else is nullable / 0 = unknown. */
typedef struct opsched_report_block {
  const char *title;                /* e.g. "^bb0" or "block 0"; NULL = "block K" */
  const opsched_graph *graph;       /* required */
  const opsched_schedule *schedule; /* required */
  const char *const *labels;        /* per node id: op name; NULL = "op<id>" */
  const char *const *locations;     /* per node id: source location; NULL = none */
  const int64_t *node_bytes;        /* per node id: bytes the op allocates; NULL */
  /* Memory over time (live bytes while the op at each position runs). */
  const int64_t *mem_original;      /* length n, original order; NULL */
  const int64_t *mem_scheduled;     /* length n, scheduled memory order; NULL */
  const int32_t *mem_order;         /* node ids; NULL = the schedule's order */
  int64_t peak_original;            /* 0 = max of mem_original */
  int64_t peak_scheduled;           /* 0 = max of mem_scheduled */
  int64_t memory_limit;             /* bytes; 0 = none */
  /* Buffer assignment (arena picture). */
  const opsched_report_buffer *buffers; /* NULL = none */
  int32_t num_buffers;
  int64_t arena_size; /* bytes; 0 = unknown (then max offset + size of buffers) */
  /* Appended fields (zero-initialised blocks keep the old behaviour). */
  const int64_t *mem_after; /* length n, scheduled memory order: live bytes
                             * right after the op (opsched.live_bytes); NULL */
  /* Live bytes over time on several streams, a step function: from
   * mem_time[i] (ns) to mem_time[i + 1] the live bytes are mem_time_bytes[i].
   * Equal consecutive times carry a zero-duration op's spike. NULL = none. */
  const int64_t *mem_time;
  const int64_t *mem_time_bytes;
  int32_t mem_time_points;
  /* Indices into `buffers` of the buffers live at the schedule's peak (in
   * time on several streams, while the peak op runs on one); NULL = none. */
  const int32_t *peak_buffers;
  int32_t num_peak_buffers;
  int owns_memory; /* set by opsched_report_block_fill_memory */
  /* The frontier the schedule was chosen on; NULL = none (no view). */
  const opsched_report_frontier *frontier;
} opsched_report_block;

/* Fills the memory parts of `block` (graph and schedule set, made with the
 * same `buffers`) from the memory model, so that every number equals what
 * the schedule reports and the pass writes as attributes: mem_scheduled
 * (live bytes while the op at each position of the schedule's sequential
 * order runs; its maximum is opsched_schedule_peak_memory on one stream),
 * mem_after (after it: opsched.live_bytes), mem_original (while each op of
 * the original order runs), on several streams the step function in time
 * (its maximum is opsched_schedule_peak_memory there), the peaks, the
 * buffers (offsets from `arena` when given, else -1, slot = buffer id) and
 * the buffers live at the peak. `memory_limit` is copied. The arrays belong
 * to the block until opsched_report_block_free_memory. Returns OPSCHED_OK,
 * OPSCHED_ERR_INVALID (NULL or mismatched arguments), OPSCHED_ERR_NOMEM. */
opsched_status opsched_report_block_fill_memory(opsched_report_block *block,
                                                const opsched_buffers *buffers,
                                                const opsched_arena *arena,
                                                int64_t memory_limit);
/* Frees what opsched_report_block_fill_memory allocated (nothing when it
 * did not fill the block) and clears those fields. */
void opsched_report_block_free_memory(opsched_report_block *block);

/* A function: its name and the blocks scheduled in it (one section each). */
typedef struct opsched_report_function {
  const char *name; /* e.g. "@main"; NULL = "function K" */
  const opsched_report_block *blocks;
  int32_t num_blocks;
} opsched_report_function;

/* A module: one report per module, one section per function. */
typedef struct opsched_report_module {
  const char *title;    /* page / trace title; NULL = "opsched report" */
  const char *subtitle; /* e.g. the pass options; NULL = none */
  const opsched_report_function *functions;
  int32_t num_functions;
} opsched_report_module;

/* Writes `module` as Chrome Trace Event Format JSON (object form, opens in
 * ui.perfetto.dev and chrome://tracing). Per block two processes: the
 * schedule (one thread per stream, an "X" slice per op with args node,
 * location, cost_ns, bytes, rank, critical, waits_for; a flow for every
 * cross-stream wait bound to its slices with bind_id / flow_out / flow_in,
 * through a zero-length "wait" slice per flow for an op with several;
 * counters "live bytes" (in time from mem_time when given) and "memory
 * limit") and the
 * original order on one stream (slices back to back from 0, its own live
 * bytes counter). Timestamps are microseconds with ns precision (printed
 * exactly from integers); displayTimeUnit is "ns". The scheduled counter
 * samples sit at the start time of the op at each position (made
 * non-decreasing). Deterministic: equal input, equal bytes. Returns
 * OPSCHED_OK, OPSCHED_ERR_INVALID on a NULL/ill-formed argument (missing
 * graph or schedule, mismatched node counts), OPSCHED_ERR_STATE when a
 * write to `out` failed. */
opsched_status opsched_trace_write(FILE *out, const opsched_report_module *module);

/* Writes `module` as one self-contained HTML page (inline CSS, SVG and JS;
 * nothing loaded from the network). Per block: a summary table (makespan,
 * lower bound, speedup vs the original order on one stream, peaks, arena,
 * fragmentation, waits before/after reduction), the dependency graph
 * (critical path in red, nodes numbered by sequential order; above
 * OPSCHED_REPORT_GRAPH_MAX_NODES an aggregated per-level view), memory
 * over time (both orders, limit, peaks, the arena picture when buffers are
 * given) and a Gantt chart per stream with waits, makespan and lower bound
 * (zoom with the buttons or ctrl+wheel), and with `frontier` the makespan /
 * peak chart of the candidates (Pareto-optimal ones connected, the chosen
 * and unconstrained points marked, floor, limit and tolerance band) and
 * their table, or why there was no sweep. Hovering an op shows its name,
 * location and numbers. The page records script errors in
 * #report-errors and sets data-report-ready="1" on <body> when its script
 * has run. Deterministic; same return codes as opsched_trace_write. */
opsched_status opsched_html_write(FILE *out, const opsched_report_module *module);

/* Largest block drawn node by node in the HTML graph view. */
#define OPSCHED_REPORT_GRAPH_MAX_NODES 400

#ifdef __cplusplus
}
#endif

#endif
