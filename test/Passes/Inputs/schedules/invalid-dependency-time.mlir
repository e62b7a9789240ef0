// A dependency that starts before its producer ends.
func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = math.exp %x {opsched.start = 0, opsched.end = 4} : tensor<16xf32>
  %b = math.sqrt %a {opsched.start = 2, opsched.end = 3} : tensor<16xf32>
  return %b : tensor<16xf32>
}
