/* A lower bound for the arena's improvement rounds: the largest antichain
 * of the buffers' order (see arena_bound.h). Maximum matching by augmenting
 * paths (Kuhn, iterative, visited marks kept across failed searches) over
 * bit rows of the conflict lists, then Konig's alternating reachability. */
#include "arena_bound.h"

#include "alloc.h"

#include <string.h>

typedef struct bound_ctx {
  int32_t m;
  size_t words;
  uint64_t *conf; /* m x words: y in x's conflict list */
  uint64_t *live;  /* buffers taking part (not forever) */
  uint64_t *avail; /* live and not reached on the right side yet */
  uint64_t *zl;    /* left side reached (Konig) */
  int32_t *mate_l, *mate_r, *stk, *via, *pos;
  int64_t work, budget;
} bound_ctx;

static int has(const uint64_t *row, int32_t y) {
  return (int)((row[(uint32_t)y >> 6] >> ((uint32_t)y & 63)) & 1);
}
static void set(uint64_t *row, int32_t y) { row[(uint32_t)y >> 6] |= 1ull << ((uint32_t)y & 63); }
static void clear(uint64_t *row, int32_t y) {
  row[(uint32_t)y >> 6] &= ~(1ull << ((uint32_t)y & 63));
}

/* Every buffer taking part unreached again. */
static void reset_reached(bound_ctx *c) { memcpy(c->avail, c->live, c->words * sizeof *c->avail); }

/* The first y >= from (y > x: later buffers only) ordered after x (taking
 * part, not in x's list) and not reached yet; -1 when none or out of work.
 * Each word read is one unit of work, and the word that would go past the
 * budget is not read: `work` ends as the word-at-a-time scan left it. */
static inline __attribute__((always_inline)) int32_t next_after(bound_ctx *c, int32_t x,
                                                                  int32_t from) {
  const uint64_t *row = c->conf + (size_t)x * c->words;
  size_t w0 = (size_t)from / 64;
  if (w0 >= c->words)
    return -1;
  int64_t allowed = c->budget - c->work;
  if (allowed <= 0) {
    c->work++;
    return -1;
  }
  size_t end = c->words;
  if ((uint64_t)allowed < (uint64_t)(end - w0))
    end = w0 + (size_t)allowed;
  size_t w = w0;
  uint64_t bits = c->avail[w] & ~row[w] & (~0ull << (from % 64));
  while (!bits && ++w < end)
    bits = c->avail[w] & ~row[w];
  if (bits) {
    c->work += (int64_t)(w - w0 + 1);
    return (int32_t)(w * 64 + (size_t)__builtin_ctzll(bits));
  }
  if (end < c->words)
    c->work = c->budget + 1;
  else
    c->work += (int64_t)(end - w0);
  return -1;
}

/* An augmenting path from the free left vertex `root` (depth-first, an
 * explicit stack); 1 when the matching grew. */
static int augment(bound_ctx *c, int32_t root) {
  int32_t depth = 0;
  c->stk[0] = root;
  c->pos[0] = root + 1;
  while (depth >= 0) {
    int32_t x = c->stk[depth];
    int32_t y = c->pos[depth] < c->m ? next_after(c, x, c->pos[depth]) : -1;
    if (y < 0) {
      depth--;
      continue;
    }
    c->pos[depth] = y + 1;
    clear(c->avail, y);
    c->via[depth] = y;
    if (c->mate_r[y] < 0) {
      for (int32_t d = 0; d <= depth; d++) {
        c->mate_r[c->via[d]] = c->stk[d];
        c->mate_l[c->stk[d]] = c->via[d];
      }
      return 1;
    }
    depth++;
    c->stk[depth] = c->mate_r[y];
    c->pos[depth] = c->mate_r[y] + 1;
  }
  return 0;
}

/* A maximum matching of "x before y"; 0, or -1 out of work. */
static int max_matching(bound_ctx *c) {
  for (int32_t x = 0; x < c->m; x++)
    c->mate_l[x] = c->mate_r[x] = -1;
  for (int32_t x = 0; x < c->m; x++) {
    if (!has(c->live, x))
      continue;
    if (augment(c, x)) /* a new path may use what the failed ones saw */
      reset_reached(c);
    if (c->work > c->budget)
      return -1;
  }
  return 0;
}

/* Konig: left vertices reached from the free ones by alternating paths
 * (any order edge to the right, the matching edge back); the antichain is
 * the buffers reached on the left and not on the right. Leaves them in
 * c->stk, returns their count, -1 out of work. */
static int32_t antichain(bound_ctx *c) {
  reset_reached(c);
  int32_t head = 0, tail = 0;
  for (int32_t x = 0; x < c->m; x++)
    if (has(c->live, x) && c->mate_l[x] < 0) {
      set(c->zl, x);
      c->via[tail++] = x;
    }
  while (head < tail) {
    int32_t x = c->via[head++];
    for (int32_t y = next_after(c, x, x + 1); y >= 0; y = next_after(c, x, y + 1)) {
      clear(c->avail, y);
      int32_t u = c->mate_r[y];
      if (u >= 0 && !has(c->zl, u)) {
        set(c->zl, u);
        c->via[tail++] = u;
      }
    }
    if (c->work > c->budget)
      return -1;
  }
  int32_t k = 0;
  for (int32_t x = 0; x < c->m; x++)
    if (has(c->zl, x) && has(c->avail, x)) /* avail: live, not reached */
      c->stk[k++] = x;
  return k;
}

/* The bound of the k buffers in c->stk, -1 unless they pairwise conflict
 * (both lists) and their sizes add up without overflow: their aligned sizes
 * less the largest padding (asz - rsz), since only the top one of them may
 * end at its unaligned end. */
static int64_t set_bound(const bound_ctx *c, int32_t k, const int64_t *asz,
                         const int64_t *rsz) {
  int64_t sum = 0, pad = 0;
  for (int32_t i = 0; i < k; i++) {
    int32_t x = c->stk[i];
    const uint64_t *row = c->conf + (size_t)x * c->words;
    for (int32_t j = 0; j < i; j++) {
      int32_t y = c->stk[j];
      if (!has(row, y) || !has(c->conf + (size_t)y * c->words, x))
        return -1;
    }
    if (asz[x] < 0 || rsz[x] < 0 || rsz[x] > asz[x] || sum > INT64_MAX - asz[x])
      return -1;
    sum += asz[x];
    pad = asz[x] - rsz[x] > pad ? asz[x] - rsz[x] : pad;
  }
  if (k == 0)
    return -1;
  return sum - pad;
}

/* The chains of the maximum matching (Dilworth): each buffer taking part
 * that no matched buffer precedes starts a chain, which follows the
 * matching edges to later buffers; chain[x] numbers them 0.. in the order
 * of their first buffer, -1 for the buffers left out. Returns the count. */
static int32_t chains_of(const bound_ctx *c, int32_t *chain) {
  int32_t count = 0;
  for (int32_t x = 0; x < c->m; x++)
    chain[x] = -1;
  for (int32_t x = 0; x < c->m; x++) {
    if (!has(c->live, x) || c->mate_r[x] >= 0)
      continue;
    for (int32_t y = x; y >= 0; y = c->mate_l[y])
      chain[y] = count;
    count++;
  }
  return count;
}

int64_t opsched_arena_antichain_bound(int32_t m, const uint8_t *fev, const int64_t *asz,
                                      const int64_t *rsz, const int64_t *adj_off,
                                      const int32_t *adj, int32_t max_buffers,
                                      int64_t work) {
  return opsched_arena_antichain_cover(m, fev, asz, rsz, adj_off, adj, max_buffers, work,
                                       NULL, NULL);
}

int64_t opsched_arena_antichain_cover(int32_t m, const uint8_t *fev, const int64_t *asz,
                                      const int64_t *rsz, const int64_t *adj_off,
                                      const int32_t *adj, int32_t max_buffers,
                                      int64_t work, int32_t *chain, int32_t *nchains) {
  if (nchains)
    *nchains = -1;
  if (m <= 0 || m > max_buffers)
    return -1;
  bound_ctx c;
  memset(&c, 0, sizeof c);
  c.m = m;
  c.words = ((size_t)m + 63) / 64;
  c.budget = work;
  c.conf = opsched_alloc_array((size_t)m * c.words, sizeof *c.conf);
  c.live = opsched_alloc_array(c.words, sizeof *c.live);
  c.avail = opsched_alloc_array(c.words, sizeof *c.avail);
  c.zl = opsched_alloc_array(c.words, sizeof *c.zl);
  int32_t *ints = opsched_alloc_array((size_t)m * 5, sizeof *ints);
  int64_t bound = -1;
  if (c.conf && c.live && c.avail && c.zl && ints) {
    c.mate_l = ints, c.mate_r = ints + m, c.stk = ints + 2 * (size_t)m;
    c.via = ints + 3 * (size_t)m, c.pos = ints + 4 * (size_t)m;
    for (int32_t x = 0; x < m; x++) {
      if (!fev[x])
        set(c.live, x);
      for (int64_t e = adj_off[x]; e < adj_off[x + 1]; e++)
        set(c.conf + (size_t)x * c.words, adj[e]);
    }
    reset_reached(&c);
    c.work = adj_off[m] / 64; /* the rows */
    int32_t k = max_matching(&c) == 0 ? antichain(&c) : -1;
    if (k > 0)
      bound = set_bound(&c, k, asz, rsz);
    if (bound >= 0 && chain && nchains)
      *nchains = chains_of(&c, chain);
  }
  opsched_free(c.conf);
  opsched_free(c.live);
  opsched_free(c.avail);
  opsched_free(c.zl);
  opsched_free(ints);
  return bound;
}
