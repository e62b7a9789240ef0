// Divisions guarded by cf.assert, at top level and inside a linalg.generic
// payload: the program prints, then aborts on the assertion (status 134).
// Hoisting a division above the assert traps with SIGFPE instead.
#id = affine_map<(i) -> (i)>

func.func @compute(%a: i32, %b: i32, %t: tensor<4xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  vector.print %a : i32
  %ok = arith.cmpi ne, %b, %c0 : i32
  %e = tensor.empty() : tensor<4xi32>
  cf.assert %ok, "divisor is zero"
  %q = arith.remui %a, %b {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<4xi32>) outs(%e : tensor<4xi32>) attrs = {opsched.cost = 1} {
  ^bb0(%x: i32, %o: i32):
    %y = arith.floordivsi %x, %b : i32
    linalg.yield %y : i32
  } -> tensor<4xi32>
  %d1 = tensor.extract %d[%c1] {opsched.cost = 50} : tensor<4xi32>
  vector.print %r : i32
  vector.print %d1 : i32
  return
}

func.func @main() -> i32 {
  %status = arith.constant 0 : i32
  %a = arith.constant 1000 : i32
  %b = arith.constant 7 : i32
  %z = arith.constant 0 : i32
  %t = arith.constant dense<[-9, 20, 33, 47]> : tensor<4xi32>
  func.call @compute(%a, %b, %t) : (i32, i32, tensor<4xi32>) -> ()
  func.call @compute(%a, %z, %t) : (i32, i32, tensor<4xi32>) -> ()
  return %status : i32
}
