/* tools/fuzz/fuzz_core.c - libFuzzer harness over the pure-C core.
 *
 * Bytes -> a random DAG (costs, demands, edges), a buffer set (sizes, uses,
 * results) and options (streams, capacity, priority, effort, memory policy,
 * limit) -> opsched_schedule_run and opsched_memory_schedule. Every result is
 * checked here, independently of the core: the order is a topological
 * permutation; every edge and every buffer's data dependency is honoured in
 * time; durations equal costs; no two non-zero ops overlap on a stream; at no
 * instant do more than `streams` non-zero ops run or their demands exceed
 * the capacity; a memory limit reported as met is met by the peak this file
 * recomputes (one stream), and reported peaks equal it. Any violation
 * aborts. See docs/benchmarks-scale.md ("Fuzzing"). */
#include "opsched/arena.h"
#include "opsched/memory.h"
#include "opsched/schedule.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 48
#define MAXB 64

typedef struct reader {
  const uint8_t *p;
  size_t n;
} reader;

static unsigned take(reader *r) {
  if (r->n == 0)
    return 0;
  r->n--;
  return *r->p++;
}

typedef struct bufs {
  int32_t nb;
  int64_t size[MAXB];
  int32_t alloc[MAXB];
  int forever[MAXB];
  uint8_t use[MAXB][MAXN];
} bufs;

#define CHECK(cond, what)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "fuzz_core: violated: %s (%s:%d)\n", what, __FILE__,    \
              __LINE__);                                                       \
      abort();                                                                 \
    }                                                                          \
  } while (0)

/* Peak of a one-stream order, recomputed from the model's definition. */
static int64_t peak_of(int32_t n, const bufs *b, const int32_t *order) {
  int32_t pos[MAXN], last[MAXB];
  for (int32_t i = 0; i < n; i++)
    pos[order[i]] = i;
  for (int32_t k = 0; k < b->nb; k++) {
    last[k] = b->alloc[k] >= 0 ? pos[b->alloc[k]] : -1;
    for (int32_t v = 0; v < n; v++)
      if (b->use[k][v] && pos[v] > last[k])
        last[k] = pos[v];
  }
  int64_t live = 0, peak = 0;
  for (int32_t i = 0; i < n; i++) {
    for (int32_t k = 0; k < b->nb; k++)
      if (b->alloc[k] == order[i])
        live += b->size[k];
    if (live > peak)
      peak = live;
    for (int32_t k = 0; k < b->nb; k++)
      if (b->alloc[k] >= 0 && last[k] == i && !b->forever[k])
        live -= b->size[k];
  }
  return peak;
}

static void check_topo(int32_t n, const uint8_t adj[MAXN][MAXN], const bufs *b,
                       const int32_t *order) {
  int32_t pos[MAXN];
  for (int32_t i = 0; i < n; i++)
    pos[i] = -1;
  for (int32_t i = 0; i < n; i++) {
    CHECK(order[i] >= 0 && order[i] < n && pos[order[i]] < 0,
          "order is a permutation");
    pos[order[i]] = i;
  }
  for (int32_t u = 0; u < n; u++)
    for (int32_t v = 0; v < n; v++)
      if (adj[u][v])
        CHECK(pos[u] < pos[v], "order respects edges");
  for (int32_t k = 0; k < b->nb; k++)
    for (int32_t v = 0; v < n; v++)
      if (b->alloc[k] >= 0 && b->use[k][v] && v != b->alloc[k])
        CHECK(pos[b->alloc[k]] < pos[v], "order respects data dependencies");
}

/* The arena with timeline reuse, its syncs added to the schedule: no time
 * or stream moves, and every two buffers overlapping in memory are ordered
 * (all events of one complete before the other's allocating op) by a
 * happens-before closure of the harness's own: stream order, waits, edges. */
static void check_arena(const opsched_graph *g, opsched_schedule *s,
                        const uint8_t adj[MAXN][MAXN], const bufs *b,
                        const opsched_buffers *ob, int32_t n) {
  opsched_arena *a = NULL;
  CHECK(opsched_arena_assign_with(g, s, ob, 8, OPSCHED_ARENA_DEFAULT | OPSCHED_ARENA_SYNC_REUSE,
                                  &a) == OPSCHED_OK, "arena_assign");
  int64_t nsync, start[MAXN];
  const int32_t *to, *from = opsched_arena_syncs(a, &nsync, &to);
  int32_t stream[MAXN];
  for (int32_t v = 0; v < n; v++) {
    start[v] = opsched_schedule_starts(s)[v];
    stream[v] = opsched_schedule_streams(s)[v];
  }
  CHECK(opsched_schedule_add_syncs(s, g, from, to, nsync) == OPSCHED_OK, "add_syncs");
  for (int32_t v = 0; v < n; v++)
    CHECK(opsched_schedule_starts(s)[v] == start[v] && opsched_schedule_streams(s)[v] == stream[v],
          "syncs move nothing");
  uint8_t reach[MAXN][MAXN];
  memset(reach, 0, sizeof reach);
  const int32_t *order = opsched_schedule_order(s);
  for (int32_t i = 0; i < n; i++) { /* direct edges, then closure in order */
    int32_t v = order[i], nw;
    for (int32_t j = 0; j < i; j++)
      if (stream[order[j]] == stream[v])
        reach[order[j]][v] = 1;
    const int32_t *w = opsched_schedule_waits(s, v, &nw);
    for (int32_t k = 0; k < nw; k++)
      reach[w[k]][v] = 1;
    for (int32_t u = 0; u < n; u++)
      if (adj[u][v])
        reach[u][v] = 1;
  }
  for (int32_t i = 0; i < n; i++) /* order is topological for all of them */
    for (int32_t j = 0; j < i; j++)
      if (reach[order[j]][order[i]])
        for (int32_t u = 0; u < n; u++)
          if (reach[u][order[j]])
            reach[u][order[i]] = 1;
  for (int32_t x = 0; x < b->nb; x++)
    for (int32_t y = 0; y < b->nb; y++) {
      int64_t ox = opsched_arena_offset(a, x), oy = opsched_arena_offset(a, y);
      int64_t sx = opsched_arena_aligned_size(a, x), sy = opsched_arena_aligned_size(a, y);
      if (x == y || b->alloc[x] < 0 || b->alloc[y] < 0 || sx <= 0 || sy <= 0 ||
          ox >= oy + sy || oy >= ox + sx || x > y)
        continue;
      int before[2];
      for (int d = 0; d < 2; d++) {
        int32_t p = d ? y : x, q = d ? x : y, at = b->alloc[q];
        before[d] = !b->forever[p] && reach[b->alloc[p]][at];
        for (int32_t v = 0; v < n && before[d]; v++)
          if (b->use[p][v] && v != b->alloc[p])
            before[d] = reach[v][at];
      }
      CHECK(before[0] || before[1], "overlapping buffers are ordered");
    }
  opsched_arena_destroy(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  reader r = {data, size};
  int32_t n = 1 + (int32_t)(take(&r) % MAXN);
  int32_t streams = 1 + (int32_t)(take(&r) % 4);
  int32_t cap = (int32_t)(take(&r) % 6);
  unsigned flags = take(&r);
  int64_t cost[MAXN];
  int32_t demand[MAXN];
  static const uint8_t zero_adj[MAXN][MAXN];
  uint8_t adj[MAXN][MAXN];
  memcpy(adj, zero_adj, sizeof adj);
  opsched_graph *g = opsched_graph_create(0);
  if (!g)
    return 0;
  for (int32_t v = 0; v < n; v++) {
    unsigned c = take(&r);
    cost[v] = (c & 0x80) ? 0 : (int64_t)(c % 17);
    demand[v] = 1 + (int32_t)(take(&r) % 3);
    CHECK(opsched_graph_add_node(g, cost[v], demand[v]) == v, "add_node");
  }
  /* Edges only from lower to higher ids: always a DAG. */
  int32_t nedges = (int32_t)(take(&r) % (2 * MAXN));
  for (int32_t e = 0; e < nedges; e++) {
    int32_t a = (int32_t)(take(&r) % (unsigned)n), c = (int32_t)(take(&r) % (unsigned)n);
    if (a == c)
      continue;
    int32_t u = a < c ? a : c, v = a < c ? c : a;
    adj[u][v] = 1;
    CHECK(opsched_graph_add_edge(g, u, v) == OPSCHED_OK, "add_edge");
  }
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK, "finalize a DAG");

  bufs b;
  memset(&b, 0, sizeof b);
  opsched_buffers *ob = NULL;
  if (flags & 1) {
    ob = opsched_buffers_create(n);
    CHECK(ob != NULL, "buffers_create");
    b.nb = (int32_t)(take(&r) % MAXB);
    for (int32_t k = 0; k < b.nb; k++) {
      unsigned a = take(&r);
      b.size[k] = (int64_t)(take(&r) * 16 + take(&r));
      /* Allocating node, or resident; uses only by later nodes (else the
       * buffers' data dependencies could contradict the edges). */
      b.alloc[k] = (a % 8 == 0) ? -1 : (int32_t)(a % (unsigned)n);
      b.forever[k] = b.alloc[k] >= 0 && (take(&r) % 5 == 0);
      CHECK(opsched_buffers_add(ob, b.size[k], b.alloc[k], b.forever[k]) == k,
            "buffers_add");
      int32_t nuse = (int32_t)(take(&r) % 4);
      for (int32_t i = 0; i < nuse; i++) {
        int32_t v = (int32_t)(take(&r) % (unsigned)n);
        if (b.alloc[k] >= 0 && v < b.alloc[k])
          continue;
        b.use[k][v] = 1;
        CHECK(opsched_buffers_add_use(ob, k, v) == OPSCHED_OK, "add_use");
      }
    }
  }
  int64_t limit = (flags & 2) && ob ? (int64_t)(take(&r) * 64) : 0;
  opsched_memory_policy policy =
      (opsched_memory_policy)(take(&r) % OPSCHED_MEMORY_POLICY_COUNT);

  /* The schedule. */
  opsched_schedule_options so;
  opsched_schedule_options_init(&so);
  so.streams = streams;
  so.resource_limit = cap;
  so.priority = (flags & 4) ? OPSCHED_PRIORITY_PROGRAM_ORDER
                            : OPSCHED_PRIORITY_CRITICAL_PATH;
  so.effort = (flags & 8) && (flags & 16) ? 1 : 0;
  so.buffers = ob;
  so.max_memory = limit;
  so.memory_policy = policy;
  so.exact_budget = 2000;
  opsched_schedule *s = NULL;
  opsched_status st = opsched_schedule_run(g, &so, &s);
  int32_t capacity = cap ? cap : streams;
  int infeasible = 0;
  for (int32_t v = 0; v < n; v++)
    infeasible |= demand[v] > capacity;
  if (infeasible) {
    CHECK(st == OPSCHED_ERR_INFEASIBLE, "demand > capacity is infeasible");
  } else {
    CHECK(st == OPSCHED_OK && s, "schedule_run succeeds");
    const int32_t *order = opsched_schedule_order(s);
    const int64_t *ts = opsched_schedule_starts(s), *te = opsched_schedule_ends(s);
    const int32_t *sid = opsched_schedule_streams(s);
    check_topo(n, (const uint8_t(*)[MAXN])adj, &b, order);
    int64_t makespan = 0;
    for (int32_t v = 0; v < n; v++) {
      CHECK(ts[v] >= 0 && te[v] - ts[v] == cost[v], "duration = cost");
      CHECK(sid[v] >= 0 && sid[v] < streams, "stream in range");
      if (te[v] > makespan)
        makespan = te[v];
    }
    CHECK(makespan == opsched_schedule_makespan(s), "makespan");
    for (int32_t u = 0; u < n; u++)
      for (int32_t v = 0; v < n; v++)
        if (adj[u][v])
          CHECK(te[u] <= ts[v], "edge honoured in time");
    for (int32_t k = 0; k < b.nb; k++)
      for (int32_t v = 0; v < n; v++)
        if (b.alloc[k] >= 0 && b.use[k][v] && v != b.alloc[k])
          CHECK(te[b.alloc[k]] <= ts[v], "data dependency honoured in time");
    for (int32_t u = 0; u < n; u++) {
      if (cost[u] == 0)
        continue;
      int32_t running = 0, dem = 0;
      for (int32_t v = 0; v < n; v++) {
        if (cost[v] == 0 || ts[v] > ts[u] || te[v] <= ts[u])
          continue;
        running++;
        dem += demand[v];
        if (v != u)
          CHECK(sid[v] != sid[u], "stream exclusivity");
      }
      CHECK(running <= streams, "at most `streams` ops at once");
      CHECK(dem <= capacity, "capacity");
    }
    if (ob && streams == 1) {
      int64_t peak = peak_of(n, &b, order);
      CHECK(opsched_schedule_peak_memory(s) == peak, "reported one-stream peak");
      if (limit > 0 && opsched_schedule_memory_limit_met(s))
        CHECK(peak <= limit, "memory limit claimed met");
    }
    if (ob && streams > 1 && limit > 0 && opsched_schedule_memory_limit_met(s)) {
      int64_t p = opsched_memory_peak_in_time(g, ob, ts, te, NULL);
      CHECK(p >= 0 && p <= limit, "memory limit in time claimed met");
    }
  }
  if (s && ob)
    check_arena(g, s, (const uint8_t(*)[MAXN])adj, &b, ob, n);
  opsched_schedule_destroy(s);

  /* The one-stream memory scheduler alone. */
  if (ob) {
    opsched_memory_options mo;
    opsched_memory_options_init(&mo);
    mo.policy = policy;
    mo.max_memory = limit;
    mo.exact_budget = 2000;
    opsched_memory_result *res = NULL;
    CHECK(opsched_memory_schedule(g, ob, &mo, &res) == OPSCHED_OK && res,
          "memory_schedule succeeds");
    const int32_t *order = opsched_memory_result_order(res);
    check_topo(n, (const uint8_t(*)[MAXN])adj, &b, order);
    int64_t peak = peak_of(n, &b, order);
    CHECK(opsched_memory_result_peak(res) == peak, "reported peak");
    CHECK(opsched_memory_peak_of_order(g, ob, order, NULL) == peak, "peak_of_order");
    if (limit > 0 && opsched_memory_result_limit_met(res))
      CHECK(peak <= limit, "memory limit claimed met");
    if (opsched_memory_result_exact_proven(res))
      CHECK(opsched_memory_result_lower_bound(res) == peak, "proven = bound");
    CHECK(opsched_memory_result_lower_bound(res) <= peak, "lower bound <= peak");
    opsched_memory_result_destroy(res);
  }
  opsched_buffers_destroy(ob);
  opsched_graph_destroy(g);
  return 0;
}
