/* lib/mlir/op_notes.h - the per-op diagnostics that repeat at every op of a
 * kind (a dynamic shape, a saturated size, an allocation the arena leaves
 * alone): one per kind and function (internal to lib/mlir).
 *
 * A model with a dynamic batch dimension has one at every op: a remark each
 * printed three lines per op, and MLIR's diagnostic handler writing to an
 * unbuffered stderr took about 75 us a remark (dag 100000 with dynamic
 * shapes: 7.6 s of the pass's 8.0 s; op-materialize-arena on 30,000
 * dynamic allocations: 2.8 s; docs/benchmarks-scale.md, round 30). So a
 * function gets one diagnostic per kind, at its first op of that kind, that
 * says how many more have it: the count grows with the functions, not the
 * ops. Functions are counted apart (the pass runs them in parallel), so the
 * diagnostics never depend on the thread count. */
#ifndef OPSCHED_MLIR_OP_NOTES_H
#define OPSCHED_MLIR_OP_NOTES_H

#include "mlir-c/IR.h"

#include <stdint.h>

typedef enum opsched_note_kind {
  OPSCHED_NOTE_DYNAMIC_SHAPE, /* remark: unknown dimensions count as 1 */
  OPSCHED_NOTE_SIZE_OVERFLOW, /* warning: a size saturates 64-bit byte counts */
  /* op-materialize-arena's remarks: an allocation keeps its own memory */
  OPSCHED_NOTE_ARENA_NO_OFFSET, /* no opsched.offset */
  OPSCHED_NOTE_ARENA_DYNAMIC,   /* opsched.offset -2: dynamic size */
  OPSCHED_NOTE_ARENA_UNSIZED,   /* a memref type the arena cannot size */
  OPSCHED_NOTE_ARENA_ALIGNMENT, /* its own alignment, not met by its offset */
  OPSCHED_NOTE_ARENA_ESCAPES,   /* returned, yielded, stored or passed on */
  OPSCHED_NOTE_KINDS
} opsched_note_kind;

/* One function's notes, zeroed (memset) before its first op. */
typedef struct opsched_note_budget {
  int64_t count[OPSCHED_NOTE_KINDS];
  MlirOperation first[OPSCHED_NOTE_KINDS];
  char text[OPSCHED_NOTE_KINDS][256]; /* the first op's diagnostic */
} opsched_note_budget;

/* Counts a note of kind `k` at `op`, with the kind's own text (the kinds
 * but ARENA_UNSIZED and ARENA_ALIGNMENT); with `b` NULL, emits it now. */
void opsched_note_at(opsched_note_budget *b, opsched_note_kind k, MlirOperation op);

/* As opsched_note_at with a text of the caller's (printf format), formatted
 * only for the function's first op of the kind. */
void opsched_note_atf(opsched_note_budget *b, opsched_note_kind k, MlirOperation op,
                      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Emits each kind's diagnostic at the function's first op of that kind,
 * with the kind's severity; when more ops had it, the text ends with
 * " (here and at N more ops of this function)" (allocations for the
 * arena's kinds). */
void opsched_note_flush(const opsched_note_budget *b);

#endif
