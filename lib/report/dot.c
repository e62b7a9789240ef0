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

/* With `fold`: is v a folded (zero-cost) op? Nothing folds when every op
 * costs 0. */
static int folds(const opsched_graph *g, int fold, int32_t v) {
  if (!fold || opsched_graph_cost(g, v) != 0)
    return 0;
  for (int32_t u = 0, n = opsched_graph_num_nodes(g); u < n; u++)
    if (opsched_graph_cost(g, u) > 0)
      return 1;
  return 0;
}

/* The edges into visible node v through folded ops: an edge from each
 * visible op reached backwards through folded ones only; returns how many
 * folded ops feed v. `seen` (n entries) is scratch, stamped with v + 1. */
static int32_t folded_edges(FILE *out, int cluster_id, const opsched_graph *g,
                            const opsched_schedule *s, const uint8_t *hidden, int32_t v,
                            int32_t *seen, int32_t *stack) {
  const int64_t *rank = opsched_schedule_ranks(s);
  const uint8_t *critical = opsched_schedule_critical(s);
  int32_t top = 0, nfold = 0;
  stack[top++] = v;
  while (top > 0) {
    int32_t w = stack[--top], np;
    const int32_t *p = opsched_graph_preds(g, w, &np);
    for (int32_t k = 0; k < np; k++) {
      int32_t u = p[k];
      if (seen[u] == v + 1)
        continue;
      seen[u] = v + 1;
      if (hidden[u]) {
        nfold++;
        stack[top++] = u;
        continue;
      }
      int hot = critical[u] && critical[v] && rank[u] == opsched_graph_cost(g, u) + rank[v];
      fprintf(out, "    n%d_%d -> n%d_%d%s;\n", cluster_id, u, cluster_id, v,
              hot ? " [color=red, penwidth=2]" : (w != v ? " [style=dashed]" : ""));
    }
  }
  return nfold;
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
  if (!hidden || !seen || !stack)
    fold = 0; /* out of memory: the plain graph */
  int32_t nhidden = 0;
  for (int32_t v = 0; fold && v < n; v++)
    nhidden += hidden[v] = (uint8_t)folds(g, fold, v);
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
      folded_edges(out, cluster_id, g, s, hidden, v, seen, stack);
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
