/* The optimal peak of a block: best-first search over scheduled sets.
 *
 * A state is the set S of scheduled ops (a down-set of the DAG; Serenity's
 * zero-indegree sets are its frontier). Live bytes after S depend on S
 * only, so the best order is a bottleneck path from {} to all ops where a
 * step S -> S+v costs live(S) + alloc(v). States are memoised with the
 * lowest peak g reaching them and expanded in order of f = max(g, lower
 * bound of any completion); the first complete state popped is optimal.
 * Pruning: states with f >= the incumbent (the best heuristic) are dropped,
 * and a ready op that fits under g and frees at least what it keeps is
 * scheduled at once (moving it first never raises the peak), which
 * collapses chains and element-wise ops. A state budget bounds the work;
 * past it the incumbent (or a better order found) is returned unproven. */
#include "alloc.h"
#include "heap.h"
#include "memory_exact.h"
#include "saturate.h"

#include <string.h>

typedef struct exact_ctx {
  const mem_model *m;
  int32_t n, w; /* nodes, 64-bit words per set */
  uint64_t *predmask, *usermask; /* per node / per buffer, w words each */
  int64_t *kept, *transient;     /* per node: outputs kept / freed at once */
  int32_t *by_lb, *by_alloc;     /* nodes by static bound desc / alloc asc */
  int32_t *rd;                   /* an expansion's ops (expansions) */
  int64_t *rd_freed;             /* and the bytes each frees */
  int64_t *static_lb;
  /* States: `cap` is the budget, `alloc` what the arrays hold now. */
  int64_t cap, alloc, count;
  uint64_t *keys;
  int64_t *g, *live;
  int32_t *parent, *last, *depth;
  int32_t *table; /* open addressing, -1 empty */
  int64_t tmask;
  /* Heap entries. */
  int64_t *ef, *eg;
  int32_t *es;
  int64_t ecount, ecap;
} exact_ctx;

static int entry_less(const void *c, int32_t a, int32_t b) {
  const exact_ctx *x = c;
  if (x->ef[a] != x->ef[b])
    return x->ef[a] < x->ef[b];
  int32_t da = x->depth[x->es[a]], db = x->depth[x->es[b]];
  if (da != db)
    return da > db; /* deeper first: reaches a complete order sooner */
  if (x->eg[a] != x->eg[b])
    return x->eg[a] < x->eg[b];
  return a < b;
}

static uint64_t hash_set(const uint64_t *s, int32_t w) {
  uint64_t h = 0x9e3779b97f4a7c15u;
  for (int32_t i = 0; i < w; i++) {
    h ^= s[i] + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 31;
  }
  return h;
}

static int in_set(const uint64_t *s, int32_t v) { return (int)((s[v >> 6] >> (v & 63)) & 1); }

/* Lower bound on the peak of any completion from S (live bytes `live`). */
static int64_t bound(const exact_ctx *x, const uint64_t *s, int64_t live) {
  int64_t h = 0;
  for (int32_t i = 0; i < x->n; i++)
    if (!in_set(s, x->by_lb[i])) {
      h = x->static_lb[x->by_lb[i]];
      break;
    }
  for (int32_t i = 0; i < x->n; i++)
    if (!in_set(s, x->by_alloc[i])) {
      int64_t next = opsched_sat_add(live, x->m->alloc_bytes[x->by_alloc[i]]);
      if (next > h)
        h = next;
      break;
    }
  return h;
}

/* Finds S in the table; returns the state or -1, and the slot for insertion. */
static int32_t lookup(const exact_ctx *x, const uint64_t *s, int64_t *slot) {
  int64_t i = (int64_t)(hash_set(s, x->w) & (uint64_t)x->tmask);
  for (;; i = (i + 1) & x->tmask) {
    int32_t id = x->table[i];
    if (id < 0) {
      *slot = i;
      return -1;
    }
    if (memcmp(x->keys + (int64_t)id * x->w, s, sizeof *s * (size_t)x->w) == 0)
      return id;
  }
}

/* Doubles the state arrays and rehashes, up to the budget. */
static opsched_status grow_states(exact_ctx *x) {
  int64_t na = x->alloc * 2 < x->cap ? x->alloc * 2 : x->cap;
  size_t w = (size_t)x->w;
  uint64_t *k = opsched_realloc_array(x->keys, (size_t)na * w, sizeof *k);
  if (!k)
    return OPSCHED_ERR_NOMEM;
  x->keys = k;
  int64_t *a;
  if (!(a = opsched_realloc_array(x->g, (size_t)na, sizeof *a)))
    return OPSCHED_ERR_NOMEM;
  x->g = a;
  if (!(a = opsched_realloc_array(x->live, (size_t)na, sizeof *a)))
    return OPSCHED_ERR_NOMEM;
  x->live = a;
  int32_t *b;
  if (!(b = opsched_realloc_array(x->parent, (size_t)na, sizeof *b)))
    return OPSCHED_ERR_NOMEM;
  x->parent = b;
  if (!(b = opsched_realloc_array(x->last, (size_t)na, sizeof *b)))
    return OPSCHED_ERR_NOMEM;
  x->last = b;
  if (!(b = opsched_realloc_array(x->depth, (size_t)na, sizeof *b)))
    return OPSCHED_ERR_NOMEM;
  x->depth = b;
  int64_t tsize = 1;
  while (tsize < 2 * na)
    tsize *= 2;
  int32_t *t = opsched_alloc_array((size_t)tsize, sizeof *t);
  if (!t)
    return OPSCHED_ERR_NOMEM;
  opsched_free(x->table);
  x->table = t;
  x->tmask = tsize - 1;
  for (int64_t i = 0; i < tsize; i++)
    t[i] = -1;
  for (int64_t id = 0; id < x->count; id++) {
    int64_t slot;
    lookup(x, x->keys + (size_t)id * w, &slot);
    t[slot] = (int32_t)id;
  }
  x->alloc = na;
  return OPSCHED_OK;
}

static opsched_status push_entry(exact_ctx *x, opsched_heap *h, int64_t f, int32_t state) {
  if (x->ecount == x->ecap) {
    int64_t cap = x->ecap * 2;
    int64_t *a = opsched_realloc_array(x->ef, (size_t)cap, sizeof *a);
    if (!a)
      return OPSCHED_ERR_NOMEM;
    x->ef = a;
    if (!(a = opsched_realloc_array(x->eg, (size_t)cap, sizeof *a)))
      return OPSCHED_ERR_NOMEM;
    x->eg = a;
    int32_t *b = opsched_realloc_array(x->es, (size_t)cap, sizeof *b);
    if (!b)
      return OPSCHED_ERR_NOMEM;
    x->es = b;
    x->ecap = cap;
  }
  int32_t e = (int32_t)x->ecount++;
  x->ef[e] = f;
  x->eg[e] = x->g[state];
  x->es[e] = state;
  return opsched_heap_push(h, e) ? OPSCHED_ERR_NOMEM : OPSCHED_OK;
}

static void sort_nodes(int32_t *ids, const int64_t *key, int32_t n, int desc) {
  /* Insertion sort: exact runs on small blocks only, and this is once. */
  for (int32_t i = 1; i < n; i++) {
    int32_t v = ids[i], j = i;
    while (j > 0) {
      int32_t u = ids[j - 1];
      int before = desc ? key[v] > key[u] : key[v] < key[u];
      if (!before)
        break;
      ids[j] = u;
      j--;
    }
    ids[j] = v;
  }
}

static void ctx_free(exact_ctx *x) {
  opsched_free(x->predmask);
  opsched_free(x->usermask);
  opsched_free(x->kept);
  opsched_free(x->transient);
  opsched_free(x->by_lb);
  opsched_free(x->by_alloc);
  opsched_free(x->rd);
  opsched_free(x->rd_freed);
  opsched_free(x->static_lb);
  opsched_free(x->keys);
  opsched_free(x->g);
  opsched_free(x->live);
  opsched_free(x->parent);
  opsched_free(x->last);
  opsched_free(x->depth);
  opsched_free(x->table);
  opsched_free(x->ef);
  opsched_free(x->eg);
  opsched_free(x->es);
}

/* The context of one search: masks, bounds, node orders, and the first
 * state arrays (grown up to the state budget). */
static opsched_status ctx_init(exact_ctx *x, const mem_model *m, int64_t budget) {
  int32_t n = m->n;
  x->m = m;
  x->n = n;
  x->w = (n + 63) / 64;
  /* Cap the table at about 512 MiB whatever the budget says. */
  int64_t per_state = (int64_t)x->w * 8 + 8 * 2 + 4 * 3 + 4 * 2 + 20 * 2;
  int64_t cap = budget;
  if (cap > ((int64_t)512 << 20) / per_state)
    cap = ((int64_t)512 << 20) / per_state;
  if (cap > INT32_MAX / 4)
    cap = INT32_MAX / 4;
  if (cap < 1)
    cap = 1;
  x->cap = cap;
  /* Small to start (most blocks are small and their searches end within
   * a few states); the arrays and the table double as the search grows. */
  x->alloc = cap < 32 ? cap : 32;
  int64_t tsize = 1;
  while (tsize < 2 * x->alloc)
    tsize *= 2;
  x->tmask = tsize - 1;
  x->ecap = 64;
  size_t w = (size_t)x->w;
  x->predmask = opsched_alloc_array((size_t)n * w, sizeof *x->predmask);
  x->usermask = opsched_alloc_array((size_t)m->nb * w, sizeof *x->usermask);
  x->kept = opsched_alloc_array((size_t)n, sizeof *x->kept);
  x->transient = opsched_alloc_array((size_t)n, sizeof *x->transient);
  x->by_lb = opsched_alloc_array((size_t)n, sizeof *x->by_lb);
  x->by_alloc = opsched_alloc_array((size_t)n, sizeof *x->by_alloc);
  x->rd = opsched_alloc_array((size_t)n, sizeof *x->rd);
  x->rd_freed = opsched_alloc_array((size_t)n, sizeof *x->rd_freed);
  x->static_lb = opsched_alloc_array((size_t)n, sizeof *x->static_lb);
  x->keys = opsched_alloc_array((size_t)x->alloc * w, sizeof *x->keys);
  x->g = opsched_alloc_array((size_t)x->alloc, sizeof *x->g);
  x->live = opsched_alloc_array((size_t)x->alloc, sizeof *x->live);
  x->parent = opsched_alloc_array((size_t)x->alloc, sizeof *x->parent);
  x->last = opsched_alloc_array((size_t)x->alloc, sizeof *x->last);
  x->depth = opsched_alloc_array((size_t)x->alloc, sizeof *x->depth);
  x->table = opsched_alloc_array((size_t)tsize, sizeof *x->table);
  x->ef = opsched_alloc_array((size_t)x->ecap, sizeof *x->ef);
  x->eg = opsched_alloc_array((size_t)x->ecap, sizeof *x->eg);
  x->es = opsched_alloc_array((size_t)x->ecap, sizeof *x->es);
  if (!x->predmask || !x->usermask || !x->kept || !x->transient || !x->by_lb ||
      !x->by_alloc || !x->rd || !x->rd_freed || !x->static_lb || !x->keys || !x->g || !x->live || !x->parent ||
      !x->last || !x->depth || !x->table || !x->ef || !x->eg || !x->es)
    return OPSCHED_ERR_NOMEM;
  for (int64_t i = 0; i < tsize; i++)
    x->table[i] = -1;
  for (int32_t v = 0; v < n; v++) {
    for (int64_t i = m->pred_off[v]; i < m->pred_off[v + 1]; i++)
      x->predmask[(size_t)v * w + (size_t)(m->pred[i] >> 6)] |= 1ull << (m->pred[i] & 63);
    x->static_lb[v] = m->alloc_bytes[v];
    for (int64_t i = m->use_off[v]; i < m->use_off[v + 1]; i++)
      x->static_lb[v] = opsched_sat_add(x->static_lb[v], m->size[m->use_buf[i]]);
    for (int64_t i = m->alloc_off[v]; i < m->alloc_off[v + 1]; i++) {
      int32_t k = m->alloc_buf[i];
      if (!m->forever[k] && m->user_off[k + 1] == m->user_off[k])
        x->transient[v] = opsched_sat_add(x->transient[v], m->size[k]);
    }
    x->kept[v] = m->alloc_bytes[v] - x->transient[v];
    x->by_lb[v] = x->by_alloc[v] = v;
  }
  for (int32_t k = 0; k < m->nb; k++)
    for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++)
      x->usermask[(size_t)k * w + (size_t)(m->user[i] >> 6)] |= 1ull << (m->user[i] & 63);
  sort_nodes(x->by_lb, x->static_lb, n, 1);
  sort_nodes(x->by_alloc, m->alloc_bytes, n, 0);
  return OPSCHED_OK;
}

/* Bytes of the buffers v reads that no op outside `next` (S + v) reads:
 * freed when v runs. */
static int64_t freed_by(const exact_ctx *x, int32_t v, const uint64_t *next) {
  const mem_model *m = x->m;
  size_t w = (size_t)x->w;
  int64_t freed = 0;
  for (int64_t i = m->use_off[v]; i < m->use_off[v + 1]; i++) {
    int32_t k = m->use_buf[i];
    if (m->forever[k])
      continue;
    const uint64_t *um = x->usermask + (size_t)k * w;
    int last = 1;
    for (size_t j = 0; j < w && last; j++)
      last = (um[j] & ~next[j]) == 0;
    if (last)
      freed = opsched_sat_add(freed, m->size[k]);
  }
  return freed;
}

/* The ops to expand state s into (live bytes `live`, peak g), ascending, in
 * x->rd with the bytes each frees in x->rd_freed; returns their number:
 * every ready op (not in S, its predecessors in S), or the first that fits
 * under g and frees at least what it keeps alone (forced: moving it first
 * never raises the peak). One scan for both (the sets do not change while
 * s expands). cur: scratch of w words. */
static int32_t expansions(exact_ctx *x, int32_t s, int64_t live, int64_t g, uint64_t *cur) {
  size_t w = (size_t)x->w;
  const uint64_t *sk = x->keys + (size_t)s * w;
  int32_t count = 0;
  for (int32_t v = 0; v < x->n; v++) {
    if (in_set(sk, v))
      continue;
    const uint64_t *pm = x->predmask + (size_t)v * w;
    int ready = 1;
    for (size_t i = 0; i < w && ready; i++)
      ready = (pm[i] & ~sk[i]) == 0;
    if (!ready)
      continue;
    memcpy(cur, sk, sizeof *cur * w);
    cur[v >> 6] |= 1ull << (v & 63);
    int64_t freed = freed_by(x, v, cur);
    if (opsched_sat_add(live, x->m->alloc_bytes[v]) <= g && x->kept[v] <= freed) {
      x->rd[0] = v;
      x->rd_freed[0] = freed;
      return 1;
    }
    x->rd[count] = v;
    x->rd_freed[count++] = freed;
  }
  return count;
}

/* State 0: nothing scheduled (cur is the empty set); returns its bound. */
static int64_t add_root(exact_ctx *x, const uint64_t *cur) {
  int64_t slot;
  lookup(x, cur, &slot);
  x->count = 1;
  x->table[slot] = 0;
  x->g[0] = 0;
  x->live[0] = 0;
  x->parent[0] = -1;
  x->last[0] = -1;
  x->depth[0] = 0;
  return bound(x, cur, 0);
}

/* Fills stats, and `order` from the goal state's parents when one was
 * reached; `lower_bound` is the proven bound when none was. */
static void report(const exact_ctx *x, int32_t goal, int exhausted,
                   int64_t lower_bound, int32_t *order, mem_exact_stats *stats) {
  stats->states = x->count;
  stats->proven = !exhausted;
  if (goal < 0) {
    stats->lower_bound = lower_bound;
    return;
  }
  for (int32_t s = goal, t = x->n; s > 0; s = x->parent[s])
    order[--t] = x->last[s];
  stats->improved = 1;
  stats->peak = x->g[goal];
  stats->lower_bound = x->g[goal];
}

opsched_status mem_exact(const mem_model *m, int64_t budget, int64_t work_budget,
                         int32_t *order, int64_t incumbent_peak,
                         mem_exact_stats *stats) {
  int32_t n = m->n;
  memset(stats, 0, sizeof *stats);
  stats->peak = incumbent_peak;
  stats->lower_bound = 0;
  if (n == 0) {
    stats->proven = 1;
    return OPSCHED_OK;
  }
  if (n > MEM_EXACT_MAX_NODES) {
    /* The state bitsets alone would need n * n / 8 bytes: stop before
     * starting, with the incumbent and no proof. */
    stats->lower_bound = 0;
    return OPSCHED_OK;
  }
  exact_ctx x;
  memset(&x, 0, sizeof x);
  opsched_status st = ctx_init(&x, m, budget);
  size_t w = (size_t)x.w;
  opsched_heap heap = {0};
  uint64_t *cur = opsched_alloc_array(w, sizeof *cur);
  if (st != OPSCHED_OK || !cur ||
      opsched_heap_init_owned(&heap, 64, entry_less, &x) != 0) {
    st = OPSCHED_ERR_NOMEM;
    goto done;
  }

  int64_t ub = incumbent_peak, lb_at_stop = incumbent_peak;
  int exhausted = 0;
  int64_t slot;
  int64_t f0 = add_root(&x, cur);
  if (f0 < ub && (st = push_entry(&x, &heap, f0, 0)) != OPSCHED_OK)
    goto done;
  st = OPSCHED_ERR_NOMEM;
  int32_t goal = -1;
  int64_t work = 0; /* word operations so far, against work_budget */
  while (heap.size > 0) {
    int32_t e = opsched_heap_pop(&heap);
    int32_t s = x.es[e];
    if (x.eg[e] != x.g[s])
      continue; /* superseded by a lower peak */
    if (x.ef[e] >= ub)
      break; /* nothing open can beat the incumbent */
    if (x.depth[s] == n) {
      goal = s;
      break;
    }
    int64_t g = x.g[s], live = x.live[s];
    /* The budget counts an expansion as two scans of every op's predecessor
     * set (n * w words) and a bound per candidate (n): stop when that
     * passes it. (One scan since round 23; the count is kept so that the
     * budget, hence every order, stays as it was.) */
    work += 2 * (int64_t)n * (int64_t)(w + 1);
    if (work_budget > 0 && work > work_budget) {
      exhausted = 1;
      lb_at_stop = x.ef[e];
      break;
    }
    int32_t cands = expansions(&x, s, live, g, cur);
    for (int32_t c = 0; c < cands; c++) {
      int32_t v = x.rd[c];
      memcpy(cur, x.keys + (size_t)s * w, sizeof *cur * w);
      cur[v >> 6] |= 1ull << (v & 63);
      int64_t during = opsched_sat_add(live, m->alloc_bytes[v]);
      int64_t freed = x.rd_freed[c];
      int64_t nlive = during == INT64_MAX ? during
                                          : during - freed - x.transient[v];
      int64_t ng = during > g ? during : g;
      if (ng >= ub)
        continue;
      work += n;
      int64_t f = bound(&x, cur, nlive);
      if (f < ng)
        f = ng;
      if (f >= ub)
        continue;
      int32_t t = lookup(&x, cur, &slot);
      if (t >= 0) {
        if (x.g[t] <= ng)
          continue;
      } else {
        if (x.count == x.cap) {
          exhausted = 1;
          break;
        }
        if (x.count == x.alloc) {
          if (grow_states(&x) != OPSCHED_OK)
            goto done;
          lookup(&x, cur, &slot); /* the table moved */
        }
        t = (int32_t)x.count++;
        x.table[slot] = t;
        memcpy(x.keys + (size_t)t * w, cur, sizeof *cur * w);
        x.live[t] = nlive;
        x.depth[t] = x.depth[s] + 1;
      }
      x.g[t] = ng;
      x.parent[t] = s;
      x.last[t] = v;
      if (push_entry(&x, &heap, f, t) != OPSCHED_OK)
        goto done;
    }
    if (exhausted) {
      lb_at_stop = x.ef[e];
      break;
    }
  }
  if (exhausted && heap.size > 0) {
    int32_t top = heap.ids[0];
    if (x.ef[top] < lb_at_stop)
      lb_at_stop = x.ef[top];
  }
  report(&x, goal, exhausted, exhausted ? lb_at_stop : ub, order, stats);
  st = OPSCHED_OK;
done:
  opsched_heap_free(&heap);
  opsched_free(cur);
  ctx_free(&x);
  return st;
}
