#include "opsched/options.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const opsched_device *opsched_options_device(const opsched_options *o) {
  return o->device ? o->device : &o->device_profile;
}

int32_t opsched_options_capacity(const opsched_options *o) {
  if (o->schedule.resource_limit > 0)
    return o->schedule.resource_limit;
  int32_t streams = o->schedule.streams > 0 ? o->schedule.streams : 1;
  int32_t cores = o->cost_model == OPSCHED_COST_ROOFLINE ? opsched_options_device(o)->cores : 0;
  return cores > 0 && cores < streams ? cores : streams;
}

void opsched_options_init(opsched_options *o) {
  memset(o, 0, sizeof *o);
  o->cost_model = OPSCHED_COST_ROOFLINE;
  o->device = opsched_device_lookup("generic");
  opsched_schedule_options_init(&o->schedule);
  o->memory_policy = OPSCHED_MEMORY_CRITICAL_PATH;
  o->buffer_slots = 1;
  o->alignment = 64;
  o->sync_reuse = 1;
  o->makespan_tolerance = OPSCHED_DEFAULT_MAKESPAN_TOLERANCE;
}


#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(char *err, size_t size, const char *fmt, ...) {
  if (err && size) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
  }
  return 1;
}

int opsched_options_set_cost_model(opsched_options *o, const char *v, char *err,
                                   size_t n) {
  if (strcmp(v, "roofline") == 0)
    o->cost_model = OPSCHED_COST_ROOFLINE;
  else if (strcmp(v, "unit") == 0)
    o->cost_model = OPSCHED_COST_UNIT;
  else
    return fail(err, n, "invalid value '%s' for option 'cost-model'; accepted: roofline, unit", v);
  return 0;
}

int opsched_options_set_device(opsched_options *o, const char *v, char *err, size_t n) {
  const opsched_device *d = opsched_device_lookup(v);
  if (!d && (strchr(v, '/') || strchr(v, '.'))) {
    /* A path: a calibrated profile (opsched-bench calibrate). */
    char why[256];
    if (opsched_device_profile_read(v, &o->device_profile, why, sizeof why))
      return fail(err, n, "invalid value '%s' for option 'device': %s", v, why);
    o->device = NULL;
    return 0;
  }
  if (!d)
    return fail(err, n, "invalid value '%s' for option 'device'; accepted: %s", v,
                opsched_device_names());
  o->device = d;
  return 0;
}

int opsched_options_set_priority(opsched_options *o, const char *v, char *err,
                                 size_t n) {
  if (strcmp(v, "critical-path") == 0)
    o->schedule.priority = OPSCHED_PRIORITY_CRITICAL_PATH;
  else if (strcmp(v, "program-order") == 0)
    o->schedule.priority = OPSCHED_PRIORITY_PROGRAM_ORDER;
  else
    return fail(err, n,
                "invalid value '%s' for option 'priority'; accepted: critical-path, program-order", v);
  return 0;
}

static int set_count(int32_t *slot, int64_t v, int64_t min, const char *name,
                     const char *what, char *err, size_t n) {
  if (v < min || v > 1000000)
    return fail(err, n, "invalid value '%lld' for option '%s'; accepted: %s",
                (long long)v, name, what);
  *slot = (int32_t)v;
  return 0;
}

int opsched_options_set_streams(opsched_options *o, int64_t v, char *err, size_t n) {
  return set_count(&o->schedule.streams, v, 1, "streams",
                   "an integer from 1 to 1000000", err, n);
}

int opsched_options_set_resource_limit(opsched_options *o, int64_t v, char *err,
                                       size_t n) {
  return set_count(&o->schedule.resource_limit, v, 0, "resource-limit",
                   "0 (= streams) or an integer up to 1000000", err, n);
}

int opsched_options_set_effort(opsched_options *o, int64_t v, char *err, size_t n) {
  return set_count(&o->schedule.effort, v, 0, "effort",
                   "an integer from 0 to 1000000", err, n);
}

int opsched_options_set_max_memory(opsched_options *o, const char *v, char *err,
                                   size_t n) {
  int64_t bytes;
  if (opsched_parse_size(v, &bytes))
    return fail(err, n,
                "invalid value '%s' for option 'max-memory'; accepted: a size such as "
                "0 (no limit), 4096, 512KiB, 64MiB, 2GiB",
                v);
  o->max_memory = bytes;
  return 0;
}

int opsched_options_set_policy(opsched_options *o, const char *v, char *err,
                               size_t n) {
  if (opsched_memory_policy_from_name(v, &o->memory_policy) == OPSCHED_OK)
    return 0;
  return fail(err, n,
              "invalid value '%s' for option 'policy'; accepted: critical-path, "
              "min-memory, program-order, exact, xla-list, xla-dfs, xla-postorder, "
              "inductor-lpmf, inductor-bfs, inductor-dfs, sethi-ullman",
              v);
}

int opsched_parse_size(const char *text, int64_t *bytes) {
  if (!text || !isdigit((unsigned char)text[0]))
    return 1;
  errno = 0;
  char *end;
  unsigned long long value = strtoull(text, &end, 10);
  if (errno == ERANGE)
    return 1;
  static const struct {
    const char *suffix;
    unsigned long long scale;
  } units[] = {{"", 1ull},          {"B", 1ull},
               {"KiB", 1ull << 10}, {"MiB", 1ull << 20},
               {"GiB", 1ull << 30}, {"TiB", 1ull << 40},
               {"KB", 1000ull},     {"MB", 1000000ull},
               {"GB", 1000000000ull}, {"TB", 1000000000000ull}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strcmp(end, units[i].suffix) != 0)
      continue;
    if (value > (unsigned long long)INT64_MAX / units[i].scale)
      return 1;
    *bytes = (int64_t)(value * units[i].scale);
    return 0;
  }
  return 1;
}

int opsched_options_set_alignment(opsched_options *o, int64_t v, char *err, size_t n) {
  if (v < 1 || v > ((int64_t)1 << 30) || (v & (v - 1)) != 0)
    return fail(err, n,
                "invalid value '%lld' for option 'alignment'; accepted: a power of two "
                "from 1 to 1073741824",
                (long long)v);
  o->alignment = v;
  return 0;
}

int opsched_options_set_summary_format(opsched_options *o, const char *v, char *err,
                                       size_t n) {
  static const char *const names[] = {"pretty", "json", "csv"};
  for (int i = 0; v && i < 3; i++)
    if (strcmp(v, names[i]) == 0) {
      o->summary_format = i;
      return 0;
    }
  return fail(err, n, "invalid value '%s' for option 'summary-format'; accepted: pretty, json, csv",
              v ? v : "");
}

int opsched_options_set_makespan_tolerance(opsched_options *o, double percent, char *err,
                                           size_t n) {
  if (!(percent >= 0.0 && percent <= 100.0))
    return fail(err, n,
                "invalid value '%g' for option 'makespan-tolerance'; accepted: a percentage "
                "from 0 to 100",
                percent);
  o->makespan_tolerance = percent / 100.0;
  return 0;
}
