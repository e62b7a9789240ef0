/* lib/verify/fxindex.h - the latest op of a class on each stream, for the
 * effect-ordering check (effects.c): a class is a set of ops that conflict
 * with some query (e.g. "writes resource R through root P"); per class and
 * stream only the latest op so far is kept, because on one stream an op
 * that happens before v makes every earlier op of that stream happen before
 * v too. A query walks the streams of its class. Hash tables keyed by 3
 * words; private to lib/verify. */
#ifndef OPSCHED_VERIFY_FXINDEX_H
#define OPSCHED_VERIFY_FXINDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct vtab {
  uint64_t (*key)[3];
  int32_t *val; /* -1: empty */
  size_t cap, n;
} vtab;

typedef struct vlast {
  int32_t stream, last, next; /* next: the class's next stream, -1 at the end */
} vlast;

typedef struct vfxindex {
  vtab classes; /* (a, b, c) -> class id */
  vtab slots;   /* (class, stream) -> entry in `e` */
  int32_t *head; /* class -> its first entry, -1 when none */
  size_t nclass, capclass;
  vlast *e;
  size_t ne, cape;
  int oom;
} vfxindex;

void vfx_index_free(vfxindex *ix);

/* The class of key (a, b, c); created when `create`, else -1 when absent.
 * -1 also when out of memory (ix->oom set). */
int32_t vfx_class(vfxindex *ix, uint64_t a, uint64_t b, uint64_t c, int create);

/* Op `x` (increasing over calls) is now the latest of class `cls` on
 * `stream`. */
void vfx_note(vfxindex *ix, int32_t cls, int32_t stream, int32_t x);

/* First entry of a class (walk with e[i].next); -1 when none. */
int32_t vfx_first(const vfxindex *ix, int32_t cls);

#endif
