// A load and the dealloc of its buffer at once.
func.func @f(%i: index) -> f32 attributes {opsched.streams = 2 : i64} {
  %m = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  %x = memref.load %m[%i] {opsched.start = 0, opsched.end = 2, opsched.stream = 0, opsched.id = 1} : memref<4xf32>
  memref.dealloc %m {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 2, opsched.waits = array<i64: 0>} : memref<4xf32>
  return %x : f32
}
