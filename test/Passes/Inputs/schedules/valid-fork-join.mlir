// Fork-join on two streams: b2 waits on s, j waits on b2.
func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> attributes {opsched.streams = 2 : i64} {
  %s = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : tensor<16xf32>
  %b1 = math.sqrt %s {opsched.start = 1, opsched.end = 5, opsched.stream = 0, opsched.id = 1} : tensor<16xf32>
  %b2 = math.exp %s {opsched.start = 1, opsched.end = 5, opsched.stream = 1, opsched.id = 2, opsched.waits = array<i64: 0>} : tensor<16xf32>
  %j = arith.addf %b1, %b2 {opsched.start = 5, opsched.end = 6, opsched.stream = 0, opsched.id = 3, opsched.waits = array<i64: 2>} : tensor<16xf32>
  return %j : tensor<16xf32>
}
