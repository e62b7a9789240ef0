/* lib/core/schedule.h - schedule.c's internal entry point: a scheduler run
 * that shares its memory orders with the other runs of a frontier search
 * (memory.h). */
#ifndef OPSCHED_CORE_SCHEDULE_H
#define OPSCHED_CORE_SCHEDULE_H

#include "opsched/schedule.h"

#include "memory.h"

/* opsched_schedule_run with a memo (NULL: none) for its memory orders. */
opsched_status opsched_schedule_run_memo(const opsched_graph *g,
                                         const opsched_schedule_options *o,
                                         opsched_memory_memo *memo, opsched_schedule **out);

#endif
