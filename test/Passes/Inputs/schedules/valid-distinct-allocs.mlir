// Fills of two distinct allocations run at once: fresh allocations do not
// alias (docs/Passes.md "Dependency rules", alias classes); each load and
// deallocation waits for the fill of its own buffer only.
func.func @f(%v: f32, %i: index) -> f32 attributes {opsched.streams = 2 : i64} {
  %a = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<16xf32>
  %b = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 1} : memref<16xf32>
  %s = memref.subview %a[4] [8] [1] {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 2} : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
  linalg.fill {opsched.start = 0, opsched.end = 5, opsched.stream = 0, opsched.id = 3} ins(%v : f32) outs(%s : memref<8xf32, strided<[1], offset: 4>>)
  linalg.fill {opsched.start = 0, opsched.end = 5, opsched.stream = 1, opsched.id = 4, opsched.waits = array<i64: 1>} ins(%v : f32) outs(%b : memref<16xf32>)
  %x = memref.load %a[%i] {opsched.start = 5, opsched.end = 6, opsched.stream = 0, opsched.id = 5} : memref<16xf32>
  %y = memref.load %b[%i] {opsched.start = 5, opsched.end = 6, opsched.stream = 1, opsched.id = 6} : memref<16xf32>
  memref.dealloc %a {opsched.start = 6, opsched.end = 6, opsched.stream = 0, opsched.id = 7} : memref<16xf32>
  memref.dealloc %b {opsched.start = 6, opsched.end = 6, opsched.stream = 1, opsched.id = 8} : memref<16xf32>
  %r = arith.addf %x, %y {opsched.start = 6, opsched.end = 7, opsched.stream = 0, opsched.id = 9, opsched.waits = array<i64: 6>} : f32
  return %r : f32
}
