#include "sort.h"

#include <stdlib.h>

static int cmp_i32(const void *x, const void *y) {
  int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
  return (a > b) - (a < b);
}

void opsched_sort_i32(int32_t *a, int64_t k) {
  if (k <= 16) { /* the usual row: insertion sort */
    for (int64_t i = 1; i < k; i++) {
      int32_t x = a[i];
      int64_t j = i;
      for (; j > 0 && a[j - 1] > x; j--)
        a[j] = a[j - 1];
      a[j] = x;
    }
    return;
  }
  int64_t i = 1;
  while (i < k && a[i - 1] <= a[i])
    i++;
  if (i < k) /* qsort even on sorted input costs k log k calls */
    qsort(a, (size_t)k, sizeof *a, cmp_i32);
}
