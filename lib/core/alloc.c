#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>

void *opsched_alloc_array(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size)
    return NULL;
  /* calloc(0, x) may return NULL; ask for one byte so NULL always means OOM. */
  return calloc(count ? count : 1, size ? size : 1);
}

void *opsched_alloc_array_raw(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size)
    return NULL;
  size_t bytes = count * size;
  return malloc(bytes ? bytes : 1);
}

void *opsched_realloc_array(void *ptr, size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size)
    return NULL;
  size_t bytes = count * size;
  return realloc(ptr, bytes ? bytes : 1);
}

void opsched_free(void *ptr) { free(ptr); }
