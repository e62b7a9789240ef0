// Input of element-types.mlir: sub-byte element types in the roofline.
func.func @b(%b: tensor<800xi1>, %h: tensor<800xf4E2M1FN>) -> (tensor<800xi1>, tensor<800xf4E2M1FN>) {
  %0 = arith.xori %b, %b : tensor<800xi1>
  %1 = arith.mulf %h, %h : tensor<800xf4E2M1FN>
  return %0, %1 : tensor<800xi1>, tensor<800xf4E2M1FN>
}
