/* opsched/options.h - the passes' options, parsed and validated in C.
 *
 * Every front end (the C++ pass classes, the C API's options string, the
 * bench) fills an opsched_options through these functions, so each option is
 * validated once, with one set of messages.
 */
#ifndef OPSCHED_OPTIONS_H
#define OPSCHED_OPTIONS_H

/* The default makespan tolerance (2%: docs/benchmarks.md section 7 compares
 * 1% and 2% on every network). */
#define OPSCHED_DEFAULT_MAKESPAN_TOLERANCE 0.02

#include <stddef.h>
#include <stdint.h>

#include "opsched/cost.h"
#include "opsched/memory.h"
#include "opsched/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum opsched_cost_model {
  OPSCHED_COST_ROOFLINE = 0,
  OPSCHED_COST_UNIT = 1 /* every op costs 1, as in the seed's demo */
} opsched_cost_model;

typedef struct opsched_options {
  opsched_cost_model cost_model;
  const opsched_device *device;
  opsched_schedule_options schedule;
  int64_t max_memory; /* bytes; 0 = no limit */
  opsched_memory_policy memory_policy;
  int strict_memory; /* an unmet max-memory is an error, not a warning */
  int buffer_slots;  /* assign arena slots and offsets after scheduling */
  int64_t alignment; /* of every arena offset, a power of two */
  int sync_reuse;    /* the packer may add waits along the timeline to share memory */
  /* Tensor in-place writes decided by program order, as one-shot
   * bufferization does, and kept valid by order edges (docs/memory.md). */
  int inplace_program_order;
  int summary_format; /* opsched_summary_format of the `summary` output */
  int dot_fold;       /* `dot`: leave zero-cost ops out of the graph */
  /* A device read from a profile file (`device=PATH`): `device` is then
   * NULL and this is the device; by value so options copy safely. */
  opsched_device device_profile;
  /* Several streams without max-memory: the fraction of the best makespan a
   * lower-peak schedule may lose (include/opsched/frontier.h). */
  double makespan_tolerance; /* OPSCHED_DEFAULT_MAKESPAN_TOLERANCE */
} opsched_options;

/* Formats of the `summary` output (docs/Passes.md): a line per function,
 * JSON Lines (an object per function with its blocks), CSV rows
 * function,block,figure,value. */
typedef enum opsched_summary_format {
  OPSCHED_SUMMARY_PRETTY = 0,
  OPSCHED_SUMMARY_JSON = 1,
  OPSCHED_SUMMARY_CSV = 2
} opsched_summary_format;

/* The device the cost model uses: a named one or the loaded profile. */
const opsched_device *opsched_options_device(const opsched_options *options);

/* The capacity the schedule respects: `resource-limit` when set, else the
 * streams, but at most the device profile's `cores` with the roofline
 * model (on a 2-core machine no more than two ops run at once, however
 * many streams the plan has). */
int32_t opsched_options_capacity(const opsched_options *options);

/* Defaults: roofline on "generic", critical path, 1 stream, no limit. */
void opsched_options_init(opsched_options *options);

/* Each setter parses `value` for the option it names. On failure it returns
 * non-zero and writes a message naming the option and the accepted values
 * into `err` (NUL-terminated, truncated to err_size). */
int opsched_options_set_cost_model(opsched_options *o, const char *value,
                                   char *err, size_t err_size);
int opsched_options_set_device(opsched_options *o, const char *value, char *err,
                               size_t err_size);
int opsched_options_set_priority(opsched_options *o, const char *value,
                                 char *err, size_t err_size);
int opsched_options_set_streams(opsched_options *o, int64_t value, char *err,
                                size_t err_size);
int opsched_options_set_resource_limit(opsched_options *o, int64_t value,
                                       char *err, size_t err_size);
int opsched_options_set_effort(opsched_options *o, int64_t value, char *err,
                               size_t err_size);
int opsched_options_set_max_memory(opsched_options *o, const char *value,
                                   char *err, size_t err_size);

int opsched_options_set_alignment(opsched_options *o, int64_t value, char *err,
                                  size_t err_size);
int opsched_options_set_policy(opsched_options *o, const char *value, char *err,
                               size_t err_size);

/* `percent`: 0 to 100 (the option is in percent; stored as a fraction). */
int opsched_options_set_makespan_tolerance(opsched_options *o, double percent,
                                           char *err, size_t err_size);

/* Parses a byte size: a non-negative integer with an optional unit
 * B, KiB, MiB, GiB, TiB (also KB/MB/GB as powers of 1000). "0" means none.
 * Returns 0 and sets *bytes on success; non-zero on garbage or overflow. */
int opsched_parse_size(const char *text, int64_t *bytes);

/* summary-format: "pretty" (default), "json" or "csv". */
int opsched_options_set_summary_format(opsched_options *o, const char *value, char *err,
                                       size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
