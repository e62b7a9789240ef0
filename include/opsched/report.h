/* opsched/report.h - human-readable views of a schedule, pure C. */
#ifndef OPSCHED_REPORT_H
#define OPSCHED_REPORT_H

#include <stdio.h>

#include "opsched/graph.h"
#include "opsched/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Starts / ends a Graphviz digraph on `out`. */
void opsched_dot_begin(FILE *out);
void opsched_dot_end(FILE *out);

/* Writes one block as a cluster `cluster_id` titled `title`: a node per op
 * labelled with `labels[v]`, its cost and rank, numbered by its position in
 * the schedule's sequential order; critical-path nodes and the edges between
 * them (u->v with rank(u) == cost(u) + rank(v)) drawn red and bold. */
void opsched_dot_cluster(FILE *out, int cluster_id, const char *title,
                         const opsched_graph *graph,
                         const opsched_schedule *schedule,
                         const char *const *labels);

/* Prints the schedule as the seed's plain table: "name start end" per op in
 * sequential order, then "makespan: N". */
void opsched_print_table(FILE *out, const opsched_schedule *schedule,
                         const char *const *labels);

#ifdef __cplusplus
}
#endif

#endif
