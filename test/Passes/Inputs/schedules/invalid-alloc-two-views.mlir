// Two views of one allocation (a subview and a cast) written at once: the
// allocation is one alias class whatever view reaches it.
func.func @f(%v: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %a = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<16xf32>
  %s = memref.subview %a[4] [8] [1] {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 1} : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
  %c = memref.cast %a {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 2} : memref<16xf32> to memref<?xf32>
  linalg.fill {opsched.start = 0, opsched.end = 5, opsched.stream = 0, opsched.id = 3} ins(%v : f32) outs(%s : memref<8xf32, strided<[1], offset: 4>>)
  linalg.fill {opsched.start = 0, opsched.end = 5, opsched.stream = 1, opsched.id = 4, opsched.waits = array<i64: 2>} ins(%v : f32) outs(%c : memref<?xf32>)
  %i = arith.constant {opsched.start = 5, opsched.end = 5, opsched.stream = 0, opsched.id = 5} 5 : index
  %x = memref.load %a[%i] {opsched.start = 5, opsched.end = 6, opsched.stream = 0, opsched.id = 6, opsched.waits = array<i64: 4>} : memref<16xf32>
  memref.dealloc %a {opsched.start = 6, opsched.end = 6, opsched.stream = 0, opsched.id = 7} : memref<16xf32>
  return %x : f32
}
