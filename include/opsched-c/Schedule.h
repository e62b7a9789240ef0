/*===- opsched-c/Schedule.h - opsched C API: schedule one function --*- C -*-===
 *
 * Scheduling one function directly, without a pass manager, and getting its
 * figures back as numbers.
 *
 *===----------------------------------------------------------------------===*/
#ifndef OPSCHED_C_SCHEDULE_H
#define OPSCHED_C_SCHEDULE_H

#include "mlir-c/IR.h"
#include "opsched-c/Support.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The figures of one scheduled function. Versioned by size: the caller sets
 * `structSize` to the sizeof it was compiled with (opschedFiguresInit does),
 * and the library writes only the fields that fit, so programs built against
 * an older, shorter struct keep working with a newer library. New figures
 * are appended (taking the place of reserved slots) and never reordered. */
typedef struct OpschedFigures {
  size_t structSize; /* in: sizeof(OpschedFigures) as the caller knows it */
  int32_t scheduled; /* 1 when at least one block of the function's body was
                        scheduled; 0 when there was nothing to schedule (all
                        figures below are then 0, or -1 where not computed) */
  int32_t streams;   /* streams the schedule uses (opsched.streams) */
  int64_t makespan;  /* ns, summed over the body's blocks (opsched.makespan) */
  int64_t criticalPath; /* ns, likewise (opsched.critical_path) */
  int64_t totalWork;    /* ns: sum of op durations, the one-stream time; -1
                           when not computed */
  int64_t peakMemory;   /* bytes live at the peak of the chosen order
                           (opsched.peak_memory); -1 when not computed */
  int64_t arenaBytes;   /* bytes of the buffer arena (opsched.arena_size);
                           -1 when slots were not assigned */
  int64_t reserved[8];  /* set to 0; later versions put new figures here */
} OpschedFigures;

/* Zeroes `figures` and sets its structSize. */
static inline void opschedFiguresInit(OpschedFigures *figures) {
  memset(figures, 0, sizeof *figures);
  figures->structSize = sizeof *figures;
}

/* Schedules `func` (a function-like op such as func.func) exactly as an
 * `op-schedule` pass configured by `options` would when run on it: every
 * block of its body and nested regions is reordered and annotated with the
 * opsched.* attributes. `options` uses the pipeline syntax
 * ("cost-model=unit streams=2"); the report options `table`, `summary` and
 * `dot` write their files as the pass does ("-" is stderr: stdout may carry
 * IR); the files are opened before anything is scheduled, and a file that
 * cannot be opened or written fails the call.
 *
 * On success fills `figures` (nullable; its structSize must be set) and
 * returns success. On failure the IR is left as it was, and every error -
 * a bad options string, an op that is not a function, a block that cannot
 * be scheduled - goes to `errorCallback` (one call per error, the message
 * prefixed with its location when it has one) or, when `errorCallback` is
 * NULL, to the context's diagnostic handlers (options errors are then
 * emitted at the function's location).
 *
 * Thread safety: distinct functions of one module may be scheduled from
 * distinct threads at once when the context has multithreading enabled (as
 * the pass manager does); errors emitted by one call reach only its own
 * callback. */
OPSCHED_CAPI_EXPORTED MlirLogicalResult
opschedScheduleFunction(MlirOperation func, MlirStringRef options,
                        OpschedFigures *figures,
                        MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* OPSCHED_C_SCHEDULE_H */
