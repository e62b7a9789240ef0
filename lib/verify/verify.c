/* lib/verify/verify.c - op-schedule-verify: an independent checker of the
 * schedule attributes (docs/Passes.md "-op-schedule-verify").
 *
 * Everything is re-derived here from the IR and the opsched.* attributes:
 * dependencies (SSA uses, captures of nested regions included), the
 * happens-before relation of streams and waits (vector clocks of our own),
 * buffer holders and liveness, live bytes (in time on several streams, in
 * order on one), capacity. Nothing calls lib/core's scheduler, streams,
 * memory or arena code: a bug there cannot hide a bug in its output.
 *
 * Diagnostics are collected with a key (the op's pre-order number in the
 * function; 0 for the function itself) and emitted sorted, so they come in
 * IR order whatever order the checks run in. */
#include "verify.h"

#include "queries.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opsched/attr_names.h"
#define A_START OPSCHED_ATTR_START
#define A_END OPSCHED_ATTR_END
#define A_STREAM OPSCHED_ATTR_STREAM
#define A_ID OPSCHED_ATTR_ID
#define A_WAITS OPSCHED_ATTR_WAITS
#define A_RESOURCES OPSCHED_ATTR_RESOURCES
#define A_SLOT OPSCHED_ATTR_SLOT
#define A_OFFSET OPSCHED_ATTR_OFFSET
#define A_SIZE OPSCHED_ATTR_SIZE
#define F_STREAMS OPSCHED_ATTR_STREAMS
#define F_RESOURCE_LIMIT OPSCHED_ATTR_RESOURCE_LIMIT
#define F_ARENA OPSCHED_ATTR_ARENA_SIZE
#define F_MEMORY_LIMIT OPSCHED_ATTR_MEMORY_LIMIT

#define PREFIX "opsched-verify: "
/* Times and byte offsets above this are rejected: doubled times and sums of
 * two stay far from overflow. */
#define MAX_VALUE ((int64_t)1 << 60)

/*===-------------------------------------------------------------------===*
 * Small helpers
 *===-------------------------------------------------------------------===*/

static void *xcalloc(size_t n, size_t size) { return calloc(n ? n : 1, size ? size : 1); }

static int64_t sat_add(int64_t a, int64_t b) {
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}

typedef struct vdiag {
  uint64_t key, seq;
  MlirOperation op;
  char *msg;
} vdiag;

typedef struct vmap_entry {
  const void *key;
  uint32_t pre; /* pre-order number in the function */
  int32_t pos;  /* position in its block, set when the block is checked */
} vmap_entry;

typedef struct vctx {
  MlirOperation func;
  vdiag *diags;
  size_t ndiags, capdiags;
  uint64_t seq;
  int oom;
  vmap_entry *map;
  size_t mapcap, mapcount;
  /* Function attributes. */
  int has_streams, has_rlimit, has_arena, has_mlimit;
  int64_t streams, rlimit, arena, mlimit;
  /* Measured over the body's blocks. */
  int64_t arena_need, arena_slot;
  int64_t mem_peak, mem_time; /* mem_time: instant (ns) or -1 (one stream) */
  int64_t mem_op;             /* one stream: position of the op at the peak */
} vctx;

static size_t map_slot(const vctx *c, const void *key) {
  size_t mask = c->mapcap - 1;
  uintptr_t x = (uintptr_t)key;
  size_t h = (size_t)((x ^ (x >> 17)) * 0x9E3779B97F4A7C15ULL) & mask;
  while (c->map[h].key && c->map[h].key != key)
    h = (h + 1) & mask;
  return h;
}

__attribute__((format(printf, 3, 4))) static void diag(vctx *c, MlirOperation op,
                                                    const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
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
  size_t len = strlen(PREFIX) + strlen(buf) + 1;
  char *msg = malloc(len);
  if (!msg) {
    c->oom = 1;
    return;
  }
  snprintf(msg, len, "%s%s", PREFIX, buf);
  uint64_t key = 0;
  if (!mlirOperationEqual(op, c->func)) {
    const vmap_entry *e = &c->map[map_slot(c, op.ptr)];
    key = e->key ? e->pre : 0;
  }
  c->diags[c->ndiags++] = (vdiag){key, c->seq++, op, msg};
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

static vmap_entry *lookup(vctx *c, MlirOperation op) {
  size_t h = map_slot(c, op.ptr);
  return c->map[h].key ? &c->map[h] : NULL;
}

static MlirAttribute get_attr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

/* 0: absent; 1: an integer (value in *out); -1: present but not an integer
 * that fits in 64 bits. */
static int get_int(MlirOperation op, const char *name, int64_t *out) {
  MlirAttribute a = get_attr(op, name);
  if (mlirAttributeIsNull(a))
    return 0;
  if (!mlirAttributeIsAInteger(a))
    return -1;
  MlirType t = mlirAttributeGetType(a);
  if (mlirTypeIsAIndex(t)) {
    *out = mlirIntegerAttrGetValueInt(a);
    return 1;
  }
  if (!mlirTypeIsAInteger(t) || mlirIntegerTypeGetWidth(t) > 64)
    return -1;
  if (mlirIntegerTypeIsUnsigned(t)) {
    uint64_t u = mlirIntegerAttrGetValueUInt(a);
    if (u > (uint64_t)INT64_MAX)
      return -1;
    *out = (int64_t)u;
  } else if (mlirIntegerTypeIsSigned(t)) {
    *out = mlirIntegerAttrGetValueSInt(a);
  } else {
    *out = mlirIntegerAttrGetValueInt(a);
  }
  return 1;
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

static int has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(get_attr(op, name));
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/*===-------------------------------------------------------------------===*
 * One block
 *===-------------------------------------------------------------------===*/

typedef struct vop {
  MlirOperation op;
  int is_term; /* the block's terminator (or an unregistered last op) */
  int exempt;  /* the terminator without schedule attributes */
  int timed;
  int64_t start, end;
  int streamed;
  int64_t stream;
  int32_t sidx, spos; /* dense stream index, position within the stream */
  int has_id;
  int64_t id;
  int has_waits;
  MlirAttribute waits;
  int64_t demand;
  int32_t nres;
  int has_slots;
  int64_t *slot, *offset, *size; /* nres each, when has_slots */
} vop;

typedef struct vuse {
  int32_t u, r, v; /* op u's result r is used by op v (or inside it) */
} vuse;

typedef struct vbuf {
  int64_t slot, offset, size;
  int32_t owner, result;
  int live_end;
  int32_t last_pos;
  int64_t alloc_pt, release_pt; /* doubled time points, [alloc, release) */
} vbuf;

typedef struct vblock {
  vctx *c;
  MlirBlock block;
  int32_t n;
  vop *ops;
  vuse *uses;
  size_t nuses, capuses;
  int32_t cur; /* op whose subtree is being walked */
  int oom;
} vblock;

/* "op 3 ('arith.mulf')": the op's opsched.id, else its position in the block. */
static const char *label(const vop *o, int32_t pos, char *buf, size_t n) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(o->op));
  snprintf(buf, n, "op %lld ('%.*s')", (long long)(o->has_id ? o->id : pos),
           (int)name.length, name.data);
  return buf;
}

static MlirWalkResult uses_cb(MlirOperation op, void *data) {
  vblock *b = data;
  intptr_t k = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < k; i++) {
    MlirValue val = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(val))
      continue;
    MlirOperation owner = mlirOpResultGetOwner(val);
    if (!mlirBlockEqual(mlirOperationGetBlock(owner), b->block))
      continue;
    vmap_entry *e = lookup(b->c, owner);
    if (!e || e->pos < 0 || e->pos == b->cur)
      continue;
    if (b->nuses == b->capuses) {
      size_t cap = b->capuses ? 2 * b->capuses : 64;
      vuse *u = realloc(b->uses, cap * sizeof *u);
      if (!u) {
        b->oom = 1;
        return MlirWalkResultInterrupt;
      }
      b->uses = u;
      b->capuses = cap;
    }
    b->uses[b->nuses++] =
        (vuse){e->pos, (int32_t)mlirOpResultGetResultNumber(val), b->cur};
  }
  return MlirWalkResultAdvance;
}

/* Reads and checks one op's attributes; returns 0 when malformed (each
 * problem reported at the op). */
static int read_op(vctx *c, vop *o, int64_t *pool) {
  MlirOperation op = o->op;
  int ok = 1, r;
  int64_t v;
  r = get_int(op, A_START, &o->start);
  if (r < 0 || (r > 0 && (o->start < 0 || o->start > MAX_VALUE))) {
    diag(c, op, "'" A_START "' must be an integer attribute in [0, 2^60]");
    ok = 0;
  }
  int has_start = r != 0;
  r = get_int(op, A_END, &o->end);
  if (r < 0 || (r > 0 && (o->end < 0 || o->end > MAX_VALUE))) {
    diag(c, op, "'" A_END "' must be an integer attribute in [0, 2^60]");
    ok = 0;
  }
  int has_end = r != 0;
  if (ok && has_start != has_end) {
    diag(c, op, "has '%s' but no '%s'", has_start ? A_START : A_END,
         has_start ? A_END : A_START);
    ok = 0;
  }
  if (ok && has_start && o->end < o->start) {
    diag(c, op, "'" A_END "' (%lld) is before '" A_START "' (%lld)", (long long)o->end,
         (long long)o->start);
    ok = 0;
  }
  o->timed = has_start && has_end;

  r = get_int(op, A_STREAM, &o->stream);
  if (r < 0 || (r > 0 && o->stream < 0)) {
    diag(c, op, "'" A_STREAM "' must be an integer attribute >= 0");
    ok = 0;
  } else if (r > 0 && c->has_streams && o->stream >= c->streams) {
    diag(c, op, "'" A_STREAM "' is %lld but the function has '" F_STREAMS "' = %lld",
         (long long)o->stream, (long long)c->streams);
    ok = 0;
  }
  o->streamed = r > 0;
  r = get_int(op, A_ID, &o->id);
  if (r < 0 || (r > 0 && o->id < 0)) {
    diag(c, op, "'" A_ID "' must be an integer attribute >= 0");
    ok = 0;
  }
  o->has_id = r > 0;
  r = get_array(op, A_WAITS, &o->waits);
  if (r < 0) {
    diag(c, op, "'" A_WAITS "' must be an array<i64> of op ids");
    ok = 0;
  }
  o->has_waits = r > 0;
  o->demand = 1;
  r = get_int(op, A_RESOURCES, &v);
  if (r < 0 || (r > 0 && v < 1)) {
    diag(c, op, "'" A_RESOURCES "' must be an integer attribute >= 1");
    ok = 0;
  } else if (r > 0) {
    o->demand = v;
  }

  /* Buffer slots: three arrays, one entry per result. */
  MlirAttribute arr[3];
  static const char *const names[3] = {A_SLOT, A_OFFSET, A_SIZE};
  int present = 0, bad = 0;
  for (int k = 0; k < 3; k++) {
    r = get_array(op, names[k], &arr[k]);
    if (r < 0) {
      diag(c, op, "'%s' must be an array<i64> with one entry per result", names[k]);
      bad = 1;
    } else if (r > 0) {
      present |= 1 << k;
      intptr_t len = mlirDenseArrayGetNumElements(arr[k]);
      if (len != o->nres) {
        diag(c, op, "'%s' has %lld entries but the op has %d result%s", names[k],
             (long long)len, (int)o->nres, o->nres == 1 ? "" : "s");
        bad = 1;
      }
    }
  }
  if (!bad && present && present != 7) {
    diag(c, op, "'" A_SLOT "', '" A_OFFSET "' and '" A_SIZE "' must come together");
    bad = 1;
  }
  if (!bad && present == 7) {
    o->has_slots = 1;
    o->slot = pool;
    o->offset = pool + o->nres;
    o->size = pool + 2 * o->nres;
    for (int32_t i = 0; i < o->nres; i++) {
      int64_t s = o->slot[i] = mlirDenseI64ArrayGetElement(arr[0], i);
      int64_t off = o->offset[i] = mlirDenseI64ArrayGetElement(arr[1], i);
      int64_t sz = o->size[i] = mlirDenseI64ArrayGetElement(arr[2], i);
      if (s < -1) {
        diag(c, op, "result #%d: '" A_SLOT "' must be >= 0, or -1 (no buffer)", (int)i);
        bad = 1;
      } else if (s == -1 && (off != -1 || sz != -1)) {
        diag(c, op, "result #%d has no slot but an offset or size", (int)i);
        bad = 1;
      } else if (off < -2 || off > MAX_VALUE) {
        diag(c, op,
             "result #%d: '" A_OFFSET "' must be a byte offset >= 0, -1 (not the owner) "
             "or -2 (dynamic size)",
             (int)i);
        bad = 1;
      } else if (off >= 0 && (sz < 0 || sz > MAX_VALUE)) {
        diag(c, op, "result #%d: negative or huge '" A_SIZE "' %lld for a buffer at offset %lld",
             (int)i, (long long)sz, (long long)off);
        bad = 1;
      } else if (off == -2 && (sz < -1 || sz > MAX_VALUE)) {
        diag(c, op, "result #%d: negative '" A_SIZE "' %lld", (int)i, (long long)sz);
        bad = 1;
      } else if (off == -1 && sz != -1) {
        diag(c, op, "result #%d: a result that does not own its buffer ('" A_OFFSET
                    "' -1) must have '" A_SIZE "' -1",
             (int)i);
        bad = 1;
      }
    }
  }
  return ok && !bad;
}

static int has_schedule_attrs(MlirOperation op) {
  static const char *const names[] = {A_START, A_END, A_STREAM, A_ID,
                                      A_WAITS, A_SLOT, A_OFFSET, A_SIZE};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (has_attr(op, names[i]))
      return 1;
  return 0;
}

typedef struct vevent {
  int64_t t;
  int32_t kind; /* 0: end/free, 1: start/alloc (frees first at one instant) */
  int32_t pos;
  int64_t amount;
} vevent;

static int cmp_event(const void *a, const void *b) {
  const vevent *x = a, *y = b;
  if (x->t != y->t)
    return (x->t > y->t) - (x->t < y->t);
  if (x->kind != y->kind)
    return x->kind - y->kind;
  return (x->pos > y->pos) - (x->pos < y->pos);
}

typedef struct vidpos {
  int64_t id;
  int32_t pos;
} vidpos;

static int cmp_idpos(const void *a, const void *b) {
  const vidpos *x = a, *y = b;
  if (x->id != y->id)
    return (x->id > y->id) - (x->id < y->id);
  return (x->pos > y->pos) - (x->pos < y->pos);
}

static int32_t find_id(const vidpos *ids, size_t n, int64_t id) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ids[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && ids[lo].id == id ? ids[lo].pos : -1;
}

typedef struct vslotref {
  int64_t slot;
  int32_t buf;
} vslotref;

static int cmp_slotref(const void *a, const void *b) {
  const vslotref *x = a, *y = b;
  if (x->slot != y->slot)
    return (x->slot > y->slot) - (x->slot < y->slot);
  return (x->buf > y->buf) - (x->buf < y->buf);
}

static int32_t find_slot(const vslotref *refs, size_t n, int64_t slot) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (refs[mid].slot < slot)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && refs[lo].slot == slot ? refs[lo].buf : -1;
}

typedef struct vplaced {
  int64_t offset;
  int32_t buf;
} vplaced;

static int cmp_placed(const void *a, const void *b) {
  const vplaced *x = a, *y = b;
  if (x->offset != y->offset)
    return (x->offset > y->offset) - (x->offset < y->offset);
  return (x->buf > y->buf) - (x->buf < y->buf);
}

/* Doubled time points (docs/streams.md): an op [s, e) with e > s holds
 * [2s+1, 2e); a zero-duration op at t holds [2t, 2t+1). */
static int64_t first_pt(const vop *o) {
  return o->end > o->start ? 2 * o->start + 1 : 2 * o->start;
}
static int64_t last_pt(const vop *o) { /* exclusive */
  return o->end > o->start ? 2 * o->end : 2 * o->start + 1;
}

typedef struct vhb {
  int32_t S;    /* streams (dense) */
  int32_t *clk; /* n * S: per op, ops of each stream complete before it launches */
} vhb;

/* Does op u complete before op v launches? */
static int hb(const vhb *h, const vop *ops, int32_t u, int32_t v) {
  if (ops[u].exempt || ops[v].exempt)
    return 0;
  return h->clk[(size_t)v * h->S + ops[u].sidx] >= ops[u].spos + 1;
}

static void verify_block(vctx *c, MlirBlock block, int top_level) {
  vblock b = {0};
  b.c = c;
  b.block = block;
  int32_t n = 0;
  int64_t nres_total = 0;
  int any = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    n++;
    nres_total += mlirOperationGetNumResults(op);
    any |= has_schedule_attrs(op);
  }
  if (!any)
    return; /* not scheduled: nothing to check */

  vop *ops = xcalloc((size_t)n, sizeof *ops);
  int64_t *pool = xcalloc((size_t)nres_total * 3, sizeof *pool);
  int32_t *mark = xcalloc((size_t)n, sizeof *mark);
  vidpos *ids = xcalloc((size_t)n, sizeof *ids);
  int64_t *svals = xcalloc((size_t)n, sizeof *svals);
  vhb h = {0};
  vbuf *bufs = NULL;
  vslotref *refs = NULL;
  int32_t *hmax = NULL;
  vplaced *placed = NULL;
  vevent *ev = NULL;
  int64_t *alloc_at = NULL, *free_at = NULL;
  if (!ops || !pool || !mark || !ids || !svals) {
    c->oom = 1;
    goto done;
  }
  b.n = n;
  b.ops = ops;

  /* Ops, attributes, the terminator. */
  MlirOperation term = mlirBlockGetTerminator(block);
  MlirContext ctx = mlirOperationGetContext(c->func);
  int bad = 0;
  int64_t used = 0;
  int32_t i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), i++) {
    vop *o = &ops[i];
    o->op = op;
    o->nres = (int32_t)mlirOperationGetNumResults(op);
    vmap_entry *e = lookup(c, op);
    if (e)
      e->pos = i;
    if (i == n - 1)
      o->is_term = (!mlirOperationIsNull(term) && mlirOperationEqual(op, term)) ||
                   !mlirContextIsRegisteredOperation(
                       ctx, mlirIdentifierStr(mlirOperationGetName(op)));
    o->exempt = o->is_term && !has_schedule_attrs(op);
    if (!read_op(c, o, pool + used))
      bad = 1;
    used += 3 * (int64_t)o->nres;
  }
  if (bad)
    goto done;

  /* Partial annotation: times on all ops or none; streams and ids likewise,
   * and streams need times. */
  int32_t ntimed = 0, nstreamed = 0, nids = 0, nsched = 0;
  for (i = 0; i < n; i++) {
    if (ops[i].exempt)
      continue;
    nsched++;
    ntimed += ops[i].timed;
    nstreamed += ops[i].streamed;
    nids += ops[i].has_id;
  }
  int timed = ntimed > 0, multi = nstreamed > 0 || nids > 0;
  for (i = 0; i < n; i++) {
    vop *o = &ops[i];
    if (o->exempt)
      continue;
    if ((timed || multi) && !o->timed) {
      diag(c, o->op,
           "partially annotated block: this op has no '" A_START "'/'" A_END
           "' but others in its block do");
      bad = 1;
    } else if (multi && (!o->streamed || !o->has_id)) {
      diag(c, o->op,
           "partially annotated block: this op has no '%s' but others in its block do",
           !o->streamed ? A_STREAM : A_ID);
      bad = 1;
    } else if (!multi && o->has_waits) {
      diag(c, o->op, "'" A_WAITS "' without '" A_STREAM "' and '" A_ID "'");
      bad = 1;
    }
  }
  if (bad)
    goto done;

  /* Uses: SSA operands of each op and of everything nested in it. */
  for (i = 0; i < n; i++) {
    b.cur = i;
    mlirOperationWalk(ops[i].op, uses_cb, &b, MlirWalkPreOrder);
    if (b.oom) {
      c->oom = 1;
      goto done;
    }
  }

  /* Streams: dense indices and positions; one stream (IR order) when the
   * block has no stream attributes. */
  int32_t S = 1;
  if (multi) {
    int32_t k = 0;
    for (i = 0; i < n; i++)
      if (!ops[i].exempt)
        svals[k++] = ops[i].stream;
    qsort(svals, (size_t)k, sizeof *svals, cmp_i64);
    int32_t u = 0;
    for (int32_t j = 0; j < k; j++)
      if (j == 0 || svals[j] != svals[u - 1])
        svals[u++] = svals[j];
    S = u;
  }
  {
    int32_t *count = xcalloc((size_t)S, sizeof *count);
    if (!count) {
      c->oom = 1;
      goto done;
    }
    for (i = 0; i < n; i++) {
      vop *o = &ops[i];
      if (o->exempt)
        continue;
      int32_t s = 0;
      if (multi) {
        int64_t *p = bsearch(&o->stream, svals, (size_t)S, sizeof *svals, cmp_i64);
        s = (int32_t)(p - svals);
      }
      o->sidx = s;
      o->spos = count[s]++;
    }
    free(count);
  }

  /* Ids: unique; waits name earlier ops of the block. */
  size_t nidpos = 0;
  if (multi) {
    for (i = 0; i < n; i++)
      if (!ops[i].exempt)
        ids[nidpos++] = (vidpos){ops[i].id, i};
    qsort(ids, nidpos, sizeof *ids, cmp_idpos);
    int32_t *dup = mark; /* reused: 1 = id repeats an earlier op's */
    memset(dup, 0, (size_t)n * sizeof *dup);
    for (size_t j = 1; j < nidpos; j++)
      if (ids[j].id == ids[j - 1].id)
        dup[ids[j].pos] = 1;
    for (i = 0; i < n; i++)
      if (dup[i]) {
        diag(c, ops[i].op, "'" A_ID "' %lld is also the id of an earlier op in this block",
             (long long)ops[i].id);
        bad = 1;
      }
    memset(mark, 0, (size_t)n * sizeof *mark);
  }
  if (bad)
    goto done;

  /* Happens-before: vector clocks over stream order and waits, in IR order
   * (stream predecessors and valid waits come earlier). */
  h.S = S;
  h.clk = xcalloc((size_t)n * (size_t)S, sizeof *h.clk);
  if (!h.clk) {
    c->oom = 1;
    goto done;
  }
  {
    int32_t *last = xcalloc((size_t)S, sizeof *last); /* last op + 1 per stream */
    if (!last) {
      c->oom = 1;
      goto done;
    }
    char lb[160];
    for (i = 0; i < n; i++) {
      vop *o = &ops[i];
      if (o->exempt)
        continue;
      int32_t *cv = h.clk + (size_t)i * S;
      int32_t p = last[o->sidx] - 1;
      if (p >= 0) {
        const int32_t *cp = h.clk + (size_t)p * S;
        for (int32_t s = 0; s < S; s++)
          cv[s] = cp[s];
        if (cv[ops[p].sidx] < ops[p].spos + 1)
          cv[ops[p].sidx] = ops[p].spos + 1;
        /* Stream order in time: launches after the previous op ends. */
        if (ops[p].end > o->start)
          diag(c, o->op,
               "starts at %lld on stream %lld before %s, the previous op of that stream, "
               "ends at %lld",
               (long long)o->start, (long long)(multi ? o->stream : 0),
               label(&ops[p], p, lb, sizeof lb), (long long)ops[p].end);
      }
      last[o->sidx] = i + 1;
      if (!o->has_waits)
        continue;
      intptr_t nw = mlirDenseArrayGetNumElements(o->waits);
      for (intptr_t k = 0; k < nw; k++) {
        int64_t id = mlirDenseI64ArrayGetElement(o->waits, k);
        int32_t w = find_id(ids, nidpos, id);
        if (w < 0) {
          diag(c, o->op, "'" A_WAITS "' names op %lld, which does not exist in this block",
               (long long)id);
          continue;
        }
        if (w >= i) {
          diag(c, o->op, "'" A_WAITS "' names op %lld, which does not come before this op",
               (long long)id);
          continue;
        }
        const int32_t *cw = h.clk + (size_t)w * S;
        for (int32_t s = 0; s < S; s++)
          if (cv[s] < cw[s])
            cv[s] = cw[s];
        if (cv[ops[w].sidx] < ops[w].spos + 1)
          cv[ops[w].sidx] = ops[w].spos + 1;
      }
    }
    free(last);
  }

  /* Dependencies: order, time, and coverage across streams. */
  {
    char lb[160];
    for (size_t k = 0; k < b.nuses; k++) {
      int32_t u = b.uses[k].u, v = b.uses[k].v;
      if (mark[u] == v + 1)
        continue; /* this dependency was seen already */
      mark[u] = v + 1;
      const vop *ou = &ops[u], *ov = &ops[v];
      if (u > v) {
        diag(c, ov->op, "uses a value of %s, which comes later in the block",
             label(ou, u, lb, sizeof lb));
        continue;
      }
      if (ou->exempt || ov->exempt)
        continue;
      if (ou->end > ov->start)
        diag(c, ov->op, "starts at %lld but its dependency %s ends at %lld",
             (long long)ov->start, label(ou, u, lb, sizeof lb), (long long)ou->end);
      if (multi && ou->sidx != ov->sidx && !hb(&h, ops, u, v))
        diag(c, ov->op,
             "dependency on op %lld (stream %lld) is not covered by stream order or waits",
             (long long)ou->id, (long long)ou->stream);
    }
  }

  /* Capacity: demands of the ops of non-zero duration running at once. */
  if (timed && (c->has_rlimit || c->has_streams)) {
    int64_t limit = c->has_rlimit ? c->rlimit : c->streams;
    ev = xcalloc((size_t)n * 2, sizeof *ev);
    if (!ev) {
      c->oom = 1;
      goto done;
    }
    size_t ne = 0;
    for (i = 0; i < n; i++)
      if (!ops[i].exempt && ops[i].end > ops[i].start) {
        ev[ne++] = (vevent){ops[i].start, 1, i, ops[i].demand};
        ev[ne++] = (vevent){ops[i].end, 0, i, ops[i].demand};
      }
    qsort(ev, ne, sizeof *ev, cmp_event);
    int64_t sum = 0, running = 0;
    for (size_t k = 0; k < ne; k++) {
      if (ev[k].kind == 0) {
        sum -= ev[k].amount;
        running--;
        continue;
      }
      sum = sat_add(sum, ev[k].amount);
      running++;
      if (sum > limit && (c->has_rlimit || running > 1))
        diag(c, ops[ev[k].pos].op,
             "capacity exceeded at t=%lld: %lld running ops demand %lld, above %lld ('%s')",
             (long long)ev[k].t, (long long)running, (long long)sum, (long long)limit,
             c->has_rlimit ? F_RESOURCE_LIMIT : F_STREAMS);
    }
    free(ev);
    ev = NULL;
  }

  /* Buffers. */
  int32_t nbufs = 0;
  for (i = 0; i < n; i++)
    if (ops[i].has_slots)
      for (int32_t r = 0; r < ops[i].nres; r++)
        nbufs += ops[i].offset[r] >= 0 || ops[i].offset[r] == -2;
  int any_slots = 0;
  for (i = 0; i < n; i++)
    any_slots |= ops[i].has_slots;
  if (!any_slots)
    goto done;
  bufs = xcalloc((size_t)nbufs, sizeof *bufs);
  refs = xcalloc((size_t)nbufs, sizeof *refs);
  hmax = xcalloc((size_t)nbufs * (size_t)S, sizeof *hmax);
  placed = xcalloc((size_t)nbufs, sizeof *placed);
  if (!bufs || !refs || !hmax || !placed) {
    c->oom = 1;
    goto done;
  }
  {
    int32_t k = 0;
    for (i = 0; i < n; i++)
      if (ops[i].has_slots)
        for (int32_t r = 0; r < ops[i].nres; r++)
          if (ops[i].offset[r] >= 0 || ops[i].offset[r] == -2) {
            bufs[k] = (vbuf){ops[i].slot[r], ops[i].offset[r], ops[i].size[r], i, r, 0, i,
                             timed ? first_pt(&ops[i]) : 0, timed ? last_pt(&ops[i]) : 0};
            refs[k] = (vslotref){ops[i].slot[r], k};
            k++;
          }
    qsort(refs, (size_t)nbufs, sizeof *refs, cmp_slotref);
    for (int32_t j = 1; j < nbufs; j++)
      if (refs[j].slot == refs[j - 1].slot) {
        const vbuf *bb = &bufs[refs[j].buf];
        diag(c, ops[bb->owner].op,
             "result #%d owns slot %lld, which an earlier result of this block owns too",
             (int)bb->result, (long long)bb->slot);
        bad = 1;
      }
    for (i = 0; i < n; i++)
      if (ops[i].has_slots)
        for (int32_t r = 0; r < ops[i].nres; r++)
          if (ops[i].slot[r] >= 0 && find_slot(refs, (size_t)nbufs, ops[i].slot[r]) < 0) {
            diag(c, ops[i].op, "result #%d carries slot %lld, which no result of this block owns",
                 (int)r, (long long)ops[i].slot[r]);
            bad = 1;
          }
  }
  if (bad)
    goto done;
  for (size_t j = 0; j < (size_t)nbufs * (size_t)S; j++)
    hmax[j] = -1;
  /* Holders: the owner and every op using a result carrying the slot. */
  for (int32_t k = 0; k < nbufs; k++) {
    const vop *o = &ops[bufs[k].owner];
    hmax[(size_t)k * S + o->sidx] = o->spos;
    if (o->is_term)
      bufs[k].live_end = 1;
  }
  for (size_t k = 0; k < b.nuses; k++) {
    const vop *ou = &ops[b.uses[k].u], *ov = &ops[b.uses[k].v];
    if (!ou->has_slots || ou->slot[b.uses[k].r] < 0)
      continue;
    int32_t bi = find_slot(refs, (size_t)nbufs, ou->slot[b.uses[k].r]);
    vbuf *bb = &bufs[bi];
    if (ov->is_term)
      bb->live_end = 1;
    if (b.uses[k].v > bb->last_pos)
      bb->last_pos = b.uses[k].v;
    if (ov->exempt)
      continue;
    int32_t *hm = &hmax[(size_t)bi * S + ov->sidx];
    if (*hm < ov->spos)
      *hm = ov->spos;
    if (timed && last_pt(ov) > bb->release_pt)
      bb->release_pt = last_pt(ov);
  }

  /* Overlapping byte ranges need every holder of one to happen before the
   * other's owner. */
  {
    int32_t np = 0;
    for (int32_t k = 0; k < nbufs; k++)
      if (bufs[k].offset >= 0 && bufs[k].size > 0)
        placed[np++] = (vplaced){bufs[k].offset, k};
    qsort(placed, (size_t)np, sizeof *placed, cmp_placed);
    for (int32_t x = 0; x < np; x++) {
      const vbuf *A = &bufs[placed[x].buf];
      int64_t aend = A->offset + A->size;
      for (int32_t y = x + 1; y < np && placed[y].offset < aend; y++) {
        const vbuf *B = &bufs[placed[y].buf];
        int ab = !A->live_end, ba = !B->live_end;
        for (int32_t s = 0; s < S && ab; s++) {
          int32_t m = hmax[(size_t)placed[x].buf * S + s];
          if (m >= 0 && h.clk[(size_t)B->owner * S + s] < m + 1)
            ab = 0;
        }
        for (int32_t s = 0; s < S && ba; s++) {
          int32_t m = hmax[(size_t)placed[y].buf * S + s];
          if (m >= 0 && h.clk[(size_t)A->owner * S + s] < m + 1)
            ba = 0;
        }
        if (ab || ba)
          continue;
        const vbuf *late = B->owner >= A->owner ? B : A, *early = late == B ? A : B;
        diag(c, ops[late->owner].op,
             "slot %lld (bytes [%lld, %lld)) overlaps slot %lld (bytes [%lld, %lld)) "
             "but both can be live at once",
             (long long)late->slot, (long long)late->offset,
             (long long)(late->offset + late->size), (long long)early->slot,
             (long long)early->offset, (long long)(early->offset + early->size));
      }
    }
  }

  if (!top_level)
    goto done;
  /* The arena holds every placed buffer. */
  for (int32_t k = 0; k < nbufs; k++)
    if (bufs[k].offset >= 0 && bufs[k].offset + bufs[k].size > c->arena_need) {
      c->arena_need = bufs[k].offset + bufs[k].size;
      c->arena_slot = bufs[k].slot;
    }
  /* Live bytes: in time on several streams, in IR order on one. */
  if (multi) {
    ev = xcalloc((size_t)nbufs * 2, sizeof *ev);
    if (!ev) {
      c->oom = 1;
      goto done;
    }
    size_t ne = 0;
    for (int32_t k = 0; k < nbufs; k++) {
      int64_t sz = bufs[k].size > 0 ? bufs[k].size : 0;
      ev[ne++] = (vevent){bufs[k].alloc_pt, 1, k, sz};
      if (!bufs[k].live_end)
        ev[ne++] = (vevent){bufs[k].release_pt, 0, k, sz};
    }
    qsort(ev, ne, sizeof *ev, cmp_event);
    int64_t live = 0;
    for (size_t k = 0; k < ne; k++) {
      if (ev[k].kind == 0) {
        live -= ev[k].amount;
        continue;
      }
      live = sat_add(live, ev[k].amount);
      if (live > c->mem_peak) {
        c->mem_peak = live;
        c->mem_time = ev[k].t / 2;
      }
    }
  } else {
    alloc_at = xcalloc((size_t)n, sizeof *alloc_at);
    free_at = xcalloc((size_t)n, sizeof *free_at);
    if (!alloc_at || !free_at) {
      c->oom = 1;
      goto done;
    }
    for (int32_t k = 0; k < nbufs; k++) {
      int64_t sz = bufs[k].size > 0 ? bufs[k].size : 0;
      alloc_at[bufs[k].owner] = sat_add(alloc_at[bufs[k].owner], sz);
      if (!bufs[k].live_end)
        free_at[bufs[k].last_pos] += sz;
    }
    int64_t live = 0;
    for (i = 0; i < n; i++) {
      live = sat_add(live, alloc_at[i]);
      if (live > c->mem_peak) {
        c->mem_peak = live;
        c->mem_time = -1;
        c->mem_op = ops[i].has_id ? ops[i].id : i;
      }
      live -= free_at[i];
    }
  }

done:
  free(b.uses);
  free(ops);
  free(pool);
  free(mark);
  free(ids);
  free(svals);
  free(h.clk);
  free(bufs);
  free(refs);
  free(hmax);
  free(placed);
  free(ev);
  free(alloc_at);
  free(free_at);
}

static void verify_region(vctx *c, MlirRegion region, int top_level);

static void verify_block_tree(vctx *c, MlirBlock block, int top_level) {
  verify_block(c, block, top_level);
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

/*===-------------------------------------------------------------------===*
 * The function
 *===-------------------------------------------------------------------===*/

static int cmp_diag(const void *a, const void *b) {
  const vdiag *x = a, *y = b;
  if (x->key != y->key)
    return (x->key > y->key) - (x->key < y->key);
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Reads an integer function attribute >= `min`; reports it otherwise. */
static int func_int(vctx *c, const char *name, int64_t min, int64_t *out) {
  int r = get_int(c->func, name, out);
  if (r < 0 || (r > 0 && *out < min)) {
    diag(c, c->func, "'%s' must be an integer attribute >= %lld", name, (long long)min);
    return -1;
  }
  return r;
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
  c.map = xcalloc(cap, sizeof *c.map);
  if (!c.map) {
    opschedMlirEmit(mlirOperationGetLocation(func), OPSCHED_SEVERITY_ERROR,
                    PREFIX "out of memory");
    return 1;
  }
  c.mapcap = cap;
  c.mapcount = 0;
  mlirOperationWalk(func, number_cb, &c, MlirWalkPreOrder);

  int r1 = func_int(&c, F_STREAMS, 1, &c.streams);
  int r2 = func_int(&c, F_RESOURCE_LIMIT, 1, &c.rlimit);
  int r3 = func_int(&c, F_ARENA, 0, &c.arena);
  int r4 = func_int(&c, F_MEMORY_LIMIT, 0, &c.mlimit);
  c.has_streams = r1 > 0;
  c.has_rlimit = r2 > 0;
  c.has_arena = r3 > 0;
  c.has_mlimit = r4 > 0;
  if (r1 >= 0 && r2 >= 0 && r3 >= 0 && r4 >= 0) {
    for (MlirRegion r = mlirOperationGetFirstRegion(func); !mlirRegionIsNull(r);
         r = mlirRegionGetNextInOperation(r))
      verify_region(&c, r, 1);
    if (c.has_arena && c.arena_need > c.arena)
      diag(&c, func, "'" F_ARENA "' is %lld bytes but slot %lld ends at byte %lld",
           (long long)c.arena, (long long)c.arena_slot, (long long)c.arena_need);
    if (c.has_mlimit && c.mem_peak > c.mlimit) {
      if (c.mem_time >= 0)
        diag(&c, func, "live bytes reach %lld at t=%lld, above '" F_MEMORY_LIMIT "' = %lld",
             (long long)c.mem_peak, (long long)c.mem_time, (long long)c.mlimit);
      else
        diag(&c, func, "live bytes reach %lld during op %lld, above '" F_MEMORY_LIMIT "' = %lld",
             (long long)c.mem_peak, (long long)c.mem_op, (long long)c.mlimit);
    }
  }
  if (c.oom)
    diag(&c, func, "out of memory; the check is incomplete");

  if (c.ndiags)
    qsort(c.diags, c.ndiags, sizeof *c.diags, cmp_diag);
  for (size_t k = 0; k < c.ndiags; k++) {
    opschedMlirEmit(mlirOperationGetLocation(c.diags[k].op), OPSCHED_SEVERITY_ERROR,
                    c.diags[k].msg);
    free(c.diags[k].msg);
  }
  int64_t count = (int64_t)c.ndiags;
  free(c.diags);
  free(c.map);
  return count;
}
