#include "attrs.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "queries.h"

#include <stdlib.h>
#include <string.h>

/* Every integer written is within the documented range: a saturated sum
 * (INT64_MAX) becomes OPSCHED_ATTR_VALUE_MAX, which the checker accepts. */
static int64_t capped(int64_t value) {
  return value > OPSCHED_ATTR_VALUE_MAX ? OPSCHED_ATTR_VALUE_MAX : value;
}

/* `values`, or a capped copy in `*copy` (caller frees) when one is over the
 * range; NULL when that copy cannot be made. */
static const int64_t *capped_array(const int64_t *values, intptr_t count, int64_t **copy) {
  *copy = NULL;
  intptr_t k = 0;
  while (k < count && values[k] <= OPSCHED_ATTR_VALUE_MAX)
    k++;
  if (k == count)
    return values;
  *copy = malloc(sizeof **copy * (size_t)count);
  if (!*copy)
    return NULL;
  for (k = 0; k < count; k++)
    (*copy)[k] = capped(values[k]);
  return *copy;
}

void opsched_attr_set_i64(MlirOperation op, const char *name, int64_t value) {
  MlirContext ctx = mlirOperationGetContext(op);
  value = capped(value);
  mlirOperationSetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(name),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), value));
}

void opsched_attr_set_unit(MlirOperation op, const char *name, int present) {
  MlirStringRef n = mlirStringRefCreateFromCString(name);
  if (present)
    mlirOperationSetDiscardableAttributeByName(op, n,
                                               mlirUnitAttrGet(mlirOperationGetContext(op)));
  else
    mlirOperationRemoveDiscardableAttributeByName(op, n);
}

void opsched_attr_set_f64(MlirOperation op, const char *name, double value) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(name),
      mlirFloatAttrDoubleGet(ctx, mlirF64TypeGet(ctx), value));
}

void opsched_attr_set_i64_array(MlirOperation op, const char *name,
                                const int64_t *values, intptr_t count) {
  int64_t *copy;
  const int64_t *v = capped_array(values, count, &copy);
  if (v)
    mlirOperationSetDiscardableAttributeByName(
        op, mlirStringRefCreateFromCString(name),
        mlirDenseI64ArrayGet(mlirOperationGetContext(op), count, v));
  free(copy);
}

void opsched_attr_remove(MlirOperation op, const char *name) {
  mlirOperationRemoveDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

/* ---- Op attribute writer ------------------------------------------------ */

static const char *const op_attr_names[OPSCHED_OP_ATTR_COUNT] = {
    [OPSCHED_OP_RANK] = OPSCHED_ATTR_RANK,
    [OPSCHED_OP_CRITICAL] = OPSCHED_ATTR_CRITICAL,
    [OPSCHED_OP_START] = OPSCHED_ATTR_START,
    [OPSCHED_OP_END] = OPSCHED_ATTR_END,
    [OPSCHED_OP_LIVE_BYTES] = OPSCHED_ATTR_LIVE_BYTES,
    [OPSCHED_OP_ID] = OPSCHED_ATTR_ID,
    [OPSCHED_OP_STREAM] = OPSCHED_ATTR_STREAM,
    [OPSCHED_OP_WAITS] = OPSCHED_ATTR_WAITS,
    [OPSCHED_OP_SLOT] = OPSCHED_ATTR_SLOT,
    [OPSCHED_OP_OFFSET] = OPSCHED_ATTR_OFFSET,
    [OPSCHED_OP_SIZE] = OPSCHED_ATTR_SIZE,
};

/* A full cache starts over rather than grow past this many entries: nearby
 * ops share most values, and the cache stays a few MiB at any size. */
enum { CACHE_MIN = 1024, CACHE_MAX = 1 << 18 };

static uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

static void cache_free(opsched_attr_cache *c) {
  free(c->entries);
  memset(c, 0, sizeof *c);
}

/* Makes room for one more entry (load at most 1/2); returns 0 when the
 * cache cannot take it (out of memory). */
static int cache_reserve(opsched_attr_cache *c) {
  size_t cap = c->entries ? c->mask + 1 : 0;
  if (2 * (c->count + 1) <= cap)
    return 1;
  if (cap >= CACHE_MAX) { /* start over */
    memset(c->entries, 0, sizeof *c->entries * cap);
    c->count = 0;
    return 1;
  }
  size_t ncap = cap ? 2 * cap : CACHE_MIN;
  opsched_attr_cache_entry *e = calloc(ncap, sizeof *e);
  if (!e)
    return 0;
  for (size_t i = 0; i < cap; i++) {
    if (mlirAttributeIsNull(c->entries[i].attr))
      continue;
    size_t j = (size_t)mix64(c->entries[i].key) & (ncap - 1);
    while (!mlirAttributeIsNull(e[j].attr))
      j = (j + 1) & (ncap - 1);
    e[j] = c->entries[i];
  }
  free(c->entries);
  c->entries = e;
  c->mask = ncap - 1;
  return 1;
}

static void cache_put(opsched_attr_cache *c, uint64_t key, MlirAttribute a) {
  if (!cache_reserve(c))
    return;
  size_t i = (size_t)mix64(key) & c->mask;
  while (!mlirAttributeIsNull(c->entries[i].attr))
    i = (i + 1) & c->mask;
  c->entries[i].key = key;
  c->entries[i].attr = a;
  c->count++;
}

void opsched_attr_writer_init(opsched_attr_writer *w, MlirContext ctx) {
  memset(w, 0, sizeof *w);
  w->ctx = ctx;
  w->i64 = mlirIntegerTypeGet(ctx, 64);
  w->unit = mlirUnitAttrGet(ctx);
  for (int i = 0; i < OPSCHED_OP_ATTR_COUNT; i++) {
    w->names[i] = mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(op_attr_names[i]));
    /* Insertion by name: the order DictionaryAttr keeps (byte-wise). */
    int j = i;
    for (; j > 0 && strcmp(op_attr_names[w->sorted[j - 1]], op_attr_names[i]) > 0; j--)
      w->sorted[j] = w->sorted[j - 1];
    w->sorted[j] = (uint8_t)i;
  }
}

void opsched_attr_writer_free(opsched_attr_writer *w) {
  cache_free(&w->ints);
  cache_free(&w->arrays);
}

static MlirAttribute writer_i64(opsched_attr_writer *w, int64_t value) {
  value = capped(value);
  opsched_attr_cache *c = &w->ints;
  uint64_t key = (uint64_t)value;
  if (c->entries)
    for (size_t i = (size_t)mix64(key) & c->mask; !mlirAttributeIsNull(c->entries[i].attr);
         i = (i + 1) & c->mask)
      if (c->entries[i].key == key)
        return c->entries[i].attr;
  MlirAttribute a = mlirIntegerAttrGet(w->i64, value);
  cache_put(c, key, a);
  return a;
}

static int same_array(MlirAttribute a, const int64_t *values, intptr_t count) {
  if (mlirDenseArrayGetNumElements(a) != count)
    return 0;
  for (intptr_t k = 0; k < count; k++)
    if (mlirDenseI64ArrayGetElement(a, k) != values[k])
      return 0;
  return 1;
}

static MlirAttribute writer_i64_array(opsched_attr_writer *w, const int64_t *values,
                                      intptr_t count) {
  opsched_attr_cache *c = &w->arrays;
  uint64_t key = mix64((uint64_t)count);
  for (intptr_t k = 0; k < count; k++)
    key = mix64(key ^ (uint64_t)values[k]);
  if (c->entries)
    for (size_t i = (size_t)mix64(key) & c->mask; !mlirAttributeIsNull(c->entries[i].attr);
         i = (i + 1) & c->mask)
      if (c->entries[i].key == key && same_array(c->entries[i].attr, values, count))
        return c->entries[i].attr;
  MlirAttribute a = mlirDenseI64ArrayGet(w->ctx, count, values);
  cache_put(c, key, a);
  return a;
}

void opsched_batch_begin(opsched_attr_batch *b, opsched_attr_writer *w, MlirOperation op) {
  b->w = w;
  b->op = op;
  memset(b->change, 0, sizeof b->change);
}

static void batch_set(opsched_attr_batch *b, opsched_op_attr name, MlirAttribute value) {
  b->change[name] = 1;
  b->value[name] = value;
}

void opsched_batch_i64(opsched_attr_batch *b, opsched_op_attr name, int64_t value) {
  batch_set(b, name, writer_i64(b->w, value));
}

/* A hit is still taken (another attribute may have made the value); a
 * miss is not kept. */
void opsched_batch_i64_once(opsched_attr_batch *b, opsched_op_attr name, int64_t value) {
  value = capped(value);
  const opsched_attr_cache *c = &b->w->ints;
  uint64_t key = (uint64_t)value;
  if (c->entries)
    for (size_t i = (size_t)mix64(key) & c->mask; !mlirAttributeIsNull(c->entries[i].attr);
         i = (i + 1) & c->mask)
      if (c->entries[i].key == key) {
        batch_set(b, name, c->entries[i].attr);
        return;
      }
  batch_set(b, name, mlirIntegerAttrGet(b->w->i64, value));
}

void opsched_batch_i64_array(opsched_attr_batch *b, opsched_op_attr name,
                             const int64_t *values, intptr_t count) {
  int64_t *copy;
  const int64_t *v = capped_array(values, count, &copy);
  if (v)
    batch_set(b, name, writer_i64_array(b->w, v, count));
  free(copy);
}

void opsched_batch_unit(opsched_attr_batch *b, opsched_op_attr name, int present) {
  if (present)
    batch_set(b, name, b->w->unit);
  else
    opsched_batch_remove(b, name);
}

void opsched_batch_remove(opsched_attr_batch *b, opsched_op_attr name) {
  b->change[name] = 2;
}

void opsched_batch_commit(opsched_attr_batch *b) {
  MlirNamedAttribute set[OPSCHED_OP_ATTR_COUNT];
  MlirIdentifier remove[OPSCHED_OP_ATTR_COUNT];
  intptr_t nset = 0, nremove = 0;
  for (int k = 0; k < OPSCHED_OP_ATTR_COUNT; k++) { /* in name order */
    int i = b->w->sorted[k];
    if (b->change[i] == 1)
      set[nset++] = mlirNamedAttributeGet(b->w->names[i], b->value[i]);
    else if (b->change[i] == 2)
      remove[nremove++] = b->w->names[i];
  }
  if (nset || nremove)
    opsched_mlir_update_discardable_attrs(b->op, set, nset, remove, nremove);
  memset(b->change, 0, sizeof b->change);
}
