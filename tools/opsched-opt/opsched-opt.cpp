//===- opsched-opt.cpp - mlir-opt with every upstream pass plus opsched ---===//

#include "opsched/Passes.h"

#include "reexec.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  opsched_opt_reexec_for_huge_pages(argc, argv);
  mlir::registerAllPasses();
  opsched::registerPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "opsched optimizer driver: mlir-opt plus the opsched passes\n", registry));
}
