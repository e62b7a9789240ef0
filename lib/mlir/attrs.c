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
