// An allocation stored in memory escapes: a buffer loaded from memory may
// be it, so their fills may not run at once.
func.func @f(%box: memref<memref<16xf32>>, %other: memref<memref<16xf32>>, %v: f32) attributes {opsched.streams = 2 : i64} {
  %a = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<16xf32>
  memref.store %a, %box[] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 1} : memref<memref<16xf32>>
  %r = memref.load %other[] {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 2, opsched.waits = array<i64: 1>} : memref<memref<16xf32>>
  linalg.fill {opsched.start = 2, opsched.end = 7, opsched.stream = 0, opsched.id = 3} ins(%v : f32) outs(%a : memref<16xf32>)
  linalg.fill {opsched.start = 2, opsched.end = 7, opsched.stream = 1, opsched.id = 4} ins(%v : f32) outs(%r : memref<16xf32>)
  return
}
