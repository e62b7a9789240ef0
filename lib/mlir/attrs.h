/* lib/mlir/attrs.h - the attributes opsched reads and writes (internal).
 * Their names and formats are an API: docs/Passes.md documents each. */
#ifndef OPSCHED_MLIR_ATTRS_H
#define OPSCHED_MLIR_ATTRS_H

#include "mlir-c/IR.h"

#include <stdint.h>

/* Read (user overrides). */
#define OPSCHED_ATTR_COST "opsched.cost"           /* i64 ns */
#define OPSCHED_ATTR_RESOURCES "opsched.resources" /* i64 demand */
/* Written on ops. */
#define OPSCHED_ATTR_RANK "opsched.rank"         /* i64 ns upward rank */
#define OPSCHED_ATTR_CRITICAL "opsched.critical" /* unit: on a critical path */
#define OPSCHED_ATTR_START "opsched.start"       /* i64 ns */
#define OPSCHED_ATTR_END "opsched.end"           /* i64 ns */
#define OPSCHED_ATTR_LIVE_BYTES "opsched.live_bytes" /* i64: live after the op */
/* Written on ops by the buffer-slot assignment: arrays, one per result. */
#define OPSCHED_ATTR_SLOT "opsched.slot"
#define OPSCHED_ATTR_OFFSET "opsched.offset"
#define OPSCHED_ATTR_SIZE "opsched.size"
/* Written on ops when streams > 1. */
#define OPSCHED_ATTR_ID "opsched.id"         /* i64 position in the block's order */
#define OPSCHED_ATTR_STREAM "opsched.stream" /* i64 */
#define OPSCHED_ATTR_WAITS "opsched.waits"   /* array<i64>: ids to wait on */
/* Written on functions. */
#define OPSCHED_ATTR_MAKESPAN "opsched.makespan"           /* i64 ns */
#define OPSCHED_ATTR_CRITICAL_PATH "opsched.critical_path" /* i64 ns */
#define OPSCHED_ATTR_LOWER_BOUND "opsched.lower_bound"     /* i64 ns */
#define OPSCHED_ATTR_SPEEDUP "opsched.speedup"             /* f64 */
#define OPSCHED_ATTR_STREAMS "opsched.streams"             /* i64 */
#define OPSCHED_ATTR_WAITS_BEFORE "opsched.waits_before"   /* i64 */
#define OPSCHED_ATTR_WAITS_AFTER "opsched.waits_after"     /* i64 */
#define OPSCHED_ATTR_REUSE_WAITS "opsched.reuse_waits"     /* i64, when > 0 */
#define OPSCHED_ATTR_PEAK_MEMORY "opsched.peak_memory"     /* i64 bytes */
#define OPSCHED_ATTR_ORIGINAL_PEAK "opsched.original_peak_memory" /* i64 bytes */
#define OPSCHED_ATTR_RESIDENT "opsched.resident_bytes"     /* i64 bytes */
#define OPSCHED_ATTR_MEMORY_LIMIT "opsched.memory_limit"   /* i64 bytes */
#define OPSCHED_ATTR_ARENA_SIZE "opsched.arena_size"       /* i64 bytes */
#define OPSCHED_ATTR_ALIGNMENT "opsched.alignment"         /* i64 bytes */
#define OPSCHED_ATTR_FRAGMENTATION "opsched.fragmentation" /* f64 */
#define OPSCHED_ATTR_RESOURCE_LIMIT "opsched.resource_limit" /* i64 */
#define OPSCHED_ATTR_STREAMS_REQUESTED "opsched.streams_requested" /* i64: the option */
/* The unconstrained schedule beside the chosen one (several streams). */
#define OPSCHED_ATTR_UNCONSTRAINED_MAKESPAN "opsched.unconstrained_makespan" /* i64 ns */
#define OPSCHED_ATTR_UNCONSTRAINED_PEAK "opsched.unconstrained_peak_memory" /* i64 B */

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

/* An int64 -> attribute cache (open addressing); internal to attrs.c. */
typedef struct opsched_attr_cache_entry {
  uint64_t key;       /* the value (i64) or the values' hash (arrays) */
  MlirAttribute attr; /* null: an empty entry */
} opsched_attr_cache_entry;
typedef struct opsched_attr_cache {
  opsched_attr_cache_entry *entries;
  size_t mask, count;
} opsched_attr_cache;

/* What writing many ops' attributes shares: the names, made once, in the
 * order a dictionary sorts them, and the attribute values made so far (the
 * same value is asked for many times: ids, times, sizes). One writer per
 * thread: it is not thread-safe, and nothing in it is global. */
typedef struct opsched_attr_writer {
  MlirContext ctx;
  MlirType i64;
  MlirAttribute unit;
  MlirIdentifier names[OPSCHED_OP_ATTR_COUNT];
  uint8_t sorted[OPSCHED_OP_ATTR_COUNT]; /* the names' indices by name */
  opsched_attr_cache ints, arrays;
} opsched_attr_writer;

/* Prepares `w` for ops of `ctx`; release it with opsched_attr_writer_free.
 * Cannot fail: a cache that runs out of memory just stops caching. */
void opsched_attr_writer_init(opsched_attr_writer *w, MlirContext ctx);
void opsched_attr_writer_free(opsched_attr_writer *w);

/* An op's attribute changes, applied in one dictionary update: through the
 * C API each change alone rebuilds and re-uniques the op's dictionary. The
 * last change to an attribute wins; untouched ones keep their value. */
typedef struct opsched_attr_batch {
  opsched_attr_writer *w;
  MlirOperation op;
  uint8_t change[OPSCHED_OP_ATTR_COUNT]; /* 0 none, 1 set, 2 remove */
  MlirAttribute value[OPSCHED_OP_ATTR_COUNT];
} opsched_attr_batch;

void opsched_batch_begin(opsched_attr_batch *b, opsched_attr_writer *w, MlirOperation op);
void opsched_batch_i64(opsched_attr_batch *b, opsched_op_attr name, int64_t value);
void opsched_batch_i64_array(opsched_attr_batch *b, opsched_op_attr name,
                             const int64_t *values, intptr_t count);
/* A unit attribute when `present`, else removes it. */
void opsched_batch_unit(opsched_attr_batch *b, opsched_op_attr name, int present);
void opsched_batch_remove(opsched_attr_batch *b, opsched_op_attr name);
/* Writes the changes to the op (one dictionary update) and clears them. */
void opsched_batch_commit(opsched_attr_batch *b);

void opsched_attr_set_i64(MlirOperation op, const char *name, int64_t value);
void opsched_attr_set_f64(MlirOperation op, const char *name, double value);
void opsched_attr_set_i64_array(MlirOperation op, const char *name,
                                const int64_t *values, intptr_t count);
/* Removes `name` if present (stale results of an earlier run). */
void opsched_attr_remove(MlirOperation op, const char *name);
/* Sets a unit attribute when `present`, removes it otherwise. */
void opsched_attr_set_unit(MlirOperation op, const char *name, int present);

#endif
