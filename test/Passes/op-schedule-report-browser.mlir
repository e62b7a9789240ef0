// The HTML report the pass writes, opened in headless Chromium as a person
// would (test/report/browser_test.sh: no console errors, the three views and
// the summary with the trace's numbers, a screenshot).
// REQUIRES: chromium
// RUN: opsched-opt --op-schedule='cost-model=unit streams=2 trace=%t.json report=%t.html' %opsched_src/examples/models/seed_demo.mlir -o /dev/null
// RUN: %opsched_src/test/report/browser_test.sh %t.html %t.json %t.artifacts | FileCheck %s
// CHECK: == dumping the DOM of
// CHECK-NOT: FAIL
