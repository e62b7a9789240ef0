/* Buffer assignment into one arena under a multi-stream schedule (see
 * include/opsched/arena.h and docs/bench-arena.md).
 *
 * Outline:
 * 1. Vector clocks from the emitted synchronisation: per op, for every
 *    stream, how many of its ops have completed when the op completes
 *    (stream predecessor joined with the waited producers).
 * 2. Per buffer and stream k a threshold thr[k]: the 1-based place on
 *    stream k of the first op that launches after the allocating op and
 *    every user of the buffer completed (binary search: clocks along a
 *    stream only grow). A is ordered before B iff B's allocating op, on
 *    stream k, sits at a place >= A.thr[k].
 * 3. Conflicts by a sweep over the sequential order keeping, per stream k,
 *    the buffers allocated so far whose thr[k] is not reached yet: a buffer
 *    allocated on stream k conflicts exactly with that set (an earlier
 *    buffer can never be ordered after a later one). Buffers live until the
 *    end never retire; they are kept out of the sets and handled by
 *    stacking them first, in allocation order, at the bottom.
 * 4. Packers over the conflict lists; the smallest arena wins; compaction.
 */
#include "opsched/arena.h"

#include "alloc.h"
#include "arena_clock.h"
#include "free_tree.h"
#include "rng.h"

#include <stdlib.h>
#include <string.h>

#define NEVER OPSCHED_HB_NEVER

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
  opsched_free(a->adj);
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
  const uint8_t *fev;   /* live until the end */
  const int64_t *floor; /* bytes of earlier forever buffers (stack) */
  const int64_t *adj_off;
  const int32_t *adj;
  int64_t fev_top; /* total of forever buffers */
  int64_t *off;    /* current layout, -1 = unplaced */
  int64_t *scratch; /* 2 * max degree */
} pk;

static int cmp_pair(const void *pa, const void *pb) {
  const int64_t *a = pa, *b = pb;
  if (a[0] != b[0])
    return a[0] < b[0] ? -1 : 1;
  return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Lowest (first_fit) or best-fitting gap for x among its placed
 * neighbours, at or above its floor. */
static int64_t place(const pk *P, int32_t x, int first_fit) {
  int64_t cnt = 0, size = P->asz[x];
  for (int64_t e = P->adj_off[x]; e < P->adj_off[x + 1]; e++) {
    int32_t y = P->adj[e];
    if (P->off[y] >= 0) {
      P->scratch[2 * cnt] = P->off[y];
      P->scratch[2 * cnt + 1] = P->off[y] + P->asz[y];
      cnt++;
    }
  }
  qsort(P->scratch, (size_t)cnt, 2 * sizeof *P->scratch, cmp_pair);
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

static int64_t layout_top(const pk *P) {
  int64_t top = P->fev_top;
  for (int32_t i = 0; i < P->m; i++)
    if (!P->fev[i] && P->off[i] + P->asz[i] > top)
      top = P->off[i] + P->asz[i];
  return top;
}

/* Places the non-forever buffers in `perm` order (forever ones are fixed). */
static int64_t run_packer(const pk *P, const int32_t *perm, int32_t count,
                          int first_fit) {
  for (int32_t i = 0; i < P->m; i++)
    if (!P->fev[i])
      P->off[i] = -1;
  for (int32_t i = 0; i < count; i++)
    P->off[perm[i]] = place(P, perm[i], first_fit);
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

/* Drops every buffer, in offset order, to its lowest feasible offset. */
static void compact(const pk *P, int32_t *perm, int32_t count, sort_key *keys) {
  for (int pass = 0; pass < 4; pass++) {
    for (int32_t i = 0; i < count; i++) {
      keys[i].k1 = P->off[perm[i]];
      keys[i].k2 = 0;
      keys[i].id = perm[i];
    }
    qsort(keys, (size_t)count, sizeof *keys, cmp_key);
    int moved = 0;
    for (int32_t i = 0; i < count; i++) {
      int32_t x = keys[i].id;
      int64_t old = P->off[x];
      P->off[x] = -1;
      int64_t now = place(P, x, 1);
      P->off[x] = now < old ? now : old;
      moved |= now < old;
      perm[i] = x;
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
  qsort(keys, (size_t)count, sizeof *keys, cmp_key);
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

/* Fallback when the conflict lists would be too large: an allocator
 * simulation in allocation order with best fit over a coalescing free list.
 * Buffer x is freed after sequential position rel[x] (conservative: every
 * op after it happens after all its events), so no conflict list is
 * needed. O((B + n) log B) with the two treaps. Returns the arena or -1 (OOM). */
static int64_t sweep_best_fit(int32_t m, int32_t n, const int64_t *asz,
                              const int32_t *alloc_off, const int32_t *rel,
                              int64_t *off) {
  int64_t *rel_off = opsched_alloc_array((size_t)n + 2, sizeof *rel_off);
  int32_t *rel_ids = opsched_alloc_array((size_t)m, sizeof *rel_ids);
  free_tree F = {0};
  int64_t top = -1;
  if (opsched_ft_init(&F, m + 1) != 0 || !rel_off || !rel_ids)
    goto done;
  for (int32_t x = 0; x < m; x++)
    if (rel[x] < n)
      rel_off[rel[x] + 2]++;
  for (int32_t p = 0; p <= n; p++)
    rel_off[p + 1] += rel_off[p];
  for (int32_t x = 0; x < m; x++)
    if (rel[x] < n)
      rel_ids[rel_off[rel[x] + 1]++] = x;
  top = 0;
  for (int32_t p = 0; p < n; p++) {
    if (p > 0)
      for (int64_t e = rel_off[p - 1]; e < rel_off[p]; e++) {
        int32_t x = rel_ids[e];
        int64_t o = off[x], size = asz[x];
        /* Coalesce with the free blocks just below and just above. */
        int32_t prev = opsched_ft_neighbour(&F, o, 0), next = opsched_ft_neighbour(&F, o, 1);
        if (next >= 0 && o + size == F.fo[next]) {
          size += F.fs[next];
          opsched_ft_remove(&F, next);
        }
        if (prev >= 0 && F.fo[prev] + F.fs[prev] == o) {
          o = F.fo[prev];
          size += F.fs[prev];
          opsched_ft_remove(&F, prev);
        }
        opsched_ft_new(&F, o, size);
      }
    for (int32_t x = alloc_off[p]; x < alloc_off[p + 1]; x++) {
      int32_t best = opsched_ft_best_fit(&F, asz[x]);
      if (best < 0) {
        int32_t last = opsched_ft_neighbour(&F, INT64_MAX, 0);
        if (last >= 0 && F.fo[last] + F.fs[last] == top) {
          off[x] = F.fo[last]; /* grow the last free block at the top */
          top = F.fo[last] + asz[x];
          opsched_ft_remove(&F, last);
        } else {
          off[x] = top;
          top += asz[x];
        }
        continue;
      }
      off[x] = F.fo[best];
      int64_t rest_off = F.fo[best] + asz[x], rest = F.fs[best] - asz[x];
      opsched_ft_remove(&F, best);
      if (rest > 0)
        opsched_ft_new(&F, rest_off, rest);
    }
  }
done:
  opsched_free(rel_off);
  opsched_free(rel_ids);
  opsched_ft_free(&F);
  return top;
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

/* One packing run. `timeline`: buffer A may also share with a later B when
 * every event of A ends, on the estimated clock, no later than B's
 * allocating op starts and comes before it in the sequential order (the
 * syncs that make it safe are derived by the caller). `keep`: keep the
 * conflict lists in the arena. */
static opsched_status arena_run(const opsched_graph *g, const opsched_schedule *s,
                                const opsched_buffers *b, int64_t alignment,
                                unsigned packers, int timeline, int keep,
                                opsched_arena **out) {
  int32_t n = opsched_graph_num_nodes(g);
  int32_t S = opsched_schedule_stream_count(s), nb = opsched_buffers_count(b);
  if (S < 1)
    S = 1;

  opsched_arena *A = opsched_alloc_array(1, sizeof *A);
  if (!A)
    return OPSCHED_ERR_NOMEM;
  A->nbuf = nb;
  A->n = n;
  A->S = S;
  A->alignment = alignment;
  A->winner = "empty";
  for (int p = 0; p < OPSCHED_ARENA_PACKER_COUNT; p++)
    A->packer_size[p] = -1;
  A->offset = opsched_alloc_array((size_t)nb, sizeof *A->offset);
  A->asize = opsched_alloc_array((size_t)nb, sizeof *A->asize);
  A->owner = opsched_alloc_array((size_t)nb, sizeof *A->owner);
  A->forever = opsched_alloc_array((size_t)nb, sizeof *A->forever);
  A->thr = opsched_alloc_array((size_t)nb * (size_t)S, sizeof *A->thr);
  A->stream = opsched_alloc_array((size_t)n, sizeof *A->stream);
  hb_ctx h;
  memset(&h, 0, sizeof h);
  opsched_status st = OPSCHED_ERR_NOMEM;
  /* Scratch, freed at the end. */
  int32_t *lastseq = NULL, *ab = NULL, *alloc_off = NULL;
  int64_t *lastend = NULL, *diff = NULL, *adiff = NULL, *events = NULL;
  int32_t *act = NULL, *actn = NULL, *where = NULL, *perm = NULL;
  int64_t *bk_off = NULL, *adj_off = NULL, *floor_ = NULL, *off = NULL;
  int64_t *best_off = NULL, *scratch = NULL, *fill = NULL, *asz = NULL;
  int64_t *breadth = NULL, *tree = NULL, *sw_off = NULL;
  int32_t *bk = NULL, *adj = NULL;
  uint8_t *fev = NULL;
  sort_key *keys = NULL;
  if (!A->offset || !A->asize || !A->owner || !A->forever || !A->thr || !A->stream)
    goto fail;
  const int32_t *sstream = opsched_schedule_streams(s);
  for (int32_t v = 0; v < n; v++)
    A->stream[v] = sstream[v];
  h.n = n;
  h.S = S;
  h.stream = A->stream;
  if ((st = opsched_hb_build(g, s, &h)) != OPSCHED_OK)
    goto fail;
  st = OPSCHED_ERR_NOMEM;
  A->spos = h.spos;
  h.spos = NULL;
  hb_ctx hv = h; /* view with spos */
  hv.spos = A->spos;

  /* Per buffer: owner, flags, last sequential position / end time, and
   * thresholds. */
  const int64_t *ends = opsched_schedule_ends(s);
  const int64_t *starts = opsched_schedule_starts(s);
  lastseq = opsched_alloc_array((size_t)nb, sizeof *lastseq);
  lastend = opsched_alloc_array((size_t)nb, sizeof *lastend);
  if (!lastseq || !lastend)
    goto fail;
  int64_t total = 0; /* aligned bytes of arena buffers */
  int32_t m = 0;
  for (int32_t i = 0; i < nb; i++) {
    int32_t o = opsched_buffers_allocating_node(b, i);
    int64_t sz = opsched_buffers_size(b, i);
    A->owner[i] = o;
    A->forever[i] = (uint8_t)(o >= 0 && opsched_buffers_live_until_end(b, i));
    A->offset[i] = o < 0 ? -1 : 0;
    A->asize[i] = 0;
    if (o < 0)
      continue;
    lastseq[i] = h.seq[o];
    lastend[i] = ends[o];
    for (int32_t k = 0; k < S; k++)
      A->thr[(size_t)i * (size_t)S + (size_t)k] =
          A->forever[i] ? NEVER : opsched_hb_first_after(&hv, o, k);
    if (sz > 0) {
      if (sz > INT64_MAX - (alignment - 1)) {
        st = OPSCHED_ERR_INFEASIBLE;
        goto fail;
      }
      A->asize[i] = (sz + alignment - 1) & ~(alignment - 1);
      if (total > INT64_MAX - A->asize[i]) {
        st = OPSCHED_ERR_INFEASIBLE;
        goto fail;
      }
      total += A->asize[i];
      m++;
    }
  }
  int64_t nuses = opsched_buffers_num_uses(b);
  for (int64_t e = 0; e < nuses; e++) {
    int32_t i, u;
    opsched_buffers_use(b, e, &i, &u);
    int32_t o = A->owner[i];
    if (o < 0 || u == o)
      continue;
    if (A->asize[i] > 0 && !opsched_hb_before(&hv, o, u)) {
      st = OPSCHED_ERR_INVALID;
      goto fail;
    }
    if (h.seq[u] > lastseq[i])
      lastseq[i] = h.seq[u];
    if (ends[u] > lastend[i])
      lastend[i] = ends[u];
    if (!A->forever[i])
      for (int32_t k = 0; k < S; k++) {
        int32_t *t = &A->thr[(size_t)i * (size_t)S + (size_t)k];
        if (*t != NEVER) {
          int32_t f = opsched_hb_first_after(&hv, u, k);
          if (f > *t)
            *t = f;
        }
      }
  }

  if (timeline)
    for (int32_t i = 0; i < nb; i++) {
      if (A->owner[i] < 0 || A->forever[i])
        continue;
      for (int32_t k = 0; k < S; k++) {
        /* First place on stream k starting after the last event ends and
         * placed after it in the order: both grow along a stream. */
        const int32_t *ops = h.so_ops + h.so_off[k];
        int64_t lo = 0, hi = h.so_off[k + 1] - h.so_off[k], len = hi;
        while (lo < hi) {
          int64_t mid = lo + (hi - lo) / 2;
          if (starts[ops[mid]] >= lastend[i] && h.seq[ops[mid]] > lastseq[i])
            hi = mid;
          else
            lo = mid + 1;
        }
        int32_t *t = &A->thr[(size_t)i * (size_t)S + (size_t)k];
        if (lo < len && lo + 1 < *t)
          *t = (int32_t)(lo + 1);
      }
    }

  /* Arena buffers in allocation order: local numbering. */
  alloc_off = opsched_alloc_array((size_t)n + 1, sizeof *alloc_off);
  ab = opsched_alloc_array((size_t)m, sizeof *ab);
  if (!alloc_off || !ab)
    goto fail;
  for (int32_t i = 0; i < nb; i++)
    if (A->asize[i] > 0)
      alloc_off[h.seq[A->owner[i]] + 1]++;
  for (int32_t p = 0; p < n; p++)
    alloc_off[p + 1] += alloc_off[p];
  for (int32_t i = 0; i < nb; i++)
    if (A->asize[i] > 0)
      ab[alloc_off[h.seq[A->owner[i]]]++] = i;
  for (int32_t p = n; p > 0; p--)
    alloc_off[p] = alloc_off[p - 1];
  alloc_off[0] = 0;

  /* Lower bounds: sweep over the sequential order, and over time. */
  diff = opsched_alloc_array((size_t)n + 1, sizeof *diff);
  adiff = opsched_alloc_array((size_t)n + 1, sizeof *adiff);
  events = opsched_alloc_array((size_t)m * 2, 3 * sizeof *events);
  if (!diff || !adiff || !events)
    goto fail;
  int64_t nev = 0;
  for (int32_t x = 0; x < m; x++) {
    int32_t i = ab[x];
    int64_t raw = opsched_buffers_size(b, i);
    diff[h.seq[A->owner[i]]] += raw;
    adiff[h.seq[A->owner[i]]] += A->asize[i];
    if (!A->forever[i]) {
      diff[lastseq[i] + 1] -= raw;
      adiff[lastseq[i] + 1] -= A->asize[i];
    }
    int64_t t0 = starts[A->owner[i]];
    if (A->forever[i] || lastend[i] > t0) {
      events[3 * nev] = t0;
      events[3 * nev + 1] = 1; /* alloc after frees at one instant */
      events[3 * nev + 2] = x;
      nev++;
      if (!A->forever[i]) {
        events[3 * nev] = lastend[i];
        events[3 * nev + 1] = 0;
        events[3 * nev + 2] = x;
        nev++;
      }
    }
  }
  {
    int64_t live = 0, alive = 0;
    for (int32_t p = 0; p < n; p++) {
      live += diff[p];
      alive += adiff[p];
      diff[p] = alive; /* reused: aligned live bytes at position p */
      if (live > A->lower_bound)
        A->lower_bound = live;
      if (alive > A->aligned_lower_bound)
        A->aligned_lower_bound = alive;
    }
    qsort(events, (size_t)nev, 3 * sizeof *events, cmp_event);
    live = alive = 0;
    for (int64_t e = 0; e < nev; e++) {
      int32_t i = ab[events[3 * e + 2]];
      int64_t sign = events[3 * e + 1] ? 1 : -1;
      live += sign * opsched_buffers_size(b, i);
      alive += sign * A->asize[i];
      if (live > A->lower_bound)
        A->lower_bound = live;
      if (alive > A->aligned_lower_bound)
        A->aligned_lower_bound = alive;
    }
  }

  /* Retirement buckets: (stream k, place t) -> buffers whose thr[k] == t. */
  bk_off = opsched_alloc_array((size_t)n + 1, sizeof *bk_off);
  fev = opsched_alloc_array((size_t)m, sizeof *fev);
  asz = opsched_alloc_array((size_t)m, sizeof *asz);
  if (!bk_off || !fev || !asz)
    goto fail;
  for (int32_t x = 0; x < m; x++) {
    int32_t i = ab[x];
    fev[x] = A->forever[i];
    asz[x] = A->asize[i];
    if (fev[x])
      continue;
    for (int32_t k = 0; k < S; k++) {
      int32_t t = A->thr[(size_t)i * (size_t)S + (size_t)k];
      if (t != NEVER)
        bk_off[h.so_off[k] + t]++;
    }
  }
  for (int32_t p = 0; p < n; p++)
    bk_off[p + 1] += bk_off[p];
  bk = opsched_alloc_array((size_t)bk_off[n], sizeof *bk);
  fill = opsched_alloc_array((size_t)(n > m ? n : m), sizeof *fill);
  act = opsched_alloc_array((size_t)m * (size_t)S, sizeof *act);
  actn = opsched_alloc_array((size_t)S, sizeof *actn);
  where = opsched_alloc_array((size_t)m * (size_t)S, sizeof *where);
  adj_off = opsched_alloc_array((size_t)m + 1, sizeof *adj_off);
  if (!bk || !fill || !act || !actn || !where || !adj_off)
    goto fail;
  for (int32_t x = 0; x < m; x++) {
    if (fev[x])
      continue;
    int32_t i = ab[x];
    for (int32_t k = 0; k < S; k++) {
      int32_t t = A->thr[(size_t)i * (size_t)S + (size_t)k];
      if (t != NEVER) {
        int64_t key = h.so_off[k] + t - 1;
        bk[bk_off[key] + fill[key]++] = x;
      }
    }
  }
  /* Two sweeps: count degrees (and check the cap), then fill. */
  const int32_t *order = opsched_schedule_order(s);
  int64_t cap = (int64_t)m * 32 > ((int64_t)1 << 23) ? (int64_t)m * 32 : ((int64_t)1 << 23);
  int64_t pairs = 0;
  int capped = 0;
  for (int pass = 0; pass < 2 && !capped; pass++) {
    for (int32_t k = 0; k < S; k++)
      actn[k] = 0;
    if (pass == 1) {
      for (int32_t x = 0; x < m; x++)
        adj_off[x + 1] += adj_off[x];
      adj = opsched_alloc_array((size_t)adj_off[m], sizeof *adj);
      if (!adj)
        goto fail;
      for (int32_t x = 0; x < m; x++)
        fill[x] = adj_off[x];
    }
    for (int32_t p = 0; p < n; p++) {
      int32_t v = order[p], k = A->stream[v];
      int64_t key = h.so_off[k] + A->spos[v] - 1;
      for (int64_t e = bk_off[key]; e < bk_off[key + 1]; e++) {
        int32_t x = bk[e];
        int32_t q = where[(size_t)x * (size_t)S + (size_t)k];
        int32_t *set = act + (size_t)k * (size_t)m;
        int32_t y = set[--actn[k]];
        set[q] = y;
        where[(size_t)y * (size_t)S + (size_t)k] = q;
      }
      for (int32_t x = alloc_off[p]; x < alloc_off[p + 1]; x++) {
        const int32_t *set = act + (size_t)k * (size_t)m;
        if (pass == 0) {
          if (pairs + actn[k] > cap || (packers & OPSCHED_ARENA_SWEEP)) {
            capped = 1; /* over the cap: stop counting */
            break;
          }
          adj_off[x + 1] += actn[k];
          for (int32_t a = 0; a < actn[k]; a++)
            adj_off[set[a] + 1]++;
          pairs += actn[k];
        } else {
          for (int32_t a = 0; a < actn[k]; a++) {
            int32_t y = set[a];
            adj[fill[x]++] = y;
            adj[fill[y]++] = x;
          }
        }
        if (!fev[x])
          for (int32_t j = 0; j < S; j++) {
            int32_t *sj = act + (size_t)j * (size_t)m;
            where[(size_t)x * (size_t)S + (size_t)j] = actn[j];
            sj[actn[j]++] = x;
          }
      }
      if (capped)
        break;
    }
    if (pass == 0 && (pairs > cap || (packers & OPSCHED_ARENA_SWEEP)))
      capped = 1;
  }

  /* Forever stack and floors; conflict count incl. implicit pairs. */
  floor_ = opsched_alloc_array((size_t)m, sizeof *floor_);
  off = opsched_alloc_array((size_t)m, sizeof *off);
  best_off = opsched_alloc_array((size_t)m, sizeof *best_off);
  perm = opsched_alloc_array((size_t)m, sizeof *perm);
  keys = opsched_alloc_array((size_t)m, sizeof *keys);
  if (!floor_ || !off || !best_off || !perm || !keys)
    goto fail;
  int64_t fsum = 0, fcount = 0;
  A->conflicts = pairs;
  for (int32_t x = 0; x < m; x++) {
    floor_[x] = fsum;
    if (fev[x]) {
      off[x] = fsum;
      A->conflicts += fcount; /* with every earlier forever buffer */
      fsum += asz[x];
      fcount++;
    } else {
      A->conflicts += fcount;
    }
  }
  int64_t best = -1;
  /* Release points for the sweep packer: the last sequential position of
   * an op that does not happen after all of the buffer's events. */
  int32_t *rel = opsched_alloc_array((size_t)m, sizeof *rel);
  sw_off = opsched_alloc_array((size_t)m, sizeof *sw_off);
  if (!rel || !sw_off) {
    opsched_free(rel);
    goto fail;
  }
  for (int32_t x = 0; x < m; x++) {
    int32_t i = ab[x], r = lastseq[i];
    for (int32_t k = 0; k < S && !fev[x]; k++) {
      int32_t t = A->thr[(size_t)i * (size_t)S + (size_t)k];
      int64_t len = h.so_off[k + 1] - h.so_off[k];
      int64_t place = t == NEVER ? len : t - 1;
      if (place > 0) {
        int32_t q = h.seq[h.so_ops[h.so_off[k] + place - 1]];
        if (q > r)
          r = q;
      }
    }
    rel[x] = fev[x] ? n : r;
  }
  int64_t sweep_top = -2;
  if (capped || (packers & OPSCHED_ARENA_PACKER_BIT(OPSCHED_ARENA_SWEEP_BEST_FIT)))
    sweep_top = sweep_best_fit(m, n, asz, alloc_off, rel, sw_off);
  opsched_free(rel);
  if (sweep_top == -1)
    goto fail;
  if (sweep_top >= 0 && m > 0)
    A->packer_size[OPSCHED_ARENA_SWEEP_BEST_FIT] = sweep_top;
  if (capped) {
    best = sweep_top;
    memcpy(best_off, sw_off, sizeof *sw_off * (size_t)m);
    A->winner = packer_names[OPSCHED_ARENA_SWEEP_BEST_FIT];
  } else if (m > 0) {
    int64_t maxdeg = 0;
    for (int32_t x = 0; x < m; x++)
      if (adj_off[x + 1] - adj_off[x] > maxdeg)
        maxdeg = adj_off[x + 1] - adj_off[x];
    scratch = opsched_alloc_array((size_t)maxdeg * 2 + 2, sizeof *scratch);
    breadth = opsched_alloc_array((size_t)m, sizeof *breadth);
    /* Range maximum of the aligned live bytes (diff) over positions. */
    int32_t size = 1;
    while (size < n)
      size *= 2;
    tree = opsched_alloc_array((size_t)size * 2, sizeof *tree);
    if (!scratch || !breadth || !tree)
      goto fail;
    for (int32_t p = 0; p < n; p++)
      tree[size + p] = diff[p];
    for (int32_t p = size - 1; p > 0; p--)
      tree[p] = tree[2 * p] > tree[2 * p + 1] ? tree[2 * p] : tree[2 * p + 1];
    for (int32_t x = 0; x < m; x++) {
      int32_t i = ab[x];
      int64_t lo = h.seq[A->owner[i]] + size, hi = lastseq[i] + size + 1, mx = 0;
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
      breadth[x] = mx;
    }
    pk P = {m, asz, fev, floor_, adj_off, adj, fsum, off, scratch};
    int winner = -1;
    for (int p = 0; p < OPSCHED_ARENA_PACKER_COUNT; p++) {
      if (!(packers & OPSCHED_ARENA_PACKER_BIT(p)))
        continue;
      if (p == OPSCHED_ARENA_SWEEP_BEST_FIT) {
        if (best < 0 || sweep_top < best) {
          best = sweep_top;
          winner = p;
          memcpy(best_off, sw_off, sizeof *sw_off * (size_t)m);
        }
        continue;
      }
      int32_t cnt = 0;
      for (int32_t x = 0; x < m; x++) {
        if (fev[x])
          continue;
        int32_t i = ab[x];
        int64_t len = lastseq[i] - h.seq[A->owner[i]];
        sort_key *kk = &keys[cnt++];
        kk->id = x;
        kk->k2 = 0;
        switch (p) {
        case OPSCHED_ARENA_GREEDY_SIZE:
        case OPSCHED_ARENA_TFLITE:
          kk->k1 = -asz[x];
          break;
        case OPSCHED_ARENA_XLA_SPATIAL:
          kk->k1 = -asz[x];
          kk->k2 = -len;
          break;
        case OPSCHED_ARENA_XLA_TEMPORAL:
          kk->k1 = -len;
          kk->k2 = -asz[x];
          break;
        default:
          kk->k1 = -breadth[x];
          kk->k2 = -asz[x];
          break;
        }
      }
      qsort(keys, (size_t)cnt, sizeof *keys, cmp_key);
      for (int32_t c = 0; c < cnt; c++)
        perm[c] = keys[c].id;
      int64_t top = run_packer(&P, perm, cnt, p == OPSCHED_ARENA_GREEDY_SIZE);
      A->packer_size[p] = top;
      if (best < 0 || top < best) {
        best = top;
        winner = p;
        memcpy(best_off, off, sizeof *off * (size_t)m);
      }
    }
    A->winner = packer_names[winner];
    /* Compaction assumes the stacked results, which the sweep does not use. */
    if ((packers & OPSCHED_ARENA_COMPACT) && winner != OPSCHED_ARENA_SWEEP_BEST_FIT) {
      memcpy(off, best_off, sizeof *off * (size_t)m);
      int32_t cnt = 0;
      for (int32_t x = 0; x < m; x++)
        if (!fev[x])
          perm[cnt++] = x;
      compact(&P, perm, cnt, keys);
      int64_t top = layout_top(&P);
      if (top < best) {
        best = top;
        A->winner = compact_names[winner];
        memcpy(best_off, off, sizeof *off * (size_t)m);
      }
    }
  }
  if (!capped && m > 0 && (packers & OPSCHED_ARENA_COMPACT) &&
      A->winner != packer_names[OPSCHED_ARENA_SWEEP_BEST_FIT]) {
    /* Iterated greedy: the buffers that reach the top of the best layout so
     * far go first in the next best-fit pass (then by size), cumulatively,
     * for a few rounds; a round is kept only when the arena shrinks. */
    uint8_t *promoted = opsched_alloc_array((size_t)m, sizeof *promoted);
    pk P = {m, asz, fev, floor_, adj_off, adj, 0, off, scratch};
    for (int32_t x = 0; x < m; x++)
      if (fev[x])
        P.fev_top += asz[x];
    for (int round = 0; promoted && scratch && round < 12 && best > A->aligned_lower_bound;
         round++) {
      int any = 0;
      for (int32_t x = 0; x < m; x++)
        if (!fev[x] && best_off[x] + asz[x] == best && !promoted[x])
          promoted[x] = 1, any = 1;
      if (!any)
        break;
      int32_t cnt = 0;
      for (int32_t x = 0; x < m; x++) {
        if (fev[x])
          continue;
        keys[cnt].k1 = promoted[x] ? 0 : 1;
        keys[cnt].k2 = -asz[x];
        keys[cnt].id = x;
        cnt++;
      }
      if (best_fit_in_key_order(&P, keys, perm, cnt, &best, best_off))
        A->winner = "iterated-best-fit";
    }
    /* Perturbed rounds: best fit in size order with deterministic noise on
     * the sizes, the top-reaching buffers of the best layout promoted as
     * above. Up to 16 rounds (what the corpus needs), fewer when the block
     * has more than 2^16 conflict entries: all rounds together visit at most
     * about 2^20 conflict entries (times the compaction passes). */
    int64_t work = adj_off[m] + m;
    int32_t rounds = (int32_t)(((int64_t)1 << 20) / (work > 0 ? work : 1));
    if (rounds > 16)
      rounds = 16;
    uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)m;
    for (int32_t round = 0; promoted && scratch && round < rounds &&
                            best > A->aligned_lower_bound; round++) {
      for (int32_t x = 0; x < m; x++)
        if (!fev[x] && best_off[x] + asz[x] == best)
          promoted[x] = 1;
      int32_t cnt = 0;
      for (int32_t x = 0; x < m; x++) {
        if (fev[x])
          continue;
        int64_t noise = 768 + opsched_rng_below(&rng, 513); /* 0.75 .. 1.25 of 1024 */
        int64_t sz = asz[x] < INT64_MAX / 1281 ? asz[x] : asz[x] / 1281;
        keys[cnt].k1 = promoted[x] ? 0 : 1;
        keys[cnt].k2 = -sz * noise;
        keys[cnt].id = x;
        cnt++;
      }
      if (best_fit_in_key_order(&P, keys, perm, cnt, &best, best_off))
        A->winner = "perturbed-best-fit";
    }
    opsched_free(promoted);
  }
  A->size = best > 0 ? best : 0;
  for (int32_t x = 0; x < m; x++)
    A->offset[ab[x]] = best_off[x];
  A->m = m;
  if (keep && !capped) {
    A->ab = ab;
    A->adj_off = adj_off;
    A->adj = adj;
    ab = NULL;
    adj_off = NULL;
    adj = NULL;
  }
  st = OPSCHED_OK;
  *out = A;
  A = NULL;
fail:
  opsched_arena_destroy(A);
  opsched_hb_free(&h);
  opsched_free(lastseq);
  opsched_free(lastend);
  opsched_free(ab);
  opsched_free(alloc_off);
  opsched_free(diff);
  opsched_free(adiff);
  opsched_free(events);
  opsched_free(act);
  opsched_free(actn);
  opsched_free(where);
  opsched_free(perm);
  opsched_free(bk_off);
  opsched_free(bk);
  opsched_free(fill);
  opsched_free(adj_off);
  opsched_free(adj);
  opsched_free(floor_);
  opsched_free(off);
  opsched_free(best_off);
  opsched_free(scratch);
  opsched_free(asz);
  opsched_free(fev);
  opsched_free(keys);
  opsched_free(breadth);
  opsched_free(tree);
  opsched_free(sw_off);
  return st;
}

static int cmp_sync(const void *pa, const void *pb) {
  const int32_t *a = pa, *b = pb;
  if (a[1] != b[1])
    return (a[1] > b[1]) - (a[1] < b[1]);
  return (a[0] > b[0]) - (a[0] < b[0]);
}

/* The syncs that make T's layout race-free: for every pair that the strict
 * run says may not share (its conflict lists) but that overlaps in T's
 * memory, the last event of the earlier buffer on each other stream ->
 * the later buffer's allocating op. Sorted by (to, from), deduplicated. */
static opsched_status derive_syncs(const opsched_arena *strict, opsched_arena *T,
                                   const opsched_buffers *b) {
  int32_t m = strict->m, S = T->S, nb = T->nbuf;
  int32_t *last = opsched_alloc_array((size_t)nb * (size_t)S, sizeof *last);
  int64_t cap = 64, used = 0;
  int32_t *pairs = opsched_alloc_array((size_t)cap * 2, sizeof *pairs);
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!last || !pairs)
    goto done;
  for (size_t i = 0; i < (size_t)nb * (size_t)S; i++)
    last[i] = -1;
  /* Last event (allocation or use) of each buffer on each stream. */
  for (int32_t i = 0; i < nb; i++) {
    int32_t o = T->owner[i];
    if (o >= 0)
      last[(size_t)i * (size_t)S + (size_t)T->stream[o]] = o;
  }
  int64_t nuses = opsched_buffers_num_uses(b);
  for (int64_t e = 0; e < nuses; e++) {
    int32_t i, u;
    opsched_buffers_use(b, e, &i, &u);
    if (T->owner[i] < 0)
      continue;
    int32_t *l = &last[(size_t)i * (size_t)S + (size_t)T->stream[u]];
    if (*l < 0 || T->spos[u] > T->spos[*l])
      *l = u;
  }
  for (int32_t x = 0; x < m; x++) {
    int32_t bx = strict->ab[x], vx = T->owner[bx];
    int64_t ox = T->offset[bx], ex = ox + T->asize[bx];
    for (int64_t e = strict->adj_off[x]; e < strict->adj_off[x + 1]; e++) {
      int32_t y = strict->adj[e];
      if (y > x)
        continue; /* each pair once, from the later buffer x */
      int32_t by = strict->ab[y];
      int64_t oy = T->offset[by], ey = oy + T->asize[by];
      if (oy >= ex || ox >= ey)
        continue; /* disjoint in memory */
      for (int32_t k = 0; k < S; k++) {
        int32_t u = last[(size_t)by * (size_t)S + (size_t)k];
        if (u < 0 || k == T->stream[vx])
          continue;
        if (used == cap) {
          int32_t *p = opsched_realloc_array(pairs, (size_t)cap * 4, sizeof *p);
          if (!p)
            goto done;
          pairs = p;
          cap *= 2;
        }
        pairs[2 * used] = u;
        pairs[2 * used + 1] = vx;
        used++;
      }
    }
  }
  qsort(pairs, (size_t)used, 2 * sizeof *pairs, cmp_sync);
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
    goto done;
  for (int64_t e = 0; e < kept; e++) {
    T->sync_from[e] = pairs[2 * e];
    T->sync_to[e] = pairs[2 * e + 1];
  }
  T->nsync = kept;
  st = OPSCHED_OK;
done:
  opsched_free(last);
  opsched_free(pairs);
  return st;
}

opsched_status opsched_arena_assign_with(const opsched_graph *g,
                                         const opsched_schedule *s,
                                         const opsched_buffers *b,
                                         int64_t alignment, unsigned packers,
                                         opsched_arena **out) {
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
  opsched_status st = arena_run(g, s, b, alignment, packers, 0, timeline, &A);
  /* Waits cost synchronisation: try the timeline only when the strict
   * layout is more than 1% above the lower bound, and keep it only when it
   * is at least 1% smaller. */
  if (st != OPSCHED_OK || !timeline || !A->adj ||
      A->size - A->size / 100 <= A->aligned_lower_bound) {
    *out = A;
    return st;
  }
  st = arena_run(g, s, b, alignment, packers, 1, 0, &T);
  int better = st == OPSCHED_OK && T->size <= A->size - A->size / 100;
  if (better)
    st = derive_syncs(A, T, b);
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
  opsched_free(A->ab);
  opsched_free(A->adj_off);
  opsched_free(A->adj);
  A->ab = NULL;
  A->adj_off = NULL;
  A->adj = NULL;
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
