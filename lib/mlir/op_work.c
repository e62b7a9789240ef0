#include "op_work.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "queries.h"

#include <stdlib.h>
#include <string.h>

static int str_eq(MlirStringRef s, const char *lit) { /* inline, no strlen: most misses stop at once */
  size_t i = 0;
  for (; i < s.length; i++)
    if (lit[i] != s.data[i] || lit[i] == '\0')
      return 0;
  return lit[i] == '\0';
}

static int str_prefix(MlirStringRef s, const char *lit) {
  size_t n = strlen(lit);
  return s.length >= n && memcmp(s.data, lit, n) == 0;
}

static int64_t sat_mul(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  if (a > INT64_MAX / b)
    return INT64_MAX;
  return a * b;
}

/* Elements of `rank` sizes (dynamic ones count as 1 and set *dynamic). */
static int64_t numel_of(const int64_t *dims, intptr_t rank, int *dynamic) {
  int64_t numel = 1;
  for (intptr_t d = 0; d < rank; d++) {
    if (dims[d] == mlirShapedTypeGetDynamicSize()) {
      *dynamic = 1;
      continue;
    }
    numel = sat_mul(numel, dims[d]);
  }
  return numel;
}

int64_t opsched_element_bits(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return mlirIntegerTypeGetWidth(t);
  if (mlirTypeIsAIndex(t))
    return 64;
  int64_t width = opsched_mlir_float_width(t);
  if (width > 0)
    return width;
  if (mlirTypeIsAComplex(t))
    return 2 * opsched_element_bits(mlirComplexTypeGetElementType(t));
  const int64_t *dims;
  MlirType element;
  intptr_t rank = opsched_mlir_type_shape(t, &dims, &element);
  if (rank >= -1) /* vector element of a tensor, etc. */
    return sat_mul(rank < 0 ? 1 : numel_of(dims, rank, &(int){0}), opsched_element_bits(element));
  return 0;
}

int64_t opsched_shaped_numel(MlirType t, int *dynamic) {
  const int64_t *dims;
  MlirType element;
  intptr_t rank = opsched_mlir_type_shape(t, &dims, &element);
  if (rank < 0) {
    *dynamic = 1;
    return 1;
  }
  return numel_of(dims, rank, dynamic);
}

int64_t opsched_type_bytes(MlirType t, int *dynamic) {
  const int64_t *dims;
  MlirType element;
  intptr_t rank = opsched_mlir_type_shape(t, &dims, &element);
  if (rank == -2)
    return 0;
  int64_t numel = 1;
  if (rank < 0)
    *dynamic = 1;
  else
    numel = numel_of(dims, rank, dynamic);
  int64_t bits = sat_mul(numel, opsched_element_bits(element));
  return bits == INT64_MAX ? INT64_MAX : (bits + 7) / 8;
}

/* ---- Memo ---------------------------------------------------------------- */

enum { TYPE_MEMO = 256, LINALG_MEMO = 256, LINALG_MAX_OPERANDS = 8, MAPS_MEMO = 64,
       NAME_MEMO = 64 };

typedef struct type_entry {
  const void *type; /* NULL: empty */
  int64_t bytes;
  int dynamic;
} type_entry;

typedef struct linalg_entry {
  const void *maps; /* NULL: empty */
  const void *types[LINALG_MAX_OPERANDS];
  intptr_t noperands;
  double body_ops;
  opsched_op_work work;
  int dynamic;
} linalg_entry;

/* A linalg op's indexing maps by what they depend on: its name and
 * properties (compared with those of `op`, the op they were asked of), its
 * attribute dictionary and its operand types (a named op's maps are built
 * anew on each request, e.g. from the operands' rank). The ops of the
 * function being planned outlive the memo. */
typedef struct maps_entry {
  const void *name; /* NULL: empty */
  const void *dict;
  const void *types[LINALG_MAX_OPERANDS];
  intptr_t noperands;
  MlirOperation op;
  MlirAttribute maps;
} maps_entry;

/* What measure_memo asks of an op's name, memoized per name (one
 * identifier per name). */
enum {
  NAME_FREE = 1,         /* is_free_op */
  NAME_LINALG = 2,       /* "linalg." */
  NAME_INSERT_SLICE = 4, /* moves its source */
  NAME_COPY_RESULT = 8,  /* pad, concat, gather, scatter: moves its result */
  NAME_ELEMENTWISE = 16, /* "arith." or "math." */
  NAME_SET = 32          /* the entry is filled */
};

typedef struct name_entry {
  const void *name;
  int cls;
} name_entry;

/* Direct-mapped tables of a power of two entries each, at most the
 * *_MEMO sizes: one allocation, sized by the ops it is made for (a
 * function of ten ops zeroed 50 KB for the full tables). */
struct opsched_work_memo {
  size_t type_mask, linalg_mask, maps_mask, name_mask;
  type_entry *types;
  linalg_entry *linalg;
  maps_entry *maps;
  name_entry *names;
};

/* The entries for `ops` ops: the least power of two >= ops, in [16, most]. */
static size_t memo_entries(size_t ops, size_t most) {
  size_t c = 16;
  while (c < ops && c < most)
    c *= 2;
  return c;
}

opsched_work_memo *opsched_work_memo_new(size_t ops) {
  size_t nt = memo_entries(ops, TYPE_MEMO), nl = memo_entries(ops, LINALG_MEMO);
  size_t nm = memo_entries(ops, MAPS_MEMO), nn = memo_entries(ops, NAME_MEMO);
  /* Every entry type holds pointers: each table starts aligned for them. */
  size_t at_linalg = sizeof *(opsched_work_memo *)0 + nt * sizeof(type_entry);
  size_t at_maps = at_linalg + nl * sizeof(linalg_entry);
  size_t at_names = at_maps + nm * sizeof(maps_entry);
  char *m = calloc(1, at_names + nn * sizeof(name_entry));
  if (!m)
    return NULL;
  opsched_work_memo *memo = (opsched_work_memo *)m;
  memo->types = (type_entry *)(m + sizeof *memo);
  memo->linalg = (linalg_entry *)(m + at_linalg);
  memo->maps = (maps_entry *)(m + at_maps);
  memo->names = (name_entry *)(m + at_names);
  memo->type_mask = nt - 1;
  memo->linalg_mask = nl - 1;
  memo->maps_mask = nm - 1;
  memo->name_mask = nn - 1;
  return memo;
}

int opsched_work_memo_fits(const opsched_work_memo *memo, size_t ops) {
  return memo && memo->type_mask + 1 >= memo_entries(ops, TYPE_MEMO);
}

void opsched_work_memo_free(opsched_work_memo *memo) { free(memo); }

static size_t ptr_hash(const void *p) {
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 32);
}

/* opsched_type_bytes, through `memo` (nullable). */
static int64_t type_bytes(opsched_work_memo *memo, MlirType t, int *dynamic) {
  if (!memo)
    return opsched_type_bytes(t, dynamic);
  type_entry *e = &memo->types[ptr_hash(t.ptr) & memo->type_mask];
  if (e->type != t.ptr) {
    e->dynamic = 0;
    e->bytes = opsched_type_bytes(t, &e->dynamic);
    e->type = t.ptr;
  }
  *dynamic |= e->dynamic;
  return e->bytes;
}

/* Ops that only create a view, a constant or an empty allocation: no kernel. */
static int is_free_op(MlirStringRef name) {
  static const char *const names[] = {
      "arith.constant",      "tensor.empty",         "tensor.expand_shape",
      "tensor.collapse_shape", "tensor.reshape",     "tensor.cast",
      "tensor.extract_slice", /* bufferizes to a subview */
      "tensor.bitcast",      "tensor.dim",           "memref.alloc",
      "memref.alloca",       "memref.dealloc",       "memref.subview",
      "memref.cast",         "memref.reinterpret_cast", "memref.expand_shape",
      "memref.collapse_shape", "memref.view",        "memref.dim",
      "bufferization.alloc_tensor", "bufferization.to_tensor",
      "bufferization.to_buffer", "ml_program.global_load_const"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (str_eq(name, names[i]))
      return 1;
  return 0;
}

static int has_shaped(MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; i++)
    if (mlirTypeIsAShaped(mlirValueGetType(mlirOperationGetResult(op, i))))
      return 1;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; i++)
    if (mlirTypeIsAShaped(mlirValueGetType(mlirOperationGetOperand(op, i))))
      return 1;
  return 0;
}

static double operand_bytes(MlirOperation op, int *dynamic, opsched_work_memo *memo) {
  double bytes = 0;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; i++)
    bytes += (double)type_bytes(memo, mlirValueGetType(mlirOperationGetOperand(op, i)), dynamic);
  return bytes;
}

static double result_bytes(MlirOperation op, int *dynamic, opsched_work_memo *memo) {
  double bytes = 0;
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; i++)
    bytes += (double)type_bytes(memo, mlirValueGetType(mlirOperationGetResult(op, i)), dynamic);
  return bytes;
}

/* Whether some loop of `nloops` is not a plain dim of the output's map
 * (the last one): a reduction loop, as linalg's iterator types say. */
static int has_reduction_loop(MlirAffineMap out, intptr_t nloops) {
  uint64_t used = 0;
  for (intptr_t r = 0, nr = mlirAffineMapGetNumResults(out); r < nr; r++) {
    MlirAffineExpr e = mlirAffineMapGetResult(out, r);
    if (mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) < 64)
      used |= (uint64_t)1 << mlirAffineDimExprGetPosition(e);
  }
  for (intptr_t l = 0; l < nloops && l < 64; l++)
    if (!(used & ((uint64_t)1 << l)))
      return 1;
  return 0;
}

/* The outermost result of map `m` the innermost loop indexes when it does
 * not index the last (contiguous) one: the loop strides across the
 * operand along that dimension. -1 otherwise. */
static intptr_t strided_result(MlirAffineMap m, intptr_t inner) {
  intptr_t nr = mlirAffineMapGetNumResults(m);
  if (nr < 2 || mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(m, nr - 1), inner))
    return -1;
  for (intptr_t r = 0; r < nr - 1; r++)
    if (mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(m, r), inner))
      return r;
  return -1;
}

/* Iterations that stride across an operand, its bytes (the largest), and
 * whether some such stride is a multiple of 4 KiB: then every access maps
 * to the same cache sets and a new page. */
static void measure_strides(MlirOperation op, MlirAttribute maps, intptr_t nloops, double domain,
                            opsched_op_work *w, int *dynamic) {
  for (intptr_t m = 0, nmaps = mlirArrayAttrGetNumElements(maps); m < nmaps && nloops > 0; m++) {
    intptr_t r = strided_result(mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, m)), nloops - 1);
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, m));
    if (r < 0 || !mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t) || r >= mlirShapedTypeGetRank(t))
      continue;
    int64_t stride = (opsched_element_bits(mlirShapedTypeGetElementType(t)) + 7) / 8;
    for (intptr_t q = r + 1; q < mlirShapedTypeGetRank(t); q++)
      stride = mlirShapedTypeIsDynamicDim(t, q) ? 0 : sat_mul(stride, mlirShapedTypeGetDimSize(t, q));
    double bytes = (double)opsched_type_bytes(t, dynamic);
    w->strided += domain;
    if (bytes > w->strided_bytes)
      w->strided_bytes = bytes;
    if (stride > 0 && stride % 4096 == 0)
      w->strided_aligned = 1;
  }
}

/* Arithmetic per iteration: the body's ops but its terminator and
 * linalg.index (an induction variable, not arithmetic). */
static double body_op_count(MlirOperation op) {
  double body_ops = 0;
  if (mlirOperationGetNumRegions(op) > 0) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    if (!mlirBlockIsNull(body))
      for (MlirOperation b = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(b);
           b = mlirOperationGetNextInBlock(b)) {
        MlirStringRef bn = mlirIdentifierStr(mlirOperationGetName(b));
        if (!str_eq(bn, "linalg.yield") && !str_eq(bn, "linalg.index"))
          body_ops += 1;
      }
  }
  return body_ops;
}

enum { MAX_LOOPS = 32 };

/* measure_linalg's answer from the maps, the operand types and the body's
 * op count, which are all it reads. */
static void measure_linalg_fresh(MlirOperation op, MlirAttribute maps, intptr_t nmaps,
                                 intptr_t nloops, double body_ops, opsched_op_work *w,
                                 int *dynamic, opsched_work_memo *memo) {
  int64_t range[MAX_LOOPS];
  for (intptr_t l = 0; l < nloops; l++)
    range[l] = -1;
  for (intptr_t m = 0; m < nmaps; m++) {
    MlirAffineMap map = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, m));
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, m));
    if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t))
      continue;
    for (intptr_t r = 0, nr = mlirAffineMapGetNumResults(map); r < nr; r++) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, r);
      if (!mlirAffineExprIsADim(e) || r >= mlirShapedTypeGetRank(t))
        continue;
      intptr_t l = mlirAffineDimExprGetPosition(e);
      if (l < nloops && range[l] < 0 && !mlirShapedTypeIsDynamicDim(t, r))
        range[l] = mlirShapedTypeGetDimSize(t, r);
    }
  }
  w->reduction = has_reduction_loop(mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, nmaps - 1)),
                                    nloops);
  double domain = 1;
  for (intptr_t l = 0; l < nloops; l++) {
    if (range[l] < 0) {
      *dynamic = 1;
      continue;
    }
    domain *= (double)range[l];
  }
  w->flops = domain * body_ops;
  w->bytes = operand_bytes(op, dynamic, memo);
  measure_strides(op, maps, nloops, domain, w, dynamic);
}

/* The memo's entry for `op` (its maps, operand types and body op count),
 * and whether it holds `op`'s answer; NULL when it cannot hold one. */
static linalg_entry *linalg_memo_entry(opsched_work_memo *memo, MlirOperation op,
                                       MlirAttribute maps, double body_ops, int *hit) {
  *hit = 0;
  intptr_t n = mlirOperationGetNumOperands(op);
  if (!memo || n > LINALG_MAX_OPERANDS)
    return NULL;
  const void *types[LINALG_MAX_OPERANDS];
  uint64_t h = (uint64_t)ptr_hash(maps.ptr) ^ (uint64_t)n ^ (uint64_t)body_ops;
  for (intptr_t i = 0; i < n; i++) {
    types[i] = mlirValueGetType(mlirOperationGetOperand(op, i)).ptr;
    h = h * 31 + ptr_hash(types[i]);
  }
  linalg_entry *e = &memo->linalg[h & memo->linalg_mask];
  *hit = e->maps == maps.ptr && e->noperands == n && e->body_ops == body_ops &&
         memcmp(e->types, types, sizeof *types * (size_t)n) == 0;
  if (!*hit) {
    e->maps = NULL; /* filled once measured */
    e->noperands = n;
    e->body_ops = body_ops;
    memcpy(e->types, types, sizeof *types * (size_t)n);
  }
  return e;
}

/* mlirLinalgGetIndexingMapsAttribute(op), through `memo` (nullable). */
static MlirAttribute indexing_maps(opsched_work_memo *memo, MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  if (!memo || n > LINALG_MAX_OPERANDS)
    return mlirLinalgGetIndexingMapsAttribute(op);
  maps_entry key;
  memset(&key, 0, sizeof key);
  key.name = mlirOperationGetName(op).ptr;
  key.dict = opsched_mlir_op_attr_dict(op);
  key.noperands = n;
  key.op = op;
  uint64_t h = (uint64_t)ptr_hash(key.name) ^ (uint64_t)ptr_hash(key.dict) * 3 ^ (uint64_t)n;
  for (intptr_t i = 0; i < n; i++) {
    key.types[i] = mlirValueGetType(mlirOperationGetOperand(op, i)).ptr;
    h = h * 31 + ptr_hash(key.types[i]);
  }
  maps_entry *e = &memo->maps[h & memo->maps_mask];
  if (e->name == key.name && e->dict == key.dict && e->noperands == n &&
      memcmp(e->types, key.types, sizeof *key.types * (size_t)n) == 0 &&
      opsched_mlir_op_same_properties(e->op, op))
    return e->maps;
  key.maps = mlirLinalgGetIndexingMapsAttribute(op);
  *e = key;
  return key.maps;
}

/* Structured (linalg) op: iteration domain x arithmetic ops in the body.
 * Loop ranges come from operands whose indexing-map results are plain dims,
 * as LinalgOp::getStaticLoopRanges does. Returns 0 if `op` is not one. */
static int measure_linalg(MlirOperation op, opsched_op_work *w, int *dynamic,
                          opsched_work_memo *memo) {
  MlirAttribute maps = indexing_maps(memo, op);
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps))
    return 0;
  intptr_t nmaps = mlirArrayAttrGetNumElements(maps);
  if (nmaps == 0 || nmaps > mlirOperationGetNumOperands(op))
    return 0;
  intptr_t nloops = mlirAffineMapGetNumDims(mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0)));
  if (nloops > MAX_LOOPS)
    return 0;
  double body_ops = body_op_count(op);
  int hit;
  linalg_entry *e = linalg_memo_entry(memo, op, maps, body_ops, &hit);
  if (hit) {
    *w = e->work;
    *dynamic |= e->dynamic;
    return 1;
  }
  int dyn = 0;
  measure_linalg_fresh(op, maps, nmaps, nloops, body_ops, w, &dyn, memo);
  *dynamic |= dyn;
  if (e) {
    e->work = *w;
    e->dynamic = dyn;
    e->maps = maps.ptr;
  }
  return 1;
}

void opsched_op_work_measure(MlirOperation op, opsched_op_work *w, int *dynamic) {
  opsched_op_work_measure_memo(op, w, dynamic, NULL);
}

static int name_class_of(MlirStringRef name) {
  int cls = NAME_SET;
  if (is_free_op(name))
    cls |= NAME_FREE;
  if (str_prefix(name, "linalg."))
    cls |= NAME_LINALG;
  if (str_eq(name, "tensor.insert_slice") || str_eq(name, "tensor.parallel_insert_slice"))
    cls |= NAME_INSERT_SLICE;
  if (str_eq(name, "tensor.pad") || str_eq(name, "tensor.concat") ||
      str_eq(name, "tensor.gather") || str_eq(name, "tensor.scatter"))
    cls |= NAME_COPY_RESULT;
  if (str_prefix(name, "arith.") || str_prefix(name, "math."))
    cls |= NAME_ELEMENTWISE;
  return cls;
}

/* The NAME_* classes of `op`'s name, through `memo` (nullable). */
static int name_class(opsched_work_memo *memo, MlirOperation op) {
  MlirIdentifier id = mlirOperationGetName(op);
  if (!memo)
    return name_class_of(mlirIdentifierStr(id));
  name_entry *e = &memo->names[ptr_hash(id.ptr) & memo->name_mask];
  if (e->name != id.ptr || !e->cls) {
    e->cls = name_class_of(mlirIdentifierStr(id));
    e->name = id.ptr;
  }
  return e->cls;
}

void opsched_op_work_measure_memo(MlirOperation op, opsched_op_work *w, int *dynamic,
                                  opsched_work_memo *memo) {
  memset(w, 0, sizeof *w);
  int cls = name_class(memo, op);
  if ((cls & NAME_FREE) || !has_shaped(op)) {
    /* Views, constants, allocations and host-side scalar code launch
     * nothing on the device. */
    w->is_free = 1;
    return;
  }
  if ((cls & NAME_LINALG) && measure_linalg(op, w, dynamic, memo))
    return;
  if (cls & NAME_INSERT_SLICE) {
    /* Moves the source into the destination. */
    int64_t src = type_bytes(memo, mlirValueGetType(mlirOperationGetOperand(op, 0)), dynamic);
    w->bytes = 2.0 * (double)src;
    return;
  }
  if (cls & NAME_COPY_RESULT) {
    w->bytes = 2.0 * result_bytes(op, dynamic, memo);
    return;
  }
  double out = result_bytes(op, dynamic, memo);
  w->bytes = operand_bytes(op, dynamic, memo) + out;
  if ((cls & NAME_ELEMENTWISE) && mlirOperationGetNumResults(op) > 0) {
    /* Elementwise on tensors: one operation per result element. */
    int dyn = 0;
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    w->flops = mlirTypeIsAShaped(t) ? (double)opsched_shaped_numel(t, &dyn) : 1.0;
    *dynamic |= dyn;
  }
}
