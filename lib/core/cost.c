#include "opsched/cost.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
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

int opsched_device_profile_read(const char *path, opsched_device *out, char *err,
                                size_t err_size) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, err_size, "cannot open the device profile");
    return 1;
  }
  double flops = -1, bytes = -1, launch = -1;
  char line[256];
  int lineno = 0, bad = 0;
  while (!bad && fgets(line, sizeof line, f)) {
    lineno++;
    char key[64];
    double value;
    char *p = line + strspn(line, " \t");
    if (*p == '#' || *p == '\n' || *p == 0 || strncmp(p, "name ", 5) == 0)
      continue;
    if (sscanf(p, "%63s %lf", key, &value) != 2)
      bad = lineno;
    else if (strcmp(key, "flops_per_ns") == 0)
      flops = value;
    else if (strcmp(key, "bytes_per_ns") == 0)
      bytes = value;
    else if (strcmp(key, "launch_ns") == 0)
      launch = value;
    else
      bad = lineno;
  }
  fclose(f);
  if (bad) {
    snprintf(err, err_size, "device profile line %d: want 'flops_per_ns X', "
             "'bytes_per_ns Y', 'launch_ns Z', 'name N' or '# comment'", bad);
    return 1;
  }
  if (!(flops > 0) || !(bytes > 0) || !(launch >= 0) || launch > 1e15) {
    snprintf(err, err_size, "device profile needs flops_per_ns > 0, bytes_per_ns > 0 "
             "and launch_ns >= 0");
    return 1;
  }
  out->name = "profile";
  out->flops_per_ns = flops;
  out->bytes_per_ns = bytes;
  out->launch_ns = (int64_t)launch;
  return 0;
}

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
