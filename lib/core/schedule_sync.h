/* lib/core/schedule_sync.h - naming streams from times and computing the
 * cross-stream waits (internal). */
#ifndef OPSCHED_CORE_SCHEDULE_SYNC_H
#define OPSCHED_CORE_SCHEDULE_SYNC_H

#include "schedule_object.h"

/* Assigns streams from start/end times and s->order: each op goes to a
 * stream idle at its start, preferring one holding most of its
 * predecessors, then the lowest index. OPSCHED_ERR_STATE if the times need
 * more than s->streams streams (a placement bug). */
opsched_status opsched_streams_assign(const opsched_graph *g,
                                      opsched_schedule *s);

/* Computes the waits with exact transitive reduction (vector clocks). */
opsched_status opsched_streams_waits(const opsched_graph *g,
                                     opsched_schedule *s);

#endif
