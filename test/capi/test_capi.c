/* Unit tests of the opsched C API (include/opsched-c), in-tree, in C: the
 * options checks, ownership of created passes, and the direct entry's
 * figures, errors, struct versioning and failure atomicity. */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "opsched-c/OpSched.h"
#include "opsched/Version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                              \
    }                                                                          \
  } while (0)

typedef struct errors {
  int count;
  char last[512];
} errors;

static void collect(MlirStringRef message, void *userData) {
  errors *e = userData;
  e->count++;
  snprintf(e->last, sizeof e->last, "%.*s", (int)message.length, message.data);
}

static MlirLogicalResult count_diagnostic(MlirDiagnostic d, void *userData) {
  (void)d;
  ++*(int *)userData;
  return mlirLogicalResultSuccess();
}

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static const char *kModule =
    "func.func @seed(%x: f32) -> (f32, f32) {\n"
    "  %a = arith.addf %x, %x : f32\n"
    "  %b = arith.mulf %a, %a : f32\n"
    "  %c = arith.subf %a, %a : f32\n"
    "  %d = arith.addf %b, %c : f32\n"
    "  %e = arith.mulf %d, %d : f32\n"
    "  %f = arith.subf %d, %d : f32\n"
    "  return %e, %f : f32, f32\n"
    "}\n"
    "func.func private @decl(f32) -> f32\n"
    "func.func @bad(%x: f32) -> f32 {\n"
    "  %a = arith.addf %x, %x : f32\n"
    "  %b = arith.mulf %a, %a {opsched.cost = -3} : f32\n"
    "  return %b : f32\n"
    "}\n";

static MlirOperation func_at(MlirModule module, int index) {
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  while (index-- > 0)
    op = mlirOperationGetNextInBlock(op);
  return op;
}

static void test_versions(void) {
  CHECK(mlirStringRefEqual(opschedGetVersion(), str(OPSCHED_VERSION_STRING)));
  CHECK(mlirStringRefEqual(opschedGetMlirVersion(), str(OPSCHED_MLIR_VERSION_STRING)));
}

static void test_create(void) {
  errors e = {0};
  MlirPass p = opschedCreateOpSchedulePass(str(""), collect, &e);
  CHECK(!opschedPassIsNull(p) && e.count == 0);
  opschedPassDestroy(p);
  p = opschedCreateOpSchedulePass(str("cost-model=unit streams=2 effort=1 device=h100"), collect, &e);
  CHECK(!opschedPassIsNull(p) && e.count == 0);
  opschedPassDestroy(p);
  p = opschedCreateOpDepGraphPass(str("cost-model=unit"), collect, &e);
  CHECK(!opschedPassIsNull(p) && e.count == 0);
  opschedPassDestroy(p);
  opschedPassDestroy((MlirPass){NULL}); /* allowed */

  p = opschedCreateOpSchedulePass(str("streams=-1"), collect, &e);
  CHECK(opschedPassIsNull(p) && e.count == 1);
  CHECK(strstr(e.last, "op-schedule: invalid value '-1' for option 'streams'") == e.last);
  /* (MLIR's option parser also prints its own message for this one.) */
  p = opschedCreateOpSchedulePass(str("streams=two"), collect, &e);
  CHECK(opschedPassIsNull(p) && e.count == 2);
  CHECK(strcmp(e.last, "op-schedule: cannot parse the options 'streams=two'") == 0);
  /* op-dep-graph has no `streams`. */
  p = opschedCreateOpDepGraphPass(str("streams=2"), collect, &e);
  CHECK(opschedPassIsNull(p) && e.count == 3);
  CHECK(strcmp(e.last, "op-dep-graph: no such option streams") == 0);
  /* Without a callback: still a null pass, nothing printed or aborted. */
  CHECK(opschedPassIsNull(opschedCreateOpSchedulePass(str("cost-model=x"), NULL, NULL)));
}

/* Every pass of the pass table is listed and created by name. */
static void test_pass_table(void) {
  static const char *const known[] = {"op-schedule", "op-dep-graph", "op-buffer-slots",
                                      "op-schedule-verify"};
  intptr_t n = opschedGetNumPasses();
  CHECK(n >= 4);
  for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
    int listed = 0;
    for (intptr_t i = 0; i < n; i++)
      listed |= mlirStringRefEqual(opschedGetPassArgument(i), str(known[k]));
    CHECK(listed);
    errors e = {0};
    MlirPass p = opschedCreatePass(str(known[k]), str(""), collect, &e);
    CHECK(!opschedPassIsNull(p) && e.count == 0);
    opschedPassDestroy(p);
  }
  for (intptr_t i = 0; i < n; i++) { /* every listed name creates its pass */
    MlirPass p = opschedCreatePass(opschedGetPassArgument(i), str(""), NULL, NULL);
    CHECK(!opschedPassIsNull(p));
    opschedPassDestroy(p);
  }
  CHECK(opschedGetPassArgument(n).data == NULL && opschedGetPassArgument(-1).data == NULL);
  errors e = {0};
  CHECK(opschedPassIsNull(opschedCreatePass(str("op-nothing"), str(""), collect, &e)));
  CHECK(e.count == 1 && strcmp(e.last, "opschedCreatePass: no opsched pass named 'op-nothing'") == 0);
  /* Options are per pass: op-buffer-slots takes alignment, not cost-model. */
  MlirPass p = opschedCreatePass(str("op-buffer-slots"), str("alignment=128"), collect, &e);
  CHECK(!opschedPassIsNull(p) && e.count == 1);
  opschedPassDestroy(p);
  CHECK(opschedPassIsNull(opschedCreatePass(str("op-buffer-slots"), str("cost-model=unit"),
                                            collect, &e)));
  CHECK(e.count == 2 && strcmp(e.last, "op-buffer-slots: no such option cost-model") == 0);
  CHECK(opschedPassIsNull(opschedCreatePass(str("op-buffer-slots"), str("alignment=3"),
                                            collect, &e)));
  CHECK(e.count == 3 && strstr(e.last, "op-buffer-slots: invalid value '3' for option 'alignment'"));
}

static void test_direct(MlirContext ctx) {
  MlirModule module = mlirModuleCreateParse(ctx, str(kModule));
  CHECK(!mlirModuleIsNull(module));
  errors e = {0};
  OpschedFigures f;
  opschedFiguresInit(&f);
  CHECK(mlirLogicalResultIsSuccess(opschedScheduleFunction(
      func_at(module, 0), str("cost-model=unit streams=2"), &f, collect, &e)));
  CHECK(e.count == 0 && f.structSize == sizeof f);
  CHECK(f.scheduled == 1 && f.streams == 2 && f.makespan == 4 && f.criticalPath == 4);
  CHECK(f.totalWork == 6 && f.peakMemory >= -1 && f.arenaBytes == -1);

  /* An older caller's shorter struct: nothing written past it. */
  struct {
    OpschedFigures head;
    char canary[8];
  } small;
  memset(&small, 0x5a, sizeof small);
  small.head.structSize = offsetof(OpschedFigures, criticalPath);
  CHECK(mlirLogicalResultIsSuccess(opschedScheduleFunction(
      func_at(module, 0), str("cost-model=unit"), &small.head, NULL, NULL)));
  CHECK(small.head.makespan == 6 && small.head.streams == 1);
  CHECK((unsigned char)small.canary[0] == 0x5a);
  CHECK(((unsigned char *)&small.head.criticalPath)[0] == 0x5a);
  /* Null figures are allowed. */
  CHECK(mlirLogicalResultIsSuccess(
      opschedScheduleFunction(func_at(module, 0), str(""), NULL, NULL, NULL)));

  /* A declaration: nothing to schedule. */
  opschedFiguresInit(&f);
  CHECK(mlirLogicalResultIsSuccess(
      opschedScheduleFunction(func_at(module, 1), str(""), &f, collect, &e)));
  CHECK(e.count == 0 && f.scheduled == 0 && f.makespan == 0);

  /* A block that cannot be scheduled: the error, with its location, goes to
   * the callback; the function keeps its attributes. */
  MlirOperation bad = func_at(module, 2);
  mlirOperationSetAttributeByName(bad, str("opsched.makespan"),
                                  mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 77));
  CHECK(mlirLogicalResultIsFailure(opschedScheduleFunction(bad, str(""), &f, collect, &e)));
  CHECK(e.count == 1 && strstr(e.last, "'opsched.cost' must be an integer attribute >= 0"));
  CHECK(strstr(e.last, ":13:8: ") != NULL);
  MlirAttribute kept = mlirOperationGetAttributeByName(bad, str("opsched.makespan"));
  CHECK(!mlirAttributeIsNull(kept) && mlirIntegerAttrGetValueInt(kept) == 77);

  /* Bad options, a non-function, an unset structSize: errors, not aborts. */
  CHECK(mlirLogicalResultIsFailure(
      opschedScheduleFunction(func_at(module, 0), str("effort=-2"), &f, collect, &e)));
  CHECK(e.count == 2 && strstr(e.last, "option 'effort'"));
  CHECK(mlirLogicalResultIsFailure(opschedScheduleFunction(
      mlirModuleGetOperation(module), str(""), &f, collect, &e)));
  CHECK(e.count == 3 && strstr(e.last, "expected a function-like op, got 'builtin.module'"));
  OpschedFigures unset;
  memset(&unset, 0, sizeof unset);
  CHECK(mlirLogicalResultIsFailure(
      opschedScheduleFunction(func_at(module, 0), str(""), &unset, collect, &e)));
  CHECK(e.count == 4 && strstr(e.last, "structSize"));

  /* An output that cannot be written fails before scheduling: the function
   * is not touched (the trace and report options reach the direct entry). */
  MlirModule fresh = mlirModuleCreateParse(ctx, str(kModule));
  MlirOperation seed = func_at(fresh, 0);
  CHECK(mlirLogicalResultIsFailure(
      opschedScheduleFunction(seed, str("report=/dev/full"), &f, collect, &e)));
  CHECK(e.count == 5 && strstr(e.last, "op-schedule: cannot write to '/dev/full' (report)"));
  CHECK(mlirAttributeIsNull(mlirOperationGetAttributeByName(seed, str("opsched.makespan"))));
  CHECK(mlirLogicalResultIsFailure(
      opschedScheduleFunction(seed, str("trace=/nonexistent/t.json"), &f, collect, &e)));
  CHECK(e.count == 6 && strstr(e.last, "cannot open '/nonexistent/t.json' for writing (trace)"));
  CHECK(mlirAttributeIsNull(mlirOperationGetAttributeByName(seed, str("opsched.makespan"))));
  mlirModuleDestroy(fresh);

  /* Without a callback, errors reach the context's handlers. */
  int diagnostics = 0;
  MlirDiagnosticHandlerID id =
      mlirContextAttachDiagnosticHandler(ctx, count_diagnostic, &diagnostics, NULL);
  CHECK(mlirLogicalResultIsFailure(
      opschedScheduleFunction(func_at(module, 0), str("device=tpu"), &f, NULL, NULL)));
  CHECK(diagnostics == 1);
  mlirContextDetachDiagnosticHandler(ctx, id);
  mlirModuleDestroy(module);
}

static void test_pipeline(MlirContext ctx) {
  opschedRegisterPasses();
  opschedRegisterPasses(); /* idempotent */
  MlirModule module = mlirModuleCreateParse(ctx, str(kModule));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  errors e = {0};
  CHECK(mlirLogicalResultIsSuccess(mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      str("builtin.module(func.func(op-dep-graph{cost-model=unit}))"), collect, &e)));
  MlirPass schedule = opschedCreateOpSchedulePass(str("cost-model=unit streams=3"), collect, &e);
  mlirOpPassManagerAddOwnedPass(mlirPassManagerGetNestedUnder(pm, str("func.func")), schedule);
  /* Drop @bad, which fails by design. */
  mlirOperationDestroy(func_at(module, 2));
  CHECK(mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))));
  MlirAttribute makespan =
      mlirOperationGetAttributeByName(func_at(module, 0), str("opsched.makespan"));
  CHECK(!mlirAttributeIsNull(makespan) && mlirIntegerAttrGetValueInt(makespan) == 4);
  CHECK(e.count == 0);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
}

/* The whole of a small file, or "" (static buffer). */
static const char *slurp(const char *path) {
  static char buf[4096];
  buf[0] = '\0';
  FILE *f = fopen(path, "r");
  if (f) {
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
  }
  return buf;
}

/* One pass object run by several pass-manager runs, in the nested form with
 * a report file: a run that fails part-way (@bad) writes nothing, and every
 * later run writes the module's summary again, whole and in order. */
static void test_rerun(MlirContext ctx) {
  char path[64], options[128];
  snprintf(path, sizeof path, "/tmp/opsched-test-capi-%ld.txt", (long)getpid());
  snprintf(options, sizeof options, "cost-model=unit summary=%s", path);
  MlirModule module = mlirModuleCreateParse(ctx, str(kModule));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  errors e = {0};
  MlirPass schedule = opschedCreateOpSchedulePass(str(options), collect, &e);
  mlirOpPassManagerAddOwnedPass(mlirPassManagerGetNestedUnder(pm, str("func.func")), schedule);
  MlirOperation op = mlirModuleGetOperation(module);
  CHECK(mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op)));
  CHECK(e.count == 0 && strcmp(slurp(path), "") == 0);
  mlirOperationDestroy(func_at(module, 2)); /* drop @bad */
  static const char *expected = "@seed: 6 ops in 1 block; critical path 4 ns; makespan 6 ns "
                                "on 1 stream; speedup 1.00x over the original order on one "
                                "stream\n@decl: nothing to schedule\n";
  for (int run = 0; run < 2; run++) {
    CHECK(mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op)));
    CHECK(strcmp(slurp(path), expected) == 0);
    remove(path);
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  test_versions();
  test_create();
  test_pass_table();
  test_direct(ctx);
  test_pipeline(ctx);
  test_rerun(ctx);
  mlirContextDestroy(ctx);
  if (failures)
    fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
