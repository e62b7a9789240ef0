//===- cxx-pipeline: opsched as one stage of a C++ pass pipeline ----------===//
//
//   cxx-pipeline MODEL.mlir ["OPTIONS"]
//
// Parses MODEL.mlir and runs `canonicalize` then `op-schedule{OPTIONS}` on
// every func.func (default options: "cost-model=unit streams=2"), built
// twice: from objects (createOpSchedulePass + initializeOptions) and from
// text (registerPasses + parsePassPipeline). Prints each function's figures
// from the attributes the pass wrote, and how bad options are reported.
//
//===----------------------------------------------------------------------===//

#include "opsched/Passes.h"
#include "opsched/Version.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;

static void printFigures(ModuleOp module, llvm::StringRef heading) {
  for (Operation &op : module.getBody()->getOperations()) {
    if (op.getName().getStringRef() != "func.func")
      continue;
    auto get = [&](llvm::StringRef name) -> int64_t {
      auto attr = op.getAttrOfType<IntegerAttr>(name);
      return attr ? attr.getInt() : -1;
    };
    auto sym = op.getAttrOfType<StringAttr>("sym_name");
    llvm::outs() << heading << " @" << (sym ? sym.getValue() : "?") << ": makespan "
                 << get("opsched.makespan") << " critical path "
                 << get("opsched.critical_path") << "\n";
  }
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    llvm::errs() << "usage: " << argv[0] << " MODEL.mlir [\"op-schedule options\"]\n";
    return 2;
  }
  std::string options = argc == 3 ? argv[2] : "cost-model=unit streams=2";
  llvm::outs() << "opsched " << OPSCHED_VERSION_STRING << " (MLIR "
               << OPSCHED_MLIR_VERSION_STRING << ")\n";

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.getDiagEngine().registerHandler([](Diagnostic &diag) {
    llvm::outs() << "diagnostic: " << diag << "\n";
    return success();
  });
  // For the textual form below.
  registerCanonicalizerPass();
  opsched::registerPasses();

  // Bad options: the option parser reports unknown names and malformed
  // values; values out of range are reported when the pipeline starts.
  auto errorHandler = [](const llvm::Twine &message) {
    llvm::outs() << "bad options: error: " << llvm::StringRef(message.str()).trim() << "\n";
    return failure();
  };
  if (succeeded(opsched::createOpSchedulePass()->initializeOptions("no-such-option=1",
                                                                   errorHandler)))
    return 1;

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &ctx);
  if (!module)
    return 1;

  // 1. From objects.
  {
    PassManager pm(&ctx);
    pm.addPass(createCanonicalizerPass());
    std::unique_ptr<Pass> schedule = opsched::createOpSchedulePass();
    if (failed(schedule->initializeOptions(options, errorHandler)))
      return 1;
    pm.nest("func.func").addPass(std::move(schedule));
    if (failed(pm.run(*module)))
      return 1;
    printFigures(*module, "objects");
  }

  // 2. From text, on a fresh copy.
  module = parseSourceFile<ModuleOp>(argv[1], &ctx);
  {
    PassManager pm(&ctx);
    // Into `pm` (anchored on builtin.module): the stages without the anchor.
    std::string pipeline = "canonicalize, func.func(op-schedule{" + options + "})";
    if (failed(parsePassPipeline(pipeline, pm, llvm::outs())) || failed(pm.run(*module)))
      return 1;
    printFigures(*module, "text");
  }

  // 3. A value out of range: the pipeline fails with the pass's message.
  {
    PassManager pm(&ctx);
    if (succeeded(parsePassPipeline("func.func(op-schedule{streams=0})", pm,
                                    llvm::outs())) &&
        failed(pm.run(*module)))
      llvm::outs() << "pipeline with streams=0: failed as expected\n";
  }
  return 0;
}
