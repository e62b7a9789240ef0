#include "buffers.h"
#include "op_name.h"

#include "deps.h"

#include "op_work.h"
#include "prefetch.h"
#include "ptrmap.h"
#include "queries.h"
#include "opsched/attr_names.h"

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdlib.h>
#include <string.h>

/* Views: bufferize to a subview/reshape/cast of their source operand 0. */
static const char *const view_ops[] = {
    "tensor.expand_shape", "tensor.collapse_shape", "tensor.reshape",
    "tensor.cast", "tensor.bitcast", "tensor.extract_slice",
    "memref.subview", "memref.cast", "memref.reinterpret_cast",
    "memref.expand_shape", "memref.collapse_shape", "memref.view",
    "bufferization.to_tensor", "bufferization.to_buffer", NULL};
/* Allocate nothing until written. */
static const char *const empty_ops[] = {"tensor.empty", "bufferization.alloc_tensor", NULL};
/* Resident for the whole function. */
static const char *const constant_ops[] = {"arith.constant", "ml_program.global_load_const",
                                           "memref.get_global", NULL};

/* Storage bytes of a shaped value: each element takes whole bytes. */
static int64_t storage_bytes(MlirType t, int *dynamic) {
  const int64_t *dims;
  MlirType element;
  if (opsched_mlir_type_shape(t, &dims, &element) == -2)
    return 0;
  int64_t bits = opsched_element_bits(element);
  int64_t elem = (bits + 7) / 8;
  int64_t numel = opsched_shaped_numel(t, dynamic);
  if (elem != 0 && numel > INT64_MAX / elem)
    return INT64_MAX;
  return numel * elem;
}

typedef struct builder {
  opsched_block_buffers *bb;
  opsched_ptrmap value_index; /* value ptr -> index in value_* arrays */
  int32_t cap_values, num_buffers, cap_buffers;
  uint8_t *buffer_live;   /* live until end */
  const void **buffer_head; /* per buffer: the value last written into it */
  opsched_ptrmap empty_buffer; /* tensor.empty value -> the buffer it became */
  MlirOperation *ops;          /* the block's ops, in order */
  const opsched_ptrmap *op_index; /* op ptr -> index in ops */
  opsched_ptrmap own_index;    /* op_index when the caller has none */
  const opsched_ptrmap *results; /* result ptr -> index of its op in ops */
  opsched_ptrmap own_results;  /* results when the caller has none */
  uint8_t *kind_of;            /* per op: op_kind | KIND_KNOWN, 0: not asked */
  uint8_t *empty_user;         /* per op: an operand is a result of an earlier
                                  tensor.empty of the block (add_empty_inputs) */
  uint8_t *home_op;            /* per op: a result is in home_writer (most ops:
                                  no lookup) */
  int32_t *seen, *stack;       /* per op: reachability search stamp, work list */
  int32_t stamp, budget;
  /* Steps (uses and operands looked at) left to the block's in-place
   * questions (REACH_WORK); at 0, every question answers no. */
  int64_t work_left;
  int32_t *next_writer;        /* per tensor.empty op: earliest home writer, -1 */
  int64_t *next_init;          /* and its init operand */
  opsched_ptrmap home_writer;  /* DPS result written into its empty's home buffer */
  int program_order;           /* decide in-place writes by program order */
  opsched_op_facts *facts;     /* nullable */
  int32_t *tied_first;         /* per op: its first DPS init operand */
  int32_t *tied_count;         /* and the results tied to inits; TIED_UNASKED */
  struct {
    const void *type; /* NULL: empty */
    int64_t bytes;
    int dynamic;
  } sizes[64]; /* storage_bytes by type, direct-mapped */
  struct {
    const void *name; /* an op name's identifier; NULL: empty */
    uint8_t kind;     /* KIND_* */
  } kinds[64];        /* op_kind by name, direct-mapped */
  /* Order edges in-place decisions rely on (program_order only): the first
   * num_edges are kept, the rest belong to the question being asked. */
  int32_t *edge_from, *edge_to;
  int32_t num_edges, num_pending, cap_edges;
  int failed;
} builder;

/* storage_bytes(t, dynamic), memoized in the builder (types are uniqued:
 * a block has few). */
static int64_t type_storage_bytes(builder *b, MlirType t, int *dynamic) {
  size_t slot = (size_t)(((uint64_t)(uintptr_t)t.ptr * 0x9e3779b97f4a7c15ull) >> 58);
  if (b->sizes[slot].type != t.ptr) {
    b->sizes[slot].dynamic = 0;
    b->sizes[slot].bytes = storage_bytes(t, &b->sizes[slot].dynamic);
    b->sizes[slot].type = t.ptr;
  }
  *dynamic |= b->sizes[slot].dynamic;
  return b->sizes[slot].bytes;
}

/* What an op's name says here, memoized per name (an op name is one
 * identifier: one pointer per name; a block has few names), instead of
 * comparing it with the lists above at every question. */
enum { KIND_VIEW = 1, KIND_EMPTY = 2, KIND_CONSTANT = 4, KIND_KNOWN = 8 };

static int op_kind(builder *b, MlirOperation op) {
  MlirIdentifier id = mlirOperationGetName(op);
  size_t slot = (size_t)(((uint64_t)(uintptr_t)id.ptr * 0x9e3779b97f4a7c15ull) >> 58);
  if (b->kinds[slot].name != id.ptr) {
    MlirStringRef s = mlirIdentifierStr(id);
    b->kinds[slot].kind = (uint8_t)((opsched_mlir_ref_is_any(s, view_ops) ? KIND_VIEW : 0) |
                                    (opsched_mlir_ref_is_any(s, empty_ops) ? KIND_EMPTY : 0) |
                                    (opsched_mlir_ref_is_any(s, constant_ops) ? KIND_CONSTANT : 0));
    b->kinds[slot].name = id.ptr;
  }
  return b->kinds[slot].kind;
}

/* op_kind of ops[i], remembered per op: asked of an operand's producer,
 * it reads the producer only once (on a large block a cache miss). */
static int kind_at(builder *b, int32_t i) {
  if (!b->kind_of[i])
    b->kind_of[i] = (uint8_t)(op_kind(b, b->ops[i]) | KIND_KNOWN);
  return b->kind_of[i] & ~KIND_KNOWN;
}

enum { TIED_UNASKED = -1 };
/* How far below an op its results may lie, for the value maps' ranges. */
enum { RESULTS_BEFORE = 1024 };

/* The operand of ops[i] tied to its result r (r below its result count),
 * or -1: opsched_mlir_op_tied_operand, asked of MLIR once per op. */
static int64_t tied_operand(builder *b, int32_t i, intptr_t r) {
  if (b->tied_count[i] == TIED_UNASKED) {
    int64_t first;
    int64_t count = opsched_op_facts_dps_inits(b->facts, b->ops[i], &first);
    intptr_t nres = mlirOperationGetNumResults(b->ops[i]);
    b->tied_count[i] = (int32_t)(count < 0 ? 0 : count < nres ? count : nres);
    b->tied_first[i] = (int32_t)first;
  }
  return r < b->tied_count[i] ? b->tied_first[i] + (int64_t)r : -1;
}

/* Ops visited per in-place question: past it the write counts as a copy,
 * which keeps the model near-linear on huge blocks. */
enum { REACH_BUDGET = 4096, VIEW_DEPTH = 16, CHAIN_MAX = 64 };
/* Steps all the in-place questions of a block may take, per op and operand
 * of the block: the questions scan use lists, which the per-question
 * budget above does not bound (one fill the init of each of n ops made
 * every question scan up to n uses: opsched-gen shared-init 40000 took
 * 24 s, docs/benchmarks-scale.md "Round 25"). Past it every question
 * answers no (a copy), so the model stays linear whatever the fan-out. */
enum { REACH_WORK = 64 };

/* Takes one step of the block's work; 0 when none is left. */
static int spend(builder *b) {
  if (b->work_left == 0)
    return 0;
  b->work_left--;
  return 1;
}

/* 1 when ops[to] takes a result of ops[from] as an operand: the common
 * in-place question (an op writing over its own init) answered from the
 * reader's few operands, not the writer's uses. */
enum { DIRECT_RESULTS_MAX = 8 };
static int uses_result_of(builder *b, int32_t from, int32_t to) {
  MlirOperation def = b->ops[from], op = b->ops[to];
  intptr_t nr = mlirOperationGetNumResults(def);
  if (nr == 0 || nr > DIRECT_RESULTS_MAX)
    return 0;
  const void *res[DIRECT_RESULTS_MAX];
  for (intptr_t r = 0; r < nr; r++)
    res[r] = mlirOperationGetResult(def, r).ptr;
  for (intptr_t k = 0, nk = mlirOperationGetNumOperands(op); k < nk; k++) {
    if (!spend(b))
      return 0;
    const void *v = mlirOperationGetOperand(op, k).ptr;
    for (intptr_t r = 0; r < nr; r++)
      if (v == res[r])
        return 1;
  }
  return 0;
}

/* Index of the op of this block that `op` is or is nested in, or -1. */
static int32_t block_index_of(const builder *b, MlirOperation op) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op)) {
    int32_t i = opsched_ptrmap_get(b->op_index, op.ptr);
    if (i >= 0)
      return i;
  }
  return -1;
}

/* Records the order edge from -> to for the question being asked. */
static void push_edge(builder *b, int32_t from, int32_t to) {
  if (b->num_pending == b->cap_edges) {
    int32_t cap = b->cap_edges ? 2 * b->cap_edges : 64;
    int32_t *f = realloc(b->edge_from, sizeof *f * (size_t)cap);
    if (f)
      b->edge_from = f;
    int32_t *t = f ? realloc(b->edge_to, sizeof *t * (size_t)cap) : NULL;
    if (!t) {
      b->failed = 1;
      return;
    }
    b->edge_to = t;
    b->cap_edges = cap;
  }
  b->edge_from[b->num_pending] = from;
  b->edge_to[b->num_pending++] = to;
}

/* Keeps (yes) or drops the edges of the question just answered. */
static int settle_edges(builder *b, int32_t mark, int yes) {
  if (yes)
    b->num_edges = b->num_pending;
  else
    b->num_pending = mark;
  return yes;
}

/* 1 when ops[from] runs before ops[to] in every order the scheduler may
 * pick. By default: ops[to] depends on ops[from] through SSA values (uses
 * nested in ops count for the op holding them); walks forward from `from`,
 * only through ops before `to`. With program_order (one-shot
 * bufferization's view): `from` comes first in the block, and the edge
 * from -> to, recorded here, makes every order keep it so. */
static int reaches(builder *b, int32_t from, int32_t to) {
  if (b->program_order) {
    if (from < to)
      push_edge(b, from, to);
    return from <= to;
  }
  if (from == to)
    return 1;
  if (from < to && uses_result_of(b, from, to))
    return 1;
  int32_t stamp = ++b->stamp, top = 0;
  b->seen[from] = stamp;
  b->stack[top++] = from;
  while (top > 0) {
    MlirOperation op = b->ops[b->stack[--top]];
    for (intptr_t r = 0, nr = mlirOperationGetNumResults(op); r < nr; r++)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        if (!spend(b))
          return 0;
        int32_t t = block_index_of(b, mlirOpOperandGetOwner(u));
        if (t == to)
          return 1;
        if (t < 0 || t > to || b->seen[t] == stamp)
          continue;
        if (--b->budget < 0)
          return 0;
        b->seen[t] = stamp;
        b->stack[top++] = t;
      }
  }
  return 0;
}

/* 1 when a linalg.generic reads operand k at exactly the elements it
 * writes through init operand `init`: equal indexing maps, and the init's a
 * permutation of all loops (so no reduction). One-shot bufferization lets
 * such an op write in place over the value it reads (element-wise access). */
static int elementwise_read(MlirOperation op, intptr_t k, int64_t init) {
  static const char *const generic[] = {"linalg.generic", NULL};
  if (init < 0 || !opsched_mlir_op_is_any(op, generic))
    return 0;
  MlirAttribute maps = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("indexing_maps"));
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirArrayAttrGetNumElements(maps) <= (intptr_t)init ||
      mlirArrayAttrGetNumElements(maps) <= k)
    return 0;
  MlirAttribute a = mlirArrayAttrGetElement(maps, k);
  MlirAttribute o = mlirArrayAttrGetElement(maps, (intptr_t)init);
  if (!mlirAttributeIsAAffineMap(a) || !mlirAttributeIsAAffineMap(o))
    return 0;
  MlirAffineMap out = mlirAffineMapAttrGetValue(o);
  return mlirAffineMapIsPermutation(out) && mlirAffineMapEqual(mlirAffineMapAttrGetValue(a), out);
}

/* How ops[w] may read the value it overwrites: */
enum { SELF_ANY = -2, SELF_NONE = -1 }; /* or >= 0: element-wise w.r.t. that init */

/* 1 when every reader of `v`, and of the views of it, precedes ops[w] in
 * every order (ops[w] itself may read it as `self` allows): writing over
 * v's buffer at w cannot clobber a value still to be read. */
static int readers_precede(builder *b, MlirValue v, int32_t w, int64_t self, int depth) {
  if (depth > VIEW_DEPTH)
    return 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    if (!spend(b))
      return 0;
    MlirOperation owner = mlirOpOperandGetOwner(u);
    int32_t t = block_index_of(b, owner);
    if (t == w) {
      if (self == SELF_ANY ||
          (mlirOperationEqual(owner, b->ops[w]) &&
           elementwise_read(owner, mlirOpOperandGetOperandNumber(u), self)))
        continue;
      return 0;
    }
    if (t < 0)
      return 0; /* read by the terminator or outside the block */
    if (mlirOperationEqual(owner, b->ops[t]) && (kind_at(b, t) & KIND_VIEW) &&
        mlirOpOperandGetOperandNumber(u) == 0) {
      for (intptr_t r = 0, nr = mlirOperationGetNumResults(owner); r < nr; r++)
        if (!readers_precede(b, mlirOperationGetResult(owner, r), w, self, depth + 1))
          return 0;
      continue;
    }
    if (!reaches(b, t, w))
      return 0;
  }
  return 1;
}

/* 1 when ops[w] may write in place over `head`, the latest value of a
 * buffer: head's writer and all its readers precede w in every order.
 * `self`: how w may read head itself (SELF_ANY: head is its tied init,
 * updated in place; an init operand index: w writes a tensor.empty's
 * buffer and may read head only element-wise, as one-shot bufferization
 * allows). */
static int holds_latest_within(builder *b, MlirValue head, int32_t w, int64_t self) {
  if (mlirValueIsAOpResult(head)) {
    int32_t d = block_index_of(b, mlirOpResultGetOwner(head));
    if (d < 0 || !reaches(b, d, w))
      return 0;
  }
  return readers_precede(b, head, w, self, 0);
}

static int holds_latest(builder *b, MlirValue head, int32_t w, int64_t self) {
  b->budget = REACH_BUDGET;
  return b->work_left > 0 && holds_latest_within(b, head, w, self);
}

/* True when operand `k` of ops[i] is the init tied to one of its results. */
static int is_tied_init(builder *b, int32_t i, intptr_t k) {
  for (intptr_t r = 0, nr = mlirOperationGetNumResults(b->ops[i]); r < nr; r++)
    if (tied_operand(b, i, r) == k)
      return 1;
  return 0;
}

/* The value that continues v's buffer in place: the result of the op that
 * takes v as its tied init once every other reader of v is done (the rule
 * of add_result), or a null value. At most one op qualifies: two would
 * each have to follow the other. */
static MlirValue chain_next(builder *b, MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    if (!spend(b))
      return (MlirValue){NULL}; /* chain_precedes reads work_left */
    MlirOperation x = mlirOpOperandGetOwner(u);
    int32_t t = opsched_ptrmap_get(b->op_index, x.ptr);
    if (t < 0)
      continue;
    intptr_t k = mlirOpOperandGetOperandNumber(u);
    for (intptr_t r = 0, nr = mlirOperationGetNumResults(x); r < nr; r++)
      if (tied_operand(b, t, r) == k) {
        int32_t mark = b->num_pending;
        if (holds_latest_within(b, v, t, SELF_ANY))
          return mlirOperationGetResult(x, r);
        b->num_pending = mark;
      }
  }
  return (MlirValue){NULL};
}

/* 1 when the values written into one buffer from `v` on (v, then each
 * in-place update of it) are all read and written before ops[n] in every
 * order, and ops[n] reads them only element-wise through its init operand
 * `n_init`: ops[n] may then take the buffer. */
static int chain_precedes(builder *b, MlirValue v, int32_t n, int64_t n_init) {
  b->budget = REACH_BUDGET;
  if (b->work_left == 0 || !reaches(b, block_index_of(b, mlirOpResultGetOwner(v)), n))
    return 0;
  for (int len = 0; len < CHAIN_MAX && !mlirValueIsNull(v); len++) {
    if (!readers_precede(b, v, n, n_init, 0))
      return 0;
    v = chain_next(b, v);
  }
  /* A chain cut short by the block's work is not known to end (one that
   * took the last step counts as cut short too: a copy is always safe). */
  return b->work_left > 0 && mlirValueIsNull(v);
}

/* Index of the tensor.empty of this block that `v` is, or -1. */
static int32_t empty_index(builder *b, MlirValue v) {
  int32_t e = opsched_ptrmap_get(b->results, v.ptr);
  return e >= 0 && (kind_at(b, e) & KIND_EMPTY) ? e : -1;
}

/* One-shot bufferization gives each tensor.empty one buffer and decides
 * from the last op up which writers of it write there in place; the others
 * allocate. Same here: walking the block backwards, a destination-passing
 * result whose init is a tensor.empty takes the empty's home buffer when
 * everything it starts there is done before the next home writer in every
 * order (so the decision holds for any order the scheduler picks). */
/* Marks the later ops of the block that take a result of ops[i], when it
 * is a tensor.empty, as a direct operand: add_empty_inputs asks only those
 * (a tensor.empty has few users; every other operand would be a lookup).
 * Called in the forward pass, which asks each op's kind anyway. */
static void mark_empty_users(builder *b, int32_t i) {
  if (!(kind_at(b, i) & KIND_EMPTY))
    return;
  MlirOperation op = b->ops[i];
  for (intptr_t r = 0, nr = mlirOperationGetNumResults(op); r < nr; r++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      int32_t t = opsched_ptrmap_get(b->op_index, mlirOpOperandGetOwner(u).ptr);
      if (t > i)
        b->empty_user[t] = 1;
    }
}

static void choose_home_writers(builder *b, int32_t n) {
  for (int32_t i = n - 1; i >= 0; i--) {
    opsched_prefetch_op(b->ops, i - OPSCHED_PREFETCH_AHEAD, n);
    MlirOperation op = b->ops[i];
    for (intptr_t r = 0, nr = mlirOperationGetNumResults(op); r < nr; r++) {
      int64_t k = tied_operand(b, i, r);
      int32_t e = k < 0 ? -1 : empty_index(b, mlirOperationGetOperand(op, k));
      if (e < 0)
        continue;
      MlirValue v = mlirOperationGetResult(op, r);
      int32_t next = b->next_writer[e];
      if (next >= 0 && (next == i || !settle_edges(b, b->num_edges,
                                                    chain_precedes(b, v, next, b->next_init[e]))))
        continue;
      b->next_writer[e] = i;
      b->next_init[e] = k;
      b->home_op[i] = 1;
      if (opsched_ptrmap_put(&b->home_writer, v.ptr, i))
        b->failed = 1;
    }
  }
}

/* Makes room for `cap` buffers (at least the current count); 0 when out of
 * memory (then b->failed is set). */
static int reserve_buffers(builder *b, int32_t cap) {
  int64_t *by = realloc(b->bb->buffer_bytes, sizeof *by * (size_t)cap);
  int32_t *al = by ? realloc(b->bb->buffer_node, sizeof *al * (size_t)cap) : NULL;
  if (by)
    b->bb->buffer_bytes = by;
  if (al)
    b->bb->buffer_node = al;
  uint8_t *lv = al ? realloc(b->buffer_live, (size_t)cap) : NULL;
  if (lv)
    b->buffer_live = lv;
  const void **hd = lv ? realloc((void *)b->buffer_head, sizeof *hd * (size_t)cap) : NULL;
  if (!hd) {
    b->failed = 1;
    return 0;
  }
  b->buffer_head = hd;
  b->cap_buffers = cap;
  return 1;
}

static int32_t new_buffer(builder *b, int64_t bytes, int32_t alloc_op) {
  if (b->num_buffers == b->cap_buffers &&
      !reserve_buffers(b, b->cap_buffers ? 2 * b->cap_buffers : 16))
    return -1;
  b->bb->buffer_bytes[b->num_buffers] = bytes;
  b->bb->buffer_node[b->num_buffers] = alloc_op;
  b->buffer_live[b->num_buffers] = 0;
  b->buffer_head[b->num_buffers] = NULL;
  return b->num_buffers++;
}

static void add_value(builder *b, MlirValue v, int32_t op, int32_t result,
                      int32_t buffer, int owns) {
  opsched_block_buffers *bb = b->bb;
  int32_t i = bb->num_values++;
  bb->value_op[i] = op;
  bb->value_result[i] = result;
  bb->value_buffer[i] = buffer;
  bb->value_owns[i] = (uint8_t)owns;
  if (opsched_ptrmap_put(&b->value_index, v.ptr, i))
    b->failed = 1;
}

/* Buffer of `v`, or -1 when it has none in this block (argument, outer
 * value, scalar, unwritten tensor.empty). */
static int32_t buffer_of(const builder *b, MlirValue v) {
  int32_t i = opsched_ptrmap_get(&b->value_index, v.ptr);
  return i < 0 ? -1 : b->bb->value_buffer[i];
}

static void add_use(builder *b, int32_t user, MlirValue v) {
  int32_t buf = buffer_of(b, v);
  if (buf >= 0 && opsched_buffers_add_use(b->bb->buffers, buf, user) != OPSCHED_OK)
    b->failed = 1;
}

typedef struct use_ctx {
  builder *b;
  int32_t user;
} use_ctx;

static MlirWalkResult add_uses_walk(MlirOperation op, void *data) {
  use_ctx *c = data;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; i++)
    add_use(c->b, c->user, mlirOperationGetOperand(op, i));
  return MlirWalkResultAdvance;
}

/* The uses of op `user`: its operands and the values its nested ops use from
 * outside it (each once: a use is a fact, not a count). */
static void add_uses(builder *b, MlirOperation *ops, int32_t user, opsched_op_facts *facts) {
  MlirOperation op = ops[user];
  if (!facts) {
    use_ctx c = {b, user};
    mlirOperationWalk(op, add_uses_walk, &c, MlirWalkPreOrder);
    return;
  }
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; i++)
    add_use(b, user, mlirOperationGetOperand(op, i));
  int64_t count;
  int bufferization;
  const MlirValue *captured = opsched_op_facts_captured(facts, op, &count, &bufferization);
  if (count < 0)
    b->failed = 1;
  for (int64_t i = 0; i < count; i++)
    add_use(b, user, captured[i]);
}

/* A tensor.empty read as an input (not written through a tied init), like
 * pooling's window operand, still needs memory, as one-shot bufferization
 * gives it. */
static void add_empty_inputs(builder *b, MlirOperation *ops, int32_t i) {
  MlirOperation op = ops[i];
  for (intptr_t k = 0, nk = mlirOperationGetNumOperands(op); k < nk; k++) {
    MlirValue in = mlirOperationGetOperand(op, k);
    /* Only an op before this one: one defined outside this block (or a
     * block argument) is not this block's buffer. */
    int32_t owner = opsched_ptrmap_get(b->results, in.ptr);
    if (owner < 0 || owner >= i || !(kind_at(b, owner) & KIND_EMPTY) ||
        opsched_ptrmap_get(&b->empty_buffer, in.ptr) >= 0 || is_tied_init(b, i, k))
      continue;
    /* Allocated where the tensor.empty stands, like the memref.alloc that
     * replaces it; the empty's result owns it. */
    int dynamic = 0;
    int32_t buf = new_buffer(b, type_storage_bytes(b, mlirValueGetType(in), &dynamic), owner);
    if (buf < 0)
      break;
    b->buffer_head[buf] = in.ptr;
    if (opsched_ptrmap_put(&b->empty_buffer, in.ptr, buf))
      b->failed = 1;
    add_value(b, in, owner, (int32_t)mlirOpResultGetResultNumber(in), buf, 1);
  }
}

/* Result r of ops[i]: a view of its source's buffer, a constant's resident
 * buffer, an in-place write into its init's buffer, or a fresh allocation. */
static void add_result(builder *b, MlirOperation *ops, int32_t i, intptr_t r) {
  opsched_block_buffers *bb = b->bb;
  MlirOperation op = ops[i];
  MlirValue v = mlirOperationGetResult(op, r);
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsAShaped(t) || (!mlirTypeIsARankedTensor(t) &&
                                !mlirTypeIsAUnrankedTensor(t) && !mlirTypeIsAMemRef(t) &&
                                !mlirTypeIsAUnrankedMemRef(t)))
    return;
  int dynamic = 0;
  int64_t bytes = type_storage_bytes(b, t, &dynamic);
  if (dynamic) {
    bb->op_dynamic[i] = 1;
    MlirAttribute over = mlirOperationGetDiscardableAttributeByName(
        op, mlirStringRefCreateFromCString(OPSCHED_ATTR_BYTES));
    bytes = !mlirAttributeIsNull(over) && mlirAttributeIsAInteger(over) &&
                    mlirIntegerAttrGetValueInt(over) >= 0
                ? mlirIntegerAttrGetValueInt(over)
                : 0;
  }
  if (bytes == INT64_MAX)
    bb->op_overflow[i] = 1;

  int kind = kind_at(b, i);
  if (kind & KIND_VIEW) {
    int32_t src = mlirOperationGetNumOperands(op) > 0
                      ? buffer_of(b, mlirOperationGetOperand(op, 0))
                      : -1;
    if (src >= 0)
      add_value(b, v, i, (int32_t)r, src, 0);
    return;
  }
  if (kind & KIND_EMPTY)
    return; /* allocated by its first writer (the copy case below) */
  if (kind & KIND_CONSTANT) {
    int32_t buf = new_buffer(b, bytes, -1);
    if (buf >= 0)
      add_value(b, v, i, (int32_t)r, buf, 1);
    return;
  }
  int64_t tied = tied_operand(b, i, r);
  int home = b->home_op[i] && opsched_ptrmap_get(&b->home_writer, v.ptr) >= 0;
  MlirValue init = {NULL};
  if (tied >= 0) {
    init = mlirOperationGetOperand(op, tied);
    int32_t init_buf = buffer_of(b, init);
    int from_empty = 0;
    if (init_buf < 0) {
      init_buf = opsched_ptrmap_get(&b->empty_buffer, init.ptr);
      from_empty = init_buf >= 0;
    }
    /* In place when every other reader of the buffer's latest contents
     * runs before this op in every order of the block (it depends on
     * them), so no order can read them after it: the init is that value
     * (fill -> conv; the last of several convs started from one fill), or
     * the init is a tensor.empty whose home buffer choose_home_writers
     * gave this op (the buffer's latest value is then done before it). */
    if (init_buf >= 0) {
      const void *head = b->buffer_head[init_buf];
      int in_place = settle_edges(
          b, b->num_edges,
          from_empty ? home && head && holds_latest(b, (MlirValue){head}, i, tied)
                     : head == init.ptr && holds_latest(b, init, i, SELF_ANY));
      if (in_place) {
        add_value(b, v, i, (int32_t)r, init_buf, 0);
        b->buffer_head[init_buf] = v.ptr;
        return;
      }
    }
  }
  /* A fresh allocation: a non-DPS op, the copy of a DPS op whose init is
   * still read later, a writer of a tensor.empty outside its home buffer,
   * or the first home writer of a tensor.empty (which has no buffer of its
   * own, so it lands here and becomes the empty's home). */
  int32_t buf = new_buffer(b, bytes, i);
  if (buf < 0)
    return;
  add_value(b, v, i, (int32_t)r, buf, 1);
  b->buffer_head[buf] = v.ptr;
  if (home && opsched_ptrmap_get(&b->empty_buffer, init.ptr) < 0 &&
      opsched_ptrmap_put(&b->empty_buffer, init.ptr, buf))
    b->failed = 1;
}

/* The builder's maps and work arrays; non-zero when out of memory (then
 * builder_free releases what was made: a failed ptrmap is left empty). */
static int builder_init(builder *b, MlirOperation *ops, int32_t n, int32_t total_results,
                        const opsched_ptrmap *index, const opsched_ptrmap *results) {
  b->ops = ops;
  b->kind_of = calloc((size_t)n + 1, 1);
  b->empty_user = calloc((size_t)n + 1, 1);
  b->home_op = calloc((size_t)n + 1, 1);
  b->seen = calloc((size_t)n + 1, sizeof *b->seen);
  b->stack = malloc(sizeof *b->stack * ((size_t)n + 1));
  b->next_writer = malloc(sizeof *b->next_writer * ((size_t)n + 1));
  b->next_init = malloc(sizeof *b->next_init * ((size_t)n + 1));
  b->tied_first = malloc(sizeof *b->tied_first * ((size_t)n + 1));
  b->tied_count = malloc(sizeof *b->tied_count * ((size_t)n + 1));
  if (!b->kind_of || !b->empty_user || !b->home_op || !b->seen || !b->stack || !b->next_writer || !b->next_init || !b->tied_first ||
      !b->tied_count)
    return 1;
  for (int32_t i = 0; i < n; i++)
    b->next_writer[i] = b->tied_count[i] = TIED_UNASKED;
  /* Values are op results, which lie just before their ops: placed by
   * address like the ops (ptrmap.h). */
  if (opsched_ptrmap_init_around(&b->value_index, (size_t)total_results, index, RESULTS_BEFORE) ||
      opsched_ptrmap_init_around(&b->empty_buffer, (size_t)total_results, index, RESULTS_BEFORE) ||
      (!index && opsched_ptrmap_init(&b->own_index, (size_t)n + 1)) ||
      opsched_ptrmap_init_around(&b->home_writer, (size_t)total_results, index, RESULTS_BEFORE))
    return 1;
  if (!index)
    for (int32_t i = 0; i < n; i++)
      opsched_ptrmap_put(&b->own_index, ops[i].ptr, i);
  b->op_index = index ? index : &b->own_index;
  if (!results && opsched_block_results_init(&b->own_results, ops, n, NULL, b->op_index))
    return 1;
  b->results = results ? results : &b->own_results;
  choose_home_writers(b, n);
  return 0;
}

static void builder_free(builder *b) {
  free(b->kind_of);
  free(b->empty_user);
  free(b->home_op);
  opsched_ptrmap_free(&b->own_results);
  free(b->buffer_live);
  free((void *)b->buffer_head);
  free(b->seen);
  free(b->stack);
  free(b->next_writer);
  free(b->next_init);
  free(b->tied_first);
  free(b->tied_count);
  free(b->edge_from);
  free(b->edge_to);
  opsched_ptrmap_free(&b->home_writer);
  opsched_ptrmap_free(&b->own_index);
  opsched_ptrmap_free(&b->empty_buffer);
  opsched_ptrmap_free(&b->value_index);
}

int opsched_block_buffers_build(opsched_block_buffers *bb, MlirBlock block,
                                MlirOperation *ops, int32_t n, MlirOperation terminator,
                                int program_order, opsched_op_facts *facts,
                                const opsched_ptrmap *index,
                                const opsched_ptrmap *result_index, int64_t results,
                                int64_t operands) {
  memset(bb, 0, sizeof *bb);
  builder b = {.bb = bb, .program_order = program_order, .facts = facts};
  int32_t nargs = (int32_t)mlirBlockGetNumArguments(block);
  if (results < 0 || operands < 0) {
    results = operands = 0;
    for (int32_t i = 0; i < n; i++) {
      opsched_prefetch_op(ops, i + OPSCHED_PREFETCH_AHEAD, n);
      results += mlirOperationGetNumResults(ops[i]);
      operands += mlirOperationGetNumOperands(ops[i]);
    }
  }
  int32_t total_results = nargs + (int32_t)results;
  int64_t total_operands = operands; /* the uses' capacity hint */
  b.work_left = REACH_WORK * ((int64_t)n + operands + 1);
  bb->value_op = malloc(sizeof(int32_t) * (size_t)(total_results + 1));
  bb->value_result = malloc(sizeof(int32_t) * (size_t)(total_results + 1));
  bb->value_buffer = malloc(sizeof(int32_t) * (size_t)(total_results + 1));
  bb->value_owns = malloc((size_t)total_results + 1);
  bb->op_dynamic = calloc((size_t)n + 1, 1);
  bb->op_overflow = calloc((size_t)n + 1, 1);
  if (!bb->value_op || !bb->value_result || !bb->value_buffer || !bb->value_owns ||
      !bb->op_dynamic || !bb->op_overflow) {
    opsched_block_buffers_release(bb);
    return 1;
  }
  /* Every buffer is owned by one block argument or op result: sized once
   * (growing by realloc on a heap MLIR has fragmented costs more than the
   * copies at a million ops). */
  if (builder_init(&b, ops, n, total_results, index, result_index) || !reserve_buffers(&b, total_results + 1)) {
    builder_free(&b);
    opsched_block_buffers_release(bb);
    return 1;
  }

  /* Block arguments (function inputs, loop-carried values) exist before the
   * block runs: resident, reported apart from the schedulable peak. */
  for (int32_t a = 0; a < nargs && !b.failed; a++) {
    MlirValue v = mlirBlockGetArgument(block, a);
    int dynamic = 0;
    int64_t bytes = type_storage_bytes(&b, mlirValueGetType(v), &dynamic);
    if (bytes > 0 || mlirTypeIsAShaped(mlirValueGetType(v))) {
      int32_t buf = new_buffer(&b, bytes, -1);
      if (buf >= 0)
        add_value(&b, v, -1, a, buf, 1);
    }
  }
  for (int32_t i = 0; i < n && !b.failed; i++) {
    opsched_prefetch_op(ops, i + OPSCHED_PREFETCH_AHEAD, n);
    if (b.empty_user[i])
      add_empty_inputs(&b, ops, i);
    mark_empty_users(&b, i); /* marks later ops only */
    for (intptr_t r = 0, nr = mlirOperationGetNumResults(ops[i]); r < nr; r++)
      add_result(&b, ops, i, r);
  }

  /* Values the terminator uses live until the end of the block. */
  if (!mlirOperationIsNull(terminator))
    for (intptr_t k = 0, nk = mlirOperationGetNumOperands(terminator); k < nk; k++) {
      int32_t buf = buffer_of(&b, mlirOperationGetOperand(terminator, k));
      if (buf >= 0)
        b.buffer_live[buf] = 1;
    }

  if (!b.failed && b.num_buffers > 0) {
    bb->buffers = opsched_buffers_create(n);
    if (!bb->buffers ||
        opsched_buffers_reserve(bb->buffers, b.num_buffers, total_operands) != OPSCHED_OK)
      b.failed = 1;
    for (int32_t k = 0; !b.failed && k < b.num_buffers; k++)
      if (opsched_buffers_add(bb->buffers, bb->buffer_bytes[k], bb->buffer_node[k],
                              b.buffer_live[k]) != k)
        b.failed = 1;
    for (int32_t i = 0; !b.failed && i < n; i++) {
      opsched_prefetch_op(ops, i + OPSCHED_PREFETCH_AHEAD, n);
      add_uses(&b, ops, i, facts);
    }
  }
  bb->num_buffers = b.num_buffers;
  bb->num_order_edges = b.num_edges;
  bb->order_from = b.edge_from;
  bb->order_to = b.edge_to;
  b.edge_from = b.edge_to = NULL;
  builder_free(&b);
  if (b.failed) {
    opsched_block_buffers_release(bb);
    return 1;
  }
  return 0;
}

void opsched_block_buffers_release(opsched_block_buffers *bb) {
  opsched_buffers_destroy(bb->buffers);
  free(bb->value_op);
  free(bb->value_result);
  free(bb->value_buffer);
  free(bb->value_owns);
  free(bb->buffer_bytes);
  free(bb->buffer_node);
  free(bb->op_dynamic);
  free(bb->op_overflow);
  free(bb->order_from);
  free(bb->order_to);
  memset(bb, 0, sizeof *bb);
}
