/* Unit test of the report writers (lib/report): builds core graphs (the
 * seed's six ops on 2 streams, a fork-join with a wait, a block whose labels
 * need escaping, a 5k-op random DAG on 4 streams), schedules them, fills
 * the report model with plausible memory data (each op's output is live
 * from the op to its last consumer; sinks stay live), writes trace.json and
 * report.html into the directory given as argv[1] (for trace_check.py and
 * browser_test.sh), and checks determinism, escaping, key numbers, argument
 * checks and the size of a 10k-op report. */
#include "../unit/check.h"
#include "opsched/arena.h"
#include "opsched/report.h"
#include "opsched/schedule.h"

#include <stdlib.h>
#include <string.h>

/* One block's graph, schedule and every array the model borrows. */
typedef struct demo {
  opsched_graph *g;
  opsched_schedule *s;
  char **labels, **locs;
  int64_t *bytes, *mem_o, *mem_s;
  opsched_report_buffer *bufs;
  int32_t nbufs;
  int64_t arena;
} demo;

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  memcpy(d, s, n);
  return d;
}

/* Live bytes while the op at each position of `order` runs: outputs of
 * earlier ops not yet freed plus its own; an output is freed after its last
 * consumer, a sink's output stays live. */
static void live_bytes(const opsched_graph *g, const int64_t *bytes,
                       const int32_t *order, int64_t *live) {
  int32_t n = opsched_graph_num_nodes(g);
  int32_t *pos = malloc(sizeof *pos * (size_t)(n + 1));
  int64_t *freed_after = calloc((size_t)n + 1, sizeof *freed_after);
  for (int32_t i = 0; i < n; i++)
    pos[order[i]] = i;
  for (int32_t v = 0; v < n; v++) {
    int32_t ns, last = -1;
    const int32_t *sc = opsched_graph_succs(g, v, &ns);
    for (int32_t k = 0; k < ns; k++)
      if (pos[sc[k]] > last)
        last = pos[sc[k]];
    if (last >= 0)
      freed_after[last] += bytes[v];
  }
  int64_t cur = 0;
  for (int32_t i = 0; i < n; i++) {
    cur += bytes[order[i]];
    live[i] = cur;
    cur -= freed_after[i];
  }
  free(pos);
  free(freed_after);
}

/* Slot allocator for the arena picture: buffers in order of first use,
 * each takes the best-fitting free slot or a new one on top. */
static void assign_buffers(demo *d, const int32_t *order) {
  int32_t n = opsched_graph_num_nodes(d->g);
  int32_t *pos = malloc(sizeof *pos * (size_t)(n + 1));
  for (int32_t i = 0; i < n; i++)
    pos[order[i]] = i;
  d->bufs = calloc((size_t)n + 1, sizeof *d->bufs);
  int64_t *slot_off = calloc((size_t)n + 1, sizeof *slot_off);
  int64_t *slot_size = calloc((size_t)n + 1, sizeof *slot_size);
  int32_t *slot_free_at = calloc((size_t)n + 1, sizeof *slot_free_at);
  int32_t nslots = 0;
  d->arena = 0;
  for (int32_t i = 0; i < n; i++) {
    int32_t v = order[i], ns, last = n - 1;
    const int32_t *sc = opsched_graph_succs(d->g, v, &ns);
    if (ns) {
      last = i;
      for (int32_t k = 0; k < ns; k++)
        if (pos[sc[k]] > last)
          last = pos[sc[k]];
    }
    int32_t best = -1;
    for (int32_t k = 0; k < nslots; k++)
      if (slot_free_at[k] < i && slot_size[k] >= d->bytes[v] &&
          (best < 0 || slot_size[k] < slot_size[best]))
        best = k;
    if (best < 0) {
      best = nslots++;
      slot_off[best] = d->arena;
      slot_size[best] = d->bytes[v];
      d->arena += d->bytes[v];
    }
    slot_free_at[best] = last;
    opsched_report_buffer *b = &d->bufs[d->nbufs++];
    b->offset = slot_off[best];
    b->size = d->bytes[v];
    b->first = i;
    b->last = last;
    b->slot = best;
    b->node = v;
  }
  free(pos);
  free(slot_off);
  free(slot_size);
  free(slot_free_at);
}

static void demo_init(demo *d, opsched_graph *g, int streams,
                      const char *const *names, const int64_t *bytes) {
  memset(d, 0, sizeof *d);
  d->g = g;
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.streams = streams;
  CHECK(opsched_schedule_run(g, &o, &d->s) == OPSCHED_OK);
  int32_t n = opsched_graph_num_nodes(g);
  d->labels = calloc((size_t)n + 1, sizeof *d->labels);
  d->locs = calloc((size_t)n + 1, sizeof *d->locs);
  d->bytes = calloc((size_t)n + 1, sizeof *d->bytes);
  d->mem_o = calloc((size_t)n + 1, sizeof *d->mem_o);
  d->mem_s = calloc((size_t)n + 1, sizeof *d->mem_s);
  int32_t *ident = malloc(sizeof *ident * ((size_t)n + 1));
  for (int32_t v = 0; v < n; v++) {
    char buf[64];
    if (names) {
      d->labels[v] = dup_str(names[v]);
    } else {
      snprintf(buf, sizeof buf, "op%d", (int)v);
      d->labels[v] = dup_str(buf);
    }
    snprintf(buf, sizeof buf, "model.mlir:%d:5", (int)(10 + v));
    d->locs[v] = dup_str(buf);
    d->bytes[v] = bytes ? bytes[v] : 1024 * (1 + (v * 7919) % 64);
    ident[v] = v;
  }
  live_bytes(g, d->bytes, ident, d->mem_o);
  live_bytes(g, d->bytes, opsched_schedule_order(d->s), d->mem_s);
  assign_buffers(d, opsched_schedule_order(d->s));
  free(ident);
}

static opsched_report_block demo_block(const demo *d, const char *title,
                                       int64_t limit) {
  opsched_report_block b;
  memset(&b, 0, sizeof b);
  b.title = title;
  b.graph = d->g;
  b.schedule = d->s;
  b.labels = (const char *const *)d->labels;
  b.locations = (const char *const *)d->locs;
  b.node_bytes = d->bytes;
  b.mem_original = d->mem_o;
  b.mem_scheduled = d->mem_s;
  b.memory_limit = limit;
  b.buffers = d->bufs;
  b.num_buffers = d->nbufs;
  b.arena_size = d->arena;
  return b;
}

static void demo_free(demo *d) {
  int32_t n = opsched_graph_num_nodes(d->g);
  for (int32_t v = 0; v < n; v++) {
    free(d->labels[v]);
    free(d->locs[v]);
  }
  free(d->labels);
  free(d->locs);
  free(d->bytes);
  free(d->mem_o);
  free(d->mem_s);
  free(d->bufs);
  opsched_schedule_destroy(d->s);
  opsched_graph_destroy(d->g);
}

static opsched_graph *graph_of(int n, const int64_t *cost, const int (*e)[2], int m) {
  opsched_graph *g = opsched_graph_create((size_t)n);
  for (int i = 0; i < n; i++)
    opsched_graph_add_node(g, cost ? cost[i] : 1, 1);
  for (int i = 0; i < m; i++)
    opsched_graph_add_edge(g, e[i][0], e[i][1]);
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK);
  return g;
}

static opsched_graph *random_dag(int n, uint64_t seed) {
  opsched_graph *g = opsched_graph_create((size_t)n);
  for (int i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    opsched_graph_add_node(g, 1 + (int64_t)((seed >> 33) % 50), 1);
  }
  for (int v = 1; v < n; v++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    int k = 1 + (int)((seed >> 40) % 3);
    for (int j = 0; j < k; j++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      int back = 1 + (int)((seed >> 33) % (uint64_t)(v < 40 ? v : 40));
      opsched_graph_add_edge(g, v - back, v);
    }
  }
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK);
  return g;
}

/* The whole output of a writer, through a temporary file (C11 only). */
typedef opsched_status (*writer_fn)(FILE *, const opsched_report_module *);

static char *render(writer_fn w, const opsched_report_module *m, size_t *len,
                    opsched_status *st) {
  FILE *f = tmpfile();
  if (!f)
    return NULL;
  *st = w(f, m);
  long size = ftell(f);
  rewind(f);
  char *buf = malloc((size_t)size + 1);
  *len = fread(buf, 1, (size_t)size, f);
  buf[*len] = 0;
  fclose(f);
  return buf;
}

static void write_file(const char *dir, const char *name, const char *text, size_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f)
    return;
  CHECK(fwrite(text, 1, len, f) == len);
  CHECK(fclose(f) == 0);
}

static int contains(const char *hay, const char *needle) { return strstr(hay, needle) != NULL; }

/* opsched_report_block_fill_memory on the seed's graph with one buffer per
 * op (read by its successors; sinks are results): the series equal the
 * core's figures and hand-computed values. */
static void check_fill_memory(int streams) {
  static const int seed_e[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {3, 5}};
  static const int64_t bytes[] = {4096, 8192, 8192, 4096, 2048, 2048};
  opsched_graph *g = graph_of(6, NULL, seed_e, 6);
  opsched_buffers *bufs = opsched_buffers_create(6);
  for (int32_t v = 0; v < 6; v++)
    CHECK_EQ_I64(opsched_buffers_add(bufs, bytes[v], v, v >= 4), v);
  for (int k = 0; k < 6; k++)
    CHECK(opsched_buffers_add_use(bufs, seed_e[k][0], seed_e[k][1]) == OPSCHED_OK);
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.streams = streams;
  o.buffers = bufs;
  opsched_schedule *s = NULL;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_OK);
  opsched_arena *arena = NULL;
  CHECK(opsched_arena_assign(g, s, bufs, 64, &arena) == OPSCHED_OK);
  opsched_report_block b;
  memset(&b, 0, sizeof b);
  b.graph = g;
  b.schedule = s;
  CHECK(opsched_report_block_fill_memory(NULL, bufs, arena, 0) == OPSCHED_ERR_INVALID);
  CHECK(opsched_report_block_fill_memory(&b, NULL, arena, 0) == OPSCHED_ERR_INVALID);
  CHECK(opsched_report_block_fill_memory(&b, bufs, arena, 24576) == OPSCHED_OK);
  int64_t peak = opsched_schedule_peak_memory(s);
  const int32_t *order = opsched_schedule_order(s);
  const int64_t *after = opsched_schedule_live_after(s);
  int64_t max_s = 0, max_o = 0;
  for (int32_t i = 0; i < 6; i++) {
    CHECK_EQ_I64(b.mem_after[i], after[order[i]]);
    max_s = b.mem_scheduled[i] > max_s ? b.mem_scheduled[i] : max_s;
    max_o = b.mem_original[i] > max_o ? b.mem_original[i] : max_o;
  }
  /* The original order a..f: a 4K; +b 8K; +c 8K (a freed after c); +d 4K
   * (b, c freed after d); +e 2K; +f 2K (e and f are results). */
  static const int64_t orig[] = {4096, 12288, 20480, 20480, 6144, 8192};
  for (int32_t i = 0; i < 6; i++)
    CHECK_EQ_I64(b.mem_original[i], orig[i]);
  CHECK_EQ_I64(max_o, opsched_schedule_original_peak_memory(s));
  CHECK_EQ_I64(b.peak_original, 20480);
  CHECK_EQ_I64(b.peak_scheduled, peak);
  CHECK_EQ_I64(b.memory_limit, 24576);
  CHECK_EQ_I64(b.arena_size, opsched_arena_size(arena));
  CHECK_EQ_I64(b.num_buffers, 6);
  if (streams == 1) {
    CHECK_EQ_I64(max_s, peak);
    CHECK(b.mem_time == NULL && b.mem_time_points == 0);
  } else {
    int64_t max_t = 0;
    CHECK(b.mem_time_points > 0);
    for (int32_t i = 0; i < b.mem_time_points; i++) {
      max_t = b.mem_time_bytes[i] > max_t ? b.mem_time_bytes[i] : max_t;
      CHECK(i == 0 || b.mem_time[i] >= b.mem_time[i - 1]);
    }
    CHECK_EQ_I64(max_t, peak);
  }
  int64_t at_peak = 0;
  for (int32_t i = 0; i < b.num_peak_buffers; i++)
    at_peak += b.buffers[b.peak_buffers[i]].size;
  CHECK_EQ_I64(at_peak, peak);
  for (int32_t i = 0; i < b.num_buffers; i++)
    CHECK_EQ_I64(b.buffers[i].offset, opsched_arena_offset(arena, b.buffers[i].slot));
  /* Both writers accept the filled block, and the page shows its peak. */
  opsched_report_function fn = {"@fill", &b, 1};
  opsched_report_module m = {NULL, NULL, &fn, 1};
  size_t len = 0;
  opsched_status st1 = OPSCHED_ERR_STATE, st2 = OPSCHED_ERR_STATE;
  char *html = render(opsched_html_write, &m, &len, &st1);
  char *trace = render(opsched_trace_write, &m, &len, &st2);
  CHECK(st1 == OPSCHED_OK && st2 == OPSCHED_OK);
  char want[64];
  snprintf(want, sizeof want, "id=\"peak-0\" data-value=\"%lld\"", (long long)peak);
  CHECK(html && contains(html, want) && contains(html, "class=\"peakbufs\""));
  CHECK(trace && contains(trace, "\"live bytes\""));
  free(html);
  free(trace);
  opsched_report_block_free_memory(&b);
  CHECK(b.mem_scheduled == NULL && b.buffers == NULL && b.owns_memory == 0);
  opsched_report_block_free_memory(&b); /* twice is harmless */
  opsched_arena_destroy(arena);
  opsched_schedule_destroy(s);
  opsched_buffers_destroy(bufs);
  opsched_graph_destroy(g);
}

/* A frontier for the seed's block: the chosen point (2) is the schedule's
 * (makespan 4, peak 20480); point 4 is dominated by 2, point 1 is the
 * one-stream floor's budget, point 0 the unconstrained run. */
static const int64_t fr_makespan[] = {4, 6, 4, 5, 7};
static const int64_t fr_peak[] = {24576, 12288, 20480, 16384, 20480};
static const int64_t fr_budget[] = {0, 12288, 20000, 16384, 20000};
static const int32_t fr_policy[] = {0, 1, 0, 0, 1};
static const int64_t fr_arena[] = {-1, -1, 20480, -1, -1};

static opsched_report_frontier seed_frontier(void) {
  opsched_report_frontier fr = {5, 2, 0, fr_makespan, fr_peak, fr_budget, fr_policy, fr_arena,
                                12288, 0, 0.01, NULL};
  return fr;
}

/* The frontier view: every point with its numbers, one chosen point
 * (ringed, in the table too), Pareto classes, floor and band, the
 * unconstrained figures in the summary, the JSON, the "no sweep" text and
 * the argument checks. */
static void check_frontier(const char *html, opsched_report_block *seed_b) {
  CHECK(contains(html, "<div class=\"view frontier\" id=\"frontier-0\" data-points=\"5\" "
                       "data-chosen=\"2\">"));
  CHECK(contains(html, "id=\"frontier-pt-0-2\" class=\"pt pareto chosen\""));
  CHECK(contains(html, "data-i=\"2\" data-makespan=\"4\" data-peak=\"20480\""));
  CHECK(contains(html, "id=\"frontier-pt-0-0\" class=\"pt free\"")); /* dominated by 2 */
  CHECK(contains(html, "id=\"frontier-pt-0-4\" class=\"pt\""));      /* dominated by 2 */
  CHECK(contains(html, "id=\"frontier-pt-0-1\" class=\"pt pareto\""));
  CHECK(contains(html, "id=\"frontier-pt-0-3\" class=\"pt pareto\""));
  const char *ring = strstr(html, "<circle class=\"ring\"");
  CHECK(ring && !strstr(ring + 1, "<circle class=\"ring\""));
  CHECK(contains(html, ">chosen: 4 ns, 20.00 KiB</text>"));
  CHECK(contains(html, ">unconstrained: 4 ns, 24.00 KiB</text>"));
  CHECK(contains(html, "<tr class=\"chosen\" data-i=\"2\"><td>3</td><td data-value=\"20000\">"));
  CHECK(contains(html, "class=\"floor\"") && contains(html, "data-value=\"12288\"/>"));
  /* One arena whisker: only point 2 was packed (arena = its peak). */
  const char *wh = strstr(html, "<path class=\"arena\" d=\"M");
  CHECK(wh && contains(wh, "data-i=\"2\" data-arena=\"20480\"/>") &&
        !strstr(wh + 1, "<path class=\"arena"));
  /* best 4 ns, 1% of it floors to 0: the band is the best makespan alone. */
  CHECK(contains(html, "data-best=\"4\" data-top=\"4\""));
  CHECK(contains(html, "id=\"free-makespan-0\" data-value=\"4\""));
  CHECK(contains(html, "id=\"free-peak-0\" data-value=\"24576\""));
  CHECK(contains(html, "\"frontier\":{\"points\":[[4,24576,0,\"critical-path\",null],"
                       "[6,12288,12288,\"min-memory\",null],[4,20480,20000,\"critical-path\","
                       "20480],"));
  CHECK(contains(html, "],\"chosen\":2,\"unconstrained\":0,\"floor_peak\":12288,\"limit\":0,"
                       "\"tolerance\":0.01,\"not_run\":null}"));
  CHECK(contains(html, "id=\"frontier-none-1\">No frontier to draw: test: one run. The schedule came from one run"));
  /* Ill-formed frontiers are rejected, the module untouched. */
  opsched_report_function fn = {"@f", seed_b, 1};
  opsched_report_module m = {NULL, NULL, &fn, 1};
  FILE *null_out = tmpfile();
  const opsched_report_frontier *good = seed_b->frontier;
  opsched_report_frontier bad = *good;
  seed_b->frontier = &bad;
  bad.chosen = 5;
  CHECK(opsched_html_write(null_out, &m) == OPSCHED_ERR_INVALID);
  bad.chosen = 2;
  bad.num_points = 0;
  CHECK(opsched_html_write(null_out, &m) == OPSCHED_ERR_INVALID);
  bad.num_points = 5;
  bad.unconstrained = 7;
  CHECK(opsched_html_write(null_out, &m) == OPSCHED_ERR_INVALID);
  bad.unconstrained = -1;
  CHECK(opsched_html_write(null_out, &m) == OPSCHED_OK);
  seed_b->frontier = good;
  fclose(null_out);
}

int main(int argc, char **argv) {
  check_fill_memory(1);
  check_fill_memory(2);
  const char *dir = argc > 1 ? argv[1] : ".";

  /* The seed: a->b, a->c, b->d, c->d, d->e, d->f, unit costs, 2 streams. */
  static const int seed_e[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {3, 5}};
  static const char *const seed_names[] = {"a", "b", "c", "d", "e", "f"};
  static const int64_t seed_bytes[] = {4096, 8192, 8192, 4096, 2048, 2048};
  demo seed;
  demo_init(&seed, graph_of(6, NULL, seed_e, 6), 2, seed_names, seed_bytes);
  CHECK_EQ_I64(opsched_schedule_makespan(seed.s), 4);

  /* Fork-join: a(1) -> b(2), c(2) -> d(1) on 2 streams: waits a->c, c->d. */
  static const int64_t fj_cost[] = {1, 2, 2, 1};
  static const int fj_e[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
  static const char *const fj_names[] = {"linalg.matmul", "linalg.generic", "linalg.conv_2d", "tensor.concat"};
  demo fj;
  demo_init(&fj, graph_of(4, fj_cost, fj_e, 4), 2, fj_names, NULL);
  CHECK_EQ_I64(opsched_schedule_makespan(fj.s), 4);
  CHECK_EQ_I64(opsched_schedule_num_waits(fj.s), 2);

  /* Labels that need escaping in HTML and JSON; one invalid UTF-8 byte. */
  static const int64_t w_cost[] = {3, 2, 2};
  static const int w_e[][2] = {{0, 1}, {0, 2}};
  static const char *const w_names[] = {"say \"hi\" & <b>bye</b>", "line1\nline2\ttab\\",
                                        "</script><script>alert(1)</script>\xff\xc3\xa9"};
  demo weird;
  demo_init(&weird, graph_of(3, w_cost, w_e, 2), 2, w_names, NULL);

  /* A 5k-op random DAG on 4 streams. */
  demo big;
  demo_init(&big, random_dag(5000, 42), 4, NULL, NULL);

  opsched_report_block seed_b = demo_block(&seed, "^bb0", 24576);
  opsched_report_frontier seed_fr = seed_frontier();
  seed_b.frontier = &seed_fr;
  opsched_report_block fj_b = demo_block(&fj, "^bb0", 0);
  static const int64_t fj_mk[] = {4}, fj_pk[] = {0};
  opsched_report_frontier fj_fr = {1, 0, -1, fj_mk, fj_pk, NULL, NULL, NULL, -1, 0, -1.0,
                                   "test: one run"};
  fj_b.frontier = &fj_fr;
  opsched_report_block weird_b = demo_block(&weird, "^bb0 <\"quoted\" & more>", 0);
  opsched_report_block big_b = demo_block(&big, "^bb0", 0);
  opsched_report_block fj_bare = {0};
  fj_bare.title = "^bb1 (graph and schedule only)";
  fj_bare.graph = fj.g;
  fj_bare.schedule = fj.s;
  opsched_report_block fj_blocks[] = {fj_b, fj_bare};
  opsched_report_function fns[] = {
      {"@seed", &seed_b, 1},
      {"@fork_join", fj_blocks, 2},
      {"@weird<&>\"names\"", &weird_b, 1},
      {"@random_5k", &big_b, 1},
  };
  opsched_report_module mod = {"opsched report: demo module",
                               "op-schedule streams=2/4 (test_report)", fns, 4};

  size_t tlen, hlen, tlen2, hlen2;
  opsched_status st;
  char *trace = render(opsched_trace_write, &mod, &tlen, &st);
  CHECK(st == OPSCHED_OK);
  char *html = render(opsched_html_write, &mod, &hlen, &st);
  CHECK(st == OPSCHED_OK);
  char *trace2 = render(opsched_trace_write, &mod, &tlen2, &st);
  char *html2 = render(opsched_html_write, &mod, &hlen2, &st);
  /* Deterministic: same input, same bytes. */
  CHECK(tlen == tlen2 && memcmp(trace, trace2, tlen) == 0);
  CHECK(hlen == hlen2 && memcmp(html, html2, hlen) == 0);
  write_file(dir, "trace.json", trace, tlen);
  write_file(dir, "report.html", html, hlen);

  /* Key numbers of the seed (block 0) and fork-join (block 1). */
  CHECK(contains(trace, "\"block\":\"^bb0\",\"pid\":1,\"original_pid\":2,\"ops\":6,"
                        "\"streams\":2,\"makespan_ns\":4,\"lower_bound_ns\":4,"
                        "\"critical_path_ns\":4,\"total_work_ns\":6,\"speedup\":1.5000,"
                        "\"waits\":"));
  CHECK(contains(html, "id=\"makespan-0\" data-value=\"4\""));
  CHECK(contains(html, "id=\"speedup-0\" data-value=\"1.5000\""));
  CHECK(contains(html, "id=\"lower-bound-0\" data-value=\"4\""));
  CHECK(contains(html, "id=\"makespan-1\" data-value=\"4\""));
  CHECK(contains(html, "id=\"waits-1\" data-value=\"2\""));
  CHECK(contains(html, "2 after reduction, 2 before"));
  /* Peak of the seed: a(4K) live with b, c (8K each) = 20480 while c runs. */
  CHECK(contains(html, "id=\"peak-0\" data-value=\"20480\""));
  CHECK(contains(trace, "\"peak_original\":20480,\"peak_scheduled\":20480,\"memory_limit\":24576"));
  /* Waits as flows in the slices' category: carried by the slices
   * themselves (bind_id) when a slice has one flow, else by a marker slice
   * per flow on the op's stream (trace_check.py checks every binding). */
  CHECK(contains(trace, ",\"bind_id\":1,\"flow_out\":true}"));
  CHECK(contains(trace, ",\"bind_id\":1,\"flow_in\":true}"));
  CHECK(contains(trace, "{\"ph\":\"X\",\"name\":\"wait\",\"cat\":\"op\","));
  CHECK(contains(trace, "\"flow\":\"out\",\"consumer\":"));
  CHECK(contains(trace, "\"flow\":\"in\",\"producer\":"));
  CHECK(!contains(trace, "{\"ph\":\"s\""));
  CHECK(!contains(trace, "\"cat\":\"wait\""));
  check_frontier(html, &seed_b);
  /* Escaping: nothing from a label reaches the page unescaped. */
  CHECK(!contains(html, "<script>alert(1)"));
  CHECK(!contains(html, "<b>bye</b>"));
  CHECK(contains(html, "say &quot;hi&quot; &amp; &lt;b&gt;bye&lt;/b&gt;"));
  CHECK(contains(html, "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\xEF\xBF\xBD\xC3\xA9"));
  CHECK(contains(trace, "\"line1\\nline2\\ttab\\\\\""));
  CHECK(contains(trace, "\"say \\\"hi\\\" & <b>bye</b>\""));
  CHECK(!contains(trace, "\xff"));
  /* Large blocks: aggregated graph view; the page stays a few MB. */
  CHECK(contains(html, "too many to draw one by one"));
  CHECK(hlen < 4u * 1024 * 1024);
  printf("report.html %zu bytes, trace.json %zu bytes\n", hlen, tlen);

  /* Arguments. */
  opsched_report_block bad = {0};
  opsched_report_function bad_fn = {"@bad", &bad, 1};
  opsched_report_module bad_mod = {NULL, NULL, &bad_fn, 1};
  FILE *null_out = tmpfile();
  CHECK(opsched_trace_write(null_out, &bad_mod) == OPSCHED_ERR_INVALID);
  CHECK(opsched_html_write(null_out, &bad_mod) == OPSCHED_ERR_INVALID);
  CHECK(opsched_html_write(null_out, NULL) == OPSCHED_ERR_INVALID);
  CHECK(opsched_trace_write(NULL, &mod) == OPSCHED_ERR_INVALID);
  bad.graph = fj.g;
  bad.schedule = seed.s; /* 4 nodes vs 6 */
  CHECK(opsched_trace_write(null_out, &bad_mod) == OPSCHED_ERR_INVALID);
  /* An empty module is fine. */
  opsched_report_module empty = {NULL, NULL, NULL, 0};
  CHECK(opsched_trace_write(null_out, &empty) == OPSCHED_OK);
  CHECK(opsched_html_write(null_out, &empty) == OPSCHED_OK);
  fclose(null_out);

  /* Many blocks: the first 1000 drawn, the rest their summary only. */
  enum { MANY = 1001 };
  opsched_report_block *many = calloc(MANY, sizeof *many);
  CHECK(many != NULL);
  for (int k = 0; many && k < MANY; k++)
    many[k] = fj_b;
  opsched_report_function many_fn = {"@many", many, MANY};
  opsched_report_module many_mod = {NULL, NULL, &many_fn, 1};
  size_t lm;
  char *hm = many ? render(opsched_html_write, &many_mod, &lm, &st) : NULL;
  CHECK(hm && st == OPSCHED_OK);
  if (hm) {
    CHECK(contains(hm, "id=\"gantt-999\""));
    CHECK(contains(hm, "class=\"opsched-data\" data-block=\"999\""));
    CHECK(contains(hm, "id=\"makespan-1000\" data-value=\"4\""));
    CHECK(!contains(hm, "id=\"gantt-1000\""));
    CHECK(!contains(hm, "id=\"frontier-1000\""));
    CHECK(!contains(hm, "class=\"opsched-data\" data-block=\"1000\""));
    const char *note = strstr(hm, "Views left out: a page draws its first 1000 blocks of 1001;");
    CHECK(note && note > strstr(hm, "id=\"block-1000\""));
    CHECK(note && !strstr(note + 1, "Views left out"));
  }
  free(hm);
  free(many);

  /* 10k ops on 4 streams: both files stay a few MB. */
  demo huge;
  demo_init(&huge, random_dag(10000, 7), 4, NULL, NULL);
  opsched_report_block huge_b = demo_block(&huge, "^bb0", 0);
  opsched_report_function huge_fn = {"@random_10k", &huge_b, 1};
  opsched_report_module huge_mod = {NULL, NULL, &huge_fn, 1};
  size_t l10;
  char *h10 = render(opsched_html_write, &huge_mod, &l10, &st);
  CHECK(st == OPSCHED_OK);
  CHECK(l10 < 5u * 1024 * 1024);
  printf("10k-op report.html %zu bytes\n", l10);
  free(h10);
  char *t10 = render(opsched_trace_write, &huge_mod, &l10, &st);
  CHECK(st == OPSCHED_OK);
  CHECK(l10 < 8u * 1024 * 1024);
  printf("10k-op trace.json %zu bytes\n", l10);
  free(t10);
  demo_free(&huge);

  free(trace);
  free(trace2);
  free(html);
  free(html2);
  demo_free(&seed);
  demo_free(&fj);
  demo_free(&weird);
  demo_free(&big);
  return check_report("test_report");
}
