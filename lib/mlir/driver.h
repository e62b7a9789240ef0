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

/* What a run over one function should produce besides attributes. */
typedef struct opsched_run_outputs {
  int reorder;  /* 0: annotate ranks/critical only (op-dep-graph) */
  int slots_only; /* op-buffer-slots: keep the IR's schedule, assign slots */
  FILE *dot;    /* nullable: Graphviz clusters, one per scheduled block */
  FILE *table;  /* nullable: the seed's plain table per scheduled block */
  FILE *summary; /* nullable: one line of figures per function */
  int *cluster_counter; /* numbering of DOT clusters across functions */
  /* Nullable: on success receives the function's report data (owned by the
   * caller, freed with opschedMlirFunctionReportDestroy; NULL when nothing
   * was scheduled). */
  opsched_function_report **report;
} opsched_run_outputs;

/* Schedules (or, without `reorder`, analyses) every block of `func` - the
 * body and every nested region, each on its own - and writes the results
 * back as attributes. Either every block is rewritten or, on failure (an
 * error was emitted at the op concerned), the IR is left untouched. */
MlirLogicalResult opschedMlirRunOnFunction(MlirOperation func,
                                           const opsched_options *options,
                                           const opsched_run_outputs *outputs);

void opschedMlirFunctionReportDestroy(opsched_function_report *report);

/* Writes the Chrome trace (`trace`, nullable) and the HTML report (`html`,
 * nullable) of `count` functions, in the order given. Returns non-zero when
 * a writer failed. */
int opschedMlirWriteReports(opsched_function_report *const *reports, size_t count,
                            const char *subtitle, FILE *trace, FILE *html);

#ifdef __cplusplus
}
#endif

#endif
