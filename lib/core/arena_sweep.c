/* The arena's sweep packer (arena_sweep.h): the shared free list, and on
 * several streams one pool per stream of buffers released for it only. */
#include "arena_sweep.h"

#include "alloc.h"
#include "free_tree.h"

/* Loop iterations ahead that a prefetch asks for a random entry. */
#define PF_AHEAD 8

typedef struct sweep_state {
  const sweep_plan *P;
  int64_t *off;
  free_tree F;        /* memory whose last holder is released for all */
  free_tree U;        /* the unused parts in some pool, tag: the buffer
                       * (starts only: looked up by their start) */
  int64_t top;
  int err;            /* out of memory */
  /* The pools (pool NULL: none). A buffer's unused part is
   * [off + used, off + asz); its node in each pool of `in` starts there. */
  free_tree *pool;    /* S, each initialised on first use (node set) */
  uint64_t *in;       /* m: the streams whose pool holds the unused part */
  int64_t *used;      /* m: bytes at its start taken from the pools */
  uint8_t *gone;      /* m: released for all */
  int64_t *next_key;  /* S: each stream's first release bucket not admitted */
  int64_t entries;    /* pool nodes now; none added past `budget` */
  int64_t budget;
} sweep_state;

/* [o, o + size) back into F, coalesced with the blocks that touch it. */
static void free_block(sweep_state *st, free_tree *F, int64_t o, int64_t size) {
  int32_t prev = opsched_ft_at(F, o, 1), next = opsched_ft_at(F, o + size, 0);
  int rc;
  if (next >= 0) {
    size += F->node[next].fs;
    if (prev >= 0)
      opsched_ft_remove(F, next);
  }
  if (prev >= 0)
    rc = opsched_ft_resize(F, prev, F->node[prev].fo, F->node[prev].fs + size);
  else if (next >= 0)
    rc = opsched_ft_resize(F, next, o, size);
  else
    rc = opsched_ft_new(F, o, size) < 0 ? -1 : 0;
  st->err |= rc != 0;
}

/* The first `size` bytes of F's block b; returns their offset. */
static int64_t carve(sweep_state *st, free_tree *F, int32_t b, int64_t size) {
  int64_t o = F->node[b].fo, rest = F->node[b].fs - size;
  if (rest == 0)
    opsched_ft_remove(F, b);
  else
    st->err |= opsched_ft_resize(F, b, o + size, rest) != 0;
  return o;
}

/* Stream k's pool, initialised on first use; NULL when out of memory. */
static free_tree *pool_of(sweep_state *st, int32_t k) {
  if (!st->pool[k].node && opsched_ft_init_ordered(&st->pool[k], 0) != 0) {
    st->err = 1;
    return NULL;
  }
  return &st->pool[k];
}

/* [a, a + c) out of pool T's block that holds it. */
static void pool_cut(sweep_state *st, free_tree *T, int64_t a, int64_t c) {
  int32_t r = opsched_ft_floor(T, a);
  int64_t ro = T->node[r].fo, left = a - ro, right = ro + T->node[r].fs - (a + c);
  if (left == 0 && right == 0)
    opsched_ft_remove(T, r);
  else if (left == 0)
    st->err |= opsched_ft_resize(T, r, a + c, right) != 0;
  else {
    st->err |= opsched_ft_resize(T, r, ro, left) != 0;
    if (right > 0)
      st->err |= opsched_ft_new(T, a + c, right) < 0;
  }
}

/* The first c bytes of x's unused part are taken (from pool `skip`, which
 * the caller updated, or released: skip -1): out of its other pools. */
static void consume(sweep_state *st, int32_t x, int64_t c, int32_t skip) {
  int64_t u = st->off[x] + st->used[x], rest = st->P->asz[x] - st->used[x];
  for (uint64_t bits = st->in[x]; bits; bits &= bits - 1) {
    int32_t j = __builtin_ctzll(bits);
    if (j != skip)
      pool_cut(st, &st->pool[j], u, c);
  }
  int32_t node = opsched_ft_at(&st->U, u, 0);
  st->used[x] += c;
  if (c == rest) {
    opsched_ft_remove(&st->U, node);
    st->entries -= __builtin_popcountll(st->in[x]);
    st->in[x] = 0;
  } else {
    st->err |= opsched_ft_resize(&st->U, node, u + c, rest - c) != 0;
  }
}

/* The first `size` bytes of pool k's block b, across the unused parts it
 * joins (in address order, each taken from its front); their offset. */
static int64_t take(sweep_state *st, int32_t k, int32_t b, int64_t size) {
  int64_t a = carve(st, &st->pool[k], b, size), at = a;
  while (size > 0 && !st->err) {
    int32_t x = st->U.node[opsched_ft_at(&st->U, at, 0)].tag;
    int64_t rest = st->P->asz[x] - st->used[x], c = rest < size ? rest : size;
    consume(st, x, c, k);
    at += c;
    size -= c;
  }
  return a;
}

/* x is released for every stream: out of the pools, its unused part into
 * the free list (the parts taken from it go back with their takers). */
static void release_all(sweep_state *st, int32_t x) {
  int64_t o = st->off[x], unused = st->P->asz[x];
  if (st->pool) {
    o += st->used[x];
    unused -= st->used[x];
    if (st->in[x])
      consume(st, x, unused, -1);
    st->gone[x] = 1;
  }
  if (unused > 0)
    free_block(st, &st->F, o, unused);
}

/* Stream k's pool gets the unused part of every buffer released for k at
 * places up to t, coalesced with the parts beside it. */
static void admit(sweep_state *st, int32_t k, int32_t t) {
  const sweep_plan *P = st->P;
  int64_t end = P->so_off[k] + t;
  /* Entries only grow while admitting: once the budget is spent, every
   * entry left would be skipped, so the walk stops there. */
  for (int64_t key = st->next_key[k]; key < end && !st->err && st->entries < st->budget; key++)
    for (int64_t e = P->pool_off[key]; e < P->pool_off[key + 1] && st->entries < st->budget; e++) {
      int32_t x = P->pool_ids[e];
      /* gone[] first: a byte per buffer, read before the 8-byte off,
       * used and asz of the buffers still held. */
      if (st->gone[x])
        continue;
      int64_t u = st->off[x] + st->used[x], rest = P->asz[x] - st->used[x];
      free_tree *T;
      if (rest == 0 || !(T = pool_of(st, k)))
        continue;
      if (!st->in[x]) {
        int32_t node = opsched_ft_new(&st->U, u, rest);
        if (node < 0) {
          st->err = 1;
          return;
        }
        st->U.node[node].tag = x;
      }
      free_block(st, T, u, rest);
      st->in[x] |= (uint64_t)1 << k;
      st->entries++;
    }
  if (st->next_key[k] < end)
    st->next_key[k] = end;
}

/* Buffer y of stream k (pool NULL: none) at the best fit of the free list
 * and the pool, the smaller block first (then the lower offset); none: at
 * the top, growing the block that ends there. */
static void place(sweep_state *st, int32_t y, int32_t k) {
  free_tree *pool = k >= 0 && st->pool[k].node ? &st->pool[k] : NULL;
  int64_t size = st->P->asz[y];
  free_tree *F = &st->F;
  int32_t bf = opsched_ft_best_fit(F, size), bp = pool ? opsched_ft_best_fit(pool, size) : -1;
  if (bp >= 0 && (bf < 0 || pool->node[bp].fs < F->node[bf].fs ||
                  (pool->node[bp].fs == F->node[bf].fs && pool->node[bp].fo < F->node[bf].fo))) {
    st->off[y] = take(st, k, bp, size);
    return;
  }
  if (bf >= 0) {
    st->off[y] = carve(st, F, bf, size);
    return;
  }
  int32_t last = opsched_ft_at(F, st->top, 1), lastp = pool ? opsched_ft_at(pool, st->top, 1) : -1;
  if (last >= 0) {
    st->off[y] = F->node[last].fo;
    opsched_ft_remove(F, last);
  } else if (lastp >= 0) {
    st->off[y] = take(st, k, lastp, pool->node[lastp].fs);
  } else {
    st->off[y] = st->top;
  }
  st->top = st->off[y] + size;
}

static int state_init(sweep_state *st, const sweep_plan *P, int64_t *off) {
  st->P = P;
  st->off = off;
  if (opsched_ft_init(&st->F, P->m + 1) != 0)
    return -1;
  if (P->S <= 1 || P->S > OPSCHED_SWEEP_POOL_STREAMS || !P->pool_off)
    return 0;
  st->pool = opsched_alloc_array((size_t)P->S, sizeof *st->pool);
  st->next_key = opsched_alloc_array((size_t)P->S, sizeof *st->next_key);
  st->in = opsched_alloc_array((size_t)P->m + 1, sizeof *st->in);
  st->used = opsched_alloc_array((size_t)P->m + 1, sizeof *st->used);
  st->gone = opsched_alloc_array((size_t)P->m + 1, sizeof *st->gone);
  if (!st->pool || !st->next_key || !st->in || !st->used || !st->gone ||
      opsched_ft_init_starts(&st->U, 0) != 0)
    return -1;
  for (int32_t k = 0; k < P->S; k++)
    st->next_key[k] = P->so_off[k];
  /* Past the budget, a buffer released for a stream waits for the release
   * for all (conservative, still race-free). */
  st->budget = OPSCHED_SWEEP_POOL_ENTRIES;
  return 0;
}

static void state_free(sweep_state *st) {
  /* Every list here is zero-filled or initialised (freeing either is safe). */
  opsched_ft_free(&st->F);
  opsched_ft_free(&st->U);
  for (int32_t k = 0; st->pool && k < st->P->S; k++)
    opsched_ft_free(&st->pool[k]);
  opsched_free(st->pool);
  opsched_free(st->next_key);
  opsched_free(st->in);
  opsched_free(st->used);
  opsched_free(st->gone);
}

int64_t opsched_sweep_pack(const sweep_plan *P, int64_t *off) {
  int32_t m = P->m, n = P->n;
  sweep_state st = {0};
  int64_t *rel_off = opsched_alloc_array((size_t)n + 2, sizeof *rel_off);
  int32_t *rel_ids = opsched_alloc_array_raw((size_t)m, sizeof *rel_ids);
  int ok = rel_off && rel_ids && state_init(&st, P, off) == 0;
  if (ok) {
    for (int32_t x = 0; x < m; x++)
      if (P->rel[x] < n)
        rel_off[P->rel[x] + 2]++;
    for (int32_t p = 0; p <= n; p++)
      rel_off[p + 1] += rel_off[p];
    for (int32_t x = 0; x < m; x++)
      if (P->rel[x] < n)
        rel_ids[rel_off[P->rel[x] + 1]++] = x;
  }
  for (int32_t p = 0; ok && p < n; p++) {
    if (p > 0)
      for (int64_t e = rel_off[p - 1]; e < rel_off[p]; e++) {
        if (e + PF_AHEAD < rel_off[p]) {
          __builtin_prefetch(&off[rel_ids[e + PF_AHEAD]]);
          __builtin_prefetch(&P->asz[rel_ids[e + PF_AHEAD]]);
        }
        release_all(&st, rel_ids[e]);
      }
    if (P->alloc_off[p] == P->alloc_off[p + 1])
      continue;
    int32_t k = -1;
    if (st.pool) {
      k = P->op_stream[p];
      admit(&st, k, P->op_place[p]);
    }
    for (int32_t x = P->alloc_off[p]; x < P->alloc_off[p + 1]; x++)
      place(&st, x, k);
    ok = !st.err;
  }
  state_free(&st);
  opsched_free(rel_off);
  opsched_free(rel_ids);
  return ok ? st.top : -1;
}
