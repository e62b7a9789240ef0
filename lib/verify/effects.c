/* lib/verify/effects.c - orderings the IR's values do not show: memory
 * effects (RAW, WAR, WAW and frees, per resource and alias root), unknown
 * effects, allocation on the stack against stack save/restore, speculation
 * (an op without effects that is not speculatable against one that may not
 * return), and the block's last op running after every other.
 *
 * The checker sees only the scheduled order, not the original one, so each
 * rule asks for the two ops to be ordered by happens-before, in whichever
 * direction the IR has them: in one stream IR order orders everything; on
 * several streams a pair that stream order and waits leave unordered may
 * run at once, which no original order allowed. */
#include "facts.h"
#include "fxindex.h"
#include "verify_internal.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct vfxop {
  int32_t pos;
  opsched_vfacts f;
  int64_t first, count; /* effects in the pool */
  int accesses;         /* some read, write or free */
  int pure_unsafe;      /* no effects at all, yet not speculatable */
} vfxop;

typedef struct vfxset {
  opsched_vfx_cache *cache;
  vfxop *ops;
  int32_t n;
  opsched_vfx *pool;
  int64_t npool, cap;
} vfxset;

static int interesting(const vfxop *x) {
  return x->accesses || x->f.unknown || x->pure_unsafe || x->f.may_not_return ||
         x->f.stack_alloc || x->f.stack_scope;
}

/* Appends op `pos`'s facts and effects; 0 when out of memory. */
static int add_op(vfxset *s, const vop *o, int32_t pos) {
  vfxop *x = &s->ops[s->n];
  x->pos = pos;
  x->first = s->npool;
  int64_t k =
      opschedVerifyOpFacts(s->cache, o->op, s->pool + s->npool, s->cap - s->npool, &x->f);
  if (s->npool + k > s->cap) {
    int64_t cap = 2 * (s->npool + k);
    opsched_vfx *p = realloc(s->pool, (size_t)cap * sizeof *p);
    if (!p)
      return 0;
    s->pool = p;
    s->cap = cap;
    k = opschedVerifyOpFacts(s->cache, o->op, s->pool + s->npool, s->cap - s->npool, &x->f);
  }
  x->count = k;
  s->npool += k;
  x->accesses = 0;
  for (int64_t e = x->first; e < s->npool; e++)
    x->accesses |= s->pool[e].kind != OPSCHED_VFX_ALLOC;
  /* Speculation concerns ops without effects (arith.divsi by a value that
   * may be zero): an op with effects is ordered by the effect rules, and an
   * allocation alone is not observable. */
  x->pure_unsafe = !x->f.unknown && k == 0 && !x->f.speculatable;
  if (interesting(x))
    s->n++;
  else
    s->npool = x->first;
  return 1;
}

/* Distinct roots alias unless one is a local allocation, or both are
 * allocations, or one is an allocation and the other an argument of the
 * function (made before it) or a global (static storage). */
static int may_alias(const opsched_vfx *a, const opsched_vfx *b) {
  if (!a->root || !b->root || a->root == b->root)
    return 1;
  int x = a->origin, y = b->origin;
  if (x == OPSCHED_VFX_LOCAL || y == OPSCHED_VFX_LOCAL)
    return 0;
  if (y == OPSCHED_VFX_ALLOCATION) {
    y = x;
    x = OPSCHED_VFX_ALLOCATION;
  }
  return !(x == OPSCHED_VFX_ALLOCATION &&
           (y == OPSCHED_VFX_ALLOCATION || y == OPSCHED_VFX_ARGUMENT || y == OPSCHED_VFX_GLOBAL));
}

typedef enum vconflict {
  V_NONE,
  V_RAW,
  V_WAR,
  V_WAW,
  V_FREES,     /* the later op frees what the earlier accesses */
  V_FREED,     /* the later op accesses what the earlier frees */
  V_STACK_V,   /* the later op allocates on the stack */
  V_STACK_U,   /* the earlier op does */
  V_UNKNOWN_V, /* the later op has unknown effects */
  V_UNKNOWN_U,
  V_SPEC_V, /* the later op is not speculatable */
  V_SPEC_U
} vconflict;

static vconflict effect_conflict(const vfxset *s, const vfxop *u, const vfxop *v) {
  for (int64_t i = u->first; i < u->first + u->count; i++)
    for (int64_t j = v->first; j < v->first + v->count; j++) {
      const opsched_vfx *a = &s->pool[i], *b = &s->pool[j];
      if (a->resource != b->resource || a->kind == OPSCHED_VFX_ALLOC ||
          b->kind == OPSCHED_VFX_ALLOC ||
          (a->kind == OPSCHED_VFX_READ && b->kind == OPSCHED_VFX_READ) || !may_alias(a, b))
        continue;
      if (a->kind == OPSCHED_VFX_FREE)
        return V_FREED;
      if (b->kind == OPSCHED_VFX_FREE)
        return V_FREES;
      if (a->kind == OPSCHED_VFX_READ)
        return V_WAR;
      return b->kind == OPSCHED_VFX_READ ? V_RAW : V_WAW;
    }
  return V_NONE;
}

/* The first rule that needs u (earlier in IR) and v ordered. */
static vconflict conflict(const vfxset *s, const vfxop *u, const vfxop *v) {
  vconflict k = effect_conflict(s, u, v);
  if (k != V_NONE)
    return k;
  if (v->f.stack_alloc && (u->f.stack_scope || u->f.unknown))
    return V_STACK_V;
  if (u->f.stack_alloc && (v->f.stack_scope || v->f.unknown))
    return V_STACK_U;
  if (v->f.unknown && (u->accesses || u->f.unknown))
    return V_UNKNOWN_V;
  if (u->f.unknown && v->accesses)
    return V_UNKNOWN_U;
  if (v->pure_unsafe && u->f.may_not_return)
    return V_SPEC_V;
  if (u->pure_unsafe && v->f.may_not_return)
    return V_SPEC_U;
  return V_NONE;
}

static const char *const what[] = {
    [V_RAW] = "reads memory that %s writes (read after write)",
    [V_WAR] = "writes memory that %s reads (write after read)",
    [V_WAW] = "writes memory that %s also writes (write after write)",
    [V_FREES] = "frees memory that %s accesses",
    [V_FREED] = "accesses memory that %s frees (use after free)",
    [V_STACK_V] = "allocates on the stack while %s saves, restores or may change it "
                  "(allocation scope)",
    [V_STACK_U] = "saves, restores or may change the stack while %s allocates on it "
                  "(allocation scope)",
    [V_UNKNOWN_V] = "has unknown memory effects and %s touches memory",
    [V_UNKNOWN_U] = "touches memory and %s has unknown memory effects",
    [V_SPEC_V] = "is not speculatable and %s may not return (a call, an assertion or "
                 "unknown effects)",
    [V_SPEC_U] = "may not return (a call, an assertion or unknown effects) and %s is not "
                 "speculatable",
};

static void report(vblock *b, vconflict k, int32_t u, int32_t v) {
  char lb[160], msg[512];
  const vop *ou = &b->ops[u], *ov = &b->ops[v];
  snprintf(msg, sizeof msg, what[k], vlabel(ou, u, lb, sizeof lb));
  vdiag_note(b->c, ov->op, ou->op, "the other op is here",
             "%s, but no stream order or wait orders the two (streams %lld and %lld)", msg,
             (long long)ov->stream, (long long)ou->stream);
}

/* Classes of the index (fxindex.h): key (tag | w, resource, c), w = 1 for
 * writes and frees, 0 for reads. A query names the classes whose members
 * conflict with it, exactly as conflict() and may_alias() decide. */
enum { K_ALL = 1 << 8, K_NULL = 2 << 8, K_ROOT = 3 << 8, K_ORIGIN = 4 << 8, K_FLAG = 5 << 8 };
enum { F_SCOPE_OR_UNKNOWN, F_STACK_ALLOC, F_ACCESS_OR_UNKNOWN, F_UNKNOWN, F_MAY_NOT_RETURN,
       F_PURE_UNSAFE };

typedef struct vfxwalk {
  vblock *b;
  const vfxset *s;
  vfxindex *ix;
  int32_t y, best; /* best: the latest op found not ordered before y */
} vfxwalk;

/* Raises w->best to the latest op of the class not ordered before y. */
static void walk(vfxwalk *w, uint64_t a, uint64_t r, uint64_t c) {
  int32_t cls = vfx_class(w->ix, a, r, c, 0);
  int32_t v = w->s->ops[w->y].pos;
  for (int32_t e = vfx_first(w->ix, cls); e >= 0; e = w->ix->e[e].next) {
    int32_t x = w->ix->e[e].last;
    if (x > w->best && !vbefore(w->b, w->s->ops[x].pos, v))
      w->best = x;
  }
}

/* The latest op before y (in s->ops) that conflicts with y and that stream
 * order and waits leave unordered with it; -1 when none. */
static int32_t latest_conflict(vfxwalk *w) {
  const vfxop *y = &w->s->ops[w->y];
  for (int64_t i = y->first; i < y->first + y->count; i++) {
    const opsched_vfx *e = &w->s->pool[i];
    if (e->kind == OPSCHED_VFX_ALLOC)
      continue;
    /* A read conflicts with writes and frees only; anything else with all. */
    for (uint64_t rw = e->kind == OPSCHED_VFX_READ; rw <= 1; rw++) {
      if (!e->root || e->origin == OPSCHED_VFX_ANY) {
        walk(w, K_ALL | rw, e->resource, 0);
        continue;
      }
      walk(w, K_NULL | rw, e->resource, 0);
      walk(w, K_ROOT | rw, e->resource, e->root);
      walk(w, K_ORIGIN | rw, e->resource, OPSCHED_VFX_ANY);
      if (e->origin == OPSCHED_VFX_ARGUMENT)
        walk(w, K_ORIGIN | rw, e->resource, OPSCHED_VFX_ARGUMENT);
    }
  }
  const opsched_vfacts *f = &y->f;
  if (f->stack_alloc)
    walk(w, K_FLAG, F_SCOPE_OR_UNKNOWN, 0);
  if (f->stack_scope || f->unknown)
    walk(w, K_FLAG, F_STACK_ALLOC, 0);
  if (f->unknown)
    walk(w, K_FLAG, F_ACCESS_OR_UNKNOWN, 0);
  if (y->accesses)
    walk(w, K_FLAG, F_UNKNOWN, 0);
  if (y->pure_unsafe)
    walk(w, K_FLAG, F_MAY_NOT_RETURN, 0);
  if (f->may_not_return)
    walk(w, K_FLAG, F_PURE_UNSAFE, 0);
  return w->best;
}

static void note(vfxindex *ix, uint64_t a, uint64_t r, uint64_t c, int32_t stream, int32_t x) {
  int32_t cls = vfx_class(ix, a, r, c, 1);
  if (cls >= 0)
    vfx_note(ix, cls, stream, x);
}

/* Files op x of s->ops under every class it belongs to. */
static void file_op(vfxindex *ix, const vfxset *s, int32_t x, int32_t stream) {
  const vfxop *o = &s->ops[x];
  for (int64_t i = o->first; i < o->first + o->count; i++) {
    const opsched_vfx *e = &s->pool[i];
    if (e->kind == OPSCHED_VFX_ALLOC)
      continue;
    uint64_t rw = e->kind != OPSCHED_VFX_READ;
    note(ix, K_ALL | rw, e->resource, 0, stream, x);
    if (!e->root)
      note(ix, K_NULL | rw, e->resource, 0, stream, x);
    else {
      note(ix, K_ROOT | rw, e->resource, e->root, stream, x);
      if (e->origin != OPSCHED_VFX_ALLOCATION)
        note(ix, K_ORIGIN | rw, e->resource, (uint64_t)e->origin, stream, x);
    }
  }
  const opsched_vfacts *f = &o->f;
  const int flags[] = {[F_SCOPE_OR_UNKNOWN] = f->stack_scope || f->unknown,
                       [F_STACK_ALLOC] = f->stack_alloc,
                       [F_ACCESS_OR_UNKNOWN] = o->accesses || f->unknown,
                       [F_UNKNOWN] = f->unknown,
                       [F_MAY_NOT_RETURN] = f->may_not_return,
                       [F_PURE_UNSAFE] = o->pure_unsafe};
  for (uint64_t k = 0; k < sizeof flags / sizeof *flags; k++)
    if (flags[k])
      note(ix, K_FLAG, k, 0, stream, x);
}

void vcheck_effects(vblock *b) {
  if (!b->multi)
    return; /* one stream: IR order orders every pair */
  vfxset s = {b->c->fx_cache, vcalloc((size_t)b->n, sizeof *s.ops), 0, NULL, 0, 0};
  s.cap = 64;
  s.pool = malloc((size_t)s.cap * sizeof *s.pool);
  int ok = s.cache && s.ops && s.pool;
  for (int32_t i = 0; ok && i < b->n; i++)
    if (!b->ops[i].exempt)
      ok = add_op(&s, &b->ops[i], i);
  /* One error per op, at the nearest unordered conflict before it (a broken
   * schedule is reported in O(n) diagnostics, not one per pair). Ops are
   * filed per class and stream as they pass, so each op asks only the
   * latest op of each class on each stream: O(ops x streams) instead of
   * O(ops^2). */
  vfxindex ix = {0};
  for (int32_t y = 0; ok && y < s.n; y++) {
    vfxwalk w = {b, &s, &ix, y, -1};
    int32_t x = latest_conflict(&w);
    vconflict k = x >= 0 ? conflict(&s, &s.ops[x], &s.ops[y]) : V_NONE;
    if (k != V_NONE) /* always, when x >= 0: the classes are the rules */
      report(b, k, s.ops[x].pos, s.ops[y].pos);
    file_op(&ix, &s, y, b->h.sidx[s.ops[y].pos]);
    ok = !ix.oom;
  }
  if (!ok)
    b->c->oom = 1;
  vfx_index_free(&ix);
  free(s.ops);
  free(s.pool);
}

/* The block's last op (its terminator, or an unregistered op that may be
 * one) stays last: when it carries a schedule, every other op happens
 * before it. Reported once, at the first op that does not. */
void vcheck_terminator(vblock *b) {
  int32_t t = b->n - 1;
  if (t < 1 || !b->ops[t].is_term || b->ops[t].exempt || !b->multi)
    return;
  char lb[160];
  for (int32_t u = 0; u < t; u++)
    if (!b->ops[u].exempt && !vbefore(b, u, t)) {
      vdiag_note(b->c, b->ops[t].op, b->ops[u].op, "the other op is here",
                 "the block's last op must run after every other op, but %s (stream %lld) is "
                 "not ordered before it by stream order or waits",
                 vlabel(&b->ops[u], u, lb, sizeof lb), (long long)b->ops[u].stream);
      return;
    }
}
