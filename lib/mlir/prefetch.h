/* lib/mlir/prefetch.h - reading a block's ops ahead (internal).
 * A pass over a large block's ops misses the cache on every op (a million
 * ops are hundreds of MB); the passes go in program order, so the memory
 * of the op a few positions ahead can be asked for while this one is
 * worked on. A hint only: it never changes what is computed. */
#ifndef OPSCHED_MLIR_PREFETCH_H
#define OPSCHED_MLIR_PREFETCH_H

#include "mlir-c/IR.h"

#include <stdint.h>

/* How far ahead; blocks smaller than this stay in cache: not asked. */
enum { OPSCHED_PREFETCH_AHEAD = 8, OPSCHED_PREFETCH_MIN_OPS = 32768 };

/* Asks for the first two cache lines of ops[j] (an op's fields and its
 * first operands) when 0 <= j < n on a large block: a pass at position i asks for
 * i + OPSCHED_PREFETCH_AHEAD (or i minus it, going backwards). */
static inline void opsched_prefetch_op(const MlirOperation *ops, int32_t j, int32_t n) {
#if defined(__GNUC__) || defined(__clang__)
  if (n >= OPSCHED_PREFETCH_MIN_OPS && j >= 0 && j < n) {
    const char *p = (const char *)ops[j].ptr;
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
  }
#else
  (void)ops;
  (void)j;
  (void)n;
#endif
}

#endif
