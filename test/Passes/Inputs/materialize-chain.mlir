// A chain of elementwise ops on tensors: three intermediates, one result.
#id = affine_map<(d0) -> (d0)>
func.func @chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.addf %i, %i : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %x : tensor<64xf32>, tensor<64xf32>) outs(%e1 : tensor<64xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %r = arith.mulf %i, %j : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%b, %a : tensor<64xf32>, tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %r = arith.subf %i, %j : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%c : tensor<64xf32>) outs(%e3 : tensor<64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.mulf %i, %i : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %d : tensor<64xf32>
}
