/* lib/core/free_tree.h - the free list of the arena's sweep packer
 * (internal).
 *
 * Free blocks of the sweep packer: each block is a node of two treaps, one
 * ordered by offset (neighbours, for coalescing; the highest block) and one
 * by (size, offset) (best fit: the smallest block that fits, the lowest
 * offset among equal sizes). Nodes come from one pool of m + 1; priorities
 * are a fixed hash of the node index, so the shapes are deterministic. */
#ifndef OPSCHED_CORE_FREE_TREE_H
#define OPSCHED_CORE_FREE_TREE_H

#include <stdint.h>

typedef struct free_tree {
  int64_t *fo, *fs;      /* offset, size per node */
  int32_t *ch;           /* 4 per node: offset-left/right, size-left/right */
  int32_t *spare;        /* free node indices */
  int32_t nspare;
  int32_t root[2];       /* 0: by offset, 1: by (size, offset) */
} free_tree;

/* Allocates the pool for up to `blocks` free blocks, both trees empty;
 * 0, or -1 when out of memory (opsched_ft_free still required). */
int opsched_ft_init(free_tree *F, int32_t blocks);
void opsched_ft_free(free_tree *F);
/* A new block [off, off + size) in both trees; returns its node. */
int32_t opsched_ft_new(free_tree *F, int64_t off, int64_t size);
/* Removes node x (in both trees) and returns it to the pool. */
void opsched_ft_remove(free_tree *F, int32_t x);
/* The last block with offset < off (next == 0) or the first with offset >
 * off (next != 0); -1 when none. */
int32_t opsched_ft_neighbour(free_tree *F, int64_t off, int next);
/* The smallest block of at least `size` bytes, lowest offset among equal
 * sizes; -1 when none. */
int32_t opsched_ft_best_fit(free_tree *F, int64_t size);

#endif
