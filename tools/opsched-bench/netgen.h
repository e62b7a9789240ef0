/* tools/opsched-bench/netgen.h - core graphs + buffers of real networks
 * (f32: bytes = numel x 4) and random layered DAGs, for the memory bench.
 *
 * Every op writes one new output buffer (destination-passing and aliasing
 * are resolved upstream, in lib/mlir); weights and the network input are
 * resident; the network output lives until the end. Costs are FLOPs / 1000
 * (nanoseconds at 1 TFLOP/s), used only by critical-path ranks. */
#ifndef OPSCHED_BENCH_NETGEN_H
#define OPSCHED_BENCH_NETGEN_H

#include "opsched/memory.h"

#include <stdint.h>

typedef struct netgen_block {
  char name[48];
  opsched_graph *graph;     /* finalized */
  opsched_buffers *buffers;
} netgen_block;

/* Names of the built-in networks, NULL-terminated. */
extern const char *const netgen_networks[];

/* Builds network `name` (one of netgen_networks); 0 on success. */
int netgen_network(const char *name, netgen_block *out);

/* A random layered DAG of about `nodes` ops: each op reads 1-3 outputs of
 * the previous two layers, outputs are 16 KiB - 64 MiB (log-uniform), some
 * ops read a resident weight, sinks are results. Deterministic per seed. */
int netgen_random(uint64_t seed, int32_t nodes, netgen_block *out);

void netgen_free(netgen_block *block);

#endif
