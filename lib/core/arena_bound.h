/* lib/core/arena_bound.h - a lower bound for the arena's improvement rounds
 * (internal).
 *
 * Two buffers that are not in each other's conflict lists are ordered (the
 * earlier one, in allocation order, ends before the later one starts, by
 * happens-before), and that order is transitive; the largest set of
 * pairwise conflicting buffers is then its largest antichain, which
 * Dilworth's theorem sizes as the buffers minus a maximum matching of the
 * order (Konig's construction gives the set itself). The buffers of such a
 * set are pairwise disjoint (at their aligned sizes) in every layout, so
 * the highest of them starts at or above the others' aligned sizes: every
 * layout's end (the top buffer's unaligned end, or its mirror image's) is at
 * least their aligned sizes less the largest padding among them. Floors are
 * not counted: a mirrored layout does not keep them. The set is checked
 * against the lists before it is used, so the bound holds even where the
 * order were not transitive. */
#ifndef OPSCHED_CORE_ARENA_BOUND_H
#define OPSCHED_CORE_ARENA_BOUND_H

#include <stdint.h>

/* Over the m buffers (allocation order) with aligned sizes asz, sizes rsz
 * (unaligned, <= asz) and conflict lists (CSR adj_off/adj, local numbers), the buffers
 * with fev[x] set left out: the bound above, or -1 when it was not computed
 * (out of memory, more than `max_buffers` buffers, or the matching needed
 * more than `work` 64-bit word steps). Deterministic. */
int64_t opsched_arena_antichain_bound(int32_t m, const uint8_t *fev, const int64_t *asz,
                                      const int64_t *rsz, const int64_t *adj_off,
                                      const int32_t *adj, int32_t max_buffers,
                                      int64_t work);

/* The same bound and, when it is not -1 and chain and nchains are given, a
 * minimum cover of the buffers taking part by chains of that order (as many
 * chains as the antichain has buffers, when the order is transitive):
 * chain[x] in 0..*nchains-1, -1 for the buffers left out (fev). Buffers of
 * one chain are pairwise ordered only when the order is transitive: the
 * caller checks the lists. *nchains is -1 when no cover was given. */
int64_t opsched_arena_antichain_cover(int32_t m, const uint8_t *fev, const int64_t *asz,
                                      const int64_t *rsz, const int64_t *adj_off,
                                      const int32_t *adj, int32_t max_buffers,
                                      int64_t work, int32_t *chain, int32_t *nchains);

#endif
