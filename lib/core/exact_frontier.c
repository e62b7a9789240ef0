/* lib/core/exact_frontier.c - the exact minimum makespan under a peak of
 * live bytes in time, for blocks of at most 64 ops (opsched/exact_frontier.h
 * states the model and why the search is exact). */
#include "opsched/exact_frontier.h"

#include "alloc.h"
#include "memory_model.h"
#include "saturate.h"

#include <stdlib.h>
#include <string.h>

#define EX_MAX 64
#define EX_INF INT64_MAX

static int bit_count(uint64_t x) {
  int c = 0;
  for (; x; x &= x - 1)
    c++;
  return c;
}

static int bit_low(uint64_t x) {
  int i = 0;
  while (!(x & 1u)) {
    x >>= 1;
    i++;
  }
  return i;
}

/* The states seen, per (started, finished) set: the time reached and the
 * running ops' ends (in op order). A state is dominated by one of the same
 * sets reached no later whose running ops end no later: every continuation
 * of the later one is valid from the earlier one (streams, capacity and
 * memory only get freer), and its earliest form starts ops at decision
 * points of the earlier one. */
typedef struct ex_memo {
  int64_t *slots; /* cap * 3: S, F, head (1 + entry index; 0 = empty) */
  int64_t *pool;  /* pool_cap * (2 + k): t, next (1 + index or 0), ends[k] */
  size_t cap, used, pool_used, pool_cap, max_pool;
  int32_t k;
} ex_memo;

typedef struct ex {
  int32_t n, N, R, nb;
  int64_t B, T;
  int64_t cost[EX_MAX], tail[EX_MAX], alloc[EX_MAX];
  int32_t demand[EX_MAX], topo[EX_MAX];
  uint64_t pred[EX_MAX], desc[EX_MAX], anc[EX_MAX];
  uint64_t auto_zero, all;
  const mem_model *m;
  uint64_t *holders; /* per buffer */
  int64_t start[EX_MAX];
  int64_t best, best_start[EX_MAX];
  int64_t nodes, node_limit;
  int stopped; /* 1: out of nodes; 2: first schedule found (first_found) */
  int first_found;
  ex_memo memo;
} ex;

void opsched_exact_options_init(opsched_exact_options *o) {
  memset(o, 0, sizeof *o);
  o->streams = 1;
}

void opsched_exact_result_release(opsched_exact_result *r) {
  if (r) {
    opsched_free(r->start);
    r->start = NULL;
  }
}

/* --- memo ------------------------------------------------------------ */

static size_t memo_stride(const ex_memo *mm) { return 2 + (size_t)mm->k; }

static int64_t *memo_slot(const ex_memo *mm, uint64_t S, uint64_t F) {
  uint64_t h = S * 0x9e3779b97f4a7c15ull ^ (F + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
  size_t i = (h ^ (h >> 31)) & (mm->cap - 1);
  for (;; i = (i + 1) & (mm->cap - 1)) {
    int64_t *e = mm->slots + i * 3;
    if (!e[2] || ((uint64_t)e[0] == S && (uint64_t)e[1] == F))
      return e;
  }
}

static int memo_grow(ex_memo *mm) {
  size_t old = mm->cap;
  int64_t *os = mm->slots, *ns = opsched_alloc_array(old * 2 * 3, sizeof(int64_t));
  if (!ns)
    return 0;
  mm->slots = ns;
  mm->cap = old * 2;
  for (size_t i = 0; i < old; i++)
    if (os[i * 3 + 2])
      memcpy(memo_slot(mm, (uint64_t)os[i * 3], (uint64_t)os[i * 3 + 1]), os + i * 3,
             3 * sizeof(int64_t));
  opsched_free(os);
  return 1;
}

static int64_t *memo_entry(const ex_memo *mm, int64_t head) {
  return mm->pool + (size_t)(head - 1) * memo_stride(mm);
}

/* 1 when a state with the same sets, reached no later, has every running op
 * ending no later (prune); otherwise records this one when there is room. */
static int memo_seen(ex_memo *mm, uint64_t S, uint64_t F, const int64_t *ends, int64_t t) {
  if (!mm->slots)
    return 0;
  int64_t *e = memo_slot(mm, S, F);
  for (int64_t h = e[2]; h; h = memo_entry(mm, h)[1]) {
    const int64_t *q = memo_entry(mm, h);
    int dom = q[0] <= t;
    for (int32_t j = 0; j < mm->k && dom; j++)
      dom = q[2 + j] <= ends[j];
    if (dom)
      return 1;
  }
  if (mm->pool_used == mm->pool_cap) {
    if (mm->pool_cap >= mm->max_pool)
      return 0;
    int64_t *np = opsched_alloc_array(mm->pool_cap * 2 * memo_stride(mm), sizeof(int64_t));
    if (!np)
      return 0;
    memcpy(np, mm->pool, mm->pool_cap * memo_stride(mm) * sizeof(int64_t));
    opsched_free(mm->pool);
    mm->pool = np;
    mm->pool_cap *= 2;
  }
  if (!e[2]) {
    if (2 * (mm->used + 1) > mm->cap) {
      if (!memo_grow(mm))
        return 0;
      e = memo_slot(mm, S, F);
    }
    e[0] = (int64_t)S;
    e[1] = (int64_t)F;
    mm->used++;
  }
  int64_t *q = mm->pool + mm->pool_used * memo_stride(mm);
  q[0] = t;
  q[1] = e[2];
  memcpy(q + 2, ends, sizeof(int64_t) * (size_t)mm->k);
  e[2] = (int64_t)++mm->pool_used;
  return 0;
}

static void memo_clear(ex_memo *mm) {
  if (mm->slots)
    memset(mm->slots, 0, mm->cap * 3 * sizeof(int64_t));
  mm->used = mm->pool_used = 0;
}

/* --- the search ------------------------------------------------------ */

static int64_t end_of(const ex *x, int32_t i) { return x->start[i] + x->cost[i]; }

/* Live bytes at the current instant once every op of S has started and
 * those of F have finished. */
static int64_t live_bytes(const ex *x, uint64_t S, uint64_t F) {
  int64_t live = 0;
  for (int32_t b = 0; b < x->nb; b++) {
    int32_t o = x->m->owner[b];
    if (!((S >> o) & 1u))
      continue;
    if (x->m->forever[b] || (x->holders[b] & ~F))
      live = opsched_sat_add(live, x->m->size[b]);
  }
  return live;
}

/* The compulsory parts of the buffers' lifetimes exceed the limit at some
 * instant tau: a buffer is surely live at tau when its allocator has
 * started or must start by tau (latest start <= tau) and a holder cannot
 * end by tau (earliest end > tau), or it lives to the end. The sum only
 * grows at allocators' latest starts, so those (and now) are the instants
 * to check. */
static int compulsory_fails(const ex *x, uint64_t S, const int64_t *ef) {
  int64_t hold_end[EX_MAX * 2];
  int32_t nb = x->nb < EX_MAX * 2 ? x->nb : EX_MAX * 2;
  for (int32_t b = 0; b < nb; b++) {
    hold_end[b] = x->m->forever[b] ? EX_INF : 0;
    for (uint64_t h = x->holders[b]; h; h &= h - 1)
      if (ef[bit_low(h)] > hold_end[b])
        hold_end[b] = ef[bit_low(h)];
  }
  for (int32_t c = -1; c < nb; c++) {
    int32_t oc = c < 0 ? -1 : x->m->owner[c];
    if (oc >= 0 && ((S >> oc) & 1u))
      continue;
    int64_t tau = oc < 0 ? 0 : x->T - x->tail[oc];
    if (oc < 0) { /* now: the earliest start of anything unstarted */
      tau = EX_INF;
      for (uint64_t u = x->all & ~S; u; u &= u - 1)
        if (ef[bit_low(u)] - x->cost[bit_low(u)] < tau)
          tau = ef[bit_low(u)] - x->cost[bit_low(u)];
    }
    int64_t live = 0;
    for (int32_t b = 0; b < nb; b++) {
      int32_t o = x->m->owner[b];
      if ((((S >> o) & 1u) || x->T - x->tail[o] <= tau) && hold_end[b] > tau)
        live = opsched_sat_add(live, x->m->size[b]);
    }
    if (live > x->B)
      return 1;
  }
  return 0;
}

/* The bytes that must be live when op i starts, for some unstarted op i of
 * non-zero duration, exceed the limit: a buffer whose allocator has started,
 * is i or an ancestor, or must start before i can (its latest start is below
 * i's earliest), and that a holder keeps past i's start (i itself, a
 * descendant, an op that cannot end by i's latest start) or that lives to
 * the end. ef: earliest ends (actual ends of started ops). */
static int memory_fails(const ex *x, uint64_t S, const int64_t *ef) {
  for (uint64_t u = x->all & ~S; u; u &= u - 1) {
    int32_t i = bit_low(u);
    if (x->cost[i] == 0)
      continue;
    int64_t ls = x->T - x->tail[i], es = ef[i] - x->cost[i];
    uint64_t before = S | x->anc[i] | (1ull << i), after = x->desc[i] | (1ull << i);
    for (int32_t j = 0; j < x->n; j++)
      if (x->T - x->tail[j] < es)
        before |= 1ull << j;
    for (int32_t j = 0; j < x->n; j++)
      if (ef[j] > ls)
        after |= 1ull << j;
    int64_t live = 0;
    for (int32_t b = 0; b < x->nb; b++)
      if (((before >> x->m->owner[b]) & 1u) && (x->m->forever[b] || (x->holders[b] & after)))
        live = opsched_sat_add(live, x->m->size[b]);
    if (live > x->B)
      return 1;
  }
  return compulsory_fails(x, S, ef);
}

/* Lower bounds on the makespan from state (t, S, F): every unstarted op's
 * earliest start plus its tail, and the work left over the capacity. 1 when
 * the deadline T cannot be met. */
static int bounds_fail(const ex *x, int64_t t, uint64_t S) {
  int64_t ef[EX_MAX];
  int64_t work = 0, slots = 0;
  for (int32_t k = 0; k < x->n; k++) {
    int32_t i = x->topo[k];
    if ((S >> i) & 1u) {
      ef[i] = end_of(x, i);
      if (ef[i] > t) {
        work += (ef[i] - t) * x->demand[i];
        slots += ef[i] - t;
      }
      continue;
    }
    int64_t est = t;
    for (uint64_t p = x->pred[i]; p; p &= p - 1) {
      int32_t q = bit_low(p);
      if (ef[q] > est)
        est = ef[q];
    }
    if (est + x->tail[i] > x->T)
      return 1;
    ef[i] = est + x->cost[i];
    work += x->cost[i] * x->demand[i];
    slots += x->cost[i];
  }
  if (t + (work + x->R - 1) / x->R > x->T || t + (slots + x->N - 1) / x->N > x->T)
    return 1;
  return x->B != EX_INF && memory_fails(x, S, ef);
}

static void dfs(ex *x, int64_t t, uint64_t S, uint64_t banned);

static uint64_t finished_at(const ex *x, int64_t t, uint64_t S) {
  uint64_t F = 0;
  for (uint64_t s = S; s; s &= s - 1) {
    int32_t i = bit_low(s);
    if (end_of(x, i) <= t)
      F |= 1ull << i;
  }
  return F;
}

static uint64_t ready_set(const ex *x, uint64_t S, uint64_t F) {
  uint64_t r = 0;
  for (uint64_t u = x->all & ~S; u; u &= u - 1) {
    int32_t i = bit_low(u);
    if ((x->pred[i] & ~F) == 0)
      r |= 1ull << i;
  }
  return r;
}

typedef struct ex_choice {
  int64_t t, next_end;
  uint64_t S, F, E, banned;
  int32_t ne, running;
  int32_t order[EX_MAX];
} ex_choice;

/* After choosing X at c->t: the next round (same instant when X started a
 * zero-duration op, else the next end). */
static void choose_leaf(ex *x, const ex_choice *c, uint64_t X) {
  if (!X && !c->running)
    return; /* nothing would ever start again */
  int zero = 0;
  int64_t next = c->next_end;
  for (uint64_t u = X; u; u &= u - 1) {
    int32_t i = bit_low(u);
    x->start[i] = c->t;
    if (x->cost[i] == 0)
      zero = 1;
    else if (c->t + x->cost[i] < next)
      next = c->t + x->cost[i];
  }
  if (zero) {
    dfs(x, c->t, c->S | X, c->banned | (c->E & ~X));
    return;
  }
  /* An op left out cannot start before the next decision point. */
  for (uint64_t u = c->E & ~X; u; u &= u - 1)
    if (x->T - x->tail[bit_low(u)] < next)
      return;
  dfs(x, next, c->S | X, 0);
}

/* Every subset of the ready ops (most urgent first, taken before left out)
 * within streams, capacity and the memory limit. */
static void choose(ex *x, const ex_choice *c, int32_t k, uint64_t X, int32_t cnt, int64_t dem,
                   int64_t mem) {
  if (x->stopped)
    return;
  if (k == c->ne) {
    choose_leaf(x, c, X);
    return;
  }
  int32_t i = c->order[k];
  int nz = x->cost[i] > 0;
  int64_t m2 = opsched_sat_add(mem, x->alloc[i]);
  if ((!nz || (cnt < x->N && dem + x->demand[i] <= x->R)) && m2 <= x->B)
    choose(x, c, k + 1, X | (1ull << i), cnt + nz, dem + (nz ? x->demand[i] : 0), m2);
  if (x->T - x->tail[i] >= c->t + 1) /* left out: it starts at a later point */
    choose(x, c, k + 1, X, cnt, dem, mem);
}

static void record(ex *x, uint64_t S) {
  (void)S;
  int64_t mk = 0;
  for (int32_t i = 0; i < x->n; i++)
    if (end_of(x, i) > mk)
      mk = end_of(x, i);
  if (mk > x->T)
    return;
  x->best = mk;
  memcpy(x->best_start, x->start, sizeof(int64_t) * (size_t)x->n);
  x->T = mk - 1;
  if (x->first_found)
    x->stopped = 2; /* done, not out of nodes */
}

/* Starts the ready zero-duration ops without buffers at t (never worse). */
static void start_free_zero(ex *x, int64_t t, uint64_t *S, uint64_t *F) {
  for (;;) {
    uint64_t z = ready_set(x, *S, *F) & x->auto_zero;
    if (!z)
      return;
    for (uint64_t u = z; u; u &= u - 1)
      x->start[bit_low(u)] = t;
    *S |= z;
    *F |= z;
  }
}

static void dfs(ex *x, int64_t t, uint64_t S, uint64_t banned) {
  if (x->stopped)
    return;
  if (++x->nodes > x->node_limit) {
    x->stopped = 1;
    return;
  }
  uint64_t F = finished_at(x, t, S);
  start_free_zero(x, t, &S, &F);
  if (S == x->all) {
    record(x, S);
    return;
  }
  ex_choice c;
  c.t = t;
  c.S = S;
  c.F = F;
  c.banned = banned;
  uint64_t run = S & ~F;
  c.running = bit_count(run);
  c.next_end = EX_INF;
  int64_t rel[EX_MAX];
  int32_t nr = 0;
  int32_t cnt = 0;
  int64_t dem = 0;
  for (uint64_t u = run; u; u &= u - 1) {
    int32_t i = bit_low(u);
    int64_t e = end_of(x, i);
    rel[nr++] = e;
    if (e < c.next_end)
      c.next_end = e;
    cnt += x->cost[i] > 0;
    dem += x->cost[i] > 0 ? x->demand[i] : 0;
  }
  for (int32_t i = nr; i < x->memo.k; i++)
    rel[i] = 0;
  if (!banned && nr <= x->memo.k && memo_seen(&x->memo, S, F, rel, t))
    return;
  if (bounds_fail(x, t, S))
    return;
  c.E = ready_set(x, S, F) & ~banned;
  /* Most urgent first: the smallest latest start. */
  c.ne = 0;
  for (uint64_t u = c.E; u; u &= u - 1) {
    int32_t i = bit_low(u), j = c.ne++;
    while (j > 0 && x->tail[c.order[j - 1]] < x->tail[i]) {
      c.order[j] = c.order[j - 1];
      j--;
    }
    c.order[j] = i;
  }
  choose(x, &c, 0, 0, cnt, dem, live_bytes(x, S, F));
}

/* --- setup ----------------------------------------------------------- */

/* Topological order, tails (longest path to the end, own cost included)
 * and descendants. */
static void ex_order(ex *x) {
  int32_t indeg[EX_MAX], head = 0, tail = 0;
  for (int32_t i = 0; i < x->n; i++) {
    indeg[i] = bit_count(x->pred[i]);
    if (!indeg[i])
      x->topo[tail++] = i;
  }
  while (head < tail) {
    int32_t u = x->topo[head++];
    for (int32_t v = 0; v < x->n; v++)
      if (((x->pred[v] >> u) & 1u) && --indeg[v] == 0)
        x->topo[tail++] = v;
  }
  for (int32_t k = x->n - 1; k >= 0; k--) {
    int32_t u = x->topo[k];
    int64_t best = 0;
    x->desc[u] = 0;
    for (int32_t v = 0; v < x->n; v++)
      if ((x->pred[v] >> u) & 1u) {
        x->desc[u] |= x->desc[v] | (1ull << v);
        if (x->tail[v] > best)
          best = x->tail[v];
      }
    x->tail[u] = x->cost[u] + best;
  }
  for (int32_t u = 0; u < x->n; u++)
    for (int32_t v = 0; v < x->n; v++)
      if ((x->desc[u] >> v) & 1u)
        x->anc[v] |= 1ull << u;
}

/* 1 when every buffer a zero-duration op holds has a holder of non-zero
 * duration after that op, or lives to the end (the header's condition). */
static int ex_zero_holders_ok(const ex *x) {
  for (int32_t b = 0; b < x->nb; b++) {
    if (x->m->forever[b])
      continue;
    for (uint64_t h = x->holders[b]; h; h &= h - 1) {
      int32_t z = bit_low(h);
      if (x->cost[z] > 0)
        continue;
      int ok = 0;
      for (uint64_t u = x->holders[b] & x->desc[z]; u && !ok; u &= u - 1)
        ok = x->cost[bit_low(u)] > 0;
      if (!ok)
        return 0;
    }
  }
  return 1;
}

static opsched_status ex_setup(ex *x, const opsched_graph *g, const mem_model *m,
                               const opsched_exact_options *o) {
  x->n = m->n;
  x->N = o->streams;
  x->R = o->resource_limit > 0 ? o->resource_limit : o->streams;
  x->B = o->max_memory > 0 ? o->max_memory : EX_INF;
  x->m = m;
  x->nb = m->nb;
  x->all = x->n == 64 ? ~0ull : (1ull << x->n) - 1;
  for (int32_t i = 0; i < x->n; i++) {
    x->cost[i] = opsched_graph_cost(g, i);
    x->demand[i] = opsched_graph_demand(g, i);
    x->alloc[i] = m->alloc_bytes[i];
    for (int64_t k = m->pred_off[i]; k < m->pred_off[i + 1]; k++)
      x->pred[i] |= 1ull << m->pred[k];
  }
  x->holders = opsched_alloc_array((size_t)m->nb + 1, sizeof(uint64_t));
  if (!x->holders)
    return OPSCHED_ERR_NOMEM;
  uint64_t held = 0;
  for (int32_t b = 0; b < m->nb; b++) {
    x->holders[b] = 1ull << m->owner[b];
    for (int64_t k = m->user_off[b]; k < m->user_off[b + 1]; k++)
      x->holders[b] |= 1ull << m->user[k];
    held |= x->holders[b];
  }
  for (int32_t i = 0; i < x->n; i++)
    if (x->cost[i] == 0 && !((held >> i) & 1u))
      x->auto_zero |= 1ull << i;
  ex_order(x);
  x->memo.k = x->N < x->n ? x->N : x->n;
  x->memo.cap = 1u << 12;
  x->memo.pool_cap = 1u << 12;
  x->memo.max_pool = (size_t)1 << 21;
  x->memo.slots = opsched_alloc_array(x->memo.cap * 3, sizeof(int64_t));
  x->memo.pool = opsched_alloc_array(x->memo.pool_cap * memo_stride(&x->memo), sizeof(int64_t));
  if (!x->memo.pool) {
    opsched_free(x->memo.slots);
    x->memo.slots = NULL;
  }
  return OPSCHED_OK;
}

static int64_t ex_root_bound(const ex *x) {
  int64_t lb = 0, work = 0, slots = 0;
  for (int32_t i = 0; i < x->n; i++) {
    if (x->tail[i] > lb)
      lb = x->tail[i];
    work += x->cost[i] * x->demand[i];
    slots += x->cost[i];
  }
  if ((work + x->R - 1) / x->R > lb)
    lb = (work + x->R - 1) / x->R;
  if ((slots + x->N - 1) / x->N > lb)
    lb = (slots + x->N - 1) / x->N;
  return lb;
}

/* Without a makespan limit, deadlines from the root bound widened in
 * stages (+0, 1/256, 1/128, ... of it, then none): the first stage with a
 * schedule ends with the optimum, since the search keeps improving within
 * its deadline and the previous stage proved none below. The memo is
 * cleared between stages (a deadline that grows can revive a state). */
static void ex_search(ex *x, int64_t limit) {
  if (limit > 0) {
    x->T = limit;
    dfs(x, 0, 0, 0);
    return;
  }
  int64_t root = ex_root_bound(x);
  for (int k = 0; x->best < 0 && !x->stopped; k++) {
    int64_t slack = k == 0 ? 0 : k > 10 ? EX_INF / 4 : (root >> (9 - k + 1)) + 1;
    x->T = root + slack;
    memo_clear(&x->memo);
    dfs(x, 0, 0, 0);
    if (k > 10)
      break;
  }
}

static void ex_finish(ex *x, const opsched_graph *g, const opsched_buffers *b,
                      const opsched_exact_options *o, opsched_exact_result *r) {
  r->nodes = x->nodes;
  int64_t root = ex_root_bound(x);
  if (x->best >= 0) {
    r->makespan = x->best;
    r->start = opsched_alloc_array((size_t)x->n, sizeof(int64_t));
    int64_t end[EX_MAX];
    for (int32_t i = 0; i < x->n; i++)
      end[i] = x->best_start[i] + x->cost[i];
    if (r->start)
      memcpy(r->start, x->best_start, sizeof(int64_t) * (size_t)x->n);
    r->peak = opsched_memory_peak_in_time(g, b, x->best_start, end, NULL);
  }
  if (x->stopped == 1) {
    r->status = OPSCHED_EXACT_STOPPED;
    r->lower_bound = root;
  } else if (x->best >= 0) {
    r->status = OPSCHED_EXACT_OPTIMAL;
    r->lower_bound = x->first_found ? root : x->best; /* first_found: not proven */
  } else {
    r->status = OPSCHED_EXACT_INFEASIBLE;
    r->lower_bound = o->makespan_limit > 0 ? o->makespan_limit + 1 : -1;
  }
}

opsched_status opsched_exact_min_makespan(const opsched_graph *g, const opsched_buffers *b0,
                                          const opsched_exact_options *o,
                                          opsched_exact_result *r) {
  if (!g || !o || !r || !opsched_graph_is_finalized(g) || o->streams < 1 ||
      o->resource_limit < 0 || o->max_memory < 0 || o->makespan_limit < 0)
    return OPSCHED_ERR_INVALID;
  memset(r, 0, sizeof *r);
  r->makespan = r->peak = r->lower_bound = -1;
  int32_t n = opsched_graph_num_nodes(g);
  if (b0 && opsched_buffers_num_nodes(b0) != n)
    return OPSCHED_ERR_INVALID;
  for (int32_t i = 0; i < n; i++)
    if (opsched_graph_demand(g, i) > (o->resource_limit > 0 ? o->resource_limit : o->streams))
      return OPSCHED_ERR_INVALID;
  if (n > EX_MAX || n < 1) {
    r->status = OPSCHED_EXACT_UNSUPPORTED;
    return OPSCHED_OK;
  }
  opsched_buffers *empty = b0 ? NULL : opsched_buffers_create(n);
  const opsched_buffers *b = b0 ? b0 : empty;
  if (!b)
    return OPSCHED_ERR_NOMEM;
  mem_model m;
  opsched_status st = mem_model_build(g, b, &m);
  if (st != OPSCHED_OK) {
    opsched_buffers_destroy(empty);
    return st;
  }
  ex *x = opsched_alloc_array(1, sizeof *x);
  st = x ? ex_setup(x, g, &m, o) : OPSCHED_ERR_NOMEM;
  if (st == OPSCHED_OK && !ex_zero_holders_ok(x)) {
    r->status = OPSCHED_EXACT_UNSUPPORTED;
  } else if (st == OPSCHED_OK) {
    x->best = -1;
    x->node_limit = o->node_limit > 0 ? o->node_limit : 20000000;
    x->first_found = o->first_found;
    ex_search(x, o->makespan_limit);
    ex_finish(x, g, b, o, r);
  }
  if (x) {
    opsched_free(x->holders);
    opsched_free(x->memo.slots);
    opsched_free(x->memo.pool);
  }
  opsched_free(x);
  mem_model_free(&m);
  opsched_buffers_destroy(empty);
  return st;
}
