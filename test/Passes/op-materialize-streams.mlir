// op-materialize-streams: each stream's ops run in async.execute regions, in
// IR order; a region starts at an op with opsched.waits and ends after an op
// another stream waits on; values cross regions as !async.value; everything
// is awaited before the ops that follow the schedule.
// RUN: opsched-opt --op-materialize-streams %s | FileCheck %s
// The seed's demo scheduled on two streams, then materialized:
// RUN: opsched-opt --op-schedule='streams=2 cost-model=unit' %opsched_src/examples/models/seed_demo.mlir | opsched-opt --op-materialize-streams | FileCheck %s --check-prefix=SEED

// Ops before the first scheduled op (the arena and its offsets) stay in
// place; consecutive ops of a stream share one region; the op waiting on the
// other stream starts a region that depends on both; the arena is freed
// after the awaits.
// CHECK-LABEL: func.func @grouped
// CHECK-NEXT:    %[[ARENA:.*]] = memref.alloc() : memref<128xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64
// CHECK-NEXT:    %[[T0:.*]], %[[V0:.*]] = async.execute -> !async.value<memref<16xf32>> {
// CHECK-NEXT:      %[[A:.*]] = memref.view %[[ARENA]][%[[C0]]]
// CHECK-NEXT:      memref.copy %arg0, %[[A]] {opsched.id = 2
// CHECK-NEXT:      linalg.add {opsched.id = 4
// CHECK-NEXT:      async.yield %[[A]] : memref<16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T1:.*]], %[[V1:.*]] = async.execute -> !async.value<memref<16xf32>> {
// CHECK-NEXT:      %[[B:.*]] = memref.view %[[ARENA]][%[[C64]]]
// CHECK-NEXT:      memref.copy %arg0, %[[B]] {opsched.id = 3
// CHECK-NEXT:      linalg.mul {opsched.id = 5
// CHECK-NEXT:      async.yield %[[B]] : memref<16xf32>
// CHECK-NEXT:    }
// A region that waits first hops back to the thread pool (the runtime
// resumes it inline on the thread that completed its last dependency).
// CHECK-NEXT:    %[[T2:.*]] = async.execute [%[[T0]], %[[T1]]] (%[[V0]] as %[[X:.*]]: !async.value<memref<16xf32>>, %[[V1]] as %[[Y:.*]]: !async.value<memref<16xf32>>) {
// CHECK-NEXT:      %[[HOP:.*]] = async.execute {
// CHECK-NEXT:        async.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      async.await %[[HOP]] : !async.token
// CHECK-NEXT:      linalg.add {opsched.id = 6 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 5>} ins(%[[X]], %[[Y]] : {{.*}}) outs(%arg1 : memref<16xf32>)
// CHECK-NEXT:      async.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    async.await %[[T1]] : !async.token
// CHECK-NEXT:    async.await %[[T2]] : !async.token
// CHECK-NEXT:    memref.dealloc %[[ARENA]]
// CHECK-NEXT:    return
func.func @grouped(%in: memref<16xf32>, %out: memref<16xf32>) {
  %arena = memref.alloc() : memref<128xi8>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = memref.view %arena[%c0][] {opsched.id = 0 : i64, opsched.stream = 0 : i64} : memref<128xi8> to memref<16xf32>
  %b = memref.view %arena[%c64][] {opsched.id = 1 : i64, opsched.stream = 1 : i64} : memref<128xi8> to memref<16xf32>
  memref.copy %in, %a {opsched.id = 2 : i64, opsched.stream = 0 : i64} : memref<16xf32> to memref<16xf32>
  memref.copy %in, %b {opsched.id = 3 : i64, opsched.stream = 1 : i64} : memref<16xf32> to memref<16xf32>
  linalg.add {opsched.id = 4 : i64, opsched.stream = 0 : i64} ins(%a, %a : memref<16xf32>, memref<16xf32>) outs(%a : memref<16xf32>)
  linalg.mul {opsched.id = 5 : i64, opsched.stream = 1 : i64} ins(%b, %b : memref<16xf32>, memref<16xf32>) outs(%b : memref<16xf32>)
  linalg.add {opsched.id = 6 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 5>} ins(%a, %b : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %arena : memref<128xi8>
  return
}

// A value used inside a nested region of another stream's op travels as an
// !async.value too; a stream's later region depends on its earlier one.
// Dependencies are listed in region order (T0 before T1), not own stream
// first: see @crossing.
// CHECK-LABEL: func.func @nested
// CHECK:         %[[T0:.*]], %[[V0:.*]] = async.execute -> !async.value<index> {
// CHECK-NEXT:      %[[N:.*]] = arith.addi
// CHECK-NEXT:      async.yield %[[N]] : index
// CHECK:         %[[T1:.*]] = async.execute {
// CHECK-NEXT:      memref.store
// CHECK:         %[[T2:.*]] = async.execute [%[[T0]], %[[T1]]] (%[[V0]] as %[[M:.*]]: !async.value<index>) {
// CHECK-NEXT:      %[[HOP2:.*]] = async.execute {
// CHECK-NEXT:        async.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      async.await %[[HOP2]] : !async.token
// CHECK-NEXT:      scf.for %[[I:.*]] = %arg0 to %[[M]]
// CHECK-NEXT:        arith.subi %[[M]], %[[I]]
// CHECK:         async.await %[[T0]]
// CHECK-NEXT:    async.await %[[T2]]
// CHECK-NEXT:    return
func.func @nested(%n: index, %buf: memref<8xf32>) {
  %one = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  %m = arith.addi %n, %one {opsched.id = 0 : i64, opsched.stream = 0 : i64} : index
  memref.store %f, %buf[%n] {opsched.id = 1 : i64, opsched.stream = 1 : i64} : memref<8xf32>
  scf.for %i = %n to %m step %one {
    %j = arith.subi %m, %i : index
    memref.store %f, %buf[%j] : memref<8xf32>
  } {opsched.id = 2 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 0>}
  return
}

// SEED-LABEL: func.func @seed
// SEED:         %[[TA:.*]], %[[A:.*]] = async.execute -> !async.value<f32> {
// SEED-NEXT:      arith.addf %arg0, %arg0
// SEED:         %[[TB:.*]], %[[B:.*]] = async.execute [%[[TA]]] (%[[A]] as %{{.*}}: !async.value<f32>) -> !async.value<f32> {
// SEED-NEXT:      async.execute {
// SEED-NEXT:        async.yield
// SEED-NEXT:      }
// SEED-NEXT:      async.await
// SEED-NEXT:      arith.mulf
// SEED:         %[[TC:.*]], %[[C:.*]] = async.execute [%[[TA]]] (%[[A]] as %{{.*}}: !async.value<f32>) -> !async.value<f32> {
// SEED-NEXT:      async.execute {
// SEED-NEXT:        async.yield
// SEED-NEXT:      }
// SEED-NEXT:      async.await
// SEED-NEXT:      arith.subf {{.*}}opsched.stream = 1
// SEED:         %[[TD:.*]], %[[D:.*]] = async.execute [%[[TB]], %[[TC]]] (%[[B]] as %{{.*}}: !async.value<f32>, %[[C]] as %{{.*}}: !async.value<f32>) -> !async.value<f32> {
// SEED-NEXT:      async.execute {
// SEED-NEXT:        async.yield
// SEED-NEXT:      }
// SEED-NEXT:      async.await
// SEED-NEXT:      arith.addf
// SEED:         %[[TE:.*]], %[[E:.*]] = async.execute [%[[TD]]] (%[[D]] as %{{.*}}: !async.value<f32>) -> !async.value<f32> {
// SEED-NEXT:      async.execute {
// SEED-NEXT:        async.yield
// SEED-NEXT:      }
// SEED-NEXT:      async.await
// SEED-NEXT:      arith.mulf
// SEED:         %[[TF:.*]], %[[F:.*]] = async.execute [%[[TC]], %[[TD]]] (%[[D]] as %{{.*}}: !async.value<f32>) -> !async.value<f32> {
// SEED-NEXT:      async.execute {
// SEED-NEXT:        async.yield
// SEED-NEXT:      }
// SEED-NEXT:      async.await
// SEED-NEXT:      arith.subf
// SEED:         async.await %[[TE]] : !async.token
// SEED-NEXT:    async.await %[[TF]] : !async.token
// SEED-NEXT:    %[[RE:.*]] = async.await %[[E]] : !async.value<f32>
// SEED-NEXT:    %[[RF:.*]] = async.await %[[F]] : !async.value<f32>
// SEED-NEXT:    return %[[RE]], %[[RF]] : f32, f32

// Each stream's second op waits on the other stream's first: both regions
// depend on the same two tokens and must list them in the same (region)
// order. The runtime resumes a region inline while holding the mutex of the
// token that became ready, and the region then locks its next dependency's
// mutex: in opposite orders ([A, B] and [B, A]) two workers finishing A and
// B at once each held one mutex and waited for the other (a deadlock;
// test/Materialize/streams-crossing-exec.mlir runs it).
// CHECK-LABEL: func.func @crossing
// CHECK:         %[[A:.*]] = async.execute {
// CHECK:         %[[B:.*]] = async.execute {
// CHECK:         async.execute [%[[A]], %[[B]]] {
// CHECK:         async.execute [%[[A]], %[[B]]] {
// CHECK-NOT:     async.execute [%[[B]], %[[A]]]
// CHECK:         return
func.func @crossing(%x: memref<4xf32>, %y: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  %g = arith.constant 2.0 : f32
  linalg.fill {opsched.id = 0 : i64, opsched.stream = 0 : i64} ins(%f : f32) outs(%x : memref<4xf32>)
  linalg.fill {opsched.id = 1 : i64, opsched.stream = 1 : i64} ins(%g : f32) outs(%y : memref<4xf32>)
  linalg.add {opsched.id = 2 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 1>} ins(%x, %y : memref<4xf32>, memref<4xf32>) outs(%x : memref<4xf32>)
  linalg.add {opsched.id = 3 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 0>} ins(%x, %y : memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>)
  return
}

// One value (%v) read by three other regions and after the schedule: each
// region reads it through its own block argument, the return through an
// await; a region that reads two crossing values lists them by producer.
// CHECK-LABEL: func.func @shared_value
// CHECK:         %[[T0:.*]], %[[V:.*]] = async.execute -> !async.value<tensor<4xf32>> {
// CHECK-NEXT:      %[[X:.*]] = arith.addf %arg0, %arg0
// CHECK-NEXT:      async.yield %[[X]]
// CHECK:         %[[T1:.*]], %[[W:.*]] = async.execute [%[[T0]]] (%[[V]] as %[[A1:.*]]: !async.value<tensor<4xf32>>)
// CHECK:           arith.mulf %[[A1]], %[[A1]]
// CHECK:         %[[T2:.*]], %[[P:.*]] = async.execute [%[[T0]]] (%[[V]] as %[[A2:.*]]: !async.value<tensor<4xf32>>)
// CHECK:           arith.subf %[[A2]], %arg0
// CHECK:         %[[T3:.*]], %[[Q:.*]] = async.execute [%[[T0]], %[[T2]]] (%[[V]] as %[[B1:.*]]: !async.value<tensor<4xf32>>, %[[P]] as %[[B2:.*]]: !async.value<tensor<4xf32>>)
// CHECK:           arith.divf %[[B1]], %[[B2]]
// CHECK:         async.await %[[T1]] : !async.token
// CHECK-NEXT:    async.await %[[T2]] : !async.token
// CHECK-NEXT:    async.await %[[T3]] : !async.token
// CHECK-NEXT:    %[[RV:.*]] = async.await %[[V]]
// CHECK-NEXT:    %[[RW:.*]] = async.await %[[W]]
// CHECK-NEXT:    %[[RQ:.*]] = async.await %[[Q]]
// CHECK-NEXT:    return %[[RV]], %[[RQ]], %[[RW]]
func.func @shared_value(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %v = arith.addf %a, %a {opsched.id = 0 : i64, opsched.stream = 0 : i64} : tensor<4xf32>
  %w = arith.mulf %v, %v {opsched.id = 1 : i64, opsched.stream = 0 : i64} : tensor<4xf32>
  %p = arith.subf %v, %a {opsched.id = 2 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 0>} : tensor<4xf32>
  %q = arith.divf %v, %p {opsched.id = 3 : i64, opsched.stream = 2 : i64, opsched.waits = array<i64: 0, 2>} : tensor<4xf32>
  return %v, %q, %w : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
