#include "attrs.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "queries.h"

void opsched_attr_set_i64(MlirOperation op, const char *name, int64_t value) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(name),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), value));
}

void opsched_attr_set_unit(MlirOperation op, const char *name, int present) {
  MlirStringRef n = mlirStringRefCreateFromCString(name);
  if (present)
    mlirOperationSetDiscardableAttributeByName(op, n,
                                               mlirUnitAttrGet(mlirOperationGetContext(op)));
  else
    mlirOperationRemoveDiscardableAttributeByName(op, n);
}

void opsched_attr_set_f64(MlirOperation op, const char *name, double value) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(name),
      mlirFloatAttrDoubleGet(ctx, mlirF64TypeGet(ctx), value));
}

void opsched_attr_set_i64_array(MlirOperation op, const char *name,
                                const int64_t *values, intptr_t count) {
  mlirOperationSetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(name),
      mlirDenseI64ArrayGet(mlirOperationGetContext(op), count, values));
}

void opsched_attr_remove(MlirOperation op, const char *name) {
  mlirOperationRemoveDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

void opsched_batch_begin(opsched_attr_batch *b, MlirOperation op) {
  b->op = op;
  b->ctx = mlirOperationGetContext(op);
  b->nset = b->nremove = 0;
}

static void batch_set(opsched_attr_batch *b, const char *name, MlirAttribute value) {
  if (b->nset == OPSCHED_ATTR_BATCH_MAX)
    opsched_batch_commit(b); /* more than a batch holds: flush, go on */
  b->set[b->nset++] = mlirNamedAttributeGet(
      mlirIdentifierGet(b->ctx, mlirStringRefCreateFromCString(name)), value);
}

void opsched_batch_i64(opsched_attr_batch *b, const char *name, int64_t value) {
  batch_set(b, name, mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), value));
}

void opsched_batch_i64_array(opsched_attr_batch *b, const char *name,
                             const int64_t *values, intptr_t count) {
  batch_set(b, name, mlirDenseI64ArrayGet(b->ctx, count, values));
}

void opsched_batch_unit(opsched_attr_batch *b, const char *name, int present) {
  if (present)
    batch_set(b, name, mlirUnitAttrGet(b->ctx));
  else
    opsched_batch_remove(b, name);
}

void opsched_batch_remove(opsched_attr_batch *b, const char *name) {
  if (b->nremove == OPSCHED_ATTR_BATCH_MAX)
    opsched_batch_commit(b);
  b->remove[b->nremove++] = mlirStringRefCreateFromCString(name);
}

void opsched_batch_commit(opsched_attr_batch *b) {
  if (b->nset || b->nremove)
    opschedMlirUpdateDiscardableAttrs(b->op, b->set, b->nset, b->remove, b->nremove);
  b->nset = b->nremove = 0;
}
