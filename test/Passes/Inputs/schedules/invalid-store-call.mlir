// A store and a call with unknown effects at once.
func.func private @ext(memref<4xf32>)
func.func @f(%m: memref<4xf32>, %n: memref<4xf32>, %i: index, %v: f32) attributes {opsched.streams = 2 : i64} {
  memref.store %v, %m[%i] {opsched.start = 0, opsched.end = 2, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  func.call @ext(%n) {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 1} : (memref<4xf32>) -> ()
  return
}
