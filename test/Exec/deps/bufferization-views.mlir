// Aliases through views and into a loop body: a tensor made by to_tensor
// from a subview is sliced and read inside a loop whose body then stores
// into the underlying memref. Moving the store above the reads (it has the
// larger rank) prints other numbers.
func.func @loop(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %v = memref.subview %m[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  %t = bufferization.to_tensor %v restrict : memref<4xf32, strided<[1], offset: 2>> to tensor<4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    %e = tensor.extract_slice %t[1] [2] [1] {opsched.cost = 1} : tensor<4xf32> to tensor<2xf32>
    %a = tensor.extract %e[%c0] {opsched.cost = 1} : tensor<2xf32>
    %b = tensor.extract %e[%c1] {opsched.cost = 1} : tensor<2xf32>
    %s = arith.addf %a, %b {opsched.cost = 1} : f32
    %p = arith.mulf %s, %s {opsched.cost = 50} : f32
    %k = arith.addi %i, %c3 : index
    memref.store %one, %m[%k] {opsched.cost = 100} : memref<8xf32>
    vector.print %p : f32
  }
  return
}

func.func @main() -> i32 {
  %status = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %m = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %m[%i] : memref<8xf32>
  }
  func.call @loop(%m) : (memref<8xf32>) -> ()
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %m[%i] : memref<8xf32>
    vector.print %x : f32
  }
  memref.dealloc %m : memref<8xf32>
  return %status : i32
}
