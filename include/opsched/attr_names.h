/*===- opsched/attr_names.h - the names of the opsched.* attributes -*- C -*-===
 *
 * Data only: the one list of attribute names shared by the writer (lib/mlir),
 * the checker (lib/verify) and the C API (lib/capi). Sharing names is not
 * sharing scheduling code. Names and formats are a stable API documented in
 * docs/Passes.md; add a name here and document it there.
 *
 *===----------------------------------------------------------------------===*/
#ifndef OPSCHED_ATTR_NAMES_H
#define OPSCHED_ATTR_NAMES_H

#include <stdint.h>

/* Read (user overrides). */
#define OPSCHED_ATTR_COST "opsched.cost"           /* i64 ns */
#define OPSCHED_ATTR_RESOURCES "opsched.resources" /* i64 demand */
#define OPSCHED_ATTR_BYTES "opsched.bytes"         /* i64 bytes of a result */
/* Written on ops. */
#define OPSCHED_ATTR_RANK "opsched.rank"         /* i64 ns upward rank */
#define OPSCHED_ATTR_CRITICAL "opsched.critical" /* unit: on a critical path */
#define OPSCHED_ATTR_START "opsched.start"       /* i64 ns */
#define OPSCHED_ATTR_END "opsched.end"           /* i64 ns */
#define OPSCHED_ATTR_LIVE_BYTES "opsched.live_bytes" /* i64: live after the op */
/* Written on ops by the buffer-slot assignment: arrays, one per result. */
#define OPSCHED_ATTR_SLOT "opsched.slot"
#define OPSCHED_ATTR_OFFSET "opsched.offset"
#define OPSCHED_ATTR_SIZE "opsched.size"
/* Written on ops when streams > 1. */
#define OPSCHED_ATTR_ID "opsched.id"         /* i64 position in the block's order */
#define OPSCHED_ATTR_STREAM "opsched.stream" /* i64 */
#define OPSCHED_ATTR_WAITS "opsched.waits"   /* array<i64>: ids to wait on */
/* Written on functions. */
#define OPSCHED_ATTR_MAKESPAN "opsched.makespan"           /* i64 ns */
#define OPSCHED_ATTR_CRITICAL_PATH "opsched.critical_path" /* i64 ns */
#define OPSCHED_ATTR_LOWER_BOUND "opsched.lower_bound"     /* i64 ns */
#define OPSCHED_ATTR_SPEEDUP "opsched.speedup"             /* f64 */
#define OPSCHED_ATTR_STREAMS "opsched.streams"             /* i64 */
#define OPSCHED_ATTR_WAITS_BEFORE "opsched.waits_before"   /* i64 */
#define OPSCHED_ATTR_WAITS_AFTER "opsched.waits_after"     /* i64 */
#define OPSCHED_ATTR_REUSE_WAITS "opsched.reuse_waits"     /* i64, when > 0 */
#define OPSCHED_ATTR_PEAK_MEMORY "opsched.peak_memory"     /* i64 bytes */
#define OPSCHED_ATTR_ORIGINAL_PEAK "opsched.original_peak_memory" /* i64 bytes */
#define OPSCHED_ATTR_RESIDENT "opsched.resident_bytes"     /* i64 bytes */
#define OPSCHED_ATTR_MEMORY_LIMIT "opsched.memory_limit"   /* i64 bytes */
#define OPSCHED_ATTR_ARENA_SIZE "opsched.arena_size"       /* i64 bytes */
#define OPSCHED_ATTR_ALIGNMENT "opsched.alignment"         /* i64 bytes */
#define OPSCHED_ATTR_FRAGMENTATION "opsched.fragmentation" /* f64 */
#define OPSCHED_ATTR_RESOURCE_LIMIT "opsched.resource_limit" /* i64 */
#define OPSCHED_ATTR_STREAMS_REQUESTED "opsched.streams_requested" /* i64: the option */
/* The unconstrained schedule beside the chosen one (several streams). */
#define OPSCHED_ATTR_UNCONSTRAINED_MAKESPAN "opsched.unconstrained_makespan" /* i64 ns */
#define OPSCHED_ATTR_UNCONSTRAINED_PEAK "opsched.unconstrained_peak_memory" /* i64 B */

/* The largest integer the writer puts in a time or size attribute: larger
 * values (saturated sums of huge shapes) are written as this, 2^60 - 1, the
 * range the checker accepts (docs/Passes.md, "Numeric range"). */
#define OPSCHED_ATTR_VALUE_MAX ((int64_t)(((uint64_t)1 << 60) - 1))

#endif /* OPSCHED_ATTR_NAMES_H */
