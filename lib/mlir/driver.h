/* lib/mlir/driver.h - the passes' C entry points (called by lib/cxx). */
#ifndef OPSCHED_MLIR_DRIVER_H
#define OPSCHED_MLIR_DRIVER_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "opsched/options.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One function's scheduled blocks, kept alive for the trace and HTML
 * reports, which are written once per module. */
typedef struct opsched_function_report opsched_function_report;

/* A function's figures, over the blocks of its body (nested regions are
 * scheduled but not added). Values are the attributes' (capped like them,
 * OPSCHED_ATTR_VALUE_MAX), so a caller never reads them back from the IR. */
typedef struct opsched_function_figures {
  int scheduled; /* some block of the body was scheduled */
  int64_t ops, blocks, makespan, critical_path, work, lower_bound;
  int64_t waits_before, waits_after, reuse_waits;
  int64_t peak, original_peak, resident; /* -1: no buffers anywhere */
  int64_t buffers, buffer_bytes; /* allocations the model predicts (all blocks) */
  int64_t arena;                 /* largest arena of the body's blocks, -1 none */
  int limit_met;
  /* The frontier layer's (opsched/frontier.h): the unconstrained schedule's
   * makespan (summed) and peak (largest); -1 when no block computed them. */
  int64_t free_makespan, free_peak;
  int32_t streams_used; /* largest over all blocks, nested ones included */
  int arena_limit_met;
} opsched_function_figures;

/* The phases of a run, for timers (--mlir-timing). */
typedef enum opsched_run_phase {
  OPSCHED_PHASE_PLAN,       /* graph, schedule, memory, streams, arena per block */
  OPSCHED_PHASE_ATTRIBUTES, /* writing the results back (and the table, DOT text) */
  OPSCHED_PHASE_REPORTS,    /* the trace and HTML report's data */
  OPSCHED_PHASE_FILES,      /* writing the output files, once per run */
  /* Inside OPSCHED_PHASE_PLAN, once per block (the timers add up): */
  OPSCHED_PHASE_GRAPH,    /* ops, costs, buffer model, dependency edges */
  OPSCHED_PHASE_SCHEDULE, /* order, memory policy, streams and waits */
  OPSCHED_PHASE_ARENA,    /* buffer slots and offsets */
  OPSCHED_PHASE_COUNT
} opsched_run_phase;

/* Called at the start (begin = 1) and end (begin = 0) of each phase, on the
 * thread running the function. */
typedef void (*opsched_phase_callback)(void *user, opsched_run_phase phase, int begin);

/* What a run over one function should produce besides attributes. */
typedef struct opsched_run_outputs {
  int reorder;  /* 0: annotate ranks/critical only (op-dep-graph) */
  int slots_only; /* op-buffer-slots: keep the IR's schedule, assign slots */
  FILE *dot;    /* nullable: Graphviz clusters, one per scheduled block */
  FILE *table;  /* nullable: the seed's plain table per scheduled block */
  FILE *summary; /* nullable: one line of figures per function */
  int *cluster_counter; /* numbering of DOT clusters across functions */
  /* Nullable: on success receives the function's report data (owned by the
   * caller, freed with opsched_mlir_function_report_destroy; NULL when nothing
   * was scheduled). */
  opsched_function_report **report;
  /* Nullable: on success receives the function's figures. */
  opsched_function_figures *figures;
  /* Nullable: phase boundaries (phase_user is passed back). */
  opsched_phase_callback phase;
  void *phase_user;
} opsched_run_outputs;

/* Schedules (or, without `reorder`, analyses) every block of `func` - the
 * body and every nested region, each on its own - and writes the results
 * back as attributes. Either every block is rewritten or, on failure (an
 * error was emitted at the op concerned), the IR is left untouched. */
MlirLogicalResult opsched_mlir_run_on_function(MlirOperation func,
                                           const opsched_options *options,
                                           const opsched_run_outputs *outputs);

void opsched_mlir_function_report_destroy(opsched_function_report *report);

/* Writes the Chrome trace (`trace`, nullable) and the HTML report (`html`,
 * nullable) of `count` functions, in the order given. Returns non-zero when
 * a writer failed. */
int opsched_mlir_write_reports(opsched_function_report *const *reports, size_t count,
                            const char *subtitle, FILE *trace, FILE *html);

#ifdef __cplusplus
}
#endif

#endif
