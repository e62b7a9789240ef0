/* Which buffer holds each byte of an arena last (paint_map.h). */
#include "paint_map.h"

int paint_map_init(paint_map *M) { return opsched_ft_init_ordered(&M->blocks, 64); }

void paint_map_free(paint_map *M) { opsched_ft_free(&M->blocks); }

/* Block r, now [lo, hi), keeps only [lo, a) and [b, hi) (either may be
 * empty); returns 0, -1 when out of memory. */
static int cut(free_tree *F, int32_t r, int64_t lo, int64_t hi, int64_t a, int64_t b) {
  int32_t tag = F->node[r].tag;
  if (lo < a && hi > b) { /* around [a, b): in two */
    if (opsched_ft_resize(F, r, lo, a - lo) != 0)
      return -1;
    int32_t c = opsched_ft_new(F, b, hi - b);
    if (c < 0)
      return -1;
    F->node[c].tag = tag;
    return 0;
  }
  if (lo < a)
    return opsched_ft_resize(F, r, lo, a - lo);
  if (hi > b)
    return opsched_ft_resize(F, r, b, hi - b);
  opsched_ft_remove(F, r);
  return 0;
}

int32_t paint_map_paint(paint_map *M, int64_t a, int64_t b, int32_t holder, int32_t *held) {
  free_tree *F = &M->blocks;
  int32_t count = 0;
  /* From the block holding b - 1 down to the one holding a. */
  for (int32_t r = opsched_ft_floor(F, b - 1); r >= 0;) {
    int64_t lo = F->node[r].fo, hi = lo + F->node[r].fs;
    if (hi <= a)
      break;
    int32_t below = lo > a ? opsched_ft_floor(F, lo - 1) : -1;
    held[count++] = F->node[r].tag;
    if (cut(F, r, lo, hi, a, b) != 0)
      return -1;
    r = below;
  }
  int32_t c = opsched_ft_new(F, a, b - a);
  if (c < 0 || F->oom)
    return -1;
  F->node[c].tag = holder;
  return count;
}
