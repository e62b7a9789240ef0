/* c-pipeline: opsched as one stage of a pipeline built with the C API.
 *
 *   c-pipeline MODEL.mlir ["OPTIONS"]
 *
 * Parses MODEL.mlir, runs `canonicalize` then `op-schedule{OPTIONS}` on every
 * func.func (default options: "cost-model=unit streams=2"), and prints each
 * function's figures from the attributes the pass wrote. Then schedules a
 * fresh copy with the direct entry, opschedScheduleFunction(), which returns
 * the figures as numbers. Along the way it shows how a bad options string is
 * reported: an error message through a callback, never an abort.
 */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Transforms.h"
#include "opsched-c/OpSched.h"

#include <stdio.h>
#include <stdlib.h>

/* MlirStringCallback: prints an error message under a heading. */
static void print_error(MlirStringRef message, void *heading) {
  printf("%s: error: %.*s\n", (const char *)heading, (int)message.length, message.data);
}

static void print_fragment(MlirStringRef text, void *userData) {
  (void)userData;
  printf("%.*s", (int)text.length, text.data);
}

/* Diagnostics of the context (a pipeline's errors come here). */
static MlirLogicalResult print_diagnostic(MlirDiagnostic diagnostic, void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, print_fragment, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

/* An i64 attribute of `op`, or -1. */
static long long get_i64(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, str(name));
  return mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) ? -1
                                                               : (long long)mlirIntegerAttrGetValueInt(a);
}

static MlirStringRef func_name(MlirOperation func) {
  return mlirStringAttrGetValue(mlirOperationGetAttributeByName(func, str("sym_name")));
}

static int is_func(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return mlirStringRefEqual(name, str("func.func")) &&
         !mlirRegionIsNull(mlirOperationGetFirstRegion(op)) &&
         !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetFirstRegion(op)));
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s MODEL.mlir [\"op-schedule options\"]\n", argv[0]);
    return 2;
  }
  const char *options = argc == 3 ? argv[2] : "cost-model=unit streams=2";
  printf("opsched %.*s (MLIR %.*s)\n", (int)opschedGetVersion().length,
         opschedGetVersion().data, (int)opschedGetMlirVersion().length,
         opschedGetMlirVersion().data);

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, /*threadingEnabled=*/false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, print_diagnostic, NULL, NULL);
  mlirRegisterTransformsCanonicalizer();
  opschedRegisterPasses(); /* for mlirParsePassPipeline("...op-schedule{...}") */

  /* 1. Bad options strings: a null pass and a message, no abort. */
  const char *bad[] = {"streams=0", "cost-model=fast", "no-such-option=1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    MlirPass pass = opschedCreateOpSchedulePass(str(bad[i]), print_error, "bad options");
    if (!opschedPassIsNull(pass)) {
      printf("unexpected: '%s' was accepted\n", bad[i]);
      opschedPassDestroy(pass);
      return 1;
    }
  }

  MlirModule module = mlirModuleCreateParseFromFile(ctx, str(argv[1]));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "cannot parse %s\n", argv[1]);
    return 1;
  }

  /* 2. The pipeline canonicalize, then op-schedule{options} on each func.func:
   * the first stage parsed from text, the second created with its options
   * and handed over (the pass manager owns it from then on). */
  MlirPass schedule = opschedCreateOpSchedulePass(str(options), print_error, "options");
  if (opschedPassIsNull(schedule))
    return 1;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager top = mlirPassManagerGetAsOpPassManager(pm);
  if (mlirLogicalResultIsFailure(
          mlirParsePassPipeline(top, str("builtin.module(canonicalize)"), print_error, "pipeline")))
    return 1;
  mlirOpPassManagerAddOwnedPass(mlirPassManagerGetNestedUnder(pm, str("func.func")), schedule);
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "the pipeline failed\n");
    return 1;
  }
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_func(op))
      continue;
    MlirStringRef name = func_name(op);
    printf("pipeline @%.*s: makespan %lld critical path %lld\n", (int)name.length, name.data,
           get_i64(op, "opsched.makespan"), get_i64(op, "opsched.critical_path"));
  }
  mlirPassManagerDestroy(pm);

  /* 3. A textual pipeline with a bad value: it parses, and the pass reports
   * the value when the pipeline starts, through the context's diagnostics. */
  MlirPassManager bad_pm = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsSuccess(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(bad_pm),
          str("builtin.module(func.func(op-schedule{device=tpu}))"), print_error, "pipeline")) &&
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(bad_pm, mlirModuleGetOperation(module))))
    printf("pipeline with device=tpu: failed as expected\n");
  mlirPassManagerDestroy(bad_pm);
  mlirModuleDestroy(module);

  /* 4. The direct entry on a fresh copy: no pass manager, figures as numbers. */
  module = mlirModuleCreateParseFromFile(ctx, str(argv[1]));
  body = mlirModuleGetBody(module);
  int status = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_func(op))
      continue;
    MlirStringRef name = func_name(op);
    OpschedFigures figures;
    opschedFiguresInit(&figures);
    if (mlirLogicalResultIsFailure(
            opschedScheduleFunction(op, str(options), &figures, print_error, "direct"))) {
      status = 1;
      continue;
    }
    printf("direct @%.*s: makespan %lld critical path %lld total work %lld on %d stream%s\n",
           (int)name.length, name.data, (long long)figures.makespan,
           (long long)figures.criticalPath, (long long)figures.totalWork, figures.streams,
           figures.streams == 1 ? "" : "s");
  }
  /* ... whose bad options come back through the callback too. */
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_func(op)) {
      OpschedFigures figures;
      opschedFiguresInit(&figures);
      if (mlirLogicalResultIsSuccess(
              opschedScheduleFunction(op, str("priority=random"), &figures, print_error, "direct")))
        status = 1;
      break;
    }
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return status;
}
