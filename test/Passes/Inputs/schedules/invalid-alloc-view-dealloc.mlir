// A load through an expand_shape view of an allocation runs while the
// allocation is freed on the other stream.
func.func @f(%v: f32, %i: index) -> f32 attributes {opsched.streams = 2 : i64} {
  %a = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<16xf32>
  linalg.fill {opsched.start = 0, opsched.end = 5, opsched.stream = 0, opsched.id = 1} ins(%v : f32) outs(%a : memref<16xf32>)
  %e = memref.expand_shape %a [[0, 1]] output_shape [4, 4] {opsched.start = 5, opsched.end = 5, opsched.stream = 1, opsched.id = 2, opsched.waits = array<i64: 1>} : memref<16xf32> into memref<4x4xf32>
  %x = memref.load %e[%i, %i] {opsched.start = 5, opsched.end = 7, opsched.stream = 1, opsched.id = 3} : memref<4x4xf32>
  memref.dealloc %a {opsched.start = 5, opsched.end = 6, opsched.stream = 0, opsched.id = 4} : memref<16xf32>
  return %x : f32
}
