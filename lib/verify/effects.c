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
  int64_t k = opschedVerifyOpFacts(o->op, s->pool + s->npool, s->cap - s->npool, &x->f);
  if (s->npool + k > s->cap) {
    int64_t cap = 2 * (s->npool + k);
    opsched_vfx *p = realloc(s->pool, (size_t)cap * sizeof *p);
    if (!p)
      return 0;
    s->pool = p;
    s->cap = cap;
    k = opschedVerifyOpFacts(o->op, s->pool + s->npool, s->cap - s->npool, &x->f);
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

void vcheck_effects(vblock *b) {
  if (!b->multi)
    return; /* one stream: IR order orders every pair */
  vfxset s = {vcalloc((size_t)b->n, sizeof *s.ops), 0, NULL, 0, 0};
  s.cap = 64;
  s.pool = malloc((size_t)s.cap * sizeof *s.pool);
  int ok = s.ops && s.pool;
  for (int32_t i = 0; ok && i < b->n; i++)
    if (!b->ops[i].exempt)
      ok = add_op(&s, &b->ops[i], i);
  if (!ok)
    b->c->oom = 1;
  /* One error per op (the nearest unordered conflict before it): a broken
   * schedule is reported in O(n) diagnostics, not one per pair. */
  for (int32_t y = 0; ok && y < s.n; y++)
    for (int32_t x = y - 1; x >= 0; x--) {
      int32_t u = s.ops[x].pos, v = s.ops[y].pos;
      if (vbefore(b, u, v))
        continue;
      vconflict k = conflict(&s, &s.ops[x], &s.ops[y]);
      if (k != V_NONE) {
        report(b, k, u, v);
        break;
      }
    }
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
