//===- Functions.h - which functions a pass run covers ----------*- C++ -*-===//
#ifndef OPSCHED_CXX_FUNCTIONS_H
#define OPSCHED_CXX_FUNCTIONS_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallVector.h"

namespace opsched {

/// The functions an op-agnostic opsched pass handles when run on `root`:
/// `root` itself if it is a function, else every function nested in it (not
/// looking inside functions), in IR order.
inline llvm::SmallVector<mlir::Operation *> collectFunctions(mlir::Operation *root) {
  llvm::SmallVector<mlir::Operation *> funcs;
  if (mlir::isa<mlir::FunctionOpInterface>(root)) {
    funcs.push_back(root);
    return funcs;
  }
  root->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    if (op != root && mlir::isa<mlir::FunctionOpInterface>(op)) {
      funcs.push_back(op);
      return mlir::WalkResult::skip();
    }
    return mlir::WalkResult::advance();
  });
  return funcs;
}

} // namespace opsched

#endif
