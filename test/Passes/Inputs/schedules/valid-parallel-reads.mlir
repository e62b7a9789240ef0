// Two loads of one buffer run at once: reads may.
func.func @f(%m: memref<4xf32>, %i: index) -> (f32, f32) attributes {opsched.streams = 2 : i64} {
  %x = memref.load %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  %y = memref.load %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : memref<4xf32>
  return %x, %y : f32, f32
}
