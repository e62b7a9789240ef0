// The dealloc on stream 1 waits on the last load of its buffer.
func.func @f(%i: index, %v: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %m = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  memref.store %v, %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 1} : memref<4xf32>
  %x = memref.load %m[%i] {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 2} : memref<4xf32>
  memref.dealloc %m {opsched.start = 2, opsched.end = 3, opsched.stream = 1, opsched.id = 3, opsched.waits = array<i64: 2>} : memref<4xf32>
  return %x : f32
}
