#include "materialize_util.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int opsched_op_is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  size_t len = strlen(name);
  return n.length == len && memcmp(n.data, name, len) == 0;
}

static int ends_with(MlirStringRef s, const char *suffix) {
  size_t len = strlen(suffix);
  return s.length >= len && memcmp(s.data + s.length - len, suffix, len) == 0;
}

int opsched_op_is_terminator_like(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return ends_with(n, ".yield") || ends_with(n, ".return") || ends_with(n, ".br") ||
         ends_with(n, ".cond_br") || ends_with(n, ".switch") || ends_with(n, ".condition");
}

int64_t opsched_type_storage_bytes(MlirType t) {
  if (mlirTypeIsAIndex(t))
    return 8;
  if (mlirTypeIsAInteger(t))
    return ((int64_t)mlirIntegerTypeGetWidth(t) + 7) / 8;
  if (mlirTypeIsAFloat(t))
    return ((int64_t)mlirFloatTypeGetWidth(t) + 7) / 8;
  if (mlirTypeIsAComplex(t))
    return 2 * opsched_type_storage_bytes(mlirComplexTypeGetElementType(t));
  return 0;
}

int opsched_read_single_i64(MlirOperation op, const char *name, int64_t *out) {
  MlirAttribute a =
      mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a))
    return 0;
  if (!mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) != mlirOperationGetNumResults(op) ||
      mlirDenseArrayGetNumElements(a) < 1)
    return -1;
  *out = mlirDenseI64ArrayGetElement(a, 0);
  return 1;
}

int opsched_read_i64(MlirOperation op, const char *name, int64_t *out) {
  MlirAttribute a =
      mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a))
    return 0;
  if (!mlirAttributeIsAInteger(a))
    return -1;
  *out = mlirIntegerAttrGetValueInt(a);
  return 1;
}

void opsched_emitf(MlirOperation op, opsched_severity severity, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  opsched_mlir_emit(mlirOperationGetLocation(op), severity, msg);
}
