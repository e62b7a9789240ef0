#include "attrs.h"
#include "../core/alloc.h" /* large tables in huge pages */

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "queries.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Every integer written is within the documented range: a saturated sum
 * (INT64_MAX) becomes OPSCHED_ATTR_VALUE_MAX, which the checker accepts. */
static int64_t capped(int64_t value) {
  return value > OPSCHED_ATTR_VALUE_MAX ? OPSCHED_ATTR_VALUE_MAX : value;
}

/* ---- Attribute list (by name) ------------------------------------------ */

void opsched_attr_list_begin(opsched_attr_list *l, MlirOperation op) {
  l->op = op;
  l->count = 0;
}

static void list_put(opsched_attr_list *l, const char *name, MlirAttribute value) {
  for (int i = 0; i < l->count; i++)
    if (strcmp(l->name[i], name) == 0) {
      l->value[i] = value;
      return;
    }
  if (l->count == OPSCHED_ATTR_LIST_MAX) /* full: write what it holds */
    opsched_attr_list_commit(l);
  l->name[l->count] = name;
  l->value[l->count++] = value;
}

void opsched_attr_list_i64(opsched_attr_list *l, const char *name, int64_t value) {
  MlirContext ctx = mlirOperationGetContext(l->op);
  list_put(l, name, mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), capped(value)));
}

void opsched_attr_list_f64(opsched_attr_list *l, const char *name, double value) {
  MlirContext ctx = mlirOperationGetContext(l->op);
  list_put(l, name, mlirFloatAttrDoubleGet(ctx, mlirF64TypeGet(ctx), value));
}

void opsched_attr_list_remove(opsched_attr_list *l, const char *name) {
  list_put(l, name, (MlirAttribute){NULL});
}

void opsched_attr_list_commit(opsched_attr_list *l) {
  MlirContext ctx = mlirOperationGetContext(l->op);
  int order[OPSCHED_ATTR_LIST_MAX];
  /* By name, byte-wise (a dictionary's order): insertion sort of a few. */
  for (int i = 0; i < l->count; i++) {
    int j = i;
    for (; j > 0 && strcmp(l->name[order[j - 1]], l->name[i]) > 0; j--)
      order[j] = order[j - 1];
    order[j] = i;
  }
  MlirNamedAttribute set[OPSCHED_ATTR_LIST_MAX];
  MlirIdentifier remove[OPSCHED_ATTR_LIST_MAX];
  intptr_t nset = 0, nremove = 0;
  for (int k = 0; k < l->count; k++) {
    int i = order[k];
    MlirIdentifier id = mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(l->name[i]));
    if (mlirAttributeIsNull(l->value[i]))
      remove[nremove++] = id;
    else
      set[nset++] = (MlirNamedAttribute){id, l->value[i]};
  }
  if (nset || nremove)
    opsched_mlir_update_discardable_attrs(ctx, l->op, set, nset, remove, nremove);
  l->count = 0;
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

/* A table starts small (most functions have few ops) and doubles; a full
 * table starts over rather than grow past TABLE_MAX entries: nearby ops
 * share most values, and a table stays a few MiB at any size. */
enum { TABLE_MIN = 64, TABLE_MAX = 1 << 18 };

static uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

/* The new capacity for one more entry (load at most 1/2): `cap` when it has
 * room, 0 to start over (full at the largest size). */
static size_t table_capacity(size_t cap, size_t count) {
  if (2 * (count + 1) <= cap)
    return cap;
  if (cap >= TABLE_MAX)
    return 0;
  return cap ? 2 * cap : TABLE_MIN;
}

static int entry_empty(const char *entry, size_t attr_at) {
  MlirAttribute a;
  memcpy(&a, entry + attr_at, sizeof a);
  return mlirAttributeIsNull(a);
}

/* Makes room for one more entry in a table of `cap` entries of `size` bytes
 * each (the MlirAttribute at `attr_at`, null when empty), placed by
 * `hash_of`. Returns the entries (new when grown, cleared when started
 * over, and *mask and *count updated); *ok is 0 when the table cannot take
 * it (out of memory: it stops caching). */
static void *table_reserve(void *entries, size_t *mask, size_t *count, size_t size,
                           size_t attr_at, uint64_t (*hash_of)(const void *), int *ok) {
  char *old = entries;
  size_t cap = old ? *mask + 1 : 0, ncap = table_capacity(cap, *count);
  *ok = 1;
  if (ncap == cap)
    return old;
  if (!ncap) { /* start over */
    memset(old, 0, size * cap);
    *count = 0;
    return old;
  }
  char *e = opsched_alloc_array(ncap, size);
  if (!e) {
    *ok = 0;
    return old;
  }
  for (size_t i = 0; i < cap; i++) {
    const char *from = old + i * size;
    if (entry_empty(from, attr_at))
      continue;
    size_t j = (size_t)hash_of(from) & (ncap - 1);
    while (!entry_empty(e + j * size, attr_at))
      j = (j + 1) & (ncap - 1);
    memcpy(e + j * size, from, size);
  }
  opsched_free(old);
  *mask = ncap - 1;
  return e;
}

static uint64_t int_entry_hash(const void *e) {
  return mix64((uint64_t)((const opsched_attr_int_entry *)e)->key);
}

static uint64_t array_entry_hash(const void *e) {
  return ((const opsched_attr_array_entry *)e)->hash;
}

static int ints_reserve(opsched_attr_ints *t) {
  int ok;
  t->entries = table_reserve(t->entries, &t->mask, &t->count, sizeof *t->entries,
                             offsetof(opsched_attr_int_entry, attr), int_entry_hash, &ok);
  return ok;
}

static int arrays_reserve(opsched_attr_arrays *t) {
  int ok;
  t->entries = table_reserve(t->entries, &t->mask, &t->count, sizeof *t->entries,
                             offsetof(opsched_attr_array_entry, attr), array_entry_hash, &ok);
  return ok;
}

void opsched_attr_writer_init(opsched_attr_writer *w, MlirContext ctx) {
  memset(w, 0, sizeof *w);
  w->ctx = ctx;
  w->i64 = mlirIntegerTypeGet(ctx, 64);
  w->unit = mlirUnitAttrGet(ctx);
  /* Each name's position by name: the order DictionaryAttr keeps (byte-wise). */
  for (int i = 0; i < OPSCHED_OP_ATTR_COUNT; i++) {
    int k = 0;
    for (int j = 0; j < OPSCHED_OP_ATTR_COUNT; j++)
      k += strcmp(op_attr_names[j], op_attr_names[i]) < 0;
    w->position[i] = (uint8_t)k;
    w->names[k] = mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(op_attr_names[i]));
  }
}

void opsched_attr_writer_free(opsched_attr_writer *w) {
  opsched_free(w->ints.entries);
  opsched_free(w->arrays.entries);
  opsched_free(w->small_ints.at);
  opsched_free(w->small_arrays.at);
  memset(&w->ints, 0, sizeof w->ints);
  memset(&w->arrays, 0, sizeof w->arrays);
  memset(&w->small_ints, 0, sizeof w->small_ints);
  memset(&w->small_arrays, 0, sizeof w->small_arrays);
}

/* Grows d to `cap` entries (the values it has keep their place). */
static void direct_grow(opsched_attr_direct *d, size_t cap) {
  MlirAttribute *at = opsched_alloc_array(cap, sizeof *at); /* zero: null attributes */
  if (!at)
    return;
  if (d->cap)
    memcpy(at, d->at, sizeof *at * d->cap);
  opsched_free(d->at);
  d->at = at;
  d->cap = cap;
}

void opsched_attr_writer_reserve(opsched_attr_writer *w, int64_t values) {
  enum { DIRECT_MIN = 64 };
  if (values > OPSCHED_ATTR_DIRECT_MAX)
    values = OPSCHED_ATTR_DIRECT_MAX;
  if (values <= (int64_t)w->small_ints.cap)
    return;
  size_t cap = w->small_ints.cap ? w->small_ints.cap : DIRECT_MIN;
  while ((int64_t)cap < values)
    cap *= 2; /* a power of two up to the maximum, itself one */
  direct_grow(&w->small_ints, cap);
  direct_grow(&w->small_arrays, cap);
}

/* The entry of `value` in d, NULL when outside it. */
static MlirAttribute *direct_entry(const opsched_attr_direct *d, int64_t value) {
  return value >= 0 && (uint64_t)value < d->cap ? &d->at[value] : NULL;
}

/* The attribute of `value` (capped); `keep`: the table takes a new one. */
static MlirAttribute writer_i64(opsched_attr_writer *w, int64_t value, int keep) {
  value = capped(value);
  MlirAttribute *direct = direct_entry(&w->small_ints, value);
  if (direct) {
    if (mlirAttributeIsNull(*direct))
      *direct = mlirIntegerAttrGet(w->i64, value);
    return *direct;
  }
  opsched_attr_ints *t = &w->ints;
  size_t i = 0;
  if (t->entries)
    for (i = (size_t)mix64((uint64_t)value) & t->mask; !mlirAttributeIsNull(t->entries[i].attr);
         i = (i + 1) & t->mask)
      if (t->entries[i].key == value)
        return t->entries[i].attr;
  MlirAttribute a = mlirIntegerAttrGet(w->i64, value);
  if (!keep)
    return a;
  size_t cap = t->entries ? t->mask + 1 : 0;
  if (table_capacity(cap, t->count) != cap) { /* the table changes: probe again */
    if (!ints_reserve(t))
      return a;
    for (i = (size_t)mix64((uint64_t)value) & t->mask; !mlirAttributeIsNull(t->entries[i].attr);
         i = (i + 1) & t->mask)
      ;
  }
  t->entries[i].key = value;
  t->entries[i].attr = a;
  t->count++;
  return a;
}

static int same_array(const opsched_attr_array_entry *e, uint64_t hash, const int64_t *values,
                      intptr_t count) {
  if (e->hash != hash || e->count != count || e->first != values[0])
    return 0;
  for (intptr_t k = 1; k < count; k++)
    if (mlirDenseI64ArrayGetElement(e->attr, k) != values[k])
      return 0;
  return 1;
}

/* `values` (count > 0) are within the range. */
static MlirAttribute writer_i64_array(opsched_attr_writer *w, const int64_t *values,
                                      intptr_t count) {
  MlirAttribute *direct = count == 1 ? direct_entry(&w->small_arrays, values[0]) : NULL;
  if (direct) {
    if (mlirAttributeIsNull(*direct))
      *direct = mlirDenseI64ArrayGet(w->ctx, 1, values);
    return *direct;
  }
  uint64_t hash = mix64((uint64_t)count ^ mix64((uint64_t)values[0]));
  for (intptr_t k = 1; k < count; k++)
    hash = mix64(hash ^ (uint64_t)values[k]);
  opsched_attr_arrays *t = &w->arrays;
  size_t i = 0;
  if (t->entries)
    for (i = (size_t)hash & t->mask; !mlirAttributeIsNull(t->entries[i].attr);
         i = (i + 1) & t->mask)
      if (same_array(&t->entries[i], hash, values, count))
        return t->entries[i].attr;
  MlirAttribute a = mlirDenseI64ArrayGet(w->ctx, count, values);
  size_t cap = t->entries ? t->mask + 1 : 0;
  if (table_capacity(cap, t->count) != cap) {
    if (!arrays_reserve(t))
      return a;
    for (i = (size_t)hash & t->mask; !mlirAttributeIsNull(t->entries[i].attr);
         i = (i + 1) & t->mask)
      ;
  }
  opsched_attr_array_entry *e = &t->entries[i];
  e->hash = hash;
  e->first = values[0];
  e->count = count;
  e->attr = a;
  t->count++;
  return a;
}

void opsched_batch_begin(opsched_attr_batch *b, opsched_attr_writer *w, MlirOperation op) {
  b->w = w;
  b->op = op;
  b->set = b->remove = 0;
}

static void batch_set(opsched_attr_batch *b, opsched_op_attr name, MlirAttribute value) {
  int k = b->w->position[name];
  b->set |= 1u << k;
  b->remove &= ~(1u << k);
  b->value[k] = value;
}

void opsched_batch_i64(opsched_attr_batch *b, opsched_op_attr name, int64_t value) {
  batch_set(b, name, writer_i64(b->w, value, 1));
}

/* A hit is still taken (another attribute may have made the value); a
 * miss is not kept. */
void opsched_batch_i64_once(opsched_attr_batch *b, opsched_op_attr name, int64_t value) {
  batch_set(b, name, writer_i64(b->w, value, 0));
}

/* Arrays of up to this many values are capped on the stack. */
enum { SMALL_ARRAY = 16 };

void opsched_batch_i64_array(opsched_attr_batch *b, opsched_op_attr name,
                             const int64_t *values, intptr_t count) {
  intptr_t k = 0;
  while (k < count && values[k] <= OPSCHED_ATTR_VALUE_MAX)
    k++;
  if (k == count) { /* the common case: nothing to cap */
    batch_set(b, name,
              count ? writer_i64_array(b->w, values, count)
                    : mlirDenseI64ArrayGet(b->w->ctx, 0, values));
    return;
  }
  int64_t small[SMALL_ARRAY] = {0};
  int64_t *copy = count <= SMALL_ARRAY ? small : malloc(sizeof *copy * (size_t)count);
  if (!copy)
    return; /* out of memory: the attribute is not written */
  for (k = 0; k < count; k++)
    copy[k] = capped(values[k]);
  batch_set(b, name, writer_i64_array(b->w, copy, count));
  if (copy != small)
    free(copy);
}

void opsched_batch_unit(opsched_attr_batch *b, opsched_op_attr name, int present) {
  if (present)
    batch_set(b, name, b->w->unit);
  else
    opsched_batch_remove(b, name);
}

void opsched_batch_remove(opsched_attr_batch *b, opsched_op_attr name) {
  int k = b->w->position[name];
  b->remove |= 1u << k;
  b->set &= ~(1u << k);
}

void opsched_batch_commit(opsched_attr_batch *b) {
  MlirNamedAttribute set[OPSCHED_OP_ATTR_COUNT];
  MlirIdentifier remove[OPSCHED_OP_ATTR_COUNT];
  intptr_t nset = 0, nremove = 0;
  if (!(b->set | b->remove))
    return;
  for (int k = 0; k < OPSCHED_OP_ATTR_COUNT; k++) { /* in name order */
    if (b->set >> k & 1)
      set[nset++] = (MlirNamedAttribute){b->w->names[k], b->value[k]};
    else if (b->remove >> k & 1)
      remove[nremove++] = b->w->names[k];
  }
  opsched_mlir_update_discardable_attrs(b->w->ctx, b->op, set, nset, remove, nremove);
  b->set = b->remove = 0;
}
