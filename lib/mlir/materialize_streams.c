/* lib/mlir/materialize_streams.c - op-materialize-streams: the streams of
 * the schedule become `async.execute` regions.
 *
 * A segment is a run of consecutive ops (in IR order) of one stream. A new
 * segment starts at an op with `opsched.waits`, and a segment ends after an
 * op another stream waits on: every wait then runs from the end of one
 * region to the start of another, so the regions' tokens express the
 * schedule's waits exactly, no coarser. A value read on another stream needs
 * no cut of its own: the schedule orders its reader after the producer
 * through waits, and the wait's source ends the producer's segment no later.
 * Each segment depends on the previous one of its stream (stream order),
 * on the segments holding the ops it waits on, and receives the values it
 * reads from other segments as `!async.value` operands. Ops without
 * `opsched.stream` may only come before the first scheduled op (they stay
 * in the caller, e.g. the arena and its offsets) or after the last one
 * (they run after everything is awaited, e.g. the arena's deallocation).
 *
 * Analysis first, then the rewrite: bad input leaves the IR untouched. */
#include "materialize.h"

#include "attrs.h"
#include "materialize_util.h"
#include "ptrmap.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable array of int32 (segment ids, op indices). */
typedef struct ivec {
  int32_t *v;
  size_t n, cap;
} ivec;

static int ivec_push(ivec *a, int32_t x) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 4;
    int32_t *n = realloc(a->v, cap * sizeof *n);
    if (!n)
      return 0;
    a->v = n;
    a->cap = cap;
  }
  a->v[a->n++] = x;
  return 1;
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Sorts `a` and drops repeated entries. */
static void ivec_sort_unique(ivec *a) {
  if (a->n < 2)
    return;
  qsort(a->v, a->n, sizeof *a->v, cmp_i32);
  size_t w = 1;
  for (size_t i = 1; i < a->n; i++)
    if (a->v[i] != a->v[w - 1])
      a->v[w++] = a->v[i];
  a->n = w;
}

/* A value crossing segments: op `op`'s result `result`. */
typedef struct crossing {
  int32_t op, result;
} crossing;

typedef struct segment {
  int32_t stream, first;
  ivec ops;     /* op indices, IR order */
  ivec deps;    /* segments whose tokens it waits on */
  ivec yields;  /* pairs (op, result) flattened: values it hands out */
  ivec imports; /* pairs (op, result): values it receives */
  MlirOperation exec;
} segment;

/* A scheduled op's id and its position in the body. */
typedef struct id_pos {
  int64_t id;
  int32_t pos;
} id_pos;

typedef struct stream_job {
  MlirOperation func;
  MlirBlock body;
  MlirOperation *ops; /* the body's ops but the terminator */
  int32_t n, first_sched, last_sched;
  int32_t *stream, *seg; /* per op; stream -1 = unscheduled */
  int64_t *id;
  uint8_t *split_after;
  opsched_ptrmap index; /* op -> position */
  id_pos *by_id;        /* the scheduled ops by (id, position) */
  segment *segs;
  int32_t nsegs;
  ivec tail_imports; /* pairs: values the ops after the schedule read */
  /* `!async.value<t>` by t, direct-mapped: making one prints and parses
   * a type, and a block hands out values of few types. */
  struct {
    const void *type;
    MlirType value;
  } async_types[64];
  int errors;
} stream_job;

/* The body op that holds `op` (itself or an ancestor); null for an op
 * outside the body. */
static MlirOperation top_op(MlirBlock body, MlirOperation op) {
  while (!mlirOperationIsNull(op)) {
    MlirBlock b = mlirOperationGetBlock(op);
    if (!mlirBlockIsNull(b) && mlirBlockEqual(b, body))
      return op;
    op = mlirOperationGetParentOperation(op);
  }
  return op;
}

/* The position of the body op that holds `op`, or -1 for the terminator
 * and ops outside the body. */
static int32_t top_index(const stream_job *j, MlirOperation op) {
  MlirOperation top = top_op(j->body, op);
  return mlirOperationIsNull(top) ? -1 : opsched_ptrmap_get(&j->index, top.ptr);
}

/* Appends the pair (op, result) unless it is the last one. link_segments
 * pushes pairs by ascending (op, result) and all pushes of one pair to one
 * list in a row, so the lists stay sorted without repeats. */
static int pair_push_new(ivec *a, int32_t op, int32_t result) {
  if (a->n >= 2 && a->v[a->n - 2] == op && a->v[a->n - 1] == result)
    return 1;
  return ivec_push(a, op) && ivec_push(a, result);
}

/* The position of pair (op, result) in the sorted pair list `a` (pairs
 * counted), or -1. */
static intptr_t pair_find(const ivec *a, int32_t op, int32_t result) {
  size_t lo = 0, hi = a->n / 2;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int32_t mo = a->v[2 * mid], mr = a->v[2 * mid + 1];
    if (mo < op || (mo == op && mr < result))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < a->n / 2 && a->v[2 * lo] == op && a->v[2 * lo + 1] == result ? (intptr_t)lo : -1;
}

/* Stops the walk at the first op that carries opsched.stream. */
static MlirWalkResult find_stream(MlirOperation op, void *found) {
  int64_t stream;
  if (opsched_read_i64(op, OPSCHED_ATTR_STREAM, &stream) == 0)
    return MlirWalkResultAdvance;
  *(int *)found = 1;
  return MlirWalkResultInterrupt;
}

/* Reads every op's stream, id and waits; checks where unscheduled ops are. */
static int read_schedule(stream_job *j, int report_unannotated) {
  j->first_sched = -1;
  j->last_sched = -1;
  for (int32_t i = 0; i < j->n; i++) {
    int64_t s = -1, id = -1;
    int hs = opsched_read_i64(j->ops[i], OPSCHED_ATTR_STREAM, &s);
    int hi = opsched_read_i64(j->ops[i], OPSCHED_ATTR_ID, &id);
    if (hs < 0 || hi < 0 || (hs > 0 && (s < 0 || s > INT32_MAX || hi <= 0 || id < 0))) {
      opsched_emitf(j->ops[i], OPSCHED_SEVERITY_ERROR,
                    "opsched: malformed opsched.stream / opsched.id (want integers >= 0, "
                    "both present)");
      j->errors++;
      continue;
    }
    j->stream[i] = hs > 0 ? (int32_t)s : -1;
    j->id[i] = hs > 0 ? id : -1;
    if (hs > 0) {
      if (j->first_sched < 0)
        j->first_sched = i;
      j->last_sched = i;
    }
  }
  if (j->errors)
    return 0;
  if (j->first_sched < 0) {
    if (j->n > 0 && report_unannotated) {
      /* Streams in nested blocks only (a body of one op, such as an
       * scf.index_switch whose cases op-schedule planned): the user did
       * run op-schedule on several streams, so say what is missing. */
      int nested = 0;
      mlirOperationWalk(j->func, find_stream, &nested, MlirWalkPreOrder);
      opsched_emitf(j->func, OPSCHED_SEVERITY_ERROR,
                    nested ? "opsched: no op of the body carries opsched.stream, only ops of "
                             "nested blocks do: op-materialize-streams runs the streams of the "
                             "function's body only"
                           : "opsched: no op of the body carries opsched.stream: run "
                             "op-schedule with streams > 1 first");
      return 0;
    }
    return 1;
  }
  for (int32_t i = j->first_sched; i <= j->last_sched; i++)
    if (j->stream[i] < 0) {
      opsched_emitf(j->ops[i], OPSCHED_SEVERITY_ERROR,
                    "opsched: op without opsched.stream between scheduled ops: "
                    "re-run op-schedule after the pass that added it");
      j->errors++;
    }
  return j->errors == 0;
}

static int cmp_id_pos(const void *a, const void *b) {
  const id_pos *x = a, *y = b;
  if (x->id != y->id)
    return (x->id > y->id) - (x->id < y->id);
  return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Sorts the scheduled ops by (id, position), so that find_id is a binary
 * search: a scan back from every op with waits was quadratic on a block
 * whose waits reach far back. */
static int index_ids(stream_job *j) {
  size_t n = (size_t)(j->last_sched - j->first_sched + 1);
  j->by_id = malloc(n * sizeof *j->by_id);
  if (!j->by_id)
    return 0;
  for (size_t k = 0; k < n; k++) {
    j->by_id[k].pos = j->first_sched + (int32_t)k;
    j->by_id[k].id = j->id[j->by_id[k].pos];
  }
  qsort(j->by_id, n, sizeof *j->by_id, cmp_id_pos);
  return 1;
}

/* The last op with id `id` among the scheduled ops before `before`, or -1. */
static int32_t find_id(const stream_job *j, int64_t id, int32_t before) {
  size_t lo = 0, hi = (size_t)(j->last_sched - j->first_sched + 1);
  while (lo < hi) { /* the first entry not below (id, before) */
    size_t mid = lo + (hi - lo) / 2;
    const id_pos *e = &j->by_id[mid];
    if (e->id < id || (e->id == id && e->pos < before))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 && j->by_id[lo - 1].id == id ? j->by_id[lo - 1].pos : -1;
}

/* Marks the ops other ops wait on (they end a segment); checks the waits
 * refer to earlier ops. */
static int mark_splits(stream_job *j) {
  for (int32_t i = j->first_sched; i <= j->last_sched; i++) {
    MlirAttribute w = mlirOperationGetDiscardableAttributeByName(
        j->ops[i], mlirStringRefCreateFromCString(OPSCHED_ATTR_WAITS));
    if (!mlirAttributeIsNull(w)) {
      if (!mlirAttributeIsADenseI64Array(w)) {
        opsched_emitf(j->ops[i], OPSCHED_SEVERITY_ERROR,
                      "opsched: malformed opsched.waits (want array<i64>)");
        j->errors++;
        continue;
      }
      for (intptr_t k = 0; k < mlirDenseArrayGetNumElements(w); k++) {
        int64_t id = mlirDenseI64ArrayGetElement(w, k);
        int32_t src = find_id(j, id, i);
        if (src < 0) {
          opsched_emitf(j->ops[i], OPSCHED_SEVERITY_ERROR,
                        "opsched: waits on id %lld, which is no earlier op of this block",
                        (long long)id);
          j->errors++;
        } else {
          j->split_after[src] = 1;
        }
      }
    }
  }
  return j->errors == 0;
}

static int has_waits(const stream_job *j, int32_t i) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
      j->ops[i], mlirStringRefCreateFromCString(OPSCHED_ATTR_WAITS)));
}

/* Cuts the streams into segments and records their dependencies. */
static int build_segments(stream_job *j) {
  int32_t nstreams = 0;
  for (int32_t i = j->first_sched; i <= j->last_sched; i++)
    if (j->stream[i] + 1 > nstreams)
      nstreams = j->stream[i] + 1;
  int32_t *open = malloc((size_t)nstreams * sizeof *open); /* -1: none */
  int32_t *last = malloc((size_t)nstreams * sizeof *last); /* last segment */
  j->segs = calloc((size_t)(j->last_sched - j->first_sched + 1), sizeof *j->segs);
  if (!open || !last || !j->segs) {
    free(open);
    free(last);
    return 0;
  }
  for (int32_t s = 0; s < nstreams; s++)
    open[s] = last[s] = -1;
  int ok = 1;
  for (int32_t i = j->first_sched; i <= j->last_sched && ok; i++) {
    int32_t s = j->stream[i];
    if (open[s] < 0 || has_waits(j, i)) {
      segment *g = &j->segs[j->nsegs];
      g->stream = s;
      g->first = i;
      if (last[s] >= 0)
        ok &= ivec_push(&g->deps, last[s]);
      open[s] = last[s] = j->nsegs++;
    }
    j->seg[i] = open[s];
    ok &= ivec_push(&j->segs[open[s]].ops, i);
    if (j->split_after[i])
      open[s] = -1;
  }
  free(open);
  free(last);
  return ok;
}

/* Adds the waits' and the values' dependencies between segments.
 *
 * Every region awaits its dependencies in one global order: tokens by
 * segment (creation order), then values by producing op (the imports are
 * collected in that order). The async runtime resumes an awaiter inline
 * while holding the mutex of the token that became ready, and the awaiter
 * then locks its next dependency's mutex; two regions that listed the same
 * two tokens in opposite orders (each stream's predecessor first, then the
 * other stream's) deadlocked when both tokens completed at once, one
 * thread holding each mutex and waiting for the other's. Sorted lists make
 * the lock order acyclic. */
static int link_segments(stream_job *j) {
  int ok = 1;
  for (int32_t i = j->first_sched; i <= j->last_sched && ok; i++) {
    segment *g = &j->segs[j->seg[i]];
    MlirAttribute w = mlirOperationGetDiscardableAttributeByName(
        j->ops[i], mlirStringRefCreateFromCString(OPSCHED_ATTR_WAITS));
    for (intptr_t k = 0; !mlirAttributeIsNull(w) && k < mlirDenseArrayGetNumElements(w); k++) {
      int32_t src = find_id(j, mlirDenseI64ArrayGetElement(w, k), i);
      if (j->seg[src] != j->seg[i])
        ok &= ivec_push(&g->deps, j->seg[src]);
    }
    for (intptr_t r = 0; r < mlirOperationGetNumResults(j->ops[i]); r++)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(j->ops[i], r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        int32_t user = top_index(j, mlirOpOperandGetOwner(u));
        if (user >= 0 && user <= j->last_sched && j->seg[user] == j->seg[i])
          continue;
        ok &= pair_push_new(&g->yields, i, (int32_t)r);
        if (user >= 0 && user <= j->last_sched)
          ok &= pair_push_new(&j->segs[j->seg[user]].imports, i, (int32_t)r);
        else
          ok &= pair_push_new(&j->tail_imports, i, (int32_t)r);
      }
  }
  for (int32_t g = 0; ok && g < j->nsegs; g++)
    ivec_sort_unique(&j->segs[g].deps);
  return ok;
}

/* ---- Rewrite ------------------------------------------------------------- */

typedef struct text {
  char *s;
  size_t n;
  int failed;
} text;

static void text_append(MlirStringRef piece, void *user) {
  text *t = user;
  char *s = t->failed ? NULL : realloc(t->s, t->n + piece.length + 1);
  if (!s) {
    t->failed = 1;
    return;
  }
  memcpy(s + t->n, piece.data, piece.length);
  t->n += piece.length;
  s[t->n] = 0;
  t->s = s;
}

/* `!async.value<t>`; null when the text cannot be built. */
static MlirType make_async_value_type(MlirContext ctx, MlirType t) {
  text buf = {NULL, 0, 0};
  text_append(mlirStringRefCreateFromCString("!async.value<"), &buf);
  mlirTypePrint(t, text_append, &buf);
  text_append(mlirStringRefCreateFromCString(">"), &buf);
  MlirType r = buf.failed ? (MlirType){NULL}
                          : mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(buf.s));
  free(buf.s);
  return r;
}

/* make_async_value_type through the job's cache. */
static MlirType async_value_type(stream_job *j, MlirType t) {
  uintptr_t h = ((uintptr_t)t.ptr >> 4) * 0x9E3779B97F4A7C15u;
  size_t slot = (size_t)(h >> (sizeof h * 8 - 6));
  if (j->async_types[slot].type != t.ptr || mlirTypeIsNull(j->async_types[slot].value)) {
    j->async_types[slot].type = t.ptr;
    j->async_types[slot].value = make_async_value_type(mlirOperationGetContext(j->func), t);
  }
  return j->async_types[slot].value;
}

static MlirValue value_of(const stream_job *j, const int32_t *pair) {
  return mlirOperationGetResult(j->ops[pair[0]], pair[1]);
}

/* The result of segment `g`'s execute op carrying (op, result). */
static MlirValue exported(const stream_job *j, int32_t op, int32_t result) {
  const segment *g = &j->segs[j->seg[op]];
  intptr_t k = pair_find(&g->yields, op, result);
  return k < 0 ? (MlirValue){NULL} /* unreachable: link_segments recorded it */
               : mlirOperationGetResult(g->exec, 1 + k);
}

static MlirOperation make_op(const char *name, MlirLocation loc, intptr_t nres,
                             const MlirType *res, intptr_t nopd, const MlirValue *opd) {
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  mlirOperationStateAddResults(&st, nres, res);
  mlirOperationStateAddOperands(&st, nopd, opd);
  return mlirOperationCreate(&st);
}

/* An empty `async.execute` awaited at once, before `before`. The async
 * runtime resumes a region whose dependencies became ready on the thread
 * that completed the last one, inline, one awaiter after another: without
 * this hop, a segment waiting on another stream would run on that stream's
 * thread, after it, and the two streams would serialize. The hop hands the
 * rest of the segment back to the thread pool. */
static void emit_hop(MlirContext ctx, MlirLocation loc, MlirType token, MlirBlock block,
                     MlirOperation before) {
  MlirBlock inner = mlirBlockCreate(0, NULL, NULL);
  mlirBlockAppendOwnedOperation(inner, make_op("async.yield", loc, 0, NULL, 0, NULL));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, inner);
  int32_t sizes[2] = {0, 0};
  MlirNamedAttribute seg = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("operandSegmentSizes")),
      mlirDenseI32ArrayGet(ctx, 2, sizes));
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("async.execute"), loc);
  mlirOperationStateAddResults(&st, 1, &token);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  mlirOperationStateAddAttributes(&st, 1, &seg);
  MlirOperation hop = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(block, before, hop);
  MlirValue tok = mlirOperationGetResult(hop, 0);
  mlirBlockInsertOwnedOperationBefore(block, before, make_op("async.await", loc, 0, NULL, 1, &tok));
}

/* Builds segment `g`'s `async.execute` before its first op and moves its
 * ops inside (after a hop when it waits on anything). Returns 0 when out of memory or a type cannot be made. */
static int emit_segment(stream_job *j, segment *g, MlirType token) {
  MlirContext ctx = mlirOperationGetContext(j->func);
  MlirLocation loc = mlirOperationGetLocation(j->ops[g->first]);
  size_t ndeps = g->deps.n, nimp = g->imports.n / 2, nyield = g->yields.n / 2;
  size_t nopd = ndeps + nimp + 1, nres = 1 + nyield;
  MlirValue *opd = malloc(nopd * sizeof *opd), *yv = malloc((nyield + 1) * sizeof *yv);
  MlirType *res = malloc(nres * sizeof *res), *argt = malloc((nimp + 1) * sizeof *argt);
  MlirLocation *argl = malloc((nimp + 1) * sizeof *argl);
  int ok = opd && yv && res && argt && argl;
  for (size_t k = 0; ok && k < ndeps; k++)
    opd[k] = mlirOperationGetResult(j->segs[g->deps.v[k]].exec, 0);
  for (size_t k = 0; ok && k < nimp; k++) {
    opd[ndeps + k] = exported(j, g->imports.v[2 * k], g->imports.v[2 * k + 1]);
    argt[k] = mlirValueGetType(value_of(j, &g->imports.v[2 * k]));
    argl[k] = loc;
  }
  res[0] = token;
  for (size_t k = 0; ok && k < nyield; k++) {
    yv[k] = value_of(j, &g->yields.v[2 * k]);
    res[1 + k] = async_value_type(j, mlirValueGetType(yv[k]));
    ok &= !mlirTypeIsNull(res[1 + k]);
  }
  if (ok) {
    MlirBlock block = mlirBlockCreate((intptr_t)nimp, argt, argl);
    MlirOperation yield = make_op("async.yield", loc, 0, NULL, (intptr_t)nyield, yv);
    mlirBlockAppendOwnedOperation(block, yield);
    if (ndeps + nimp > 0)
      emit_hop(ctx, loc, token, block, yield);
    MlirRegion region = mlirRegionCreate();
    mlirRegionAppendOwnedBlock(region, block);
    int32_t sizes[2] = {(int32_t)ndeps, (int32_t)nimp};
    MlirNamedAttribute seg = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("operandSegmentSizes")),
        mlirDenseI32ArrayGet(ctx, 2, sizes));
    MlirOperationState st =
        mlirOperationStateGet(mlirStringRefCreateFromCString("async.execute"), loc);
    mlirOperationStateAddResults(&st, (intptr_t)nres, res);
    mlirOperationStateAddOperands(&st, (intptr_t)(ndeps + nimp), opd);
    mlirOperationStateAddOwnedRegions(&st, 1, &region);
    mlirOperationStateAddAttributes(&st, 1, &seg);
    g->exec = mlirOperationCreate(&st);
    mlirBlockInsertOwnedOperationBefore(j->body, j->ops[g->first], g->exec);
    for (size_t k = 0; k < g->ops.n; k++)
      mlirOperationMoveBefore(j->ops[g->ops.v[k]], yield);
  }
  free(opd);
  free(yv);
  free(res);
  free(argt);
  free(argl);
  return ok;
}

/* What the rewrite needs beyond the job, allocated before the IR changes:
 * a failed allocation then leaves the body as it was. */
typedef struct rewrite_space {
  int32_t *last;       /* per stream: its last segment */
  MlirValue *tail;     /* per tail_imports pair: the awaited value */
  opsched_ptrmap execs; /* segment's execute op -> segment */
} rewrite_space;

static int space_init(rewrite_space *sp, const stream_job *j) {
  int32_t nstreams = 0;
  for (int32_t g = 0; g < j->nsegs; g++)
    nstreams = j->segs[g].stream >= nstreams ? j->segs[g].stream + 1 : nstreams;
  sp->last = malloc(((size_t)nstreams + 1) * sizeof *sp->last);
  sp->tail = malloc((j->tail_imports.n / 2 + 1) * sizeof *sp->tail);
  int failed = opsched_ptrmap_init(&sp->execs, (size_t)j->nsegs);
  if (!failed && sp->last && sp->tail)
    return 1;
  if (!failed)
    opsched_ptrmap_free(&sp->execs);
  free(sp->last);
  free(sp->tail);
  return 0;
}

static void space_free(rewrite_space *sp) {
  opsched_ptrmap_free(&sp->execs);
  free(sp->last);
  free(sp->tail);
}

/* Awaits every stream's last segment and the values the rest reads. */
static void emit_awaits(stream_job *j, MlirOperation before, rewrite_space *sp) {
  MlirLocation loc = mlirOperationGetLocation(j->ops[j->last_sched]);
  for (int32_t g = 0; g < j->nsegs; g++)
    sp->last[j->segs[g].stream] = g;
  for (int32_t g = 0; g < j->nsegs; g++) {
    if (sp->last[j->segs[g].stream] != g)
      continue;
    MlirValue tok = mlirOperationGetResult(j->segs[g].exec, 0);
    mlirBlockInsertOwnedOperationBefore(j->body, before,
                                        make_op("async.await", loc, 0, NULL, 1, &tok));
  }
  for (size_t k = 0; k + 1 < j->tail_imports.n; k += 2) {
    MlirValue v = value_of(j, &j->tail_imports.v[k]);
    MlirValue fut = exported(j, j->tail_imports.v[k], j->tail_imports.v[k + 1]);
    MlirType t = mlirValueGetType(v);
    MlirOperation await = make_op("async.await", loc, 1, &t, 1, &fut);
    mlirBlockInsertOwnedOperationBefore(j->body, before, await);
    sp->tail[k / 2] = mlirOperationGetResult(await, 0);
  }
}

/* Points every use of a value that crosses segments, outside its
 * producer's region, at what carries it there: the reading region's block
 * argument, or the await after the schedule. One walk over each value's
 * uses (a value read by many regions was walked once per region). */
static void redirect_crossings(stream_job *j, rewrite_space *sp) {
  for (int32_t g = 0; g < j->nsegs; g++)
    opsched_ptrmap_put(&sp->execs, j->segs[g].exec.ptr, g);
  for (int32_t g = 0; g < j->nsegs; g++) {
    const ivec *y = &j->segs[g].yields;
    for (size_t k = 0; k + 1 < y->n; k += 2) {
      int32_t op = y->v[k], result = y->v[k + 1];
      MlirOpOperand u = mlirValueGetFirstUse(value_of(j, &y->v[k]));
      while (!mlirOpOperandIsNull(u)) {
        MlirOperation owner = mlirOpOperandGetOwner(u);
        MlirOpOperand next = mlirOpOperandGetNextUse(u); /* before the list changes */
        MlirOperation top = top_op(j->body, owner);
        int32_t h = mlirOperationIsNull(top) ? -1 : opsched_ptrmap_get(&sp->execs, top.ptr);
        MlirValue to = {NULL};
        if (h < 0) {
          intptr_t t = pair_find(&j->tail_imports, op, result);
          to = t < 0 ? to : sp->tail[t];
        } else if (h != g) {
          intptr_t a = pair_find(&j->segs[h].imports, op, result);
          MlirRegion r = mlirOperationGetRegion(j->segs[h].exec, 0);
          to = a < 0 ? to : mlirBlockGetArgument(mlirRegionGetFirstBlock(r), a);
        }
        if (!mlirValueIsNull(to))
          mlirOperationSetOperand(owner, (intptr_t)mlirOpOperandGetOperandNumber(u), to);
        u = next;
      }
    }
  }
}

/* Checks every exported value can travel as an !async.value before the
 * rewrite starts. */
static int check_types(stream_job *j) {
  for (int32_t g = 0; g < j->nsegs; g++)
    for (size_t k = 0; k + 1 < j->segs[g].yields.n; k += 2) {
      MlirValue v = value_of(j, &j->segs[g].yields.v[k]);
      if (mlirTypeIsNull(async_value_type(j, mlirValueGetType(v)))) {
        opsched_emitf(j->ops[j->segs[g].yields.v[k]], OPSCHED_SEVERITY_ERROR,
                      "opsched: a result crossing streams cannot be an !async.value");
        return 0;
      }
    }
  return 1;
}

static int job_init(stream_job *j, MlirOperation func, MlirBlock body) {
  memset(j, 0, sizeof *j);
  j->func = func;
  j->body = body;
  MlirOperation term = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (!mlirOperationEqual(op, term))
      j->n++;
  size_t n = (size_t)j->n + 1;
  j->ops = malloc(n * sizeof *j->ops);
  j->stream = malloc(n * sizeof *j->stream);
  j->seg = malloc(n * sizeof *j->seg);
  j->id = malloc(n * sizeof *j->id);
  j->split_after = calloc(n, 1);
  if (!j->ops || !j->stream || !j->seg || !j->id || !j->split_after ||
      opsched_ptrmap_init(&j->index, n))
    return 0;
  int32_t i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); i < j->n;
       op = mlirOperationGetNextInBlock(op)) {
    j->ops[i] = op;
    j->seg[i] = -1;
    opsched_ptrmap_put(&j->index, op.ptr, i++);
  }
  return 1;
}

static void job_free(stream_job *j) {
  for (int32_t g = 0; j->segs && g < j->nsegs; g++) {
    free(j->segs[g].ops.v);
    free(j->segs[g].deps.v);
    free(j->segs[g].yields.v);
    free(j->segs[g].imports.v);
  }
  free(j->segs);
  free(j->tail_imports.v);
  free(j->by_id);
  if (j->ops)
    opsched_ptrmap_free(&j->index);
  free(j->ops);
  free(j->stream);
  free(j->seg);
  free(j->id);
  free(j->split_after);
}

/* Gives `copy` (a copy of a cast, placed just before op `user`) the user's
 * stream, a fresh id and the user's waits, which the user gives up: the
 * two then open one segment together, with the user's dependencies. */
static void take_place_of(stream_job *j, MlirOperation copy, int32_t user, int64_t id) {
  MlirContext ctx = mlirOperationGetContext(copy);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirStringRef waits = mlirStringRefCreateFromCString(OPSCHED_ATTR_WAITS);
  mlirOperationSetDiscardableAttributeByName(
      copy, mlirStringRefCreateFromCString(OPSCHED_ATTR_STREAM),
      mlirIntegerAttrGet(i64, j->stream[user]));
  mlirOperationSetDiscardableAttributeByName(copy, mlirStringRefCreateFromCString(OPSCHED_ATTR_ID),
                                             mlirIntegerAttrGet(i64, id));
  mlirOperationRemoveDiscardableAttributeByName(copy, waits);
  MlirAttribute w = mlirOperationGetDiscardableAttributeByName(j->ops[user], waits);
  if (!mlirAttributeIsNull(w)) {
    mlirOperationSetDiscardableAttributeByName(copy, waits, w);
    mlirOperationRemoveDiscardableAttributeByName(j->ops[user], waits);
  }
  mlirBlockInsertOwnedOperationBefore(j->body, j->ops[user], copy);
}

/* An unranked memref is a descriptor on the stack of whoever made it (the
 * memref.cast's coroutine, once lowered): it must not travel to another
 * region (segments of one stream are regions too). Each reader gets its own
 * copy of the cast in its own segment and reads the ranked source instead
 * (which crosses regions like any value). Runs once the schedule has been read without
 * error; the copies compute what the cast computes. */
static void localize_unranked_casts(stream_job *j) {
  int64_t next_id = 0;
  for (int32_t i = 0; i < j->n; i++)
    next_id = j->id[i] >= next_id ? j->id[i] + 1 : next_id;
  for (int32_t i = j->first_sched; i <= j->last_sched; i++) {
    MlirOperation cast = j->ops[i];
    if (!opsched_op_is(cast, "memref.cast") ||
        !mlirTypeIsAUnrankedMemRef(mlirValueGetType(mlirOperationGetResult(cast, 0))))
      continue;
    MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(cast, 0));
    while (!mlirOpOperandIsNull(u)) {
      MlirOperation owner = mlirOpOperandGetOwner(u);
      intptr_t pos = (intptr_t)mlirOpOperandGetOperandNumber(u);
      u = mlirOpOperandGetNextUse(u); /* before the use list changes */
      int32_t user = top_index(j, owner);
      if (user < 0 || user > j->last_sched)
        continue;
      MlirOperation copy = mlirOperationClone(cast);
      take_place_of(j, copy, user, next_id++);
      mlirOperationSetOperand(owner, pos, mlirOperationGetResult(copy, 0));
    }
  }
}

/* Segments, their links, and the types crossing them; 0 on an error
 * (reported) or out of memory. */
static int analyse(stream_job *j) {
  return index_ids(j) && mark_splits(j) && build_segments(j) && link_segments(j) &&
         check_types(j);
}

MlirLogicalResult opsched_mlir_materialize_streams(MlirOperation func, int report_unannotated,
                                                int *annotated) {
  *annotated = 0;
  if (mlirOperationGetNumRegions(func) == 0)
    return mlirLogicalResultSuccess();
  MlirRegion region = mlirOperationGetRegion(func, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(body))
    return mlirLogicalResultSuccess(); /* a declaration */
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(body))) {
    opsched_emitf(func, OPSCHED_SEVERITY_ERROR,
                  "opsched: op-materialize-streams needs a single-block function body");
    return mlirLogicalResultFailure();
  }
  stream_job j;
  int ok = job_init(&j, func, body);
  if (!ok)
    opsched_emitf(func, OPSCHED_SEVERITY_ERROR, "opsched: out of memory");
  ok = ok && read_schedule(&j, report_unannotated);
  /* The whole analysis runs on the input first, so bad input is reported
   * before localize_unranked_casts touches the body; then again on the
   * body with the copies. */
  if (ok && j.first_sched >= 0) {
    *annotated = 1;
    ok = analyse(&j);
    if (ok)
      localize_unranked_casts(&j);
    else if (!j.errors)
      opsched_emitf(func, OPSCHED_SEVERITY_ERROR, "opsched: out of memory");
    int errors = j.errors;
    job_free(&j);
    memset(&j, 0, sizeof j);
    j.errors = errors;
    if (ok && !(job_init(&j, func, body) && read_schedule(&j, report_unannotated))) {
      ok = 0;
      if (!j.errors)
        opsched_emitf(func, OPSCHED_SEVERITY_ERROR, "opsched: out of memory");
    }
  }
  if (ok && j.first_sched >= 0) {
    ok = analyse(&j);
    MlirType token = mlirTypeParseGet(mlirOperationGetContext(func),
                                      mlirStringRefCreateFromCString("!async.token"));
    MlirOperation after = j.last_sched + 1 < j.n ? j.ops[j.last_sched + 1]
                                                 : mlirBlockGetTerminator(body);
    rewrite_space sp;
    int spaced = ok && space_init(&sp, &j);
    ok = ok && spaced;
    for (int32_t g = 0; ok && g < j.nsegs; g++)
      ok = emit_segment(&j, &j.segs[g], token);
    if (ok) {
      emit_awaits(&j, after, &sp);
      redirect_crossings(&j, &sp);
    }
    if (spaced)
      space_free(&sp);
    if (!ok && !j.errors)
      opsched_emitf(func, OPSCHED_SEVERITY_ERROR, "opsched: out of memory");
  }
  job_free(&j);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
