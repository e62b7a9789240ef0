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

/* A device profile. Static data, never freed. The fields after launch_ns
 * are 0 in the built-in profiles (the plain roofline); a calibrated
 * profile (`opsched-bench calibrate`) measures them. */
typedef struct opsched_device {
  const char *name;
  double flops_per_ns; /* arithmetic throughput (GFLOP/s = flop/ns); of
                          reductions (contractions, convolutions, pooling)
                          when elementwise_flops_per_ns is set */
  double bytes_per_ns; /* memory bandwidth (GB/s = byte/ns) */
  int64_t launch_ns;   /* fixed overhead per launched op */
  /* Throughput of ops without a reduction (elementwise, broadcasts,
   * copies with arithmetic); 0 = flops_per_ns. Compiled loops without a
   * loop-carried sum run several times faster than contractions. */
  double elementwise_flops_per_ns;
  /* Ops that can run at once (hardware threads); 0 = as many as streams.
   * A schedule on more streams than cores has capacity `cores`. */
  int32_t cores;
  /* Extra overhead per op on several streams: the runtime's cost of an
   * async.execute region and its token (op-materialize-streams). */
  int64_t region_ns;
  /* A loop that strides across an operand (a transpose, a matmul's weight
   * read down its columns) misses the cache on each iteration when the
   * operand is larger than cache_bytes and the stride a multiple of 4 KiB
   * (every access in the same cache sets, on a new page), or when it is
   * larger than 8 x cache_bytes: strided_ns per such iteration; 0 = never.
   * (Measured here: 2048^2 and 1024^2 transposes 24-27 ns per element,
   * 1448^2 0.8 ns, 2896^2 20 ns.) */
  double strided_ns;
  double cache_bytes;
  /* Cross-stream hand-off: what a stream's region that waits on a token
   * of another stream's region pays between that token and its own start
   * (the async runtime handing the region to a worker, waking it when it
   * sleeps); 0 = none, the model before it existed. op-schedule charges
   * it on every dependency between streams (docs/Passes.md). */
  int64_t handoff_ns;
} opsched_device;

/* The profile named `name` ("generic", "h100", "a100", "cpu"), or NULL.
 * NULL `name` gives "generic". */
const opsched_device *opsched_device_lookup(const char *name);

/* Comma-separated list of known device names, for diagnostics. */
const char *opsched_device_names(void);

/* Reads a device profile file (`opsched-bench calibrate` writes one): lines
 * `flops_per_ns X`, `bytes_per_ns Y`, `launch_ns Z` (all three required,
 * X and Y > 0, Z >= 0), optional `elementwise_flops_per_ns E` (> 0),
 * `cores C` (integer >= 1), `region_ns R`, `strided_ns S`, `cache_bytes B`,
 * `handoff_ns H` (>= 0), `name N`, `#` comments.
 * `out->name` is "profile". Returns 0, or non-zero with a message in `err`. */
int opsched_device_profile_read(const char *path, opsched_device *out, char *err,
                                size_t err_size);

/* The static work of one op, as the MLIR side measured it. */
typedef struct opsched_op_work {
  double flops;  /* arithmetic operations */
  double bytes;  /* bytes read + written */
  int is_free;   /* views, constants, allocations: no kernel runs */
  int reduction; /* a loop the result does not index (contraction, convolution,
                    pooling): runs at flops_per_ns, not the elementwise rate */
  double strided;       /* iterations whose innermost loop strides across an operand */
  double strided_bytes; /* the largest such operand, in bytes */
  int strided_aligned;  /* some such stride is a multiple of 4 KiB (same cache sets) */
} opsched_op_work;

/* Roofline duration in ns of `work` on `device`; saturates at INT64_MAX.
 * The compute rate is flops_per_ns for reductions, else
 * elementwise_flops_per_ns when set; strided iterations that miss (see
 * strided_ns) add strided_ns each. */
int64_t opsched_cost_roofline(const opsched_device *device,
                              const opsched_op_work *work);

#ifdef __cplusplus
}
#endif

#endif
