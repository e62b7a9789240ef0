/* opsched/arena.h - buffer assignment: byte offsets of a block's buffers in
 * one arena, race-free under a (multi-stream) schedule. Pure C.
 *
 * Input: a finalized graph, a schedule of it (opsched_schedule_run, any
 * number of streams) and the block's buffers (memory.h). Every buffer with
 * an allocating node and a size > 0 gets an offset, a multiple of
 * `alignment`, and occupies [offset, offset + aligned size) where the
 * aligned size is its size rounded up to the alignment. The arena ends at
 * the top buffer's unaligned end, max(offset + size): every buffer fits in
 * it, and only the buffers below need their padding.
 *
 * Ordering (docs/bench-arena.md, "Semantics"). Happens-before is the
 * emitted synchronisation: op a happens before op b when a completes before
 * b launches through stream order (ops of one stream in the schedule's
 * sequential order) and the schedule's waits (opsched_schedule_waits),
 * transitively. Dependency edges are implied by these for a schedule of this
 * graph (checked). Buffer A is *ordered before* buffer B when A is not live
 * until the end and its allocating op and every user happen before B's
 * allocating op. Two buffers may overlap in memory only when one is ordered
 * before the other: estimated times are never used for reuse, so a race is
 * impossible whatever the real durations are. Zero-size buffers need no
 * space (offset 0, aligned size 0); resident buffers get offset -1.
 *
 * Packers (each a deterministic greedy; the smallest arena wins, ties to
 * the earlier packer in the enum): greedy by size with first fit (the
 * brief of IREE's LayoutSlices), greedy by size with best fit (TFLite's
 * simple_memory_arena + ArenaPlanner order), XLA's
 * GlobalDecreasingSizeBestFitHeap in its spatial (size) and temporal
 * (interval length) orders, and opsched's breadth order (buffers of the
 * heaviest program points first) and opsched's sweep (below, also the
 * fallback over the conflict cap; its layout is not compacted). Then a compaction pass drops every
 * buffer of the winner to its lowest feasible offset, in offset order,
 * while that lowers the arena. Then, while the arena is above the aligned
 * lower bound, an iterated best fit (the buffers that reach the top go
 * first, up to 12 rounds) and perturbed best fit (sizes with deterministic
 * noise, up to 16 rounds, fewer on blocks with many conflicts), each kept
 * only when it lowers the arena. When every buffer not live until the end
 * has one aligned size and the arena is above the largest set of pairwise
 * conflicting buffers, a minimum chain cover of the "ordered before" order
 * (Dilworth, from that set's matching) is laid out: one slot per
 * chain, the buffers live until the end of that size each in the lowest
 * slot none of its conflicts holds (others stacked under the chains); it
 * is tried right after greedy-size and, when it meets that bound, taken
 * there (no other packer, compaction or round runs; winner "chain-cover");
 * otherwise again before the rounds, kept when it lowers the arena. Buffers live until the end are stacked first
 * at the bottom in allocation order (they form a clique), so every later
 * buffer sits above the ones allocated before it. Every layout is measured
 * by its unaligned end or by its mirror image's (offset' = T - offset -
 * aligned size, T the aligned top: the same non-overlaps and alignment,
 * the bottom buffers on top), whichever is lower, and the kept layout is
 * mirrored when that is lower (then the stack of buffers live until the end
 * is at the top). So an unaligned buffer at the peak goes on top when it
 * can.
 *
 * Lower bound: the largest weight of a set of buffers that pairwise may not
 * share, found by two sweeps: over the sequential order (a buffer spans from
 * its allocating op to its last user or the end) and over time (from its
 * allocating op's start to its last end). On one stream the first sweep is
 * exactly opsched_schedule_peak_memory. The aligned bound weighs the same
 * sets at aligned sizes less the largest padding in the set (the top one's
 * padding is not needed): reached when the buffer with the most padding
 * can go on top.
 *
 * Cost: O((V + E + uses) * streams * log V) for happens-before, then
 * O(B log B + C log C) per packer where C is the number of conflicting
 * pairs. When C would exceed 32 B pairs on one stream, or on several
 * max(32 B, min(512 B, 2^23)) (2^23 past 64 streams), the packers do not
 * run; instead "sweep-best-fit" simulates an allocator in allocation order
 * (best fit, coalescing free lists), no conflict lists: a buffer goes back
 * to the shared free list after the last op that does not happen after
 * all its events (exact on one stream), and on up to 64 streams, from its
 * threshold on each stream k, its still-unused part goes to stream k's
 * pool, which only k's allocations take from (at most 1024 pool entries
 * at once; 1-7% above the list packers on blocks of over 1000 pairs per
 * buffer). Race-free,
 * O((B + V) log B + B x streams). The first list packer
 * always runs; the other packers and the compaction passes only while
 * their passes over the lists total at most 256 (V + B) entries (unless
 * OPSCHED_ARENA_EVERY_PACKER asks for every packer). When one pass costs
 * more than a quarter of that (dense lists) and a layout is within 1/128
 * of the aligned lower bound, that layout is kept: no other packer,
 * compaction, antichain bound or improvement round runs (again unless
 * OPSCHED_ARENA_EVERY_PACKER).
 *
 * Ownership: opsched_arena_assign() hands the caller an arena it frees with
 * opsched_arena_destroy(). Array accessors borrow from it. No global state.
 */
#ifndef OPSCHED_ARENA_H
#define OPSCHED_ARENA_H

#include "opsched/graph.h"
#include "opsched/memory.h"
#include "opsched/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The packers, in tie-break order. */
typedef enum opsched_arena_packer {
  OPSCHED_ARENA_GREEDY_SIZE = 0, /* size desc, lowest offset that fits */
  OPSCHED_ARENA_TFLITE,          /* size desc (ties earlier first), best gap */
  OPSCHED_ARENA_XLA_SPATIAL,     /* size desc, best-fit free chunk */
  OPSCHED_ARENA_XLA_TEMPORAL,    /* interval length desc, best-fit chunk */
  OPSCHED_ARENA_BREADTH,         /* ours: heaviest program point first */
  OPSCHED_ARENA_SWEEP_BEST_FIT,  /* ours: allocator simulation, see below */
  OPSCHED_ARENA_PACKER_COUNT
} opsched_arena_packer;

/* Bit masks for opsched_arena_assign_with(): one bit per packer, plus the
 * compaction pass over the winner. */
#define OPSCHED_ARENA_PACKER_BIT(p) (1u << (unsigned)(p))
#define OPSCHED_ARENA_ALL_PACKERS ((1u << OPSCHED_ARENA_PACKER_COUNT) - 1u)
#define OPSCHED_ARENA_COMPACT (1u << 16)
/* Only the sweep packer, as when over the conflict cap (below). */
#define OPSCHED_ARENA_SWEEP (1u << 17)
#define OPSCHED_ARENA_DEFAULT (OPSCHED_ARENA_ALL_PACKERS | OPSCHED_ARENA_COMPACT)
/* Reuse along the timeline (several streams only): when the strict layout
 * is above the lower bound, pack again letting buffer A share with a later
 * buffer B also when every event of A ends, on the schedule's clock, no
 * later than B's allocating op starts and comes before it in the sequential
 * order; keep that layout when its arena is smaller. It is race-free only
 * once the syncs it lists (opsched_arena_syncs) are added to the schedule
 * with opsched_schedule_add_syncs(), which changes no time. When the strict
 * conflict lists are over their cap (or with OPSCHED_ARENA_SWEEP), the
 * timeline is packed (by the sweep packer) when the strict arena is more
 * than 10% above the lower bound or over the limit, and its syncs join
 * each buffer to the last holders of its bytes. */
#define OPSCHED_ARENA_SYNC_REUSE (1u << 18)
/* Run every asked packer even once an earlier one met the lower bound
 * (its size is then final: no packer, compaction or round keeps a layout
 * unless strictly smaller, and none ends below the bound), or the chain
 * cover met it right after greedy-size (blocks of one size). Without it
 * the packers after that point are skipped and opsched_arena_packer_size()
 * returns -1 for them; the layout, its size and winner are the same. On
 * dense lists it also lifts the packers' budget and keeps searching past a
 * layout within 1/128 of the bound (above): the layout may then be smaller
 * than without it. For benchmarks comparing the packers. */
#define OPSCHED_ARENA_EVERY_PACKER (1u << 19)
/* With OPSCHED_ARENA_SYNC_REUSE: pack the strict layout before the
 * timeline one, always. Without it the timeline layout is packed first
 * when a quick lower bound on the strict layout (pairwise conflicting
 * buffers) already shows the strict one more than 1% above the live
 * bytes, and the strict layout is not packed when the timeline one ends
 * at least 1% below that bound. The layout, its size, winner and syncs are
 * the same either way; for tests and benchmarks comparing the two. */
#define OPSCHED_ARENA_STRICT_FIRST (1u << 20)

/* The default alignment in bytes. */
#define OPSCHED_ARENA_DEFAULT_ALIGNMENT 64

/* A packer's name ("greedy-size", "tflite", "xla-spatial", "xla-temporal",
 * "breadth", "sweep-best-fit"); "unknown" when out of range. Never NULL. */
const char *opsched_arena_packer_name(opsched_arena_packer packer);

typedef struct opsched_arena opsched_arena;

/* Assigns offsets with every packer and compaction. `alignment` is a power
 * of two, 0 meaning OPSCHED_ARENA_DEFAULT_ALIGNMENT. The schedule and the
 * buffers must have as many nodes as the graph.
 * Returns OPSCHED_ERR_INVALID on bad arguments, or when the schedule does
 * not order the graph (an edge u->v where u does not happen before v, a
 * wait on a later op) or a use of a buffer of size > 0 does not happen
 * after its allocating op (opsched_schedule_run with options.buffers always
 * orders them; without, the graph's edges must cover every use);
 * OPSCHED_ERR_INFEASIBLE when the aligned sizes sum above INT64_MAX;
 * OPSCHED_ERR_NOMEM. On success *out receives the arena. */
opsched_status opsched_arena_assign(const opsched_graph *graph,
                                    const opsched_schedule *schedule,
                                    const opsched_buffers *buffers,
                                    int64_t alignment, opsched_arena **out);

/* As opsched_arena_assign() with a choice of packers: `packers` is a mask
 * of OPSCHED_ARENA_PACKER_BIT(p) and optionally OPSCHED_ARENA_COMPACT; no
 * packer bit means all. For benchmarks and tests. */
opsched_status opsched_arena_assign_with(const opsched_graph *graph,
                                         const opsched_schedule *schedule,
                                         const opsched_buffers *buffers,
                                         int64_t alignment, unsigned packers,
                                         opsched_arena **out);

/* As opsched_arena_assign_with(); with OPSCHED_ARENA_SYNC_REUSE and a
 * strict layout above `limit` (> 0; 0: none), the timeline layout is kept
 * whenever it is smaller, not only when it saves 1% (a memory limit is
 * worth the waits). */
opsched_status opsched_arena_assign_within(const opsched_graph *graph,
                                           const opsched_schedule *schedule,
                                           const opsched_buffers *buffers,
                                           int64_t alignment, unsigned packers,
                                           int64_t limit, opsched_arena **out);

/* The syncs the layout needs (OPSCHED_ARENA_SYNC_REUSE): pairs
 * from[i] -> (*to)[i] of node ids, sorted by (to, from), for
 * opsched_schedule_add_syncs(). *count is 0 when the strict layout was
 * kept. Borrowed. */
const int32_t *opsched_arena_syncs(const opsched_arena *arena, int64_t *count,
                                   const int32_t **to);

/* Frees the arena; NULL is allowed. */
void opsched_arena_destroy(opsched_arena *arena);

/* Number of buffers (== opsched_buffers_count). */
int32_t opsched_arena_num_buffers(const opsched_arena *arena);
/* The alignment used. */
int64_t opsched_arena_alignment(const opsched_arena *arena);

/* Per buffer id: byte offset (multiple of the alignment; 0 for a zero-size
 * buffer; -1 for a resident buffer or an out-of-range id). */
int64_t opsched_arena_offset(const opsched_arena *arena, int32_t buffer);
/* Per buffer id: size rounded up to the alignment (0 for zero-size and
 * resident buffers, -1 out of range). */
int64_t opsched_arena_aligned_size(const opsched_arena *arena, int32_t buffer);
/* All offsets, indexed by buffer id (borrowed). */
const int64_t *opsched_arena_offsets(const opsched_arena *arena);

/* Bytes of the arena: max over buffers of offset + size (the top buffer's
 * unaligned end; the offsets are aligned, the arena's base must be too). */
int64_t opsched_arena_size(const opsched_arena *arena);
/* Lower bound on any race-free arena, in raw bytes (the heavier of the
 * two sweeps above): the peak live bytes over conflicts. */
int64_t opsched_arena_lower_bound(const opsched_arena *arena);
/* The same with aligned sizes, less the largest padding (aligned - raw size)
 * in the set, which its top buffer does not need:
 * arena >= aligned lower bound >= lower bound. */
int64_t opsched_arena_aligned_lower_bound(const opsched_arena *arena);
/* arena / lower bound - 1 (0 when the lower bound is 0). */
double opsched_arena_fragmentation(const opsched_arena *arena);

/* Name of the packer whose layout was kept, with "+compact" when the
 * compaction pass lowered it (e.g. "xla-spatial+compact"), or
 * "iterated-best-fit" / "perturbed-best-fit" (an improvement round),
 * "chain-cover" (one size, above), "sweep-best-fit" (conflict cap) or
 * "empty" (nothing to place). A static string. */
const char *opsched_arena_winner(const opsched_arena *arena);
/* Arena size a packer reached before compaction, -1 when it did not run
 * (not asked, or skipped once an earlier packer or the chain cover met the
 * lower bound: see OPSCHED_ARENA_EVERY_PACKER). */
int64_t opsched_arena_packer_size(const opsched_arena *arena,
                                  opsched_arena_packer packer);
/* Number of conflicting pairs (buffers of size > 0 that may not share),
 * counting pairs with a buffer live until the end implicitly; over the
 * conflict cap, only the pairs counted before the cap was hit. */
int64_t opsched_arena_num_conflicts(const opsched_arena *arena);

/* The ordering predicate: 1 when buffers a and b (ids) are both allocated
 * by an op and one is ordered before the other, so they may overlap in
 * memory; 0 otherwise (a == b, resident, out of range, or unordered).
 * Independent of sizes. */
int opsched_arena_may_share(const opsched_arena *arena, int32_t a, int32_t b);

#ifdef __cplusplus
}
#endif

#endif /* OPSCHED_ARENA_H */
