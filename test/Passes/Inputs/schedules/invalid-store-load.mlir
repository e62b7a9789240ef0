// A store and a load of one buffer at once on two streams, no wait.
func.func @f(%m: memref<4xf32>, %i: index, %v: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  memref.store %v, %m[%i] {opsched.start = 0, opsched.end = 2, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  %x = memref.load %m[%i] {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 1} : memref<4xf32>
  return %x : f32
}
