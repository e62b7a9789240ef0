/* opsched/cost.h - the cost model: an op's duration from its work, pure C.
 *
 * Roofline: duration = max(flops / peak, bytes / bandwidth) + launch
 * overhead, rounded up to whole nanoseconds. Free ops (reshape-like views,
 * constants, tensor.empty) cost 0 and pay no launch.
 */
#ifndef OPSCHED_COST_H
#define OPSCHED_COST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A device profile. Static data, never freed. */
typedef struct opsched_device {
  const char *name;
  double flops_per_ns; /* peak arithmetic throughput (GFLOP/s = flop/ns) */
  double bytes_per_ns; /* memory bandwidth (GB/s = byte/ns) */
  int64_t launch_ns;   /* fixed overhead per launched op */
} opsched_device;

/* The profile named `name` ("generic", "h100", "a100", "cpu"), or NULL.
 * NULL `name` gives "generic". */
const opsched_device *opsched_device_lookup(const char *name);

/* Comma-separated list of known device names, for diagnostics. */
const char *opsched_device_names(void);

/* Reads a device profile file (`opsched-bench calibrate` writes one): lines
 * `flops_per_ns X`, `bytes_per_ns Y`, `launch_ns Z` (all three required,
 * X and Y > 0, Z >= 0), `name N` optional, `#` comments. `out->name` is
 * "profile". Returns 0, or non-zero with a message in `err`. */
int opsched_device_profile_read(const char *path, opsched_device *out, char *err,
                                size_t err_size);

/* The static work of one op, as the MLIR side measured it. */
typedef struct opsched_op_work {
  double flops;  /* arithmetic operations */
  double bytes;  /* bytes read + written */
  int is_free;   /* views, constants, allocations: no kernel runs */
} opsched_op_work;

/* Roofline duration in ns of `work` on `device`; saturates at INT64_MAX. */
int64_t opsched_cost_roofline(const opsched_device *device,
                              const opsched_op_work *work);

#ifdef __cplusplus
}
#endif

#endif
