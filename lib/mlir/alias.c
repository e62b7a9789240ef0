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
  if (a->capseen)
    opsched_ptrmap_free(&a->seen_index);
  free(a->seen);
  free(a->path);
}

/* Stores v at (*values)[n], growing the array of *cap entries by doubling.
 * Non-zero when out of memory. */
static int values_put(MlirValue **values, size_t *cap, size_t n, MlirValue v) {
  if (n == *cap) {
    size_t grown = *cap ? 2 * *cap : 16;
    MlirValue *p = realloc(*values, sizeof *p * grown);
    if (!p)
      return 1;
    *values = p;
    *cap = grown;
  }
  (*values)[n] = v;
  return 0;
}

static int push_work(opsched_alias *a, MlirValue v) {
  if (values_put(&a->work, &a->capwork, a->nwork, v))
    return 1;
  a->nwork++;
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

/* The class of the root `v` (a value no view comes from). */
static int32_t root_class(opsched_alias *a, MlirValue v) {
  if (!opsched_mlir_value_is_allocation(v))
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

/* Room for one more seen value: the map is made again, twice as large,
 * when full (fixed capacity). Non-zero when out of memory. */
static int seen_reserve(opsched_alias *a) {
  if (a->nseen < a->capseen)
    return 0;
  size_t cap = a->capseen ? 2 * a->capseen : 64;
  opsched_alias_seen *s = realloc(a->seen, sizeof *s * cap);
  if (!s)
    return 1;
  a->seen = s;
  opsched_ptrmap index;
  if (opsched_ptrmap_init(&index, cap))
    return 1;
  for (size_t i = 0; i < a->nseen; i++)
    opsched_ptrmap_put(&index, a->seen[i].value, (int32_t)i);
  if (a->capseen)
    opsched_ptrmap_free(&a->seen_index);
  a->seen_index = index;
  a->capseen = cap;
  return 0;
}

/* Records the walked path (path[0] = the value asked about, each the view
 * of the next) below a value of depth `depth` whose root has `cls`. */
static void remember(opsched_alias *a, size_t len, int32_t cls, int64_t depth) {
  for (size_t i = 0; i < len; i++) {
    if (a->nseen > INT32_MAX - 1 || seen_reserve(a))
      return; /* not remembered: later walks only take longer */
    int64_t d = depth + (int64_t)(len - i);
    a->seen[a->nseen] = (opsched_alias_seen){a->path[i].ptr, cls,
                                             d > INT32_MAX ? INT32_MAX : (int32_t)d};
    opsched_ptrmap_put(&a->seen_index, a->path[i].ptr, (int32_t)a->nseen);
    a->nseen++;
  }
}

int32_t opsched_alias_class(opsched_alias *a, MlirValue v) {
  /* Up the views until a value seen before or the root; a chain of more
   * than VIEW_CHAIN_MAX steps (only a graph region's cycle could make one
   * endless) is of unknown origin. */
  size_t len = 0;
  int32_t cls;
  int64_t depth;
  for (MlirValue cur = v;;) {
    int32_t k = a->capseen ? opsched_ptrmap_get(&a->seen_index, cur.ptr) : -1;
    if (k >= 0) {
      cls = a->seen[k].root_class;
      depth = a->seen[k].depth;
      break;
    }
    if (len > VIEW_CHAIN_MAX)
      return OPSCHED_ALIAS_UNKNOWN;
    if (values_put(&a->path, &a->capath, len, cur)) {
      a->failed = 1;
      return OPSCHED_ALIAS_UNKNOWN;
    }
    len++;
    MlirValue up = viewed(cur);
    if (mlirValueIsNull(up)) { /* cur is the root: depth 0 */
      cls = root_class(a, cur);
      depth = -1;
      break;
    }
    cur = up;
  }
  remember(a, len, cls, depth);
  return depth + (int64_t)len <= VIEW_CHAIN_MAX ? cls : OPSCHED_ALIAS_UNKNOWN;
}
