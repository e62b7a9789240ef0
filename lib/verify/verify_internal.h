/* lib/verify/verify_internal.h - what the checker's files share: the
 * function context with its diagnostics, one block's ops as read from their
 * attributes, and the phases of a block's check (one per property). */
#ifndef OPSCHED_VERIFY_INTERNAL_H
#define OPSCHED_VERIFY_INTERNAL_H

#include "hb.h"

#include "mlir-c/IR.h"

#include <stddef.h>
#include <stdint.h>

#include "opsched/attr_names.h"
#define A_START OPSCHED_ATTR_START
#define A_END OPSCHED_ATTR_END
#define A_STREAM OPSCHED_ATTR_STREAM
#define A_ID OPSCHED_ATTR_ID
#define A_WAITS OPSCHED_ATTR_WAITS
#define A_RESOURCES OPSCHED_ATTR_RESOURCES
#define A_COST OPSCHED_ATTR_COST
#define A_BYTES OPSCHED_ATTR_BYTES
#define A_SLOT OPSCHED_ATTR_SLOT
#define A_OFFSET OPSCHED_ATTR_OFFSET
#define A_SIZE OPSCHED_ATTR_SIZE
#define F_STREAMS OPSCHED_ATTR_STREAMS
#define F_RESOURCE_LIMIT OPSCHED_ATTR_RESOURCE_LIMIT
#define F_ARENA OPSCHED_ATTR_ARENA_SIZE
#define F_MEMORY_LIMIT OPSCHED_ATTR_MEMORY_LIMIT

#define PREFIX "opsched-verify: "
/* The largest time, size or offset (docs/Passes.md "Numeric range"): sums
 * of two and doubled times stay far from overflow. */
#define MAX_VALUE OPSCHED_ATTR_VALUE_MAX
#define MAX_VALUE_TEXT "2^60-1"

/* A timeline event (capacity, live bytes in time): at one instant the
 * kind-0 events (ends, frees) come before the kind-1 ones (starts, allocs),
 * then position order. */
typedef struct vevent {
  int64_t t;
  int32_t kind;
  int32_t pos;
  int64_t amount;
} vevent;

/* qsort order of vevent: time, kind, position. */
int vevent_cmp(const void *a, const void *b);

typedef struct vdiag {
  uint64_t key, seq;
  MlirOperation op;
  char *msg;
  MlirOperation note_op; /* null: no note */
  char *note;
} vdiag;

typedef struct vmap_entry {
  const void *key;
  uint32_t pre; /* pre-order number in the function */
  int32_t pos;  /* position in its block, set when the block is checked */
  int32_t idx;  /* position in its block, set by vcollect_uses */
} vmap_entry;

typedef struct vctx {
  MlirOperation func;
  vdiag *diags;
  size_t ndiags, capdiags;
  uint64_t seq;
  int oom;
  vmap_entry *map;
  size_t mapcap, mapcount;
  int func_bad; /* a function attribute is malformed: blocks only read theirs */
  /* Function attributes. */
  int has_streams, has_rlimit, has_arena, has_mlimit;
  int64_t streams, rlimit, arena, mlimit;
  /* Measured over the body's blocks. */
  int64_t arena_need, arena_slot;
  int64_t mem_peak, mem_time; /* mem_time: instant (ns) or -1 (one stream) */
  int64_t mem_op;             /* one stream: position of the op at the peak */
  /* The ops' effect facts (facts.h), shared by the function's blocks: a
   * nested op is read once, not once per ancestor. NULL: out of memory. */
  struct opsched_vfx_cache *fx_cache;
  /* Every block's uses (vcollect_uses): grouped by block, each group in
   * walk order; block_uses indexes the groups by block pointer. */
  struct vuse *uses;
  struct vblock_uses *block_uses;
  size_t nblock_uses;
} vctx;

typedef struct vop {
  MlirOperation op;
  int is_term; /* the block's terminator (or an unregistered last op) */
  int exempt;  /* the terminator without schedule attributes */
  int timed;
  int64_t start, end;
  int streamed;
  int64_t stream;
  int32_t sidx, spos; /* dense stream index, position within the stream */
  int has_id;
  int64_t id;
  int has_waits;
  MlirAttribute waits;
  int64_t demand;
  int32_t nres;
  int has_slots;
  int64_t *slot, *offset, *size; /* nres each, when has_slots */
} vop;

typedef struct vuse {
  int32_t u, r, v; /* op u's result r is used by op v (or inside it) */
} vuse;

/* A block's uses in vctx.uses. */
typedef struct vblock_uses {
  const void *block;
  size_t first, count;
} vblock_uses;

typedef struct vidpos {
  int64_t id;
  int32_t pos;
} vidpos;

typedef struct vblock {
  vctx *c;
  MlirBlock block;
  int top_level;
  int32_t n;
  vop *ops;
  int64_t *pool; /* slot/offset/size arrays of all ops */
  const vuse *uses; /* in vctx.uses */
  size_t nuses;
  int timed, multi;
  int32_t S; /* dense streams (1 without stream attributes) */
  vidpos *ids;
  size_t nids;
  vhb h;
} vblock;

/* verify.c: diagnostics, attributes. */
void *vcalloc(size_t n, size_t size);

/* Room for `need` elements of `size` bytes in *p (*cap allocated, doubling
 * from 64); 0 when out of memory (*p unchanged). */
int vreserve(void **p, size_t need, size_t *cap, size_t size);
int64_t vsat_add(int64_t a, int64_t b);
__attribute__((format(printf, 3, 4))) void vdiag_at(vctx *c, MlirOperation op,
                                                    const char *fmt, ...);
/* An error at `op` with a note at `other`. */
__attribute__((format(printf, 5, 6))) void vdiag_note(vctx *c, MlirOperation op,
                                                      MlirOperation other, const char *note,
                                                      const char *fmt, ...);
vmap_entry *vlookup(vctx *c, MlirOperation op);
int vhas_schedule_attrs(MlirOperation op);
/* Reads and checks one op's attributes; 0 when malformed (each problem
 * reported at the op). */
int vread_op(vctx *c, vop *o, int64_t *pool);
/* "op 'arith.mulf' (id 3)", or "(position 3)" without an opsched.id. */
const char *vlabel(const vop *o, int32_t pos, char *buf, size_t n);

/* block.c: the block's driver. */
void vverify_block(vctx *c, MlirBlock block, int top_level);

/* Collects the uses of every block of `func` into c->uses (sets c->oom when
 * out of memory). */
void vcollect_uses(vctx *c, MlirOperation func);
/* Does op u complete before op v launches (stream order and waits)? */
int vbefore(const vblock *b, int32_t u, int32_t v);

/* effects.c: memory effects, speculation, allocation scope, terminator. */
void vcheck_effects(vblock *b);
void vcheck_terminator(vblock *b);

/* slots.c: buffer slots, overlap, arena and live bytes. */
void vcheck_buffers(vblock *b);

#endif
