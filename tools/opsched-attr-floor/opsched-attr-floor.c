/* opsched-attr-floor: what MLIR itself charges for the attributes
 * docs/Passes.md fixes, with no scheduling and no IR around them.
 *
 * For each of N ops it asks MLIR for what the pass asks on a flat block
 * on several streams (round 15's counts on dag 1000000 on 4 streams, after
 * the pass's own value tables: 1.45 IntegerAttr and 1.57 DenseI64ArrayAttr
 * calls per op, one dictionary of ten names per op): one distinct integer
 * (the id), a second distinct one for 9 ops in 20, a distinct 3-element
 * array, a second distinct 2-element array for 57 ops in 100, and the
 * op's dictionary of ten names holding them and shared small values.
 * Every call here makes a new value, as the ids do; in the pass some find
 * one. It prints the wall time and the nanoseconds per op for the whole
 * loop: what the pass's `opsched: attributes` phase would cost at that
 * size with no IR and no plan around it (docs/benchmarks-scale.md,
 * round 20).
 *
 * Usage: opsched-attr-floor OPS [--no-threading | --threads T]
 * (MLIR's uniquer takes locks and keeps a cache per thread when the
 * context is multi-threaded, as it is in opsched-opt and mlir-opt.)
 * --threads T: T threads make the same N ops at once on one context,
 * each a contiguous share (the wall time of the whole, as a pass that
 * wrote a block's attributes on several threads would see it: round 39,
 * the reason the pass writes them on one). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NAMES = 10 };

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The op's ten attributes, in the byte-wise order a dictionary keeps. */
static const char *const names[NAMES] = {
    "opsched.critical", "opsched.end",  "opsched.id",   "opsched.live_bytes",
    "opsched.offset",   "opsched.rank", "opsched.size", "opsched.slot",
    "opsched.start",    "opsched.stream"};

/* Values far from the ids and from each other: every one new. */
static int64_t scatter(int64_t i, int64_t salt) {
  return 1000000000 + ((i * 2654435761 + salt) & 0x3fffffff);
}

/* Makes op i's values and dictionary. */
static void make_op(MlirContext ctx, MlirType i64, const MlirIdentifier *id,
                         MlirAttribute shared, int64_t i) {
  MlirAttribute value[NAMES];
  for (int k = 0; k < NAMES; k++)
    value[k] = shared;
  value[2] = mlirIntegerAttrGet(i64, i); /* id */
  if (i % 20 < 9)
    value[8] = mlirIntegerAttrGet(i64, scatter(i, 1)); /* start */
  int64_t three[3] = {i, scatter(i, 2), scatter(i, 3)};
  value[4] = mlirDenseI64ArrayGet(ctx, 3, three); /* offset */
  if (i % 100 < 57) {
    int64_t two[2] = {scatter(i, 4), i};
    value[7] = mlirDenseI64ArrayGet(ctx, 2, two); /* slot */
  }
  MlirNamedAttribute named[NAMES];
  for (int k = 0; k < NAMES; k++)
    named[k] = mlirNamedAttributeGet(id[k], value[k]);
  mlirDictionaryAttrGet(ctx, NAMES, named);
}

/* One thread's share of the ops: [begin, end). */
typedef struct share {
  MlirContext ctx;
  MlirType i64;
  const MlirIdentifier *id;
  MlirAttribute shared;
  long long begin, end;
} share;

static void *make_share(void *arg) {
  const share *s = arg;
  for (long long i = s->begin; i < s->end; i++)
    make_op(s->ctx, s->i64, s->id, s->shared, i);
  return NULL;
}

enum { THREADS_MAX = 64 };

/* Ops [0, ops) made by `threads` threads at once; 0, or -1 when a thread
 * could not start. */
static int make_all(MlirContext ctx, MlirType i64, const MlirIdentifier *id,
                    MlirAttribute shared, long long ops, int threads) {
  share work[THREADS_MAX];
  pthread_t tid[THREADS_MAX];
  int started = 0, rc = 0;
  for (int t = 0; t < threads; t++)
    work[t] = (share){ctx, i64, id, shared, ops * t / threads, ops * (t + 1) / threads};
  if (threads == 1) {
    make_share(&work[0]);
    return 0;
  }
  for (; started < threads; started++)
    if (pthread_create(&tid[started], NULL, make_share, &work[started]) != 0) {
      rc = -1;
      break;
    }
  for (int t = 0; t < started; t++)
    pthread_join(tid[t], NULL);
  return rc;
}

int main(int argc, char **argv) {
  char *end = NULL;
  long long ops = argc >= 2 ? strtoll(argv[1], &end, 10) : 0;
  int threading = 1, threads = 1, usage = argc < 2 || !end || *end || ops <= 0 ||
                                          ops > (1LL << 31);
  if (argc == 3 && !strcmp(argv[2], "--no-threading")) {
    threading = 0;
  } else if (argc == 4 && !strcmp(argv[2], "--threads")) {
    char *tend = NULL;
    long t = strtol(argv[3], &tend, 10);
    usage |= !tend || *tend || t < 1 || t > THREADS_MAX;
    threads = usage ? 1 : (int)t;
  } else if (argc != 2) {
    usage = 1;
  }
  if (usage) {
    fprintf(stderr, "usage: opsched-attr-floor OPS [--no-threading | --threads T (1-%d)]\n",
            THREADS_MAX);
    return 2;
  }
  MlirContext ctx = mlirContextCreateWithThreading(threading);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirIdentifier id[NAMES];
  for (int k = 0; k < NAMES; k++)
    id[k] = mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(names[k]));
  MlirAttribute shared = mlirIntegerAttrGet(i64, 3);
  double t0 = seconds();
  if (make_all(ctx, i64, id, shared, ops, threads) != 0) {
    fprintf(stderr, "opsched-attr-floor: cannot start %d threads\n", threads);
    mlirContextDestroy(ctx);
    return 1;
  }
  double t = seconds() - t0;
  printf("ops %lld threading %d threads %d seconds %.3f ns/op %.0f\n", ops, threading,
         threads, t, t / (double)ops * 1e9);
  mlirContextDestroy(ctx);
  return 0;
}
