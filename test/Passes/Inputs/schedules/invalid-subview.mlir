// A store through a subview and a load of the whole buffer at once.
func.func @f(%m: memref<8xf32>, %i: index, %v: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %s = memref.subview %m[2] [4] [1] {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  memref.store %v, %s[%i] {opsched.start = 0, opsched.end = 2, opsched.stream = 0, opsched.id = 1} : memref<4xf32, strided<[1], offset: 2>>
  %x = memref.load %m[%i] {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 2} : memref<8xf32>
  return %x : f32
}
