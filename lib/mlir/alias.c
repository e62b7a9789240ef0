#include "alias.h"
#include "op_name.h"

#include "queries.h"

#include "mlir-c/BuiltinTypes.h"

#include <stdlib.h>
#include <string.h>

/* Views of views are followed this far; a longer chain (only a graph
 * region's cycle could make one endless) is of unknown origin. */
enum { VIEW_CHAIN_MAX = 1 << 16 };

static int is_memref(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t);
}

int opsched_alias_init(opsched_alias *a, int32_t cap) {
  memset(a, 0, sizeof *a);
  a->cap = cap + 1;
  a->count = 1; /* the unknown class */
  a->escaped = calloc((size_t)a->cap, 1);
  if (!a->escaped || opsched_ptrmap_init(&a->roots, (size_t)a->cap)) {
    free(a->escaped);
    a->escaped = NULL;
    return 1;
  }
  a->escaped[OPSCHED_ALIAS_UNKNOWN] = 1;
  return 0;
}

void opsched_alias_free(opsched_alias *a) {
  opsched_ptrmap_free(&a->roots);
  free(a->escaped);
  free(a->work);
}

static int push_work(opsched_alias *a, MlirValue v) {
  if (a->nwork == a->capwork) {
    size_t cap = a->capwork ? 2 * a->capwork : 16;
    MlirValue *p = realloc(a->work, sizeof *p * cap);
    if (!p)
      return 1;
    a->work = p;
    a->capwork = cap;
  }
  a->work[a->nwork++] = v;
  return 0;
}

/* The value `v` is a view of: the view source of its defining op, or the
 * memref behind a to_buffer of a to_tensor; null at a root. */
static MlirValue viewed(MlirValue v) {
  MlirValue none = {NULL};
  if (!mlirValueIsAOpResult(v))
    return none;
  MlirOperation def = mlirOpResultGetOwner(v);
  intptr_t src = opsched_mlir_view_source(def);
  if (src >= 0)
    return mlirOperationGetOperand(def, src);
  if (opsched_mlir_op_is(def, "bufferization.to_buffer") && mlirOperationGetNumOperands(def) == 1) {
    MlirValue t = mlirOperationGetOperand(def, 0);
    if (mlirValueIsAOpResult(t) &&
        opsched_mlir_op_is(mlirOpResultGetOwner(t), "bufferization.to_tensor"))
      return mlirOperationGetOperand(mlirOpResultGetOwner(t), 0);
  }
  return none;
}

/* Whether the use of `v` as operand `k` of `user` keeps the buffer inside
 * the function's known accesses: a view of it (whose uses are followed),
 * or an op that reads, writes or frees it. */
static int use_escapes(opsched_alias *a, MlirOperation user, intptr_t k, MlirValue v) {
  if (opsched_mlir_view_source(user) == k) {
    for (intptr_t r = 0, n = mlirOperationGetNumResults(user); r < n; r++)
      if (is_memref(mlirOperationGetResult(user, r)) &&
          push_work(a, mlirOperationGetResult(user, r)))
        return 1;
    return 0;
  }
  return !opsched_mlir_op_accesses_value(user, v);
}

/* Follows every use of the allocation `root` and its views, at any depth. */
static int escapes(opsched_alias *a, MlirValue root) {
  a->nwork = 0;
  if (push_work(a, root))
    return 1;
  for (size_t i = 0; i < a->nwork; i++) {
    if (i >= VIEW_CHAIN_MAX)
      return 1;
    MlirValue v = a->work[i];
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u))
      if (use_escapes(a, mlirOpOperandGetOwner(u), (intptr_t)mlirOpOperandGetOperandNumber(u),
                      v))
        return 1;
  }
  return 0;
}

int32_t opsched_alias_class(opsched_alias *a, MlirValue v) {
  for (int steps = 0; steps < VIEW_CHAIN_MAX; steps++) {
    MlirValue up = viewed(v);
    if (mlirValueIsNull(up))
      break;
    v = up;
  }
  if (!mlirValueIsNull(viewed(v)) || !opsched_mlir_value_is_allocation(v))
    return OPSCHED_ALIAS_UNKNOWN;
  int32_t cls = opsched_ptrmap_get(&a->roots, v.ptr);
  if (cls >= 0)
    return cls;
  if (a->count == a->cap) {
    a->failed = 1; /* cannot happen: cap counts every effect's value */
    return OPSCHED_ALIAS_UNKNOWN;
  }
  cls = a->count++;
  opsched_ptrmap_put(&a->roots, v.ptr, cls);
  a->escaped[cls] = (uint8_t)escapes(a, v);
  return cls;
}
