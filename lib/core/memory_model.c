/* The memory model (the block as CSR arrays), the exact peak simulator of
 * an order, and live bytes in time: the bottom layer under every memory
 * policy and the schedulers. */
#include "memory_model.h"

#include "alloc.h"
#include "buffers_internal.h"
#include "saturate.h"
#include "sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Entries ahead that a scatter or gather over 1M random ids prefetches
 * (the next ids are known; the arrays miss the caches). */
#define PF_AHEAD 8
/* The entry of `arr` at the id list's entry i + PF_AHEAD, when there. */
#define PF_AT(arr, ids, i, end)                                                \
  do {                                                                         \
    if ((i) + PF_AHEAD < (end))                                                \
      __builtin_prefetch(&(arr)[(ids)[(i) + PF_AHEAD]]);                       \
  } while (0)

/* ---- Model ----------------------------------------------------------- */

void mem_csr_sort_dedupe(int64_t *off, int32_t *vals, int32_t rows) {
  int64_t w = 0;
  for (int32_t r = 0; r < rows; r++) {
    int64_t lo = off[r], hi = off[r + 1];
    opsched_sort_i32(vals + lo, hi - lo);
    off[r] = w;
    for (int64_t i = lo; i < hi; i++)
      if (i == lo || vals[i] != vals[i - 1])
        vals[w++] = vals[i];
  }
  off[rows] = w;
}

void mem_model_free(mem_model *m) {
  if (!m->dag_lent) {
    opsched_free(m->succ_off);
    opsched_free(m->pred_off);
    opsched_free(m->succ);
    opsched_free(m->pred);
  }
  opsched_free(m->alloc_off);
  opsched_free(m->use_off);
  opsched_free(m->alloc_buf);
  opsched_free(m->use_buf);
  opsched_free(m->size);
  opsched_free(m->owner);
  opsched_free(m->forever);
  opsched_free(m->user_off);
  opsched_free(m->user);
  opsched_free(m->alloc_bytes);
  opsched_free(m->rank);
  if (m->alloc_order) {
    opsched_free(m->alloc_order->pos);
    opsched_free(m->alloc_order->sorted);
    opsched_free(m->alloc_order);
  }
  memset(m, 0, sizeof *m);
}

/* Non-resident buffers renumbered 0..nb-1: size, owner, forever, and the
 * sorted distinct users (the owner's own use is implied, not a use). */
static opsched_status model_buffers(const opsched_buffers *b, mem_model *m,
                                    int64_t *fill) {
  int32_t *bmap = opsched_alloc_array_raw((size_t)b->count, sizeof *bmap);
  if (!bmap)
    return OPSCHED_ERR_NOMEM;
  int32_t nb = 0;
  for (int32_t i = 0; i < b->count; i++)
    bmap[i] = b->owner[i] >= 0 ? nb++ : -1;
  m->nb = nb;
  m->size = opsched_alloc_array_raw((size_t)nb, sizeof *m->size);
  m->owner = opsched_alloc_array_raw((size_t)nb, sizeof *m->owner);
  m->forever = opsched_alloc_array_raw((size_t)nb, sizeof *m->forever);
  m->user_off = opsched_alloc_array((size_t)nb + 1, sizeof *m->user_off);
  m->user = opsched_alloc_array_raw((size_t)b->nuses, sizeof *m->user);
  if (!m->size || !m->owner || !m->forever || !m->user_off || !m->user) {
    opsched_free(bmap);
    return OPSCHED_ERR_NOMEM;
  }
  for (int32_t i = 0; i < b->count; i++) {
    int32_t k = bmap[i];
    if (k < 0)
      continue;
    m->size_sum = b->bytes[i] < 0 ? INT64_MAX : opsched_sat_add(m->size_sum, b->bytes[i]);
    m->size[k] = b->bytes[i];
    m->owner[k] = b->owner[i];
    m->forever[k] = b->forever[i];
  }
  /* Each use's model buffer (-1: resident or the owner's own use), kept
   * from the counting pass: bmap and owner are looked up once per use. */
  int32_t *uk = opsched_alloc_array_raw((size_t)b->nuses + 1, sizeof *uk);
  if (!uk) {
    opsched_free(bmap);
    return OPSCHED_ERR_NOMEM;
  }
  for (int64_t u = 0; u < b->nuses; u++) {
    PF_AT(bmap, b->use_buf, u + PF_AHEAD, b->nuses);
    if (u + PF_AHEAD < b->nuses && bmap[b->use_buf[u + PF_AHEAD]] >= 0)
      __builtin_prefetch(&m->owner[bmap[b->use_buf[u + PF_AHEAD]]]);
    int32_t k = bmap[b->use_buf[u]];
    if (k >= 0 && b->use_node[u] == m->owner[k])
      k = -1;
    uk[u] = k;
    if (k >= 0)
      m->user_off[k + 1]++;
  }
  opsched_free(bmap);
  for (int32_t k = 0; k < nb; k++)
    m->user_off[k + 1] += m->user_off[k];
  memcpy(fill, m->user_off, sizeof *fill * (size_t)nb);
  for (int64_t u = 0; u < b->nuses; u++) {
    if (u + PF_AHEAD < b->nuses && uk[u + PF_AHEAD] >= 0)
      __builtin_prefetch(&fill[uk[u + PF_AHEAD]]);
    int32_t k = uk[u];
    if (k >= 0)
      m->user[fill[k]++] = b->use_node[u];
  }
  opsched_free(uk);
  mem_csr_sort_dedupe(m->user_off, m->user, nb);
  return OPSCHED_OK;
}

/* The dependency DAG: graph edges plus owner -> user, both directions.
 * *forward: every edge goes to a larger id (ids are then a topological
 * order, as the block's order usually is). */
static opsched_status model_dag(const opsched_graph *g, mem_model *m, int64_t *fill,
                                int *forward) {
  int32_t n = m->n, nb = m->nb;
  int64_t ne = m->user_off[nb];
  for (int32_t v = 0; v < n; v++) {
    int32_t c;
    opsched_graph_succs(g, v, &c);
    ne += c;
  }
  m->succ_off = opsched_alloc_array((size_t)n + 1, sizeof *m->succ_off);
  m->pred_off = opsched_alloc_array((size_t)n + 1, sizeof *m->pred_off);
  m->succ = opsched_alloc_array_raw((size_t)ne, sizeof *m->succ);
  m->pred = opsched_alloc_array_raw((size_t)ne, sizeof *m->pred);
  if (!m->succ_off || !m->pred_off || !m->succ || !m->pred)
    return OPSCHED_ERR_NOMEM;
  for (int32_t v = 0; v < n; v++) {
    int32_t c;
    opsched_graph_succs(g, v, &c);
    m->succ_off[v + 1] = c;
  }
  for (int32_t k = 0; k < nb; k++)
    m->succ_off[m->owner[k] + 1] += m->user_off[k + 1] - m->user_off[k];
  for (int32_t v = 0; v < n; v++)
    m->succ_off[v + 1] += m->succ_off[v];
  memcpy(fill, m->succ_off, sizeof *fill * (size_t)n);
  for (int32_t v = 0; v < n; v++) {
    int32_t c;
    const int32_t *s = opsched_graph_succs(g, v, &c);
    for (int32_t i = 0; i < c; i++)
      m->succ[fill[v]++] = s[i];
  }
  for (int32_t k = 0; k < nb; k++)
    for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++)
      m->succ[fill[m->owner[k]]++] = m->user[i];
  mem_csr_sort_dedupe(m->succ_off, m->succ, n);
  /* Predecessors, sorted because sources are visited in ascending order. */
  int fwd = 1;
  for (int32_t v = 0; v < n; v++) {
    if (m->succ_off[v] < m->succ_off[v + 1] && m->succ[m->succ_off[v]] <= v)
      fwd = 0; /* the row is ascending: its first is its least */
    for (int64_t i = m->succ_off[v]; i < m->succ_off[v + 1]; i++) {
      PF_AT(m->pred_off + 1, m->succ, i, m->succ_off[n]);
      m->pred_off[m->succ[i] + 1]++;
    }
  }
  *forward = fwd;
  for (int32_t v = 0; v < n; v++)
    m->pred_off[v + 1] += m->pred_off[v];
  memcpy(fill, m->pred_off, sizeof *fill * (size_t)n);
  for (int32_t v = 0; v < n; v++)
    for (int64_t i = m->succ_off[v]; i < m->succ_off[v + 1]; i++) {
      PF_AT(fill, m->succ, i, m->succ_off[n]);
      m->pred[fill[m->succ[i]]++] = v;
    }
  return OPSCHED_OK;
}

/* Kahn's order of the DAG into `queue`; OPSCHED_ERR_CYCLE when there is none. */
static opsched_status model_topo(const mem_model *m, int32_t *queue) {
  int32_t n = m->n;
  int32_t *indeg = opsched_alloc_array_raw((size_t)n, sizeof *indeg);
  if (!indeg)
    return OPSCHED_ERR_NOMEM;
  int32_t qh = 0, qt = 0;
  for (int32_t v = 0; v < n; v++) {
    indeg[v] = (int32_t)(m->pred_off[v + 1] - m->pred_off[v]);
    if (indeg[v] == 0)
      queue[qt++] = v;
  }
  while (qh < qt) {
    int32_t v = queue[qh++];
    for (int64_t i = m->succ_off[v]; i < m->succ_off[v + 1]; i++)
      if (--indeg[m->succ[i]] == 0)
        queue[qt++] = m->succ[i];
  }
  opsched_free(indeg);
  return qt == n ? OPSCHED_OK : OPSCHED_ERR_CYCLE;
}

/* Per node: allocated and used buffers (ascending ids), bytes allocated,
 * and upward ranks in the reverse of the topological `queue` (NULL: ids in
 * order are one; the ranks do not depend on which). */
static opsched_status model_nodes(const opsched_graph *g, mem_model *m,
                                  const int32_t *queue, int64_t *fill) {
  int32_t n = m->n, nb = m->nb;
  m->alloc_off = opsched_alloc_array((size_t)n + 1, sizeof *m->alloc_off);
  m->use_off = opsched_alloc_array((size_t)n + 1, sizeof *m->use_off);
  m->alloc_buf = opsched_alloc_array_raw((size_t)nb, sizeof *m->alloc_buf);
  m->use_buf = opsched_alloc_array_raw((size_t)m->user_off[nb], sizeof *m->use_buf);
  m->alloc_bytes = opsched_alloc_array((size_t)n, sizeof *m->alloc_bytes);
  m->rank = opsched_alloc_array_raw((size_t)n, sizeof *m->rank);
  if (!m->alloc_off || !m->use_off || !m->alloc_buf || !m->use_buf ||
      !m->alloc_bytes || !m->rank)
    return OPSCHED_ERR_NOMEM;
  for (int32_t k = 0; k < nb; k++) {
    m->alloc_off[m->owner[k] + 1]++;
    m->alloc_bytes[m->owner[k]] = opsched_sat_add(m->alloc_bytes[m->owner[k]], m->size[k]);
    for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++) {
      PF_AT(m->use_off + 1, m->user, i, m->user_off[nb]);
      m->use_off[m->user[i] + 1]++;
    }
  }
  for (int32_t v = 0; v < n; v++) {
    m->alloc_off[v + 1] += m->alloc_off[v];
    m->use_off[v + 1] += m->use_off[v];
  }
  memcpy(fill, m->alloc_off, sizeof *fill * (size_t)n);
  for (int32_t k = 0; k < nb; k++)
    m->alloc_buf[fill[m->owner[k]]++] = k;
  memcpy(fill, m->use_off, sizeof *fill * (size_t)n);
  for (int32_t k = 0; k < nb; k++)
    for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++) {
      PF_AT(fill, m->user, i, m->user_off[nb]);
      m->use_buf[fill[m->user[i]]++] = k;
    }
  /* Upward ranks as opsched_graph_upward_ranks computes them, but over the
   * DAG with the buffers' data edges, which the graph may lack. */
  for (int32_t i = n - 1; i >= 0; i--) {
    if (!queue && i >= PF_AHEAD) /* the ranks a later node reads: random */
      for (int64_t j = m->succ_off[i - PF_AHEAD]; j < m->succ_off[i - PF_AHEAD + 1]; j++)
        __builtin_prefetch(&m->rank[m->succ[j]]);
    int32_t v = queue ? queue[i] : i;
    int64_t best = 0;
    for (int64_t j = m->succ_off[v]; j < m->succ_off[v + 1]; j++)
      if (m->rank[m->succ[j]] > best)
        best = m->rank[m->succ[j]];
    m->rank[v] = opsched_sat_add(opsched_graph_cost(g, v), best);
  }
  return OPSCHED_OK;
}

static int64_t trivial_lower_bound(const mem_model *m);

opsched_status mem_model_build(const opsched_graph *g, const opsched_buffers *b,
                               mem_model *m) {
  memset(m, 0, sizeof *m);
  int32_t n = b->n;
  m->n = n;
  m->resident = b->resident;
  /* Not zero-filled, nor are the arrays below written in full before they
   * are read (fill is a copy of offsets each time, queue Kahn's order). */
  int64_t *fill = opsched_alloc_array_raw((size_t)(b->count > n ? b->count : n) + 1,
                                          sizeof *fill);
  int32_t *queue = NULL;
  int forward = 0;
  opsched_status st = fill ? OPSCHED_OK : OPSCHED_ERR_NOMEM;
  if (st == OPSCHED_OK)
    st = model_buffers(b, m, fill);
  if (st == OPSCHED_OK)
    st = model_dag(g, m, fill, &forward);
  /* Kahn's order only when the ids are not topological already. */
  if (st == OPSCHED_OK && !forward)
    st = (queue = opsched_alloc_array_raw((size_t)n + 1, sizeof *queue)) ? model_topo(m, queue)
                                                                         : OPSCHED_ERR_NOMEM;
  if (st == OPSCHED_OK)
    st = model_nodes(g, m, queue, fill);
  if (st == OPSCHED_OK &&
      !(m->alloc_order = opsched_alloc_array(1, sizeof *m->alloc_order)))
    st = OPSCHED_ERR_NOMEM;
  if (st == OPSCHED_OK)
    m->trivial_lb = trivial_lower_bound(m);
  opsched_free(fill);
  opsched_free(queue);
  if (st != OPSCHED_OK)
    mem_model_free(m);
  return st;
}

/* ---- Allocation order ------------------------------------------------ */

typedef struct alloc_rec {
  int64_t bytes;
  int32_t id;
} alloc_rec;

static int cmp_alloc_rec(const void *pa, const void *pb) {
  const alloc_rec *a = pa, *b = pb;
  if (a->bytes != b->bytes)
    return a->bytes < b->bytes ? -1 : 1;
  return (a->id > b->id) - (a->id < b->id);
}

/* Sorts the nodes by (alloc_bytes, id) into pos/sorted. The ids are
 * distinct, so the order is total and any sort gives it: on a large block
 * whose bytes leave room, (bytes, id) packs into one 64-bit key and a
 * radix sort replaces qsort. Returns 0 when out of memory. */
static int sort_by_alloc(const mem_model *m, int32_t *pos, int64_t *sorted) {
  int32_t n = m->n;
  int idbits = 0;
  while (idbits < 31 && ((int64_t)1 << idbits) < n)
    idbits++;
  int64_t maxb = 0, minb = 0;
  for (int32_t v = 0; v < n; v++) {
    if (m->alloc_bytes[v] > maxb)
      maxb = m->alloc_bytes[v];
    if (m->alloc_bytes[v] < minb)
      minb = m->alloc_bytes[v];
  }
  if (n >= 4096 && minb >= 0 && maxb < (int64_t)1 << (63 - idbits)) {
    /* Not zero-filled: the sort writes tmp before reading it. */
    uint64_t *keys = opsched_realloc_array(NULL, 2 * (size_t)n, sizeof *keys);
    if (!keys)
      return 0;
    for (int32_t v = 0; v < n; v++)
      keys[v] = (uint64_t)m->alloc_bytes[v] << idbits | (uint64_t)v;
    mem_radix_sort_u64(keys, keys + n, (size_t)n);
    uint64_t idmask = ((uint64_t)1 << idbits) - 1;
    for (int32_t i = 0; i < n; i++) {
      int32_t v = (int32_t)(keys[i] & idmask);
      pos[v] = i;
      sorted[i] = m->alloc_bytes[v];
    }
    opsched_free(keys);
    return 1;
  }
  alloc_rec *rec = opsched_realloc_array(NULL, (size_t)n + 1, sizeof *rec);
  if (!rec)
    return 0;
  for (int32_t v = 0; v < n; v++) {
    rec[v].bytes = m->alloc_bytes[v];
    rec[v].id = v;
  }
  qsort(rec, (size_t)n, sizeof *rec, cmp_alloc_rec);
  for (int32_t i = 0; i < n; i++) {
    pos[rec[i].id] = i;
    sorted[i] = rec[i].bytes;
  }
  opsched_free(rec);
  return 1;
}

const mem_alloc_order *mem_alloc_order_of(const mem_model *m) {
  mem_alloc_order *o = m->alloc_order;
  if (!o)
    return NULL;
  if (o->pos)
    return o;
  /* Not zero-filled: sort_by_alloc writes every entry. */
  int32_t *pos = opsched_realloc_array(NULL, (size_t)m->n + 1, sizeof *pos);
  int64_t *sorted = opsched_realloc_array(NULL, (size_t)m->n + 1, sizeof *sorted);
  if (!pos || !sorted || !sort_by_alloc(m, pos, sorted)) {
    opsched_free(pos);
    opsched_free(sorted);
    return NULL;
  }
  o->pos = pos;
  o->sorted = sorted;
  return o;
}

/* ---- Exact simulation ------------------------------------------------ */

/* pos[v] = v's step in `order`; 0 when `order` is not a topological
 * order of the model's n nodes (out of range, repeated, or a predecessor
 * after its user). */
static int order_positions(const mem_model *m, const int32_t *order, int32_t *pos) {
  int32_t n = m->n;
  for (int32_t v = 0; v < n; v++)
    pos[v] = -1;
  for (int32_t t = 0; t < n; t++) {
    int32_t v = order[t];
    if (v < 0 || v >= n || pos[v] >= 0)
      return 0;
    pos[v] = t;
  }
  for (int32_t v = 0; v < n; v++)
    for (int64_t i = m->pred_off[v]; i < m->pred_off[v + 1]; i++)
      if (pos[m->pred[i]] >= pos[v])
        return 0;
  return 1;
}

/* The step after which buffer k is freed: its last user's, or n for a
 * buffer never freed inside the block. */
static int32_t hold_end(const mem_model *m, const int32_t *pos, int32_t k) {
  if (m->forever[k])
    return m->n;
  int32_t end = pos[m->owner[k]];
  for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++)
    if (pos[m->user[i]] > end)
      end = pos[m->user[i]];
  return end;
}

/* mem_simulate when the sizes' sum fits (m->size_sum < INT64_MAX): live
 * bytes in int64_t, exact, the same figures. */
static int64_t simulate_i64(const mem_model *m, const int32_t *order, int64_t *during,
                            int64_t *after) {
  int32_t n = m->n;
  /* One block: the per-step sums (zeroed), then pos (set below). */
  int64_t *at = opsched_alloc_array_raw(2 * ((size_t)n + 1) + ((size_t)n + 2) / 2, sizeof *at);
  int32_t *pos = at ? (int32_t *)(at + 2 * ((size_t)n + 1)) : NULL;
  int64_t peak = -2;
  if (!at)
    goto done;
  memset(at, 0, sizeof *at * 2 * ((size_t)n + 1));
  int64_t *alloc_at = at, *free_at = at + n + 1;
  peak = -1;
  if (!order_positions(m, order, pos))
    goto done;
  for (int32_t k = 0; k < m->nb; k++) {
    int32_t start = pos[m->owner[k]], end = hold_end(m, pos, k);
    alloc_at[start] += m->size[k];
    free_at[end] += m->size[k];
  }
  int64_t live = 0, best = 0;
  for (int32_t t = 0; t < n; t++) {
    live += alloc_at[t];
    if (live > best)
      best = live;
    if (during)
      during[order[t]] = live;
    live -= free_at[t];
    if (after)
      after[order[t]] = live;
  }
  peak = best;
done:
  opsched_free(at); /* the block */
  return peak;
}

int64_t mem_simulate(const mem_model *m, const int32_t *order, int64_t *during,
                     int64_t *after) {
  int32_t n = m->n;
  if (m->size_sum < INT64_MAX)
    return simulate_i64(m, order, during, after);
  int64_t peak = -2;
  int32_t *pos = opsched_alloc_array((size_t)n, sizeof *pos);
  acc128 *alloc_at = opsched_alloc_array((size_t)n + 1, sizeof *alloc_at);
  acc128 *free_at = opsched_alloc_array((size_t)n + 1, sizeof *free_at);
  if (!pos || !alloc_at || !free_at)
    goto done;
  peak = -1;
  if (!order_positions(m, order, pos))
    goto done;
  for (int32_t k = 0; k < m->nb; k++) {
    int32_t start = pos[m->owner[k]], end = hold_end(m, pos, k);
    acc_add(&alloc_at[start], m->size[k]);
    acc_add(&free_at[end], m->size[k]);
  }
  acc128 live = {0, 0}, best = {0, 0};
  for (int32_t t = 0; t < n; t++) {
    acc_addacc(&live, &alloc_at[t]);
    if (live.hi > best.hi || (live.hi == best.hi && live.lo > best.lo))
      best = live;
    if (during)
      during[order[t]] = acc_i64(&live);
    acc_sub(&live, &free_at[t]);
    if (after)
      after[order[t]] = acc_i64(&live);
  }
  peak = acc_i64(&best);
done:
  opsched_free(pos);
  opsched_free(alloc_at);
  opsched_free(free_at);
  return peak;
}

/* ---- Memory in time ------------------------------------------------- */

/* An instant is (t, phase). An op [s, e) with e > s holds [(s,1), (e,0)); a
 * zero-duration op at t holds [(t,0), (t,1)): it runs after the frees of the
 * ops ending at t and before the ops starting at t, together with every
 * other zero-duration op at t. A buffer is live from the start of its
 * owner's hold to the latest end of its holders' holds (owner and users);
 * results are never freed. Events at one instant: frees, then the queries
 * for live_after, then allocations. */
typedef struct time_event {
  int64_t t;
  int32_t phase; /* 0 or 1 */
  int32_t kind;  /* 0 free, 1 query, 2 alloc */
  int32_t id;    /* buffer (free, alloc) or node (query) */
} time_event;

static int cmp_time_event(const void *pa, const void *pb) {
  const time_event *a = pa, *b = pb;
  if (a->t != b->t)
    return a->t < b->t ? -1 : 1;
  if (a->phase != b->phase)
    return a->phase < b->phase ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  return (a->id > b->id) - (a->id < b->id);
}

/* Sorts `keys` ascending (LSD radix on bytes, skipping the bytes that all
 * keys share: only the others are counted); `tmp` has room for n keys. The
 * result is in `keys`. */
/* mem_radix_sort_u64 by the bytes from `first` up only (stable: keys equal
 * there keep their order). */
static void radix_sort_from(uint64_t *keys, uint64_t *tmp, size_t n, int first);

void mem_radix_sort_u64(uint64_t *keys, uint64_t *tmp, size_t n) {
  radix_sort_from(keys, tmp, n, 0);
}

/* One LSD pass by byte d from src to dst, c the byte's counts (turned
 * into starts). */
static void radix_pass(const uint64_t *src, uint64_t *dst, size_t n, int d, uint32_t *c) {
  uint32_t sum = 0;
  for (int b = 0; b < 256; b++) {
    uint32_t k = c[b];
    c[b] = sum;
    sum += k;
  }
  for (size_t i = 0; i < n; i++)
    dst[c[(src[i] >> (8 * d)) & 0xff]++] = src[i];
}

/* The LSD passes of radix_sort_from once every byte from `first` up is
 * counted (count[d][b]: keys whose byte d is b; n <= UINT32_MAX). */
static void radix_passes(uint64_t *keys, uint64_t *tmp, size_t n, int first,
                         uint32_t (*count)[256]) {
  uint64_t *src = keys, *dst = tmp;
  for (int d = first; d < 8; d++) {
    if (count[d][(keys[0] >> (8 * d)) & 0xff] == n)
      continue;
    radix_pass(src, dst, n, d, count[d]);
    uint64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != keys)
    memcpy(keys, src, sizeof *keys * n);
}

/* Few keys: an insertion sort by the bytes from `first` up (stable, the
 * radix sort's order) skips the radix sort's fixed cost, 8 KiB of counts
 * cleared and a 256-entry prefix sum per byte, which dominates on the many
 * small blocks of loop bodies and branches (round 24). */
enum { RADIX_SMALL = 32 };

static void insertion_sort_from(uint64_t *keys, size_t n, int first) {
  int shift = 8 * first;
  for (size_t i = 1; i < n; i++) {
    uint64_t k = keys[i], kk = k >> shift;
    size_t j = i;
    for (; j > 0 && (keys[j - 1] >> shift) > kk; j--)
      keys[j] = keys[j - 1];
    keys[j] = k;
  }
}

static void radix_sort_from(uint64_t *keys, uint64_t *tmp, size_t n, int first) {
  if (n == 0)
    return;
  if (n <= RADIX_SMALL) {
    insertion_sort_from(keys, n, first);
    return;
  }
  if (n > UINT32_MAX) { /* the counts below are 32-bit: sort by halves, merge */
    size_t h = n / 2;
    radix_sort_from(keys, tmp, h, first);
    radix_sort_from(keys + h, tmp, n - h, first);
    uint64_t mask = first ? ~(uint64_t)0 << (8 * first) : ~(uint64_t)0;
    size_t i = 0, j = h, o = 0;
    while (i < h || j < n) /* stable: the first half wins ties */
      tmp[o++] = j >= n || (i < h && (keys[i] & mask) <= (keys[j] & mask)) ? keys[i++]
                                                                             : keys[j++];
    memcpy(keys, tmp, sizeof *keys * n);
    return;
  }
  /* Every byte from `first` up counted in one pass; a byte whose count
   * is n in one bucket is the same in every key and is skipped. Rows
   * cleared one at a time (1 KiB each). */
  uint32_t count[8][256];
  for (int d = first; d < 8; d++)
    memset(count[d], 0, sizeof count[d]);
  if (first == 4) /* mem_peak_in_time's keys: the upper half */
    for (size_t i = 0; i < n; i++) {
      uint64_t k = keys[i];
      count[4][(k >> 32) & 0xff]++;
      count[5][(k >> 40) & 0xff]++;
      count[6][(k >> 48) & 0xff]++;
      count[7][k >> 56]++;
    }
  else
    for (size_t i = 0; i < n; i++) {
      uint64_t k = keys[i];
      for (int d = first; d < 8; d++)
        count[d][(k >> (8 * d)) & 0xff]++;
    }
  radix_passes(keys, tmp, n, first, count);
}

/* Sorts events in cmp_time_event's order; ids are below `id_limit`. When
 * the times leave room, (t, phase, kind, id) packs into one 64-bit key in
 * that order and a radix sort replaces qsort (the order is total: the
 * result is the same). Returns 0 when out of memory. */
static int sort_time_events(time_event *ev, size_t ne, int32_t id_limit) {
  int idbits = 0;
  while (idbits < 31 && ((int64_t)1 << idbits) < id_limit)
    idbits++;
  int shift = idbits + 3;
  int64_t tmax = 0;
  for (size_t i = 0; i < ne; i++)
    if (ev[i].t > tmax)
      tmax = ev[i].t;
  if (tmax >= (int64_t)1 << (63 - shift)) {
    qsort(ev, ne, sizeof *ev, cmp_time_event);
    return 1;
  }
  /* Not zero-filled: the sort writes every key of tmp before reading it. */
  uint64_t *keys = opsched_realloc_array(NULL, 2 * ne, sizeof *keys);
  if (!keys)
    return 0;
  for (size_t i = 0; i < ne; i++)
    keys[i] = (uint64_t)ev[i].t << shift | (uint64_t)ev[i].phase << (idbits + 2) |
              (uint64_t)ev[i].kind << idbits | (uint64_t)ev[i].id;
  mem_radix_sort_u64(keys, keys + ne, ne);
  uint64_t idmask = ((uint64_t)1 << idbits) - 1;
  for (size_t i = 0; i < ne; i++) {
    uint64_t k = keys[i];
    ev[i].t = (int64_t)(k >> shift);
    ev[i].phase = (int32_t)((k >> (idbits + 2)) & 1);
    ev[i].kind = (int32_t)((k >> idbits) & 3);
    ev[i].id = (int32_t)(k & idmask);
  }
  opsched_free(keys);
  return 1;
}

/* Hold bounds of node v as (t, phase) pairs. */
static void hold_lo(const int64_t *start, const int64_t *end, int32_t v,
                    int64_t *t, int32_t *phase) {
  *t = start[v];
  *phase = end[v] > start[v];
}

static void hold_hi(const int64_t *start, const int64_t *end, int32_t v,
                    int64_t *t, int32_t *phase) {
  if (end[v] > start[v]) {
    *t = end[v];
    *phase = 0;
  } else {
    *t = start[v];
    *phase = 1;
  }
}

/* Where time_events stores the events: packed keys (id in the low idbits
 * bits, kind, phase and time above) when keys is set, else structs. */
typedef struct event_sink {
  uint64_t *keys;
  int idbits;
  time_event *ev;
} event_sink;

static inline void put_event(const event_sink *s, size_t i, int64_t t, int32_t phase,
                             int32_t kind, int32_t id) {
  if (s->keys) {
    s->keys[i] = (uint64_t)t << (s->idbits + 3) | (uint64_t)phase << (s->idbits + 2) |
                 (uint64_t)kind << s->idbits | (uint64_t)id;
  } else {
    time_event e = {t, phase, kind, id};
    s->ev[i] = e;
  }
}

/* The events of mem_peak_in_time: per buffer its allocation (owner's hold
 * start) and, unless live until the end, its free (the latest hold end of
 * owner and users); per node a query at its hold end when `queries`.
 * Returns the count. */
static size_t time_events(const mem_model *m, const int64_t *start, const int64_t *end,
                          int queries, const event_sink *out) {
  size_t ne = 0;
  for (int32_t k = 0; k < m->nb; k++) {
    int32_t o = m->owner[k];
    int64_t t;
    int32_t ph;
    hold_lo(start, end, o, &t, &ph);
    put_event(out, ne++, t, ph, 2, k);
    if (m->forever[k])
      continue;
    hold_hi(start, end, o, &t, &ph);
    for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++) {
      int64_t tu;
      int32_t pu;
      hold_hi(start, end, m->user[i], &tu, &pu);
      if (tu > t || (tu == t && pu > ph)) {
        t = tu;
        ph = pu;
      }
    }
    put_event(out, ne++, t, ph, 0, k);
  }
  for (int32_t v = 0; queries && v < m->n; v++) {
    int64_t t;
    int32_t ph;
    hold_hi(start, end, v, &t, &ph);
    put_event(out, ne++, t, ph, 1, v);
  }
  return ne;
}

/* The sweep over events sorted by (t, phase, kind): frees, queries
 * (live_after), allocations; the live bytes after the last event of an
 * instant count for the peak. From the keys (id in the low idbits bits,
 * kind above) or, when keys is NULL, from ev. */
static int64_t sweep_peak(const mem_model *m, size_t ne, const uint64_t *keys, int idbits,
                          const time_event *ev, int64_t *after) {
  acc128 live = {0, 0}, best = {0, 0};
  uint64_t idmask = ((uint64_t)1 << idbits) - 1;
  for (size_t i = 0; i < ne; i++) {
    int32_t kind = keys ? (int32_t)((keys[i] >> idbits) & 3) : ev[i].kind;
    int32_t id = keys ? (int32_t)(keys[i] & idmask) : ev[i].id;
    if (kind == 0)
      acc_sub_i64(&live, m->size[id]);
    else if (kind == 1)
      after[id] = acc_i64(&live);
    else
      acc_add(&live, m->size[id]);
    /* The live count holds from this instant to the next one. */
    int last = i + 1 == ne ||
               (keys ? keys[i + 1] >> (idbits + 2) != keys[i] >> (idbits + 2)
                     : ev[i + 1].t != ev[i].t || ev[i + 1].phase != ev[i].phase);
    if (last && acc_less(&best, &live))
      best = live;
  }
  return acc_i64(&best);
}

/* Counts bytes 4..7 of key k (its upper half u) into count. */
static inline void count_upper(uint32_t (*count)[256], uint32_t u) {
  count[4][u & 0xff]++;
  count[5][(u >> 8) & 0xff]++;
  count[6][(u >> 16) & 0xff]++;
  count[7][u >> 24]++;
}

/* mem_peak_in_time when every time is below 2^28 (and the events fit 32-bit
 * counts): the keys of the split case (the id in the low 32 bits, above it
 * (t, phase, kind) as ((t << 1 | phase) << 2 | kind)), made in
 * time_events' order with the radix counts taken as they are made, and
 * each node's hold end (t << 1 | phase) computed once. Sorted by the
 * upper half only, stably: the same keys in the same order as
 * radix_sort_from(keys, tmp, ne, 4). */
static int64_t peak_split(const mem_model *m, const int64_t *start, const int64_t *end,
                          int64_t *after) {
  int32_t n = m->n;
  size_t cap = 2 * (size_t)m->nb + (size_t)n;
  /* Not zero-filled: hi is written before it is read, the keys and the
   * sort's tmp likewise. */
  uint64_t *keys = opsched_realloc_array(NULL, 2 * cap + (size_t)n + 1, sizeof *keys);
  if (!keys)
    return -2;
  uint32_t *hi = (uint32_t *)(keys + 2 * cap);
  for (int32_t v = 0; v < n; v++)
    hi[v] = end[v] > start[v] ? (uint32_t)end[v] << 1 : (uint32_t)start[v] << 1 | 1;
  uint32_t count[8][256];
  memset(count[4], 0, sizeof count[4] * 4);
  size_t ne = 0;
  for (int32_t k = 0; k < m->nb; k++) {
    int32_t o = m->owner[k];
    uint32_t u = ((uint32_t)start[o] << 1 | (end[o] > start[o])) << 2 | 2;
    keys[ne++] = (uint64_t)u << 32 | (uint32_t)k;
    count_upper(count, u);
    if (m->forever[k])
      continue;
    uint32_t h = hi[o];
    for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++)
      if (hi[m->user[i]] > h)
        h = hi[m->user[i]];
    u = h << 2;
    keys[ne++] = (uint64_t)u << 32 | (uint32_t)k;
    count_upper(count, u);
  }
  for (int32_t v = 0; after && v < n; v++) {
    uint32_t u = hi[v] << 2 | 1;
    keys[ne++] = (uint64_t)u << 32 | (uint32_t)v;
    count_upper(count, u);
  }
  if (ne > 0)
    radix_passes(keys, keys + ne, ne, 4, count);
  int64_t peak = sweep_peak(m, ne, keys, 32, NULL, after);
  opsched_free(keys);
  return peak;
}

/* Sorts the n keys (value << 32 | index, values at most maxv < 2^32) by
 * value: one counting pass on the value's top 8 bits into tmp, then
 * insertion sort within each bucket, the result in keys. When a bucket
 * would hold more than 64 keys (values bunched), an LSD radix sort of the
 * values instead. The order among equal values is unspecified. */
static void sort_bounds(uint64_t *keys, uint64_t *tmp, size_t n, uint32_t maxv) {
  if (n == 0)
    return;
  int shift = 0;
  while (shift < 24 && (maxv >> shift) > 255)
    shift++;
  uint32_t c[257];
  memset(c, 0, sizeof c);
  for (size_t i = 0; i < n; i++)
    c[(keys[i] >> 32 >> shift) + 1]++;
  uint32_t most = 0;
  for (int b = 1; b <= 256; b++) {
    most = c[b] > most ? c[b] : most;
    c[b] += c[b - 1];
  }
  if (most > 64) {
    uint32_t count[8][256];
    memset(count[4], 0, sizeof count[4] * 4);
    for (size_t i = 0; i < n; i++)
      count_upper(count, (uint32_t)(keys[i] >> 32));
    radix_passes(keys, tmp, n, 4, count);
    return;
  }
  for (size_t i = 0; i < n; i++)
    tmp[c[keys[i] >> 32 >> shift]++] = keys[i];
  /* c[b] is now bucket b's end; insertion sort of each bucket by value. */
  for (int b = 0; b < 256; b++) {
    size_t lo = b ? c[b - 1] : 0, hi = c[b];
    for (size_t i = lo + 1; i < hi; i++) {
      uint64_t k = tmp[i];
      size_t j = i;
      for (; j > lo && tmp[j - 1] >> 32 > k >> 32; j--)
        tmp[j] = tmp[j - 1];
      tmp[j] = k;
    }
  }
  memcpy(keys, tmp, sizeof *keys * n);
}

/* mem_peak_in_time when every time is below 2^28 and the sizes' sum fits
 * int64_t: no event is sorted. The instants (t, phase) that matter are the
 * nodes' hold bounds; those 2n values (t << 1 | phase) are ranked (radix
 * on the value, the bound's index below it), the bytes allocated and freed
 * summed per rank (a free at the largest rank of its holders' ends), and
 * one scan over the ranks gives the live bytes after each instant (frees,
 * then queries, then allocations, as in the sweep). An instant without
 * events leaves the live bytes as they were: the peak is the sweep's. */
static int64_t peak_instants(const mem_model *m, const int64_t *start,
                             const int64_t *end, int64_t tmax, int64_t *after) {
  int32_t n = m->n;
  size_t n2 = 2 * (size_t)n;
  /* keys and tmp, then per bound its rank, and the sums per rank: not
   * zero-filled (the sums of the ranks in use are cleared once known). */
  uint64_t *keys = opsched_realloc_array(NULL, 2 * n2 + n2 / 2 + 1, sizeof *keys);
  int64_t *sum = opsched_realloc_array(NULL, 2 * n2 + 1, sizeof *sum);
  if (!keys || !sum) {
    opsched_free(keys);
    opsched_free(sum);
    return -2;
  }
  int32_t *rank = (int32_t *)(keys + 2 * n2);
  int64_t *alloc_at = sum, *free_at = sum + n2;
  for (int32_t v = 0; v < n; v++) {
    uint32_t lo = (uint32_t)start[v] << 1 | (end[v] > start[v]);
    uint32_t hi = end[v] > start[v] ? (uint32_t)end[v] << 1 : (uint32_t)start[v] << 1 | 1;
    keys[2 * v] = (uint64_t)lo << 32 | (uint32_t)(2 * v);
    keys[2 * v + 1] = (uint64_t)hi << 32 | (uint32_t)(2 * v + 1);
  }
  /* Only the values' order matters to the ranks (not the indices'). */
  sort_bounds(keys, keys + n2, n2, (uint32_t)tmax << 1 | 1);
  int32_t r = -1;
  for (size_t i = 0; i < n2; i++) {
    if (i == 0 || keys[i] >> 32 != keys[i - 1] >> 32)
      r++;
    rank[(uint32_t)keys[i]] = r;
  }
  memset(alloc_at, 0, sizeof *alloc_at * (size_t)(r + 1));
  memset(free_at, 0, sizeof *free_at * (size_t)(r + 1));
  for (int32_t k = 0; k < m->nb; k++) {
    int32_t o = m->owner[k];
    alloc_at[rank[2 * o]] += m->size[k];
    if (m->forever[k])
      continue;
    int32_t h = rank[2 * o + 1];
    for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++)
      if (rank[2 * m->user[i] + 1] > h)
        h = rank[2 * m->user[i] + 1];
    free_at[h] += m->size[k];
  }
  int64_t live = 0, best = 0;
  for (int32_t i = 0; i <= r; i++) {
    live -= free_at[i];
    free_at[i] = live; /* now the live bytes after the frees at rank i */
    live += alloc_at[i];
    if (live > best)
      best = live;
  }
  for (int32_t v = 0; after && v < n; v++)
    after[v] = free_at[rank[2 * v + 1]];
  opsched_free(keys);
  opsched_free(sum);
  return best;
}

int64_t mem_peak_in_time(const mem_model *m, const int64_t *start,
                         const int64_t *end, int64_t *after) {
  int32_t n = m->n;
  int64_t tmax = 0;
  for (int32_t v = 0; v < n; v++) {
    if (start[v] < 0 || end[v] < start[v])
      return -1;
    for (int64_t i = m->pred_off[v]; i < m->pred_off[v + 1]; i++)
      if (end[m->pred[i]] > start[v])
        return -1;
    if (end[v] > tmax)
      tmax = end[v]; /* every event's time is a start or an end */
  }
  size_t cap = 2 * (size_t)m->nb + (size_t)n;
  int32_t id_limit = m->nb > n ? m->nb : n;
  int idbits = 0;
  while (idbits < 31 && ((int64_t)1 << idbits) < id_limit)
    idbits++;
  /* Times below 2^28: the id in the low 32 bits, and only (t, phase, kind)
   * above them sorted (fewer digits); events equal there keep the order
   * they were made in. The sweep's result does not depend on that order:
   * every event of one (t, phase, kind) is of one kind, and the live bytes
   * are counted after the last event of an instant (queries: after every
   * free there, before every allocation). Otherwise the packed keys of
   * sort_time_events (the same total order). */
  int split = tmax < (int64_t)1 << 28;
  if (split && cap <= UINT32_MAX)
    return m->size_sum < INT64_MAX ? peak_instants(m, start, end, tmax, after)
                                   : peak_split(m, start, end, after);
  if (split)
    idbits = 32;
  if (tmax < (int64_t)1 << (63 - (idbits + 3))) {
    /* Not zero-filled: only the ne keys written are read, and the sort
     * writes tmp before reading it. */
    uint64_t *keys = opsched_realloc_array(NULL, cap ? 2 * cap : 1, sizeof *keys);
    if (!keys)
      return -2;
    event_sink c = {keys, idbits, NULL};
    size_t ne = time_events(m, start, end, after != NULL, &c);
    radix_sort_from(keys, keys + ne, ne, split ? 4 : 0);
    int64_t peak = sweep_peak(m, ne, keys, idbits, NULL, after);
    opsched_free(keys);
    return peak;
  }
  /* Not zero-filled (every peak-in-time query allocates it): only the ne
   * events written below are read. */
  time_event *ev = opsched_realloc_array(NULL, cap ? cap : 1, sizeof *ev);
  if (!ev)
    return -2;
  event_sink c = {NULL, 0, ev};
  size_t ne = time_events(m, start, end, after != NULL, &c);
  if (!sort_time_events(ev, ne, id_limit)) {
    opsched_free(ev);
    return -2;
  }
  int64_t peak = sweep_peak(m, ne, NULL, 0, ev, after);
  opsched_free(ev);
  return peak;
}

int64_t mem_trivial_lower_bound(const mem_model *m) { return m->trivial_lb; }

/* max over nodes of alloc + bytes used, and the results' total. */
static int64_t trivial_lower_bound(const mem_model *m) {
  int64_t lb = 0;
  for (int32_t v = 0; v < m->n; v++) {
    int64_t x = m->alloc_bytes[v];
    for (int64_t i = m->use_off[v]; i < m->use_off[v + 1]; i++)
      x = opsched_sat_add(x, m->size[m->use_buf[i]]);
    if (x > lb)
      lb = x;
  }
  /* Every result is live while the last op runs. */
  int64_t results = 0;
  for (int32_t k = 0; k < m->nb; k++)
    if (m->forever[k])
      results = opsched_sat_add(results, m->size[k]);
  return results > lb ? results : lb;
}

int64_t opsched_memory_peak_of_order(const opsched_graph *g,
                                     const opsched_buffers *b,
                                     const int32_t *order, int64_t *live_after) {
  if (!g || !b || !order || !opsched_graph_is_finalized(g) ||
      opsched_graph_num_nodes(g) != opsched_buffers_num_nodes(b))
    return -1;
  mem_model m;
  if (mem_model_build(g, b, &m) != OPSCHED_OK)
    return -1;
  int64_t peak = mem_simulate(&m, order, NULL, live_after);
  mem_model_free(&m);
  return peak < 0 ? -1 : peak;
}

int64_t opsched_memory_peak_in_time(const opsched_graph *g,
                                    const opsched_buffers *b,
                                    const int64_t *starts, const int64_t *ends,
                                    int64_t *live_after) {
  if (!g || !b || !starts || !ends || !opsched_graph_is_finalized(g) ||
      opsched_graph_num_nodes(g) != opsched_buffers_num_nodes(b))
    return -1;
  mem_model m;
  if (mem_model_build(g, b, &m) != OPSCHED_OK)
    return -1;
  int64_t peak = mem_peak_in_time(&m, starts, ends, live_after);
  mem_model_free(&m);
  return peak < 0 ? -1 : peak;
}
