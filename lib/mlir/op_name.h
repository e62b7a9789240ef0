/* Op-name tests, shared by lib/mlir (one copy: the dependency rules, the
 * alias classes, the buffers and the per-op summaries all ask them). */
#ifndef OPSCHED_MLIR_OP_NAME_H
#define OPSCHED_MLIR_OP_NAME_H

#include "mlir-c/IR.h"

#include <stddef.h>

/* `s` equals the C string `name`, compared inline byte by byte: most misses
 * stop at the first byte or at the dialect's name, with no strlen. */
static inline int opsched_mlir_ref_is(MlirStringRef s, const char *name) {
  size_t i = 0;
  for (; i < s.length; i++)
    if (name[i] != s.data[i] || name[i] == '\0')
      return 0;
  return name[i] == '\0';
}

/* `op`'s registered or unregistered name is `name`. */
static inline int opsched_mlir_op_is(MlirOperation op, const char *name) {
  return opsched_mlir_ref_is(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

/* `s` is one of the NULL-terminated list `names`. */
static inline int opsched_mlir_ref_is_any(MlirStringRef s, const char *const *names) {
  for (; *names; names++)
    if (opsched_mlir_ref_is(s, *names))
      return 1;
  return 0;
}

/* `op`'s name is one of the NULL-terminated list `names`. */
static inline int opsched_mlir_op_is_any(MlirOperation op, const char *const *names) {
  return opsched_mlir_ref_is_any(mlirIdentifierStr(mlirOperationGetName(op)), names);
}

#endif
