/* The buffer set: buffers, their allocating nodes and their uses
 * (include/opsched/memory.h). */
#include "opsched/memory.h"

#include "alloc.h"
#include "buffers_internal.h"
#include "saturate.h"

#include <string.h>

/* ---- Buffers --------------------------------------------------------- */


opsched_buffers *opsched_buffers_create(int32_t num_nodes) {
  if (num_nodes < 0)
    return NULL;
  opsched_buffers *b = opsched_alloc_array(1, sizeof *b);
  if (!b)
    return NULL;
  b->n = num_nodes;
  return b;
}

void opsched_buffers_destroy(opsched_buffers *b) {
  if (!b)
    return;
  opsched_free(b->bytes);
  opsched_free(b->owner);
  opsched_free(b->forever);
  opsched_free(b->use_buf);
  opsched_free(b->use_node);
  opsched_free(b);
}

/* Grows the buffer arrays to `cap` entries (>= b->count). */
static int grow_buffers(opsched_buffers *b, int32_t cap) {
  int64_t *nb = opsched_realloc_array(b->bytes, (size_t)cap, sizeof *nb);
  if (!nb)
    return 0;
  b->bytes = nb;
  int32_t *no = opsched_realloc_array(b->owner, (size_t)cap, sizeof *no);
  if (!no)
    return 0;
  b->owner = no;
  uint8_t *nf = opsched_realloc_array(b->forever, (size_t)cap, sizeof *nf);
  if (!nf)
    return 0;
  b->forever = nf;
  b->cap = cap;
  return 1;
}

/* Grows the use arrays to `cap` entries (>= b->nuses). */
static int grow_uses(opsched_buffers *b, int64_t cap) {
  int32_t *nb = opsched_realloc_array(b->use_buf, (size_t)cap, sizeof *nb);
  if (!nb)
    return 0;
  b->use_buf = nb;
  int32_t *nn = opsched_realloc_array(b->use_node, (size_t)cap, sizeof *nn);
  if (!nn)
    return 0;
  b->use_node = nn;
  b->ucap = cap;
  return 1;
}

opsched_status opsched_buffers_reserve(opsched_buffers *b, int32_t buffers, int64_t uses) {
  if (!b || buffers < 0 || uses < 0)
    return OPSCHED_ERR_INVALID;
  if (buffers > b->cap && !grow_buffers(b, buffers))
    return OPSCHED_ERR_NOMEM;
  if (uses > b->ucap && !grow_uses(b, uses))
    return OPSCHED_ERR_NOMEM;
  return OPSCHED_OK;
}

int32_t opsched_buffers_add(opsched_buffers *b, int64_t bytes,
                            int32_t allocating_node, int live_until_end) {
  if (!b || bytes < 0 || allocating_node < -1 || allocating_node >= b->n ||
      b->count == INT32_MAX)
    return -1;
  if (b->count == b->cap &&
      !grow_buffers(b, b->cap ? (b->cap > INT32_MAX / 2 ? INT32_MAX : b->cap * 2) : 16))
    return -1;
  int32_t id = b->count++;
  b->bytes[id] = bytes;
  b->owner[id] = allocating_node;
  b->forever[id] = allocating_node >= 0 && live_until_end != 0;
  if (allocating_node < 0)
    b->resident = opsched_sat_add(b->resident, bytes);
  return id;
}

opsched_status opsched_buffers_add_use(opsched_buffers *b, int32_t buffer,
                                       int32_t node) {
  if (!b || buffer < 0 || buffer >= b->count || node < 0 || node >= b->n)
    return OPSCHED_ERR_INVALID;
  if (b->nuses == b->ucap && !grow_uses(b, b->ucap ? b->ucap * 2 : 32))
    return OPSCHED_ERR_NOMEM;
  b->use_buf[b->nuses] = buffer;
  b->use_node[b->nuses] = node;
  b->nuses++;
  return OPSCHED_OK;
}

int32_t opsched_buffers_num_nodes(const opsched_buffers *b) { return b->n; }
int32_t opsched_buffers_count(const opsched_buffers *b) { return b->count; }
int64_t opsched_buffers_resident_bytes(const opsched_buffers *b) { return b->resident; }

int64_t opsched_buffers_size(const opsched_buffers *b, int32_t buffer) {
  return buffer >= 0 && buffer < b->count ? b->bytes[buffer] : -1;
}

int32_t opsched_buffers_allocating_node(const opsched_buffers *b, int32_t buffer) {
  return buffer >= 0 && buffer < b->count ? b->owner[buffer] : -2;
}

int opsched_buffers_live_until_end(const opsched_buffers *b, int32_t buffer) {
  return buffer >= 0 && buffer < b->count ? b->forever[buffer] != 0 : 0;
}

int64_t opsched_buffers_num_uses(const opsched_buffers *b) { return b->nuses; }

opsched_status opsched_buffers_use(const opsched_buffers *b, int64_t index,
                                   int32_t *buffer, int32_t *node) {
  if (index < 0 || index >= b->nuses)
    return OPSCHED_ERR_INVALID;
  *buffer = b->use_buf[index];
  *node = b->use_node[index];
  return OPSCHED_OK;
}
