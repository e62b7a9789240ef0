/* tools/malloc-count/malloc_count.c - counts the heap bytes a program holds.
 *
 * LD_PRELOAD it (or link it before libc): malloc and friends are forwarded
 * to the next definitions (glibc) and every block's usable size is added to
 * a running total; the peak of that total is kept. A program may call
 * opsched_mc_mark() to start a measurement (the peak restarts from the bytes
 * held now) and opsched_mc_peak() / opsched_mc_current() to read it. With
 * OPSCHED_MALLOC_COUNT=FILE (or '-' for stderr) the process-wide figures are
 * written at exit: "heap_peak_bytes N", "heap_end_bytes N".
 *
 * Counters are atomics: the async runtime's worker threads allocate too. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Atomic int64_t current_bytes, peak_bytes, process_peak;

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);

/* dlsym may allocate before the real calloc is known: served from here. */
static char bootstrap[4096];
static size_t bootstrap_used;

static int from_bootstrap(const void *p) {
  return (const char *)p >= bootstrap && (const char *)p < bootstrap + sizeof bootstrap;
}

static void resolve(void) {
  if (real_malloc)
    return;
  real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
  real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
  real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
  real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
  real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
  real_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
  real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
}

static void add(int64_t delta) {
  int64_t now = atomic_fetch_add(&current_bytes, delta) + delta;
  int64_t p = atomic_load(&peak_bytes);
  while (now > p && !atomic_compare_exchange_weak(&peak_bytes, &p, now)) {
  }
  p = atomic_load(&process_peak);
  while (now > p && !atomic_compare_exchange_weak(&process_peak, &p, now)) {
  }
}

static void *counted(void *p) {
  if (p)
    add((int64_t)malloc_usable_size(p));
  return p;
}

void *malloc(size_t n) {
  resolve();
  return counted(real_malloc(n));
}

void *calloc(size_t n, size_t size) {
  if (!real_calloc) {
    /* dlsym's own allocation, during resolve(). */
    size_t want = (n * size + 15) & ~(size_t)15;
    if (bootstrap_used + want > sizeof bootstrap)
      return NULL;
    void *p = bootstrap + bootstrap_used;
    bootstrap_used += want;
    return p;
  }
  return counted(real_calloc(n, size));
}

void free(void *p) {
  if (!p || from_bootstrap(p))
    return;
  resolve();
  add(-(int64_t)malloc_usable_size(p));
  real_free(p);
}

void *realloc(void *p, size_t n) {
  resolve();
  if (from_bootstrap(p)) {
    void *q = malloc(n);
    if (q)
      memcpy(q, p, n);
    return q;
  }
  int64_t old = p ? (int64_t)malloc_usable_size(p) : 0;
  void *q = real_realloc(p, n);
  if (q || n == 0)
    add(-old);
  return counted(q);
}

int posix_memalign(void **out, size_t align, size_t n) {
  resolve();
  int r = real_posix_memalign(out, align, n);
  if (r == 0)
    counted(*out);
  return r;
}

void *aligned_alloc(size_t align, size_t n) {
  resolve();
  return counted(real_aligned_alloc(align, n));
}

void *memalign(size_t align, size_t n) {
  resolve();
  return counted(real_memalign(align, n));
}

void opsched_mc_mark(void);
int64_t opsched_mc_peak(void);
int64_t opsched_mc_current(void);

/* Starts a measurement: the peak restarts from the bytes held now. */
void opsched_mc_mark(void) { atomic_store(&peak_bytes, atomic_load(&current_bytes)); }
int64_t opsched_mc_peak(void) { return atomic_load(&peak_bytes); }
int64_t opsched_mc_current(void) { return atomic_load(&current_bytes); }

__attribute__((destructor)) static void report(void) {
  const char *path = getenv("OPSCHED_MALLOC_COUNT");
  if (!path || !*path)
    return;
  FILE *f = strcmp(path, "-") == 0 ? stderr : fopen(path, "w");
  if (!f)
    return;
  fprintf(f, "heap_peak_bytes %lld\nheap_end_bytes %lld\n",
          (long long)atomic_load(&process_peak), (long long)atomic_load(&current_bytes));
  if (f != stderr)
    fclose(f);
}
