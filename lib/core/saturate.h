/* lib/core/saturate.h - saturating int64 arithmetic (internal).
 * Times and byte counts saturate at INT64_MAX instead of wrapping, so a huge
 * tensor or cost is reported as huge, never as a small wrapped number. */
#ifndef OPSCHED_CORE_SATURATE_H
#define OPSCHED_CORE_SATURATE_H

#include <stdint.h>

static inline int64_t opsched_sat_add(int64_t a, int64_t b) {
  if (b > 0 && a > INT64_MAX - b)
    return INT64_MAX;
  if (b < 0 && a < INT64_MIN - b)
    return INT64_MIN;
  return a + b;
}

static inline int64_t opsched_sat_mul(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  if (a > 0 && b > 0 && a > INT64_MAX / b)
    return INT64_MAX;
  return a * b; /* callers only multiply non-negative sizes */
}

#endif
