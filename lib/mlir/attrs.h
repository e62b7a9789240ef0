/* lib/mlir/attrs.h - the attributes opsched reads and writes (internal).
 * Their names and formats are an API: docs/Passes.md documents each. */
#ifndef OPSCHED_MLIR_ATTRS_H
#define OPSCHED_MLIR_ATTRS_H

#include "mlir-c/IR.h"

#include <stdint.h>

#include "opsched/attr_names.h"

/* The attributes opsched_block_plan_apply writes on ops, by index. */
typedef enum opsched_op_attr {
  OPSCHED_OP_RANK,
  OPSCHED_OP_CRITICAL,
  OPSCHED_OP_START,
  OPSCHED_OP_END,
  OPSCHED_OP_LIVE_BYTES,
  OPSCHED_OP_ID,
  OPSCHED_OP_STREAM,
  OPSCHED_OP_WAITS,
  OPSCHED_OP_SLOT,
  OPSCHED_OP_OFFSET,
  OPSCHED_OP_SIZE,
  OPSCHED_OP_ATTR_COUNT
} opsched_op_attr;

/* The attribute values made so far, by value (open addressing). An entry
 * keeps what a lookup compares (the array's first value and length), so
 * that a hit asks MLIR nothing. Internal to attrs.c. */
typedef struct opsched_attr_int_entry {
  int64_t key;
  MlirAttribute attr; /* null: an empty entry */
} opsched_attr_int_entry;
typedef struct opsched_attr_array_entry {
  uint64_t hash;      /* of the count and the values */
  int64_t first;      /* the first value (the whole array when count is 1) */
  intptr_t count;
  MlirAttribute attr; /* null: an empty entry */
} opsched_attr_array_entry;
typedef struct opsched_attr_ints {
  opsched_attr_int_entry *entries;
  size_t mask, count;
} opsched_attr_ints;
typedef struct opsched_attr_arrays {
  opsched_attr_array_entry *entries;
  size_t mask, count;
} opsched_attr_arrays;

/* Attributes by value for the values 0..cap-1: the small non-negative
 * integers a block repeats or makes one per op (ids, streams, slots), and
 * one-value arrays of them. Read without a probe, and kept out of the
 * hashed tables, which a million new ids or slots would churn. */
typedef struct opsched_attr_direct {
  MlirAttribute *at; /* cap entries, null until made */
  size_t cap;
} opsched_attr_direct;

/* What writing many ops' attributes shares: the names, made once, in the
 * order a dictionary sorts them, and the attribute values made so far (the
 * same value is asked for many times: ids, times, sizes). One writer per
 * thread: it is not thread-safe, and nothing in it is global. */
typedef struct opsched_attr_writer {
  MlirContext ctx;
  MlirType i64;
  MlirAttribute unit;
  MlirIdentifier names[OPSCHED_OP_ATTR_COUNT]; /* by position in name order */
  uint8_t position[OPSCHED_OP_ATTR_COUNT];     /* each attribute's position */
  opsched_attr_ints ints;
  opsched_attr_arrays arrays;
  opsched_attr_direct small_ints, small_arrays;
} opsched_attr_writer;

/* Prepares `w` for ops of `ctx`; release it with opsched_attr_writer_free.
 * Cannot fail: a cache that runs out of memory just stops caching. */
void opsched_attr_writer_init(opsched_attr_writer *w, MlirContext ctx);
void opsched_attr_writer_free(opsched_attr_writer *w);
#define OPSCHED_ATTR_DIRECT_MAX ((int64_t)1 << 21)
/* Makes the values 0..values-1 (at most OPSCHED_ATTR_DIRECT_MAX) read by
 * value: call it with a block's op count before writing the block. Cannot
 * fail: out of memory, larger values keep going through the hashed tables. */
void opsched_attr_writer_reserve(opsched_attr_writer *w, int64_t values);

/* An op's attribute changes, applied in one dictionary update: through the
 * C API each change alone rebuilds and re-uniques the op's dictionary. The
 * last change to an attribute wins; untouched ones keep their value. */
typedef struct opsched_attr_batch {
  opsched_attr_writer *w;
  MlirOperation op;
  uint32_t set, remove; /* bits by position in name order */
  MlirAttribute value[OPSCHED_OP_ATTR_COUNT]; /* by position in name order */
} opsched_attr_batch;

void opsched_batch_begin(opsched_attr_batch *b, opsched_attr_writer *w, MlirOperation op);
void opsched_batch_i64(opsched_attr_batch *b, opsched_op_attr name, int64_t value);
/* As opsched_batch_i64 for a value seen once (a position in the block):
 * the hashed cache is read but not filled with it (a value read by value,
 * opsched_attr_writer_reserve, is kept as any other). The same attribute either way
 * (MLIR uniques them). */
void opsched_batch_i64_once(opsched_attr_batch *b, opsched_op_attr name, int64_t value);
void opsched_batch_i64_array(opsched_attr_batch *b, opsched_op_attr name,
                             const int64_t *values, intptr_t count);
/* A unit attribute when `present`, else removes it. */
void opsched_batch_unit(opsched_attr_batch *b, opsched_op_attr name, int present);
void opsched_batch_remove(opsched_attr_batch *b, opsched_op_attr name);
/* Writes the changes to the op (one dictionary update) and clears them. */
void opsched_batch_commit(opsched_attr_batch *b);

/* Changes to any of an op's discardable attributes by name (a function's
 * figures: about twenty), applied in one dictionary update at commit, as
 * opsched_attr_batch does for the op attributes. `name`s are static
 * strings (kept, not copied); the last change to a name wins. */
enum { OPSCHED_ATTR_LIST_MAX = 32 };
typedef struct opsched_attr_list {
  MlirOperation op;
  int count;
  const char *name[OPSCHED_ATTR_LIST_MAX];
  MlirAttribute value[OPSCHED_ATTR_LIST_MAX]; /* null: remove */
} opsched_attr_list;

void opsched_attr_list_begin(opsched_attr_list *l, MlirOperation op);
void opsched_attr_list_i64(opsched_attr_list *l, const char *name, int64_t value);
void opsched_attr_list_f64(opsched_attr_list *l, const char *name, double value);
/* Removes `name` if present. */
void opsched_attr_list_remove(opsched_attr_list *l, const char *name);
/* Writes the changes to the op (one dictionary update) and clears them. */
void opsched_attr_list_commit(opsched_attr_list *l);

#endif
