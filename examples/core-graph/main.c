/* core-graph: the pure-C core scheduling a hand-built graph, no MLIR.
 *
 * The seed's demo: six unit-time ops a..f with a->b, a->c, b->d, c->d, d->e,
 * d->f, on 2 streams. Prints "name start end" per op in schedule order, then
 * the makespan - the seed's table.
 */
#include "opsched/Version.h"
#include "opsched/graph.h"
#include "opsched/schedule.h"

#include <stdio.h>

int main(void) {
  static const char *const names[] = {"a", "b", "c", "d", "e", "f"};
  static const int edges[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {3, 5}};

  opsched_graph *graph = opsched_graph_create(6);
  if (!graph)
    return 1;
  for (int v = 0; v < 6; v++)
    opsched_graph_add_node(graph, /*cost=*/1, /*demand=*/1);
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
    opsched_graph_add_edge(graph, edges[i][0], edges[i][1]);
  opsched_status status = opsched_graph_finalize(graph);
  if (status != OPSCHED_OK) {
    fprintf(stderr, "finalize: %s\n", opsched_status_str(status));
    return 1;
  }

  opsched_schedule_options options;
  opsched_schedule_options_init(&options);
  options.streams = 2;
  opsched_schedule *schedule = NULL;
  status = opsched_schedule_run(graph, &options, &schedule);
  if (status != OPSCHED_OK) {
    fprintf(stderr, "schedule: %s\n", opsched_status_str(status));
    return 1;
  }

  printf("opsched core %s\n", OPSCHED_VERSION_STRING);
  const int32_t *order = opsched_schedule_order(schedule);
  const int64_t *start = opsched_schedule_starts(schedule);
  const int64_t *end = opsched_schedule_ends(schedule);
  const int32_t *stream = opsched_schedule_streams(schedule);
  for (int32_t i = 0; i < opsched_schedule_num_nodes(schedule); i++) {
    int32_t v = order[i];
    printf("%s %lld %lld (stream %d)\n", names[v], (long long)start[v], (long long)end[v],
           stream[v]);
  }
  printf("makespan: %lld\n", (long long)opsched_schedule_makespan(schedule));
  printf("critical path: %lld\n", (long long)opsched_schedule_critical_path(schedule));

  opsched_schedule_destroy(schedule);
  opsched_graph_destroy(graph);
  return 0;
}
