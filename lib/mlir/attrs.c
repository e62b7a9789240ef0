#include "attrs.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

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
