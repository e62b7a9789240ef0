/* lib/core/buffers_internal.h - the buffer set's layout, read by the memory
 * model builder (internal, not installed). */
#ifndef OPSCHED_CORE_BUFFERS_INTERNAL_H
#define OPSCHED_CORE_BUFFERS_INTERNAL_H

#include "opsched/memory.h"

struct opsched_buffers {
  int32_t n;
  int32_t count, cap;
  int64_t *bytes;
  int32_t *owner;
  uint8_t *forever;
  int64_t nuses, ucap;
  int32_t *use_buf, *use_node;
  int64_t resident;
};

#endif
