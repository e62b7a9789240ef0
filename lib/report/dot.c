#include "opsched/report.h"

#include <inttypes.h>
#include <stdlib.h>

/* Graphviz string escaping: quotes and backslashes. */
static void put_escaped(FILE *out, const char *s) {
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', out);
    fputc(*s, out);
  }
}

void opsched_dot_begin(FILE *out) {
  fputs("digraph opsched {\n  node [shape=box, fontname=\"monospace\"];\n", out);
}

void opsched_dot_end(FILE *out) { fputs("}\n", out); }

void opsched_dot_cluster(FILE *out, int cluster_id, const char *title,
                         const opsched_graph *g, const opsched_schedule *s,
                         const char *const *labels) {
  opsched_dot_cluster_folded(out, cluster_id, title, g, s, labels, 0);
}

/* With `fold`: marks the folded (zero-cost) ops in hidden[] and returns
 * how many; nothing folds when every op costs 0. */
static int32_t mark_folded(const opsched_graph *g, int fold, uint8_t *hidden) {
  int32_t n = opsched_graph_num_nodes(g), count = 0, some_cost = 0;
  for (int32_t u = 0; fold && u < n && !some_cost; u++)
    some_cost = opsched_graph_cost(g, u) > 0;
  for (int32_t v = 0; some_cost && v < n; v++)
    count += hidden[v] = opsched_graph_cost(g, v) == 0;
  return count;
}

/* Where a walk back from a folded op h goes on (jump[h]): -1 when no
 * visible op is reached through folded ops only (its predecessors are all
 * folded and lead nowhere); with a single predecessor, that predecessor
 * when it is visible or has several, else the predecessor's own jump (a
 * chain of folded ops is crossed in one step); h itself when it has
 * several. A chain of folded views, each read, was walked from every
 * reader to its top: quadratic. In topological order, predecessors
 * first; `order` is n entries of scratch. */
static void mark_jumps(const opsched_graph *g, const uint8_t *hidden, int32_t *jump,
                       int32_t *order) {
  int32_t n = opsched_graph_num_nodes(g);
  opsched_graph_topo_order(g, order);
  for (int32_t i = 0; i < n; i++) {
    int32_t h = order[i], np;
    if (!hidden[h])
      continue;
    const int32_t *p = opsched_graph_preds(g, h, &np);
    int barren = 1;
    for (int32_t k = 0; k < np && barren; k++)
      barren = hidden[p[k]] && jump[p[k]] < 0;
    if (barren)
      jump[h] = -1;
    else if (np == 1)
      jump[h] = !hidden[p[0]] || jump[p[0]] == p[0] ? p[0] : jump[p[0]];
    else
      jump[h] = h;
  }
}

static int cmp_id(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static void put_edge(FILE *out, int cluster_id, const opsched_schedule *s, const opsched_graph *g,
                     int32_t u, int32_t v, int direct) {
  const int64_t *rank = opsched_schedule_ranks(s);
  const uint8_t *critical = opsched_schedule_critical(s);
  int hot = critical[u] && critical[v] && rank[u] == opsched_graph_cost(g, u) + rank[v];
  fprintf(out, "    n%d_%d -> n%d_%d%s;\n", cluster_id, u, cluster_id, v,
          hot ? " [color=red, penwidth=2]" : (direct ? "" : " [style=dashed]"));
}

/* The edges into visible node v: from its visible predecessors, in their
 * order, then (dashed) from each other visible op reached backwards
 * through folded ones only, by id. `seen` (n entries) is scratch, stamped
 * with v + 1; `stack` and `found` n entries each. */
static void folded_edges(FILE *out, int cluster_id, const opsched_graph *g,
                         const opsched_schedule *s, const uint8_t *hidden, const int32_t *jump,
                         int32_t v, int32_t *seen, int32_t *stack, int32_t *found) {
  int32_t np, top = 0, nfound = 0;
  const int32_t *p = opsched_graph_preds(g, v, &np);
  for (int32_t k = 0; k < np; k++)
    if (!hidden[p[k]] && seen[p[k]] != v + 1) {
      seen[p[k]] = v + 1;
      put_edge(out, cluster_id, s, g, p[k], v, 1);
    }
  stack[top++] = v;
  while (top > 0) {
    int32_t w = stack[--top];
    p = opsched_graph_preds(g, w, &np);
    for (int32_t k = 0; k < np; k++) {
      int32_t u = hidden[p[k]] ? jump[p[k]] : p[k];
      if (u < 0 || seen[u] == v + 1)
        continue;
      seen[u] = v + 1;
      if (hidden[u])
        stack[top++] = u;
      else
        found[nfound++] = u;
    }
  }
  qsort(found, (size_t)nfound, sizeof *found, cmp_id);
  for (int32_t i = 0; i < nfound; i++)
    put_edge(out, cluster_id, s, g, found[i], v, 0);
}

void opsched_dot_cluster_folded(FILE *out, int cluster_id, const char *title,
                                const opsched_graph *g, const opsched_schedule *s,
                                const char *const *labels, int fold) {
  int32_t n = opsched_graph_num_nodes(g);
  const int64_t *rank = opsched_schedule_ranks(s);
  const uint8_t *critical = opsched_schedule_critical(s);
  const int32_t *order = opsched_schedule_order(s);
  fprintf(out, "  subgraph cluster_%d {\n    label=\"", cluster_id);
  put_escaped(out, title);
  fprintf(out, " (critical path %" PRId64 ")\";\n", opsched_schedule_critical_path(s));
  /* With several streams, each node is filled with its stream's colour. */
  static const char *const palette[] = {"#dbe9f6", "#fde2c8", "#d9f0d3", "#e8dcf0",
                                        "#fbe3ee", "#e0e0e0", "#fff3c4", "#d4f1f1"};
  int multi = opsched_schedule_stream_count(s) > 1;
  const int32_t *stream = opsched_schedule_streams(s);
  uint8_t *hidden = calloc((size_t)n + 1, 1);
  int32_t *seen = calloc((size_t)n + 1, sizeof *seen), *stack = calloc((size_t)n + 1, sizeof *stack);
  int32_t *jump = calloc((size_t)n + 1, sizeof *jump), *found = calloc((size_t)n + 1, sizeof *found);
  if (!hidden || !seen || !stack || !jump || !found)
    fold = 0; /* out of memory: the plain graph */
  int32_t nhidden = mark_folded(g, fold, hidden);
  if (nhidden)
    mark_jumps(g, hidden, jump, stack); /* stack: scratch until the edges */
  if (nhidden)
    fprintf(out, "    /* %d zero-cost ops folded; dashed edges pass through them */\n",
            (int)nhidden);
  for (int32_t i = 0; i < n; i++) {
    int32_t v = order[i];
    if (nhidden && hidden[v])
      continue;
    fprintf(out, "    n%d_%d [label=\"%d: ", cluster_id, v, i);
    put_escaped(out, labels[v]);
    fprintf(out, "\\ncost %" PRId64 " rank %" PRId64, opsched_graph_cost(g, v), rank[v]);
    if (multi)
      fprintf(out, " stream %d\", style=filled, fillcolor=\"%s", (int)stream[v],
              palette[stream[v] % (int32_t)(sizeof palette / sizeof palette[0])]);
    fprintf(out, "\"%s];\n", critical[v] ? ", color=red, penwidth=2" : "");
  }
  for (int32_t v = 0; nhidden && v < n; v++)
    if (!hidden[v])
      folded_edges(out, cluster_id, g, s, hidden, jump, v, seen, stack, found);
  for (int32_t u = 0; !nhidden && u < n; u++) {
    int32_t ns;
    const int32_t *succ = opsched_graph_succs(g, u, &ns);
    for (int32_t k = 0; k < ns; k++) {
      int32_t v = succ[k];
      int hot = critical[u] && critical[v] &&
                rank[u] == opsched_graph_cost(g, u) + rank[v];
      fprintf(out, "    n%d_%d -> n%d_%d%s;\n", cluster_id, u, cluster_id, v,
              hot ? " [color=red, penwidth=2]" : "");
    }
  }
  fputs("  }\n", out);
  free(hidden);
  free(jump);
  free(found);
  free(seen);
  free(stack);
}

void opsched_print_table(FILE *out, const opsched_schedule *s,
                         const char *const *labels) {
  int32_t n = opsched_schedule_num_nodes(s);
  const int32_t *order = opsched_schedule_order(s);
  for (int32_t i = 0; i < n; i++) {
    int32_t v = order[i];
    fprintf(out, "%s %" PRId64 " %" PRId64 "\n", labels[v],
            opsched_schedule_starts(s)[v], opsched_schedule_ends(s)[v]);
  }
  fprintf(out, "makespan: %" PRId64 "\n", opsched_schedule_makespan(s));
}
