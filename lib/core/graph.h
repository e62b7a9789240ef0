/* lib/core/graph.h - building a graph from adjacency the core
 * already holds (internal). */
#ifndef OPSCHED_CORE_GRAPH_H
#define OPSCHED_CORE_GRAPH_H

#include "opsched/graph.h"

/* A finalized graph with the nodes (costs, demands) of the finalized
 * `like` and the edges of a CSR over them: succ_off / pred_off have
 * n + 1 entries; each row ascending, without repeats or self edges, and
 * pred the transpose of succ; all four from opsched_alloc_array*. The
 * result equals adding those edges to a copy of `like`'s nodes and
 * finalizing (the same lists and topological order), without the raw
 * edge list, its sort or a copy: on success the graph owns the four
 * arrays (the caller may keep reading them while the graph lives and must
 * not free them); NULL when out of memory or when the edges have a cycle,
 * the arrays then still the caller's. */
opsched_graph *opsched_graph_adopt_csr(const opsched_graph *like, int64_t *succ_off,
                                       int32_t *succ, int64_t *pred_off, int32_t *pred);

#endif
