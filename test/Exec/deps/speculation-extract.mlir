// tensor.extract at an index a cf.assert checks: the index is far out of
// bounds the second time, so running the read before the assert faults
// (SIGSEGV) where the program aborts on the assertion (status 134).
func.func @compute(%t: tensor<8xf32>, %i: index) {
  %c8 = arith.constant 8 : index
  %ok = arith.cmpi ult, %i, %c8 : index
  cf.assert %ok, "index out of bounds"
  %x = tensor.extract %t[%i] {opsched.cost = 1} : tensor<8xf32>
  %y = arith.mulf %x, %x {opsched.cost = 50} : f32
  vector.print %y : f32
  return
}

func.func @main() -> i32 {
  %status = arith.constant 0 : i32
  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %i = arith.constant 5 : index
  %far = arith.constant 4000000000000 : index
  func.call @compute(%t, %i) : (tensor<8xf32>, index) -> ()
  func.call @compute(%t, %far) : (tensor<8xf32>, index) -> ()
  return %status : i32
}
