/* Buffer assignment into one arena under a multi-stream schedule (see
 * include/opsched/arena.h and docs/bench-arena.md).
 *
 * Outline:
 * 1. Vector clocks from the emitted synchronisation: per op, for every
 *    stream, how many of its ops have completed when the op completes
 *    (stream predecessor joined with the waited producers).
 * 2. Per buffer and stream k a threshold thr[k]: the 1-based place on
 *    stream k of the first op that launches after the allocating op and
 *    every user of the buffer completed. Clocks along a stream only grow,
 *    so one walk along stream k answers that for every op at once (a table
 *    per block of THR_BLOCK streams): O(n x S) in all. A is ordered before
 *    B iff B's allocating op, on stream k, sits at a place >= A.thr[k].
 *    The timeline run (sync-reuse) copies the strict run's thresholds (no
 *    clocks of its own) and lowers them (phase_timeline_thresholds). The
 *    clocks are freed once the thresholds are made.
 * 3. Conflicts by a sweep over the allocation order keeping, for stream k,
 *    the buffers allocated so far whose thr[k] is not reached yet: a buffer
 *    allocated on stream k conflicts exactly with that set (an earlier
 *    buffer can never be ordered after a later one). The streams are swept
 *    one at a time (O(m) memory, not m x S); the set sizes alone come from
 *    histograms of thr[k], so the lists are only walked when they are
 *    built (at most the cap). Buffers live until the end never retire;
 *    they are kept out of the sets and handled by stacking them first, in
 *    allocation order, at the bottom.
 * 4. Packers over the conflict lists; the smallest arena wins; compaction.
 *    Over the cap, the sweep packer alone (arena_sweep.h): no lists.
 * 5. A timeline layout kept gets the syncs that order what it overlaps,
 *    from each buffer's last event on each stream it has one on.
 */
#include "opsched/arena.h"

#include "alloc.h"
#include "arena_bound.h"
#include "arena_clock.h"
#include "arena_sweep.h"
#include "buffers_internal.h"
#include "heap.h"
#include "memory_model.h"
#include "paint_map.h"
#include "rng.h"

#include <stdlib.h>
#include <string.h>

/* Loop iterations ahead that a prefetch asks for a random entry (the next
 * indices are known: the arrays of 1M entries miss the caches). */
#define PF_AHEAD 8

#define NEVER OPSCHED_HB_NEVER

/* Conflict entries per op and buffer that the list packers after the
 * first and their compaction may visit on one block (phase_packers). */
#define ARENA_LIST_VISITS_PER_ITEM 256

struct opsched_arena {
  int32_t nbuf, n, S;
  int64_t alignment;
  int64_t *offset, *asize;
  int64_t size, lower_bound, aligned_lower_bound, conflicts;
  int64_t packer_size[OPSCHED_ARENA_PACKER_COUNT];
  const char *winner;
  /* For the predicate. */
  int32_t *owner;    /* per buffer, -1 resident */
  uint8_t *forever;  /* per buffer */
  int32_t *thr;      /* per buffer * S */
  int32_t *stream;   /* per node */
  int32_t *spos;     /* per node, 1-based place on its stream */
  /* Kept from the strict run for the timeline run's syncs (internal). */
  int32_t m;         /* arena buffers */
  int32_t *ab;       /* local number (allocation order) -> buffer id */
  int64_t *adj_off;  /* conflict lists in local numbers */
  int32_t *adj;
  /* Syncs the layout needs (timeline run kept), pairs from -> to. */
  int32_t *sync_from, *sync_to;
  int64_t nsync;
};

static const char *const packer_names[OPSCHED_ARENA_PACKER_COUNT] = {
    "greedy-size", "tflite", "xla-spatial", "xla-temporal", "breadth",
    "sweep-best-fit"};
static const char *const compact_names[OPSCHED_ARENA_PACKER_COUNT] = {
    "greedy-size+compact", "tflite+compact", "xla-spatial+compact",
    "xla-temporal+compact", "breadth+compact", "sweep-best-fit"};

const char *opsched_arena_packer_name(opsched_arena_packer p) {
  if ((int)p < 0 || p >= OPSCHED_ARENA_PACKER_COUNT)
    return "unknown";
  return packer_names[p];
}

void opsched_arena_destroy(opsched_arena *a) {
  if (!a)
    return;
  opsched_free(a->offset);
  opsched_free(a->asize);
  opsched_free(a->owner);
  opsched_free(a->forever);
  opsched_free(a->thr);
  opsched_free(a->stream);
  opsched_free(a->spos);
  opsched_free(a->ab);
  opsched_free(a->adj_off);
  opsched_free_pages(a->adj);
  opsched_free(a->sync_from);
  opsched_free(a->sync_to);
  opsched_free(a);
}

/* ---- Packing ---------------------------------------------------------- */

/* Arena buffers are numbered 0..m-1 in allocation order (sequential position
 * of the allocating op, then buffer id). */
typedef struct pk {
  int32_t m;
  const int64_t *asz;   /* aligned size */
  const int64_t *rsz;   /* size (unaligned) */
  const uint8_t *fev;   /* live until the end */
  const int64_t *floor; /* bytes of earlier forever buffers (stack) */
  const int64_t *adj_off;
  const int32_t *adj;
  int64_t *off;    /* current layout, -1 = unplaced */
  int64_t *scratch; /* 4 * max degree + 4: intervals, then radix space */
  uint8_t *dirty;   /* per buffer, for compact() */
  int unit;         /* log2 of a unit dividing every size and floor, -1 none */
  int64_t *top;     /* >= every placed buffer's aligned end (place_direct) */
  int64_t *visits;  /* list-pass budget left (arena_work.visits), NULL: none */
} pk;

/* Sorts `cnt` (lo, hi) pairs by lo, in O(cnt) per byte of the largest lo:
 * a stable LSD radix sort through `tmp` (same size), insertion sort when
 * short. Only the order of the lo values matters to place(): among equal
 * lo values the gap scan gives the same result in any order. */
static void sort_by_lo(int64_t *a, int64_t *tmp, int64_t cnt) {
  if (cnt < 32) {
    for (int64_t i = 1; i < cnt; i++) {
      int64_t lo = a[2 * i], hi = a[2 * i + 1], j = i;
      for (; j > 0 && a[2 * j - 2] > lo; j--) {
        a[2 * j] = a[2 * j - 2];
        a[2 * j + 1] = a[2 * j - 1];
      }
      a[2 * j] = lo;
      a[2 * j + 1] = hi;
    }
    return;
  }
  uint64_t all = 0;
  for (int64_t i = 0; i < cnt; i++)
    all |= (uint64_t)a[2 * i];
  /* Offsets are multiples of the alignment: the digits start at the lowest
   * bit set in any lo (the bits below are zero in all of them), so a
   * 64-aligned arena under 16 KiB sorts in one pass. */
  int shift = 0;
  while (shift < 63 && all != 0 && !((all >> shift) & 1))
    shift++;
  int64_t *src = a, *dst = tmp;
  for (; shift < 64 && (all >> shift) != 0; shift += 8) {
    /* Only the digits that occur: the count array is cleared up to the
     * largest digit of this pass. */
    uint64_t top = all >> shift;
    int nd = top > 255 ? 256 : (int)top + 1;
    int64_t count[257];
    memset(count, 0, sizeof *count * (size_t)(nd + 1));
    for (int64_t i = 0; i < cnt; i++)
      count[(((uint64_t)src[2 * i] >> shift) & 255) + 1]++;
    for (int d = 0; d < nd; d++)
      count[d + 1] += count[d];
    for (int64_t i = 0; i < cnt; i++) {
      int64_t at = count[((uint64_t)src[2 * i] >> shift) & 255]++;
      dst[2 * at] = src[2 * i];
      dst[2 * at + 1] = src[2 * i + 1];
    }
    int64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != a)
    memcpy(a, src, sizeof *a * 2 * (size_t)cnt);
}

/* First bit at or after `from` (below `nbits`) equal to `want`; nbits
 * when none. */
static int64_t next_bit(const uint64_t *bm, int64_t nbits, int64_t from, int want) {
  while (from < nbits) {
    uint64_t w = want ? bm[from >> 6] : ~bm[from >> 6];
    w &= ~(uint64_t)0 << (from & 63);
    if (w)
      return (from & ~(int64_t)63) + __builtin_ctzll(w);
    from = (from & ~(int64_t)63) + 64;
  }
  return nbits;
}

/* The free runs of bm from unit `from` on, the unbounded one above the
 * last set bit excluded: the lowest of at least `su` units (first_fit),
 * else the smallest such, earliest on ties; -1 when there is none. */
static int64_t free_run(const uint64_t *bm, int64_t nbits, int64_t from, int64_t su,
                        int first_fit) {
  int64_t best = -1, best_gap = 0;
  int64_t at = next_bit(bm, nbits, from, 0);
  while (at < nbits) {
    int64_t end = next_bit(bm, nbits, at, 1);
    if (end >= nbits)
      break; /* the unbounded run from the top */
    if (end - at >= su) {
      if (first_fit)
        return at;
      if (best < 0 || end - at < best_gap) {
        best = at;
        best_gap = end - at;
      }
    }
    at = next_bit(bm, nbits, end, 0);
  }
  return best;
}

/* place() over a bitmap of occupied units (a unit: the largest power of
 * two dividing every bound), without sorting, when the bitmap fits in the
 * radix space (at most 2 cnt + 2 words). The free runs above the floor
 * are exactly the gaps of the sorted scan (no interval is empty and size
 * > 0, so the same overlap test): lowest run of >= size units (first
 * fit), else the smallest bounded one (earliest on ties), else the top.
 * Returns 0 when it does not apply. */
static int place_bitmap(const pk *P, int64_t cnt, int64_t floor_, int64_t size,
                        int first_fit, int64_t *out) {
  const int64_t *iv = P->scratch;
  uint64_t all = (uint64_t)floor_ | (uint64_t)size;
  int64_t maxhi = floor_;
  for (int64_t i = 0; i < cnt; i++) {
    if (iv[2 * i + 1] <= iv[2 * i])
      return 0;
    all |= (uint64_t)iv[2 * i] | (uint64_t)iv[2 * i + 1];
    if (iv[2 * i + 1] > maxhi)
      maxhi = iv[2 * i + 1];
  }
  if (size <= 0 || floor_ < 0)
    return 0;
  int u = __builtin_ctzll(all);
  int64_t nunits = maxhi >> u, words = (nunits + 63) / 64;
  if (words > 2 * cnt + 2)
    return 0;
  uint64_t *bm = (uint64_t *)(P->scratch + 2 * cnt + 2);
  memset(bm, 0, sizeof *bm * (size_t)words);
  for (int64_t i = 0; i < cnt; i++) {
    int64_t a = iv[2 * i] >> u, b = iv[2 * i + 1] >> u; /* [a, b), b > a */
    for (int64_t w = a >> 6; w <= (b - 1) >> 6; w++) {
      uint64_t m = ~(uint64_t)0;
      if (w == a >> 6)
        m &= ~(uint64_t)0 << (a & 63);
      if (w == (b - 1) >> 6)
        m &= ~(uint64_t)0 >> (63 - ((b - 1) & 63));
      bm[w] |= m;
    }
  }
  int64_t best = free_run(bm, words * 64, floor_ >> u, size >> u, first_fit);
  *out = best >= 0 ? best << u : (maxhi > floor_ ? maxhi : floor_);
  return 1;
}

/* Sets the units [a, b) (b > a) in bm. */
static void set_units(uint64_t *bm, int64_t a, int64_t b) {
  int64_t wa = a >> 6, wb = (b - 1) >> 6;
  uint64_t lo = ~(uint64_t)0 << (a & 63), hi = ~(uint64_t)0 >> (63 - ((b - 1) & 63));
  if (wa == wb) {
    bm[wa] |= lo & hi;
    return;
  }
  bm[wa] |= lo;
  for (int64_t w = wa + 1; w < wb; w++)
    bm[w] = ~(uint64_t)0;
  bm[wb] |= hi;
}

/* place() straight from the conflict list into a bitmap of units (P->unit:
 * every offset is a sum of floors and aligned sizes, so a multiple of it)
 * up to the layout's top (*P->top), no interval copied or sorted: the same
 * free runs and choice as place_bitmap (the bits above the neighbours'
 * highest end are clear, so the run from there is the unbounded one).
 * Returns 0 when it does not apply (no unit, or more words than twice the
 * list's length plus two: the scratch space). */
static int place_direct(const pk *P, int32_t x, int first_fit, int64_t *out) {
  int u = P->unit;
  int64_t deg = P->adj_off[x + 1] - P->adj_off[x];
  if (u < 0 || *P->top < 0)
    return 0;
  int64_t words = ((*P->top >> u) + 63) / 64;
  if (words > 2 * deg + 2)
    return 0;
  uint64_t *bm = (uint64_t *)P->scratch;
  memset(bm, 0, sizeof *bm * (size_t)words);
  for (int64_t e = P->adj_off[x]; e < P->adj_off[x + 1]; e++) {
    int32_t y = P->adj[e];
    int64_t o = P->off[y];
    if (o < 0)
      continue;
    int64_t a = o >> u, b = (o + P->asz[y]) >> u;
    if (b - a == 1) /* one unit: the usual case when every size is one */
      bm[a >> 6] |= (uint64_t)1 << (a & 63);
    else
      set_units(bm, a, b);
  }
  int64_t best = free_run(bm, words * 64, P->floor[x] >> u, P->asz[x] >> u, first_fit);
  if (best < 0) { /* above the neighbours' highest end (the top set bit) */
    int64_t w = words - 1, maxhi = P->floor[x];
    while (w >= 0 && bm[w] == 0)
      w--;
    if (w >= 0 && ((w * 64 + 64 - __builtin_clzll(bm[w])) << u) > maxhi)
      maxhi = (w * 64 + 64 - __builtin_clzll(bm[w])) << u;
    best = maxhi >> u; /* a multiple of the unit */
  }
  *out = best << u;
  return 1;
}

/* Whether a pass over the conflict lists (`cost` entries) fits the budget
 * left in *visits (taken from it); always with no budget (NULL). */
static int pass_affordable(int64_t *visits, int64_t cost) {
  if (!visits)
    return 1;
  if (*visits < cost)
    return 0;
  *visits -= cost;
  return 1;
}

/* Lowest (first_fit) or best-fitting gap for x among its placed
 * neighbours, at or above its floor. */
static int64_t place(const pk *P, int32_t x, int first_fit) {
  int64_t cnt = 0, size = P->asz[x];
  int64_t direct;
  if (place_direct(P, x, first_fit, &direct))
    return direct;
  for (int64_t e = P->adj_off[x]; e < P->adj_off[x + 1]; e++) {
    int32_t y = P->adj[e];
    if (P->off[y] >= 0) {
      P->scratch[2 * cnt] = P->off[y];
      P->scratch[2 * cnt + 1] = P->off[y] + P->asz[y];
      cnt++;
    }
  }
  int64_t quick;
  if (cnt >= 32 && place_bitmap(P, cnt, P->floor[x], size, first_fit, &quick))
    return quick;
  sort_by_lo(P->scratch, P->scratch + 2 * cnt + 2, cnt);
  int64_t cur = P->floor[x], best = -1, best_gap = 0;
  for (int64_t i = 0; i < cnt; i++) {
    int64_t lo = P->scratch[2 * i], hi = P->scratch[2 * i + 1];
    if (hi <= cur)
      continue;
    if (lo >= cur && lo - cur >= size) {
      if (first_fit)
        return cur;
      if (best < 0 || lo - cur < best_gap) {
        best = cur;
        best_gap = lo - cur;
      }
    }
    if (hi > cur)
      cur = hi;
  }
  return best >= 0 ? best : cur;
}

/* The arena a layout needs: the unaligned end of its top buffer (every
 * view fits; offsets stay aligned), or of its mirror image, whichever is
 * lower. The mirror, offset' = T - offset - aligned size with T the aligned
 * top, keeps every non-overlap and the alignment, and puts on top the
 * buffers at the bottom: its end is T - min(offset + aligned - raw size).
 * *mirror (may be NULL) is 1 when the mirror is strictly lower. O(m). */
static int64_t layout_end_of(int32_t m, const int64_t *off, const int64_t *asz,
                             const int64_t *rsz, int *mirror) {
  int64_t T = 0, up = 0, low = INT64_MAX;
  for (int32_t i = 0; i < m; i++) {
    if (off[i] < 0)
      continue;
    if (off[i] + asz[i] > T)
      T = off[i] + asz[i];
    if (off[i] + rsz[i] > up)
      up = off[i] + rsz[i];
    if (off[i] + asz[i] - rsz[i] < low)
      low = off[i] + asz[i] - rsz[i];
  }
  int flip = low != INT64_MAX && T - low < up;
  if (mirror)
    *mirror = flip;
  return flip ? T - low : up;
}

/* The layout's aligned top (max offset + aligned size). */
static int64_t aligned_top(int32_t m, const int64_t *off, const int64_t *asz) {
  int64_t T = 0;
  for (int32_t i = 0; i < m; i++)
    if (off[i] >= 0 && off[i] + asz[i] > T)
      T = off[i] + asz[i];
  return T;
}

static int64_t layout_top(const pk *P) {
  return layout_end_of(P->m, P->off, P->asz, P->rsz, NULL);
}

/* Places the non-forever buffers in `perm` order (forever ones are fixed). */
static int64_t run_packer(const pk *P, const int32_t *perm, int32_t count,
                          int first_fit) {
  for (int32_t i = 0; i < P->m; i++)
    if (!P->fev[i])
      P->off[i] = -1;
  *P->top = aligned_top(P->m, P->off, P->asz);
  for (int32_t i = 0; i < count; i++) {
    int32_t x = perm[i];
    P->off[x] = place(P, x, first_fit);
    if (P->off[x] + P->asz[x] > *P->top)
      *P->top = P->off[x] + P->asz[x];
  }
  return layout_top(P);
}

typedef struct sort_key {
  int64_t k1, k2;
  int32_t id;
} sort_key;

static int cmp_key(const void *pa, const void *pb) {
  const sort_key *a = pa, *b = pb;
  if (a->k1 != b->k1)
    return a->k1 < b->k1 ? -1 : 1;
  if (a->k2 != b->k2)
    return a->k2 < b->k2 ? -1 : 1;
  return (a->id > b->id) - (a->id < b->id);
}

static int bit_length(uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

/* Sorts keys in cmp_key's order. The ids are distinct, so the order is
 * total and any sort gives it: when (k1, k2, id), each less its minimum,
 * packs into 64 bits, one radix sort of the packed keys replaces qsort. */
static void sort_keys(sort_key *keys, int32_t count) {
  if (count < 2)
    return;
  int64_t lo1 = keys[0].k1, hi1 = lo1, lo2 = keys[0].k2, hi2 = lo2;
  int32_t maxid = 0, minid = 0;
  for (int32_t i = 0; i < count; i++) {
    minid = keys[i].id < minid ? keys[i].id : minid;
    lo1 = keys[i].k1 < lo1 ? keys[i].k1 : lo1;
    hi1 = keys[i].k1 > hi1 ? keys[i].k1 : hi1;
    lo2 = keys[i].k2 < lo2 ? keys[i].k2 : lo2;
    hi2 = keys[i].k2 > hi2 ? keys[i].k2 : hi2;
    maxid = keys[i].id > maxid ? keys[i].id : maxid;
  }
  int bid = bit_length((uint64_t)maxid);
  int b2 = bit_length((uint64_t)hi2 - (uint64_t)lo2);
  int b1 = bit_length((uint64_t)hi1 - (uint64_t)lo1);
  /* Few keys (the improvement rounds sort a small block's buffers many
   * times): on the stack. Not zero-filled: the sort writes tmp before
   * reading it. */
  enum { FEW_KEYS = 64 };
  uint64_t few[2 * FEW_KEYS];
  uint64_t *packed = NULL;
  if (b1 + b2 + bid <= 64 && minid >= 0)
    packed = count <= FEW_KEYS ? few
                               : opsched_realloc_array(NULL, 2 * (size_t)count, sizeof *packed);
  if (!packed) {
    qsort(keys, (size_t)count, sizeof *keys, cmp_key);
    return;
  }
  for (int32_t i = 0; i < count; i++)
    packed[i] = ((uint64_t)keys[i].k1 - (uint64_t)lo1) << b2 << bid |
                ((uint64_t)keys[i].k2 - (uint64_t)lo2) << bid | (uint64_t)keys[i].id;
  mem_radix_sort_u64(packed, packed + count, (size_t)count);
  uint64_t idmask = bid == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bid) - 1;
  uint64_t mask2 = b2 == 64 ? ~(uint64_t)0 : ((uint64_t)1 << b2) - 1;
  for (int32_t i = 0; i < count; i++) {
    uint64_t k = packed[i];
    keys[i].id = (int32_t)(k & idmask);
    keys[i].k2 = (int64_t)(((k >> bid) & mask2) + (uint64_t)lo2);
    keys[i].k1 = (int64_t)(((b2 + bid >= 64 ? 0 : k >> (b2 + bid))) + (uint64_t)lo1);
  }
  if (packed != few)
    opsched_free(packed);
}

/* Drops every buffer, in offset order, to its lowest feasible offset.
 * A buffer is placed again only when a conflicting buffer that lay below
 * its top moved since its last placement (`dirty`) and it is above its
 * floor: a placed buffer is at its lowest feasible offset, and a
 * neighbour's move can lower that only by freeing bytes below the
 * buffer's top (buffers only move down; a neighbour that was above it
 * frees bytes above every offset it could take), so place() would return
 * the offset it has: the same layout as placing every buffer in every
 * pass. In offset order the buffers a mover marks come later in the same
 * pass (a conflicting buffer placed earlier lies wholly below it), so a
 * second pass finds none: every buffer is placed once. */
static void compact(const pk *P, int32_t *perm, int32_t count, sort_key *keys) {
  *P->top = aligned_top(P->m, P->off, P->asz); /* buffers only move down */
  for (int32_t i = 0; i < count; i++)
    P->dirty[perm[i]] = 1;
  for (int pass = 0; pass < 4 && pass_affordable(P->visits, P->adj_off[P->m] + P->m); pass++) {
    for (int32_t i = 0; i < count; i++) {
      keys[i].k1 = P->off[perm[i]];
      keys[i].k2 = 0;
      keys[i].id = perm[i];
    }
    sort_keys(keys, count);
    int moved = 0;
    for (int32_t i = 0; i < count; i++) {
      int32_t x = keys[i].id;
      perm[i] = x;
      int64_t old = P->off[x];
      if (!P->dirty[x] || old == P->floor[x])
        continue;
      P->dirty[x] = 0;
      P->off[x] = -1;
      int64_t now = place(P, x, 1);
      P->off[x] = now < old ? now : old;
      if (now < old) {
        moved = 1;
        for (int64_t e = P->adj_off[x]; e < P->adj_off[x + 1]; e++) {
          int32_t z = P->adj[e];
          if (old < P->off[z] + P->asz[z])
            P->dirty[z] = 1;
        }
      }
    }
    if (!moved)
      break;
  }
}

/* Best fit of the non-forever buffers in the order of `keys` (sorted here;
 * forever buffers back on their stack), then compaction. When the arena is
 * below *best, keeps the layout in best_off and returns 1. */
static int best_fit_in_key_order(const pk *P, sort_key *keys, int32_t *perm,
                                 int32_t count, int64_t *best, int64_t *best_off) {
  sort_keys(keys, count);
  for (int32_t c = 0; c < count; c++)
    perm[c] = keys[c].id;
  for (int32_t x = 0; x < P->m; x++)
    P->off[x] = P->fev[x] ? P->floor[x] : -1;
  run_packer(P, perm, count, 0);
  compact(P, perm, count, keys);
  int64_t top = layout_top(P);
  if (top >= *best)
    return 0;
  *best = top;
  memcpy(best_off, P->off, sizeof *P->off * (size_t)P->m);
  return 1;
}

opsched_status opsched_arena_assign(const opsched_graph *g,
                                    const opsched_schedule *s,
                                    const opsched_buffers *b, int64_t alignment,
                                    opsched_arena **out) {
  return opsched_arena_assign_with(g, s, b, alignment, OPSCHED_ARENA_DEFAULT, out);
}

static int cmp_event(const void *pa, const void *pb) {
  const int64_t *a = pa, *b = pb;
  if (a[0] != b[0])
    return a[0] < b[0] ? -1 : 1;
  return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Sorts `nev` (time, kind, x) events, x < m, in cmp_event's order, ties
 * by x as the stable qsort leaves them: when the times leave room, as one
 * packed 64-bit key per event, radix sorted (mem_radix_sort_u64); qsort
 * otherwise or when out of memory. */
static void sort_events(int64_t *events, int64_t nev, int32_t m) {
  int xbits = 0;
  while (xbits < 31 && ((int64_t)1 << xbits) < m)
    xbits++;
  int64_t tmin = 0, tmax = 0;
  for (int64_t e = 0; e < nev; e++) {
    tmin = events[3 * e] < tmin ? events[3 * e] : tmin;
    tmax = events[3 * e] > tmax ? events[3 * e] : tmax;
  }
  uint64_t *keys = NULL;
  if (tmin >= 0 && tmax < (int64_t)1 << (62 - xbits))
    keys = opsched_alloc_array_raw((size_t)nev * 2 + 1, sizeof *keys); /* written first */
  if (!keys) {
    qsort(events, (size_t)nev, 3 * sizeof *events, cmp_event);
    return;
  }
  for (int64_t e = 0; e < nev; e++)
    keys[e] = (uint64_t)events[3 * e] << (xbits + 1) | (uint64_t)events[3 * e + 1] << xbits |
              (uint64_t)events[3 * e + 2];
  mem_radix_sort_u64(keys, keys + nev, (size_t)nev);
  uint64_t xmask = ((uint64_t)1 << xbits) - 1;
  for (int64_t e = 0; e < nev; e++) {
    events[3 * e] = (int64_t)(keys[e] >> (xbits + 1));
    events[3 * e + 1] = (int64_t)(keys[e] >> xbits & 1);
    events[3 * e + 2] = (int64_t)(keys[e] & xmask);
  }
  opsched_free(keys);
}

/* The state of one packing run: inputs, the result being filled, and every
 * scratch array, allocated by the phases and freed in work_free alone. */
typedef struct arena_work {
  const opsched_graph *g;
  const opsched_schedule *s;
  const opsched_buffers *b;
  int64_t alignment;
  unsigned packers;
  int32_t n, S, nb;
  int32_t m;               /* arena buffers (non-resident, size > 0) */
  opsched_arena *A;        /* the result */
  hb_ctx h;                /* clocks; h.spos moved to A->spos */
  hb_ctx hv;               /* view of h with spos = A->spos */
  const int64_t *starts, *ends;
  /* Per buffer id: last sequential position and last end time of its events. */
  int32_t *lastseq;
  int64_t *lastend;
  /* Local numbering (allocation order): local -> buffer id; arena buffers
   * allocated at each sequential position (CSR). */
  int32_t *ab, *alloc_off;
  int64_t *diff;           /* aligned live bytes per sequential position */
  /* Per local buffer. xp0, xlast: the sequential positions of its
   * allocation and last event (lastseq), read in local order. */
  int32_t *xp0, *xlast;
  uint8_t *fev;
  int64_t *asz, *rsz, *floor_, *off, *best_off, *sw_off, *breadth;
  /* Conflict lists (CSR over local numbers); capped: too large, not built. */
  int64_t *adj_off;
  int32_t *adj;
  int64_t pairs;
  int capped;
  /* Conflict entries the packers after the first and their compaction may
   * still visit (pass_affordable). */
  int64_t visits;
  int64_t fsum;            /* bytes of the forever stack */
  int64_t *scratch;        /* 4 * max degree + 4, for place() */
  int64_t top;             /* the packers' running aligned top (pk.top) */
  uint8_t *dirty;          /* per local buffer, for compact() */
  int32_t *perm;
  sort_key *keys;
  int64_t best, sweep_top; /* best arena so far (-1 none); sweep's (-2 not run) */
  int winner;              /* packer of best, -1 none */
  int64_t bound;           /* lower bound on every layout; -1 not computed */
  int32_t *chain;          /* one size: a minimum chain cover (arena_bound.h) */
  int32_t nchains;         /* its chains, -1 none */
  int chains_checked;      /* chain_layout's list check: 0 not run, 1 no two
                              buffers of one chain conflict, -1 some do */
} arena_work;

static void work_free(arena_work *W) {
  opsched_arena_destroy(W->A);
  opsched_hb_free(&W->h);
  opsched_free(W->lastseq);
  opsched_free(W->lastend);
  opsched_free(W->ab);
  opsched_free(W->alloc_off);
  opsched_free(W->diff);
  opsched_free(W->fev);
  opsched_free(W->xp0);
  opsched_free(W->xlast);
  opsched_free(W->asz);
  opsched_free(W->rsz);
  opsched_free(W->floor_);
  opsched_free(W->off);
  opsched_free(W->best_off);
  opsched_free(W->sw_off);
  opsched_free(W->breadth);
  opsched_free(W->adj_off);
  opsched_free_pages(W->adj);
  opsched_free(W->scratch);
  opsched_free(W->dirty);
  opsched_free(W->perm);
  opsched_free(W->keys);
  opsched_free(W->chain);
}

/* The result object and the clocks of the schedule's synchronisation. */
static opsched_status phase_clocks(arena_work *W, int clocks) {
  int32_t n = W->n, nb = W->nb, S = W->S;
  opsched_arena *A = W->A = opsched_alloc_array(1, sizeof *A);
  if (!A)
    return OPSCHED_ERR_NOMEM;
  A->nbuf = nb;
  A->n = n;
  A->S = S;
  A->alignment = W->alignment;
  A->winner = "empty";
  for (int p = 0; p < OPSCHED_ARENA_PACKER_COUNT; p++)
    A->packer_size[p] = -1;
  A->offset = opsched_alloc_array_raw((size_t)nb, sizeof *A->offset);
  A->asize = opsched_alloc_array_raw((size_t)nb, sizeof *A->asize);
  A->owner = opsched_alloc_array_raw((size_t)nb, sizeof *A->owner);
  A->forever = opsched_alloc_array_raw((size_t)nb, sizeof *A->forever);
  /* Written for every buffer with an owner, the only ones read. */
  A->thr = opsched_alloc_array_raw((size_t)nb * (size_t)S, sizeof *A->thr);
  A->stream = opsched_alloc_array_raw((size_t)n, sizeof *A->stream);
  if (!A->offset || !A->asize || !A->owner || !A->forever || !A->thr || !A->stream)
    return OPSCHED_ERR_NOMEM;
  const int32_t *sstream = opsched_schedule_streams(W->s);
  for (int32_t v = 0; v < n; v++)
    A->stream[v] = sstream[v];
  W->h.n = n;
  W->h.S = S;
  W->h.stream = A->stream;
  opsched_status st = opsched_hb_build(W->g, W->s, &W->h, clocks);
  if (st != OPSCHED_OK)
    return st;
  A->spos = W->h.spos;
  W->h.spos = NULL;
  W->hv = W->h;
  W->hv.spos = A->spos;
  return OPSCHED_OK;
}

/* Per buffer: owner, flags, aligned size, first last events. */
static opsched_status buffer_sizes(arena_work *W) {
  opsched_arena *A = W->A;
  int64_t total = 0; /* aligned bytes of arena buffers */
  for (int32_t i = 0; i < W->nb; i++) {
    int32_t o = opsched_buffers_allocating_node(W->b, i);
    int64_t sz = opsched_buffers_size(W->b, i);
    A->owner[i] = o;
    A->forever[i] = (uint8_t)(o >= 0 && opsched_buffers_live_until_end(W->b, i));
    A->offset[i] = o < 0 ? -1 : 0;
    A->asize[i] = 0;
    if (o < 0)
      continue;
    W->lastseq[i] = W->h.seq[o];
    W->lastend[i] = W->ends[o];
    if (sz > 0) {
      if (sz > INT64_MAX - (W->alignment - 1))
        return OPSCHED_ERR_INFEASIBLE;
      A->asize[i] = (sz + W->alignment - 1) & ~(W->alignment - 1);
      if (total > INT64_MAX - A->asize[i])
        return OPSCHED_ERR_INFEASIBLE;
      total += A->asize[i];
      W->m++;
    }
  }
  return OPSCHED_OK;
}

/* Streams per block of the threshold tables: n x this many ints. */
#define THR_BLOCK 32

/* Buffer i's last events with its use by node u. */
static void interval_extend(arena_work *W, int32_t i, int32_t u) {
  if (W->h.seq[u] > W->lastseq[i])
    W->lastseq[i] = W->h.seq[u];
  if (W->ends[u] > W->lastend[i])
    W->lastend[i] = W->ends[u];
}

/* One use (buffer i, node u, neither resident nor the owner's own) of the
 * buffer intervals: its last events; 0 when the use does not happen after
 * the allocation. */
static int interval_use(arena_work *W, int32_t i, int32_t o, int32_t u) {
  if (W->A->asize[i] > 0 && !opsched_hb_before(&W->hv, o, u))
    return 0;
  interval_extend(W, i, u);
  return 1;
}

/* t[d] = max(t[d], f[d]) for d < nk (<= THR_BLOCK): a whole block with a
 * constant count, which the compiler vectorizes at -O2. */
static void max_into(int32_t *restrict t, const int32_t *restrict f, int32_t nk) {
  if (nk == THR_BLOCK) {
    for (int32_t d = 0; d < THR_BLOCK; d++)
      t[d] = f[d] > t[d] ? f[d] : t[d];
    return;
  }
  for (int32_t d = 0; d < nk; d++)
    t[d] = f[d] > t[d] ? f[d] : t[d];
}

/* Thresholds: thr[k] of a buffer is the latest first_after(e, k) over its
 * events e (allocating op and uses), NEVER for buffers live until the end.
 * The first_after tables of a block of streams at a time, O(n x S) in all
 * (a binary search per event and stream was O(uses x S x log n)). The
 * first block's walk over the uses also finishes the buffer intervals
 * (interval_use; OPSCHED_ERR_INVALID when a use does not happen after the
 * allocation): one pass over the uses, each buffer's owner read once. */
static opsched_status phase_thresholds(arena_work *W) {
  opsched_arena *A = W->A;
  int32_t n = W->n, S = W->S, B = S < THR_BLOCK ? S : THR_BLOCK;
  /* opsched_hb_first_after_all writes every place of its column. */
  int32_t *F = opsched_alloc_array_raw((size_t)n * (size_t)B, sizeof *F);
  int32_t *cov = opsched_alloc_array_raw((size_t)S, sizeof *cov);
  if (!F || !cov) {
    opsched_free(F);
    opsched_free(cov);
    return OPSCHED_ERR_NOMEM;
  }
  const int64_t *so_off = W->hv.so_off;
  const int32_t *use_buf = W->b->use_buf, *use_node = W->b->use_node;
  int64_t nuses = W->b->nuses;
  for (int32_t k0 = 0; k0 < S; k0 += B) {
    int32_t nk = S - k0 < B ? S - k0 : B;
    for (int32_t d = 0; d < nk; d++)
      opsched_hb_first_after_all(&W->hv, k0 + d, F + d, B, cov);
    for (int32_t i = 0; i < W->nb; i++) {
      int32_t o = A->owner[i];
      if (o < 0)
        continue;
      int32_t *t = A->thr + (size_t)i * (size_t)S + (size_t)k0;
      int64_t at = so_off[A->stream[o]] + A->spos[o] - 1;
      if (A->forever[i])
        for (int32_t d = 0; d < nk; d++)
          t[d] = NEVER;
      else
        memcpy(t, F + (size_t)at * (size_t)B, sizeof *t * (size_t)nk);
    }
    for (int64_t e = 0; e < nuses; e++) {
      if (e + 2 * PF_AHEAD < nuses)
        __builtin_prefetch(&A->owner[use_buf[e + 2 * PF_AHEAD]]);
      if (e + PF_AHEAD < nuses) { /* its owner prefetched above */
        int32_t j = use_buf[e + PF_AHEAD], oj = A->owner[j];
        __builtin_prefetch(A->thr + (size_t)j * (size_t)S + (size_t)k0, 1);
        if (k0 == 0 && oj >= 0) {
          __builtin_prefetch(&A->asize[j]);
          __builtin_prefetch(&W->lastseq[j], 1);
          __builtin_prefetch(&W->lastend[j], 1);
          __builtin_prefetch(&A->stream[oj]);
          __builtin_prefetch(&A->spos[oj]);
        }
      }
      int32_t i = use_buf[e], u = use_node[e], o = A->owner[i];
      if (o < 0 || u == o)
        continue;
      if (k0 == 0 && !interval_use(W, i, o, u)) {
        opsched_free(F);
        opsched_free(cov);
        return OPSCHED_ERR_INVALID;
      }
      if (A->forever[i])
        continue;
      int64_t at = so_off[A->stream[u]] + A->spos[u] - 1;
      max_into(A->thr + (size_t)i * (size_t)S + (size_t)k0, F + (size_t)at * (size_t)B, nk);
    }
  }
  opsched_free(F);
  opsched_free(cov);
  return OPSCHED_OK;
}

/* The thresholds of `strict`, a run over the same schedule and buffers
 * (so the same clocks), and the buffer intervals from the uses, which that
 * run checked: a second run builds no clocks (n x S) and no thresholds. */
static void thresholds_from(arena_work *W, const opsched_arena *strict) {
  opsched_arena *A = W->A;
  memcpy(A->thr, strict->thr, sizeof *A->thr * (size_t)W->nb * (size_t)W->S);
  const int32_t *use_buf = W->b->use_buf, *use_node = W->b->use_node;
  for (int64_t e = 0; e < W->b->nuses; e++) {
    int32_t i = use_buf[e], u = use_node[e], o = A->owner[i];
    if (o >= 0 && u != o)
      interval_extend(W, i, u);
  }
}

/* Buffer intervals: sizes, last events and thresholds from every use
 * (OPSCHED_ERR_INVALID when a use does not happen after the allocation;
 * the uses are walked in phase_thresholds), or from `strict`'s
 * (thresholds_from). The clocks are not read past this phase: freed. */
static opsched_status phase_buffer_intervals(arena_work *W, const opsched_arena *strict) {
  W->lastseq = opsched_alloc_array((size_t)W->nb, sizeof *W->lastseq);
  W->lastend = opsched_alloc_array((size_t)W->nb, sizeof *W->lastend);
  if (!W->lastseq || !W->lastend)
    return OPSCHED_ERR_NOMEM;
  opsched_status st = buffer_sizes(W);
  if (st == OPSCHED_OK && strict)
    thresholds_from(W, strict);
  else if (st == OPSCHED_OK)
    st = phase_thresholds(W);
  opsched_free(W->h.comp);
  W->h.comp = W->hv.comp = NULL;
  return st;
}

/* The first sequential position whose op starts at or after t (n if none),
 * in an order by start. */
static int32_t first_start_at(const int64_t *starts, const int32_t *order, int32_t n,
                              int64_t t) {
  int32_t lo = 0, hi = n;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (starts[order[mid]] >= t)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/* Timeline reuse: a threshold may also be the first place on stream k
 * whose op starts at or after the buffer's last event ends and comes after
 * it in the sequential order. That order is by start (every schedule is
 * sorted so, opsched_schedule_sort_order): both tests then hold from one
 * cut of it on, the later of the first position starting at or after the
 * last end and the one after the last event, and the place on stream k is
 * the count of k's ops before the cut. The buffers by cut, one sweep of
 * the order counting per stream: O(n + nb x S) (a binary search per buffer
 * and stream was nb x S x log n). An order not by start keeps the strict
 * thresholds (always safe); OPSCHED_ERR_NOMEM out of memory. */
static opsched_status phase_timeline_thresholds(arena_work *W) {
  opsched_arena *A = W->A;
  const int32_t *order = opsched_schedule_order(W->s);
  const int64_t *so_off = W->h.so_off;
  int32_t n = W->n, nb = W->nb, S = W->S;
  for (int32_t p = 1; p < n; p++)
    if (W->starts[order[p]] < W->starts[order[p - 1]])
      return OPSCHED_OK;
  int32_t *off = opsched_alloc_array((size_t)n + 2, sizeof *off); /* buffers by cut */
  int32_t *ids = opsched_alloc_array_raw((size_t)nb + 1, sizeof *ids);
  int32_t *cut = opsched_alloc_array_raw((size_t)nb + 1, sizeof *cut);
  int32_t *cnt = opsched_alloc_array((size_t)S, sizeof *cnt); /* k's ops before the cut */
  int err = !off || !ids || !cut || !cnt;
  for (int32_t i = 0; !err && i < nb; i++) {
    cut[i] = -1;
    if (A->owner[i] < 0 || A->forever[i])
      continue;
    int32_t c = first_start_at(W->starts, order, n, W->lastend[i]);
    cut[i] = c > W->lastseq[i] + 1 ? c : W->lastseq[i] + 1;
    off[cut[i] + 1]++;
  }
  for (int32_t c = 0; !err && c <= n; c++)
    off[c + 1] += off[c];
  for (int32_t i = 0; !err && i < nb; i++)
    if (cut[i] >= 0)
      ids[off[cut[i]]++] = i; /* off[c] ends as the start of bucket c + 1 */
  for (int32_t c = 0, p = 0, e = 0; !err && c <= n; c++) {
    for (; p < c; p++)
      cnt[A->stream[order[p]]]++;
    for (; e < off[c]; e++) {
      int32_t *t = A->thr + (size_t)ids[e] * (size_t)S;
      for (int32_t k = 0; k < S; k++)
        if (cnt[k] < so_off[k + 1] - so_off[k] && cnt[k] + 1 < t[k])
          t[k] = cnt[k] + 1;
    }
  }
  opsched_free(off);
  opsched_free(ids);
  opsched_free(cut);
  opsched_free(cnt);
  return err ? OPSCHED_ERR_NOMEM : OPSCHED_OK;
}

/* Arena buffers in allocation order: the local numbering, and the per
 * local buffer arrays every packer reads. */
static opsched_status phase_local_numbering(arena_work *W) {
  opsched_arena *A = W->A;
  int32_t n = W->n, m = W->m;
  W->alloc_off = opsched_alloc_array((size_t)n + 1, sizeof *W->alloc_off);
  W->ab = opsched_alloc_array_raw((size_t)m, sizeof *W->ab);
  W->fev = opsched_alloc_array_raw((size_t)m, sizeof *W->fev);
  W->asz = opsched_alloc_array_raw((size_t)m, sizeof *W->asz);
  W->rsz = opsched_alloc_array_raw((size_t)m, sizeof *W->rsz);
  W->xp0 = opsched_alloc_array_raw((size_t)m, sizeof *W->xp0);
  W->xlast = opsched_alloc_array_raw((size_t)m, sizeof *W->xlast);
  if (!W->alloc_off || !W->ab || !W->fev || !W->asz || !W->rsz || !W->xp0 || !W->xlast)
    return OPSCHED_ERR_NOMEM;
  int32_t *alloc_off = W->alloc_off;
  for (int32_t i = 0; i < W->nb; i++)
    if (A->asize[i] > 0)
      alloc_off[W->h.seq[A->owner[i]] + 1]++;
  for (int32_t p = 0; p < n; p++)
    alloc_off[p + 1] += alloc_off[p];
  for (int32_t i = 0; i < W->nb; i++)
    if (A->asize[i] > 0)
      W->ab[alloc_off[W->h.seq[A->owner[i]]]++] = i;
  for (int32_t p = n; p > 0; p--)
    alloc_off[p] = alloc_off[p - 1];
  alloc_off[0] = 0;
  for (int32_t p = 0; p < n; p++)
    for (int32_t x = alloc_off[p]; x < alloc_off[p + 1]; x++)
      W->xp0[x] = p;
  for (int32_t x = 0; x < m; x++) {
    int32_t i = W->ab[x];
    W->fev[x] = A->forever[i];
    W->asz[x] = A->asize[i];
    W->rsz[x] = W->b->bytes[i];
    W->xlast[x] = W->lastseq[i];
  }
  return OPSCHED_OK;
}

/* The live buffers' largest slack (aligned - raw size), for the aligned
 * bound: a max-heap of the buffers pushed so far, the dead ones dropped
 * lazily (a buffer is pushed once per sweep and dies once). */
typedef struct slack_heap {
  opsched_heap h;
  const arena_work *W;
  uint8_t *live; /* per local buffer (the time sweep); NULL: by position */
} slack_heap;

/* Largest slack of the buffers live at sequential position p (or marked
 * live), 0 when none. */
static int64_t live_slack(slack_heap *H, int32_t p) {
  const arena_work *W = H->W;
  while (H->h.size > 0) {
    int32_t x = H->h.ids[0];
    if (H->live ? H->live[x] : W->fev[x] || W->xlast[x] >= p)
      return -H->h.keys[x];
    opsched_heap_pop(&H->h);
  }
  return 0;
}

/* A set of buffers that pairwise may not share, aligned bytes `alive`,
 * needs alive - (the largest slack in it) bytes: every buffer but the top
 * one lies at its aligned size below the top one. */
static void aligned_bound(opsched_arena *A, slack_heap *H, int64_t alive, int32_t p) {
  if (alive > A->aligned_lower_bound && alive - live_slack(H, p) > A->aligned_lower_bound)
    A->aligned_lower_bound = alive - live_slack(H, p);
}

/* Lower bounds (raw, and aligned but for the top buffer's slack): a sweep
 * over the sequential order, and one over time. Leaves W->diff = aligned
 * live bytes per position. */
static opsched_status phase_lower_bounds(arena_work *W) {
  opsched_arena *A = W->A;
  int32_t n = W->n, m = W->m;
  W->diff = opsched_alloc_array((size_t)n + 1, sizeof *W->diff);
  int64_t *raw_diff = opsched_alloc_array((size_t)n + 1, sizeof *raw_diff);
  /* Written before read: events, slack, the heap's ids, live (set before
   * its buffer is pushed). */
  int64_t *events = opsched_alloc_array_raw((size_t)m * 2, 3 * sizeof *events);
  int64_t *slack = opsched_alloc_array_raw((size_t)m + 1, sizeof *slack);
  int32_t *ids = opsched_alloc_array_raw((size_t)m + 1, sizeof *ids);
  uint8_t *live = opsched_alloc_array_raw((size_t)m + 1, sizeof *live);
  slack_heap H = {.W = W};
  if (!W->diff || !raw_diff || !events || !slack || !ids || !live) {
    opsched_free(raw_diff);
    opsched_free(events);
    opsched_free(slack);
    opsched_free(ids);
    opsched_free(live);
    return OPSCHED_ERR_NOMEM;
  }
  for (int32_t x = 0; x < m; x++)
    slack[x] = W->rsz[x] - W->asz[x]; /* the heap's first: the largest slack */
  opsched_heap_init(&H.h, ids, slack);
  int64_t nev = 0;
  for (int32_t x = 0; x < m; x++) {
    if (x + PF_AHEAD < m) {
      __builtin_prefetch(&A->owner[W->ab[x + PF_AHEAD]]);
      __builtin_prefetch(&W->lastend[W->ab[x + PF_AHEAD]]);
    }
    int32_t i = W->ab[x], p0 = W->xp0[x];
    int64_t raw = W->rsz[x];
    raw_diff[p0] += raw;
    W->diff[p0] += W->asz[x];
    if (!W->fev[x]) {
      raw_diff[W->xlast[x] + 1] -= raw;
      W->diff[W->xlast[x] + 1] -= W->asz[x];
    }
    int64_t t0 = W->starts[A->owner[i]];
    if (W->fev[x] || W->lastend[i] > t0) {
      int64_t *ev = events + 3 * nev++;
      ev[0] = t0, ev[1] = 1, ev[2] = x; /* alloc after frees at one instant */
      if (!W->fev[x]) {
        ev = events + 3 * nev++;
        ev[0] = W->lastend[i], ev[1] = 0, ev[2] = x;
      }
    }
  }
  int64_t lv = 0, alive = 0;
  for (int32_t p = 0; p < n; p++) {
    lv += raw_diff[p];
    alive += W->diff[p];
    W->diff[p] = alive;
    for (int32_t x = W->alloc_off[p]; x < W->alloc_off[p + 1]; x++)
      opsched_heap_push(&H.h, x);
    if (lv > A->lower_bound)
      A->lower_bound = lv;
    aligned_bound(A, &H, alive, p);
  }
  sort_events(events, nev, m);
  lv = alive = 0;
  H.h.size = 0;
  H.live = live;
  for (int64_t e = 0; e < nev; e++) {
    if (e + PF_AHEAD < nev) {
      int32_t y = (int32_t)events[3 * (e + PF_AHEAD) + 2];
      __builtin_prefetch(&W->rsz[y]);
      __builtin_prefetch(&W->asz[y]);
    }
    int32_t x = (int32_t)events[3 * e + 2];
    int64_t sign = events[3 * e + 1] ? 1 : -1;
    lv += sign * W->rsz[x];
    alive += sign * W->asz[x];
    live[x] = sign > 0;
    if (sign > 0)
      opsched_heap_push(&H.h, x);
    if (lv > A->lower_bound)
      A->lower_bound = lv;
    aligned_bound(A, &H, alive, 0);
  }
  opsched_free(raw_diff);
  opsched_free(events);
  opsched_free(slack);
  opsched_free(ids);
  opsched_free(live);
  return OPSCHED_OK;
}

/* Retirement buckets of streams k0 .. k0 + nk - 1: (stream k, place t) ->
 * the local buffers whose thr[k] == t, ascending, CSR over the places of
 * those streams (key so_off[k] - so_off[k0] + t - 1; bk holds m x nk).
 * retirement_counts makes bk_off (bk_off[key] = buffers of smaller keys)
 * and fill, its copy that retirement_fill then advances as it fills bk. */
static void retirement_counts(const arena_work *W, int32_t k0, int32_t nk, int64_t *bk_off,
                              int64_t *fill) {
  const opsched_arena *A = W->A;
  const int64_t *so_off = W->h.so_off;
  int64_t keys = so_off[k0 + nk] - so_off[k0];
  for (int64_t q = 0; q <= keys; q++)
    bk_off[q] = 0;
  /* Counts in buffer id order (the threshold rows in memory order): the
   * arena buffers not live until the end, as retirement_fill's local ones. */
  for (int32_t i = 0; i < W->nb; i++) {
    if (A->asize[i] <= 0 || A->forever[i])
      continue;
    const int32_t *thr = A->thr + (size_t)i * (size_t)W->S + (size_t)k0;
    for (int32_t d = 0; d < nk; d++)
      if (thr[d] != NEVER)
        bk_off[so_off[k0 + d] - so_off[k0] + thr[d]]++;
  }
  for (int64_t q = 0; q < keys; q++) {
    bk_off[q + 1] += bk_off[q];
    fill[q] = bk_off[q];
  }
}

static void retirement_fill(const arena_work *W, int32_t k0, int32_t nk, int32_t *bk,
                            int64_t *fill) {
  const opsched_arena *A = W->A;
  const int64_t *so_off = W->h.so_off;
  for (int32_t x = 0; x < W->m; x++) {
    if (W->fev[x])
      continue;
    const int32_t *thr = A->thr + (size_t)W->ab[x] * (size_t)W->S + (size_t)k0;
    for (int32_t d = 0; d < nk; d++)
      if (thr[d] != NEVER)
        bk[fill[so_off[k0 + d] - so_off[k0] + thr[d] - 1]++] = x;
  }
}

/* Per local buffer, its allocating op's sequential position, stream and
 * place on it: read by the sweep once per stream, so looked up once. */
typedef struct sweep_alloc {
  int32_t seq, stream, spos;
} sweep_alloc;

/* The conflict sweep's state for one stream at a time. */
typedef struct sweep_state {
  sweep_alloc *xa;      /* per local buffer */
  int32_t *seq_at;      /* per place of each stream (so_ops'), its op's seq */
  int64_t *bk_off, *fill;
  int32_t *bk;
  int32_t *set, *where; /* the active set, and each member's index in it */
  int64_t *cnt;         /* per local buffer: its earlier conflicts */
  int64_t *eoff;        /* CSR of those lists (m + 1) */
  int32_t *E;
} sweep_state;

/* One stream k over the allocation order (see the outline): the buffers
 * allocated so far whose thr[k] is not reached yet. A buffer allocated on
 * stream k conflicts exactly with that set, copied to E (its size is
 * cnt, from sweep_all's pass 0). bk_off/bk: the buckets from stream k's. */
static void sweep_stream(const arena_work *W, sweep_state *ss, int32_t k, const int64_t *bk_off) {
  const int32_t *seq_at = ss->seq_at + W->h.so_off[k];
  int64_t len = W->h.so_off[k + 1] - W->h.so_off[k], q = 0;
  int32_t *set = ss->set, *where = ss->where, n = 0;
  for (int32_t x = 0; x < W->m; x++) {
    int32_t p = ss->xa[x].seq;
    /* Ops of stream k up to x's allocating op retire their buckets first. */
    for (; q < len && seq_at[q] <= p; q++)
      for (int64_t e = bk_off[q]; e < bk_off[q + 1]; e++) {
        int32_t y = ss->bk[e], at = where[y], last = set[--n];
        set[at] = last;
        where[last] = at;
      }
    if (ss->xa[x].stream == k)
      memcpy(ss->E + ss->eoff[x], set, sizeof *set * (size_t)n);
    if (!W->fev[x]) {
      where[x] = n;
      set[n++] = x;
    }
  }
}

/* Every stream, a block of THR_BLOCK streams' buckets at a time. Pass 0
 * needs no set: the set on stream k when x is allocated there holds the
 * earlier buffers not live until the end (all inserted before x), less
 * those whose thr[k] is at most the place of x's allocating op (each of
 * them allocated before x). */
static void sweep_all(const arena_work *W, sweep_state *ss, int pass) {
  const int64_t *so_off = W->h.so_off;
  int32_t S = W->S, B = S < THR_BLOCK ? S : THR_BLOCK;
  for (int32_t k0 = 0; k0 < S; k0 += B) {
    int32_t nk = S - k0 < B ? S - k0 : B;
    retirement_counts(W, k0, nk, ss->bk_off, ss->fill);
    if (pass == 1) {
      retirement_fill(W, k0, nk, ss->bk, ss->fill);
      for (int32_t d = 0; d < nk; d++)
        sweep_stream(W, ss, k0 + d, ss->bk_off + (so_off[k0 + d] - so_off[k0]));
      continue;
    }
    int64_t inserted = 0;
    for (int32_t x = 0; x < W->m; x++) {
      int32_t k = ss->xa[x].stream;
      if (k >= k0 && k < k0 + nk) {
        const int64_t *base = ss->bk_off + (so_off[k] - so_off[k0]);
        ss->cnt[x] = inserted - (base[ss->xa[x].spos] - base[0]);
      }
      inserted += !W->fev[x];
    }
  }
}

/* The symmetric lists from the earlier ones, in the order a single sweep
 * over the sequential order fills them: x's earlier conflicts (set order),
 * then the later buffers that conflict with x, ascending. */
static opsched_status adjacency(arena_work *W, const sweep_state *ss) {
  int32_t m = W->m;
  int64_t *adj_off = W->adj_off, *fill = ss->fill;
  for (int32_t x = 0; x < m; x++)
    adj_off[x + 1] = ss->cnt[x];
  for (int64_t e = 0; e < ss->eoff[m]; e++)
    adj_off[ss->E[e] + 1]++;
  for (int32_t x = 0; x < m; x++)
    adj_off[x + 1] += adj_off[x];
  /* Not zero-filled: the loop below writes every entry. */
  W->adj = opsched_alloc_pages_raw((size_t)adj_off[m], sizeof *W->adj);
  if (!W->adj)
    return OPSCHED_ERR_NOMEM;
  for (int32_t y = 0; y < m; y++) {
    fill[y] = adj_off[y];
    for (int64_t e = ss->eoff[y]; e < ss->eoff[y + 1]; e++) {
      int32_t x = ss->E[e];
      W->adj[fill[y]++] = x;
      W->adj[fill[x]++] = y;
    }
  }
  return OPSCHED_OK;
}

/* Conflict lists by the sweep, one stream at a time: count, then (unless
 * the pairs exceed the cap, counted in allocation order, or only the sweep
 * packer runs: W->capped) fill. O(m x streams + pairs) time, O(n + m x
 * THR_BLOCK + pairs) memory. */
static opsched_status phase_conflict_sweep(arena_work *W) {
  int32_t m = W->m, B = W->S < THR_BLOCK ? W->S : THR_BLOCK;
  int64_t n = W->n;
  sweep_state ss = {0};
  W->capped = (W->packers & OPSCHED_ARENA_SWEEP) != 0;
  if (W->capped)
    return OPSCHED_OK;
  W->adj_off = opsched_alloc_array((size_t)m + 1, sizeof *W->adj_off);
  /* Not zero-filled but adj_off: each is written before it is read
   * (retirement_buckets clears bk_off). The buckets and the set only when
   * the pairs are under the cap. */
  ss.bk_off = opsched_alloc_array_raw((size_t)n + 1, sizeof *ss.bk_off);
  ss.fill = opsched_alloc_array_raw((size_t)(n > m ? n : m), sizeof *ss.fill);
  ss.cnt = opsched_alloc_array_raw((size_t)m + 1, sizeof *ss.cnt);
  ss.eoff = opsched_alloc_array_raw((size_t)m + 1, sizeof *ss.eoff);
  ss.xa = opsched_alloc_array_raw((size_t)m + 1, sizeof *ss.xa);
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!W->adj_off || !ss.bk_off || !ss.fill || !ss.cnt || !ss.eoff || !ss.xa)
    goto done;
  st = OPSCHED_OK;
  ss.eoff[0] = 0;
  for (int32_t x = 0; x < m; x++) {
    int32_t o = W->A->owner[W->ab[x]];
    ss.xa[x].seq = W->h.seq[o];
    ss.xa[x].stream = W->A->stream[o];
    ss.xa[x].spos = W->A->spos[o];
  }
  sweep_all(W, &ss, 0);
  /* On one stream a buffer's conflicts are the overlaps of sequential
   * lifetimes, exactly what the sweep packer's allocator simulation frees
   * by: it packs within 0.2% of the list packers there (random blocks of
   * 1000-6000 ops) in O(m log m), while the lists of a dense block hold up
   * to m^2/2 pairs that every list pass visits (random 6000 ops: 6.5M
   * pairs, 0.59 s). So one stream caps the pairs in proportion to the
   * buffers. On several streams the sweep reuses per stream through its
   * pools (arena_sweep.h): within 1-7% of the lists on blocks of over 1000
   * pairs per buffer, but 15-90% above them at 70-360, where online best
   * fit loses to the offline packers. So the lists are kept up to 512
   * pairs per buffer (and at most 2^23, or 32 per buffer if more); past 64
   * streams, without pools, up to 2^23. */
  int64_t cap = (int64_t)m * 32, several = (int64_t)m * 512;
  if (several > ((int64_t)1 << 23) || W->S > OPSCHED_SWEEP_POOL_STREAMS)
    several = (int64_t)1 << 23;
  if (W->S > 1 && cap < several)
    cap = several;
  for (int32_t x = 0; x < m && !W->capped; x++) {
    if (W->pairs + ss.cnt[x] > cap)
      W->capped = 1; /* over the cap: the count stops here */
    else
      W->pairs += ss.cnt[x];
    ss.eoff[x + 1] = ss.eoff[x] + ss.cnt[x];
  }
  if (W->capped)
    goto done;
  /* Not zero-filled: pass 1 copies each buffer's cnt entries there. */
  ss.E = opsched_alloc_pages_raw((size_t)W->pairs + 1, sizeof *ss.E);
  ss.bk = opsched_alloc_array_raw((size_t)m * (size_t)B + 1, sizeof *ss.bk);
  ss.set = opsched_alloc_array_raw((size_t)m + 1, sizeof *ss.set);
  ss.where = opsched_alloc_array_raw((size_t)m + 1, sizeof *ss.where);
  ss.seq_at = opsched_alloc_array_raw((size_t)n + 1, sizeof *ss.seq_at);
  if (!ss.E || !ss.bk || !ss.set || !ss.where || !ss.seq_at) {
    st = OPSCHED_ERR_NOMEM;
    goto done;
  }
  for (int64_t a = 0; a < n; a++)
    ss.seq_at[a] = W->h.seq[W->h.so_ops[a]];
  sweep_all(W, &ss, 1);
  st = adjacency(W, &ss);
done:
  opsched_free(ss.bk_off);
  opsched_free(ss.fill);
  opsched_free(ss.bk);
  opsched_free(ss.set);
  opsched_free(ss.where);
  opsched_free(ss.cnt);
  opsched_free(ss.eoff);
  opsched_free_pages(ss.E);
  opsched_free(ss.xa);
  opsched_free(ss.seq_at);
  return st;
}

/* The forever stack (allocation order, at the bottom), every buffer's
 * floor, and the conflict count including the implicit forever pairs. */
static opsched_status phase_floors(arena_work *W) {
  int32_t m = W->m;
  /* The list packers' arrays only when they may run: the sweep packer
   * alone (capped) places by its own simulation, into the layout that
   * becomes the best (arena_pack). floor_ is written here, best_off and
   * keys before they are read. */
  if (!W->capped) {
    W->floor_ = opsched_alloc_array_raw((size_t)m, sizeof *W->floor_);
    W->off = opsched_alloc_array((size_t)m, sizeof *W->off);
    W->best_off = opsched_alloc_array_raw((size_t)m, sizeof *W->best_off);
    W->perm = opsched_alloc_array((size_t)m, sizeof *W->perm);
    W->keys = opsched_alloc_array_raw((size_t)m, sizeof *W->keys);
    if (!W->floor_ || !W->off || !W->best_off || !W->perm || !W->keys)
      return OPSCHED_ERR_NOMEM;
  }
  int64_t fcount = 0;
  W->A->conflicts = W->pairs;
  for (int32_t x = 0; x < m; x++) {
    if (W->floor_)
      W->floor_[x] = W->fsum;
    W->A->conflicts += fcount; /* with every earlier forever buffer */
    if (W->fev[x]) {
      if (W->off)
        W->off[x] = W->fsum;
      W->fsum += W->asz[x];
      fcount++;
    }
  }
  return OPSCHED_OK;
}

/* The sweep packer over release positions rel (arena_sweep.h), with the
 * per-stream pools on several streams: each stream's release buckets are
 * the thresholds' (retirement_buckets over every stream at once). Returns
 * the top, -1 when out of memory. */
static int64_t sweep_pack(arena_work *W, const int32_t *rel) {
  sweep_plan P = {.m = W->m, .n = W->n, .asz = W->asz, .alloc_off = W->alloc_off,
                  .rel = rel, .S = 1};
  if (W->S == 1 || W->S > OPSCHED_SWEEP_POOL_STREAMS)
    return opsched_sweep_pack(&P, W->sw_off);
  int32_t n = W->n, *op_stream = opsched_alloc_array_raw((size_t)n + 1, sizeof *op_stream);
  int32_t *op_place = opsched_alloc_array_raw((size_t)n + 1, sizeof *op_place), *ids = NULL;
  int64_t *pool_off = opsched_alloc_array_raw((size_t)n + 1, sizeof *pool_off);
  int64_t *fill = opsched_alloc_array_raw((size_t)n + 1, sizeof *fill), top = -1;
  if (op_stream && op_place && pool_off && fill) {
    for (int32_t v = 0; v < n; v++) {
      op_stream[W->h.seq[v]] = W->A->stream[v];
      op_place[W->h.seq[v]] = W->A->spos[v];
    }
    retirement_counts(W, 0, W->S, pool_off, fill);
    ids = opsched_alloc_array_raw((size_t)pool_off[W->h.so_off[W->S]] + 1, sizeof *ids);
  }
  if (ids) {
    retirement_fill(W, 0, W->S, ids, fill);
    P.S = W->S, P.op_stream = op_stream, P.op_place = op_place;
    P.so_off = W->h.so_off, P.pool_off = pool_off, P.pool_ids = ids;
    top = opsched_sweep_pack(&P, W->sw_off);
  }
  opsched_free(op_stream);
  opsched_free(op_place);
  opsched_free(pool_off);
  opsched_free(fill);
  opsched_free(ids);
  return top;
}

/* The sweep packer's layout (W->sw_off, W->sweep_top). Release points:
 * the last sequential position of an op that does not happen after all of
 * the buffer's events; on several streams also the thresholds, through
 * the pools (sweep_pack). */
static opsched_status sweep_layout(arena_work *W) {
  const opsched_arena *A = W->A;
  const hb_ctx *h = &W->h;
  int32_t m = W->m, S = W->S;
  /* Written for every buffer (rel) or place (seq_at) before they are
   * read. seq_at: the sequential position of the op at each place of each
   * stream (so_ops' order), one lookup per buffer and stream instead of
   * two dependent ones. */
  int32_t *rel = opsched_alloc_array_raw((size_t)m, sizeof *rel);
  int32_t *seq_at = opsched_alloc_array_raw((size_t)W->n + 1, sizeof *seq_at);
  W->sw_off = opsched_alloc_array_raw((size_t)m, sizeof *W->sw_off);
  if (!rel || !seq_at || !W->sw_off) {
    opsched_free(rel);
    opsched_free(seq_at);
    return OPSCHED_ERR_NOMEM;
  }
  for (int32_t a = 0; a < W->n; a++)
    seq_at[a] = h->seq[h->so_ops[a]];
  for (int32_t x = 0; x < m; x++) {
    if (W->fev[x]) {
      rel[x] = W->n;
      continue;
    }
    if (x + PF_AHEAD < m)
      __builtin_prefetch(A->thr + (size_t)W->ab[x + PF_AHEAD] * (size_t)S);
    int32_t i = W->ab[x], r = W->xlast[x];
    const int32_t *thr = A->thr + (size_t)i * (size_t)S;
    for (int32_t k = 0; k < S; k++) {
      int64_t len = h->so_off[k + 1] - h->so_off[k];
      int64_t place_ = thr[k] == NEVER ? len : thr[k] - 1;
      if (place_ > 0 && seq_at[h->so_off[k] + place_ - 1] > r)
        r = seq_at[h->so_off[k] + place_ - 1];
    }
    rel[x] = r;
  }
  opsched_free(seq_at);
  W->sweep_top = sweep_pack(W, rel);
  opsched_free(rel);
  if (W->sweep_top == -1)
    return OPSCHED_ERR_NOMEM;
  W->sweep_top = layout_end_of(m, W->sw_off, W->asz, W->rsz, NULL);
  if (m > 0)
    W->A->packer_size[OPSCHED_ARENA_SWEEP_BEST_FIT] = W->sweep_top;
  return OPSCHED_OK;
}

/* The sweep packer now when the conflict lists were capped (its layout is
 * the result); when merely asked, phase_packers runs it in its turn, so it
 * is skipped, as the packers before it are, once the bound is met. */
static opsched_status phase_sweep_packer(arena_work *W) {
  W->sweep_top = -2;
  return W->capped ? sweep_layout(W) : OPSCHED_OK;
}

/* Breadth of each buffer: the largest aligned live bytes over its
 * positions (range maximum over a segment tree of W->diff). */
static opsched_status phase_breadth(arena_work *W) {
  int32_t n = W->n, m = W->m, size = 1;
  while (size < n)
    size *= 2;
  int64_t *tree = opsched_alloc_array((size_t)size * 2, sizeof *tree);
  W->breadth = opsched_alloc_array((size_t)m, sizeof *W->breadth);
  if (!tree || !W->breadth) {
    opsched_free(tree);
    return OPSCHED_ERR_NOMEM;
  }
  for (int32_t p = 0; p < n; p++)
    tree[size + p] = W->diff[p];
  for (int32_t p = size - 1; p > 0; p--)
    tree[p] = tree[2 * p] > tree[2 * p + 1] ? tree[2 * p] : tree[2 * p + 1];
  for (int32_t x = 0; x < m; x++) {
    int64_t lo = W->xp0[x] + size, hi = W->xlast[x] + size + 1, mx = 0;
    for (; lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1) {
        if (tree[lo] > mx)
          mx = tree[lo];
        lo++;
      }
      if (hi & 1) {
        hi--;
        if (tree[hi] > mx)
          mx = tree[hi];
      }
    }
    W->breadth[x] = mx;
  }
  opsched_free(tree);
  return OPSCHED_OK;
}

/* Sort keys of the non-forever buffers for packer p; returns their count. */
static int32_t packer_keys(const arena_work *W, int p) {
  int32_t cnt = 0;
  for (int32_t x = 0; x < W->m; x++) {
    if (W->fev[x])
      continue;
    int64_t len = W->xlast[x] - W->xp0[x];
    sort_key *kk = &W->keys[cnt++];
    kk->id = x;
    kk->k2 = 0;
    switch (p) {
    case OPSCHED_ARENA_GREEDY_SIZE:
    case OPSCHED_ARENA_TFLITE:
      kk->k1 = -W->asz[x];
      break;
    case OPSCHED_ARENA_XLA_SPATIAL:
      kk->k1 = -W->asz[x];
      kk->k2 = -len;
      break;
    case OPSCHED_ARENA_XLA_TEMPORAL:
      kk->k1 = -len;
      kk->k2 = -W->asz[x];
      break;
    default:
      kk->k1 = -W->breadth[x];
      kk->k2 = -W->asz[x];
      break;
    }
  }
  return cnt;
}

static pk packer_view(arena_work *W) {
  /* The unit: the lowest bit set in any aligned size or floor. */
  uint64_t all = 0;
  for (int32_t x = 0; x < W->m; x++)
    all |= (uint64_t)W->asz[x] | (uint64_t)W->floor_[x];
  pk P = {W->m,      W->asz,  W->rsz, W->fev,     W->floor_, W->adj_off,
          W->adj,    W->off,  W->scratch, W->dirty, all ? __builtin_ctzll(all) : -1,
          &W->top,   NULL};
  return P;
}

/* Whether the conflict lists are dense: one pass over them costs more than
 * a quarter of the packers' budget (fewer than four passes fit in it). */
static int dense_lists(const arena_work *W) {
  if (W->capped || !W->adj_off)
    return 0;
  int64_t pass = W->adj_off[W->m] + W->m;
  return pass > ARENA_LIST_VISITS_PER_ITEM * ((int64_t)W->n + W->m) / 4;
}

/* No layout ends below this: the aligned live bytes less the top buffer's
 * padding or, once the best layout is above those, the tighter largest set
 * of pairwise conflicting buffers (arena_bound.h; blocks of up to 4096
 * buffers, work bounded by the improvement rounds' own). Computed once per
 * run, the first time a layout is above the first bound. */
static int64_t layout_bound(arena_work *W) {
  int64_t bound = W->A->aligned_lower_bound;
  if (W->best <= bound)
    return bound;
  if (W->bound < 0) {
    /* Buffers of one aligned size: the chains of the matching too. */
    int one_size = 1;
    for (int32_t x = 0, first = -1; x < W->m && one_size; x++)
      if (!W->fev[x])
        one_size = first < 0 ? (first = x, 1) : W->asz[x] == W->asz[first];
    /* Several sizes on dense lists: the bound could only spare the passes
     * left in the packers' budget (fewer than four), and its matching's
     * budget is as large (random blocks of 2,800-3,600 buffers: spent
     * whole, no bound). Without chains the bound changes no layout: it
     * only stops packers and rounds that could not go below it. */
    if (!one_size && dense_lists(W)) {
      W->bound = bound;
      return bound;
    }
    if (one_size && !W->chain)
      W->chain = opsched_alloc_array((size_t)W->m, sizeof *W->chain);
    int64_t anti = opsched_arena_antichain_cover(
        W->m, W->fev, W->asz, W->rsz, W->adj_off, W->adj, 4096,
        256 * ((int64_t)W->n + W->m), one_size ? W->chain : NULL, &W->nchains);
    W->bound = anti > bound ? anti : bound;
  }
  return W->bound;
}

static int64_t round_budget(const arena_work *W, int64_t cap, int64_t per_item);

/* Forever buffers of the chain layout's size a, each into the lowest slot
 * (offset slot x a) none of the buffers it conflicts with holds: its list
 * (earlier buffers live at its allocation), every later buffer (forever
 * buffers never retire: those pairs are implicit) and every earlier forever
 * buffer. W->perm holds the slot of each buffer placed, W->dirty the marks.
 * 0, or -1 when that would cost more than the rounds' own budget. */
static int forever_slots(arena_work *W, int64_t a, int32_t slots) {
  int32_t m = W->m, *slot = W->perm;
  int64_t nf = 0;
  for (int32_t x = 0; x < m; x++)
    nf += W->fev[x];
  if (nf * (int64_t)m > round_budget(W, (int64_t)1 << 20, 64))
    return -1;
  for (int32_t x = 0; x < m; x++)
    slot[x] = W->fev[x] ? -1 : W->chain[x];
  for (int32_t f = 0; f < m; f++) {
    if (!W->fev[f])
      continue;
    memset(W->dirty, 0, (size_t)slots);
    for (int64_t e = W->adj_off[f]; e < W->adj_off[f + 1]; e++)
      if (slot[W->adj[e]] >= 0)
        W->dirty[slot[W->adj[e]]] = 1;
    for (int32_t x = 0; x < m; x++)
      if ((x > f && !W->fev[x]) || (x < f && W->fev[x]))
        W->dirty[slot[x]] = 1;
    int32_t at = 0;
    while (W->dirty[at])
      at++; /* slots = chains + forever buffers: one is free */
    slot[f] = at;
    W->off[f] = (int64_t)at * a;
  }
  return 0;
}

/* Buffers of one aligned size a: chain c of the cover at offset c a. Buffers
 * of one chain are pairwise ordered (checked against the lists), so they
 * may share one slot; forever buffers of size a take the lowest slots they
 * may share (forever_slots); others go on their stack under the chains.
 * With as many chains as the largest antichain has buffers and the forever
 * buffers within the chains' slots, this meets the bound. Leaves the layout
 * in W->off and returns its end, -1 when there is no cover or the lists put
 * two buffers of one chain in conflict. */
static int64_t chain_layout(arena_work *W, const pk *P) {
  if (!W->chain || W->nchains <= 0)
    return -1;
  int64_t a = -1;
  int32_t nf = 0, same = 1;
  for (int32_t x = 0; x < W->m && a < 0; x++)
    if (!W->fev[x])
      a = W->asz[x];
  for (int32_t x = 0; x < W->m; x++)
    if (W->fev[x])
      nf++, same &= W->asz[x] == a;
  if (a <= 0 || W->nchains + nf > (INT64_MAX - W->fsum) / a - 1)
    return -1;
  /* The cover and the lists do not change within a run: checked once. */
  for (int32_t x = 0; x < W->m && !W->chains_checked; x++) {
    if (W->fev[x])
      continue;
    for (int64_t e = W->adj_off[x]; e < W->adj_off[x + 1]; e++)
      if (!W->fev[W->adj[e]] && W->chain[W->adj[e]] == W->chain[x]) {
        W->chains_checked = -1;
        break;
      }
  }
  if (!W->chains_checked)
    W->chains_checked = 1;
  if (W->chains_checked < 0)
    return -1;
  int64_t base = same ? 0 : W->fsum;
  for (int32_t x = 0; x < W->m; x++)
    W->off[x] = W->fev[x] ? W->floor_[x] : base + (int64_t)W->chain[x] * a;
  if (same && nf > 0 && forever_slots(W, a, W->nchains + nf) != 0) {
    for (int32_t x = 0; x < W->m; x++) /* the stack under the chains */
      W->off[x] = W->fev[x] ? W->floor_[x] : W->fsum + (int64_t)W->chain[x] * a;
  }
  return layout_top(P);
}

/* Keeps the chain cover's layout (in W->off, ending at top) as the best. */
static void take_chain_layout(arena_work *W, int64_t top) {
  W->best = top;
  W->A->winner = "chain-cover";
  memcpy(W->best_off, W->off, sizeof *W->off * (size_t)W->m);
}

/* Whether the best layout so far is kept as it is on dense lists: a pass
 * over them (one packer, one compaction pass, one improvement round's best
 * fit) costs more than a quarter of the packers' budget, and the layout is
 * within 1/128 of the aligned live bytes, which no layout goes below. The
 * rest of the search would cost a pass each (the antichain bound as much)
 * for at most that 1/128: over the corpus networks, the generator families
 * and random blocks (365 packings on 1, 4 and 16 streams) it found a
 * smaller layout 3 times on such lists, 0.05-0.2% smaller. Never with
 * OPSCHED_ARENA_EVERY_PACKER, which lifts the budget too. */
static int settled(const arena_work *W) {
  if (W->best < 0 || (W->packers & OPSCHED_ARENA_EVERY_PACKER) || !dense_lists(W))
    return 0;
  int64_t live = W->A->aligned_lower_bound;
  return W->best - live <= live / 128;
}

/* Whether the best layout so far already meets the lower bound, so no
 * packer, compaction or round can find a smaller one (each keeps a layout
 * only when strictly smaller), or is settled: the rest is skipped unless
 * every packer's size is asked for (OPSCHED_ARENA_EVERY_PACKER). */
static int at_bound(arena_work *W) {
  return W->best >= 0 && !(W->packers & OPSCHED_ARENA_EVERY_PACKER) &&
         (settled(W) || W->best <= layout_bound(W));
}

/* One size, greedy-size above the bound: the chain cover's layout when it
 * meets the bound, before the other packers (none of them, no compaction
 * and no round can go lower: they are skipped, or with
 * OPSCHED_ARENA_EVERY_PACKER run for their sizes only). Returns 1 when
 * chain_layout ran (W->perm, W->off used); W->winner is -1 when its layout
 * was taken. */
static int chain_first(arena_work *W, const pk *P) {
  if (W->capped || !(W->packers & OPSCHED_ARENA_COMPACT) || settled(W) ||
      W->best <= layout_bound(W) || !W->chain)
    return 0;
  int64_t top = chain_layout(W, P);
  if (top >= 0 && top < W->best && top <= layout_bound(W)) {
    take_chain_layout(W, top);
    W->winner = -1;
  }
  for (int32_t x = 0; x < W->m; x++) /* the packers' stack, as phase_floors left it */
    if (W->fev[x])
      W->off[x] = W->floor_[x];
  return 1;
}

/* Every asked packer over the conflict lists (and the sweep's result);
 * the smallest arena wins; then compaction of the winner. */
static opsched_status phase_packers(arena_work *W) {
  int32_t m = W->m;
  int64_t maxdeg = 0;
  for (int32_t x = 0; x < m; x++)
    if (W->adj_off[x + 1] - W->adj_off[x] > maxdeg)
      maxdeg = W->adj_off[x + 1] - W->adj_off[x];
  W->scratch = opsched_alloc_array((size_t)maxdeg * 4 + 4, sizeof *W->scratch);
  W->dirty = opsched_alloc_array((size_t)m, sizeof *W->dirty);
  if (!W->scratch || !W->dirty || phase_breadth(W) != OPSCHED_OK)
    return OPSCHED_ERR_NOMEM;
  pk P = packer_view(W);
  /* The first list packer always runs; the others and the compaction
   * passes while ARENA_LIST_VISITS_PER_ITEM x (ops + buffers) conflict
   * entries last (all of them, unless every packer's size is asked), so a
   * dense block's passes cost in proportion to its ops, not its pairs. */
  W->visits = INT64_MAX;
  if (!(W->packers & OPSCHED_ARENA_EVERY_PACKER)) {
    W->visits = ARENA_LIST_VISITS_PER_ITEM * ((int64_t)W->n + m);
    P.visits = &W->visits;
  }
  int64_t pass = W->adj_off[m] + m;
  int listed = 0; /* a list packer ran */
  int sorted = -1; /* the packer whose order W->perm holds (cnt buffers) */
  int32_t cnt = 0;
  for (int p = 0; p < OPSCHED_ARENA_PACKER_COUNT; p++) {
    if (!(W->packers & OPSCHED_ARENA_PACKER_BIT(p)) || at_bound(W))
      continue;
    if (p != OPSCHED_ARENA_SWEEP_BEST_FIT && listed && !pass_affordable(P.visits, pass))
      continue;
    if (p == OPSCHED_ARENA_SWEEP_BEST_FIT) {
      opsched_status st = sweep_layout(W);
      if (st != OPSCHED_OK)
        return st;
      if (W->best < 0 || W->sweep_top < W->best) {
        W->best = W->sweep_top;
        W->winner = p;
        memcpy(W->best_off, W->sw_off, sizeof *W->sw_off * (size_t)m);
      }
      continue;
    }
    /* tflite's order is greedy-size's (the same keys): sorted once. */
    if (!(p == OPSCHED_ARENA_TFLITE && sorted == OPSCHED_ARENA_GREEDY_SIZE)) {
      cnt = packer_keys(W, p);
      sort_keys(W->keys, cnt);
      for (int32_t c = 0; c < cnt; c++)
        W->perm[c] = W->keys[c].id;
    }
    sorted = p;
    int64_t top = run_packer(&P, W->perm, cnt, p == OPSCHED_ARENA_GREEDY_SIZE);
    listed = 1;
    W->A->packer_size[p] = top;
    if (W->best < 0 || top < W->best) {
      W->best = top;
      W->winner = p;
      memcpy(W->best_off, W->off, sizeof *W->off * (size_t)m);
    }
    if (p == OPSCHED_ARENA_GREEDY_SIZE && chain_first(W, &P))
      sorted = -1; /* chain_layout used W->perm */
  }
  if (W->winner < 0)
    return OPSCHED_OK; /* the chain cover's layout, before any other packer */
  W->A->winner = packer_names[W->winner];
  /* Compaction assumes the stacked results, which the sweep does not use. */
  if ((W->packers & OPSCHED_ARENA_COMPACT) && W->winner != OPSCHED_ARENA_SWEEP_BEST_FIT &&
      !at_bound(W)) {
    memcpy(W->off, W->best_off, sizeof *W->off * (size_t)m);
    cnt = 0;
    for (int32_t x = 0; x < m; x++)
      if (!W->fev[x])
        W->perm[cnt++] = x;
    compact(&P, W->perm, cnt, W->keys);
    int64_t top = layout_top(&P);
    if (top < W->best) {
      W->best = top;
      W->A->winner = compact_names[W->winner];
      memcpy(W->best_off, W->off, sizeof *W->off * (size_t)m);
    }
  }
  return OPSCHED_OK;
}

/* Conflict entries the improvement rounds of one block may visit: `cap`,
 * or less on a small block with dense lists, so that a module of many
 * blocks costs in proportion to its ops and buffers, not blocks x cap. */
static int64_t round_budget(const arena_work *W, int64_t cap, int64_t per_item) {
  int64_t items = (int64_t)W->n + W->m;
  return items < cap / per_item ? items * per_item : cap;
}

/* Iterated greedy: the buffers that reach the top of the best layout so
 * far go first in the next best-fit pass (then by size), cumulatively, for
 * up to 12 rounds; a round is kept only when the arena shrinks. All rounds
 * together visit at most min(2^23, 256 (ops + buffers)) conflict entries
 * (times the compaction passes), at least one round when the packers'
 * budget (phase_packers) has room for one with its compaction. */
static void iterated_rounds(arena_work *W, const pk *P, uint8_t *promoted, int64_t bound) {
  int64_t work = W->adj_off[W->m] + W->m;
  int64_t rounds = round_budget(W, (int64_t)1 << 23, 256) / (work > 0 ? work : 1);
  if (rounds > 12)
    rounds = 12;
  if (rounds < 1) /* one round when the packers' budget has room for it */
    rounds = W->visits / 5 >= work ? 1 : 0;
  for (int round = 0; round < rounds && W->best > bound; round++) {
    int any = 0;
    int64_t top = aligned_top(W->m, W->best_off, W->asz);
    for (int32_t x = 0; x < W->m; x++)
      if (!W->fev[x] && W->best_off[x] + W->asz[x] == top && !promoted[x])
        promoted[x] = 1, any = 1;
    if (!any)
      break;
    int32_t cnt = 0;
    for (int32_t x = 0; x < W->m; x++) {
      if (W->fev[x])
        continue;
      W->keys[cnt].k1 = promoted[x] ? 0 : 1;
      W->keys[cnt].k2 = -W->asz[x];
      W->keys[cnt].id = x;
      cnt++;
    }
    if (best_fit_in_key_order(P, W->keys, W->perm, cnt, &W->best, W->best_off))
      W->A->winner = "iterated-best-fit";
  }
}

/* Perturbed rounds: best fit in size order with deterministic noise on
 * the sizes, the top-reaching buffers of the best layout promoted as
 * above. Up to 16 rounds (what the corpus needs), fewer on dense conflict
 * lists: all rounds together visit at most min(2^20, 512 (ops + buffers))
 * conflict entries (times the compaction passes). */
static void perturbed_rounds(arena_work *W, const pk *P, uint8_t *promoted, int64_t bound) {
  int32_t m = W->m;
  int64_t work = W->adj_off[m] + m;
  int32_t rounds = (int32_t)(round_budget(W, (int64_t)1 << 20, 512) / (work > 0 ? work : 1));
  if (rounds > 16)
    rounds = 16;
  uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)m;
  for (int32_t round = 0; round < rounds && W->best > bound; round++) {
    int64_t top = aligned_top(m, W->best_off, W->asz);
    for (int32_t x = 0; x < m; x++)
      if (!W->fev[x] && W->best_off[x] + W->asz[x] == top)
        promoted[x] = 1;
    int32_t cnt = 0;
    for (int32_t x = 0; x < m; x++) {
      if (W->fev[x])
        continue;
      int64_t noise = 768 + opsched_rng_below(&rng, 513); /* 0.75 .. 1.25 of 1024 */
      int64_t sz = W->asz[x] < INT64_MAX / 1281 ? W->asz[x] : W->asz[x] / 1281;
      W->keys[cnt].k1 = promoted[x] ? 0 : 1;
      W->keys[cnt].k2 = -sz * noise;
      W->keys[cnt].id = x;
      cnt++;
    }
    if (best_fit_in_key_order(P, W->keys, W->perm, cnt, &W->best, W->best_off))
      W->A->winner = "perturbed-best-fit";
  }
}

/* Improvement rounds after the packers (not after the sweep packer). */
static void phase_improvement_rounds(arena_work *W) {
  if (W->capped || W->m == 0 || !(W->packers & OPSCHED_ARENA_COMPACT) ||
      W->A->winner == packer_names[OPSCHED_ARENA_SWEEP_BEST_FIT] || settled(W))
    return;
  uint8_t *promoted = opsched_alloc_array((size_t)W->m, sizeof *promoted);
  if (!promoted || !W->scratch || !W->dirty) {
    opsched_free(promoted);
    return;
  }
  pk P = packer_view(W);
  /* No round goes below the lower bound (layout_bound). One size: the
   * chain cover meets it when no forever buffer is in the way, and then
   * no round runs; otherwise it is kept only when smaller than what the
   * rounds find (so the arena is never larger than theirs). */
  int64_t bound = layout_bound(W);
  int64_t chain_top = W->best > bound ? chain_layout(W, &P) : -1;
  if (chain_top >= 0 && chain_top < W->best && chain_top <= bound) {
    take_chain_layout(W, chain_top);
    opsched_free(promoted);
    return;
  }
  iterated_rounds(W, &P, promoted, bound);
  perturbed_rounds(W, &P, promoted, bound);
  if (chain_top >= 0 && chain_top < W->best)
    take_chain_layout(W, chain_layout(W, &P));
  opsched_free(promoted);
}

/* The first half of a packing run: the clocks, the buffers' intervals, the
 * lower bounds, the conflict lists and the floors, into W (work_free frees
 * it on any result). `timeline`: buffer A may also share with a later B
 * when every event of A ends, on the estimated clock, no later than B's
 * allocating op starts and comes before it in the sequential order (the
 * syncs that make it safe are derived by the caller). `strict`: the strict
 * run's arena over the same g, s and b, whose thresholds this run starts
 * from (NULL: computed). */
static opsched_status arena_prepare(arena_work *W, const opsched_graph *g,
                                    const opsched_schedule *s, const opsched_buffers *b,
                                    int64_t alignment, unsigned packers, int timeline,
                                    const opsched_arena *strict) {
  memset(W, 0, sizeof *W);
  W->g = g, W->s = s, W->b = b, W->alignment = alignment, W->packers = packers;
  W->n = opsched_graph_num_nodes(g);
  W->nb = opsched_buffers_count(b);
  /* Clocks and thresholds only for the streams in use: memory grows with
   * ops and buffers times those (at most min(streams, ops)), never with the
   * streams option itself. */
  const int32_t *stream_of = opsched_schedule_streams(s);
  W->S = 1;
  for (int32_t v = 0; v < W->n; v++)
    if (stream_of[v] >= W->S)
      W->S = stream_of[v] + 1;
  W->starts = opsched_schedule_starts(s);
  W->ends = opsched_schedule_ends(s);
  W->best = -1;
  W->winner = -1;
  W->bound = -1;
  opsched_status st = phase_clocks(W, strict == NULL);
  if (st == OPSCHED_OK)
    st = phase_buffer_intervals(W, strict);
  if (st == OPSCHED_OK && timeline)
    st = phase_timeline_thresholds(W);
  if (st == OPSCHED_OK)
    st = phase_local_numbering(W);
  if (st == OPSCHED_OK)
    st = phase_lower_bounds(W);
  /* Read no further (xlast keeps the last positions): freed before the
   * sweep, which holds the run's largest arrays. */
  opsched_free(W->lastseq);
  opsched_free(W->lastend);
  W->lastseq = NULL, W->lastend = NULL;
  if (st == OPSCHED_OK)
    st = phase_conflict_sweep(W);
  if (W->capped) { /* the live bytes feed only the list packers' bounds */
    opsched_free(W->diff);
    W->diff = NULL;
  }
  if (st == OPSCHED_OK)
    st = phase_floors(W);
  return st;
}

/* Moves W's conflict lists (and local numbering) into its arena, for
 * derive_syncs. */
static void keep_lists(arena_work *W) {
  opsched_arena *A = W->A;
  A->m = W->m;
  A->ab = W->ab, A->adj_off = W->adj_off, A->adj = W->adj;
  W->ab = NULL, W->adj_off = NULL, W->adj = NULL;
}

/* The second half: the packers, compaction and improvement rounds over a
 * prepared W; the layout into a new arena (*out). `keep`: keep the
 * conflict lists in the arena. W is freed either way. */
static opsched_status arena_pack(arena_work *W, int keep, opsched_arena **out) {
  opsched_status st = phase_sweep_packer(W);
  if (st == OPSCHED_OK && W->capped) {
    W->best = W->sweep_top;
    W->best_off = W->sw_off; /* phase_floors made no best_off */
    W->sw_off = NULL;
    W->A->winner = packer_names[OPSCHED_ARENA_SWEEP_BEST_FIT];
  } else if (st == OPSCHED_OK && W->m > 0) {
    st = phase_packers(W);
  }
  if (st == OPSCHED_OK)
    phase_improvement_rounds(W);
  if (st != OPSCHED_OK) {
    work_free(W);
    return st;
  }
  opsched_arena *A = W->A;
  int mirror = 0;
  A->size = layout_end_of(W->m, W->best_off, W->asz, W->rsz, &mirror);
  int64_t T = aligned_top(W->m, W->best_off, W->asz);
  for (int32_t x = 0; x < W->m; x++)
    A->offset[W->ab[x]] = mirror ? T - W->best_off[x] - W->asz[x] : W->best_off[x];
  A->m = W->m;
  if (keep && !W->capped) {
    keep_lists(W);
  } else if (keep) { /* the allocation order only, for paint_syncs */
    A->ab = W->ab;
    W->ab = NULL;
  }
  *out = A;
  W->A = NULL;
  work_free(W);
  return OPSCHED_OK;
}

/* One packing run (arena_prepare, arena_pack). */
static opsched_status arena_run(const opsched_graph *g, const opsched_schedule *s,
                                const opsched_buffers *b, int64_t alignment,
                                unsigned packers, int timeline, const opsched_arena *strict,
                                int keep, opsched_arena **out) {
  arena_work W;
  opsched_status st = arena_prepare(&W, g, s, b, alignment, packers, timeline, strict);
  if (st != OPSCHED_OK) {
    work_free(&W);
    return st;
  }
  return arena_pack(&W, keep, out);
}

static int cmp_sync(const void *pa, const void *pb) {
  const int32_t *a = pa, *b = pb;
  if (a[1] != b[1])
    return (a[1] > b[1]) - (a[1] < b[1]);
  return (a[0] > b[0]) - (a[0] < b[0]);
}

/* The last event (allocation or use) of each buffer on each stream it
 * has one on: buffer i's in op[off[i] .. off[i + 1]), one per stream. Its
 * events, not nb x S (most buffers have a few, on one or two streams). */
typedef struct last_events {
  int64_t *off;
  int32_t *op;
} last_events;

static void last_events_free(last_events *E) {
  opsched_free(E->off);
  opsched_free(E->op);
}

/* E for T's schedule; OPSCHED_ERR_NOMEM when out of memory. */
static opsched_status last_events_build(last_events *E, const opsched_arena *T,
                                        const opsched_buffers *b) {
  int32_t S = T->S, nb = T->nbuf;
  int64_t nuses = opsched_buffers_num_uses(b);
  E->off = opsched_alloc_array((size_t)nb + 2, sizeof *E->off);
  E->op = opsched_alloc_array_raw((size_t)(nb + nuses) + 1, sizeof *E->op);
  int32_t *stamp = opsched_alloc_array_raw((size_t)S, sizeof *stamp); /* buffer seen on k */
  int64_t *at = opsched_alloc_array_raw((size_t)S, sizeof *at);       /* its entry on k */
  if (!E->off || !E->op || !stamp || !at) {
    opsched_free(stamp);
    opsched_free(at);
    return OPSCHED_ERR_NOMEM;
  }
  /* Every event by buffer (counting sort: allocation first, then the uses
   * in their order), off[i + 1] advancing as buffer i's are filled. */
  for (int32_t i = 0; i < nb; i++)
    E->off[i + 2] = T->owner[i] >= 0;
  for (int64_t e = 0; e < nuses; e++) {
    int32_t i, u;
    opsched_buffers_use(b, e, &i, &u);
    E->off[i + 2] += T->owner[i] >= 0;
  }
  for (int32_t i = 0; i < nb; i++)
    E->off[i + 2] += E->off[i + 1];
  for (int32_t i = 0; i < nb; i++)
    if (T->owner[i] >= 0)
      E->op[E->off[i + 1]++] = T->owner[i];
  for (int64_t e = 0; e < nuses; e++) {
    int32_t i, u;
    opsched_buffers_use(b, e, &i, &u);
    if (T->owner[i] >= 0)
      E->op[E->off[i + 1]++] = u;
  }
  /* Each buffer's latest per stream, compacted in place (entries only move
   * down). */
  for (int32_t k = 0; k < S; k++)
    stamp[k] = -1;
  int64_t w = 0, r = 0;
  for (int32_t i = 0; i < nb; i++) {
    int64_t end = E->off[i + 1];
    E->off[i] = w;
    for (; r < end; r++) {
      int32_t u = E->op[r], k = T->stream[u];
      if (stamp[k] != i) {
        stamp[k] = i;
        at[k] = w;
        E->op[w++] = u;
      } else if (T->spos[u] > T->spos[E->op[at[k]]]) {
        E->op[at[k]] = u;
      }
    }
  }
  E->off[nb] = w;
  opsched_free(stamp);
  opsched_free(at);
  return OPSCHED_OK;
}

/* A growing list of sync pairs (from, to). */
typedef struct sync_list {
  int32_t *pairs;
  int64_t used, cap;
} sync_list;

/* The syncs from buffer by's last event on every stream but vx's to op vx
 * (the stream's order covers vx's own). 0, or -1 when out of memory. */
static int add_syncs_from(sync_list *L, const opsched_arena *T, const last_events *last,
                          int32_t by, int32_t vx) {
  for (int64_t j = last->off[by]; j < last->off[by + 1]; j++) {
    int32_t u = last->op[j];
    if (T->stream[u] == T->stream[vx])
      continue;
    if (L->used == L->cap) {
      int64_t cap = L->cap ? 2 * L->cap : 64;
      int32_t *p = opsched_realloc_array(L->pairs, (size_t)cap * 2, sizeof *p);
      if (!p)
        return -1;
      L->pairs = p;
      L->cap = cap;
    }
    L->pairs[2 * L->used] = u;
    L->pairs[2 * L->used + 1] = vx;
    L->used++;
  }
  return 0;
}

/* L's pairs, sorted in cmp_sync's order and without repeats, into T's
 * syncs. */
static opsched_status keep_syncs(sync_list *L, opsched_arena *T) {
  int32_t *pairs = L->pairs;
  int64_t used = L->used;
  /* cmp_sync's order, by a radix sort of (to, from) packed into 64 bits
   * (both ops, >= 0) when there is room for the keys: equal pairs are equal
   * keys, so the result is qsort's. */
  uint64_t *packed = opsched_realloc_array(NULL, 2 * (size_t)used + 1, sizeof *packed);
  if (packed) {
    for (int64_t e = 0; e < used; e++)
      packed[e] = (uint64_t)(uint32_t)pairs[2 * e + 1] << 32 | (uint32_t)pairs[2 * e];
    mem_radix_sort_u64(packed, packed + used, (size_t)used);
    for (int64_t e = 0; e < used; e++) {
      pairs[2 * e] = (int32_t)(uint32_t)packed[e];
      pairs[2 * e + 1] = (int32_t)(packed[e] >> 32);
    }
    opsched_free(packed);
  } else if (used > 0) {
    qsort(pairs, (size_t)used, 2 * sizeof *pairs, cmp_sync);
  }
  int64_t kept = 0;
  for (int64_t e = 0; e < used; e++)
    if (kept == 0 || pairs[2 * e] != pairs[2 * kept - 2] ||
        pairs[2 * e + 1] != pairs[2 * kept - 1]) {
      pairs[2 * kept] = pairs[2 * e];
      pairs[2 * kept + 1] = pairs[2 * e + 1];
      kept++;
    }
  T->sync_from = opsched_alloc_array((size_t)kept, sizeof *T->sync_from);
  T->sync_to = opsched_alloc_array((size_t)kept, sizeof *T->sync_to);
  if (!T->sync_from || !T->sync_to)
    return OPSCHED_ERR_NOMEM;
  for (int64_t e = 0; e < kept; e++) {
    T->sync_from[e] = pairs[2 * e];
    T->sync_to[e] = pairs[2 * e + 1];
  }
  T->nsync = kept;
  return OPSCHED_OK;
}

/* T's syncs from the strict run's conflict lists: for every pair the
 * strict run keeps apart and T overlaps in memory, the later buffer's
 * allocation waits for the earlier one's last event on every other
 * stream. */
static opsched_status derive_syncs(const opsched_arena *strict, opsched_arena *T,
                                   const opsched_buffers *b) {
  int32_t m = strict->m;
  last_events last;
  sync_list L = {0};
  opsched_status st = last_events_build(&last, T, b);
  if (st != OPSCHED_OK)
    goto done;
  st = OPSCHED_ERR_NOMEM;
  for (int32_t x = 0; x < m; x++) {
    int32_t bx = strict->ab[x], vx = T->owner[bx];
    int64_t ox = T->offset[bx], ex = ox + T->asize[bx];
    for (int64_t e = strict->adj_off[x]; e < strict->adj_off[x + 1]; e++) {
      int32_t y = strict->adj[e];
      if (y > x)
        break; /* each pair once, from the later buffer x: the earlier
                  buffers come first in x's list (adjacency()) */
      int32_t by = strict->ab[y];
      int64_t oy = T->offset[by], ey = oy + T->asize[by];
      if (oy >= ex || ox >= ey)
        continue; /* disjoint in memory */
      if (add_syncs_from(&L, T, &last, by, vx) != 0)
        goto done;
    }
  }
  st = keep_syncs(&L, T);
done:
  last_events_free(&last);
  opsched_free(L.pairs);
  return st;
}

/* T's syncs without the strict run's lists (over their cap): the buffers
 * in allocation order paint their bytes; a buffer's allocation waits for
 * the last event on every other stream of each buffer that held some of
 * its bytes last, unless the strict run orders the two (its thresholds,
 * opsched_arena_may_share). An earlier holder of those bytes happens
 * before the last one (the same rule when it was painted), so it needs no
 * sync of its own. O(m log m) map operations, m x S for the last events. */
static opsched_status paint_syncs(const opsched_arena *strict, opsched_arena *T,
                                  const opsched_buffers *b) {
  int32_t m = strict->m;
  last_events last;
  opsched_status built = last_events_build(&last, T, b);
  int32_t *held = opsched_alloc_array_raw(2 * (size_t)m + 1, sizeof *held);
  sync_list L = {0};
  paint_map M;
  int init = paint_map_init(&M);
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (built != OPSCHED_OK || !held || init != 0)
    goto done;
  for (int32_t x = 0; x < m; x++) {
    int32_t bx = strict->ab[x], vx = T->owner[bx];
    int64_t ox = T->offset[bx];
    int32_t nh = paint_map_paint(&M, ox, ox + T->asize[bx], bx, held);
    if (nh < 0)
      goto done;
    for (int32_t h = 0; h < nh; h++)
      if (!opsched_arena_may_share(strict, held[h], bx) &&
          add_syncs_from(&L, T, &last, held[h], vx) != 0)
        goto done;
  }
  st = keep_syncs(&L, T);
done:
  paint_map_free(&M);
  last_events_free(&last);
  opsched_free(held);
  opsched_free(L.pairs);
  return st;
}

/* A lower bound on every layout of this run, cheaper than layout_bound's
 * antichain (at most one pass over the lists, where the matching may spend
 * its whole budget and find nothing) and weaker: a set of pairwise
 * conflicting buffers grown greedily, first the buffers live at the
 * sequential position of the most aligned live bytes, then the others,
 * largest first, each taken when every buffer taken so far is in its list.
 * Forever buffers are left out (their pairs with later buffers are
 * implicit). The set's aligned sizes less its largest padding
 * (arena_bound.h's argument); -1 without lists or memory. */
static int64_t clique_bound(const arena_work *W) {
  int32_t m = W->m, count = 0, taken = 0;
  if (W->capped || m == 0 || W->n == 0)
    return -1;
  int32_t *cnt = opsched_alloc_array((size_t)m, sizeof *cnt); /* taken buffers in x's list */
  sort_key *keys = opsched_alloc_array_raw((size_t)m, sizeof *keys);
  if (!cnt || !keys) {
    opsched_free(cnt);
    opsched_free(keys);
    return -1;
  }
  int32_t peak = 0;
  for (int32_t p = 1; p < W->n; p++)
    if (W->diff[p] > W->diff[peak])
      peak = p;
  for (int32_t x = 0; x < m; x++)
    if (!W->fev[x])
      keys[count++] = (sort_key){W->xp0[x] <= peak && W->xlast[x] >= peak ? 0 : 1, -W->asz[x], x};
  sort_keys(keys, count);
  int64_t sum = 0, pad = 0;
  for (int32_t i = 0; i < count; i++) {
    int32_t x = keys[i].id;
    if (cnt[x] != taken)
      continue;
    taken++;
    sum = W->asz[x] > INT64_MAX - sum ? INT64_MAX : sum + W->asz[x];
    pad = W->asz[x] - W->rsz[x] > pad ? W->asz[x] - W->rsz[x] : pad;
    for (int64_t e = W->adj_off[x]; e < W->adj_off[x + 1]; e++)
      cnt[W->adj[e]]++;
  }
  opsched_free(cnt);
  opsched_free(keys);
  return sum - pad;
}

/* The timeline run before the strict run is packed (W holds it prepared),
 * when the strict run's lower bound (clique_bound: no strict layout ends
 * below it) is more than 1% above its aligned live bytes: the strict
 * layout is then too, so the timeline is tried whatever the strict packers
 * find. *T is its arena (NULL when not run) and *wins is 1 when it ends at
 * least 1% below that bound: kept whatever the strict layout, which need
 * not be packed (on blocks of several streams the strict layout is
 * typically 10-40% above the timeline's, which meets the live bytes, and
 * the strict packers and rounds were most of the packing's time). The
 * same arena, syncs and winner as packing strict first. */
static opsched_status timeline_first(arena_work *W, const opsched_graph *g,
                                     const opsched_schedule *s, const opsched_buffers *b,
                                     opsched_arena **T, int *wins) {
  *T = NULL;
  *wins = 0;
  if (W->capped || W->m == 0 || (W->packers & OPSCHED_ARENA_STRICT_FIRST))
    return OPSCHED_OK;
  int64_t bound = clique_bound(W);
  if (bound - bound / 100 <= W->A->aligned_lower_bound)
    return OPSCHED_OK;
  opsched_status st = arena_run(g, s, b, W->alignment, W->packers, 1, W->A, 0, T);
  *wins = st == OPSCHED_OK && (*T)->size <= bound - bound / 100;
  return st;
}

/* The strict run's lists and allocation order, kept for the timeline's
 * syncs, are dropped before the arena is returned. */
static void drop_lists(opsched_arena *A) {
  opsched_free(A->ab);
  opsched_free(A->adj_off);
  opsched_free_pages(A->adj);
  A->ab = NULL;
  A->adj_off = NULL;
  A->adj = NULL;
}

opsched_status opsched_arena_assign_with(const opsched_graph *g,
                                         const opsched_schedule *s,
                                         const opsched_buffers *b,
                                         int64_t alignment, unsigned packers,
                                         opsched_arena **out) {
  return opsched_arena_assign_within(g, s, b, alignment, packers, 0, out);
}

opsched_status opsched_arena_assign_within(const opsched_graph *g,
                                           const opsched_schedule *s,
                                           const opsched_buffers *b,
                                           int64_t alignment, unsigned packers,
                                           int64_t limit, opsched_arena **out) {
  if (!g || !s || !b || !out || !opsched_graph_is_finalized(g))
    return OPSCHED_ERR_INVALID;
  if (alignment == 0)
    alignment = OPSCHED_ARENA_DEFAULT_ALIGNMENT;
  if (alignment < 0 || (alignment & (alignment - 1)) != 0)
    return OPSCHED_ERR_INVALID;
  int32_t n = opsched_graph_num_nodes(g);
  if (opsched_schedule_num_nodes(s) != n || opsched_buffers_num_nodes(b) != n)
    return OPSCHED_ERR_INVALID;
  if (!(packers & OPSCHED_ARENA_ALL_PACKERS))
    packers |= OPSCHED_ARENA_ALL_PACKERS;
  int timeline = (packers & OPSCHED_ARENA_SYNC_REUSE) && opsched_schedule_stream_count(s) > 1;
  opsched_arena *A = NULL, *T = NULL;
  arena_work W;
  int wins = 0;
  opsched_status st = arena_prepare(&W, g, s, b, alignment, packers, 0, NULL);
  if (st == OPSCHED_OK && timeline)
    st = timeline_first(&W, g, s, b, &T, &wins);
  if (st != OPSCHED_OK) {
    work_free(&W);
    return st;
  }
  if (wins) { /* only the strict lists are needed, for T's syncs */
    keep_lists(&W);
    st = derive_syncs(W.A, T, b);
    work_free(&W);
    if (st != OPSCHED_OK) {
      opsched_arena_destroy(T);
      return st;
    }
    *out = T;
    return OPSCHED_OK;
  }
  st = arena_pack(&W, timeline, &A);
  /* Waits cost synchronisation: try the timeline only when the strict
   * layout is more than 1% above the lower bound (10% when its lists were
   * over their cap: the sweep's layout, typically within 1-7% of the
   * bound there, where a timeline run costs as much as the strict one),
   * and keep it only when it is at least 1% smaller; over `limit` (> 0),
   * whenever it is smaller. */
  int over = limit > 0 && st == OPSCHED_OK && A->size > limit;
  int capped = st == OPSCHED_OK && !A->adj;
  int64_t slack = capped ? A->size / 10 : A->size / 100;
  if (st != OPSCHED_OK || !timeline || !A->ab ||
      (!over && A->size - slack <= A->aligned_lower_bound)) {
    opsched_arena_destroy(T); /* NULL unless the strict packing failed */
    if (A)
      drop_lists(A);
    *out = A;
    return st;
  }
  /* Strict lists over their cap: the timeline's are as long or nearly, so
   * its sweep packer alone (O(m log m); on opsched-gen.py wide 1000-4000
   * on 16 streams it meets the peak, as the list packers do). */
  if (!T) /* else timeline_first ran it */
    st = arena_run(g, s, b, alignment, packers | (capped ? OPSCHED_ARENA_SWEEP : 0), 1, A, 0,
                   &T);
  int better = st == OPSCHED_OK && (T->size <= A->size - A->size / 100 ||
                                    (over && T->size < A->size));
  if (better)
    st = capped ? paint_syncs(A, T, b) : derive_syncs(A, T, b);
  if (st != OPSCHED_OK || !better) {
    opsched_arena_destroy(T);
    T = NULL;
  }
  if (st == OPSCHED_ERR_NOMEM) {
    opsched_arena_destroy(A);
    return st;
  }
  if (T) {
    opsched_arena_destroy(A);
    A = T;
  }
  drop_lists(A);
  *out = A;
  return OPSCHED_OK;
}

const int32_t *opsched_arena_syncs(const opsched_arena *arena, int64_t *count,
                                   const int32_t **to) {
  *count = arena->nsync;
  *to = arena->sync_to;
  return arena->sync_from;
}

/* ---- Accessors -------------------------------------------------------- */

int32_t opsched_arena_num_buffers(const opsched_arena *a) { return a->nbuf; }
int64_t opsched_arena_alignment(const opsched_arena *a) { return a->alignment; }
int64_t opsched_arena_size(const opsched_arena *a) { return a->size; }
int64_t opsched_arena_lower_bound(const opsched_arena *a) { return a->lower_bound; }
int64_t opsched_arena_aligned_lower_bound(const opsched_arena *a) {
  return a->aligned_lower_bound;
}
int64_t opsched_arena_num_conflicts(const opsched_arena *a) { return a->conflicts; }
const char *opsched_arena_winner(const opsched_arena *a) { return a->winner; }
const int64_t *opsched_arena_offsets(const opsched_arena *a) { return a->offset; }

int64_t opsched_arena_offset(const opsched_arena *a, int32_t i) {
  return i >= 0 && i < a->nbuf ? a->offset[i] : -1;
}

int64_t opsched_arena_aligned_size(const opsched_arena *a, int32_t i) {
  return i >= 0 && i < a->nbuf ? a->asize[i] : -1;
}

double opsched_arena_fragmentation(const opsched_arena *a) {
  if (a->lower_bound <= 0)
    return 0.0;
  return (double)a->size / (double)a->lower_bound - 1.0;
}

int64_t opsched_arena_packer_size(const opsched_arena *a, opsched_arena_packer p) {
  if ((int)p < 0 || p >= OPSCHED_ARENA_PACKER_COUNT)
    return -1;
  return a->packer_size[p];
}

/* x ordered before y: every event of x completes before y's allocating op
 * launches. */
static int ordered_before(const opsched_arena *a, int32_t x, int32_t y) {
  if (a->forever[x])
    return 0;
  int32_t o = a->owner[y], k = a->stream[o];
  return a->spos[o] >= a->thr[(size_t)x * (size_t)a->S + (size_t)k];
}

int opsched_arena_may_share(const opsched_arena *a, int32_t x, int32_t y) {
  if (x < 0 || y < 0 || x >= a->nbuf || y >= a->nbuf || x == y ||
      a->owner[x] < 0 || a->owner[y] < 0)
    return 0;
  return ordered_before(a, x, y) || ordered_before(a, y, x);
}
