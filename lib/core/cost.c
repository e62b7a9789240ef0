#include "opsched/cost.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Dense FP32-class throughput (TF32 tensor cores on the GPUs), HBM/DRAM
 * bandwidth, and a typical kernel launch + dispatch overhead; the plain
 * roofline (one rate, no core limit, no region overhead). */
static const opsched_device devices[] = {
    {"generic", 10000.0, 500.0, 5000, 0, 0, 0, 0, 0, 0},
    {"h100", 494000.0, 3350.0, 2000, 0, 0, 0, 0, 0, 0},
    {"a100", 156000.0, 2039.0, 3000, 0, 0, 0, 0, 0, 0},
    {"cpu", 200.0, 50.0, 50, 0, 0, 0, 0, 0, 0},
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

/* The profile's keys. */
enum {
  KEY_FLOPS, KEY_BYTES, KEY_LAUNCH, KEY_ELEMENTWISE, KEY_CORES, KEY_REGION, KEY_STRIDED,
  KEY_CACHE, KEY_HANDOFF, KEY_COUNT
};
static const char *const profile_keys[KEY_COUNT] = {
    "flops_per_ns", "bytes_per_ns", "launch_ns", "elementwise_flops_per_ns", "cores",
    "region_ns", "strided_ns", "cache_bytes", "handoff_ns"};

/* Reads `key value` lines into v[] (given[k] set for each key read);
 * returns the first bad line or 0. */
static int read_profile_lines(FILE *f, double v[KEY_COUNT], int given[KEY_COUNT]) {
  char line[256];
  int lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    char key[64];
    double value;
    char *p = line + strspn(line, " \t");
    if (*p == '#' || *p == '\n' || *p == 0 || strncmp(p, "name ", 5) == 0)
      continue;
    if (sscanf(p, "%63s %lf", key, &value) != 2)
      return lineno;
    int k = 0;
    while (k < KEY_COUNT && strcmp(key, profile_keys[k]) != 0)
      k++;
    if (k == KEY_COUNT)
      return lineno;
    v[k] = value;
    given[k] = 1;
  }
  return 0;
}

int opsched_device_profile_read(const char *path, opsched_device *out, char *err,
                                size_t err_size) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, err_size, "cannot open the device profile");
    return 1;
  }
  double v[KEY_COUNT] = {0};
  int given[KEY_COUNT] = {0};
  int bad = read_profile_lines(f, v, given);
  fclose(f);
  if (bad) {
    snprintf(err, err_size, "device profile line %d: want 'flops_per_ns X', "
             "'bytes_per_ns Y', 'launch_ns Z', 'elementwise_flops_per_ns E', 'cores C', "
             "'region_ns R', 'strided_ns S', 'cache_bytes B', 'handoff_ns H', 'name N' or "
             "'# comment'", bad);
    return 1;
  }
  if (!given[KEY_FLOPS] || !given[KEY_BYTES] || !given[KEY_LAUNCH] || !(v[KEY_FLOPS] > 0) ||
      !(v[KEY_BYTES] > 0) || !(v[KEY_LAUNCH] >= 0) || v[KEY_LAUNCH] > 1e15) {
    snprintf(err, err_size, "device profile needs flops_per_ns > 0, bytes_per_ns > 0 "
             "and launch_ns >= 0");
    return 1;
  }
  /* Optional keys: absent (0: the plain roofline) or in range. */
  if ((given[KEY_ELEMENTWISE] && !(v[KEY_ELEMENTWISE] > 0)) ||
      (given[KEY_CORES] && !(v[KEY_CORES] >= 1 && v[KEY_CORES] <= 65536 &&
                             v[KEY_CORES] == floor(v[KEY_CORES]))) ||
      (given[KEY_REGION] && !(v[KEY_REGION] >= 0 && v[KEY_REGION] <= 1e15)) ||
      (given[KEY_STRIDED] && !(v[KEY_STRIDED] >= 0 && v[KEY_STRIDED] <= 1e15)) ||
      (given[KEY_CACHE] && !(v[KEY_CACHE] >= 0 && v[KEY_CACHE] <= 1e18)) ||
      (given[KEY_HANDOFF] && !(v[KEY_HANDOFF] >= 0 && v[KEY_HANDOFF] <= 1e15))) {
    snprintf(err, err_size, "device profile: elementwise_flops_per_ns must be > 0, cores "
             "an integer in [1, 65536], region_ns, strided_ns, cache_bytes and handoff_ns "
             ">= 0");
    return 1;
  }
  out->name = "profile";
  out->flops_per_ns = v[KEY_FLOPS];
  out->bytes_per_ns = v[KEY_BYTES];
  out->launch_ns = (int64_t)v[KEY_LAUNCH];
  out->elementwise_flops_per_ns = v[KEY_ELEMENTWISE];
  out->cores = (int32_t)v[KEY_CORES];
  out->region_ns = (int64_t)v[KEY_REGION];
  out->strided_ns = v[KEY_STRIDED];
  out->cache_bytes = v[KEY_CACHE];
  out->handoff_ns = (int64_t)v[KEY_HANDOFF];
  return 0;
}

int64_t opsched_cost_roofline(const opsched_device *d, const opsched_op_work *w) {
  if (w->is_free)
    return 0;
  double rate = !w->reduction && d->elementwise_flops_per_ns > 0 ? d->elementwise_flops_per_ns
                                                                : d->flops_per_ns;
  double compute = w->flops > 0 ? w->flops / rate : 0.0;
  double memory = w->bytes > 0 ? w->bytes / d->bytes_per_ns : 0.0;
  int misses = w->strided_bytes > (w->strided_aligned ? 1.0 : 8.0) * d->cache_bytes;
  double strided = misses ? w->strided * d->strided_ns : 0.0;
  double t = ceil((compute > memory ? compute : memory) + strided) + (double)d->launch_ns;
  if (!(t < 9.0e18)) /* also catches NaN */
    return INT64_MAX;
  return (int64_t)t;
}
