// The input of idempotence.mlir without its stale attributes.
func.func @stale(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = arith.addf %a, %a : tensor<64x64xf32>
  %2 = linalg.matmul ins(%0, %1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = arith.mulf %a, %a : tensor<64x64xf32>
  %4 = arith.addf %2, %3 : tensor<64x64xf32>
  return %4 : tensor<64x64xf32>
}
