/* lib/core/arena_clock.h - happens-before from a schedule's emitted
 * synchronisation, by vector clocks (internal, used by the arena).
 *
 * Per op, for every stream, how many of its ops have completed when the op
 * completes (stream predecessor joined with the waited producers). */
#ifndef OPSCHED_CORE_ARENA_CLOCK_H
#define OPSCHED_CORE_ARENA_CLOCK_H

#include "opsched/schedule.h"

#include <stddef.h>
#include <stdint.h>

#define OPSCHED_HB_NEVER INT32_MAX

typedef struct hb_ctx {
  int32_t n, S;
  const int32_t *stream;
  int32_t *spos;     /* n */
  int32_t *seq;      /* n: position in the sequential order */
  int32_t *comp;     /* n * S: completion clocks */
  int64_t *so_off;   /* S + 1 */
  int32_t *so_ops;   /* n: ops per stream in launch order */
} hb_ctx;

/* Ops of stream stream[b] completed, or of stream k, when b launches. */
static inline int32_t opsched_hb_start_clock(const hb_ctx *h, int32_t b,
                                             int32_t k) {
  return k == h->stream[b] ? h->spos[b] - 1 : h->comp[(size_t)b * (size_t)h->S + (size_t)k];
}

/* a completes before b launches. */
static inline int opsched_hb_before(const hb_ctx *h, int32_t a, int32_t b) {
  return a != b && opsched_hb_start_clock(h, b, h->stream[a]) >= h->spos[a];
}

/* For every op e at once, the place on stream k of the first op launching
 * after e completed (OPSCHED_HB_NEVER if none), by one walk along stream k:
 * out[(so_off[j] + p - 1) * stride] for the op at place p of stream j (n
 * entries); cov is S ints of scratch. O(n + ops of k x S), where one op at
 * a time would cost a binary search on stream k. */
void opsched_hb_first_after_all(const hb_ctx *h, int32_t k, int32_t *out, int32_t stride,
                                int32_t *cov);
/* Fills h (n, S and stream set by the caller) from s's order and, with
 * `clocks`, its waits; OPSCHED_ERR_INVALID when the waits do not imply
 * every dependency of g. Without `clocks` only the streams' layout (seq,
 * spos, so_off, so_ops; comp NULL, g not read): for a run that reads the
 * thresholds of another over the same schedule. */
opsched_status opsched_hb_build(const opsched_graph *g, const opsched_schedule *s,
                                hb_ctx *h, int clocks);
void opsched_hb_free(hb_ctx *h);

#endif
