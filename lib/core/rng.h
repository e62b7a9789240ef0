/* lib/core/rng.h - the core's one pseudo-random generator (internal).
 *
 * splitmix64 on a caller-held state: each search seeds its own state from
 * its input, so runs are deterministic and thread-safe. */
#ifndef OPSCHED_CORE_RNG_H
#define OPSCHED_CORE_RNG_H

#include <stdint.h>

static inline uint64_t opsched_rng_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Uniform enough in [0, bound) for bound > 0. */
static inline int64_t opsched_rng_below(uint64_t *state, int64_t bound) {
  return (int64_t)(opsched_rng_next(state) % (uint64_t)bound);
}

#endif
