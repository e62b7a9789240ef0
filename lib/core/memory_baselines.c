/* Heuristic orders: program order, critical path under a limit, the XLA
 * and TorchInductor baselines re-implemented to behave like the originals,
 * and our Sethi-Ullman DFS. Every one runs in O((V + E) log V) or close
 * (BFS compares predecessor lists; DFS orders sort operand lists). */
#include "alloc.h"
#include "heap.h"
#include "memory_baselines.h"
#include "saturate.h"

#include <stdlib.h>
#include <string.h>

/* ---- Program order --------------------------------------------------- */

opsched_status mem_order_program(const mem_model *m, int32_t *order) {
  int32_t n = m->n;
  int ok = 1;
  for (int32_t v = 0; v < n && ok; v++)
    for (int64_t i = m->pred_off[v]; i < m->pred_off[v + 1]; i++)
      if (m->pred[i] > v)
        ok = 0;
  if (ok) { /* ids are the block's order and already topological */
    for (int32_t v = 0; v < n; v++)
      order[v] = v;
    return OPSCHED_OK;
  }
  /* Kahn, smallest id first: the closest topological order to the ids. */
  int64_t *key = opsched_alloc_array((size_t)n, sizeof *key);
  int32_t *ids = opsched_alloc_array((size_t)n, sizeof *ids);
  int32_t *missing = opsched_alloc_array((size_t)n, sizeof *missing);
  if (!key || !ids || !missing) {
    opsched_free(key);
    opsched_free(ids);
    opsched_free(missing);
    return OPSCHED_ERR_NOMEM;
  }
  opsched_heap h;
  opsched_heap_init(&h, ids, key);
  for (int32_t v = 0; v < n; v++) {
    key[v] = v;
    missing[v] = (int32_t)(m->pred_off[v + 1] - m->pred_off[v]);
    if (!missing[v])
      opsched_heap_push(&h, v);
  }
  for (int32_t t = 0; t < n; t++) {
    int32_t v = opsched_heap_pop(&h);
    order[t] = v;
    for (int64_t i = m->succ_off[v]; i < m->succ_off[v + 1]; i++)
      if (--missing[m->succ[i]] == 0)
        opsched_heap_push(&h, m->succ[i]);
  }
  opsched_free(key);
  opsched_free(ids);
  opsched_free(missing);
  return OPSCHED_OK;
}

/* ---- Segment tree over nodes sorted by allocated bytes --------------- */

/* Ready nodes sit at their position in the (alloc_bytes, id) order; each
 * tree node keeps the ready node with the smallest (key[v], v). This answers
 * "best ready node whose allocation fits under a threshold" in O(log V),
 * where a plain heap would pop and re-push every node that does not fit. */
typedef struct segtree {
  int32_t size;        /* leaves, a power of two */
  int32_t *best;       /* 2 * size entries, -1 = none */
  const int64_t *key;  /* per node, smaller first */
  const int32_t *where; /* node -> position (the model's allocation order) */
  const int64_t *alloc; /* position -> alloc bytes, ascending */
} segtree;

static void seg_free(segtree *s) { opsched_free(s->best); }

static opsched_status seg_init(segtree *s, const mem_model *m, const int64_t *key) {
  int32_t n = m->n;
  memset(s, 0, sizeof *s);
  s->size = 1;
  while (s->size < n)
    s->size *= 2;
  s->key = key;
  const mem_alloc_order *ao = mem_alloc_order_of(m);
  /* Not zero-filled: every entry is written below. */
  s->best = opsched_realloc_array(NULL, (size_t)s->size * 2, sizeof *s->best);
  if (!ao || !s->best) {
    seg_free(s);
    return OPSCHED_ERR_NOMEM;
  }
  s->where = ao->pos;
  s->alloc = ao->sorted;
  for (int32_t i = 0; i < 2 * s->size; i++)
    s->best[i] = -1;
  return OPSCHED_OK;
}

static int32_t seg_better(const segtree *s, int32_t a, int32_t b) {
  if (a < 0)
    return b;
  if (b < 0)
    return a;
  if (s->key[a] != s->key[b])
    return s->key[a] < s->key[b] ? a : b;
  return a < b ? a : b;
}

/* Refreshes active node v after a change of its key: every ancestor. */
static void seg_refresh(segtree *s, int32_t v) {
  int32_t i = s->where[v] + s->size;
  for (i /= 2; i >= 1; i /= 2)
    s->best[i] = seg_better(s, s->best[2 * i], s->best[2 * i + 1]);
}

/* Activates (on) or deactivates node v (keys unchanged). */
static void seg_set(segtree *s, int32_t v, int on) {
  int32_t i = s->where[v] + s->size;
  s->best[i] = on ? v : -1;
  /* A node whose best does not change leaves its ancestors' as they are. */
  for (i /= 2; i >= 1; i /= 2) {
    int32_t b = seg_better(s, s->best[2 * i], s->best[2 * i + 1]);
    if (b == s->best[i])
      break;
    s->best[i] = b;
  }
}

/* Best active node at positions [lo, hi). */
static int32_t seg_query(const segtree *s, int32_t lo, int32_t hi) {
  int32_t r = -1;
  for (lo += s->size, hi += s->size; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1)
      r = seg_better(s, r, s->best[lo++]);
    if (hi & 1)
      r = seg_better(s, r, s->best[--hi]);
  }
  return r;
}

/* Leftmost active position (smallest allocation), -1 when empty. */
static int32_t seg_first(const segtree *s) {
  if (s->best[1] < 0)
    return -1;
  int32_t i = 1;
  while (i < s->size)
    i = s->best[2 * i] >= 0 ? 2 * i : 2 * i + 1;
  return i - s->size;
}

/* Number of positions whose allocation is <= bytes. */
static int32_t seg_count_le(const segtree *s, int32_t n, int64_t bytes) {
  if (n == 0 || s->alloc[n - 1] <= bytes)
    return n; /* every allocation (no limit: the usual case) */
  int32_t lo = 0, hi = n;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (s->alloc[mid] <= bytes)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The best active node that fits `threshold`, else the best among the
 * active nodes with the smallest allocation (the smallest resulting peak). */
static int32_t seg_pick(const segtree *s, int32_t n, int64_t threshold, int *fits) {
  int32_t q = threshold < 0 ? -1 : seg_query(s, 0, seg_count_le(s, n, threshold));
  *fits = q >= 0;
  if (q >= 0)
    return q;
  int32_t p = seg_first(s);
  return seg_query(s, p, seg_count_le(s, n, s->alloc[p]));
}

/* Leftmost position at or after c holding an active node that comes
 * before q (seg_better; q < 0: any active node), -1 when none. A subtree
 * holds one exactly when its best does. */
static int32_t seg_first_before_q(const segtree *s, int32_t c, int32_t q) {
  if (c >= s->size)
    return -1;
#define SEG_HOLDS(i) (s->best[i] >= 0 && (q < 0 || (s->best[i] != q && \
                                                     seg_better(s, s->best[i], q) == s->best[i])))
  int32_t i = c + s->size;
  while (!SEG_HOLDS(i)) {
    while (i & 1) /* a right child (or the root): up */
      i >>= 1;
    if (i == 0)
      return -1;
    i++; /* the next subtree to the right */
  }
  while (i < s->size)
    i = SEG_HOLDS(2 * i) ? 2 * i : 2 * i + 1;
#undef SEG_HOLDS
  return i - s->size;
}

/* The limits under which this step picks v the same way
 * (mem_order_critical_path_range): the pick is the best active node whose
 * live + allocation fits, else (none fits) a function of the active set.
 * So v fitting, any limit from live + alloc(v) on and below the smallest
 * live + allocation of an active node before v that does not fit picks v;
 * none fitting, any limit below the smallest live + allocation. */
static void seg_note_range(const segtree *s, int32_t n, int64_t threshold, int64_t live,
                           int32_t v, int fits, int64_t *fit_max, int64_t *fail_min) {
  int32_t c = threshold < 0 ? 0 : seg_count_le(s, n, threshold);
  if (fits && opsched_sat_add(live, s->alloc[s->where[v]]) > *fit_max)
    *fit_max = opsched_sat_add(live, s->alloc[s->where[v]]);
  int32_t b = seg_first_before_q(s, c, fits ? v : -1);
  if (b >= 0 && b < n && opsched_sat_add(live, s->alloc[b]) < *fail_min)
    *fail_min = opsched_sat_add(live, s->alloc[b]);
}

/* ---- Critical path under a limit ------------------------------------- */

opsched_status mem_order_critical_path(const mem_model *m, int64_t limit,
                                       int32_t *order) {
  return mem_order_critical_path_range(m, limit, order, NULL, NULL);
}

opsched_status mem_order_critical_path_range(const mem_model *m, int64_t limit,
                                             int32_t *order, int64_t *fit_max,
                                             int64_t *fail_min) {
  int32_t n = m->n;
  if (fit_max) {
    *fit_max = 0;
    *fail_min = INT64_MAX;
  }
  segtree s;
  int64_t *key = opsched_alloc_array((size_t)n, sizeof *key);
  int32_t *missing = opsched_alloc_array((size_t)n, sizeof *missing);
  int32_t *remaining = opsched_alloc_array((size_t)m->nb, sizeof *remaining);
  if (!key || !missing || !remaining || seg_init(&s, m, key) != OPSCHED_OK) {
    opsched_free(key);
    opsched_free(missing);
    opsched_free(remaining);
    return OPSCHED_ERR_NOMEM;
  }
  for (int32_t k = 0; k < m->nb; k++)
    remaining[k] = (int32_t)(m->user_off[k + 1] - m->user_off[k]);
  for (int32_t v = 0; v < n; v++) {
    key[v] = -m->rank[v];
    missing[v] = (int32_t)(m->pred_off[v + 1] - m->pred_off[v]);
    if (!missing[v])
      seg_set(&s, v, 1);
  }
  int64_t live = 0;
  for (int32_t t = 0; t < n; t++) {
    int fits;
    int64_t threshold = limit == INT64_MAX ? INT64_MAX : limit - live;
    int32_t v = seg_pick(&s, n, threshold, &fits);
    if (fit_max)
      seg_note_range(&s, n, threshold, live, v, fits, fit_max, fail_min);
    order[t] = v;
    seg_set(&s, v, 0);
    live = opsched_sat_add(live, m->alloc_bytes[v]);
    /* Free what this op used last, and outputs nobody reads. */
    for (int64_t i = m->use_off[v]; i < m->use_off[v + 1]; i++) {
      int32_t k = m->use_buf[i];
      if (--remaining[k] == 0 && !m->forever[k] && live != INT64_MAX)
        live -= m->size[k];
    }
    for (int64_t i = m->alloc_off[v]; i < m->alloc_off[v + 1]; i++) {
      int32_t k = m->alloc_buf[i];
      if (remaining[k] == 0 && !m->forever[k] && live != INT64_MAX)
        live -= m->size[k];
    }
    for (int64_t i = m->succ_off[v]; i < m->succ_off[v + 1]; i++)
      if (--missing[m->succ[i]] == 0)
        seg_set(&s, m->succ[i], 1);
  }
  seg_free(&s);
  opsched_free(key);
  opsched_free(missing);
  opsched_free(remaining);
  return OPSCHED_OK;
}

/* ---- TorchInductor LPMF ---------------------------------------------- */

/* memory.py topological_sort_lpmf: among ready nodes take the smallest
 * (max(live + size, max_memory), size - memory_to_free, index). Nodes whose
 * size fits under max_memory - live tie on the first key, so the segment
 * tree (keyed by size - memory_to_free) answers it without a linear scan. */
opsched_status mem_order_inductor_lpmf(const mem_model *m, int32_t *order) {
  int32_t n = m->n;
  segtree s;
  int64_t *key = opsched_alloc_array((size_t)n, sizeof *key);
  int64_t *to_free = opsched_alloc_array((size_t)n, sizeof *to_free);
  int32_t *missing = opsched_alloc_array((size_t)n, sizeof *missing);
  int32_t *outdeg = opsched_alloc_array((size_t)m->nb, sizeof *outdeg);
  uint8_t *ready = opsched_alloc_array((size_t)n, sizeof *ready);
  if (!key || !to_free || !missing || !outdeg || !ready ||
      seg_init(&s, m, key) != OPSCHED_OK) {
    opsched_free(key);
    opsched_free(to_free);
    opsched_free(missing);
    opsched_free(outdeg);
    opsched_free(ready);
    return OPSCHED_ERR_NOMEM;
  }
  int64_t output_memory = 0;
  for (int32_t k = 0; k < m->nb; k++) {
    outdeg[k] = (int32_t)(m->user_off[k + 1] - m->user_off[k]) + m->forever[k];
    if (m->forever[k])
      output_memory = opsched_sat_add(output_memory, m->size[k]);
  }
  for (int32_t v = 0; v < n; v++) {
    for (int64_t i = m->use_off[v]; i < m->use_off[v + 1]; i++)
      if (outdeg[m->use_buf[i]] == 1)
        to_free[v] = opsched_sat_add(to_free[v], m->size[m->use_buf[i]]);
    for (int64_t i = m->alloc_off[v]; i < m->alloc_off[v + 1]; i++)
      if (outdeg[m->alloc_buf[i]] == 0)
        to_free[v] = opsched_sat_add(to_free[v], m->size[m->alloc_buf[i]]);
    key[v] = m->alloc_bytes[v] - to_free[v];
    missing[v] = (int32_t)(m->pred_off[v + 1] - m->pred_off[v]);
    if (!missing[v]) {
      ready[v] = 1;
      seg_set(&s, v, 1);
    }
  }
  /* No freeable inputs here (resident buffers are outside the peak), so
   * live starts at 0 and max_memory at the outputs' size, as in memory.py. */
  int64_t live = 0, max_memory = output_memory;
  for (int32_t t = 0; t < n; t++) {
    int fits;
    int32_t v = seg_pick(&s, n, max_memory - live, &fits);
    order[t] = v;
    ready[v] = 0;
    seg_set(&s, v, 0);
    live = opsched_sat_add(live, m->alloc_bytes[v]);
    if (live > max_memory)
      max_memory = live;
    if (live != INT64_MAX)
      live -= to_free[v] < live ? to_free[v] : live;
    for (int64_t i = m->succ_off[v]; i < m->succ_off[v + 1]; i++) {
      int32_t w = m->succ[i];
      if (--missing[w] == 0) {
        ready[w] = 1;
        seg_set(&s, w, 1);
      }
    }
    for (int64_t i = m->use_off[v]; i < m->use_off[v + 1]; i++) {
      int32_t k = m->use_buf[i];
      if (--outdeg[k] != 1)
        continue;
      for (int64_t j = m->user_off[k]; j < m->user_off[k + 1]; j++) {
        int32_t u = m->user[j];
        to_free[u] = opsched_sat_add(to_free[u], m->size[k]);
        key[u] = m->alloc_bytes[u] - to_free[u];
        if (ready[u])
          seg_refresh(&s, u);
      }
    }
  }
  seg_free(&s);
  opsched_free(key);
  opsched_free(to_free);
  opsched_free(missing);
  opsched_free(outdeg);
  opsched_free(ready);
  return OPSCHED_OK;
}

/* ---- XLA List -------------------------------------------------------- */

/* hlo_memory_scheduler.cc ListScheduler: take the ready op with the largest
 * (bytes freed - bytes defined, user count); equal priorities resolve to the
 * entry inserted last (std::multimap + --end()), which `seq` reproduces.
 * Priorities of ready users are recomputed when a buffer drops to one
 * unscheduled use. */
typedef struct xla_list_ctx {
  int64_t *p1, *p2, *seq;
  int32_t *node;
  int64_t count, cap;
} xla_list_ctx;

static int xla_list_less(const void *c, int32_t a, int32_t b) {
  const xla_list_ctx *x = c;
  if (x->p1[a] != x->p1[b])
    return x->p1[a] > x->p1[b];
  if (x->p2[a] != x->p2[b])
    return x->p2[a] > x->p2[b];
  return x->seq[a] > x->seq[b];
}

static int64_t xla_bytes_freed(const mem_model *m, const int32_t *count, int32_t v) {
  int64_t freed = 0;
  for (int64_t i = m->use_off[v]; i < m->use_off[v + 1]; i++)
    if (count[m->use_buf[i]] == 1)
      freed = opsched_sat_add(freed, m->size[m->use_buf[i]]);
  return opsched_sat_add(freed, -m->alloc_bytes[v]);
}

static opsched_status xla_push(xla_list_ctx *x, opsched_heap *h, int32_t v,
                               int64_t p1, int64_t p2, int32_t *entry_of) {
  if (x->count == x->cap) {
    int64_t cap = x->cap * 2;
    int64_t *a = opsched_realloc_array(x->p1, (size_t)cap, sizeof *a);
    if (!a)
      return OPSCHED_ERR_NOMEM;
    x->p1 = a;
    if (!(a = opsched_realloc_array(x->p2, (size_t)cap, sizeof *a)))
      return OPSCHED_ERR_NOMEM;
    x->p2 = a;
    if (!(a = opsched_realloc_array(x->seq, (size_t)cap, sizeof *a)))
      return OPSCHED_ERR_NOMEM;
    x->seq = a;
    int32_t *b = opsched_realloc_array(x->node, (size_t)cap, sizeof *b);
    if (!b)
      return OPSCHED_ERR_NOMEM;
    x->node = b;
    x->cap = cap;
  }
  int32_t e = (int32_t)x->count++;
  x->p1[e] = p1;
  x->p2[e] = p2;
  x->seq[e] = e;
  x->node[e] = v;
  entry_of[v] = e;
  return opsched_heap_push(h, e) ? OPSCHED_ERR_NOMEM : OPSCHED_OK;
}

opsched_status mem_order_xla_list(const mem_model *m, int32_t *order) {
  int32_t n = m->n;
  opsched_status st = OPSCHED_ERR_NOMEM;
  xla_list_ctx x = {0};
  opsched_heap h = {0};
  x.cap = (int64_t)n + 16;
  x.p1 = opsched_alloc_array((size_t)x.cap, sizeof *x.p1);
  x.p2 = opsched_alloc_array((size_t)x.cap, sizeof *x.p2);
  x.seq = opsched_alloc_array((size_t)x.cap, sizeof *x.seq);
  x.node = opsched_alloc_array((size_t)x.cap, sizeof *x.node);
  int32_t *count = opsched_alloc_array((size_t)m->nb, sizeof *count);
  int32_t *missing = opsched_alloc_array((size_t)n, sizeof *missing);
  int32_t *entry_of = opsched_alloc_array((size_t)n, sizeof *entry_of);
  if (!x.p1 || !x.p2 || !x.seq || !x.node || !count || !missing || !entry_of ||
      opsched_heap_init_owned(&h, n, xla_list_less, &x) != 0)
    goto done;
  /* Uses plus one implicit use at the end for live-out buffers. */
  for (int32_t k = 0; k < m->nb; k++)
    count[k] = (int32_t)(m->user_off[k + 1] - m->user_off[k]) + m->forever[k];
  for (int32_t v = 0; v < n; v++) {
    entry_of[v] = -1;
    missing[v] = (int32_t)(m->pred_off[v + 1] - m->pred_off[v]);
    if (!missing[v] &&
        xla_push(&x, &h, v, xla_bytes_freed(m, count, v),
                 m->succ_off[v + 1] - m->succ_off[v], entry_of) != OPSCHED_OK)
      goto done;
  }
  for (int32_t t = 0; t < n; t++) {
    int32_t e;
    do /* skip entries superseded by a re-prioritisation */
      e = opsched_heap_pop(&h);
    while (entry_of[x.node[e]] != e);
    int32_t v = x.node[e];
    order[t] = v;
    entry_of[v] = -2; /* scheduled */
    for (int64_t i = m->use_off[v]; i < m->use_off[v + 1]; i++)
      count[m->use_buf[i]]--;
    for (int64_t i = m->succ_off[v]; i < m->succ_off[v + 1]; i++) {
      int32_t w = m->succ[i];
      if (--missing[w] == 0 &&
          xla_push(&x, &h, w, xla_bytes_freed(m, count, w),
                   m->succ_off[w + 1] - m->succ_off[w], entry_of) != OPSCHED_OK)
        goto done;
    }
    for (int64_t i = m->use_off[v]; i < m->use_off[v + 1]; i++) {
      int32_t k = m->use_buf[i];
      if (count[k] != 1)
        continue;
      for (int64_t j = m->user_off[k]; j < m->user_off[k + 1]; j++) {
        int32_t u = m->user[j];
        int32_t old = entry_of[u];
        if (old < 0)
          continue; /* not ready, or scheduled */
        int64_t p1 = xla_bytes_freed(m, count, u);
        if (p1 == x.p1[old])
          continue; /* unchanged: keeps its place, as in XLA */
        if (xla_push(&x, &h, u, p1, x.p2[old], entry_of) != OPSCHED_OK)
          goto done;
      }
    }
  }
  st = OPSCHED_OK;
done:
  opsched_heap_free(&h);
  opsched_free(x.p1);
  opsched_free(x.p2);
  opsched_free(x.seq);
  opsched_free(x.node);
  opsched_free(count);
  opsched_free(missing);
  opsched_free(entry_of);
  return st;
}

/* ---- DFS post-orders ------------------------------------------------- */

typedef struct key_rec {
  int64_t k1, k2;
  int32_t id;
} key_rec;

static int cmp_key_rec(const void *pa, const void *pb) {
  const key_rec *a = pa, *b = pb;
  if (a->k1 != b->k1)
    return a->k1 < b->k1 ? -1 : 1;
  if (a->k2 != b->k2)
    return a->k2 < b->k2 ? -1 : 1;
  return (a->id > b->id) - (a->id < b->id);
}

/* Sorts `ids` (length len) ascending by (k1[id], k2[id], id). */
static opsched_status sort_by_keys(int32_t *ids, int64_t len, const int64_t *k1,
                                   const int64_t *k2, key_rec *scratch) {
  for (int64_t i = 0; i < len; i++) {
    scratch[i].k1 = k1 ? k1[ids[i]] : 0;
    scratch[i].k2 = k2 ? k2[ids[i]] : 0;
    scratch[i].id = ids[i];
  }
  if (len <= 16) /* the usual list: a few operands (the ids are distinct,
                    so the order is total and the same as qsort's) */
    for (int64_t i = 1; i < len; i++) {
      key_rec r = scratch[i];
      int64_t j = i;
      for (; j > 0 && cmp_key_rec(&scratch[j - 1], &r) > 0; j--)
        scratch[j] = scratch[j - 1];
      scratch[j] = r;
    }
  else
    qsort(scratch, (size_t)len, sizeof *scratch, cmp_key_rec);
  for (int64_t i = 0; i < len; i++)
    ids[i] = scratch[i].id;
  return OPSCHED_OK;
}

/* Post-order DFS from `roots` in the given order, visiting each node's
 * operands in the order of `pred` (a CSR over m->pred_off). Iterative, so a
 * 100k-op chain does not overflow the C stack. */
static opsched_status dfs_postorder(const mem_model *m, const int32_t *roots,
                                    int32_t nroots, const int32_t *pred,
                                    int32_t *order) {
  int32_t n = m->n, t = 0;
  /* One zeroed block: next, stack, seen. */
  size_t un = (size_t)n;
  int64_t *next = opsched_alloc_array(un, sizeof(int64_t) + sizeof(int32_t) + 1);
  if (!next)
    return OPSCHED_ERR_NOMEM;
  int32_t *stack = (int32_t *)(next + un);
  uint8_t *seen = (uint8_t *)(stack + un);
  for (int32_t r = 0; r < nroots; r++) {
    if (seen[roots[r]])
      continue;
    int32_t sp = 0;
    stack[sp++] = roots[r];
    seen[roots[r]] = 1;
    next[roots[r]] = m->pred_off[roots[r]];
    while (sp > 0) {
      int32_t v = stack[sp - 1];
      if (next[v] < m->pred_off[v + 1]) {
        int32_t p = pred[next[v]++];
        if (!seen[p]) {
          seen[p] = 1;
          next[p] = m->pred_off[p];
          stack[sp++] = p;
        }
      } else {
        order[t++] = v;
        sp--;
      }
    }
  }
  opsched_free(next); /* the block */
  return OPSCHED_OK;
}

/* Copies m's predecessor lists, each sorted by (k1, k2, id). */
static int32_t *sorted_preds(const mem_model *m, const int64_t *k1, const int64_t *k2) {
  int64_t ne = m->pred_off[m->n];
  int32_t *pred = opsched_alloc_array((size_t)ne, sizeof *pred);
  int64_t maxdeg = 0;
  for (int32_t v = 0; v < m->n; v++)
    if (m->pred_off[v + 1] - m->pred_off[v] > maxdeg)
      maxdeg = m->pred_off[v + 1] - m->pred_off[v];
  key_rec *scratch = opsched_alloc_array((size_t)maxdeg, sizeof *scratch);
  if (!pred || !scratch) {
    opsched_free(pred);
    opsched_free(scratch);
    return NULL;
  }
  memcpy(pred, m->pred, sizeof *pred * (size_t)ne);
  for (int32_t v = 0; v < m->n; v++)
    sort_by_keys(pred + m->pred_off[v], m->pred_off[v + 1] - m->pred_off[v], k1,
                 k2, scratch);
  opsched_free(scratch);
  return pred;
}

/* Sinks in ascending id order: XLA visits unreachable roots in instruction
 * order, then the root (the block's last op). */
static int32_t collect_sinks(const mem_model *m, int32_t *roots) {
  int32_t c = 0;
  for (int32_t v = 0; v < m->n; v++)
    if (m->succ_off[v + 1] == m->succ_off[v])
      roots[c++] = v;
  return c;
}

/* HloComputation::MakeInstructionPostOrder: DFS from each op without users,
 * operands in operand order (ascending id here). */
opsched_status mem_order_xla_postorder(const mem_model *m, int32_t *order) {
  int32_t *roots = opsched_alloc_array((size_t)m->n, sizeof *roots);
  if (!roots)
    return OPSCHED_ERR_NOMEM;
  opsched_status st = dfs_postorder(m, roots, collect_sinks(m, roots), m->pred, order);
  opsched_free(roots);
  return st;
}

/* DFSMemoryScheduler: stats in post-order (extra_users = users - 1 plus the
 * operands', total_sizes = own bytes plus the operands', both capped as in
 * XLA), then DFS visiting operands by descending extra_users, descending
 * total_sizes, then name (id). */
opsched_status mem_order_xla_dfs(const mem_model *m, int32_t *order) {
  int32_t n = m->n;
  opsched_status st = OPSCHED_ERR_NOMEM;
  int64_t *neg_users = opsched_alloc_array((size_t)n, sizeof *neg_users);
  int64_t *neg_sizes = opsched_alloc_array((size_t)n, sizeof *neg_sizes);
  int32_t *roots = opsched_alloc_array((size_t)n, sizeof *roots);
  int32_t *post = opsched_alloc_array((size_t)n, sizeof *post);
  int32_t *pred = NULL;
  if (!neg_users || !neg_sizes || !roots || !post)
    goto done;
  if ((st = mem_order_xla_postorder(m, post)) != OPSCHED_OK)
    goto done;
  int64_t cumulative = 0;
  for (int32_t i = 0; i < n; i++) {
    int32_t v = post[i];
    int64_t nusers = m->succ_off[v + 1] - m->succ_off[v];
    int64_t users = nusers ? nusers - 1 : 0, sizes = m->alloc_bytes[v];
    cumulative = opsched_sat_add(cumulative, sizes);
    for (int64_t j = m->pred_off[v]; j < m->pred_off[v + 1]; j++) {
      int32_t p = m->pred[j];
      users = opsched_sat_add(users, -neg_users[p]);
      sizes = opsched_sat_add(sizes, -neg_sizes[p]);
    }
    neg_users[v] = -(users < n ? users : n);
    neg_sizes[v] = -(sizes < cumulative ? sizes : cumulative);
  }
  st = OPSCHED_ERR_NOMEM;
  if (!(pred = sorted_preds(m, neg_users, neg_sizes)))
    goto done;
  st = dfs_postorder(m, roots, collect_sinks(m, roots), pred, order);
done:
  opsched_free(neg_users);
  opsched_free(neg_sizes);
  opsched_free(roots);
  opsched_free(post);
  opsched_free(pred);
  return st;
}

/* Inductor topological_sort_dfs: visit nodes by ascending size_with_reads
 * (bytes written plus bytes read), then index; each visit first recurses
 * into its predecessors in the same order. */
opsched_status mem_order_inductor_dfs(const mem_model *m, int32_t *order) {
  int32_t n = m->n;
  opsched_status st = OPSCHED_ERR_NOMEM;
  int64_t *swr = opsched_alloc_array((size_t)n, sizeof *swr);
  int32_t *roots = opsched_alloc_array((size_t)n, sizeof *roots);
  key_rec *scratch = opsched_alloc_array((size_t)n, sizeof *scratch);
  int32_t *pred = NULL;
  if (!swr || !roots || !scratch)
    goto done;
  for (int32_t v = 0; v < n; v++) {
    swr[v] = m->alloc_bytes[v];
    for (int64_t i = m->use_off[v]; i < m->use_off[v + 1]; i++)
      swr[v] = opsched_sat_add(swr[v], m->size[m->use_buf[i]]);
    roots[v] = v;
  }
  sort_by_keys(roots, n, swr, NULL, scratch);
  if (!(pred = sorted_preds(m, swr, NULL)))
    goto done;
  st = dfs_postorder(m, roots, n, pred, order);
done:
  opsched_free(swr);
  opsched_free(roots);
  opsched_free(scratch);
  opsched_free(pred);
  return st;
}

/* ---- Inductor BFS ---------------------------------------------------- */

/* topological_sort_bfs: the ready node whose sorted list of predecessor
 * execution positions is lexicographically smallest goes first (FIFO by
 * when its inputs were produced), ties by index. */
static int cmp_pos(const void *pa, const void *pb) {
  int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
  return (a > b) - (a < b);
}

typedef struct bfs_ctx {
  const mem_model *m;
  const int32_t *prio; /* per node, CSR over pred_off: sorted positions */
} bfs_ctx;

static int bfs_less(const void *c, int32_t a, int32_t b) {
  const bfs_ctx *x = c;
  const int64_t *off = x->m->pred_off;
  int64_t la = off[a + 1] - off[a], lb = off[b + 1] - off[b];
  const int32_t *pa = x->prio + off[a], *pb = x->prio + off[b];
  for (int64_t i = 0; i < la && i < lb; i++)
    if (pa[i] != pb[i])
      return pa[i] < pb[i];
  if (la != lb)
    return la < lb;
  return a < b;
}

opsched_status mem_order_inductor_bfs(const mem_model *m, int32_t *order) {
  int32_t n = m->n;
  opsched_status st = OPSCHED_ERR_NOMEM;
  opsched_heap h = {0};
  int32_t *prio = opsched_alloc_array((size_t)m->pred_off[n], sizeof *prio);
  int32_t *pos = opsched_alloc_array((size_t)n, sizeof *pos);
  int32_t *missing = opsched_alloc_array((size_t)n, sizeof *missing);
  bfs_ctx ctx = {m, prio};
  if (!prio || !pos || !missing || opsched_heap_init_owned(&h, n, bfs_less, &ctx) != 0)
    goto done;
  for (int32_t v = 0; v < n; v++) {
    missing[v] = (int32_t)(m->pred_off[v + 1] - m->pred_off[v]);
    if (!missing[v])
      (void)opsched_heap_push(&h, v); /* cannot grow: capacity n */
  }
  for (int32_t t = 0; t < n; t++) {
    int32_t v = opsched_heap_pop(&h);
    order[t] = v;
    pos[v] = t;
    for (int64_t i = m->succ_off[v]; i < m->succ_off[v + 1]; i++) {
      int32_t w = m->succ[i];
      if (--missing[w])
        continue;
      int64_t lo = m->pred_off[w], hi = m->pred_off[w + 1];
      for (int64_t j = lo; j < hi; j++)
        prio[j] = pos[m->pred[j]];
      qsort(prio + lo, (size_t)(hi - lo), sizeof *prio, cmp_pos);
      (void)opsched_heap_push(&h, w);
    }
  }
  st = OPSCHED_OK;
done:
  opsched_heap_free(&h);
  opsched_free(prio);
  opsched_free(pos);
  opsched_free(missing);
  return st;
}

/* ---- Sethi-Ullman DFS (ours) ----------------------------------------- */

/* need(v): bytes needed to compute v's input cone, as if it were a tree:
 * children evaluated one after the other in decreasing (need - residual)
 * order (optimal for trees: Sethi & Ullman 1970), then v itself. The DFS
 * visits operands in that order and sinks likewise. */
opsched_status mem_order_sethi_ullman(const mem_model *m, int32_t *order) {
  int32_t n = m->n;
  opsched_status st = OPSCHED_ERR_NOMEM;
  int64_t *need = opsched_alloc_array((size_t)n, sizeof *need);
  int64_t *res = opsched_alloc_array((size_t)n, sizeof *res);
  int64_t *neg_gain = opsched_alloc_array((size_t)n, sizeof *neg_gain);
  int32_t *topo = opsched_alloc_array((size_t)n, sizeof *topo);
  int32_t *roots = opsched_alloc_array((size_t)n, sizeof *roots);
  key_rec *scratch = opsched_alloc_array((size_t)n, sizeof *scratch);
  int32_t *pred = NULL;
  if (!need || !res || !neg_gain || !topo || !roots || !scratch)
    goto done;
  if ((st = mem_order_program(m, topo)) != OPSCHED_OK)
    goto done;
  st = OPSCHED_ERR_NOMEM;
  for (int32_t v = 0; v < n; v++)
    for (int64_t i = m->alloc_off[v]; i < m->alloc_off[v + 1]; i++) {
      int32_t k = m->alloc_buf[i];
      if (m->forever[k] || m->user_off[k + 1] > m->user_off[k])
        res[v] = opsched_sat_add(res[v], m->size[k]);
    }
  if (!(pred = opsched_alloc_array((size_t)m->pred_off[n], sizeof *pred)))
    goto done;
  memcpy(pred, m->pred, sizeof *pred * (size_t)m->pred_off[n]);
  for (int32_t i = 0; i < n; i++) {
    int32_t v = topo[i];
    int64_t lo = m->pred_off[v], hi = m->pred_off[v + 1];
    sort_by_keys(pred + lo, hi - lo, neg_gain, NULL, scratch);
    int64_t acc = 0, nv = 0;
    for (int64_t j = lo; j < hi; j++) {
      int64_t x = opsched_sat_add(acc, need[pred[j]]);
      if (x > nv)
        nv = x;
      acc = opsched_sat_add(acc, res[pred[j]]);
    }
    int64_t self = opsched_sat_add(acc, m->alloc_bytes[v]);
    need[v] = self > nv ? self : nv;
    neg_gain[v] = -(need[v] - res[v]);
  }
  int32_t nroots = collect_sinks(m, roots);
  sort_by_keys(roots, nroots, neg_gain, NULL, scratch);
  st = dfs_postorder(m, roots, nroots, pred, order);
done:
  opsched_free(need);
  opsched_free(res);
  opsched_free(neg_gain);
  opsched_free(topo);
  opsched_free(roots);
  opsched_free(scratch);
  opsched_free(pred);
  return st;
}
