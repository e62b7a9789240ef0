/* Per-op diagnostics, one per kind and function: see op_notes.h. */
#include "op_notes.h"

#include "queries.h"

#include <stdarg.h>
#include <stdio.h>

typedef struct note_kind {
  opsched_severity severity;
  const char *text; /* NULL: the caller's (opsched_note_atf) */
  const char *one, *many; /* what the count counts */
} note_kind;

static const note_kind kinds[OPSCHED_NOTE_KINDS] = {
    [OPSCHED_NOTE_DYNAMIC_SHAPE] = {OPSCHED_SEVERITY_REMARK,
                                    "opsched: dynamic shape: the cost model counts each unknown "
                                    "dimension as 1 and its buffers count 'opsched.bytes' bytes "
                                    "(0 when absent)",
                                    "op", "ops"},
    [OPSCHED_NOTE_SIZE_OVERFLOW] = {OPSCHED_SEVERITY_WARNING,
                                    "opsched: tensor size overflows 64-bit byte counts; counted "
                                    "as the largest size",
                                    "op", "ops"},
    [OPSCHED_NOTE_ARENA_NO_OFFSET] = {OPSCHED_SEVERITY_REMARK,
                                      "opsched: allocation without opsched.offset keeps its own "
                                      "memory",
                                      "allocation", "allocations"},
    [OPSCHED_NOTE_ARENA_DYNAMIC] = {OPSCHED_SEVERITY_REMARK,
                                    "opsched: dynamic size: the buffer keeps its own allocation",
                                    "allocation", "allocations"},
    [OPSCHED_NOTE_ARENA_UNSIZED] = {OPSCHED_SEVERITY_REMARK, NULL, "allocation", "allocations"},
    [OPSCHED_NOTE_ARENA_ALIGNMENT] = {OPSCHED_SEVERITY_REMARK, NULL, "allocation",
                                      "allocations"},
    [OPSCHED_NOTE_ARENA_ESCAPES] = {OPSCHED_SEVERITY_REMARK,
                                    "opsched: the buffer escapes (returned, yielded, stored or "
                                    "passed to a call): it keeps its own allocation",
                                    "allocation", "allocations"},
};

static void emit(MlirOperation op, opsched_note_kind k, const char *text) {
  opsched_mlir_emit(mlirOperationGetLocation(op), kinds[k].severity, text);
}

/* Counts the note; 1 when its text is wanted (kept for the first op, or
 * emitted at once without a budget). */
static int note_first(opsched_note_budget *b, opsched_note_kind k, MlirOperation op) {
  if (!b)
    return 1;
  if (b->count[k]++ > 0)
    return 0;
  b->first[k] = op;
  return 1;
}

void opsched_note_at(opsched_note_budget *b, opsched_note_kind k, MlirOperation op) {
  /* The kinds without a fixed text are the callers' (opsched_note_atf). */
  opsched_note_atf(b, k, op, "%s", kinds[k].text ? kinds[k].text : "");
}

void opsched_note_atf(opsched_note_budget *b, opsched_note_kind k, MlirOperation op,
                      const char *fmt, ...) {
  if (!note_first(b, k, op))
    return;
  char own[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b ? b->text[k] : own, sizeof own, fmt, ap);
  va_end(ap);
  if (!b)
    emit(op, k, own);
}

void opsched_note_flush(const opsched_note_budget *b) {
  for (int k = 0; k < OPSCHED_NOTE_KINDS; k++) {
    if (b->count[k] == 0)
      continue;
    if (b->count[k] == 1) {
      emit(b->first[k], (opsched_note_kind)k, b->text[k]);
      continue;
    }
    char msg[400];
    int64_t more = b->count[k] - 1;
    snprintf(msg, sizeof msg, "%s (here and at %lld more %s of this function)", b->text[k],
             (long long)more, more == 1 ? kinds[k].one : kinds[k].many);
    emit(b->first[k], (opsched_note_kind)k, msg);
  }
}
