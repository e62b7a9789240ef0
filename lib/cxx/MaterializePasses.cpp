//===- MaterializePasses.cpp - op-materialize-arena / -streams: forward to C ===//
//
// Thin pass classes over lib/mlir/materialize_*.c. Like the other opsched
// passes they are op-agnostic: on a function they rewrite that function, on
// anything else every function inside (one after the other, so diagnostics
// come in module order).
//
//===----------------------------------------------------------------------===//

#include "opsched/Passes.h"

#include "Functions.h"
#include "PassTable.h"
#include "materialize.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace {

template <typename Derived>
struct MaterializePassBase : public PassWrapper<Derived, OperationPass<>> {
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, memref::MemRefDialect, async::AsyncDialect>();
  }
  void runOnOperation() override {
    SmallVector<Operation *> funcs = opsched::collectFunctions(this->getOperation());
    bool failedAny = false, annotatedAny = false;
    for (Operation *func : funcs) {
      int annotated = 0;
      failedAny |= mlirLogicalResultIsFailure(Derived::runOnFunction(wrap(func), 0, &annotated));
      annotatedAny |= annotated != 0;
    }
    // Nothing to materialize anywhere: the first function that could have
    // been annotated says why (nothing was rewritten).
    for (Operation *func : funcs) {
      int annotated = 0;
      if (failedAny || annotatedAny)
        break;
      failedAny = mlirLogicalResultIsFailure(Derived::runOnFunction(wrap(func), 1, &annotated));
    }
    if (failedAny)
      this->signalPassFailure();
  }
};

struct OpMaterializeArenaPass : public MaterializePassBase<OpMaterializeArenaPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OpMaterializeArenaPass)
  static constexpr opsched::PassId kId = opsched::PassId::OpMaterializeArenaPass;
  StringRef getName() const override { return opsched::passName(kId); }
  StringRef getArgument() const override { return opsched::passArgument(kId); }
  StringRef getDescription() const override {
    return "Replace the buffers op-schedule placed (opsched.offset) by views into one "
           "arena allocation of opsched.arena_size bytes";
  }
  static MlirLogicalResult runOnFunction(MlirOperation f, int report, int *annotated) {
    return opsched_mlir_materialize_arena(f, report, annotated);
  }
};

struct OpMaterializeStreamsPass : public MaterializePassBase<OpMaterializeStreamsPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OpMaterializeStreamsPass)
  static constexpr opsched::PassId kId = opsched::PassId::OpMaterializeStreamsPass;
  StringRef getName() const override { return opsched::passName(kId); }
  StringRef getArgument() const override { return opsched::passArgument(kId); }
  StringRef getDescription() const override {
    return "Run each stream of the schedule (opsched.stream, opsched.waits) in async.execute "
           "regions ordered by stream order and waits";
  }
  static MlirLogicalResult runOnFunction(MlirOperation f, int report, int *annotated) {
    return opsched_mlir_materialize_streams(f, report, annotated);
  }
};

} // namespace

std::unique_ptr<Pass> opsched::createOpMaterializeArenaPass() {
  return std::make_unique<OpMaterializeArenaPass>();
}

std::unique_ptr<Pass> opsched::createOpMaterializeStreamsPass() {
  return std::make_unique<OpMaterializeStreamsPass>();
}
