#include "op_facts.h"
#include "../core/alloc.h" /* large tables in huge pages */
#include "op_name.h"

#include "deps.h"
#include "op_work.h"

#include <stdlib.h>
#include <string.h>

/* ---- A growable map from a pair of words to (stamp, position) ----------- */

typedef struct pair_entry {
  uintptr_t a, b;
  int64_t stamp; /* 0: empty slot */
  int64_t pos;
} pair_entry;

typedef struct pair_map {
  pair_entry *slots;
  size_t mask, used;
} pair_map;

static size_t pair_hash(uintptr_t a, uintptr_t b) {
  uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ull ^ (uint64_t)b;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return (size_t)h;
}

static pair_entry *pair_slot(pair_entry *slots, size_t mask, uintptr_t a, uintptr_t b) {
  size_t i = pair_hash(a, b) & mask;
  while (slots[i].stamp && (slots[i].a != a || slots[i].b != b))
    i = (i + 1) & mask;
  return &slots[i];
}

static int pair_grow(pair_map *m) {
  size_t cap = m->slots ? 2 * (m->mask + 1) : 64;
  pair_entry *slots = opsched_alloc_array(cap, sizeof *slots);
  if (!slots)
    return 1;
  for (size_t i = 0; m->slots && i <= m->mask; i++)
    if (m->slots[i].stamp)
      *pair_slot(slots, cap - 1, m->slots[i].a, m->slots[i].b) = m->slots[i];
  opsched_free(m->slots);
  m->slots = slots;
  m->mask = cap - 1;
  return 0;
}

/* The entry of (a, b), added (stamp 0 until the caller sets it) when absent;
 * NULL when out of memory. */
static pair_entry *pair_find(pair_map *m, uintptr_t a, uintptr_t b) {
  if ((!m->slots || 2 * (m->used + 1) > m->mask + 1) && pair_grow(m))
    return NULL;
  pair_entry *e = pair_slot(m->slots, m->mask, a, b);
  if (!e->stamp) {
    e->a = a;
    e->b = b;
    e->stamp = -1; /* present, never stamped by a summary */
    m->used++;
  }
  return e;
}

/* ---- Summaries ----------------------------------------------------------- */

typedef struct summary {
  const void *op;             /* the region op summarized */
  int64_t fx_first, fx_count; /* in fx; count -1: unknown effects */
  int64_t cap_first, cap_count; /* in vals */
  uint8_t spec;          /* mlir::isSpeculatable */
  uint8_t sub_trap;      /* an op in the subtree (the op: by its own
                            operands only) may trap */
  uint8_t not_ending;    /* a region op in the subtree (the op included)
                            may not end */
  uint8_t observable;    /* an effect writes a whole or non-default resource */
  uint8_t bufferization; /* a to_tensor / to_buffer in the subtree */
} summary;

/* What an op's name alone says, memoized per name (an op name is one
 * identifier: one pointer per name). */
enum { NAME_KNOWN = 1, NAME_BUFFERIZATION = 2, NAME_MAY_TRAP = 4, NAME_DPS = 8 };
enum { NAME_MEMO = 64 }; /* direct-mapped: a function has few op names */

typedef struct name_memo {
  const void *name;
  uint8_t cls;
  uint8_t traits; /* opsched_mlir_op_name_traits */
} name_memo;

typedef struct flag_memo {
  void *key;
  int value;
} flag_memo;

struct opsched_op_facts {
  pair_map ops;      /* (op, 0) -> summary index */
  pair_map captured; /* (value, 0) -> stamp of the last summary holding it */
  pair_map effects;  /* (resource, value) -> stamp, position in fx */
  summary *sums;
  int64_t nsums, capsums;
  opsched_value_effect *fx; /* every summary's effects */
  int64_t nfx, capfx;
  MlirValue *vals; /* every summary's captured values */
  int64_t nvals, capvals;
  MlirOperation *kids; /* stack of the nested ops being summarized */
  int64_t nkids, capkids;
  opsched_value_effect *raw; /* one summary's effects before merging */
  int64_t nraw, capraw;
  flag_memo flags[4];
  int nflags;
  int64_t next; /* the summary after the last one asked: a block's region
                   ops are asked in program order, pass after pass, and
                   their summaries were made in that order */
  name_memo names[NAME_MEMO];
  const void *last_op; /* the op name_entry was last asked of (each op is */
  name_memo last;      /* asked several questions in a row), its entry */
  opsched_work_memo *work; /* made on first use */
  int building; /* summaries being built (summarize's depth) */
  int nested;   /* a summary was made while another was built: some
                   summaries are of ops below a planned block's own ops */
};

/* Makes room for `need` items of `size` bytes in *buf (capacity *cap). */
static int reserve(void **buf, int64_t *cap, int64_t need, size_t size) {
  if (need <= *cap)
    return 0;
  int64_t c = *cap ? 2 * *cap : 64;
  while (c < need)
    c *= 2;
  void *p = realloc(*buf, size * (size_t)c);
  if (!p)
    return 1;
  *buf = p;
  *cap = c;
  return 0;
}

opsched_op_facts *opsched_op_facts_new(void) { return calloc(1, sizeof(opsched_op_facts)); }

/* Frees the summaries and their maps, leaving them empty. */
static void drop_summaries(opsched_op_facts *f) {
  opsched_free(f->ops.slots);
  opsched_free(f->captured.slots);
  opsched_free(f->effects.slots);
  free(f->sums);
  free(f->fx);
  free(f->vals);
  free(f->kids);
  free(f->raw);
  memset(&f->ops, 0, sizeof f->ops);
  memset(&f->captured, 0, sizeof f->captured);
  memset(&f->effects, 0, sizeof f->effects);
  f->sums = NULL, f->nsums = f->capsums = 0;
  f->fx = NULL, f->nfx = f->capfx = 0;
  f->vals = NULL, f->nvals = f->capvals = 0;
  f->kids = NULL, f->nkids = f->capkids = 0;
  f->raw = NULL, f->nraw = f->capraw = 0;
  f->next = 0;
}

void opsched_op_facts_free(opsched_op_facts *f) {
  if (!f)
    return;
  drop_summaries(f);
  opsched_work_memo_free(f->work);
  free(f);
}

void opsched_op_facts_release_flat(opsched_op_facts *f) {
  if (f && !f->nested && !f->building)
    drop_summaries(f);
}

/* The memo entry of `op`'s name. */
static const name_memo *name_entry(opsched_op_facts *f, MlirOperation op) {
  if (f->last_op == op.ptr)
    return &f->last;
  MlirIdentifier id = mlirOperationGetName(op);
  name_memo *m = &f->names[((uintptr_t)id.ptr >> 4) % NAME_MEMO];
  if (m->name == id.ptr && m->cls) {
    f->last_op = op.ptr;
    f->last = *m;
    return m;
  }
  MlirStringRef s = mlirIdentifierStr(id);
  int cls = NAME_KNOWN;
  if (opsched_mlir_ref_is(s, "bufferization.to_tensor") ||
      opsched_mlir_ref_is(s, "bufferization.to_buffer"))
    cls |= NAME_BUFFERIZATION;
  if (opsched_deps_name_may_trap(s))
    cls |= NAME_MAY_TRAP;
  int traits = opsched_mlir_op_name_traits(op);
  if (traits & OPSCHED_OP_DESTINATION_STYLE)
    cls |= NAME_DPS;
  m->name = id.ptr;
  m->cls = (uint8_t)cls;
  m->traits = (uint8_t)traits;
  f->last_op = op.ptr;
  f->last = *m;
  return m;
}

/* The NAME_* classes of `op`'s name. */
static int name_class(opsched_op_facts *f, MlirOperation op) { return name_entry(f, op)->cls; }

/* As opsched_mlir_op_traits(op), the name's part memoized. */
static int op_traits(opsched_op_facts *f, MlirOperation op) {
  int t = name_entry(f, op)->traits;
  if (t & OPSCHED_OP_ALWAYS_SPECULATABLE)
    t |= OPSCHED_OP_SPECULATABLE;
  else if (t & OPSCHED_OP_CONDITIONALLY_SPECULATABLE)
    t |= opsched_mlir_op_speculatability(op);
  return t & ~(OPSCHED_OP_CONDITIONALLY_SPECULATABLE | OPSCHED_OP_ALWAYS_SPECULATABLE);
}

/* As opsched_mlir_op_is_speculatable(op), which a name that is always
 * speculatable answers without asking. */
static int is_speculatable(opsched_op_facts *f, MlirOperation op) {
  return (name_entry(f, op)->traits & OPSCHED_OP_ALWAYS_SPECULATABLE) ||
         opsched_mlir_op_is_speculatable(op);
}

static int is_bufferization(opsched_op_facts *f, MlirOperation op) {
  return (name_class(f, op) & NAME_BUFFERIZATION) != 0;
}

/* opsched_mlir_op_value_effects(op) of an op without regions, whose
 * getEffectsRecursively is its own effects (unknown without the interface,
 * unless its name has recursive effects: then none), merged here per
 * (resource, value) in first-seen order, write winning. */
static int64_t leaf_value_effects(opsched_op_facts *f, MlirOperation op, opsched_value_effect *out,
                                  int64_t cap) {
  int64_t k = opsched_mlir_op_own_effects(op, out, cap);
  if (k < 0)
    return (name_entry(f, op)->traits & OPSCHED_OP_RECURSIVE_EFFECTS) ? 0 : -1;
  if (k > cap)
    return k; /* the caller asks again with room for k */
  int64_t m = 0;
  for (int64_t i = 0; i < k; i++) {
    int64_t j = 0;
    while (j < m && (out[j].resource != out[i].resource || out[j].value.ptr != out[i].value.ptr))
      j++;
    if (j < m)
      out[j].write |= out[i].write;
    else
      out[m++] = out[i];
  }
  return m;
}

/* opsched_deps_op_may_trap_itself(op), asked only of names that may. */
static int may_trap_itself(opsched_op_facts *f, MlirOperation op) {
  return (name_class(f, op) & NAME_MAY_TRAP) && opsched_deps_op_may_trap_itself(op);
}

/* Whether `v` is defined by `op` or in one of `op`'s blocks: a value used
 * inside `op` (it is visible there) is defined inside `op` exactly then or
 * deeper, and deeper values were left out at the nested op's level. */
static int defined_in(MlirValue v, MlirOperation op) {
  MlirBlock b;
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (mlirOperationEqual(def, op))
      return 1;
    b = mlirOperationGetBlock(def);
  } else {
    b = mlirBlockArgumentGetOwner(v);
  }
  return !mlirBlockIsNull(b) && mlirOperationEqual(mlirBlockGetParentOperation(b), op);
}

/* Adds `v` to the captured values of the summary stamped `stamp` (being
 * built at the end of vals) unless defined in `op` or already there. */
static int capture(opsched_op_facts *f, MlirOperation op, int64_t stamp, MlirValue v) {
  if (defined_in(v, op))
    return 0;
  pair_entry *e = pair_find(&f->captured, (uintptr_t)v.ptr, 0);
  if (!e)
    return 1;
  if (e->stamp == stamp)
    return 0;
  e->stamp = stamp;
  if (reserve((void **)&f->vals, &f->capvals, f->nvals + 1, sizeof *f->vals))
    return 1;
  f->vals[f->nvals++] = v;
  return 0;
}

static int64_t summarize(opsched_op_facts *f, MlirOperation op);

/* Pass 1: summarizes the region ops nested in `op` and pushes every nested
 * op on the kids stack, in program order. */
static int push_kids(opsched_op_facts *f, MlirOperation op) {
  for (MlirRegion r = mlirOperationGetFirstRegion(op); !mlirRegionIsNull(r);
       r = mlirRegionGetNextInOperation(r))
    for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (MlirOperation k = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(k);
           k = mlirOperationGetNextInBlock(k)) {
        if (mlirOperationGetNumRegions(k) > 0 && summarize(f, k) < 0)
          return 1;
        if (reserve((void **)&f->kids, &f->capkids, f->nkids + 1, sizeof *f->kids))
          return 1;
        f->kids[f->nkids++] = k;
      }
  return 0;
}

/* The summary index of region op `k` (already summarized). */
static const summary *sum_of(opsched_op_facts *f, MlirOperation k) {
  pair_entry *e = pair_find(&f->ops, (uintptr_t)k.ptr, 0);
  return e ? &f->sums[e->pos] : NULL;
}

/* Pass 2, over the kids in program order: flags and captured values. */
static int merge_kids(opsched_op_facts *f, MlirOperation op, int64_t base, summary *s,
                      int traits) {
  int64_t stamp = f->nsums + 1;
  int all_spec = 1;
  s->cap_first = f->nvals;
  for (int64_t i = base; i < f->nkids; i++) {
    MlirOperation k = f->kids[i];
    for (intptr_t j = 0, n = mlirOperationGetNumOperands(k); j < n; j++)
      if (capture(f, op, stamp, mlirOperationGetOperand(k, j)))
        return 1;
    if (mlirOperationGetNumRegions(k) > 0) {
      const summary *c = sum_of(f, k);
      if (!c)
        return 1;
      summary cs = *c; /* vals may move while capturing */
      for (int64_t j = 0; j < cs.cap_count; j++)
        if (capture(f, op, stamp, f->vals[cs.cap_first + j]))
          return 1;
      all_spec &= cs.spec;
      s->sub_trap |= !cs.spec || cs.sub_trap;
      s->not_ending |= cs.not_ending;
      s->bufferization |= cs.bufferization;
    } else {
      int kt = op_traits(f, k);
      all_spec &= (kt & (OPSCHED_OP_SPECULATABLE | OPSCHED_OP_RECURSIVELY_SPECULATABLE)) != 0;
      s->sub_trap |= may_trap_itself(f, k) || !is_speculatable(f, k);
      s->bufferization |= is_bufferization(f, k);
    }
  }
  s->cap_count = f->nvals - s->cap_first;
  s->spec = (traits & OPSCHED_OP_SPECULATABLE) ||
            ((traits & OPSCHED_OP_RECURSIVELY_SPECULATABLE) && all_spec);
  int ends = s->spec || (traits & (OPSCHED_OP_DESTINATION_STYLE |
                                   OPSCHED_OP_RECURSIVELY_SPECULATABLE));
  s->not_ending |= !ends;
  s->sub_trap |= may_trap_itself(f, op);
  s->bufferization |= is_bufferization(f, op);
  return 0;
}

/* Appends `k`'s effects (all of them, nested included) to raw; sets
 * *unknown when they are unknown. */
static int raw_effects(opsched_op_facts *f, MlirOperation k, int *unknown) {
  if (mlirOperationGetNumRegions(k) > 0) {
    const summary *c = sum_of(f, k);
    if (!c)
      return 1;
    if (c->fx_count < 0) {
      *unknown = 1;
      return 0;
    }
    summary cs = *c;
    if (cs.fx_count == 0)
      return 0;
    if (reserve((void **)&f->raw, &f->capraw, f->nraw + cs.fx_count, sizeof *f->raw))
      return 1;
    memcpy(f->raw + f->nraw, f->fx + cs.fx_first, sizeof *f->raw * (size_t)cs.fx_count);
    f->nraw += cs.fx_count;
    return 0;
  }
  int64_t n = leaf_value_effects(f, k, f->raw + f->nraw, f->capraw - f->nraw);
  if (n > f->capraw - f->nraw) {
    if (reserve((void **)&f->raw, &f->capraw, f->nraw + n, sizeof *f->raw))
      return 1;
    n = leaf_value_effects(f, k, f->raw + f->nraw, f->capraw - f->nraw);
  }
  if (n < 0)
    *unknown = 1;
  else
    f->nraw += n;
  return 0;
}

/* Pass 3: the effects as getEffectsRecursively lists them (the op's own,
 * then, with HasRecursiveMemoryEffects, each nested op's from the last to
 * the first, depth first), merged per (resource, value) in first-seen
 * order, write winning. */
static int merge_effects(opsched_op_facts *f, MlirOperation op, int64_t base, summary *s,
                         int traits) {
  int unknown = 0;
  f->nraw = 0;
  if (reserve((void **)&f->raw, &f->capraw, 64, sizeof *f->raw))
    return 1;
  int64_t own = opsched_mlir_op_own_effects(op, f->raw, f->capraw);
  if (own > f->capraw) {
    if (reserve((void **)&f->raw, &f->capraw, own, sizeof *f->raw))
      return 1;
    own = opsched_mlir_op_own_effects(op, f->raw, f->capraw);
  }
  int recursive = (traits & OPSCHED_OP_RECURSIVE_EFFECTS) != 0;
  if (own < 0 && !recursive)
    unknown = 1;
  f->nraw = own < 0 ? 0 : own;
  for (int64_t i = f->nkids - 1; recursive && !unknown && i >= base; i--)
    if (raw_effects(f, f->kids[i], &unknown))
      return 1;
  s->fx_first = f->nfx;
  s->fx_count = -1;
  if (unknown)
    return 0;
  int64_t stamp = f->nsums + 1;
  for (int64_t i = 0; i < f->nraw; i++) {
    opsched_value_effect r = f->raw[i];
    pair_entry *e = pair_find(&f->effects, r.resource, (uintptr_t)r.value.ptr);
    if (!e)
      return 1;
    if (e->stamp == stamp) {
      f->fx[e->pos].write |= r.write;
      continue;
    }
    if (reserve((void **)&f->fx, &f->capfx, f->nfx + 1, sizeof *f->fx))
      return 1;
    e->stamp = stamp;
    e->pos = f->nfx;
    f->fx[f->nfx++] = r;
  }
  s->fx_count = f->nfx - s->fx_first;
  for (int64_t i = s->fx_first; i < f->nfx; i++)
    s->observable |= f->fx[i].write && (mlirValueIsNull(f->fx[i].value) ||
                                        f->fx[i].resource != OPSCHED_RESOURCE_DEFAULT);
  return 0;
}

/* The summary index of region op `op`, built (with those of the region ops
 * nested in it) when absent; -1 when out of memory. */
static int64_t summarize(opsched_op_facts *f, MlirOperation op) {
  /* The summary after the last one asked (or that one again), before the
   * map (a lookup in a map of every region op misses the cache at a
   * million ops, and a block's passes read the summaries in order). */
  if (f->next < f->nsums && f->sums[f->next].op == op.ptr)
    return f->next++;
  if (f->next > 0 && f->sums[f->next - 1].op == op.ptr) /* asked again */
    return f->next - 1;
  pair_entry *e = pair_find(&f->ops, (uintptr_t)op.ptr, 0);
  if (!e)
    return -1;
  if (e->stamp > 0) {
    f->next = e->pos + 1;
    return e->pos;
  }
  int64_t base = f->nkids;
  summary s;
  memset(&s, 0, sizeof s);
  int traits = op_traits(f, op);
  f->nested |= f->building > 0;
  f->building++;
  int err = push_kids(f, op) ||
            reserve((void **)&f->sums, &f->capsums, f->nsums + 1, sizeof *f->sums) ||
            merge_kids(f, op, base, &s, traits) || merge_effects(f, op, base, &s, traits);
  f->building--;
  f->nkids = base;
  if (err)
    return -1;
  e = pair_find(&f->ops, (uintptr_t)op.ptr, 0); /* the map may have grown */
  if (!e)
    return -1;
  e->stamp = 1;
  e->pos = f->nsums;
  s.op = op.ptr;
  f->sums[f->nsums++] = s;
  f->next = f->nsums;
  return e->pos;
}

static const summary *get(opsched_op_facts *f, MlirOperation op) {
  int64_t i = summarize(f, op);
  return i < 0 ? NULL : &f->sums[i];
}

/* ---- Queries ------------------------------------------------------------- */

int64_t opsched_op_facts_value_effects(opsched_op_facts *f, MlirOperation op,
                                       opsched_value_effect *out, int64_t cap) {
  if (mlirOperationGetNumRegions(op) == 0)
    return leaf_value_effects(f, op, out, cap);
  const summary *s = get(f, op);
  if (!s)
    return -2;
  if (s->fx_count > 0 && cap > 0)
    memcpy(out, f->fx + s->fx_first,
           sizeof *out * (size_t)(s->fx_count < cap ? s->fx_count : cap));
  return s->fx_count;
}

int opsched_op_facts_may_trap(opsched_op_facts *f, MlirOperation op) {
  if (mlirOperationGetNumRegions(op) == 0) /* as opsched_deps_may_trap */
    return !is_speculatable(f, op) || may_trap_itself(f, op);
  const summary *s = get(f, op);
  return !s || !s->spec || s->sub_trap;
}

int opsched_op_facts_may_not_return(opsched_op_facts *f, MlirOperation op) {
  if (mlirOperationGetNumRegions(op) == 0)
    return opsched_mlir_op_may_not_return(op);
  const summary *s = get(f, op);
  return !s || s->fx_count < 0 || s->observable || s->not_ending;
}

const MlirValue *opsched_op_facts_captured(opsched_op_facts *f, MlirOperation op,
                                           int64_t *count, int *bufferization) {
  if (mlirOperationGetNumRegions(op) == 0) {
    *count = 0;
    *bufferization = is_bufferization(f, op);
    return f->vals;
  }
  const summary *s = get(f, op);
  if (!s) {
    *count = -1;
    return NULL;
  }
  *count = s->cap_count;
  *bufferization = s->bufferization;
  return f->vals + s->cap_first;
}

int opsched_op_facts_function_flag(opsched_op_facts *f, MlirOperation key, int *value) {
  for (int i = 0; i < f->nflags; i++)
    if (f->flags[i].key == key.ptr) {
      *value = f->flags[i].value;
      return 1;
    }
  return 0;
}

void opsched_op_facts_set_function_flag(opsched_op_facts *f, MlirOperation key, int value) {
  if (f->nflags < (int)(sizeof f->flags / sizeof f->flags[0]))
    f->flags[f->nflags++] = (flag_memo){key.ptr, value};
}

opsched_work_memo *opsched_op_facts_work_memo(opsched_op_facts *f, size_t ops) {
  if (f && !opsched_work_memo_fits(f->work, ops)) {
    opsched_work_memo_free(f->work);
    f->work = opsched_work_memo_new(ops);
  }
  return f ? f->work : NULL;
}

int64_t opsched_op_facts_dps_inits(opsched_op_facts *f, MlirOperation op, int64_t *first) {
  if (f && !(name_class(f, op) & NAME_DPS)) {
    *first = 0;
    return -1;
  }
  return opsched_mlir_op_dps_inits(op, first);
}
