/* lib/core/memory_model.h - the memory model: the bottom layer shared by
 * the policy dispatch, the baselines, the exact search and the schedulers
 * (internal, not installed).
 *
 * A mem_model is the block flattened into CSR arrays: the dependency DAG
 * (graph edges plus allocator -> user edges of every buffer), and per node
 * the buffers it allocates and the buffers it uses. Resident buffers are
 * dropped here (only their total is kept). */
#ifndef OPSCHED_CORE_MEMORY_MODEL_H
#define OPSCHED_CORE_MEMORY_MODEL_H

#include "opsched/memory.h"

#include <stdint.h>

typedef struct mem_model {
  int32_t n;  /* nodes */
  int32_t nb; /* non-resident buffers */
  /* Dependency DAG, sorted and deduplicated lists. */
  int64_t *succ_off, *pred_off; /* length n + 1 */
  int32_t *succ, *pred;
  /* Per node: buffers it allocates and buffers it uses (not its own). */
  int64_t *alloc_off, *use_off; /* length n + 1 */
  int32_t *alloc_buf, *use_buf;
  /* Per buffer: size, owner, live-until-end, distinct users (not the owner). */
  int64_t *size;
  int32_t *owner;
  uint8_t *forever;
  int64_t *user_off; /* length nb + 1 */
  int32_t *user;
  /* Per node: bytes allocated (saturating) and upward rank. */
  int64_t *alloc_bytes;
  int64_t *rank;
  int64_t resident;
  /* Filled on first use by mem_alloc_order (lazily: not every user of the
   * model needs it); allocated with the model. */
  struct mem_alloc_order *alloc_order;
  /* The sizes' sum when below INT64_MAX and no size is negative (live
   * bytes then fit int64_t exactly), else INT64_MAX. */
  int64_t size_sum;
  /* mem_trivial_lower_bound, computed with the model. */
  int64_t trivial_lb;
  /* The DAG's four arrays belong to a graph made from them
   * (opsched_graph_adopt_csr), which is freed with the model: its free
   * leaves them. */
  int dag_lent;
} mem_model;

/* The nodes sorted by (alloc_bytes, id): pos[v] is node v's position,
 * sorted[i] the bytes at position i (ascending). */
typedef struct mem_alloc_order {
  int32_t *pos;
  int64_t *sorted;
} mem_alloc_order;

/* m's allocation order, computed by the first call (the model is shared
 * read-only by the queries of one block, on one thread); NULL when out of
 * memory. */
const mem_alloc_order *mem_alloc_order_of(const mem_model *m);

/* Builds the model; OPSCHED_ERR_CYCLE when the DAG has a cycle. */
opsched_status mem_model_build(const opsched_graph *g, const opsched_buffers *b,
                               mem_model *m);
void mem_model_free(mem_model *m);

/* An unsigned 128-bit accumulator: live bytes never go negative, and a sum
 * above INT64_MAX must still come back down exactly when buffers are freed. */
typedef struct acc128 {
  uint64_t lo, hi;
} acc128;

static inline void acc_add(acc128 *a, int64_t x) {
  uint64_t u = (uint64_t)x;
  a->lo += u;
  a->hi += a->lo < u;
}

static inline void acc_sub(acc128 *a, const acc128 *b) {
  uint64_t borrow = a->lo < b->lo;
  a->lo -= b->lo;
  a->hi -= b->hi + borrow;
}

/* a -= x for 0 <= x <= a. */
static inline void acc_sub_i64(acc128 *a, int64_t x) {
  uint64_t u = (uint64_t)x, borrow = a->lo < u;
  a->lo -= u;
  a->hi -= borrow;
}

static inline void acc_addacc(acc128 *a, const acc128 *b) {
  a->lo += b->lo;
  a->hi += b->hi + (a->lo < b->lo);
}

static inline int acc_less(const acc128 *a, const acc128 *b) {
  return a->hi < b->hi || (a->hi == b->hi && a->lo < b->lo);
}

/* The value saturated at INT64_MAX. */
static inline int64_t acc_i64(const acc128 *a) {
  return a->hi || a->lo > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)a->lo;
}

/* Simulates `order` exactly (128-bit sums, saturated on output). Fills
 * during/after by node id when non-NULL. Returns the peak, or -1 when the
 * order is not a topological permutation, -2 when out of memory. */
int64_t mem_simulate(const mem_model *m, const int32_t *order, int64_t *during,
                     int64_t *after);

/* Live bytes in time for a schedule given by start/end times per node (see
 * opsched_memory_peak_in_time for the model). Fills `after` by node id when
 * non-NULL. Returns the peak, -1 when the times are invalid (negative,
 * end < start, or a dependency of the model's DAG not honoured), -2 when out
 * of memory. */
int64_t mem_peak_in_time(const mem_model *m, const int64_t *start,
                         const int64_t *end, int64_t *after);

/* max over nodes of alloc + bytes used: a lower bound on every order's peak. */
int64_t mem_trivial_lower_bound(const mem_model *m);

/* Sorts each row of a CSR (rows + 1 offsets) and drops duplicates,
 * compacting in place; off[rows] receives the new total. */
void mem_csr_sort_dedupe(int64_t *off, int32_t *vals, int32_t rows);

/* Sorts `keys` ascending (LSD radix on bytes, skipping the bytes that all
 * keys share); `tmp` has room for n keys. The result is in `keys`. */
void mem_radix_sort_u64(uint64_t *keys, uint64_t *tmp, size_t n);

#endif
