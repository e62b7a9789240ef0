// One stream: IR order orders every effect.
func.func @f(%i: index, %v: f32) -> f32 {
  %m = memref.alloc() {opsched.start = 0, opsched.end = 0} : memref<4xf32>
  memref.store %v, %m[%i] {opsched.start = 0, opsched.end = 1} : memref<4xf32>
  %x = memref.load %m[%i] {opsched.start = 1, opsched.end = 2} : memref<4xf32>
  memref.dealloc %m {opsched.start = 2, opsched.end = 3} : memref<4xf32>
  return %x : f32
}
