//===- VerifyPass.cpp - op-schedule-verify: the independent checker -------===//
//
// A thin pass over lib/verify (C): on a function it checks that function; on
// anything else it checks every function inside, one after the other so the
// diagnostics come in module order. Nothing is modified.
//
//===----------------------------------------------------------------------===//

#include "opsched/Passes.h"

#include "Functions.h"

#include "verify.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassRegistry.h"

#include <mutex>

using namespace mlir;

namespace {

struct OpScheduleVerifyPass : public PassWrapper<OpScheduleVerifyPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OpScheduleVerifyPass)
  StringRef getArgument() const override { return "op-schedule-verify"; }
  // The name --mlir-timing and --mlir-print-ir-after-all show (not the
  // type name, which is in an anonymous namespace).
  StringRef getName() const override { return "OpScheduleVerifyPass"; }
  StringRef getDescription() const override {
    return "Check an annotated module's schedule, streams, waits, buffers and limits "
           "independently of the scheduler";
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    SmallVector<Operation *> funcs = opsched::collectFunctions(root);
    int64_t errors = 0;
    for (Operation *func : funcs)
      errors += opsched_verify_function(wrap(func));
    if (errors)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace

std::unique_ptr<Pass> opsched::createOpScheduleVerifyPass() {
  return std::make_unique<OpScheduleVerifyPass>();
}

void opsched::registerVerifyPass() {
  static std::once_flag once;
  std::call_once(once, [] { PassRegistration<OpScheduleVerifyPass>(); });
}
