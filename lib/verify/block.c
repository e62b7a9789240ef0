/* lib/verify/block.c - one block's check: a short driver (vverify_block)
 * calling one phase per property, in the order each needs the previous
 * ones: the ops' attributes, complete annotation, uses, streams, ids,
 * happens-before (with the waits' own rules), dependencies, capacity,
 * memory effects and the terminator (effects.c), buffers (slots.c). */
#include "verify_internal.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdlib.h>
#include <string.h>

int vbefore(const vblock *b, int32_t u, int32_t v) {
  if (b->ops[u].exempt || b->ops[v].exempt)
    return 0;
  return vhb_before(&b->h, u, v);
}

/* Ops and their attributes; the terminator (or an unregistered last op).
 * Returns 0 when the block carries no schedule or a malformed one. */
static int read_ops(vblock *b) {
  vctx *c = b->c;
  int32_t n = 0;
  int64_t nres_total = 0;
  int any = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(b->block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    n++;
    nres_total += mlirOperationGetNumResults(op);
    any |= vhas_schedule_attrs(op);
  }
  if (!any)
    return 0; /* not scheduled: nothing to check */
  b->n = n;
  b->ops = vcalloc((size_t)n, sizeof *b->ops);
  b->pool = vcalloc((size_t)nres_total * 3, sizeof *b->pool);
  b->ids = vcalloc((size_t)n, sizeof *b->ids);
  if (!b->ops || !b->pool || !b->ids) {
    c->oom = 1;
    return 0;
  }
  MlirOperation term = mlirBlockGetTerminator(b->block);
  MlirContext ctx = mlirOperationGetContext(c->func);
  int ok = 1;
  int64_t used = 0;
  int32_t i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(b->block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), i++) {
    vop *o = &b->ops[i];
    o->op = op;
    o->nres = (int32_t)mlirOperationGetNumResults(op);
    vmap_entry *e = vlookup(c, op);
    if (e)
      e->pos = i;
    if (i == n - 1)
      o->is_term = (!mlirOperationIsNull(term) && mlirOperationEqual(op, term)) ||
                   !mlirContextIsRegisteredOperation(
                       ctx, mlirIdentifierStr(mlirOperationGetName(op)));
    o->exempt = o->is_term && !vhas_schedule_attrs(op);
    ok &= vread_op(c, o, b->pool + used);
    used += 3 * (int64_t)o->nres;
  }
  return ok && !c->func_bad;
}

/* Times on all ops or none; streams and ids likewise, and streams need
 * times. */
static int check_annotation(vblock *b) {
  int32_t ntimed = 0, nstreamed = 0, nids = 0;
  for (int32_t i = 0; i < b->n; i++) {
    if (b->ops[i].exempt)
      continue;
    ntimed += b->ops[i].timed;
    nstreamed += b->ops[i].streamed;
    nids += b->ops[i].has_id;
  }
  b->timed = ntimed > 0;
  b->multi = nstreamed > 0 || nids > 0;
  int ok = 1;
  for (int32_t i = 0; i < b->n; i++) {
    const vop *o = &b->ops[i];
    if (o->exempt)
      continue;
    if ((b->timed || b->multi) && !o->timed) {
      vdiag_at(b->c, o->op,
               "partially annotated block: this op has no '" A_START "'/'" A_END
               "' but others in its block do");
      ok = 0;
    } else if (b->multi && (!o->streamed || !o->has_id)) {
      vdiag_at(b->c, o->op,
               "partially annotated block: this op has no '%s' but others in its block do",
               !o->streamed ? A_STREAM : A_ID);
      ok = 0;
    } else if (!b->multi && o->has_waits) {
      vdiag_at(b->c, o->op, "'" A_WAITS "' without '" A_STREAM "' and '" A_ID "'");
      ok = 0;
    }
  }
  return ok;
}

/* One use as vcollect_uses finds it: in the block numbered `block` (walk
 * order), by the op `owner` (numbered u once every op has its position). */
typedef struct vuse_rec {
  int32_t block;
  const void *owner;
  vuse use;
} vuse_rec;

/* The walk of vcollect_uses: the blocks from the function's body down to
 * the current op's, each with its number (walk order) and the position of
 * the op on the path. */
typedef struct upath {
  int32_t bnum, idx;
} upath;

typedef struct uwalk {
  vctx *c;
  upath *path;
  size_t depth, cap;
  const void **blocks; /* by number */
  size_t nblocks, capb;
  vuse_rec *rec;
  size_t n, capr;
} uwalk;

static int uwalk_push(uwalk *w, MlirBlock block) {
  if (!vreserve((void **)&w->path, w->depth + 1, &w->cap, sizeof *w->path) ||
      !vreserve((void **)&w->blocks, w->nblocks + 1, &w->capb, sizeof *w->blocks))
    return 0;
  w->blocks[w->nblocks] = block.ptr;
  w->path[w->depth++] = (upath){(int32_t)w->nblocks++, 0};
  return 1;
}

/* The uses by `op`'s operands of results of ops in the blocks on the path;
 * the op at the top of the path is `op` or holds it. */
static int uwalk_operands(uwalk *w, MlirOperation op) {
  intptr_t k = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < k; i++) {
    MlirValue val = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(val))
      continue;
    MlirOperation owner = mlirOpResultGetOwner(val);
    const void *ob = mlirOperationGetBlock(owner).ptr;
    size_t d = w->depth;
    while (d > 0 && w->blocks[w->path[d - 1].bnum] != ob)
      d--;
    if (d == 0)
      continue; /* not a block the op is in */
    const upath *p = &w->path[d - 1];
    if (!vreserve((void **)&w->rec, w->n + 1, &w->capr, sizeof *w->rec))
      return 0;
    w->rec[w->n++] = (vuse_rec){p->bnum, owner.ptr,
                                {-1, (int32_t)mlirOpResultGetResultNumber(val), p->idx}};
  }
  return 1;
}

static int uwalk_block(uwalk *w, MlirBlock block) {
  if (!uwalk_push(w, block))
    return 0;
  int32_t i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), i++) {
    w->path[w->depth - 1].idx = i;
    vmap_entry *e = vlookup(w->c, op);
    if (e)
      e->idx = i;
    if (!uwalk_operands(w, op))
      return 0;
    for (MlirRegion r = mlirOperationGetFirstRegion(op); !mlirRegionIsNull(r);
         r = mlirRegionGetNextInOperation(r))
      for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
           b = mlirBlockGetNextInRegion(b))
        if (!uwalk_block(w, b))
          return 0;
  }
  w->depth--;
  return 1;
}

static int cmp_block_uses(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const vblock_uses *)a)->block;
  uintptr_t y = (uintptr_t)((const vblock_uses *)b)->block;
  return (x > y) - (x < y);
}

/* Groups the walk's records by block, each group in walk order (a counting
 * sort: stable), and indexes the groups by block. */
static int group_uses(vctx *c, uwalk *w) {
  vuse *uses = malloc((w->n ? w->n : 1) * sizeof *uses);
  size_t *start = calloc(w->nblocks + 1, sizeof *start);
  vblock_uses *index = malloc((w->nblocks + 1) * sizeof *index);
  if (!uses || !start || !index) {
    free(uses);
    free(start);
    free(index);
    return 0;
  }
  for (size_t k = 0; k < w->n; k++)
    start[w->rec[k].block + 1]++;
  for (size_t b = 0; b < w->nblocks; b++)
    start[b + 1] += start[b];
  size_t nindex = 0;
  for (size_t b = 0; b < w->nblocks; b++)
    if (start[b + 1] > start[b])
      index[nindex++] = (vblock_uses){w->blocks[b], start[b], start[b + 1] - start[b]};
  for (size_t k = 0; k < w->n; k++)
    uses[start[w->rec[k].block]++] = w->rec[k].use;
  free(start);
  qsort(index, nindex, sizeof *index, cmp_block_uses);
  c->uses = uses;
  c->block_uses = index;
  c->nblock_uses = nindex;
  return 1;
}

void vcollect_uses(vctx *c, MlirOperation func) {
  uwalk w;
  memset(&w, 0, sizeof w);
  w.c = c;
  int ok = 1;
  for (MlirRegion r = mlirOperationGetFirstRegion(func); ok && !mlirRegionIsNull(r);
       r = mlirRegionGetNextInOperation(r))
    for (MlirBlock b = mlirRegionGetFirstBlock(r); ok && !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      ok = uwalk_block(&w, b);
  /* Owners are numbered now (an op may use a later op's result in a graph
   * region); an op's uses of its own results are not edges. */
  size_t n = 0;
  for (size_t k = 0; ok && k < w.n; k++) {
    vmap_entry *e = vlookup(c, (MlirOperation){(void *)w.rec[k].owner});
    if (!e || e->idx == w.rec[k].use.v)
      continue;
    w.rec[k].use.u = e->idx;
    w.rec[n++] = w.rec[k];
  }
  w.n = n;
  if (ok)
    ok = group_uses(c, &w);
  if (!ok)
    c->oom = 1;
  free(w.path);
  free(w.blocks);
  free(w.rec);
}

/* SSA operands of each op and of everything nested in it (captures), from
 * the function's uses (vcollect_uses), in the order a walk of each op's
 * subtree finds them. */
static int collect_uses(vblock *b) {
  const vctx *c = b->c;
  vblock_uses key = {b->block.ptr, 0, 0};
  const vblock_uses *g =
      c->nblock_uses ? bsearch(&key, c->block_uses, c->nblock_uses, sizeof key, cmp_block_uses)
                     : NULL;
  if (g) {
    b->uses = c->uses + g->first;
    b->nuses = g->count;
  }
  return 1;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Dense stream indices; one stream (IR order) without stream attributes. */
static int number_streams(vblock *b) {
  int64_t *svals = vcalloc((size_t)b->n, sizeof *svals);
  if (!svals) {
    b->c->oom = 1;
    return 0;
  }
  int32_t k = 0, S = 1;
  if (b->multi) {
    for (int32_t i = 0; i < b->n; i++)
      if (!b->ops[i].exempt)
        svals[k++] = b->ops[i].stream;
    qsort(svals, (size_t)k, sizeof *svals, cmp_i64);
    S = 0;
    for (int32_t j = 0; j < k; j++)
      if (j == 0 || svals[j] != svals[S - 1])
        svals[S++] = svals[j];
    if (S == 0)
      S = 1;
  }
  for (int32_t i = 0; i < b->n; i++) {
    vop *o = &b->ops[i];
    if (o->exempt || !b->multi)
      continue;
    int64_t *p = bsearch(&o->stream, svals, (size_t)S, sizeof *svals, cmp_i64);
    o->sidx = (int32_t)(p - svals);
  }
  free(svals);
  b->S = S;
  return 1;
}

static int cmp_idpos(const void *a, const void *b) {
  const vidpos *x = a, *y = b;
  if (x->id != y->id)
    return (x->id > y->id) - (x->id < y->id);
  return (x->pos > y->pos) - (x->pos < y->pos);
}

static int32_t find_id(const vblock *b, int64_t id) {
  size_t lo = 0, hi = b->nids;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (b->ids[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < b->nids && b->ids[lo].id == id ? b->ids[lo].pos : -1;
}

/* Ids are unique within the block (waits name them). */
static int check_ids(vblock *b) {
  if (!b->multi)
    return 1;
  for (int32_t i = 0; i < b->n; i++)
    if (!b->ops[i].exempt)
      b->ids[b->nids++] = (vidpos){b->ops[i].id, i};
  qsort(b->ids, b->nids, sizeof *b->ids, cmp_idpos);
  int ok = 1;
  char lb[160];
  for (size_t j = 1; j < b->nids; j++)
    if (b->ids[j].id == b->ids[j - 1].id) {
      int32_t p = b->ids[j].pos, q = b->ids[j - 1].pos;
      int32_t later = p > q ? p : q, earlier = p > q ? q : p;
      vdiag_note(b->c, b->ops[later].op, b->ops[earlier].op, "the earlier op is here",
                 "'" A_ID "' %lld is also the id of an earlier op in this block (%s)",
                 (long long)b->ops[later].id, vlabel(&b->ops[earlier], earlier, lb, sizeof lb));
      ok = 0;
    }
  return ok;
}

/* One wait of op i: names an earlier op that has ended when i starts (the
 * rule op-buffer-slots applies: waits follow the timeline). */
static void add_wait(vblock *b, int32_t i, int64_t id) {
  const vop *o = &b->ops[i];
  char lb[160];
  int32_t w = find_id(b, id);
  if (w < 0) {
    vdiag_at(b->c, o->op, "'" A_WAITS "' names op %lld, which does not exist in this block",
             (long long)id);
    return;
  }
  if (w >= i) {
    vdiag_note(b->c, o->op, b->ops[w].op, "the op waited on is here",
               "'" A_WAITS "' names %s, which does not come before this op",
               vlabel(&b->ops[w], w, lb, sizeof lb));
    return;
  }
  if (b->ops[w].end > o->start)
    vdiag_note(b->c, o->op, b->ops[w].op, "the op waited on is here",
               "'" A_WAITS "' names %s, which ends at %lld, after this op starts at %lld: "
               "waits must follow the timeline",
               vlabel(&b->ops[w], w, lb, sizeof lb), (long long)b->ops[w].end,
               (long long)o->start);
  vhb_wait(&b->h, i, w);
}

/* Happens-before: stream order (each op after its stream predecessor, also
 * in time) and waits, built in IR order. */
static int build_happens_before(vblock *b) {
  int32_t *last = malloc((size_t)b->S * sizeof *last);
  if (!last || vhb_init(&b->h, b->n, b->S) != 0) {
    free(last);
    b->c->oom = 1;
    return 0;
  }
  for (int32_t s = 0; s < b->S; s++)
    last[s] = -1;
  char lb[160];
  for (int32_t i = 0; i < b->n; i++) {
    vop *o = &b->ops[i];
    if (o->exempt)
      continue;
    int32_t p = vhb_place(&b->h, i, o->sidx, last);
    o->spos = b->h.spos[i];
    if (p >= 0 && b->ops[p].end > o->start)
      vdiag_note(b->c, o->op, b->ops[p].op, "the previous op of the stream is here",
                 "starts at %lld on stream %lld before %s, the previous op of that stream, "
                 "ends at %lld",
                 (long long)o->start, (long long)(b->multi ? o->stream : 0),
                 vlabel(&b->ops[p], p, lb, sizeof lb), (long long)b->ops[p].end);
    if (!o->has_waits)
      continue;
    intptr_t nw = mlirDenseArrayGetNumElements(o->waits);
    for (intptr_t k = 0; k < nw; k++)
      add_wait(b, i, mlirDenseI64ArrayGetElement(o->waits, k));
  }
  free(last);
  return 1;
}

/* Dependencies: in order, in time, and covered across streams. */
static void check_dependencies(vblock *b) {
  int32_t *seen = vcalloc((size_t)b->n, sizeof *seen);
  if (!seen) {
    b->c->oom = 1;
    return;
  }
  char lb[160];
  for (size_t k = 0; k < b->nuses; k++) {
    int32_t u = b->uses[k].u, v = b->uses[k].v;
    if (seen[u] == v + 1)
      continue; /* this dependency was seen already */
    seen[u] = v + 1;
    const vop *ou = &b->ops[u], *ov = &b->ops[v];
    const char *producer = vlabel(ou, u, lb, sizeof lb);
    if (u > v) {
      vdiag_note(b->c, ov->op, ou->op, "the producer is here",
                 "uses a value of %s, which comes later in the block", producer);
      continue;
    }
    if (ou->exempt || ov->exempt)
      continue;
    if (ou->end > ov->start)
      vdiag_note(b->c, ov->op, ou->op, "the producer is here",
                 "starts at %lld but its dependency %s ends at %lld", (long long)ov->start,
                 producer, (long long)ou->end);
    if (b->multi && ou->sidx != ov->sidx && !vbefore(b, u, v))
      vdiag_note(b->c, ov->op, ou->op, "the producer is here",
                 "dependency on %s on stream %lld is not covered by stream order or waits",
                 producer, (long long)ou->stream);
  }
  free(seen);
}

/* Capacity: demands of the ops of non-zero duration running at once. */
static void check_capacity(vblock *b) {
  vctx *c = b->c;
  if (!b->timed || !(c->has_rlimit || c->has_streams))
    return;
  int64_t limit = c->has_rlimit ? c->rlimit : c->streams;
  vevent *ev = vcalloc((size_t)b->n * 2, sizeof *ev);
  if (!ev) {
    c->oom = 1;
    return;
  }
  size_t ne = 0;
  for (int32_t i = 0; i < b->n; i++) {
    const vop *o = &b->ops[i];
    if (!o->exempt && o->end > o->start) {
      ev[ne++] = (vevent){o->start, 1, i, o->demand};
      ev[ne++] = (vevent){o->end, 0, i, o->demand};
    }
  }
  qsort(ev, ne, sizeof *ev, vevent_cmp);
  int64_t sum = 0, running = 0;
  for (size_t k = 0; k < ne; k++) {
    if (ev[k].kind == 0) {
      sum -= ev[k].amount;
      running--;
      continue;
    }
    sum = vsat_add(sum, ev[k].amount);
    running++;
    if (sum > limit && (c->has_rlimit || running > 1))
      vdiag_at(c, b->ops[ev[k].pos].op,
               "capacity exceeded at t=%lld: %lld running ops demand %lld, above %lld ('%s')",
               (long long)ev[k].t, (long long)running, (long long)sum, (long long)limit,
               c->has_rlimit ? F_RESOURCE_LIMIT : F_STREAMS);
  }
  free(ev);
}

void vverify_block(vctx *c, MlirBlock block, int top_level) {
  vblock b;
  memset(&b, 0, sizeof b);
  b.c = c;
  b.block = block;
  b.top_level = top_level;
  if (read_ops(&b) && check_annotation(&b) && collect_uses(&b) && number_streams(&b) &&
      check_ids(&b) && build_happens_before(&b)) {
    check_dependencies(&b);
    check_capacity(&b);
    vcheck_effects(&b);
    vcheck_terminator(&b);
    vcheck_buffers(&b);
  }
  vhb_free(&b.h);
  free(b.ops);
  free(b.pool);
  free(b.ids);
}
