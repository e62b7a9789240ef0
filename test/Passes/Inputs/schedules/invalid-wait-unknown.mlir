// A wait on an id no op of the block carries.
func.func @f(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {opsched.streams = 2 : i64} {
  %a = math.exp %x {opsched.id = 0 : i64, opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 0 : i64} : tensor<16xf32>
  %b = math.sqrt %x {opsched.id = 1 : i64, opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 7>} : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}
