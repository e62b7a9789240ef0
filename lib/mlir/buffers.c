#include "buffers.h"

#include "op_work.h"
#include "ptrmap.h"
#include "queries.h"
#include "opsched/attr_names.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdlib.h>
#include <string.h>

static int name_is(MlirOperation op, const char *const *names) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  for (; *names; names++)
    if (s.length == strlen(*names) && memcmp(s.data, *names, s.length) == 0)
      return 1;
  return 0;
}

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
  if (!mlirTypeIsAShaped(t))
    return 0;
  int64_t bits = opsched_element_bits(mlirShapedTypeGetElementType(t));
  int64_t elem = (bits + 7) / 8;
  int64_t numel = opsched_shaped_numel(t, dynamic);
  if (elem != 0 && numel > INT64_MAX / elem)
    return INT64_MAX;
  return numel * elem;
}

/* True when every use of `v` is an operand of `op` itself (not of ops
 * nested in it or elsewhere): writing in place cannot clobber a later read. */
static int only_used_by(MlirValue v, MlirOperation op) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!mlirOperationEqual(mlirOpOperandGetOwner(u), op))
      return 0;
  return 1;
}

typedef struct builder {
  opsched_block_buffers *bb;
  opsched_ptrmap value_index; /* value ptr -> index in value_* arrays */
  int32_t cap_values, num_buffers, cap_buffers;
  uint8_t *buffer_live;   /* live until end */
  const void **buffer_head; /* per buffer: the value last written into it */
  opsched_ptrmap empty_buffer; /* tensor.empty value -> the buffer it became */
  int failed;
} builder;

static int32_t new_buffer(builder *b, int64_t bytes, int32_t alloc_op) {
  if (b->num_buffers == b->cap_buffers) {
    int32_t cap = b->cap_buffers ? 2 * b->cap_buffers : 16;
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
      return -1;
    }
    b->buffer_head = hd;
    b->cap_buffers = cap;
  }
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
  opsched_ptrmap_put(&b->value_index, v.ptr, i);
}

/* Buffer of `v`, or -1 when it has none in this block (argument, outer
 * value, scalar, unwritten tensor.empty). */
static int32_t buffer_of(const builder *b, MlirValue v) {
  int32_t i = opsched_ptrmap_get(&b->value_index, v.ptr);
  return i < 0 ? -1 : b->bb->value_buffer[i];
}

/* True when operand `k` of `op` is the init tied to one of its results. */
static int is_tied_init(MlirOperation op, intptr_t k) {
  for (intptr_t r = 0, nr = mlirOperationGetNumResults(op); r < nr; r++)
    if (opsched_mlir_op_tied_operand(op, r) == k)
      return 1;
  return 0;
}

typedef struct use_ctx {
  builder *b;
  int32_t user;
} use_ctx;

static MlirWalkResult add_uses(MlirOperation op, void *data) {
  use_ctx *c = data;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; i++) {
    int32_t buf = buffer_of(c->b, mlirOperationGetOperand(op, i));
    if (buf >= 0 &&
        opsched_buffers_add_use(c->b->bb->buffers, buf, c->user) != OPSCHED_OK)
      c->b->failed = 1;
  }
  return MlirWalkResultAdvance;
}

/* A tensor.empty read as an input (not written through a tied init), like
 * pooling's window operand, still needs memory, as one-shot bufferization
 * gives it. */
static void add_empty_inputs(builder *b, MlirOperation *ops, int32_t i) {
  MlirOperation op = ops[i];
  for (intptr_t k = 0, nk = mlirOperationGetNumOperands(op); k < nk; k++) {
    MlirValue in = mlirOperationGetOperand(op, k);
    if (!mlirValueIsAOpResult(in) || !name_is(mlirOpResultGetOwner(in), empty_ops) ||
        opsched_ptrmap_get(&b->empty_buffer, in.ptr) >= 0 || is_tied_init(op, k))
      continue;
    int32_t owner = i - 1;
    while (owner >= 0 && !mlirOperationEqual(ops[owner], mlirOpResultGetOwner(in)))
      owner--;
    if (owner < 0)
      continue; /* defined outside this block: not this block's buffer */
    /* Allocated where the tensor.empty stands, like the memref.alloc that
     * replaces it; the empty's result owns it. */
    int dynamic = 0;
    int32_t buf = new_buffer(b, storage_bytes(mlirValueGetType(in), &dynamic), owner);
    if (buf < 0)
      break;
    b->buffer_head[buf] = in.ptr;
    opsched_ptrmap_put(&b->empty_buffer, in.ptr, buf);
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
  int64_t bytes = storage_bytes(t, &dynamic);
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

  if (name_is(op, view_ops)) {
    int32_t src = mlirOperationGetNumOperands(op) > 0
                      ? buffer_of(b, mlirOperationGetOperand(op, 0))
                      : -1;
    if (src >= 0)
      add_value(b, v, i, (int32_t)r, src, 0);
    return;
  }
  if (name_is(op, empty_ops))
    return; /* allocated by its first writer (the copy case below) */
  if (name_is(op, constant_ops)) {
    int32_t buf = new_buffer(b, bytes, -1);
    if (buf >= 0)
      add_value(b, v, i, (int32_t)r, buf, 1);
    return;
  }
  int64_t tied = opsched_mlir_op_tied_operand(op, r);
  MlirValue init = {NULL};
  if (tied >= 0) {
    init = mlirOperationGetOperand(op, tied);
    int32_t init_buf = buffer_of(b, init);
    int from_empty = 0;
    if (init_buf < 0) {
      init_buf = opsched_ptrmap_get(&b->empty_buffer, init.ptr);
      from_empty = init_buf >= 0;
    }
    /* In place when this op holds every use of the buffer's latest
     * contents, so no order of the block can read them after it: the
     * init is that value (the usual chain fill -> conv), or the init is
     * the tensor.empty the buffer was first allocated for and this op
     * consumes the latest value (relu(outs %e) after fill(%e) -> conv:
     * one-shot bufferization keeps the empty's single allocation). */
    if (init_buf >= 0) {
      const void *head = b->buffer_head[init_buf];
      int in_place = from_empty ? head && only_used_by((MlirValue){head}, op)
                                : head == init.ptr && only_used_by(init, op);
      if (in_place) {
        add_value(b, v, i, (int32_t)r, init_buf, 0);
        b->buffer_head[init_buf] = v.ptr;
        return;
      }
    }
  }
  /* A fresh allocation: a non-DPS op, the copy of a DPS op whose init is
   * still read later, or the first write of a tensor.empty (which has no
   * buffer of its own, so it lands here and becomes the empty's). */
  int32_t buf = new_buffer(b, bytes, i);
  if (buf < 0)
    return;
  add_value(b, v, i, (int32_t)r, buf, 1);
  b->buffer_head[buf] = v.ptr;
  if (tied >= 0 && mlirValueIsAOpResult(init) &&
      name_is(mlirOpResultGetOwner(init), empty_ops) &&
      opsched_ptrmap_get(&b->empty_buffer, init.ptr) < 0)
    opsched_ptrmap_put(&b->empty_buffer, init.ptr, buf);
}

int opsched_block_buffers_build(opsched_block_buffers *bb, MlirBlock block,
                                MlirOperation *ops, int32_t n, MlirOperation terminator) {
  memset(bb, 0, sizeof *bb);
  builder b = {.bb = bb};
  int32_t nargs = (int32_t)mlirBlockGetNumArguments(block);
  int32_t total_results = nargs;
  for (int32_t i = 0; i < n; i++)
    total_results += (int32_t)mlirOperationGetNumResults(ops[i]);
  bb->value_op = malloc(sizeof(int32_t) * (size_t)(total_results + 1));
  bb->value_result = malloc(sizeof(int32_t) * (size_t)(total_results + 1));
  bb->value_buffer = malloc(sizeof(int32_t) * (size_t)(total_results + 1));
  bb->value_owns = malloc((size_t)total_results + 1);
  bb->op_dynamic = calloc((size_t)n + 1, 1);
  bb->op_overflow = calloc((size_t)n + 1, 1);
  if (!bb->value_op || !bb->value_result || !bb->value_buffer || !bb->value_owns ||
      !bb->op_dynamic || !bb->op_overflow ||
      opsched_ptrmap_init(&b.value_index, (size_t)total_results)) {
    opsched_block_buffers_release(bb);
    return 1;
  }
  if (opsched_ptrmap_init(&b.empty_buffer, (size_t)total_results)) {
    opsched_ptrmap_free(&b.value_index);
    opsched_block_buffers_release(bb);
    return 1;
  }

  /* Block arguments (function inputs, loop-carried values) exist before the
   * block runs: resident, reported apart from the schedulable peak. */
  for (int32_t a = 0; a < nargs && !b.failed; a++) {
    MlirValue v = mlirBlockGetArgument(block, a);
    int dynamic = 0;
    int64_t bytes = storage_bytes(mlirValueGetType(v), &dynamic);
    if (bytes > 0 || mlirTypeIsAShaped(mlirValueGetType(v))) {
      int32_t buf = new_buffer(&b, bytes, -1);
      if (buf >= 0)
        add_value(&b, v, -1, a, buf, 1);
    }
  }
  for (int32_t i = 0; i < n && !b.failed; i++) {
    add_empty_inputs(&b, ops, i);
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
    if (!bb->buffers)
      b.failed = 1;
    for (int32_t k = 0; !b.failed && k < b.num_buffers; k++)
      if (opsched_buffers_add(bb->buffers, bb->buffer_bytes[k], bb->buffer_node[k],
                              b.buffer_live[k]) != k)
        b.failed = 1;
    for (int32_t i = 0; !b.failed && i < n; i++) {
      use_ctx c = {&b, i};
      mlirOperationWalk(ops[i], add_uses, &c, MlirWalkPreOrder);
    }
  }
  free(b.buffer_live);
  bb->num_buffers = b.num_buffers;
  free((void *)b.buffer_head);
  opsched_ptrmap_free(&b.empty_buffer);
  opsched_ptrmap_free(&b.value_index);
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
  memset(bb, 0, sizeof *bb);
}
