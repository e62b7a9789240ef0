/* lib/core/arena_sweep.h - the arena's sweep packer (internal): an
 * allocator simulation over the sequential order, best fit with a
 * coalescing free list, no conflict lists.
 *
 * A buffer's memory goes back to the shared free list after its release
 * position: the last op that does not happen after all of its events, so
 * any allocation later in the order, on any stream, is ordered after it.
 * On one stream that is exact. On several it is conservative: a buffer is
 * ordered before stream k's allocations from its threshold on k already,
 * usually long before every other stream has passed its own. So with
 * several streams (at most OPSCHED_SWEEP_POOL_STREAMS), each stream also
 * has a pool: the still-unused part of every buffer released for that
 * stream but not yet for all. An allocation takes the best fit of the free
 * list and its stream's pool; a part taken from a pool stays the buffer's
 * until that buffer is released for all. Race-free by construction: every
 * reuse is of memory whose last holder is ordered before the allocation
 * (a holder's reuser is ordered after it, so its thresholds are no
 * earlier). O((B + n) log B + B x streams): a buffer enters at most one
 * pool per stream, each entry O(log entries). */
#ifndef OPSCHED_CORE_ARENA_SWEEP_H
#define OPSCHED_CORE_ARENA_SWEEP_H

#include <stdint.h>

/* Streams up to which the pools are kept (a bit per stream per buffer). */
#define OPSCHED_SWEEP_POOL_STREAMS 64
/* Pool entries (a buffer in one stream's pool) at once. Each costs an
 * insertion and a removal, and most are released for all before their
 * stream allocates again: on the 100k-op families on 16 streams, 1024 keep
 * the arena of an unbounded budget (dag, wide; random +0.33%) with a
 * quarter of its entries (dag: 115k vs 480k); at 10k the sweep costs 43%
 * fewer instructions than with 4096, and the same arenas. */
#define OPSCHED_SWEEP_POOL_ENTRIES 1024

typedef struct sweep_plan {
  int32_t m, n;             /* buffers (allocation order), sequential positions */
  const int64_t *asz;       /* m: aligned sizes */
  const int32_t *alloc_off; /* n + 1: the buffers allocated at each position (CSR) */
  const int32_t *rel;       /* m: release position; n: never released */
  /* The pools (S > 1; S = 1 or pool_off NULL: none). */
  int32_t S;
  const int32_t *op_stream; /* n: per position, its op's stream */
  const int32_t *op_place;  /* n: and 1-based place on that stream */
  const int64_t *so_off;    /* S + 1: first key of each stream */
  const int64_t *pool_off;  /* so_off[S] + 1: CSR keyed so_off[k] + t - 1: */
  const int32_t *pool_ids;  /* the buffers released for stream k at its place t */
} sweep_plan;

/* Lays out every buffer: off[x] for x < m; returns the top (the end of the
 * highest buffer), -1 when out of memory. */
int64_t opsched_sweep_pack(const sweep_plan *P, int64_t *off);

#endif
