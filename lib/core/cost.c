#include "opsched/cost.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Dense FP32-class throughput (TF32 tensor cores on the GPUs), HBM/DRAM
 * bandwidth, and a typical kernel launch + dispatch overhead. */
static const opsched_device devices[] = {
    {"generic", 10000.0, 500.0, 5000},
    {"h100", 494000.0, 3350.0, 2000},
    {"a100", 156000.0, 2039.0, 3000},
    {"cpu", 200.0, 50.0, 50},
};

const opsched_device *opsched_device_lookup(const char *name) {
  if (!name)
    return &devices[0];
  for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++)
    if (strcmp(devices[i].name, name) == 0)
      return &devices[i];
  return NULL;
}

const char *opsched_device_names(void) { return "generic, h100, a100, cpu"; }

int64_t opsched_cost_roofline(const opsched_device *d, const opsched_op_work *w) {
  if (w->is_free)
    return 0;
  double compute = w->flops > 0 ? w->flops / d->flops_per_ns : 0.0;
  double memory = w->bytes > 0 ? w->bytes / d->bytes_per_ns : 0.0;
  double t = ceil(compute > memory ? compute : memory) + (double)d->launch_ns;
  if (!(t < 9.0e18)) /* also catches NaN */
    return INT64_MAX;
  return (int64_t)t;
}
