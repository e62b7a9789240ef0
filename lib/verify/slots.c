/* lib/verify/slots.c - buffers: each slot has one owner; bytes shared by two
 * buffers only when every holder of one happens before the other's owner;
 * the arena and the live bytes (in time on several streams, in IR order on
 * one) for the function-wide limits. */
#include "verify_internal.h"

#include <stdlib.h>

typedef struct vbuf {
  int64_t slot, offset, size;
  int32_t owner, result;
  int live_end;
  int32_t last_pos;
  int64_t alloc_pt, release_pt; /* doubled time points, [alloc, release) */
} vbuf;

typedef struct vslotref {
  int64_t slot;
  int32_t buf;
} vslotref;

typedef struct vbufs {
  vblock *b;
  int32_t n;
  vbuf *bufs;
  vslotref *refs;  /* sorted by slot */
  int32_t *hmax;   /* n * S: last position of a holder on each stream, -1 */
} vbufs;

/* Doubled time points (docs/streams.md): an op [s, e) with e > s holds
 * [2s+1, 2e); a zero-duration op at t holds [2t, 2t+1). */
static int64_t first_pt(const vop *o) {
  return o->end > o->start ? 2 * o->start + 1 : 2 * o->start;
}
static int64_t last_pt(const vop *o) { /* exclusive */
  return o->end > o->start ? 2 * o->end : 2 * o->start + 1;
}

static int cmp_slotref(const void *a, const void *b) {
  const vslotref *x = a, *y = b;
  if (x->slot != y->slot)
    return (x->slot > y->slot) - (x->slot < y->slot);
  return (x->buf > y->buf) - (x->buf < y->buf);
}

static int32_t find_slot(const vbufs *B, int64_t slot) {
  size_t lo = 0, hi = (size_t)B->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (B->refs[mid].slot < slot)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < (size_t)B->n && B->refs[lo].slot == slot ? B->refs[lo].buf : -1;
}

static int owns(const vop *o, int32_t r) { return o->offset[r] >= 0 || o->offset[r] == -2; }

/* The owned buffers; each slot has exactly one owner. 0 when malformed. */
static int collect_buffers(vbufs *B) {
  vblock *b = B->b;
  int32_t k = 0;
  for (int32_t i = 0; i < b->n; i++)
    if (b->ops[i].has_slots)
      for (int32_t r = 0; r < b->ops[i].nres; r++) {
        if (!owns(&b->ops[i], r))
          continue;
        const vop *o = &b->ops[i];
        B->bufs[k] = (vbuf){o->slot[r],  o->offset[r], o->size[r],
                            i,           r,            0,
                            i,           b->timed ? first_pt(o) : 0,
                            b->timed ? last_pt(o) : 0};
        B->refs[k] = (vslotref){o->slot[r], k};
        k++;
      }
  qsort(B->refs, (size_t)B->n, sizeof *B->refs, cmp_slotref);
  int ok = 1;
  for (int32_t j = 1; j < B->n; j++)
    if (B->refs[j].slot == B->refs[j - 1].slot) {
      const vbuf *bb = &B->bufs[B->refs[j].buf], *first = &B->bufs[B->refs[j - 1].buf];
      vdiag_note(b->c, b->ops[bb->owner].op, b->ops[first->owner].op, "the other owner is here",
                 "result #%d owns slot %lld, which an earlier result of this block owns too",
                 (int)bb->result, (long long)bb->slot);
      ok = 0;
    }
  for (int32_t i = 0; i < b->n; i++)
    if (b->ops[i].has_slots)
      for (int32_t r = 0; r < b->ops[i].nres; r++)
        if (b->ops[i].slot[r] >= 0 && find_slot(B, b->ops[i].slot[r]) < 0) {
          vdiag_at(b->c, b->ops[i].op,
                   "result #%d carries slot %lld, which no result of this block owns", (int)r,
                   (long long)b->ops[i].slot[r]);
          ok = 0;
        }
  return ok;
}

/* Holders: the owner and every op using a result carrying the slot. */
static void find_holders(vbufs *B) {
  vblock *b = B->b;
  int32_t S = b->S;
  for (size_t j = 0; j < (size_t)B->n * (size_t)S; j++)
    B->hmax[j] = -1;
  for (int32_t k = 0; k < B->n; k++) {
    const vop *o = &b->ops[B->bufs[k].owner];
    B->hmax[(size_t)k * S + o->sidx] = o->spos;
    if (o->is_term)
      B->bufs[k].live_end = 1;
  }
  for (size_t k = 0; k < b->nuses; k++) {
    const vop *ou = &b->ops[b->uses[k].u], *ov = &b->ops[b->uses[k].v];
    if (!ou->has_slots || ou->slot[b->uses[k].r] < 0)
      continue;
    int32_t bi = find_slot(B, ou->slot[b->uses[k].r]);
    vbuf *bb = &B->bufs[bi];
    if (ov->is_term)
      bb->live_end = 1;
    if (b->uses[k].v > bb->last_pos)
      bb->last_pos = b->uses[k].v;
    if (ov->exempt)
      continue;
    int32_t *hm = &B->hmax[(size_t)bi * S + ov->sidx];
    if (*hm < ov->spos)
      *hm = ov->spos;
    if (b->timed && last_pt(ov) > bb->release_pt)
      bb->release_pt = last_pt(ov);
  }
}

/* Has every holder of buffer x completed before buffer y's owner runs? */
static int released_before(const vbufs *B, int32_t x, int32_t y) {
  const vblock *b = B->b;
  if (B->bufs[x].live_end)
    return 0;
  for (int32_t s = 0; s < b->S; s++) {
    int32_t m = B->hmax[(size_t)x * b->S + s];
    if (m >= 0 && !vhb_covers(&b->h, B->bufs[y].owner, s, m))
      return 0;
  }
  return 1;
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

/* ---- Overlaps without a violation, in O(n log n) ----------------------
 *
 * Checking every overlapping pair is quadratic in the buffers that reuse a
 * range (a 100k-op block reuses a few slots thousands of times). A cheaper
 * certificate: take the buffers in owner order and paint each one's byte
 * range over a map of the bytes' latest occupants, after checking that
 * every occupant it covers is released before it. That suffices: two
 * buffers sharing a byte are linked through that byte's occupants, each
 * released before the next, and released_before chains (an owner holds its
 * buffer, and vector clocks only grow along what happens after). When the
 * certificate fails the pairwise check runs, so what is reported is the
 * same. */

/* A segment tree over the elementary byte intervals: val is a node's one
 * occupant (-1 none) when its whole range has one, PAINT_MIXED otherwise. */
#define PAINT_MIXED (-2)

typedef struct paint {
  const vbufs *B;
  int32_t *val;
  int32_t *stamp; /* per buffer: the buffer last checked against it */
  int32_t y;      /* the buffer being placed */
  int ok;
} paint;

/* Checks the occupants of leaves [l, r) in node k (leaves [lo, hi)). */
static void paint_check(paint *P, int32_t k, int32_t lo, int32_t hi, int32_t l, int32_t r) {
  if (!P->ok || r <= lo || hi <= l)
    return;
  int32_t v = P->val[k];
  if (v != PAINT_MIXED) {
    if (v >= 0 && P->stamp[v] != P->y) {
      P->stamp[v] = P->y;
      P->ok = released_before(P->B, v, P->y);
    }
    return;
  }
  int32_t mid = lo + (hi - lo) / 2;
  paint_check(P, 2 * k, lo, mid, l, r);
  paint_check(P, 2 * k + 1, mid, hi, l, r);
}

/* Leaves [l, r) of node k (leaves [lo, hi)) get occupant P->y. */
static void paint_set(paint *P, int32_t k, int32_t lo, int32_t hi, int32_t l, int32_t r) {
  if (r <= lo || hi <= l)
    return;
  if (l <= lo && hi <= r) {
    P->val[k] = P->y;
    return;
  }
  int32_t mid = lo + (hi - lo) / 2;
  if (P->val[k] != PAINT_MIXED) /* split: the children take the whole's */
    P->val[2 * k] = P->val[2 * k + 1] = P->val[k];
  paint_set(P, 2 * k, lo, mid, l, r);
  paint_set(P, 2 * k + 1, mid, hi, l, r);
  P->val[k] = P->val[2 * k] == P->val[2 * k + 1] ? P->val[2 * k] : PAINT_MIXED;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The leaf where byte `at` starts (at is one of the m sorted cuts). */
static int32_t cut_index(const int64_t *cut, int32_t m, int64_t at) {
  int32_t lo = 0, hi = m;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (cut[mid] < at)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* 1 when no two of the np placed buffers can be live at once in shared
 * bytes; 0 when some may be (or out of memory): check them pairwise. */
static int overlaps_certified(const vbufs *B, const vplaced *placed, int32_t np) {
  /* (owner, buffer) pairs, ordered as cmp_placed orders (offset, buffer). */
  vplaced *order = malloc(sizeof *order * (size_t)(np ? np : 1));
  int64_t *cut = malloc(sizeof *cut * 2 * (size_t)(np ? np : 1));
  int32_t *stamp = malloc(sizeof *stamp * (size_t)(B->n ? B->n : 1));
  int32_t *val = NULL;
  int ok = 0, m = 0;
  if (!order || !cut || !stamp)
    goto done;
  for (int32_t i = 0; i < np; i++) {
    const vbuf *x = &B->bufs[placed[i].buf];
    order[i] = (vplaced){x->owner, placed[i].buf};
    cut[2 * i] = x->offset;
    cut[2 * i + 1] = x->offset + x->size;
  }
  qsort(order, (size_t)np, sizeof *order, cmp_placed);
  qsort(cut, 2 * (size_t)np, sizeof *cut, cmp_i64);
  for (int32_t i = 0; i < 2 * np; i++)
    if (m == 0 || cut[m - 1] != cut[i])
      cut[m++] = cut[i];
  int32_t leaves = m > 1 ? m - 1 : 1;
  val = malloc(sizeof *val * 4 * (size_t)leaves);
  if (!val)
    goto done;
  for (size_t k = 0; k < 4 * (size_t)leaves; k++)
    val[k] = -1;
  for (int32_t k = 0; k < B->n; k++)
    stamp[k] = -1;
  paint P = {B, val, stamp, -1, 1};
  for (int32_t i = 0; i < np && P.ok; i++) {
    const vbuf *y = &B->bufs[order[i].buf];
    int32_t l = cut_index(cut, m, y->offset), r = cut_index(cut, m, y->offset + y->size);
    P.y = order[i].buf;
    paint_check(&P, 1, 0, leaves, l, r);
    paint_set(&P, 1, 0, leaves, l, r);
  }
  ok = P.ok;
done:
  free(order);
  free(cut);
  free(stamp);
  free(val);
  return ok;
}

/* Overlapping byte ranges need every holder of one to happen before the
 * other's owner. */
static void check_overlaps(vbufs *B) {
  vblock *b = B->b;
  vplaced *placed = vcalloc((size_t)B->n, sizeof *placed);
  if (!placed) {
    b->c->oom = 1;
    return;
  }
  int32_t np = 0;
  for (int32_t k = 0; k < B->n; k++)
    if (B->bufs[k].offset >= 0 && B->bufs[k].size > 0)
      placed[np++] = (vplaced){B->bufs[k].offset, k};
  if (overlaps_certified(B, placed, np)) {
    free(placed);
    return;
  }
  qsort(placed, (size_t)np, sizeof *placed, cmp_placed);
  char lb[160];
  for (int32_t x = 0; x < np; x++) {
    const vbuf *A = &B->bufs[placed[x].buf];
    int64_t aend = A->offset + A->size;
    for (int32_t y = x + 1; y < np && placed[y].offset < aend; y++) {
      const vbuf *Y = &B->bufs[placed[y].buf];
      if (released_before(B, placed[x].buf, placed[y].buf) ||
          released_before(B, placed[y].buf, placed[x].buf))
        continue;
      const vbuf *late = Y->owner >= A->owner ? Y : A, *early = late == Y ? A : Y;
      vdiag_note(b->c, b->ops[late->owner].op, b->ops[early->owner].op,
                 "the other buffer's owner is here",
                 "slot %lld (bytes [%lld, %lld)) overlaps slot %lld (bytes [%lld, %lld)) of %s "
                 "but both can be live at once",
                 (long long)late->slot, (long long)late->offset,
                 (long long)(late->offset + late->size), (long long)early->slot,
                 (long long)early->offset, (long long)(early->offset + early->size),
                 vlabel(&b->ops[early->owner], early->owner, lb, sizeof lb));
    }
  }
  free(placed);
}

/* Live bytes in time (several streams). */
static void live_in_time(vbufs *B) {
  vctx *c = B->b->c;
  vevent *ev = vcalloc((size_t)B->n * 2, sizeof *ev);
  if (!ev) {
    c->oom = 1;
    return;
  }
  size_t ne = 0;
  for (int32_t k = 0; k < B->n; k++) {
    int64_t sz = B->bufs[k].size > 0 ? B->bufs[k].size : 0;
    ev[ne++] = (vevent){B->bufs[k].alloc_pt, 1, k, sz};
    if (!B->bufs[k].live_end)
      ev[ne++] = (vevent){B->bufs[k].release_pt, 0, k, sz};
  }
  qsort(ev, ne, sizeof *ev, vevent_cmp);
  int64_t live = 0;
  for (size_t k = 0; k < ne; k++) {
    if (ev[k].kind == 0) {
      live -= ev[k].amount;
      continue;
    }
    live = vsat_add(live, ev[k].amount);
    if (live > c->mem_peak) {
      c->mem_peak = live;
      c->mem_time = ev[k].t / 2;
    }
  }
  free(ev);
}

/* Live bytes in IR order (one stream). */
static void live_in_order(vbufs *B) {
  vblock *b = B->b;
  vctx *c = b->c;
  int64_t *alloc_at = vcalloc((size_t)b->n, sizeof *alloc_at);
  int64_t *free_at = vcalloc((size_t)b->n, sizeof *free_at);
  if (!alloc_at || !free_at) {
    c->oom = 1;
    free(alloc_at);
    free(free_at);
    return;
  }
  for (int32_t k = 0; k < B->n; k++) {
    int64_t sz = B->bufs[k].size > 0 ? B->bufs[k].size : 0;
    alloc_at[B->bufs[k].owner] = vsat_add(alloc_at[B->bufs[k].owner], sz);
    if (!B->bufs[k].live_end)
      free_at[B->bufs[k].last_pos] += sz;
  }
  int64_t live = 0;
  for (int32_t i = 0; i < b->n; i++) {
    live = vsat_add(live, alloc_at[i]);
    if (live > c->mem_peak) {
      c->mem_peak = live;
      c->mem_time = -1;
      c->mem_op = b->ops[i].has_id ? b->ops[i].id : i;
    }
    live -= free_at[i];
  }
  free(alloc_at);
  free(free_at);
}

/* The function's arena must hold every placed buffer. */
static void arena_need(vbufs *B) {
  vctx *c = B->b->c;
  for (int32_t k = 0; k < B->n; k++)
    if (B->bufs[k].offset >= 0 && B->bufs[k].offset + B->bufs[k].size > c->arena_need) {
      c->arena_need = B->bufs[k].offset + B->bufs[k].size;
      c->arena_slot = B->bufs[k].slot;
    }
}

void vcheck_buffers(vblock *b) {
  vbufs B = {b, 0, NULL, NULL, NULL};
  int any_slots = 0;
  for (int32_t i = 0; i < b->n; i++) {
    any_slots |= b->ops[i].has_slots;
    if (b->ops[i].has_slots)
      for (int32_t r = 0; r < b->ops[i].nres; r++)
        B.n += owns(&b->ops[i], r);
  }
  if (!any_slots)
    return;
  B.bufs = vcalloc((size_t)B.n, sizeof *B.bufs);
  B.refs = vcalloc((size_t)B.n, sizeof *B.refs);
  B.hmax = vcalloc((size_t)B.n * (size_t)b->S, sizeof *B.hmax);
  if (!B.bufs || !B.refs || !B.hmax)
    b->c->oom = 1;
  else if (collect_buffers(&B)) {
    find_holders(&B);
    check_overlaps(&B);
    if (b->top_level) {
      arena_need(&B);
      if (b->multi)
        live_in_time(&B);
      else
        live_in_order(&B);
    }
  }
  free(B.bufs);
  free(B.refs);
  free(B.hmax);
}
