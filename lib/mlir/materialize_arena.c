/* lib/mlir/materialize_arena.c - op-materialize-arena: the buffer slots
 * op-schedule chose become views into one arena allocation.
 *
 * Two phases: first every candidate allocation is checked and classified
 * (arena, kept with a remark, or an error); only when no error was found is
 * anything rewritten, so bad input never leaves IR half-rewritten. */
#include "materialize.h"

#include "attrs.h"
#include "materialize_util.h"
#include "op_notes.h"
#include "queries.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One `memref.alloc` of the body with its verdict. */
typedef struct arena_buffer {
  MlirOperation alloc;
  MlirOperation view; /* set by the rewrite */
  int64_t offset; /* >= 0: goes into the arena; < 0: kept */
  int64_t size;
} arena_buffer;

/* The values of a buffer's alias tree still to walk (a stack, not
 * recursion: a chain of 100k views overflowed the C stack). */
typedef struct alias_stack {
  MlirValue *v;
  size_t cap;
} alias_stack;

typedef struct arena_job {
  MlirOperation func;
  int64_t arena_size, alignment;
  arena_buffer *buffers;
  size_t count, cap;
  alias_stack walk; /* grown by the decisions, enough for the rewrite */
  int errors;
  opsched_note_budget notes; /* the remarks of allocations left alone */
} arena_job;


/* Ops whose memref result aliases their first operand: a buffer used
 * through them is still the same buffer. */
static int is_alias_op(MlirOperation op) {
  static const char *const names[] = {
      "memref.subview",         "memref.cast",          "memref.reinterpret_cast",
      "memref.expand_shape",    "memref.collapse_shape", "memref.view",
      "memref.transpose",       "memref.reshape",        "memref.memory_space_cast",
      "memref.assume_alignment"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (opsched_op_is(op, names[i]))
      return 1;
  return 0;
}

/* Whether a use of a buffer by `user` (as operand `index`) lets the buffer
 * outlive the function body or leave the analysis: returned, yielded out
 * of a region, passed to a call, stored as a value, or turned into a value
 * we do not follow. */
static int use_escapes(MlirOperation user, intptr_t index) {
  if (opsched_op_is(user, "func.return") || opsched_op_is(user, "func.call") ||
      opsched_op_is(user, "func.call_indirect") || opsched_op_is_terminator_like(user))
    return 1;
  if ((opsched_op_is(user, "memref.store") || opsched_op_is(user, "llvm.store")) &&
      index == 0)
    return 1;
  if (opsched_op_is(user, "memref.dealloc"))
    return 0;
  /* An unknown op that returns a memref (or a tensor: to_tensor) may alias
   * the buffer. */
  for (intptr_t r = 0; r < mlirOperationGetNumResults(user); r++) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(user, r));
    if (mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t) || mlirTypeIsATensor(t))
      return 1;
  }
  return 0;
}

/* Removes a deallocation of the arena's buffer. A scheduled one keeps its
 * place in the plan: its waits, and the waits on it, may be all that orders
 * two streams (a later op of its stream relies on them), so an
 * `arith.constant 0 : index` with its opsched attributes takes its place. */
static void erase_dealloc(MlirOperation dealloc) {
  if (!mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
          dealloc, mlirStringRefCreateFromCString(OPSCHED_ATTR_STREAM)))) {
    MlirContext ctx = mlirOperationGetContext(dealloc);
    MlirType index = mlirIndexTypeGet(ctx);
    MlirNamedAttribute value = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("value")),
        mlirIntegerAttrGet(index, 0));
    MlirOperationState st = mlirOperationStateGet(
        mlirStringRefCreateFromCString("arith.constant"), mlirOperationGetLocation(dealloc));
    mlirOperationStateAddResults(&st, 1, &index);
    mlirOperationStateAddAttributes(&st, 1, &value);
    MlirOperation stand_in = mlirOperationCreate(&st);
    for (intptr_t i = 0, n = mlirOperationGetNumDiscardableAttributes(dealloc); i < n; i++) {
      MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(dealloc, i);
      mlirOperationSetDiscardableAttributeByName(stand_in, mlirIdentifierStr(a.name),
                                                 a.attribute);
    }
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(dealloc), dealloc, stand_in);
  }
  mlirOperationDestroy(dealloc);
}

static int stack_push(alias_stack *w, size_t *n, MlirValue v) {
  if (*n == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 16;
    MlirValue *p = realloc(w->v, sizeof *p * cap);
    if (!p)
      return 1;
    w->v = p;
    w->cap = cap;
  }
  w->v[(*n)++] = v;
  return 0;
}

/* Walks the uses of `root` and of its aliases; returns 1 when one escapes
 * (or, deciding, when out of memory: the buffer then keeps its own
 * allocation). With `erase_deallocs`, destroys the deallocations met on
 * the way: that walk runs after the rewrite, on the view, over the tree
 * the decision walked, so the stack needs no more room. */
static int buffer_escapes(alias_stack *w, MlirValue root, int erase_deallocs) {
  size_t n = 0;
  if (stack_push(w, &n, root))
    return 1;
  while (n > 0) {
    MlirValue v = w->v[--n];
    MlirOpOperand use = mlirValueGetFirstUse(v);
    while (!mlirOpOperandIsNull(use)) {
      MlirOperation user = mlirOpOperandGetOwner(use);
      intptr_t index = (intptr_t)mlirOpOperandGetOperandNumber(use);
      use = mlirOpOperandGetNextUse(use);
      if (is_alias_op(user) && index == 0) {
        for (intptr_t r = 0; r < mlirOperationGetNumResults(user); r++)
          if (stack_push(w, &n, mlirOperationGetResult(user, r)))
            return 1;
        continue;
      }
      if (opsched_op_is(user, "memref.dealloc")) {
        if (erase_deallocs)
          erase_dealloc(user);
        continue;
      }
      if (use_escapes(user, index))
        return 1;
    }
  }
  return 0;
}

/* Storage bytes of a static identity-layout memref, or -1 with `why` set. */
static int64_t memref_bytes(MlirType t, const char **why) {
  if (!mlirShapedTypeHasStaticShape(t)) {
    *why = "dynamic shape";
    return -1;
  }
  if (!mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t))) {
    *why = "non-identity layout (a view into the arena has the identity layout)";
    return -1;
  }
  if (!mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(t))) {
    *why = "non-default memory space";
    return -1;
  }
  int64_t elem = opsched_type_storage_bytes(mlirShapedTypeGetElementType(t));
  if (elem <= 0) {
    *why = "element type without a fixed byte size";
    return -1;
  }
  int64_t n = elem;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
    n *= mlirShapedTypeGetDimSize(t, d);
  return n;
}

static int job_push(arena_job *j, arena_buffer b) {
  if (j->count == j->cap) {
    size_t cap = j->cap ? 2 * j->cap : 16;
    arena_buffer *n = realloc(j->buffers, cap * sizeof *n);
    if (!n)
      return 0;
    j->buffers = n;
    j->cap = cap;
  }
  j->buffers[j->count++] = b;
  return 1;
}

/* Checks one annotated allocation; returns its verdict (offset < 0: keep). */
static arena_buffer classify(arena_job *j, MlirOperation alloc) {
  arena_buffer b = {alloc, {NULL}, -1, -1};
  int64_t offset, size;
  int has_off = opsched_read_single_i64(alloc, OPSCHED_ATTR_OFFSET, &offset);
  int has_size = opsched_read_single_i64(alloc, OPSCHED_ATTR_SIZE, &size);
  if (has_off == 0) {
    opsched_note_at(&j->notes, OPSCHED_NOTE_ARENA_NO_OFFSET, alloc);
    return b;
  }
  if (has_off < 0 || has_size <= 0) {
    opsched_emitf(alloc, OPSCHED_SEVERITY_ERROR,
            "opsched: malformed opsched.offset / opsched.size (want array<i64: N> with one "
            "entry per result)");
    j->errors++;
    return b;
  }
  if (offset == -2) {
    opsched_note_at(&j->notes, OPSCHED_NOTE_ARENA_DYNAMIC, alloc);
    return b;
  }
  if (offset < 0)
    return b; /* no buffer of its own: nothing to place */
  const char *why = NULL;
  int64_t bytes = memref_bytes(mlirValueGetType(mlirOperationGetResult(alloc, 0)), &why);
  if (j->arena_size < 0) {
    if (!j->errors)
      opsched_emitf(j->func, OPSCHED_SEVERITY_ERROR,
                    "opsched: allocations carry opsched.offset but the function has no "
                    "opsched.arena_size (run op-schedule with buffer-slots)");
    j->errors++;
    return b;
  }
  if (size < 0 || offset > j->arena_size - size) {
    opsched_emitf(alloc, OPSCHED_SEVERITY_ERROR,
            "opsched: buffer at offset %lld of %lld bytes lies outside the arena "
            "(opsched.arena_size = %lld)",
            (long long)offset, (long long)size, (long long)j->arena_size);
    j->errors++;
    return b;
  }
  if (offset % j->alignment != 0) {
    opsched_emitf(alloc, OPSCHED_SEVERITY_ERROR,
            "opsched: opsched.offset %lld is not a multiple of opsched.alignment %lld",
            (long long)offset, (long long)j->alignment);
    j->errors++;
    return b;
  }
  if (bytes < 0) {
    opsched_note_atf(&j->notes, OPSCHED_NOTE_ARENA_UNSIZED, alloc,
                     "opsched: %s: the buffer keeps its own allocation", why);
    return b;
  }
  int64_t own_align = 0;
  MlirAttribute align_attr = mlirOperationGetAttributeByName(
      alloc, mlirStringRefCreateFromCString("alignment"));
  if (!mlirAttributeIsNull(align_attr) && mlirAttributeIsAInteger(align_attr))
    own_align = mlirIntegerAttrGetValueInt(align_attr);
  if (own_align > 0 && offset % own_align != 0) {
    opsched_note_atf(&j->notes, OPSCHED_NOTE_ARENA_ALIGNMENT, alloc,
                     "opsched: the allocation asks for alignment %lld, which offset %lld in "
                     "the arena does not give: it keeps its own allocation",
                     (long long)own_align, (long long)offset);
    return b;
  }
  if (bytes > size) {
    opsched_emitf(alloc, OPSCHED_SEVERITY_ERROR,
            "opsched: the buffer needs %lld bytes but opsched.size gives %lld",
            (long long)bytes, (long long)size);
    j->errors++;
    return b;
  }
  if (buffer_escapes(&j->walk, mlirOperationGetResult(alloc, 0), 0)) {
    opsched_note_at(&j->notes, OPSCHED_NOTE_ARENA_ESCAPES, alloc);
    return b;
  }
  b.offset = offset;
  b.size = size;
  return b;
}

/* Reads the function's arena attributes; -1 when absent. */
static int read_function_attrs(arena_job *j) {
  j->arena_size = -1;
  j->alignment = 64;
  MlirAttribute a = mlirOperationGetDiscardableAttributeByName(
      j->func, mlirStringRefCreateFromCString(OPSCHED_ATTR_ARENA_SIZE));
  if (!mlirAttributeIsNull(a)) {
    if (!mlirAttributeIsAInteger(a) || mlirIntegerAttrGetValueInt(a) < 0) {
      opsched_emitf(j->func, OPSCHED_SEVERITY_ERROR,
              "opsched: opsched.arena_size must be an integer >= 0");
      return 0;
    }
    j->arena_size = mlirIntegerAttrGetValueInt(a);
  }
  a = mlirOperationGetDiscardableAttributeByName(
      j->func, mlirStringRefCreateFromCString(OPSCHED_ATTR_ALIGNMENT));
  if (!mlirAttributeIsNull(a)) {
    int64_t v = mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : 0;
    if (v <= 0 || (v & (v - 1)) != 0) {
      opsched_emitf(j->func, OPSCHED_SEVERITY_ERROR,
              "opsched: opsched.alignment must be a power of two");
      return 0;
    }
    j->alignment = v;
  }
  return 1;
}

/* Collects and checks the allocations: the body's blocks are the arena's;
 * an allocation in a nested region keeps its memory (its block has its own
 * arena in the plan, and the region may run many times). */
static int collect(arena_job *j, MlirRegion body, int report_unannotated, int *annotated) {
  MlirOperation first_alloc = {NULL};
  int any_annotated = 0;
  for (MlirBlock blk = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk))
    for (MlirOperation op = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      if (opsched_op_is(op, "memref.alloc")) {
        if (mlirOperationIsNull(first_alloc))
          first_alloc = op;
        any_annotated |= !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
            op, mlirStringRefCreateFromCString(OPSCHED_ATTR_OFFSET)));
      }
  *annotated = any_annotated;
  if (!any_annotated) {
    if (mlirOperationIsNull(first_alloc) || !report_unannotated)
      return 1;
    opsched_emitf(first_alloc, OPSCHED_SEVERITY_ERROR,
                  "opsched: no buffer slots to materialize: run op-schedule (buffer-slots) "
                  "on the bufferized function first");
    return 0;
  }
  for (MlirBlock blk = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk))
    for (MlirOperation op = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      if (!opsched_op_is(op, "memref.alloc"))
        continue;
      arena_buffer b = classify(j, op);
      if (b.offset >= 0 && !job_push(j, b)) {
        opsched_emitf(op, OPSCHED_SEVERITY_ERROR, "opsched: out of memory");
        j->errors++;
      }
    }
  return j->errors == 0;
}

static MlirOperation create_op(const char *name, MlirLocation loc, intptr_t nresults,
                               const MlirType *results, intptr_t noperands,
                               const MlirValue *operands, intptr_t nattrs,
                               const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  mlirOperationStateAddResults(&st, nresults, results);
  mlirOperationStateAddOperands(&st, noperands, operands);
  mlirOperationStateAddAttributes(&st, nattrs, attrs);
  return mlirOperationCreate(&st);
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)),
                               a);
}

/* The view replacing one allocation; it inherits the allocation's schedule
 * attributes (stream, id, waits, times) so later passes see the same plan. */
static void rewrite_buffer(alias_stack *walk, MlirValue arena, MlirBlock entry,
                           MlirOperation *prelude_end, const arena_buffer *first,
                           arena_buffer *b) {
  MlirContext ctx = mlirOperationGetContext(b->alloc);
  MlirLocation loc = mlirOperationGetLocation(b->alloc);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirValue shift = {NULL};
  for (const arena_buffer *p = first; p < b && mlirValueIsNull(shift); p++)
    if (p->offset == b->offset)
      shift = mlirOperationGetOperand(p->view, 1); /* one constant per offset */
  if (mlirValueIsNull(shift)) {
    MlirNamedAttribute value = named(ctx, "value", mlirIntegerAttrGet(index, b->offset));
    MlirOperation cst = create_op("arith.constant", loc, 1, &index, 0, NULL, 1, &value);
    mlirBlockInsertOwnedOperationAfter(entry, *prelude_end, cst);
    *prelude_end = cst; /* the offsets follow the arena, in buffer order */
    shift = mlirOperationGetResult(cst, 0);
  }
  MlirValue operands[2] = {arena, shift};
  MlirType type = mlirValueGetType(mlirOperationGetResult(b->alloc, 0));
  MlirOperation view = create_op("memref.view", loc, 1, &type, 2, operands, 0, NULL);
  b->view = view;
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(b->alloc), b->alloc, view);
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(b->alloc); i++) {
    MlirNamedAttribute na = mlirOperationGetDiscardableAttribute(b->alloc, i);
    MlirStringRef n = mlirIdentifierStr(na.name);
    if (mlirStringRefEqual(n, mlirStringRefCreateFromCString(OPSCHED_ATTR_OFFSET)) ||
        mlirStringRefEqual(n, mlirStringRefCreateFromCString(OPSCHED_ATTR_SIZE)))
      continue;
    mlirOperationSetDiscardableAttributeByName(view, n, na.attribute);
  }
  MlirValue result = mlirOperationGetResult(view, 0);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(b->alloc, 0), result);
  mlirOperationDestroy(b->alloc);
  buffer_escapes(walk, result, 1); /* drops the deallocations */
}

static void rewrite(arena_job *j, MlirRegion body) {
  MlirContext ctx = mlirOperationGetContext(j->func);
  MlirLocation loc = mlirOperationGetLocation(j->func);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  int64_t shape[1] = {j->arena_size > 0 ? j->arena_size : 1};
  MlirType arena_type = mlirMemRefTypeContiguousGet(
      mlirIntegerTypeGet(ctx, 8), 1, shape, mlirAttributeGetNull());
  int32_t segments[2] = {0, 0};
  MlirNamedAttribute attrs[2] = {
      named(ctx, "alignment", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), j->alignment)),
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, segments))};
  MlirOperation arena = create_op("memref.alloc", loc, 1, &arena_type, 0, NULL, 2, attrs);
  mlirBlockInsertOwnedOperationBefore(entry, first, arena);
  MlirValue arena_value = mlirOperationGetResult(arena, 0);
  MlirOperation prelude_end = arena;
  for (size_t i = 0; i < j->count; i++)
    rewrite_buffer(&j->walk, arena_value, entry, &prelude_end, j->buffers, &j->buffers[i]);
  for (MlirBlock blk = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk)) {
    MlirOperation term = mlirBlockGetTerminator(blk);
    if (mlirOperationIsNull(term) || !opsched_op_is(term, "func.return"))
      continue;
    MlirOperation dealloc = create_op("memref.dealloc", loc, 0, NULL, 1, &arena_value, 0, NULL);
    mlirBlockInsertOwnedOperationBefore(blk, term, dealloc);
  }
}

MlirLogicalResult opsched_mlir_materialize_arena(MlirOperation func, int report_unannotated,
                                              int *annotated) {
  *annotated = 0;
  if (mlirOperationGetNumRegions(func) == 0)
    return mlirLogicalResultSuccess();
  MlirRegion body = mlirOperationGetRegion(func, 0);
  if (mlirBlockIsNull(mlirRegionGetFirstBlock(body)))
    return mlirLogicalResultSuccess(); /* a declaration */
  arena_job j;
  memset(&j, 0, sizeof j);
  j.func = func;
  int ok = read_function_attrs(&j) && collect(&j, body, report_unannotated, annotated);
  opsched_note_flush(&j.notes);
  if (ok && j.count > 0)
    rewrite(&j, body);
  free(j.buffers);
  free(j.walk.v);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
