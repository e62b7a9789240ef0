/* lib/verify/verify.c - op-schedule-verify: an independent checker of the
 * schedule attributes (docs/Passes.md "-op-schedule-verify").
 *
 * Everything is re-derived here from the IR and the opsched.* attributes:
 * dependencies (SSA uses, captures of nested regions included), memory
 * effects with aliasing, speculation, allocation scopes, the happens-before
 * relation of streams and waits (vector clocks of our own, hb.c), buffer
 * holders and liveness, live bytes, capacity. Nothing calls lib/core's
 * scheduler, streams, memory or arena code: a bug there cannot hide a bug in
 * its output.
 *
 * This file: the function driver, diagnostics and attribute reading. A
 * block's check is block.c's driver calling one phase per property.
 *
 * Diagnostics are collected with a key (the op's pre-order number in the
 * function; 0 for the function itself) and emitted sorted, so they come in
 * IR order whatever order the checks run in. */
#include "verify.h"

#include "facts.h"
#include "verify_internal.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-------------------------------------------------------------------===*
 * Small helpers and diagnostics
 *===-------------------------------------------------------------------===*/

void *vcalloc(size_t n, size_t size) { return calloc(n ? n : 1, size ? size : 1); }

int vreserve(void **p, size_t need, size_t *cap, size_t size) {
  if (need <= *cap)
    return 1;
  size_t c = *cap ? 2 * *cap : 64;
  while (c < need)
    c *= 2;
  void *q = realloc(*p, c * size);
  if (!q)
    return 0;
  *p = q;
  *cap = c;
  return 1;
}

int64_t vsat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

int vevent_cmp(const void *a, const void *b) {
  const vevent *x = a, *y = b;
  if (x->t != y->t)
    return (x->t > y->t) - (x->t < y->t);
  if (x->kind != y->kind)
    return x->kind - y->kind;
  return (x->pos > y->pos) - (x->pos < y->pos);
}

static size_t map_slot(const vctx *c, const void *key) {
  size_t mask = c->mapcap - 1;
  uintptr_t x = (uintptr_t)key;
  size_t h = (size_t)((x ^ (x >> 17)) * 0x9E3779B97F4A7C15ULL) & mask;
  while (c->map[h].key && c->map[h].key != key)
    h = (h + 1) & mask;
  return h;
}

vmap_entry *vlookup(vctx *c, MlirOperation op) {
  size_t h = map_slot(c, op.ptr);
  return c->map[h].key ? &c->map[h] : NULL;
}

static char *prefixed(const char *text) {
  size_t len = strlen(PREFIX) + strlen(text) + 1;
  char *msg = malloc(len);
  if (msg)
    snprintf(msg, len, "%s%s", PREFIX, text);
  return msg;
}

static void push_diag(vctx *c, MlirOperation op, const char *text, MlirOperation other,
                      const char *note) {
  if (c->ndiags == c->capdiags) {
    size_t cap = c->capdiags ? 2 * c->capdiags : 16;
    vdiag *d = realloc(c->diags, cap * sizeof *d);
    if (!d) {
      c->oom = 1;
      return;
    }
    c->diags = d;
    c->capdiags = cap;
  }
  char *msg = prefixed(text);
  char *nt = note ? prefixed(note) : NULL;
  if (!msg || (note && !nt)) {
    free(msg);
    free(nt);
    c->oom = 1;
    return;
  }
  uint64_t key = 0;
  if (!mlirOperationEqual(op, c->func)) {
    const vmap_entry *e = vlookup(c, op);
    key = e ? e->pre : 0;
  }
  c->diags[c->ndiags++] = (vdiag){key, c->seq++, op, msg, other, nt};
}

void vdiag_at(vctx *c, MlirOperation op, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  push_diag(c, op, buf, (MlirOperation){NULL}, NULL);
}

void vdiag_note(vctx *c, MlirOperation op, MlirOperation other, const char *note,
                const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  push_diag(c, op, buf, other, note);
}

const char *vlabel(const vop *o, int32_t pos, char *buf, size_t n) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(o->op));
  if (o->has_id)
    snprintf(buf, n, "op '%.*s' (id %lld)", (int)name.length, name.data, (long long)o->id);
  else
    snprintf(buf, n, "op '%.*s' (position %d)", (int)name.length, name.data, (int)pos);
  return buf;
}

static MlirWalkResult count_cb(MlirOperation op, void *data) {
  (void)op;
  ((vctx *)data)->mapcount++;
  return MlirWalkResultAdvance;
}

static MlirWalkResult number_cb(MlirOperation op, void *data) {
  vctx *c = data;
  size_t h = map_slot(c, op.ptr);
  c->map[h].key = op.ptr;
  c->map[h].pre = (uint32_t)c->mapcount++;
  c->map[h].pos = -1;
  return MlirWalkResultAdvance;
}

/*===-------------------------------------------------------------------===*
 * Attributes
 *===-------------------------------------------------------------------===*/

static MlirAttribute get_attr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

/* 0: absent; 1: an integer (value in *out); -1: not an integer; -2: an
 * integer that does not fit in 64 bits (its decimal text in `text`). Read
 * exactly, whatever the width: never truncated. */
static int get_int_text(MlirOperation op, const char *name, int64_t *out, char *text, int n) {
  MlirAttribute a = get_attr(op, name);
  if (mlirAttributeIsNull(a))
    return 0;
  if (!mlirAttributeIsAInteger(a))
    return -1;
  return opschedVerifyIntAttr(a, out, text, n) ? 1 : -2;
}

/* An integer attribute in [lo, hi]; reports it at `op` otherwise. Returns
 * as get_int_text, with out-of-range values as -1. */
static int read_int(vctx *c, MlirOperation op, const char *name, int64_t lo, int64_t hi,
                    const char *range, int64_t *out) {
  char text[64];
  int r = get_int_text(op, name, out, text, (int)sizeof text);
  if (r == -2)
    vdiag_at(c, op, "'%s' = %s is beyond the signed 64-bit range; it must be an integer attribute %s", name,
             text, range);
  else if (r < 0 || (r > 0 && (*out < lo || *out > hi)))
    vdiag_at(c, op, "'%s' must be an integer attribute %s", name, range);
  return r > 0 && (*out < lo || *out > hi) ? -1 : r;
}

/* 0: absent; 1: a dense i64 array; -1: something else. */
static int get_array(MlirOperation op, const char *name, MlirAttribute *out) {
  MlirAttribute a = get_attr(op, name);
  if (mlirAttributeIsNull(a))
    return 0;
  if (!mlirAttributeIsADenseI64Array(a))
    return -1;
  *out = a;
  return 1;
}

int vhas_schedule_attrs(MlirOperation op) {
  static const char *const names[] = {A_START, A_END, A_STREAM, A_ID,
                                      A_WAITS, A_SLOT, A_OFFSET, A_SIZE};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!mlirAttributeIsNull(get_attr(op, names[i])))
      return 1;
  return 0;
}

#define RANGE_TIME "in [0, " MAX_VALUE_TEXT "]"

/* opsched.start/end, and the cost and byte overrides the scheduler reads. */
static int read_times(vctx *c, vop *o) {
  MlirOperation op = o->op;
  int64_t v;
  int rs = read_int(c, op, A_START, 0, MAX_VALUE, RANGE_TIME, &o->start);
  int re = read_int(c, op, A_END, 0, MAX_VALUE, RANGE_TIME, &o->end);
  int ok = rs >= 0 && re >= 0;
  ok &= read_int(c, op, A_COST, 0, MAX_VALUE, RANGE_TIME, &v) >= 0;
  ok &= read_int(c, op, A_BYTES, 0, MAX_VALUE, RANGE_TIME, &v) >= 0;
  if (rs >= 0 && re >= 0 && (rs > 0) != (re > 0)) {
    vdiag_at(c, op, "has '%s' but no '%s'", rs > 0 ? A_START : A_END, rs > 0 ? A_END : A_START);
    return 0;
  }
  if (rs > 0 && re > 0 && o->end < o->start) {
    vdiag_at(c, op, "'" A_END "' (%lld) is before '" A_START "' (%lld)", (long long)o->end,
             (long long)o->start);
    return 0;
  }
  o->timed = rs > 0 && re > 0;
  return ok;
}

/* opsched.stream, id, waits and resources. */
static int read_placement(vctx *c, vop *o) {
  MlirOperation op = o->op;
  int ok = 1, r;
  r = read_int(c, op, A_STREAM, 0, MAX_VALUE, RANGE_TIME, &o->stream);
  if (r > 0 && c->has_streams && o->stream >= c->streams) {
    vdiag_at(c, op, "'" A_STREAM "' is %lld but the function has '" F_STREAMS "' = %lld",
             (long long)o->stream, (long long)c->streams);
    r = -1;
  }
  ok &= r >= 0;
  o->streamed = r > 0;
  r = read_int(c, op, A_ID, 0, MAX_VALUE, RANGE_TIME, &o->id);
  ok &= r >= 0;
  o->has_id = r > 0;
  r = get_array(op, A_WAITS, &o->waits);
  if (r < 0) {
    vdiag_at(c, op, "'" A_WAITS "' must be an array<i64> of op ids");
    ok = 0;
  }
  o->has_waits = r > 0;
  o->demand = 1;
  int64_t v;
  r = read_int(c, op, A_RESOURCES, 1, MAX_VALUE, "in [1, " MAX_VALUE_TEXT "]", &v);
  ok &= r >= 0;
  if (r > 0)
    o->demand = v;
  return ok;
}

/* One result's slot, offset and size: 0 when inconsistent. */
static int check_slot_entry(vctx *c, MlirOperation op, int32_t i, int64_t s, int64_t off,
                            int64_t sz) {
  if (s < -1)
    vdiag_at(c, op, "result #%d: '" A_SLOT "' must be >= 0, or -1 (no buffer)", (int)i);
  else if (s == -1 && (off != -1 || sz != -1))
    vdiag_at(c, op, "result #%d has no slot but an offset or size", (int)i);
  else if (off < -2 || off > MAX_VALUE)
    vdiag_at(c, op,
             "result #%d: '" A_OFFSET "' must be a byte offset " RANGE_TIME
             ", -1 (not the owner) or -2 (dynamic size)",
             (int)i);
  else if (off >= 0 && (sz < 0 || sz > MAX_VALUE))
    vdiag_at(c, op, "result #%d: negative or huge '" A_SIZE "' %lld for a buffer at offset %lld",
             (int)i, (long long)sz, (long long)off);
  else if (off == -2 && (sz < -1 || sz > MAX_VALUE))
    vdiag_at(c, op, "result #%d: negative '" A_SIZE "' %lld", (int)i, (long long)sz);
  else if (off == -1 && sz != -1)
    vdiag_at(c, op,
             "result #%d: a result that does not own its buffer ('" A_OFFSET
             "' -1) must have '" A_SIZE "' -1",
             (int)i);
  else
    return 1;
  return 0;
}

/* Buffer slots: three arrays, one entry per result. */
static int read_slots(vctx *c, vop *o, int64_t *pool) {
  MlirOperation op = o->op;
  MlirAttribute arr[3];
  static const char *const names[3] = {A_SLOT, A_OFFSET, A_SIZE};
  int present = 0, bad = 0;
  for (int k = 0; k < 3; k++) {
    int r = get_array(op, names[k], &arr[k]);
    if (r < 0) {
      vdiag_at(c, op, "'%s' must be an array<i64> with one entry per result", names[k]);
      bad = 1;
    } else if (r > 0) {
      present |= 1 << k;
      intptr_t len = mlirDenseArrayGetNumElements(arr[k]);
      if (len != o->nres) {
        vdiag_at(c, op, "'%s' has %lld entries but the op has %d result%s", names[k],
                 (long long)len, (int)o->nres, o->nres == 1 ? "" : "s");
        bad = 1;
      }
    }
  }
  if (!bad && present && present != 7) {
    vdiag_at(c, op, "'" A_SLOT "', '" A_OFFSET "' and '" A_SIZE "' must come together");
    bad = 1;
  }
  if (bad || present != 7)
    return !bad;
  o->has_slots = 1;
  o->slot = pool;
  o->offset = pool + o->nres;
  o->size = pool + 2 * o->nres;
  for (int32_t i = 0; i < o->nres; i++) {
    o->slot[i] = mlirDenseI64ArrayGetElement(arr[0], i);
    o->offset[i] = mlirDenseI64ArrayGetElement(arr[1], i);
    o->size[i] = mlirDenseI64ArrayGetElement(arr[2], i);
    if (!check_slot_entry(c, op, i, o->slot[i], o->offset[i], o->size[i]))
      bad = 1;
  }
  return !bad;
}

int vread_op(vctx *c, vop *o, int64_t *pool) {
  int ok = read_times(c, o);
  ok &= read_placement(c, o);
  ok &= read_slots(c, o, pool);
  return ok;
}

/*===-------------------------------------------------------------------===*
 * The function
 *===-------------------------------------------------------------------===*/

static void verify_region(vctx *c, MlirRegion region, int top_level);

static void verify_block_tree(vctx *c, MlirBlock block, int top_level) {
  vverify_block(c, block, top_level);
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    for (MlirRegion r = mlirOperationGetFirstRegion(op); !mlirRegionIsNull(r);
         r = mlirRegionGetNextInOperation(r))
      verify_region(c, r, 0);
}

static void verify_region(vctx *c, MlirRegion region, int top_level) {
  for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk))
    verify_block_tree(c, blk, top_level);
}

static int cmp_diag(const void *a, const void *b) {
  const vdiag *x = a, *y = b;
  if (x->key != y->key)
    return (x->key > y->key) - (x->key < y->key);
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Reads an integer function attribute >= `min`; reports it otherwise. */
static int func_int(vctx *c, const char *name, int64_t min, int64_t *out) {
  char range[48];
  snprintf(range, sizeof range, "in [%lld, " MAX_VALUE_TEXT "]", (long long)min);
  return read_int(c, c->func, name, min, MAX_VALUE, range, out);
}

static void read_function_attrs(vctx *c) {
  int r1 = func_int(c, F_STREAMS, 1, &c->streams);
  int r2 = func_int(c, F_RESOURCE_LIMIT, 1, &c->rlimit);
  int r3 = func_int(c, F_ARENA, 0, &c->arena);
  int r4 = func_int(c, F_MEMORY_LIMIT, 0, &c->mlimit);
  c->has_streams = r1 > 0;
  c->has_rlimit = r2 > 0;
  c->has_arena = r3 > 0;
  c->has_mlimit = r4 > 0;
  c->func_bad = r1 < 0 || r2 < 0 || r3 < 0 || r4 < 0;
}

/* The function-wide limits, measured over the body's blocks. */
static void check_function_limits(vctx *c) {
  if (c->has_arena && c->arena_need > c->arena)
    vdiag_at(c, c->func, "'" F_ARENA "' is %lld bytes but slot %lld ends at byte %lld",
             (long long)c->arena, (long long)c->arena_slot, (long long)c->arena_need);
  if (c->has_mlimit && c->mem_peak > c->mlimit) {
    if (c->mem_time >= 0)
      vdiag_at(c, c->func, "live bytes reach %lld at t=%lld, above '" F_MEMORY_LIMIT "' = %lld",
               (long long)c->mem_peak, (long long)c->mem_time, (long long)c->mlimit);
    else
      vdiag_at(c, c->func,
               "live bytes reach %lld during op %lld, above '" F_MEMORY_LIMIT "' = %lld",
               (long long)c->mem_peak, (long long)c->mem_op, (long long)c->mlimit);
  }
}

static int64_t emit_diags(vctx *c) {
  if (c->ndiags)
    qsort(c->diags, c->ndiags, sizeof *c->diags, cmp_diag);
  for (size_t k = 0; k < c->ndiags; k++) {
    const vdiag *d = &c->diags[k];
    MlirLocation note_loc = {NULL};
    if (!mlirOperationIsNull(d->note_op))
      note_loc = mlirOperationGetLocation(d->note_op);
    opschedVerifyEmit(mlirOperationGetLocation(d->op), d->msg, note_loc, d->note);
    free(d->msg);
    free(d->note);
  }
  int64_t count = (int64_t)c->ndiags;
  free(c->diags);
  return count;
}

int64_t opsched_verify_function(MlirOperation func) {
  vctx c;
  memset(&c, 0, sizeof c);
  c.func = func;
  c.mem_time = -1;
  mlirOperationWalk(func, count_cb, &c, MlirWalkPreOrder);
  size_t cap = 16;
  while (cap < 2 * c.mapcount)
    cap *= 2;
  c.map = vcalloc(cap, sizeof *c.map);
  if (!c.map) {
    opschedVerifyEmit(mlirOperationGetLocation(func), PREFIX "out of memory",
                      (MlirLocation){NULL}, NULL);
    return 1;
  }
  c.mapcap = cap;
  c.mapcount = 0;
  c.fx_cache = opschedVerifyFactsCacheNew();
  mlirOperationWalk(func, number_cb, &c, MlirWalkPreOrder);

  /* With a bad function attribute the blocks still report their own bad
   * attributes (every one in the file), but nothing is checked against it. */
  read_function_attrs(&c);
  vcollect_uses(&c, func);
  for (MlirRegion r = mlirOperationGetFirstRegion(func); !mlirRegionIsNull(r);
       r = mlirRegionGetNextInOperation(r))
    verify_region(&c, r, 1);
  if (!c.func_bad)
    check_function_limits(&c);
  if (c.oom)
    vdiag_at(&c, func, "out of memory; the check is incomplete");
  int64_t count = emit_diags(&c);
  opschedVerifyFactsCacheFree(c.fx_cache);
  free(c.uses);
  free(c.block_uses);
  free(c.map);
  return count;
}
