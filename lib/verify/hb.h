/* lib/verify/hb.h - happens-before over streams and waits, as vector
 * clocks of the checker's own.
 *
 * Ops are numbered 0..n-1 in IR order and run on S dense streams; op v's
 * clock holds, per stream s, how many ops of s complete before v launches.
 * An op launches after its stream predecessor and after every op it waits
 * on, and so after everything those happen after. Clocks are built in IR
 * order: every op an op follows must have its clock complete already. */
#ifndef OPSCHED_VERIFY_HB_H
#define OPSCHED_VERIFY_HB_H

#include <stdint.h>

typedef struct vhb {
  int32_t n, S;
  int32_t *clk;  /* n * S */
  int32_t *sidx; /* n: the op's stream, -1 when the op is not placed */
  int32_t *spos; /* n: its position within that stream */
} vhb;

/* 0 on success, -1 when out of memory. Every op starts unplaced. */
int vhb_init(vhb *h, int32_t n, int32_t S);
void vhb_free(vhb *h);

/* Places op v as the next op of stream `s`: it follows the stream's
 * previous op, whose index is returned (-1 if none). Call in IR order. */
int32_t vhb_place(vhb *h, int32_t v, int32_t s, int32_t *last_of_stream);

/* Op v waits on op u (u placed and earlier in IR order). */
void vhb_wait(vhb *h, int32_t v, int32_t u);

/* Does op u complete before op v launches? False for unplaced ops. */
int vhb_before(const vhb *h, int32_t u, int32_t v);

/* Have ops of stream s up to position `pos` (inclusive) completed before
 * op v launches? */
int vhb_covers(const vhb *h, int32_t v, int32_t s, int32_t pos);

#endif
