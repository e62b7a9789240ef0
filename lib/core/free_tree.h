/* lib/core/free_tree.h - the free list of the arena's sweep packer
 * (internal).
 *
 * Free blocks of the sweep packer, pairwise disjoint, each of size > 0:
 * one treap ordered by (size, offset) (best fit: the smallest block that
 * fits, the lowest offset among equal sizes) and two hash tables, block
 * start -> node and block end -> node (coalescing only ever asks for the
 * block that touches a given offset, and growth at the top for the block
 * that ends there). An ordered list (the sweep's per-stream pools) also
 * keeps a treap by offset, for the block that holds a given offset; a
 * starts-only list (the sweep's map of unused parts) keeps neither treap
 * nor the end table, only block start -> node. Nodes
 * come from a pool that grows with the blocks free at once; priorities are
 * a fixed hash of the node index, so the shapes are deterministic. Every
 * operation is iterative: O(log blocks) expected for the treaps, O(1)
 * expected for the tables. */
#ifndef OPSCHED_CORE_FREE_TREE_H
#define OPSCHED_CORE_FREE_TREE_H

#include <stdint.h>

/* The two treaps' indices in ch and root. */
enum { FT_BY_SIZE = 0, FT_BY_OFFSET = 1 };

typedef struct ft_node {
  int64_t fo, fs;    /* offset, size */
  int32_t ch[2][2];  /* children in each treap; the pool's free list in
                        ch[FT_BY_SIZE][0]; by offset: ordered lists only */
  int32_t tag;       /* the caller's, e.g. the buffer a block belongs to */
} ft_node;

/* One slot: offset -> node, val -1 empty (key and value together: one
 * cache line per probe). */
typedef struct ft_slot {
  int64_t key;
  int32_t val;
} ft_slot;

/* Open addressing, linear probing: offset -> node. */
typedef struct ft_table {
  ft_slot *slot;
  int64_t cap, used; /* cap = 2^bits */
  int bits;
} ft_table;

typedef struct free_tree {
  ft_node *node;
  int32_t cap, count; /* pool: allocated, ever handed out */
  int32_t spare;      /* free list of returned nodes, -1 none */
  int32_t root[2];    /* treaps by (size, offset), by offset (ordered lists) */
  int ordered;
  int starts_only;    /* no treap, no end table: opsched_ft_at(F, off, 0) only */
  int oom;            /* a pool or table could not grow */
  ft_table start, end;
} free_tree;

/* An empty list; `blocks` is a hint for the pool's first size. 0, or -1
 * when out of memory (opsched_ft_free still required). */
int opsched_ft_init(free_tree *F, int32_t blocks);
/* As opsched_ft_init, also ordered by offset for opsched_ft_floor. */
int opsched_ft_init_ordered(free_tree *F, int32_t blocks);
/* As opsched_ft_init, keeping only block start -> node: opsched_ft_at with
 * end == 0 is its only query (no best fit, floor or end lookups). */
int opsched_ft_init_starts(free_tree *F, int32_t blocks);
void opsched_ft_free(free_tree *F);
/* A new block [off, off + size), size > 0, disjoint from the others;
 * returns its node, -1 when out of memory (F->oom set). */
int32_t opsched_ft_new(free_tree *F, int64_t off, int64_t size);
/* Removes node x and returns it to the pool. */
void opsched_ft_remove(free_tree *F, int32_t x);
/* Node x becomes [off, off + size), size > 0, still disjoint from the
 * others (its node is kept). 0, or -1 when out of memory (F->oom set). */
int opsched_ft_resize(free_tree *F, int32_t x, int64_t off, int64_t size);
/* The block that starts (end == 0) or ends (end != 0) at `off`; -1 when
 * none. */
int32_t opsched_ft_at(const free_tree *F, int64_t off, int end);
/* The smallest block of at least `size` bytes, lowest offset among equal
 * sizes; -1 when none. */
int32_t opsched_ft_best_fit(const free_tree *F, int64_t size);
/* An ordered list's block with the largest offset <= off; -1 when none. */
int32_t opsched_ft_floor(const free_tree *F, int64_t off);

#endif
