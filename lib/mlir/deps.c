#include "deps.h"
#include "op_name.h"

#include "alias.h"
#include "effect_order.h"
#include "prefetch.h"
#include "queries.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- Speculation: what may trap when run earlier ------------------------ */

static const char *const signed_div[] = {
    "arith.divsi", "arith.remsi",  "arith.ceildivsi", "arith.floordivsi",
    "index.divs",  "index.rems",   "index.ceildivs",  "index.floordivs",
    "llvm.sdiv",   "llvm.srem",    NULL};
static const char *const unsigned_div[] = {
    "arith.divui", "arith.remui", "arith.ceildivui", "index.divu",
    "index.remu",  "index.ceildivu", "llvm.udiv",    "llvm.urem", NULL};
static const char *const constant_ops[] = {"arith.constant", "index.constant",
                                           "llvm.mlir.constant", NULL};

/* The integer a constant op defines (a splat counts), or 0 when `v` is not
 * such a constant of at most 64 bits. */
static int constant_int(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v))
    return 0;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!opsched_mlir_op_is_any(def, constant_ops))
    return 0;
  MlirAttribute a = mlirOperationGetAttributeByName(def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a))
    return 0;
  if (mlirAttributeIsADenseElements(a) && mlirDenseElementsAttrIsSplat(a))
    a = mlirDenseElementsAttrGetSplatValue(a);
  if (!mlirAttributeIsAInteger(a))
    return 0;
  MlirType t = mlirAttributeGetType(a);
  if (!mlirTypeIsAIndex(t) && !(mlirTypeIsAInteger(t) && mlirIntegerTypeIsSignless(t) &&
                                mlirIntegerTypeGetWidth(t) <= 64))
    return 0;
  *out = mlirIntegerAttrGetValueInt(a);
  return 1;
}

/* Division traps on a zero divisor, and signed division on -1 (INT_MIN/-1),
 * whatever MLIR's speculatability says of the op. */
static int division_may_trap(MlirOperation op) {
  int is_signed = opsched_mlir_op_is_any(op, signed_div);
  if (!is_signed && !opsched_mlir_op_is_any(op, unsigned_div))
    return 0;
  int64_t d;
  if (mlirOperationGetNumOperands(op) < 2 ||
      !constant_int(mlirOperationGetOperand(op, 1), &d))
    return 1;
  return d == 0 || (is_signed && d == -1);
}

/* tensor.extract/insert read or write an element: after bufferization a load
 * or store that an earlier check (cf.assert, a call) may guard. Safe only at
 * constant indices inside a static shape. Slices with dynamic offsets or
 * sizes, gathers and scatters likewise touch memory that may be out of
 * bounds. */
static int element_access_may_trap(MlirOperation op) {
  intptr_t tensor_pos;
  if (opsched_mlir_op_is(op, "tensor.extract"))
    tensor_pos = 0;
  else if (opsched_mlir_op_is(op, "tensor.insert"))
    tensor_pos = 1;
  else if (opsched_mlir_op_is(op, "tensor.extract_slice"))
    return mlirOperationGetNumOperands(op) > 1;
  else if (opsched_mlir_op_is(op, "tensor.insert_slice"))
    return mlirOperationGetNumOperands(op) > 2;
  else if (opsched_mlir_op_is(op, "tensor.gather") || opsched_mlir_op_is(op, "tensor.scatter"))
    return 1; /* indices come from a tensor: never known in bounds */
  else
    return 0;
  intptr_t n = mlirOperationGetNumOperands(op);
  if (n <= tensor_pos)
    return 1;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, tensor_pos));
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) ||
      mlirShapedTypeGetRank(t) != n - tensor_pos - 1)
    return 1;
  for (intptr_t i = tensor_pos + 1; i < n; i++) {
    int64_t k;
    if (!constant_int(mlirOperationGetOperand(op, i), &k) || k < 0 ||
        k >= mlirShapedTypeGetDimSize(t, i - tensor_pos - 1))
      return 1;
  }
  return 0;
}

typedef struct trap_walk {
  MlirOperation root;
  int trap;
} trap_walk;

/* Nested ops count for their parent even when the parent claims to be
 * speculatable without looking inside (not RecursivelySpeculatable). */
static MlirWalkResult find_trap(MlirOperation op, void *data) {
  trap_walk *w = data;
  if (division_may_trap(op) || element_access_may_trap(op) ||
      (!mlirOperationEqual(op, w->root) && !opsched_mlir_op_is_speculatable(op))) {
    w->trap = 1;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static const char *const element_access[] = {"tensor.extract", "tensor.insert",
                                             "tensor.extract_slice", "tensor.insert_slice",
                                             "tensor.gather", "tensor.scatter", NULL};

int opsched_deps_name_may_trap(MlirStringRef name) {
  const char *const *lists[] = {signed_div, unsigned_div, element_access};
  for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
    for (const char *const *n = lists[l]; *n; n++)
      if (opsched_mlir_ref_is(name, *n))
        return 1;
  return 0;
}

int opsched_deps_op_may_trap_itself(MlirOperation op) {
  return division_may_trap(op) || element_access_may_trap(op);
}

int opsched_deps_may_trap(MlirOperation op) {
  if (!opsched_mlir_op_is_speculatable(op))
    return 1;
  if (mlirOperationGetNumRegions(op) == 0) /* the walk would visit op alone */
    return division_may_trap(op) || element_access_may_trap(op);
  trap_walk w = {op, 0};
  mlirOperationWalk(op, find_trap, &w, MlirWalkPreOrder);
  return w.trap;
}

/* ---- SSA edges ----------------------------------------------------------- */

/* How far below an op its inline results lie (out-of-line ones, past the
 * sixth, further: the map hashes those). */
enum { RESULTS_BEFORE = 1024 };

int opsched_block_results_init(opsched_ptrmap *results, const MlirOperation *ops, int32_t n,
                               const int32_t *counts, const opsched_ptrmap *index) {
  int64_t total = 0;
  for (int32_t i = 0; i < n; i++)
    total += counts ? counts[i] : mlirOperationGetNumResults(ops[i]);
  if (opsched_ptrmap_init_around(results, (size_t)total + 1, index, RESULTS_BEFORE))
    return 1;
  int lost = 0;
  for (int32_t i = 0; i < n && !lost; i++) {
    /* mlirOperationGetResult is pointer arithmetic on the op. */
    intptr_t nr = counts ? counts[i] : mlirOperationGetNumResults(ops[i]);
    for (intptr_t r = 0; r < nr; r++)
      lost |= opsched_ptrmap_put(results, mlirOperationGetResult(ops[i], r).ptr, i);
  }
  if (lost)
    opsched_ptrmap_free(results);
  return lost;
}

typedef struct ssa_ctx {
  const opsched_ptrmap *results;
  opsched_graph *graph;
  int32_t user;
  int failed;
  int bufferization; /* a to_tensor/to_buffer is nested in the user */
  int outside_tensor; /* the user reads a tensor defined outside the block */
  MlirOperation top;  /* the user */
} ssa_ctx;

/* A tensor from outside the block: an argument of the block or a value of
 * an enclosing block (no result of an op of the block), for `v` an operand
 * of an op of the block or a value captured by it (opsched_op_facts_captured,
 * so never a result of an op nested in it). */
static int used_outside_tensor(const opsched_ptrmap *results, MlirValue v) {
  return mlirTypeIsATensor(mlirValueGetType(v)) && opsched_ptrmap_get(results, v.ptr) < 0;
}

/* As used_outside_tensor with one lookup of the value, which a result of
 * the block (the common case) answers without asking for the type. */
static void add_operand_edge(ssa_ctx *c, MlirValue v) {
  int32_t def = opsched_ptrmap_get(c->results, v.ptr);
  if (def < 0) {
    c->outside_tensor |= mlirTypeIsATensor(mlirValueGetType(v));
    return;
  }
  if (def != c->user && opsched_graph_add_edge(c->graph, def, c->user) != OPSCHED_OK)
    c->failed = 1;
}

/* Adds def -> user for every operand, at any depth inside the user, whose
 * defining op is in this block: nested regions capture outer values. */
static void add_operand_edges(ssa_ctx *c, opsched_op_facts *facts) {
  MlirOperation op = c->top;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; i++)
    add_operand_edge(c, mlirOperationGetOperand(op, i));
  int64_t count;
  const MlirValue *captured = opsched_op_facts_captured(facts, op, &count, &c->bufferization);
  if (count < 0)
    c->failed = 1;
  for (int64_t i = 0; i < count; i++)
    add_operand_edge(c, captured[i]);
}

/* ---- Aliases across bufferization --------------------------------------- */

/* Tensors that may share memory with a memref, as union-find classes over
 * every tensor value an op uses (at any depth) or defines: an op may return
 * (a view of) any tensor it uses, so all of them join one class. A class is
 * memory-backed when it holds a to_tensor result or a to_buffer operand. */
typedef struct alias_sets {
  opsched_ptrmap ids; /* value -> id */
  int32_t *parent;
  uint8_t *backed; /* per root */
  int32_t count, cap;
  int failed;
} alias_sets;

static int32_t find_root(alias_sets *s, int32_t x) {
  while (s->parent[x] != x) {
    s->parent[x] = s->parent[s->parent[x]];
    x = s->parent[x];
  }
  return x;
}

/* The id of tensor value `v`, added when absent; -1 when `v` is no tensor. */
static int32_t value_id(alias_sets *s, MlirValue v) {
  if (!mlirTypeIsATensor(mlirValueGetType(v)))
    return -1;
  int32_t id = opsched_ptrmap_get(&s->ids, v.ptr);
  if (id >= 0)
    return id;
  if (s->count == s->cap) {
    s->failed = 1; /* cannot happen: cap counts every operand and result */
    return -1;
  }
  if (opsched_ptrmap_put(&s->ids, v.ptr, s->count)) {
    s->failed = 1;
    return -1;
  }
  id = s->count++;
  s->parent[id] = id;
  s->backed[id] = 0;
  return id;
}

typedef struct alias_walk {
  alias_sets *sets;
  MlirOperation top;
  int32_t first; /* id the op's values join, -1 before the first */
  int touched;   /* query mode: a value of a backed class was seen */
  int query;
} alias_walk;

static void alias_visit(alias_walk *w, MlirValue v) {
  int32_t id = value_id(w->sets, v);
  if (id < 0)
    return;
  int32_t r = find_root(w->sets, id);
  if (w->query) {
    w->touched |= w->sets->backed[r];
    return;
  }
  if (w->first < 0) {
    w->first = r;
    return;
  }
  int32_t f = find_root(w->sets, w->first);
  if (f != r) {
    w->sets->parent[r] = f;
    w->sets->backed[f] |= w->sets->backed[r];
  }
}

/* Visits what op uses at any depth from outside itself: its operands and
 * the values its nested ops capture. Returns non-zero when out of memory. */
static int alias_operands(alias_walk *w, opsched_op_facts *facts) {
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(w->top); i < n; i++)
    alias_visit(w, mlirOperationGetOperand(w->top, i));
  int64_t count;
  int bufferization;
  const MlirValue *captured = opsched_op_facts_captured(facts, w->top, &count, &bufferization);
  for (int64_t i = 0; i < count; i++)
    alias_visit(w, captured[i]);
  return count < 0;
}

/* Joins (or, in query mode, looks up) the tensors op uses and defines. */
static int alias_op(alias_sets *s, MlirOperation op, int query, opsched_op_facts *facts) {
  alias_walk w = {s, op, -1, 0, query};
  s->failed |= alias_operands(&w, facts);
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; i++)
    alias_visit(&w, mlirOperationGetResult(op, i));
  return w.touched;
}

static void mark_backed(alias_sets *s, MlirValue v) {
  int32_t id = value_id(s, v);
  if (id >= 0)
    s->backed[find_root(s, id)] = 1;
}

/* Marks the tensors from outside the block that op uses, at any depth. */
static void seed_outside(alias_sets *s, const opsched_ptrmap *results, MlirOperation top,
                         opsched_op_facts *facts) {
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(top); i < n; i++) {
    MlirValue v = mlirOperationGetOperand(top, i);
    if (used_outside_tensor(results, v))
      mark_backed(s, v);
  }
  int64_t count;
  int bufferization;
  const MlirValue *captured = opsched_op_facts_captured(facts, top, &count, &bufferization);
  s->failed |= count < 0;
  for (int64_t i = 0; i < count; i++)
    if (used_outside_tensor(results, captured[i]))
      mark_backed(s, captured[i]);
}

/* Seeds: to_tensor results and to_buffer operands; an op with one nested
 * (whose values we do not follow) seeds everything it uses and defines. */
static void alias_seed(alias_sets *s, MlirOperation op, int nested, opsched_op_facts *facts) {
  if (opsched_mlir_op_is(op, "bufferization.to_tensor"))
    for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; i++)
      mark_backed(s, mlirOperationGetResult(op, i));
  else if (opsched_mlir_op_is(op, "bufferization.to_buffer"))
    for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; i++)
      mark_backed(s, mlirOperationGetOperand(op, i));
  else if (nested) {
    alias_walk w = {s, op, -1, 0, 0};
    s->failed |= alias_operands(&w, facts);
    for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; i++)
      alias_visit(&w, mlirOperationGetResult(op, i));
    if (w.first >= 0)
      s->backed[find_root(s, w.first)] = 1;
  }
}

/* A bound on the tensor values alias_op visits for op. */
static intptr_t count_operands(MlirOperation op, opsched_op_facts *facts) {
  int64_t count;
  int bufferization;
  opsched_op_facts_captured(facts, op, &count, &bufferization);
  return mlirOperationGetNumResults(op) + mlirOperationGetNumOperands(op) +
         (count > 0 ? (intptr_t)count : 0);
}

/* Writes in place: a tied init (destination-passing), the dest of an
 * insert, or a region op returning tensors (its body may insert in place). */
static int writes_in_place(alias_sets *s, MlirOperation op) {
  static const char *const inserts[] = {"tensor.insert", "tensor.insert_slice",
                                        "tensor.scatter", NULL};
  intptr_t nres = mlirOperationGetNumResults(op);
  for (intptr_t r = 0; r < nres; r++) {
    int64_t tied = opsched_mlir_op_tied_operand(op, r);
    int32_t id = tied < 0 ? -1 : value_id(s, mlirOperationGetOperand(op, (intptr_t)tied));
    if (id >= 0 && s->backed[find_root(s, id)])
      return 1;
  }
  if (opsched_mlir_op_is_any(op, inserts) || (mlirOperationGetNumRegions(op) > 0 && nres > 0))
    return 1;
  return 0;
}

/* Per op: 0 untouched, 1 reads, 2 writes memory-backed tensors. Returns
 * non-zero when out of memory. */
static int alias_access(MlirOperation *ops, int32_t n, const uint8_t *nested,
                        const opsched_ptrmap *index, const opsched_ptrmap *results,
                        int outside, uint8_t *access,
                        opsched_op_facts *facts) {
  alias_sets s = {0};
  intptr_t cap = 0;
  for (int32_t i = 0; i < n; i++)
    cap += count_operands(ops[i], facts);
  s.cap = (int32_t)cap;
  s.parent = malloc(sizeof *s.parent * (size_t)(cap + 1));
  s.backed = malloc((size_t)cap + 1);
  if (!s.parent || !s.backed ||
      opsched_ptrmap_init_around(&s.ids, (size_t)cap + 1, index, 1024)) {
    free(s.parent);
    free(s.backed);
    return 1;
  }
  for (int32_t i = 0; i < n; i++)
    alias_op(&s, ops[i], 0, facts);
  for (int32_t i = 0; i < n; i++) {
    alias_seed(&s, ops[i], nested[i], facts);
    if (outside)
      seed_outside(&s, results, ops[i], facts);
  }
  for (int32_t i = 0; i < n; i++) {
    access[i] = (uint8_t)alias_op(&s, ops[i], 1, facts);
    if (access[i] && writes_in_place(&s, ops[i]))
      access[i] = 2;
  }
  int failed = s.failed;
  opsched_ptrmap_free(&s.ids);
  free(s.parent);
  free(s.backed);
  return failed;
}

static MlirWalkResult find_memory_source(MlirOperation op, void *data) {
  if (opsched_mlir_op_is(op, "bufferization.to_tensor") ||
      opsched_mlir_op_is(op, "bufferization.to_buffer") ||
      opsched_mlir_op_is(op, "memref.get_global")) {
    *(int *)data = 1;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* Whether tensors reaching `block` from outside may share memory with a
 * memref: its function takes a memref (a caller may pass a tensor made from
 * it), or makes tensors from memrefs, or reads a global. */
static int outside_may_alias(MlirBlock block, opsched_op_facts *facts) {
  MlirOperation f = mlirBlockGetParentOperation(block);
  if (mlirOperationIsNull(f))
    return 1;
  for (MlirOperation p = mlirOperationGetParentOperation(f);
       !mlirOperationIsNull(p) && !opsched_mlir_op_is(p, "builtin.module");
       p = mlirOperationGetParentOperation(p))
    f = p;
  int found = 0;
  if (opsched_op_facts_function_flag(facts, f, &found))
    return found; /* asked for another block of the function */
  if (mlirOperationGetNumRegions(f) > 0) {
    MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    for (intptr_t i = 0, n = mlirBlockIsNull(entry) ? 0 : mlirBlockGetNumArguments(entry);
         i < n; i++)
      if (mlirTypeIsAMemRef(mlirValueGetType(mlirBlockGetArgument(entry, i))))
        return 1;
  }
  mlirOperationWalk(f, find_memory_source, &found, MlirWalkPreOrder);
  opsched_op_facts_set_function_flag(facts, f, found);
  return found;
}

/* ---- Effects ------------------------------------------------------------- */

/* Every op's memory effects with the values they touch, asked once per op
 * (opsched_op_facts_value_effects) for both block_touches_memory and the
 * effect pool. */
typedef struct op_effects {
  opsched_value_effect *raw;
  int64_t n, cap;
  int64_t *first; /* per op: op i's effects are raw[first[i], first[i] + count[i]) */
  int64_t *count; /* -1: unknown */
} op_effects;

static void op_effects_free(op_effects *e) {
  free(e->raw);
  free(e->first);
  free(e->count);
}

static int op_effects_grow(op_effects *e, int64_t need) {
  if (need <= e->cap)
    return 0;
  int64_t cap = e->cap ? 2 * e->cap : 64;
  while (cap < need)
    cap *= 2;
  opsched_value_effect *r = realloc(e->raw, sizeof *r * (size_t)cap);
  if (!r)
    return 1;
  e->raw = r;
  e->cap = cap;
  return 0;
}

/* Room for the effects of a block of n ops; non-zero when out of memory. */
static int op_effects_init(op_effects *e, int32_t n) {
  e->first = malloc(sizeof *e->first * ((size_t)n + 1));
  e->count = malloc(sizeof *e->count * ((size_t)n + 1));
  return !e->first || !e->count || op_effects_grow(e, 64);
}

/* Collects the effects of op i (ops are added in order); non-zero when out
 * of memory. */
static int op_effects_add(op_effects *e, MlirOperation op, int32_t i, opsched_op_facts *facts) {
  e->first[i] = e->n;
  int64_t k = opsched_op_facts_value_effects(facts, op, e->raw + e->n, e->cap - e->n);
  if (k >= 0 && e->n + k > e->cap) {
    if (op_effects_grow(e, e->n + k))
      return 1;
    k = opsched_op_facts_value_effects(facts, op, e->raw + e->n, e->cap - e->n);
  }
  if (k == -2)
    return 1;
  e->count[i] = k < 0 ? -1 : k;
  if (k > 0)
    e->n += k;
  return 0;
}

/* Every op's memory effects with the values they touch, then classified:
 * (resource, alias class or whole resource, write). */
typedef struct effect_pool {
  opsched_value_effect *raw;
  opsched_fx *fx;
  int64_t n, cap;
  int64_t *first; /* per op, n + 1 entries: op i's raw effects are
                     [first[i], first[i+1]), its classified ones the first
                     count[i] of fx at the same place */
  int64_t *count;
  uint8_t *unknown;
  uint8_t *observable; /* per op: an effect writes a whole or non-default
                          resource (what opsched_mlir_op_may_not_return
                          finds of an op without regions) */
} effect_pool;

static int pool_grow(effect_pool *p, int64_t need) {
  if (need <= p->cap)
    return 0;
  int64_t cap = p->cap ? 2 * p->cap : 64;
  while (cap < need)
    cap *= 2;
  opsched_value_effect *r = realloc(p->raw, sizeof *r * (size_t)cap);
  if (!r)
    return 1;
  p->raw = r;
  p->cap = cap;
  return 0;
}

/* Op i's effects, plus its access to memory-backed tensors (a read or
 * write of the whole default resource: which memref is not tracked). */
static int collect_op(effect_pool *p, const op_effects *oe, int32_t i, uint8_t alias) {
  p->first[i] = p->n;
  int64_t k = oe->count[i];
  if (k < 0) {
    p->unknown[i] = 1;
    return pool_grow(p, p->n + 1);
  }
  if (pool_grow(p, p->n + k + 1))
    return 1;
  memcpy(p->raw + p->n, oe->raw + oe->first[i], sizeof *p->raw * (size_t)k);
  for (int64_t e = p->n; e < p->n + k; e++)
    p->observable[i] |= p->raw[e].write && (mlirValueIsNull(p->raw[e].value) ||
                                            p->raw[e].resource != OPSCHED_RESOURCE_DEFAULT);
  p->n += k;
  if (alias)
    p->raw[p->n++] = (opsched_value_effect){OPSCHED_RESOURCE_DEFAULT, {NULL}, alias == 2};
  return pool_grow(p, p->n + 1);
}

/* Classifies op i's effects, one entry per (resource, class). */
static void classify_op(effect_pool *p, opsched_alias *a, int32_t i) {
  int64_t base = p->first[i], out = base;
  for (int64_t e = base; e < p->first[i + 1]; e++) {
    const opsched_value_effect *r = &p->raw[e];
    opsched_fx fx = {r->resource,
                     mlirValueIsNull(r->value) ? OPSCHED_EFFECT_WHOLE
                                               : opsched_alias_class(a, r->value),
                     r->write};
    int64_t j = base;
    while (j < out && (p->fx[j].resource != fx.resource || p->fx[j].cls != fx.cls))
      j++;
    if (j < out)
      p->fx[j].write |= fx.write;
    else
      p->fx[out++] = fx;
  }
  p->count[i] = p->unknown[i] ? -1 : out - base;
}

static void pool_free(effect_pool *p) {
  free(p->raw);
  free(p->fx);
  free(p->first);
  free(p->count);
  free(p->unknown);
  free(p->observable);
}

/* Collects and classifies the effects of the block's ops. */
static int pool_build(effect_pool *p, opsched_alias *a, const op_effects *oe, int32_t n,
                      const uint8_t *alias) {
  p->first = calloc((size_t)n + 1, sizeof *p->first);
  p->count = calloc((size_t)n + 1, sizeof *p->count);
  p->unknown = calloc((size_t)n + 1, 1);
  p->observable = calloc((size_t)n + 1, 1);
  int err = !p->first || !p->count || !p->unknown || !p->observable || pool_grow(p, 64);
  for (int32_t i = 0; i < n && !err; i++)
    err = collect_op(p, oe, i, alias[i]);
  if (err)
    return 1;
  p->first[n] = p->n;
  p->fx = malloc(sizeof *p->fx * (size_t)(p->n + 1));
  if (!p->fx || p->n >= INT32_MAX || opsched_alias_init(a, (int32_t)p->n))
    return 1;
  for (int32_t i = 0; i < n; i++)
    classify_op(p, a, i);
  return a->failed;
}

/* Whether an op of the block touches memory (the default resource) or has
 * unknown effects: only then can aliases of outside tensors order anything.
 * Asked per resource (opsched_mlir_op_effects' view, at most `cap`
 * resources per op: more count as touching). */
static int block_touches_memory(const op_effects *oe, int32_t n, int64_t cap) {
  for (int32_t i = 0; i < n; i++) {
    int64_t k = oe->count[i];
    if (k < 0)
      return 1;
    const opsched_value_effect *fx = oe->raw + oe->first[i];
    for (int64_t e = 0; e < k; e++)
      if (fx[e].resource == OPSCHED_RESOURCE_DEFAULT)
        return 1;
    if (k > cap) { /* distinct resources, as opsched_mlir_op_effects merges them */
      int64_t distinct = 0;
      for (int64_t e = 0; e < k; e++) {
        int64_t j = 0;
        while (j < e && fx[j].resource != fx[e].resource)
          j++;
        distinct += j == e;
      }
      if (distinct > cap)
        return 1;
    }
  }
  return 0;
}

/* ---- Speculation order -------------------------------------------------- */

typedef struct spec_state {
  int32_t last_barrier; /* last op that may not return, or -1 */
  int32_t *traps;       /* ops that may trap since last_barrier */
  int32_t ntraps;
} spec_state;

/* An op that may trap and an op that may not return (or is observable)
 * keep their program order; two ops that may only trap may swap. */
static int add_speculation_edges(spec_state *s, opsched_graph *g, int32_t v, int trap,
                                 int barrier) {
  int err = 0;
  if ((trap || barrier) && s->last_barrier >= 0)
    err |= opsched_graph_add_edge(g, s->last_barrier, v) != OPSCHED_OK;
  if (barrier) {
    for (int32_t i = 0; i < s->ntraps; i++)
      err |= opsched_graph_add_edge(g, s->traps[i], v) != OPSCHED_OK;
    s->ntraps = 0;
    s->last_barrier = v;
  } else if (trap) {
    s->traps[s->ntraps++] = v;
  }
  return err;
}

/* What the speculation order needs of an op, asked in the pass over the
 * block that reads its SSA edges and effects. */
enum { OP_MAY_TRAP = 1, OP_HAS_REGIONS = 2, OP_MAY_NOT_RETURN = 4 };

static uint8_t speculation_flags(MlirOperation op, opsched_op_facts *facts) {
  uint8_t f = opsched_op_facts_may_trap(facts, op) ? OP_MAY_TRAP : 0;
  if (mlirOperationGetNumRegions(op) != 0)
    f |= OP_HAS_REGIONS | (opsched_op_facts_may_not_return(facts, op) ? OP_MAY_NOT_RETURN : 0);
  return f;
}

/* Effect and speculation edges, in program order. */
static int add_order_edges(opsched_graph *g, int32_t n, const uint8_t *alias,
                           const op_effects *oe, const uint8_t *spec_flags) {
  effect_pool pool = {0};
  opsched_alias classes;
  memset(&classes, 0, sizeof classes);
  opsched_effect_order *order = NULL;
  spec_state spec = {.last_barrier = -1};
  spec.traps = malloc(sizeof *spec.traps * (size_t)n);
  int err = !spec.traps || pool_build(&pool, &classes, oe, n, alias);
  if (!err)
    err = !(order = opsched_effect_order_new(&classes, n));
  for (int32_t i = 0; i < n && !err; i++) {
    err |= opsched_effect_order_add(order, g, i, pool.fx + pool.first[i], pool.count[i]);
    /* Without regions, the effects just collected say it (no second
     * effects query). */
    int barrier = !(spec_flags[i] & OP_HAS_REGIONS) ? pool.unknown[i] || pool.observable[i]
                                                    : (spec_flags[i] & OP_MAY_NOT_RETURN) != 0;
    err |= add_speculation_edges(&spec, g, i, spec_flags[i] & OP_MAY_TRAP, barrier);
  }
  opsched_effect_order_free(order);
  opsched_alias_free(&classes);
  pool_free(&pool);
  free(spec.traps);
  return err;
}

/* One pass over the block's ops (on a large block each pass misses the
 * cache on every op): SSA edges, effects and speculation flags. */
static int scan_ops(opsched_graph *g, MlirOperation *ops, int32_t n, const opsched_ptrmap *results,
                    opsched_op_facts *facts, op_effects *oe, uint8_t *nested, uint8_t *spec_flags,
                    int *any_bufferization, int *any_outside) {
  int err = op_effects_init(oe, n);
  for (int32_t i = 0; i < n && !err; i++) {
    opsched_prefetch_op(ops, i + OPSCHED_PREFETCH_AHEAD, n);
    ssa_ctx c = {results, g, i, 0, 0, 0, ops[i]};
    add_operand_edges(&c, facts);
    err |= c.failed;
    nested[i] = (uint8_t)c.bufferization;
    *any_bufferization |= c.bufferization;
    *any_outside |= c.outside_tensor;
    err = err || op_effects_add(oe, ops[i], i, facts);
    spec_flags[i] = speculation_flags(ops[i], facts);
  }
  return err;
}

static int add_edges(opsched_graph *g, MlirOperation *ops, int32_t n,
                     const opsched_ptrmap *index, const opsched_ptrmap *results,
                     opsched_op_facts *facts) {
  enum { EFFECT_CAP = 16 };
  uint8_t *nested = calloc((size_t)n, 1), *alias = calloc((size_t)n, 1);
  uint8_t *spec_flags = malloc((size_t)n);
  op_effects oe;
  memset(&oe, 0, sizeof oe);
  int any_bufferization = 0, any_outside = 0;
  int err = !nested || !alias || !spec_flags ||
            scan_ops(g, ops, n, results, facts, &oe, nested, spec_flags, &any_bufferization,
                     &any_outside);
  /* Cheapest test first: most blocks read no outside tensor or touch no
   * memory, and the function walk is the costly one. */
  int outside = !err && any_outside && block_touches_memory(&oe, n, EFFECT_CAP) &&
                outside_may_alias(mlirOperationGetBlock(ops[0]), facts);
  if (!err && (any_bufferization || outside))
    err = alias_access(ops, n, nested, index, results, outside, alias, facts);
  if (!err)
    err = add_order_edges(g, n, alias, &oe, spec_flags);
  op_effects_free(&oe);
  free(nested);
  free(alias);
  free(spec_flags);
  return err;
}

int opsched_deps_add_edges(opsched_graph *g, MlirOperation *ops, int32_t n,
                           const opsched_ptrmap *index, const opsched_ptrmap *results,
                           opsched_op_facts *facts) {
  opsched_ptrmap own_results;
  if (!results) {
    if (opsched_block_results_init(&own_results, ops, n, NULL, index))
      return 1;
    results = &own_results;
  }
  opsched_op_facts *own = facts ? NULL : opsched_op_facts_new();
  int err = (!facts && !own) || add_edges(g, ops, n, index, results, facts ? facts : own);
  opsched_op_facts_free(own);
  if (results == &own_results)
    opsched_ptrmap_free(&own_results);
  return err;
}
