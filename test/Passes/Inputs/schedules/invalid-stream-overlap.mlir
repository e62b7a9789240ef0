// Two ops of one stream overlap in time.
func.func @f(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {opsched.streams = 2 : i64} {
  %a = math.exp %x {opsched.start = 0, opsched.end = 4, opsched.stream = 0, opsched.id = 0} : tensor<16xf32>
  %b = math.sqrt %x {opsched.start = 2, opsched.end = 5, opsched.stream = 0, opsched.id = 1} : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}
