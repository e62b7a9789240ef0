/* test/unit/check.h - the unit tests' assertions.
 * Each test binary counts checks and ends with "N passed, N failed"; its
 * exit code is non-zero when any check failed. */
#ifndef OPSCHED_TEST_CHECK_H
#define OPSCHED_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond)                                                                  \
      check_passed++;                                                          \
    else {                                                                     \
      check_failed++;                                                          \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_EQ_I64(actual, expected)                                         \
  do {                                                                         \
    int64_t a_ = (int64_t)(actual), e_ = (int64_t)(expected);                  \
    if (a_ == e_)                                                              \
      check_passed++;                                                          \
    else {                                                                     \
      check_failed++;                                                          \
      fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %" PRId64                 \
              ", expected %" PRId64 "\n", __FILE__, __LINE__, #actual, a_, e_); \
    }                                                                          \
  } while (0)

static inline int check_report(const char *name) {
  printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
  return check_failed != 0;
}

#endif
