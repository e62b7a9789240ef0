// A tensor made from a memref by bufferization.to_tensor, read by a tensor
// op, then the memref deallocated and its memory reused. Moving the read
// after the dealloc (the dealloc and the refill have the larger rank)
// reads freed memory: other numbers are printed.
func.func @fill(%m: memref<64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %v, %m[%i] : memref<64xf32>
  }
  return
}

func.func @print(%t: tensor<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %x = tensor.extract %t[%i] : tensor<64xf32>
    vector.print %x : f32
  }
  return
}

func.func @compute(%m: memref<64xf32>) -> tensor<64xf32> {
  %t = bufferization.to_tensor %m restrict {opsched.cost = 1} : memref<64xf32> to tensor<64xf32>
  %s = arith.addf %t, %t {opsched.cost = 1} : tensor<64xf32>
  %r = arith.mulf %s, %s {opsched.cost = 50} : tensor<64xf32>
  memref.dealloc %m {opsched.cost = 100} : memref<64xf32>
  %n = memref.alloc() {opsched.cost = 100} : memref<64xf32>
  %nine = arith.constant 9.0 : f32
  func.call @fill(%n, %nine) {opsched.cost = 100} : (memref<64xf32>, f32) -> ()
  memref.dealloc %n {opsched.cost = 100} : memref<64xf32>
  return %r : tensor<64xf32>
}

func.func @main() -> i32 {
  %status = arith.constant 0 : i32
  %m = memref.alloc() : memref<64xf32>
  %v = arith.constant 1.5 : f32
  func.call @fill(%m, %v) : (memref<64xf32>, f32) -> ()
  %r = func.call @compute(%m) : (memref<64xf32>) -> tensor<64xf32>
  func.call @print(%r) : (tensor<64xf32>) -> ()
  return %status : i32
}
