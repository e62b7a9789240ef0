// Alias classes of memrefs (docs/Passes.md, "Dependency rules"): effects are
// ordered per (resource, alias class). A buffer's class is the allocation it
// is derived from through view-like ops; distinct allocations never alias;
// values of unknown origin (arguments, call results, globals, ...) share one
// class that may alias every escaped allocation. With two streams, writes to
// distinct allocations run at once; writes through two views of one
// allocation, an escaped allocation against an argument, and two unknown
// origins keep their order. Each function also holds an independent write
// that must run on the other stream: with resource-wide ordering (the old
// rule) every fill lands on one stream, so each case fails without classes.
// RUN: opsched-opt --op-schedule='streams=2' %s | FileCheck %s
// The checker accepts every schedule (and with it the parallel fills).
// RUN: opsched-opt --op-schedule='streams=2' %s | opsched-opt --op-schedule-verify -o /dev/null
// RUN: opsched-opt --op-schedule='streams=4 cost-model=unit' %s | opsched-opt --op-schedule-verify -o /dev/null

func.func private @get() -> memref<256x256xf32>
memref.global "private" @g : memref<256x256xf32> = uninitialized

// (a) Two fresh allocations: their fills are independent, and each
// deallocation follows the load of its own buffer.
// CHECK-LABEL: func.func @distinct_allocs
// CHECK: linalg.fill {{.*}}opsched.stream = 0 : i64} ins(%arg0 : f32) outs(%alloc :
// CHECK-NEXT: linalg.fill {{.*}}opsched.stream = 1 : i64, opsched.waits = array<i64: 1>} ins(%arg0 : f32) outs(%alloc_0 :
// CHECK: memref.load %alloc[%c0, %c0] {{.*}}opsched.stream = 0 : i64}
// CHECK-NEXT: memref.load %alloc_0[%c0, %c0] {{.*}}opsched.stream = 1 : i64, opsched.waits = array<i64: 4>}
// CHECK-NEXT: memref.dealloc %alloc {{.*}}opsched.stream = 0 : i64}
// CHECK-NEXT: memref.dealloc %alloc_0 {{.*}}opsched.stream = 1 : i64}
func.func @distinct_allocs(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<256x256xf32>
  %b = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<256x256xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<256x256xf32>)
  %u = memref.load %a[%c0, %c0] : memref<256x256xf32>
  %v = memref.load %b[%c0, %c0] : memref<256x256xf32>
  memref.dealloc %a : memref<256x256xf32>
  memref.dealloc %b : memref<256x256xf32>
  %s = arith.addf %u, %v : f32
  return %s : f32
}

// (b) Two overlapping subviews of one allocation: the fills stay in order
// on one stream; the fill of the other allocation runs beside them.
// CHECK-LABEL: func.func @subviews_of_one_alloc
// CHECK: linalg.fill {{.*}}opsched.stream = 0 : i64} ins(%arg0 : f32) outs(%subview :
// CHECK-NEXT: linalg.fill {{.*}}opsched.stream = 1 : i64, opsched.waits = array<i64: 1>} ins(%arg0 : f32) outs(%alloc_0 :
// CHECK-NEXT: memref.subview %alloc[64, 0]
// CHECK-NEXT: linalg.fill {{.*}}opsched.stream = 0 : i64} ins(%arg0 : f32) outs(%subview_1 :
// CHECK: memref.load %alloc[%c0, %c0] {{.*}}opsched.stream = 0 : i64, opsched.waits = array<i64: 7>}
func.func @subviews_of_one_alloc(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<256x256xf32>
  %b = memref.alloc() : memref<256x256xf32>
  %s1 = memref.subview %a[0, 0] [128, 256] [1, 1] : memref<256x256xf32> to memref<128x256xf32, strided<[256, 1]>>
  %s2 = memref.subview %a[64, 0] [128, 256] [1, 1] : memref<256x256xf32> to memref<128x256xf32, strided<[256, 1], offset: 16384>>
  linalg.fill ins(%x : f32) outs(%s1 : memref<128x256xf32, strided<[256, 1]>>)
  linalg.fill ins(%x : f32) outs(%s2 : memref<128x256xf32, strided<[256, 1], offset: 16384>>)
  linalg.fill ins(%x : f32) outs(%b : memref<256x256xf32>)
  %u = memref.load %a[%c0, %c0] : memref<256x256xf32>
  %v = memref.load %b[%c0, %c0] : memref<256x256xf32>
  %s = arith.addf %u, %v : f32
  return %s : f32
}

// (c) A returned (escaped) allocation may be what a caller passes back as
// an argument: its fill and the argument's stay in order on one stream. The
// allocation that does not escape is filled on the other stream.
// CHECK-LABEL: func.func @escaped_vs_argument
// CHECK: linalg.fill {{.*}}opsched.stream = 0 : i64} ins(%arg1 : f32) outs(%alloc :
// CHECK-NEXT: linalg.fill {{.*}}opsched.stream = 1 : i64, opsched.waits = array<i64: 1>} ins(%arg1 : f32) outs(%alloc_0 :
// CHECK-NEXT: memref.dealloc %alloc_0 {{.*}}opsched.stream = 0 : i64, opsched.waits = array<i64: 3>}
// CHECK-NEXT: linalg.fill {{.*}}opsched.stream = 0 : i64} ins(%arg1 : f32) outs(%arg0 :
func.func @escaped_vs_argument(%arg: memref<256x256xf32>, %x: f32) -> memref<256x256xf32> {
  %a = memref.alloc() : memref<256x256xf32>
  %b = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<256x256xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<256x256xf32>)
  linalg.fill ins(%x : f32) outs(%arg : memref<256x256xf32>)
  memref.dealloc %b : memref<256x256xf32>
  return %a : memref<256x256xf32>
}

// (d) A global and a call's result may be the same buffer: their fills stay
// in order on stream 0 (the call ran on stream 1), while the fresh
// allocation is filled on stream 1.
// CHECK-LABEL: func.func @unknown_origins
// CHECK: linalg.fill {{.*}}opsched.stream = 0 : i64, opsched.waits = array<i64: 1>} ins(%arg0 : f32) outs(%0 :
// CHECK-NEXT: linalg.fill {{.*}}opsched.stream = 1 : i64, opsched.waits = array<i64: 2>} ins(%arg0 : f32) outs(%alloc :
// CHECK: linalg.fill {{.*}}opsched.stream = 0 : i64} ins(%arg0 : f32) outs(%1 :
func.func @unknown_origins(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @g : memref<256x256xf32>
  %r = call @get() : () -> memref<256x256xf32>
  %b = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%x : f32) outs(%g : memref<256x256xf32>)
  linalg.fill ins(%x : f32) outs(%r : memref<256x256xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<256x256xf32>)
  %v = memref.load %b[%c0, %c0] : memref<256x256xf32>
  memref.dealloc %b : memref<256x256xf32>
  return %v : f32
}

// Views are found through mlir::ViewLikeOpInterface (memref.expand_shape is
// on no name list): the fill through the view is the allocation's, not of
// unknown origin, so it runs beside the argument's fill.
// CHECK-LABEL: func.func @expand_shape_view
// CHECK: linalg.fill {{.*}}opsched.stream = 0 : i64} ins(%arg1 : f32) outs(%expand_shape :
// CHECK-NEXT: linalg.fill {{.*}}opsched.stream = 1 : i64} ins(%arg1 : f32) outs(%arg0 :
func.func @expand_shape_view(%arg: memref<256x256xf32>, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<256x256xf32>
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [16, 16, 256] : memref<256x256xf32> into memref<16x16x256xf32>
  linalg.fill ins(%x : f32) outs(%e : memref<16x16x256xf32>)
  linalg.fill ins(%x : f32) outs(%arg : memref<256x256xf32>)
  %v = memref.load %a[%c0, %c0] : memref<256x256xf32>
  memref.dealloc %a : memref<256x256xf32>
  return %v : f32
}

// memref.transpose lacks the interface and is followed by name.
// CHECK-LABEL: func.func @transpose_view
// CHECK: linalg.fill {{.*}}opsched.stream = 0 : i64} ins(%arg1 : f32) outs(%arg0 :
// CHECK-NEXT: memref.transpose
// CHECK-NEXT: linalg.fill {{.*}}opsched.stream = 1 : i64} ins(%arg1 : f32) outs(%transpose :
// CHECK-NEXT: memref.load %alloc[%c0, %c0] {{.*}}opsched.stream = 0 : i64, opsched.waits = array<i64: 4>}
func.func @transpose_view(%arg: memref<256x256xf32>, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<256x256xf32>
  %t = memref.transpose %a (d0, d1) -> (d1, d0) : memref<256x256xf32> to memref<256x256xf32, strided<[1, 256]>>
  linalg.fill ins(%x : f32) outs(%t : memref<256x256xf32, strided<[1, 256]>>)
  linalg.fill ins(%x : f32) outs(%arg : memref<256x256xf32>)
  %v = memref.load %a[%c0, %c0] : memref<256x256xf32>
  memref.dealloc %a : memref<256x256xf32>
  return %v : f32
}

// Effects inside a region belong to the op holding it: the loop writes the
// allocation (so the load follows it on its stream), not the argument.
// CHECK-LABEL: func.func @loop_body
// CHECK: scf.for
// CHECK: } {{.*}}opsched.stream = 0 : i64}
// CHECK-NEXT: memref.load %alloc[%c0] {{.*}}opsched.stream = 0 : i64}
// CHECK-NEXT: linalg.fill {{.*}}opsched.stream = 1 : i64} ins(%arg1 : f32) outs(%arg0 :
func.func @loop_body(%arg: memref<256x256xf32>, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %a = memref.alloc() : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    memref.store %x, %a[%i] : memref<256xf32>
  }
  linalg.fill ins(%x : f32) outs(%arg : memref<256x256xf32>)
  %v = memref.load %a[%c0] : memref<256xf32>
  memref.dealloc %a : memref<256xf32>
  return %v : f32
}
