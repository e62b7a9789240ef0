//===- tools/fuzz/fuzz_mlir.cpp - libFuzzer harness: MLIR text -> op-schedule
//
// Bytes: one option byte, then MLIR text. The text is parsed through the
// MLIR C API (libopsched_capi.so, which links the one libMLIR.so); parse
// failures are ignored. A parsed module runs `op-schedule` (options chosen
// by the first byte: streams, policy, memory limit, cost model) through a
// pass manager, then must verify. A crash, a sanitizer report, or a module
// that no longer verifies after a successful pass aborts.
//===----------------------------------------------------------------------===//
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "opsched-c/OpSched.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
MlirLogicalResult swallow(MlirDiagnostic, void *) {
  return mlirLogicalResultSuccess();
}
void ignoreError(MlirStringRef, void *) {}

struct Context {
  MlirContext ctx;
  Context() {
    MlirDialectRegistry registry = mlirDialectRegistryCreate();
    mlirRegisterAllDialects(registry);
    ctx = mlirContextCreateWithRegistry(registry, /*threadingEnabled=*/false);
    mlirDialectRegistryDestroy(registry);
    mlirContextLoadAllAvailableDialects(ctx);
    mlirContextSetAllowUnregisteredDialects(ctx, true);
    mlirContextAttachDiagnosticHandler(ctx, swallow, nullptr, nullptr);
    opschedRegisterPasses();
  }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Context context; // the context is expensive: one per process
  if (size < 1)
    return 0;
  static const char *const policies[] = {"critical-path", "min-memory",
                                         "program-order", "exact",
                                         "xla-list",      "sethi-ullman"};
  unsigned sel = data[0];
  std::string options = "streams=" + std::to_string(1 + (sel & 3)) +
                        " policy=" + policies[(sel >> 2) % 6];
  if (sel & 0x20)
    options += " max-memory=4KiB";
  if (sel & 0x40)
    options += " cost-model=unit";
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  MlirModule module = mlirModuleCreateParse(
      context.ctx, mlirStringRefCreate(text.data(), text.size()));
  if (mlirModuleIsNull(module))
    return 0;
  MlirOperation op = mlirModuleGetOperation(module);
  if (!mlirOperationVerify(op)) {
    mlirModuleDestroy(module);
    return 0;
  }
  MlirPass pass = opschedCreateOpSchedulePass(
      mlirStringRefCreate(options.data(), options.size()), ignoreError, nullptr);
  if (opschedPassIsNull(pass))
    abort(); // every option string built above is valid
  MlirPassManager pm = mlirPassManagerCreate(context.ctx);
  mlirPassManagerAddOwnedPass(pm, pass);
  MlirLogicalResult result = mlirPassManagerRunOnOp(pm, op);
  if (mlirLogicalResultIsSuccess(result) && !mlirOperationVerify(op)) {
    fprintf(stderr, "fuzz_mlir: the module no longer verifies after op-schedule\n");
    abort();
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return 0;
}
