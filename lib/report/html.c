/* lib/report/html.c - the self-contained HTML report (inline SVG + a little
 * JS). See opsched_html_write in opsched/report.h. The fixed CSS/JS live in
 * html_template.c; this file writes the per-block markup and data. */
#include "report_internal.h"

#include "opsched/frontier.h"

#include "../core/alloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Limits that keep a 10k-op block at a few MB. */
#define MAX_GRAPH_EDGES 6000  /* beyond: aggregated graph view */
#define MAX_LEVEL_BARS 200    /* bars of the aggregated graph view */
#define MAX_MEM_POINTS 1500   /* memory series: max per bucket beyond */
#define MAX_BUFFERS_DRAWN 4000
#define MAX_WAITS_DRAWN 4000
#define MAX_GANTT_LABELS 300  /* op names written inside Gantt bars */
/* Blocks drawn per page; later ones get their summary only. A module of
 * 10,000 small functions made a 281 MB page in 2.6 s (issue 16). */
#define MAX_BLOCK_VIEWS 1000

/* ---- Formatting ------------------------------------------------------- */

/* HTML-escapes at most `maxc` code points of `s`, with an ellipsis when cut. */
static void html_trunc(FILE *out, const char *s, int maxc) {
  char buf[256];
  if (maxc > 60)
    maxc = 60;
  size_t i = 0;
  int chars = 0;
  while (s[i] && i + 4 < sizeof buf) {
    if (((unsigned char)s[i] & 0xC0) != 0x80) {
      if (chars == maxc)
        break;
      chars++;
    }
    buf[i] = s[i];
    i++;
  }
  buf[i] = 0;
  opsched_rep_html_str(out, buf);
  if (s[i])
    fputs("\xE2\x80\xA6", out);
}

/* ---- Per-block context ------------------------------------------------ */

typedef struct block_ctx {
  FILE *out;
  const opsched_report_block *b;
  const char *fname, *bname;
  int32_t index; /* global block index: element ids */
  int32_t n;
  int32_t *pos; /* node id -> position in the sequential order */
} block_ctx;

/* ---- Summary ---------------------------------------------------------- */

static void row(block_ctx *c, const char *key, const char *name,
                const char *value_text, const char *raw, const char *note) {
  FILE *out = c->out;
  fprintf(out, "<tr data-key=\"%s\"><th>", key);
  opsched_rep_html_str(out, name);
  fprintf(out, "</th><td id=\"%s-%" PRId32 "\" data-value=\"%s\">", key, c->index, raw);
  opsched_rep_html_str(out, value_text);
  fputs("</td><td class=\"note\">", out);
  opsched_rep_html_str(out, note ? note : "");
  fputs("</td></tr>\n", out);
}

/* The unconstrained schedule's figures beside the chosen ones (the
 * frontier's, opsched.unconstrained_*), when the frontier ran it. */
static void frontier_rows(block_ctx *c, int64_t mk, int64_t peak) {
  const opsched_report_frontier *fr = c->b->frontier;
  if (!fr || fr->unconstrained < 0)
    return;
  char v[48], raw[32], note[160];
  int64_t fm = fr->makespan[fr->unconstrained], fp = fr->peak[fr->unconstrained];
  opsched_rep_fmt_ns(v, sizeof v, fm);
  snprintf(raw, sizeof raw, "%" PRId64, fm);
  snprintf(note, sizeof note, "no memory limit, critical path; chosen makespan %+.2f%%",
           fm > 0 ? 100.0 * (double)(mk - fm) / (double)fm : 0.0);
  row(c, "free-makespan", "Unconstrained makespan", v, raw, note);
  opsched_rep_fmt_bytes(v, sizeof v, fp);
  snprintf(raw, sizeof raw, "%" PRId64, fp);
  snprintf(note, sizeof note, "chosen peak %+.1f%%",
           fp > 0 ? 100.0 * (double)(peak - fp) / (double)fp : 0.0);
  row(c, "free-peak", "Unconstrained peak", v, raw, note);
}

static void write_summary(block_ctx *c) {
  FILE *out = c->out;
  const opsched_report_block *b = c->b;
  const opsched_schedule *s = b->schedule;
  char v[160], raw[48], note[200], t1[48], t2[48];
  int64_t mk = opsched_schedule_makespan(s), work = opsched_schedule_total_work(s);
  int64_t lb = opsched_schedule_lower_bound(s), cp = opsched_schedule_critical_path(s);
  int32_t streams = opsched_schedule_stream_count(s);

  fprintf(out, "<div class=\"view summary\" id=\"summary-view-%" PRId32
               "\"><h4>Summary</h4>\n<table class=\"summary\" id=\"summary-%" PRId32
               "\">\n",
          c->index, c->index);
  snprintf(v, sizeof v, "%" PRId32, c->n);
  snprintf(note, sizeof note, "%" PRId64 " dependency edges",
           opsched_graph_num_edges(b->graph));
  row(c, "ops", "Ops", v, v, note);
  /* The streams the schedule uses, as opsched.streams; the option's count
   * beside it when some stay idle. */
  int32_t used = opsched_schedule_streams_used(s);
  snprintf(v, sizeof v, "%" PRId32, used);
  if (used < streams)
    snprintf(note, sizeof note, "of %" PRId32 " requested; capacity %" PRId32, streams,
             opsched_schedule_resource_limit(s));
  else
    snprintf(note, sizeof note, "capacity %" PRId32, opsched_schedule_resource_limit(s));
  row(c, "streams", "Streams", v, v, note);
  opsched_rep_fmt_ns(v, sizeof v, mk);
  snprintf(raw, sizeof raw, "%" PRId64, mk);
  if (lb > 0 && mk > lb)
    snprintf(note, sizeof note, "%.1f%% above the lower bound", 100.0 * (double)(mk - lb) / (double)lb);
  else
    snprintf(note, sizeof note, "meets the lower bound: optimal");
  row(c, "makespan", "Makespan", v, raw, note);
  opsched_rep_fmt_ns(v, sizeof v, work);
  snprintf(raw, sizeof raw, "%" PRId64, work);
  row(c, "original", "Original order, 1 stream", v, raw, "sum of op costs");
  snprintf(v, sizeof v, "%.2f\xC3\x97", opsched_schedule_speedup(s));
  snprintf(raw, sizeof raw, "%.4f", opsched_schedule_speedup(s));
  row(c, "speedup", "Speedup", v, raw, "original order on one stream / makespan");
  opsched_rep_fmt_ns(v, sizeof v, lb);
  snprintf(raw, sizeof raw, "%" PRId64, lb);
  opsched_rep_fmt_ns(t1, sizeof t1, cp);
  snprintf(note, sizeof note, "max(critical path %s, work / %" PRId32 " streams)", t1, streams);
  row(c, "lower-bound", "Lower bound", v, raw, note);
  opsched_rep_fmt_ns(v, sizeof v, cp);
  snprintf(raw, sizeof raw, "%" PRId64, cp);
  int32_t ncrit = 0;
  for (int32_t i = 0; i < c->n; i++)
    ncrit += opsched_schedule_critical(s)[i] != 0;
  snprintf(note, sizeof note, "%" PRId32 " ops on a critical path (red)", ncrit);
  row(c, "critical-path", "Critical path", v, raw, note);
  snprintf(v, sizeof v, "%" PRId64 " after reduction, %" PRId64 " before",
           opsched_schedule_num_waits(s), opsched_schedule_num_waits_unreduced(s));
  snprintf(raw, sizeof raw, "%" PRId64, opsched_schedule_num_waits(s));
  row(c, "waits", "Cross-stream waits", v, raw,
      "before: edges across streams; after: the minimal set");

  int64_t po = opsched_rep_peak_original(b), ps = opsched_rep_peak_scheduled(b);
  if (b->mem_original || b->mem_scheduled) {
    opsched_rep_fmt_bytes(t1, sizeof t1, po);
    opsched_rep_fmt_bytes(t2, sizeof t2, ps);
    snprintf(v, sizeof v, "%s \xE2\x86\x92 %s", b->mem_original ? t1 : "?",
             b->mem_scheduled ? t2 : "?");
    snprintf(raw, sizeof raw, "%" PRId64, ps);
    if (b->mem_original && b->mem_scheduled && po > 0)
      snprintf(note, sizeof note, "original %" PRId64 " B, schedule %" PRId64
               " B (%+.1f%%)", po, ps, 100.0 * (double)(ps - po) / (double)po);
    else
      snprintf(note, sizeof note, "original %" PRId64 " B, schedule %" PRId64 " B", po, ps);
    row(c, "peak", "Peak memory", v, raw, note);
  }
  if (b->memory_limit > 0) {
    opsched_rep_fmt_bytes(v, sizeof v, b->memory_limit);
    snprintf(raw, sizeof raw, "%" PRId64, b->memory_limit);
    row(c, "limit", "Memory limit", v, raw,
        !b->mem_scheduled ? "" : ps <= b->memory_limit ? "met" : "NOT met");
  }
  if (opsched_rep_arena(b) > 0) {
    int64_t arena = opsched_rep_arena(b);
    opsched_rep_fmt_bytes(v, sizeof v, arena);
    snprintf(raw, sizeof raw, "%" PRId64, arena);
    snprintf(note, sizeof note, "%" PRId32 " buffers", b->num_buffers);
    row(c, "arena", "Arena size", v, raw, note);
    /* As opsched.fragmentation: how far the arena is above the peak of
     * live bytes, the lower bound of any arena. */
    double frag = ps > 0 && b->mem_scheduled ? (double)arena / (double)ps - 1.0 : 0.0;
    snprintf(v, sizeof v, "%.1f%%", 100.0 * frag);
    snprintf(raw, sizeof raw, "%.17g", frag);
    row(c, "fragmentation", "Fragmentation", v, raw, "arena size / schedule peak - 1");
  }
  frontier_rows(c, mk, opsched_schedule_peak_memory(s));
  fputs("</table>\n", out);

  /* Speedup at a glance: the two lengths on one scale. */
  int64_t big = work > mk ? work : mk;
  double wo = big ? 100.0 * (double)work / (double)big : 0, ws = big ? 100.0 * (double)mk / (double)big : 0;
  opsched_rep_fmt_ns(t1, sizeof t1, work);
  opsched_rep_fmt_ns(t2, sizeof t2, mk);
  fprintf(out,
          "<svg class=\"bars\" width=\"100%%\" height=\"52\" role=\"img\" aria-label=\"length comparison\">"
          "<rect class=\"orig\" x=\"0\" y=\"4\" width=\"%.4f%%\" height=\"18\"/>"
          "<text x=\"4\" y=\"17\">original order, 1 stream: %s</text>"
          "<rect class=\"sched\" x=\"0\" y=\"28\" width=\"%.4f%%\" height=\"18\"/>"
          "<text x=\"4\" y=\"41\">schedule, %" PRId32 " stream%s: %s</text></svg>\n",
          wo, t1, ws, streams, streams == 1 ? "" : "s", t2);
  fputs("</div>\n", out);
}

/* ---- Dependency graph ------------------------------------------------- */

typedef struct lvl_rec {
  double key;
  int32_t level, pos, v;
} lvl_rec;

static int cmp_lvl(const void *pa, const void *pb) {
  const lvl_rec *a = pa, *b = pb;
  if (a->level != b->level)
    return a->level < b->level ? -1 : 1;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return a->pos < b->pos ? -1 : a->pos > b->pos;
}

#define NODE_W 150
#define NODE_H 36
#define GAP_X 18
#define GAP_Y 44

static int hot_edge(const opsched_report_block *b, int32_t u, int32_t v) {
  const uint8_t *crit = opsched_schedule_critical(b->schedule);
  const int64_t *rank = opsched_schedule_ranks(b->schedule);
  return crit[u] && crit[v] && rank[u] == opsched_graph_cost(b->graph, u) + rank[v];
}

static void graph_aggregated(block_ctx *c, const int32_t *level, int32_t nlev) {
  FILE *out = c->out;
  const uint8_t *crit = opsched_schedule_critical(c->b->schedule);
  int32_t nb = nlev < MAX_LEVEL_BARS ? nlev : MAX_LEVEL_BARS;
  int64_t *cnt = opsched_alloc_array((size_t)nb * 2, sizeof *cnt);
  if (!cnt)
    return;
  int32_t widest = 0;
  int32_t *per = opsched_alloc_array((size_t)nlev, sizeof *per);
  for (int32_t v = 0; v < c->n; v++) {
    int32_t k = (int32_t)((int64_t)level[v] * nb / nlev);
    cnt[2 * k]++;
    cnt[2 * k + 1] += crit[v] != 0;
    if (per && ++per[level[v]] > widest)
      widest = per[level[v]];
  }
  opsched_free(per);
  int64_t maxc = 1;
  for (int32_t k = 0; k < nb; k++)
    if (cnt[2 * k] > maxc)
      maxc = cnt[2 * k];
  fprintf(out,
          "<p class=\"caption\">%" PRId32 " ops, %" PRId64 " edges in %" PRId32
          " topological levels (widest %" PRId32 "): too many to draw one by one. "
          "Bars: ops per level%s; red: ops on a critical path.</p>\n"
          "<svg class=\"levels\" width=\"100%%\" height=\"190\" role=\"img\" aria-label=\"ops per level\">\n",
          c->n, opsched_graph_num_edges(c->b->graph), nlev, widest,
          nb < nlev ? " (levels grouped)" : "");
  double w = 100.0 / nb;
  for (int32_t k = 0; k < nb; k++) {
    double h = 160.0 * (double)cnt[2 * k] / (double)maxc;
    double hc = 160.0 * (double)cnt[2 * k + 1] / (double)maxc;
    int32_t l0 = (int32_t)(((int64_t)k * nlev + nb - 1) / nb);
    int32_t l1 = (int32_t)(((int64_t)(k + 1) * nlev + nb - 1) / nb) - 1;
    fprintf(out,
            "<g data-tip=\"levels %" PRId32 "-%" PRId32 ": %" PRId64 " ops, %" PRId64
            " critical\"><rect class=\"lvl\" x=\"%.4f%%\" y=\"%.1f\" width=\"%.4f%%\" height=\"%.1f\"/>"
            "<rect class=\"lvl crit\" x=\"%.4f%%\" y=\"%.1f\" width=\"%.4f%%\" height=\"%.1f\"/></g>\n",
            l0, l1, cnt[2 * k], cnt[2 * k + 1], k * w, 170.0 - h, w * 0.85, h, k * w,
            170.0 - hc, w * 0.85, hc);
  }
  fprintf(out, "<text x=\"0\" y=\"186\">level 0</text><text x=\"100%%\" y=\"186\" "
               "text-anchor=\"end\">level %" PRId32 "</text></svg>\n",
          nlev - 1);
  opsched_free(cnt);
}

/* The drawn graph folds zero-cost ops (constants, empty tensors, views):
 * they carry no time and clutter the picture. An edge u -> v is drawn when
 * v depends on u through folded ops only; each node counts the folded ops
 * that feed it. Nothing is folded when every op costs 0. */
typedef struct folded {
  uint8_t *hidden;
  int32_t *pred; /* n x n: visible preds of v at pred[v * n ..] */
  int32_t *npred, *nfold, *stamp, *stack;
  int32_t nhidden;
} folded;

static void folded_free(folded *f) {
  opsched_free(f->hidden);
  opsched_free(f->pred);
  opsched_free(f->npred);
  opsched_free(f->nfold);
  opsched_free(f->stamp);
  opsched_free(f->stack);
}

static int folded_build(folded *f, const opsched_graph *g, int32_t n) {
  memset(f, 0, sizeof *f);
  f->hidden = opsched_alloc_array((size_t)n, 1);
  f->pred = opsched_alloc_array((size_t)n * (size_t)n, sizeof *f->pred);
  f->npred = opsched_alloc_array((size_t)n, sizeof *f->npred);
  f->nfold = opsched_alloc_array((size_t)n, sizeof *f->nfold);
  f->stamp = opsched_alloc_array((size_t)n, sizeof *f->stamp);
  f->stack = opsched_alloc_array((size_t)n, sizeof *f->stack);
  if (!f->hidden || !f->pred || !f->npred || !f->nfold || !f->stamp || !f->stack)
    return 0;
  int any = 0;
  for (int32_t v = 0; v < n; v++)
    any |= opsched_graph_cost(g, v) > 0;
  for (int32_t v = 0; any && v < n; v++)
    if (opsched_graph_cost(g, v) == 0) {
      f->hidden[v] = 1;
      f->nhidden++;
    }
  for (int32_t v = 0; v < n; v++) {
    if (f->hidden[v])
      continue;
    int32_t top = 0;
    f->stack[top++] = v;
    while (top > 0) {
      int32_t w = f->stack[--top], np;
      const int32_t *p = opsched_graph_preds(g, w, &np);
      for (int32_t k = 0; k < np; k++) {
        if (f->stamp[p[k]] == v + 1)
          continue;
        f->stamp[p[k]] = v + 1;
        if (f->hidden[p[k]]) {
          f->nfold[v]++;
          f->stack[top++] = p[k];
        } else {
          f->pred[(size_t)v * (size_t)n + (size_t)f->npred[v]++] = p[k];
        }
      }
    }
  }
  return 1;
}

static void graph_drawn(block_ctx *c, const int32_t *topo, lvl_rec *rec, double *xs) {
  FILE *out = c->out;
  const opsched_report_block *b = c->b;
  const opsched_graph *g = b->graph;
  int32_t n = c->n, nlev = 0, widest = 0;
  folded f = {0};
  int32_t *level = opsched_alloc_array((size_t)n, sizeof *level);
  int32_t *cnt = opsched_alloc_array((size_t)n + 1, sizeof *cnt);
  if (!level || !cnt || !folded_build(&f, g, n))
    goto done;
  for (int32_t i = 0; i < n; i++) {
    int32_t v = topo[i], l = 0;
    const int32_t *p = f.pred + (size_t)v * (size_t)n;
    for (int32_t k = 0; !f.hidden[v] && k < f.npred[v]; k++)
      if (level[p[k]] + 1 > l)
        l = level[p[k]] + 1;
    level[v] = l;
    if (!f.hidden[v] && l + 1 > nlev)
      nlev = l + 1;
    if (!f.hidden[v] && ++cnt[l] > widest)
      widest = cnt[l];
  }
  /* Layered layout: rows are levels; within a row, barycenter of the
   * predecessors' columns (placed first: they sit on earlier rows). */
  double width = widest * (NODE_W + GAP_X) + GAP_X;
  double height = nlev * (NODE_H + GAP_Y) + GAP_Y / 2;
  for (int32_t l = 0, i0 = 0; l < nlev; l++) {
    int32_t m = 0;
    for (int32_t v = 0; v < n; v++) {
      if (f.hidden[v] || level[v] != l)
        continue;
      const int32_t *p = f.pred + (size_t)v * (size_t)n;
      double sum = 0;
      for (int32_t k = 0; k < f.npred[v]; k++)
        sum += xs[p[k]];
      rec[i0 + m] = (lvl_rec){f.npred[v] ? sum / f.npred[v] : (double)c->pos[v] * 1e-6, l,
                              c->pos[v], v};
      m++;
    }
    qsort(rec + i0, (size_t)m, sizeof *rec, cmp_lvl);
    double left = (width - m * (NODE_W + GAP_X) + GAP_X) / 2;
    for (int32_t k = 0; k < m; k++)
      xs[rec[i0 + k].v] = left + k * (NODE_W + GAP_X);
    i0 += m;
  }
  fprintf(out,
          "<p class=\"caption\">Top to bottom in dependency order; the number is the op's "
          "position in the schedule's sequential order. Red: the critical path "
          "(%" PRId32 " levels).",
          nlev);
  if (f.nhidden > 0)
    fprintf(out, " %" PRId32 " zero-cost ops (constants, empty tensors, views) are folded "
                 "into the ops they feed (&ldquo;+k folded&rdquo;).", f.nhidden);
  fprintf(out, "</p>\n<div class=\"scroll\"><svg class=\"dag\" width=\"%.0f\" "
               "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"dependency graph\">\n",
          width, height, width, height);
  for (int pass = 0; pass < 2; pass++)
    for (int32_t v = 0; v < n; v++) {
      const int32_t *p = f.pred + (size_t)v * (size_t)n;
      for (int32_t k = 0; !f.hidden[v] && k < f.npred[v]; k++) {
        int32_t u = p[k];
        int hot = hot_edge(b, u, v);
        if (hot != pass)
          continue;
        double x1 = xs[u] + NODE_W / 2.0, y1 = GAP_Y / 2.0 + level[u] * (NODE_H + GAP_Y) + NODE_H;
        double x2 = xs[v] + NODE_W / 2.0, y2 = GAP_Y / 2.0 + level[v] * (NODE_H + GAP_Y);
        fprintf(out, "<path class=\"edge%s\" d=\"M%.1f %.1fC%.1f %.1f %.1f %.1f %.1f %.1f\"/>\n",
                hot ? " crit" : "", x1, y1, x1, y1 + GAP_Y * 0.6, x2, y2 - GAP_Y * 0.6, x2, y2);
      }
    }
  const uint8_t *crit = opsched_schedule_critical(b->schedule);
  for (int32_t v = 0; v < n; v++) {
    if (f.hidden[v])
      continue;
    char buf[32];
    fprintf(out,
            "<g class=\"node%s\" data-b=\"%" PRId32 "\" data-n=\"%" PRId32
            "\" transform=\"translate(%.1f %.1f)\"><rect width=\"%d\" height=\"%d\" rx=\"5\"/>"
            "<text x=\"7\" y=\"15\"><tspan class=\"num\">%" PRId32 "</tspan> ",
            crit[v] ? " crit" : "", c->index, v, xs[v],
            GAP_Y / 2.0 + level[v] * (NODE_H + GAP_Y), NODE_W, NODE_H, c->pos[v]);
    html_trunc(out, opsched_rep_label(b, v, buf, sizeof buf), 16);
    fputs("</text><text class=\"small\" x=\"7\" y=\"30\">", out);
    opsched_rep_fmt_ns(buf, sizeof buf, opsched_graph_cost(g, v));
    fprintf(out, "cost %s", buf);
    if (f.nfold[v] > 0)
      fprintf(out, " &middot; +%" PRId32 " folded", f.nfold[v]);
    fputs("</text></g>\n", out);
  }
  fputs("</svg></div>\n", out);
done:
  folded_free(&f);
  opsched_free(level);
  opsched_free(cnt);
}

static void write_graph(block_ctx *c) {
  FILE *out = c->out;
  const opsched_report_block *b = c->b;
  const opsched_graph *g = b->graph;
  int32_t n = c->n;
  fprintf(out, "<div class=\"view graph\" id=\"graph-%" PRId32 "\"><h4>Dependency graph</h4>\n", c->index);
  if (n == 0) {
    fputs("<p class=\"none\">No ops.</p></div>\n", out);
    return;
  }
  int32_t *topo = opsched_alloc_array((size_t)n, sizeof *topo);
  int32_t *level = opsched_alloc_array((size_t)n, sizeof *level);
  lvl_rec *rec = opsched_alloc_array((size_t)n, sizeof *rec);
  double *xs = opsched_alloc_array((size_t)n, sizeof *xs);
  if (!topo || !level || !rec || !xs)
    goto done;
  opsched_graph_topo_order(g, topo);
  int32_t nlev = 0;
  for (int32_t i = 0; i < n; i++) {
    int32_t v = topo[i], np;
    const int32_t *p = opsched_graph_preds(g, v, &np);
    int32_t l = 0;
    for (int32_t k = 0; k < np; k++)
      if (level[p[k]] + 1 > l)
        l = level[p[k]] + 1;
    level[v] = l;
    if (l + 1 > nlev)
      nlev = l + 1;
  }
  if (n > OPSCHED_REPORT_GRAPH_MAX_NODES || opsched_graph_num_edges(g) > MAX_GRAPH_EDGES) {
    graph_aggregated(c, level, nlev);
    goto done;
  }
  graph_drawn(c, topo, rec, xs);
done:
  opsched_free(topo);
  opsched_free(level);
  opsched_free(rec);
  opsched_free(xs);
  fputs("</div>\n", out);
}

/* ---- Memory ----------------------------------------------------------- */

#define MX0 84.0
#define MX1 984.0
#define MY0 18.0
#define MY1 218.0

static double mem_x(int64_t i, int32_t n) { return MX0 + (MX1 - MX0) * (double)i / (double)(n ? n : 1); }

static void mem_series(FILE *out, const int64_t *a, int32_t n, double ymax,
                       const char *cls) {
  int32_t bucket = (n + MAX_MEM_POINTS - 1) / MAX_MEM_POINTS;
  if (bucket < 1)
    bucket = 1;
  fprintf(out, "<polyline class=\"%s\" points=\"", cls);
  for (int32_t i = 0; i < n; i += bucket) {
    int64_t m = 0;
    int32_t e = i + bucket < n ? i + bucket : n;
    for (int32_t j = i; j < e; j++)
      if (a[j] > m)
        m = a[j];
    double y = MY1 - (MY1 - MY0) * (double)m / ymax;
    fprintf(out, "%.1f,%.1f %.1f,%.1f ", mem_x(i, n), y, mem_x(e, n), y);
  }
  fputs("\"/>\n", out);
}

/* A tick step for bytes: a nice number of B, KiB, MiB or GiB. */
static int64_t nice_bytes_step(int64_t top) {
  int64_t unit = 1;
  while (unit < ((int64_t)1 << 30) && top / unit >= 4096)
    unit *= 1024;
  return opsched_rep_nice_step(top / unit > 0 ? top / unit : 1, 4) * unit;
}

static void y_axis(FILE *out, int64_t top, double ymax, int bytes) {
  int64_t step = bytes ? nice_bytes_step(top) : opsched_rep_nice_step(top, 4);
  for (int64_t t = 0; (double)t <= ymax; t += step) {
    double y = MY1 - (MY1 - MY0) * (double)t / ymax;
    char buf[48];
    if (bytes && t % ((int64_t)1 << 30) == 0 && t)
      snprintf(buf, sizeof buf, "%" PRId64 " GiB", t >> 30);
    else if (bytes && t % ((int64_t)1 << 20) == 0 && t)
      snprintf(buf, sizeof buf, "%" PRId64 " MiB", t >> 20);
    else if (bytes && t % 1024 == 0 && t)
      snprintf(buf, sizeof buf, "%" PRId64 " KiB", t >> 10);
    else if (bytes)
      opsched_rep_fmt_bytes(buf, sizeof buf, t);
    else
      snprintf(buf, sizeof buf, "%" PRId64, t);
    fprintf(out, "<line class=\"grid\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                 "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
            MX0, MX1, y, y, MX0 - 6, y + 4, buf);
    if (step > INT64_MAX - t)
      break;
  }
}

/* A peak marker: a dot and its label, placed so that two labels never
 * overlap and none leaves the plot. */
typedef struct peak_mark {
  double x, y;
  int below;
  const char *cls, *what;
  int64_t bytes;
  const char *label; /* op at the peak; NULL = none */
} peak_mark;

/* A label's horizontal extent, estimated at 6.6 units per character. */
static void mark_extent(const peak_mark *m, double *x0, double *x1) {
  size_t chars = strlen(m->what) + 18 + (m->label ? 4 + (strlen(m->label) < 24 ? strlen(m->label) : 25) : 0);
  double w = 6.6 * (double)chars;
  int right = m->x < (MX0 + MX1) / 2;
  *x0 = right ? m->x + 8 : m->x - 8 - w;
  *x1 = right ? m->x + 8 + w : m->x - 8;
}

static double mark_text_y(const peak_mark *m) { return m->y + (m->below ? 16 : -7); }

static int marks_collide(const peak_mark *a, const peak_mark *b) {
  double a0, a1, b0, b1, dy = mark_text_y(a) - mark_text_y(b);
  mark_extent(a, &a0, &a1);
  mark_extent(b, &b0, &b1);
  return a0 < b1 && b0 < a1 && dy < 16 && dy > -16;
}

static void place_marks(peak_mark *m, int count) {
  for (int i = 0; i < count; i++)
    m[i].below = m[i].y - 6 < MY0 + 12;
  for (int i = 0; i < count; i++)
    for (int j = i + 1; j < count; j++) {
      if (!marks_collide(&m[i], &m[j]))
        continue;
      /* The lower point's label goes under it; when that is already so,
       * the higher one's goes above. */
      peak_mark *lo = m[i].y > m[j].y ? &m[i] : &m[j], *hi = lo == &m[i] ? &m[j] : &m[i];
      if (!lo->below)
        lo->below = 1;
      else
        hi->below = 0;
    }
}

/* 1 when the limit's label, at the right end, would touch a peak label. */
static int limit_label_left(const peak_mark *m, int count, double y) {
  for (int i = 0; i < count; i++) {
    double x0, x1, ty = mark_text_y(&m[i]);
    mark_extent(&m[i], &x0, &x1);
    if (x1 > MX1 - 110 && ty - (y - 4) < 16 && (y - 4) - ty < 16)
      return 1;
    if (m[i].x > MX1 - 110 && m[i].y - y < 22 && y - m[i].y < 22)
      return 1;
  }
  return 0;
}

static void draw_mark(FILE *out, const peak_mark *m) {
  char bytes[48];
  opsched_rep_fmt_bytes(bytes, sizeof bytes, m->bytes);
  int right = m->x < (MX0 + MX1) / 2;
  fprintf(out,
          "<g class=\"peak %s\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/><text x=\"%.1f\" "
          "y=\"%.1f\" text-anchor=\"%s\">%s peak %s",
          m->cls, m->x, m->y, m->x + (right ? 8 : -8), mark_text_y(m),
          right ? "start" : "end", m->what, bytes);
  if (m->label) {
    fputs(" at ", out);
    html_trunc(out, m->label, 24);
  }
  fputs("</text></g>\n", out);
}

static int32_t argmax(const int64_t *a, int32_t n) {
  int32_t at = 0;
  for (int32_t i = 1; i < n; i++)
    if (a[i] > a[at])
      at = i;
  return at;
}

static void limit_line(FILE *out, int64_t limit, double ymax, int left) {
  double y = MY1 - (MY1 - MY0) * (double)limit / ymax;
  char buf[48];
  opsched_rep_fmt_bytes(buf, sizeof buf, limit);
  fprintf(out, "<line class=\"limit\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>"
               "<text class=\"limit\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"%s\">limit %s</text>\n",
          MX0, MX1, y, y, left ? MX0 + 6 : MX1, y - 4, left ? "start" : "end", buf);
}

/* One stream: both orders by position, live bytes while each op runs (the
 * maximum is the peak the attributes give). */
static void mem_by_position(block_ctx *c) {
  FILE *out = c->out;
  const opsched_report_block *b = c->b;
  int32_t n = c->n;
  int64_t po = opsched_rep_peak_original(b), ps = opsched_rep_peak_scheduled(b);
  int64_t top = po > ps ? po : ps;
  if (b->memory_limit > top)
    top = b->memory_limit;
  double ymax = top > 0 ? (double)top * 1.12 : 1.0;
  fprintf(out, "<p class=\"legend\">%s<span class=\"key sched\"></span>schedule %s"
               "&mdash; live bytes <b>while</b> the op at each position runs (its maximum "
               "is the peak; an op's <code>opsched.live_bytes</code> is the count right "
               "after it)</p>\n",
          b->mem_original ? "<span class=\"key orig\"></span>original order " : "",
          b->memory_limit > 0 ? "<span class=\"key limit\"></span>limit " : "");
  fputs("<svg class=\"mem\" viewBox=\"0 0 1000 250\" width=\"100%\" role=\"img\" "
        "aria-label=\"live bytes over time\">\n",
        out);
  y_axis(out, top, ymax, 1);
  if (b->mem_original)
    mem_series(out, b->mem_original, n, ymax, "orig");
  if (b->mem_scheduled)
    mem_series(out, b->mem_scheduled, n, ymax, "sched");
  peak_mark m[2];
  int nm = 0;
  char lb[2][32];
  if (b->mem_original) {
    int32_t at = argmax(b->mem_original, n);
    m[nm++] = (peak_mark){mem_x(at, n) + (mem_x(at + 1, n) - mem_x(at, n)) / 2,
                          MY1 - (MY1 - MY0) * (double)b->mem_original[at] / ymax, 0, "orig",
                          "original", b->mem_original[at],
                          opsched_rep_label(b, at, lb[0], sizeof lb[0])};
  }
  if (b->mem_scheduled) {
    int32_t at = argmax(b->mem_scheduled, n);
    m[nm++] = (peak_mark){mem_x(at, n) + (mem_x(at + 1, n) - mem_x(at, n)) / 2,
                          MY1 - (MY1 - MY0) * (double)b->mem_scheduled[at] / ymax, 0, "sched",
                          "schedule", b->mem_scheduled[at],
                          opsched_rep_label(b, opsched_rep_mem_order(b)[at], lb[1], sizeof lb[1])};
  }
  place_marks(m, nm);
  if (b->memory_limit > 0)
    limit_line(out, b->memory_limit, ymax,
               limit_label_left(m, nm, MY1 - (MY1 - MY0) * (double)b->memory_limit / ymax));
  for (int i = 0; i < nm; i++)
    draw_mark(out, &m[i]);
  fprintf(out,
          "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\"/>"
          "<text class=\"tick\" x=\"%.0f\" y=\"236\">0</text>"
          "<text class=\"tick\" x=\"%.0f\" y=\"236\" text-anchor=\"end\">%" PRId32 "</text>"
          "<text class=\"tick\" x=\"%.0f\" y=\"236\" text-anchor=\"middle\">op position in its order</text>\n"
          "<rect class=\"memhit\" data-b=\"%" PRId32 "\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"/>"
          "<line class=\"cursor\" x1=\"0\" x2=\"0\" y1=\"%.0f\" y2=\"%.0f\"/></svg>\n",
          MX0, MX1, MY1, MY1, MX0, MX1, n, (MX0 + MX1) / 2, c->index, MX0, MY0, MX1 - MX0,
          MY1 - MY0, MY0, MY1);
}

/* The step function in time as a polyline over [x0, x1] for [0, span] ns,
 * at most MAX_MEM_POINTS buckets (the maximum of each: no peak is lost). */
static void time_steps(FILE *out, const opsched_report_block *b, double span, double x0,
                       double x1, double y0, double y1, double ymax, const char *cls) {
  const int64_t *t = b->mem_time, *v = b->mem_time_bytes;
  int32_t np = b->mem_time_points;
  fprintf(out, "<polyline class=\"%s\" points=\"", cls);
  double px = -1;
  for (int32_t i = 0; i < np;) {
    /* Points closer than a bucket merge into their maximum. */
    double x = x0 + (x1 - x0) * (double)t[i] / span;
    int64_t m = v[i];
    int32_t j = i + 1;
    while (j < np && (x1 - x0) * (double)(t[j] - t[i]) / span < (x1 - x0) / MAX_MEM_POINTS) {
      if (v[j] > m)
        m = v[j];
      j++;
    }
    double xe = j < np ? x0 + (x1 - x0) * (double)t[j] / span
                       : x0 + (x1 - x0) * (double)opsched_schedule_makespan(b->schedule) / span;
    double y = y1 - (y1 - y0) * (double)m / ymax;
    if (px >= 0 || x > x0)
      fprintf(out, "%.2f,%.2f ", x, y);
    fprintf(out, "%.2f,%.2f %.2f,%.2f ", x, y, xe, y);
    px = xe;
    i = j;
  }
  fputs("\"/>\n", out);
}

/* Several streams: live bytes in time, on the Gantt's time scale. */
static void mem_in_time(block_ctx *c) {
  FILE *out = c->out;
  const opsched_report_block *b = c->b;
  int64_t mk = opsched_schedule_makespan(b->schedule);
  double span = mk > 0 ? (double)mk * 1.02 : 1.0;
  int64_t po = opsched_rep_peak_original(b), ps = opsched_rep_peak_scheduled(b);
  int64_t top = po > ps ? po : ps;
  if (b->memory_limit > top)
    top = b->memory_limit;
  double ymax = top > 0 ? (double)top * 1.12 : 1.0;
  int32_t streams = opsched_schedule_stream_count(b->schedule);
  fprintf(out, "<p class=\"legend\"><span class=\"key sched\"></span>schedule on %" PRId32
               " streams <span class=\"key orig\"></span>peak of the original order (one "
               "stream) %s&mdash; live bytes in time, on the time axis of the Gantt chart below "
               "(a buffer is live from its allocating op's start to the end of its last use)</p>\n",
          streams, b->memory_limit > 0 ? "<span class=\"key limit\"></span>limit " : "");
  fprintf(out, "<svg class=\"mem time\" viewBox=\"0 0 1000 250\" width=\"100%%\" role=\"img\" "
               "aria-label=\"live bytes in time\">\n");
  y_axis(out, top, ymax, 1);
  time_steps(out, b, span, MX0, MX1, MY0, MY1, ymax, "sched");
  peak_mark m[2];
  int nm = 0;
  if (po > 0)
    m[nm++] = (peak_mark){MX0 + 4, MY1 - (MY1 - MY0) * (double)po / ymax, 0, "orig",
                          "original order (one stream)", po, NULL};
  int32_t at = argmax(b->mem_time_bytes, b->mem_time_points);
  m[nm++] = (peak_mark){MX0 + (MX1 - MX0) * (double)b->mem_time[at] / span,
                        MY1 - (MY1 - MY0) * (double)b->mem_time_bytes[at] / ymax, 0, "sched",
                        "schedule", b->mem_time_bytes[at], NULL};
  if (po > 0)
    fprintf(out, "<line class=\"origpeak\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
            MX0, MX1, m[0].y, m[0].y);
  place_marks(m, nm);
  if (b->memory_limit > 0)
    limit_line(out, b->memory_limit, ymax,
               limit_label_left(m, nm, MY1 - (MY1 - MY0) * (double)b->memory_limit / ymax));
  for (int i = 0; i < nm; i++)
    draw_mark(out, &m[i]);
  /* Time ticks as the Gantt's. */
  int64_t step = opsched_rep_nice_step(mk, 8);
  int64_t unit = mk < 10000 ? 1 : mk < 10000000 ? 1000 : mk < 10000000000 ? 1000000 : 1000000000;
  const char *uname = unit == 1 ? "ns" : unit == 1000 ? "\xC2\xB5s" : unit == 1000000 ? "ms" : "s";
  int decimals = step >= unit ? 0 : step * 10 >= unit ? 1 : step * 100 >= unit ? 2 : 3;
  for (int64_t t = 0; t <= mk && mk > 0; t += step) {
    double x = MX0 + (MX1 - MX0) * (double)t / span;
    fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"232\" text-anchor=\"%s\">%.*f %s</text>\n",
            x, t == 0 ? "start" : "middle", decimals, (double)t / (double)unit, uname);
    if (step > INT64_MAX - t)
      break;
  }
  fprintf(out,
          "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\"/>"
          "<text class=\"tick\" x=\"%.0f\" y=\"246\" text-anchor=\"middle\">time</text>\n"
          "<rect class=\"memhit\" data-t=\"1\" data-b=\"%" PRId32 "\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"/>"
          "<line class=\"cursor\" x1=\"0\" x2=\"0\" y1=\"%.0f\" y2=\"%.0f\"/></svg>\n",
          MX0, MX1, MY1, MY1, (MX0 + MX1) / 2, c->index, MX0, MY0, MX1 - MX0, MY1 - MY0,
          MY0, MY1);
}

typedef struct size_idx {
  int64_t size;
  int32_t idx;
} size_idx;

static int cmp_size_desc(const void *pa, const void *pb) {
  const size_idx *a = pa, *b = pb;
  if (a->size != b->size)
    return a->size > b->size ? -1 : 1;
  return (a->idx > b->idx) - (a->idx < b->idx);
}

#define PEAK_ROWS 15

/* XLA's "largest buffers live at the peak": what to shrink or move first. */
static void peak_table(block_ctx *c) {
  FILE *out = c->out;
  const opsched_report_block *b = c->b;
  int32_t np = b->num_peak_buffers;
  size_idx *si = opsched_alloc_array((size_t)np + 1, sizeof *si);
  if (!si)
    return;
  int64_t total = 0;
  for (int32_t i = 0; i < np; i++) {
    si[i] = (size_idx){b->buffers[b->peak_buffers[i]].size, b->peak_buffers[i]};
    total = total > INT64_MAX - si[i].size ? INT64_MAX : total + si[i].size;
  }
  qsort(si, (size_t)np, sizeof *si, cmp_size_desc);
  char t1[48], lb[32];
  opsched_rep_fmt_bytes(t1, sizeof t1, total);
  fprintf(out, "<p class=\"legend\">Largest buffers live at the schedule's peak: %" PRId32
               " buffers, %s in all%s</p>\n<table class=\"peakbufs\" id=\"peakbufs-%" PRId32
               "\" data-total=\"%" PRId64 "\">\n<tr><th>buffer (slot)</th><th>allocated by</th>"
               "<th>bytes</th><th>of the peak</th><th>offset</th><th>live at positions</th></tr>\n",
          np, t1, opsched_rep_peak_scheduled(b) == total ? " (= the peak)" : "", c->index, total);
  int32_t rows = np < PEAK_ROWS ? np : PEAK_ROWS;
  const int32_t *mo = opsched_rep_mem_order(b);
  for (int32_t r = 0; r < rows; r++) {
    const opsched_report_buffer *u = &b->buffers[si[r].idx];
    opsched_rep_fmt_bytes(t1, sizeof t1, u->size);
    fprintf(out, "<tr data-bytes=\"%" PRId64 "\"><td>%" PRId32 "</td><td>", u->size, u->slot);
    if (u->node >= 0 && u->node < c->n)
      html_trunc(out, opsched_rep_label(b, u->node, lb, sizeof lb), 40);
    fprintf(out, "</td><td>%s</td><td>%.1f%%</td><td>", t1,
            total > 0 ? 100.0 * (double)u->size / (double)total : 0.0);
    if (u->offset >= 0)
      fprintf(out, "%" PRId64, u->offset);
    fprintf(out, "</td><td>%" PRId32 "&ndash;%" PRId32, u->first, u->last);
    if (u->last >= 0 && u->last < c->n) {
      fputs(" (last: ", out);
      html_trunc(out, opsched_rep_label(b, mo[u->last], lb, sizeof lb), 30);
      fputc(')', out);
    }
    fputs("</td></tr>\n", out);
  }
  if (np > rows) {
    int64_t rest = 0;
    for (int32_t r = rows; r < np; r++)
      rest = rest > INT64_MAX - si[r].size ? INT64_MAX : rest + si[r].size;
    opsched_rep_fmt_bytes(t1, sizeof t1, rest);
    fprintf(out, "<tr class=\"more\"><td colspan=\"6\">and %" PRId32 " more buffers (none larger), %s</td></tr>\n",
            np - rows, t1);
  }
  fputs("</table>\n", out);
  opsched_free(si);
}

/* Offset x position rectangles, one colour per slot (XLA's buffer
 * assignment picture). */
static void arena_picture(block_ctx *c) {
  FILE *out = c->out;
  const opsched_report_block *b = c->b;
  int32_t n = c->n;
  int64_t arena = opsched_rep_arena(b);
  double ymax = arena > 0 ? (double)arena * 1.05 : 1.0;
  int32_t drawn = 0, placed = 0;
  for (int32_t i = 0; i < b->num_buffers; i++)
    placed += b->buffers[i].offset >= 0 && b->buffers[i].size > 0;
  if (placed == 0)
    return;
  char buf[48];
  opsched_rep_fmt_bytes(buf, sizeof buf, arena);
  fprintf(out, "<p class=\"legend\">Arena: each buffer at its offset (up) over the positions "
               "where it is live (across), one colour per slot; arena %s%s</p>\n",
          buf, placed > MAX_BUFFERS_DRAWN ? " (first buffers only)" : "");
  fprintf(out, "<svg class=\"arena\" id=\"arena-view-%" PRId32 "\" viewBox=\"0 0 1000 250\" "
               "width=\"100%%\" role=\"img\" aria-label=\"arena\">\n", c->index);
  y_axis(out, arena, ymax, 1);
  const int32_t *mo = opsched_rep_mem_order(b);
  for (int32_t i = 0; i < b->num_buffers && drawn < MAX_BUFFERS_DRAWN; i++) {
    const opsched_report_buffer *u = &b->buffers[i];
    if (u->offset < 0 || u->size <= 0)
      continue;
    drawn++;
    double x1 = mem_x(u->first, n), x2 = mem_x((int64_t)u->last + 1, n);
    double y1 = MY1 - (MY1 - MY0) * (double)(u->offset + u->size) / ymax;
    double y2 = MY1 - (MY1 - MY0) * (double)u->offset / ymax;
    int hue = u->slot >= 0 ? (int)((u->slot * 47) % 360) : 0;
    char sz[48], lb[32];
    opsched_rep_fmt_bytes(sz, sizeof sz, u->size);
    fprintf(out, "<rect class=\"buf%s\" style=\"fill:hsl(%d,60%%,%d%%)\" x=\"%.2f\" y=\"%.2f\" "
                 "width=\"%.2f\" height=\"%.2f\" data-tip=\"buffer %" PRId32 " (",
            placed > 200 ? " many" : "", hue, u->slot >= 0 ? 62 : 80, x1, y1, x2 - x1, y2 - y1,
            u->slot);
    if (u->node >= 0 && u->node < n)
      opsched_rep_html_str(out, opsched_rep_label(b, u->node, lb, sizeof lb));
    fprintf(out, ")&#10;%s at offset %" PRId64 "&#10;live at positions %" PRId32 "-%" PRId32
                 " (", sz, u->offset, u->first, u->last);
    if (u->first >= 0 && u->first < n)
      opsched_rep_html_str(out, opsched_rep_label(b, mo[u->first], lb, sizeof lb));
    fputs(" .. ", out);
    if (u->last >= 0 && u->last < n)
      opsched_rep_html_str(out, opsched_rep_label(b, mo[u->last], lb, sizeof lb));
    fputs(")\"/>\n", out);
  }
  int64_t ps = opsched_rep_peak_scheduled(b);
  if (ps > 0) {
    double y = MY1 - (MY1 - MY0) * (double)ps / ymax;
    fprintf(out, "<line class=\"limit peakline\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                 "<text class=\"tick halo\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">schedule peak</text>\n",
            MX0, MX1, y, y, MX1, y + (y - 14 < MY0 ? 12 : -4));
  }
  fprintf(out, "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\"/>"
               "<text class=\"tick\" x=\"%.0f\" y=\"236\" text-anchor=\"middle\">op position in "
               "the schedule's sequential order</text></svg>\n",
          MX0, MX1, MY1, MY1, (MX0 + MX1) / 2);
}

static void write_memory(block_ctx *c) {
  FILE *out = c->out;
  const opsched_report_block *b = c->b;
  fprintf(out, "<div class=\"view memory\" id=\"memory-%" PRId32 "\"><h4>Memory over time</h4>\n",
          c->index);
  if (c->n > 0 && opsched_schedule_stream_count(b->schedule) > 1 && b->mem_time &&
      b->mem_time_points > 0)
    mem_in_time(c);
  else if (c->n > 0 && (b->mem_original || b->mem_scheduled))
    mem_by_position(c);
  else
    fputs("<p class=\"none\">No memory data for this block.</p>\n", out);
  if (b->num_peak_buffers > 0 && b->peak_buffers)
    peak_table(c);
  if (b->num_buffers > 0 && c->n > 0)
    arena_picture(c);
  fputs("</div>\n", out);
}
/* ---- Gantt ------------------------------------------------------------ */

#define ROW_H 26
#define BAR_H 18
#define TOP_H 18
#define MEM_LANE_H 56

static void write_gantt(block_ctx *c) {
  FILE *out = c->out;
  const opsched_report_block *b = c->b;
  const opsched_schedule *s = b->schedule;
  int32_t n = c->n, streams = opsched_schedule_stream_count(s);
  int64_t mk = opsched_schedule_makespan(s), lb = opsched_schedule_lower_bound(s);
  const int64_t *start = opsched_schedule_starts(s), *end = opsched_schedule_ends(s);
  const int32_t *stream = opsched_schedule_streams(s);
  const uint8_t *crit = opsched_schedule_critical(s);
  /* Scale: makespan plus 2% so the makespan line is inside. */
  double span = mk > 0 ? (double)mk * 1.02 : 1.0;
  double zw = mk > 0 ? 100.0 * 0.02 / 1.02 / 4 : 0.5; /* min width of a 0-cost op */
  if (zw > 0.2)
    zw = 0.2;
  char t1[48], t2[48];
  opsched_rep_fmt_ns(t1, sizeof t1, mk);
  opsched_rep_fmt_ns(t2, sizeof t2, lb);
  int64_t nwaits = opsched_schedule_num_waits(s);
  fprintf(out,
          "<div class=\"view gantt\" id=\"gantt-%" PRId32 "\" data-b=\"%" PRId32 "\"><h4>Streams</h4>\n"
          "<p class=\"legend\"><span class=\"key op\"></span>op <span class=\"key crit\"></span>critical path "
          "<span class=\"key wait\"></span>wait (%" PRId64 "%s) &mdash; makespan <b>%s</b> (solid line), "
          "lower bound %s (dashed) "
          "<span class=\"zoom\"><button type=\"button\" data-z=\"in\">zoom +</button>"
          "<button type=\"button\" data-z=\"out\">zoom &minus;</button>"
          "<button type=\"button\" data-z=\"reset\">reset</button> (or ctrl+wheel) "
          "<button type=\"button\" data-w=\"1\">%s waits</button></span></p>\n"
          "<div class=\"gwrap%s\"><div class=\"glabels\" style=\"padding-top:%dpx\">",
          c->index, c->index, nwaits, nwaits > MAX_WAITS_DRAWN ? ", first 4000 drawn" : "", t1, t2,
          nwaits > 300 ? "show" : "hide", nwaits > 300 ? " nowaits" : "", TOP_H);
  for (int32_t k = 0; k < streams; k++)
    fprintf(out, "<div style=\"height:%dpx\">stream %" PRId32 "</div>", ROW_H, k);
  /* Several streams: live bytes in time under the lanes, same scale. */
  int mem_h = streams > 1 && b->mem_time && b->mem_time_points > 0 ? MEM_LANE_H : 0;
  if (mem_h)
    fprintf(out, "<div style=\"height:%dpx\" class=\"memlabel\">memory</div>", mem_h);
  int svg_h = TOP_H + streams * ROW_H + mem_h + 24;
  fprintf(out, "</div><div class=\"gscroll\"><svg class=\"gsvg%s\" width=\"100%%\" height=\"%d\" "
               "role=\"img\" aria-label=\"Gantt chart\">\n"
               "<defs><marker id=\"arrow-%" PRId32 "\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" "
               "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\" class=\"arrowhead\"/>"
               "</marker></defs>\n",
          n > MAX_GANTT_LABELS ? " many" : "", svg_h, c->index);
  for (int32_t k = 0; k < streams; k++)
    fprintf(out, "<rect class=\"lane\" x=\"0\" y=\"%d\" width=\"100%%\" height=\"%d\"/>\n",
            TOP_H + k * ROW_H, ROW_H - 2);
  if (mem_h) {
    int64_t top = opsched_rep_peak_scheduled(b) > b->memory_limit ? opsched_rep_peak_scheduled(b)
                                                                  : b->memory_limit;
    fprintf(out, "<svg class=\"memlane\" x=\"0\" y=\"%d\" width=\"100%%\" height=\"%d\" "
                 "viewBox=\"0 0 10000 %d\" preserveAspectRatio=\"none\">",
            TOP_H + streams * ROW_H, mem_h, mem_h);
    time_steps(out, b, span, 0, 10000, 4, mem_h - 2, top > 0 ? (double)top * 1.05 : 1.0,
               "sched memlane");
    if (b->memory_limit > 0) {
      double y = mem_h - 2 - (mem_h - 6) * (double)b->memory_limit / ((double)top * 1.05);
      fprintf(out, "<line class=\"limit memlane\" x1=\"0\" x2=\"10000\" y1=\"%.1f\" "
                   "y2=\"%.1f\"/>", y, y);
    }
    fputs("</svg>\n", out);
  }
  /* Time axis: ticks below the lanes. */
  int64_t step = opsched_rep_nice_step(mk, 8);
  int axis_y = TOP_H + streams * ROW_H + mem_h;
  int64_t unit = mk < 10000 ? 1 : mk < 10000000 ? 1000 : mk < 10000000000 ? 1000000 : 1000000000;
  const char *uname = unit == 1 ? "ns" : unit == 1000 ? "\xC2\xB5s" : unit == 1000000 ? "ms" : "s";
  int decimals = step >= unit ? 0 : step * 10 >= unit ? 1 : step * 100 >= unit ? 2 : 3;
  for (int64_t t = 0; t <= mk && mk > 0; t += step) {
    char buf[48];
    snprintf(buf, sizeof buf, "%.*f %s", decimals, (double)t / (double)unit, uname);
    double x = 100.0 * (double)t / span;
    fprintf(out, "<line class=\"grid\" x1=\"%.4f%%\" x2=\"%.4f%%\" y1=\"%d\" y2=\"%d\"/>"
                 "<text class=\"tick\" x=\"%.4f%%\" y=\"%d\" text-anchor=\"%s\">%s</text>\n",
            x, x, TOP_H, axis_y + 4, x, axis_y + 16, t == 0 ? "start" : "middle", buf);
    if (step > INT64_MAX - t)
      break;
  }
  /* Ops. */
  int labels = n <= MAX_GANTT_LABELS;
  for (int32_t i = 0; i < n; i++) {
    int32_t v = opsched_schedule_order(s)[i];
    double x = 100.0 * (double)start[v] / span, w = 100.0 * (double)(end[v] - start[v]) / span;
    if (w < zw)
      w = zw;
    int y = TOP_H + stream[v] * ROW_H + (ROW_H - 2 - BAR_H) / 2;
    fprintf(out, "<rect class=\"op%s\" data-b=\"%" PRId32 "\" data-n=\"%" PRId32
                 "\" x=\"%.4f%%\" y=\"%d\" width=\"%.4f%%\" height=\"%d\"/>\n",
            crit[v] ? " crit" : "", c->index, v, x, y, w, BAR_H);
    if (labels) {
      /* The script fits the full name to the bar's width in pixels (again
       * after each zoom); this first cut is for pages without script. */
      char buf[32];
      const char *label = opsched_rep_label(b, v, buf, sizeof buf);
      fprintf(out, "<text class=\"oplabel\" x=\"%.4f%%\" y=\"%d\" data-full=\"", x + 0.3, y + 13);
      opsched_rep_html_str(out, label);
      fputs("\">", out);
      int maxc = (int)(w * 1.1);
      if (w >= 2.0)
        html_trunc(out, label, maxc < 1 ? 1 : maxc);
      fputs("</text>\n", out);
    }
  }
  /* Waits: producer end -> consumer start. */
  int64_t drawn = 0;
  for (int32_t i = 0; i < n && drawn < MAX_WAITS_DRAWN; i++) {
    int32_t v = opsched_schedule_order(s)[i], nw;
    const int32_t *w = opsched_schedule_waits(s, v, &nw);
    for (int32_t k = 0; k < nw && drawn < MAX_WAITS_DRAWN; k++, drawn++) {
      int32_t u = w[k];
      int y1 = TOP_H + stream[u] * ROW_H + ROW_H / 2 - 1;
      int y2 = TOP_H + stream[v] * ROW_H + ROW_H / 2 - 1;
      char lu[32], lv[32];
      fprintf(out, "<line class=\"wait\" x1=\"%.4f%%\" y1=\"%d\" x2=\"%.4f%%\" y2=\"%d\" "
                   "marker-end=\"url(#arrow-%" PRId32 ")\" data-tip=\"wait: ",
              100.0 * (double)end[u] / span, y1, 100.0 * (double)start[v] / span, y2, c->index);
      opsched_rep_html_str(out, opsched_rep_label(b, v, lv, sizeof lv));
      fprintf(out, " (stream %" PRId32 ") waits for ", stream[v]);
      opsched_rep_html_str(out, opsched_rep_label(b, u, lu, sizeof lu));
      fprintf(out, " (stream %" PRId32 ")\"/>\n", stream[u]);
    }
  }
  /* Makespan and lower bound. */
  double xm = 100.0 * (double)mk / span, xl = 100.0 * (double)lb / span;
  fprintf(out,
          "<line class=\"lbline\" x1=\"%.4f%%\" x2=\"%.4f%%\" y1=\"%d\" y2=\"%d\"/>"
          "<line class=\"mkline\" x1=\"%.4f%%\" x2=\"%.4f%%\" y1=\"%d\" y2=\"%d\"/>"
          "<text class=\"mklabel\" x=\"%.4f%%\" y=\"13\" text-anchor=\"end\">makespan %s</text>\n",
          xl, xl, TOP_H - 4, axis_y, xm, xm, TOP_H - 4, axis_y, xm, t1);
  fputs("</svg></div></div></div>\n", out);
}

/* ---- Data for the script (hover) ------------------------------------- */

static void json_i64s(FILE *out, const int64_t *a, int32_t n) {
  fputc('[', out);
  for (int32_t i = 0; i < n; i++)
    fprintf(out, i ? ",%" PRId64 : "%" PRId64, a[i]);
  fputc(']', out);
}

static void write_data(block_ctx *c) {
  FILE *out = c->out;
  const opsched_report_block *b = c->b;
  const opsched_schedule *s = b->schedule;
  int32_t n = c->n;
  char buf[32];
  fprintf(out, "<script type=\"application/json\" class=\"opsched-data\" data-block=\"%" PRId32
               "\">{\"n\":%" PRId32 ",\"ops\":[",
          c->index, n);
  /* [label, location, cost, bytes, start, end, stream, position, rank, critical, waits] */
  for (int32_t v = 0; v < n; v++) {
    fputs(v ? ",\n[" : "\n[", out);
    opsched_rep_json_qstr(out, opsched_rep_label(b, v, buf, sizeof buf), 1);
    fputc(',', out);
    if (b->locations && b->locations[v])
      opsched_rep_json_qstr(out, b->locations[v], 1);
    else
      fputs("null", out);
    fprintf(out, ",%" PRId64 ",", opsched_graph_cost(b->graph, v));
    if (b->node_bytes)
      fprintf(out, "%" PRId64, b->node_bytes[v]);
    else
      fputs("null", out);
    int32_t nw;
    const int32_t *w = opsched_schedule_waits(s, v, &nw);
    fprintf(out, ",%" PRId64 ",%" PRId64 ",%" PRId32 ",%" PRId32 ",%" PRId64 ",%d,[",
            opsched_schedule_starts(s)[v], opsched_schedule_ends(s)[v],
            opsched_schedule_streams(s)[v], c->pos[v], opsched_schedule_ranks(s)[v],
            opsched_schedule_critical(s)[v] != 0);
    for (int32_t k = 0; k < nw; k++)
      fprintf(out, k ? ",%" PRId32 : "%" PRId32, w[k]);
    fputs("]]", out);
  }
  fputs("]", out);
  if (b->mem_original) {
    fputs(",\n\"memo\":", out);
    json_i64s(out, b->mem_original, n);
  }
  if (b->mem_scheduled) {
    const int32_t *mo = opsched_rep_mem_order(b);
    fputs(",\n\"mems\":", out);
    json_i64s(out, b->mem_scheduled, n);
    fputs(",\n\"memorder\":[", out);
    for (int32_t i = 0; i < n; i++)
      fprintf(out, i ? ",%" PRId32 : "%" PRId32, mo[i]);
    fputc(']', out);
  }
  if (b->mem_after) {
    fputs(",\n\"mema\":", out);
    json_i64s(out, b->mem_after, n);
  }
  if (b->mem_time && b->mem_time_points > 0) {
    fputs(",\n\"memt\":", out);
    json_i64s(out, b->mem_time, b->mem_time_points);
    fputs(",\n\"memtb\":", out);
    json_i64s(out, b->mem_time_bytes, b->mem_time_points);
  }
  opsched_rep_frontier_json(out, b->frontier);
  /* The block's figures as the summary shows them, for scripts and tests. */
  fprintf(out, ",\n\"figures\":{\"makespan\":%" PRId64
               ",\"peak\":%" PRId64 ",\"original_peak\":%" PRId64 ",\"limit\":%" PRId64
               ",\"arena\":%" PRId64 ",\"peak_buffers\":%" PRId32 "}",
          opsched_schedule_makespan(s), opsched_rep_peak_scheduled(b),
          opsched_rep_peak_original(b), b->memory_limit, opsched_rep_arena(b),
          b->num_peak_buffers);
  fputs("}</script>\n", out);
}

/* ---- Page ------------------------------------------------------------- */

/* Block `index`'s section; past MAX_BLOCK_VIEWS of the page's `blocks`,
 * its summary and a note instead of its views. */
static opsched_status write_block(FILE *out, const opsched_report_block *b,
                                  const char *fname, const char *bname,
                                  int32_t index, int32_t blocks) {
  block_ctx c = {out, b, fname, bname, index, opsched_graph_num_nodes(b->graph), NULL};
  int draw = index < MAX_BLOCK_VIEWS;
  if (draw) { /* the views place ops by their position; the summary does not */
    c.pos = opsched_alloc_array((size_t)c.n, sizeof *c.pos);
    if (!c.pos)
      return OPSCHED_ERR_NOMEM;
    const int32_t *order = opsched_schedule_order(b->schedule);
    for (int32_t i = 0; i < c.n; i++)
      c.pos[order[i]] = i;
  }
  int32_t streams = opsched_schedule_stream_count(b->schedule);
  fprintf(out, "<section class=\"block\" id=\"block-%" PRId32 "\" data-block=\"%" PRId32 "\"><h3>", index, index);
  opsched_rep_html_str(out, bname);
  int32_t used = opsched_schedule_streams_used(b->schedule);
  if (used < streams) /* the frontier may leave streams idle */
    fprintf(out, " <small>%" PRId32 " ops, %" PRId32 " of %" PRId32 " streams used</small></h3>\n",
            c.n, used, streams);
  else
    fprintf(out, " <small>%" PRId32 " ops, %" PRId32 " stream%s</small></h3>\n", c.n, streams,
            streams == 1 ? "" : "s");
  write_summary(&c);
  if (draw) {
    opsched_rep_html_frontier(out, b, index);
    write_graph(&c);
    write_memory(&c);
    write_gantt(&c);
    write_data(&c);
  } else {
    fprintf(out,
            "<p class=\"caption omitted\">Views left out: a page draws its first %d blocks "
            "of %" PRId32 "; the trace (<code>trace=</code>) has every block.</p>\n",
            MAX_BLOCK_VIEWS, blocks);
  }
  fputs("</section>\n", out);
  opsched_free(c.pos);
  return OPSCHED_OK;
}

opsched_status opsched_html_write(FILE *out, const opsched_report_module *m) {
  if (!out || !opsched_rep_module_ok(m))
    return OPSCHED_ERR_INVALID;
  const char *title = m->title ? m->title : "opsched report";
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta name=\"generator\" content=\"opsched\">\n<title>",
        out);
  opsched_rep_html_str(out, title);
  fprintf(out, "</title>\n<style>%s</style>\n<script>%s</script>\n</head>\n"
               "<body data-report-ready=\"0\">\n<header><h1>",
          opsched_html_css, opsched_html_error_js);
  opsched_rep_html_str(out, title);
  fputs("</h1>", out);
  if (m->subtitle) {
    fputs("<p class=\"sub\">", out);
    opsched_rep_html_str(out, m->subtitle);
    fputs("</p>", out);
  }
  fputs("<div id=\"report-errors\" data-count=\"0\" hidden></div></header>\n<nav><ul>\n", out);
  char fb[32], bb[32];
  int32_t index = 0;
  for (int32_t f = 0; f < m->num_functions; f++) {
    const opsched_report_function *fn = &m->functions[f];
    snprintf(fb, sizeof fb, "function %" PRId32, f);
    fprintf(out, "<li><a href=\"#function-%" PRId32 "\">", f);
    opsched_rep_html_str(out, fn->name ? fn->name : fb);
    fputs("</a><ul>", out);
    for (int32_t k = 0; k < fn->num_blocks; k++, index++) {
      snprintf(bb, sizeof bb, "block %" PRId32, k);
      fprintf(out, "<li><a href=\"#block-%" PRId32 "\">", index);
      opsched_rep_html_str(out, fn->blocks[k].title ? fn->blocks[k].title : bb);
      fprintf(out, "</a> <small>%" PRId32 " ops</small></li>",
              opsched_graph_num_nodes(fn->blocks[k].graph));
    }
    fputs("</ul></li>\n", out);
  }
  fputs("</ul></nav>\n<main>\n", out);
  int32_t blocks = index;
  index = 0;
  opsched_status st = OPSCHED_OK;
  for (int32_t f = 0; f < m->num_functions && st == OPSCHED_OK; f++) {
    const opsched_report_function *fn = &m->functions[f];
    snprintf(fb, sizeof fb, "function %" PRId32, f);
    const char *fname = fn->name ? fn->name : fb;
    fprintf(out, "<section class=\"function\" id=\"function-%" PRId32 "\"><h2>", f);
    opsched_rep_html_str(out, fname);
    fputs("</h2>\n", out);
    for (int32_t k = 0; k < fn->num_blocks && st == OPSCHED_OK; k++) {
      snprintf(bb, sizeof bb, "block %" PRId32, k);
      const char *bname = fn->blocks[k].title ? fn->blocks[k].title : bb;
      st = write_block(out, &fn->blocks[k], fname, bname, index++, blocks);
    }
    fputs("</section>\n", out);
  }
  fprintf(out, "</main>\n<div id=\"tip\" hidden></div>\n<script>%s</script>\n</body></html>\n",
          opsched_html_main_js);
  if (st != OPSCHED_OK)
    return st;
  return ferror(out) ? OPSCHED_ERR_STATE : OPSCHED_OK;
}
