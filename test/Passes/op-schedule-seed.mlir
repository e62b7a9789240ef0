// The seed's demo: six unit-duration, unit-demand ops, edges a->b, a->c,
// b->d, c->d, d->e, d->f, capacity 2. Its printed result must come out
// exactly, both as the plain table and as attributes. The graph is
// examples/models/seed_demo.mlir (ops named by location).
// RUN: opsched-opt --op-schedule='cost-model=unit streams=2 resource-limit=2 table=-' %opsched_src/examples/models/seed_demo.mlir -o %t.mlir 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: FileCheck %s < %t.mlir
// '-' is stderr: stdout carries only the IR.
// RUN: opsched-opt --op-schedule='cost-model=unit streams=2 table=-' %opsched_src/examples/models/seed_demo.mlir 2>/dev/null | FileCheck %s --check-prefix=IRONLY
// IRONLY-NOT: makespan:
// IRONLY: module
// IRONLY-NOT: makespan:
// The demo's own FIFO queue (program order) gives the same schedule.
// RUN: opsched-opt --op-schedule='cost-model=unit streams=2 priority=program-order table=-' %opsched_src/examples/models/seed_demo.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=TABLE

// The Graphviz view of op-schedule colours nodes by stream.
// RUN: opsched-opt --op-schedule='cost-model=unit streams=2 dot=%t.dot' %opsched_src/examples/models/seed_demo.mlir -o /dev/null
// RUN: FileCheck %s --check-prefix=DOT < %t.dot
// DOT: n0_0 [label="0: a\ncost 1 rank 4 stream 0", style=filled, fillcolor="#dbe9f6", color=red, penwidth=2];
// DOT: n0_2 [label="2: c\ncost 1 rank 3 stream 1", style=filled, fillcolor="#fde2c8", color=red, penwidth=2];

// TABLE:      a 0 1
// TABLE-NEXT: b 1 2
// TABLE-NEXT: c 1 2
// TABLE-NEXT: d 2 3
// TABLE-NEXT: e 3 4
// TABLE-NEXT: f 3 4
// TABLE-NEXT: makespan: 4

// CHECK-LABEL: func.func @seed
// CHECK-SAME: opsched.makespan = 4 : i64
// CHECK: opsched.end = 1 : i64{{.*}}opsched.start = 0 : i64
// CHECK: opsched.end = 2 : i64{{.*}}opsched.start = 1 : i64
// CHECK: opsched.end = 2 : i64{{.*}}opsched.start = 1 : i64
// CHECK: opsched.end = 3 : i64{{.*}}opsched.start = 2 : i64
// CHECK: opsched.end = 4 : i64{{.*}}opsched.start = 3 : i64
// CHECK: opsched.end = 4 : i64{{.*}}opsched.start = 3 : i64
