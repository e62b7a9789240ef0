/* opsched_trace: records which thread ran which op of a materialized program,
 * and when (scripts/run-model.sh --trace, docs/materialize.md).
 *
 * `run_model_harness.py trace` puts `opsched_trace(ID, 0)` before and
 * `opsched_trace(ID, 1)` after every linalg op / memref.copy of the
 * scheduled function (ID: the op's line in the materialized file). Each
 * call records the kernel thread id, CLOCK_MONOTONIC and the thread's CPU
 * time (CLOCK_THREAD_CPUTIME_ID); at exit the records go to the file named by
 * OPSCHED_TRACE (stderr without it), one "tid id phase ns cpu_ns" line each.
 * The cost is two clock reads and an atomic increment per record. */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  long tid;
  int64_t id, phase;
  long long ns, cpu;
} record_t;

enum { CAPACITY = 1 << 20 };
static record_t records[CAPACITY];
static atomic_long count;

static long long clock_ns(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

void opsched_trace(int64_t id, int64_t phase) {
  long i = atomic_fetch_add(&count, 1);
  if (i >= CAPACITY)
    return;
  records[i] = (record_t){syscall(SYS_gettid), id, phase, clock_ns(CLOCK_MONOTONIC),
                          clock_ns(CLOCK_THREAD_CPUTIME_ID)};
}

__attribute__((destructor)) static void opsched_trace_dump(void) {
  const char *path = getenv("OPSCHED_TRACE");
  FILE *out = path ? fopen(path, "w") : stderr;
  if (!out)
    return;
  long n = atomic_load(&count);
  if (n > CAPACITY)
    n = CAPACITY;
  for (long i = 0; i < n; i++)
    fprintf(out, "%ld %lld %lld %lld %lld\n", records[i].tid, (long long)records[i].id,
            (long long)records[i].phase, records[i].ns, records[i].cpu);
  if (path)
    fclose(out);
}
