// A small exported-model shape that the corpus lacks: a dense_resource
// weight, a splat weight, math.erf (GELU), an embedding lookup by integer
// token ids (tensor.extract in a linalg.generic payload), and two results
// (f32 and i64). Wrapped by execgen.py for test/Exec/resource-erf-multi.test.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @forward(%ids: tensor<4xi64>, %x: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4xi64>) {
    %table = arith.constant dense_resource<emb_table> : tensor<8x4xf32>
    %w = arith.constant dense_resource<proj_w> : tensor<8x4xf32>
    %bias = arith.constant dense<2.500000e-01> : tensor<4x4xf32>
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %e0 = tensor.empty() : tensor<4x4xf32>
    %emb = linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<4xi64>) outs(%e0 : tensor<4x4xf32>) {
    ^bb0(%id: i64, %out: f32):
      %r = arith.index_cast %id : i64 to index
      %c = linalg.index 1 : index
      %v = tensor.extract %table[%r, %c] : tensor<8x4xf32>
      linalg.yield %v : f32
    } -> tensor<4x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    %e1 = tensor.empty() : tensor<4x4xf32>
    %sum = linalg.add ins(%mm, %emb : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %e2 = tensor.empty() : tensor<4x4xf32>
    %b = linalg.add ins(%sum, %bias : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %e3 = tensor.empty() : tensor<4x4xf32>
    %gelu = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x4xf32>) outs(%e3 : tensor<4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.mulf %in, %rsqrt2 : f32
      %erf = math.erf %s : f32
      %p = arith.addf %erf, %one : f32
      %h = arith.mulf %in, %half : f32
      %g = arith.mulf %h, %p : f32
      linalg.yield %g : f32
    } -> tensor<4x4xf32>
    %e4 = tensor.empty() : tensor<4xi64>
    %twice = linalg.add ins(%ids, %ids : tensor<4xi64>, tensor<4xi64>) outs(%e4 : tensor<4xi64>) -> tensor<4xi64>
    return %gelu, %twice : tensor<4x4xf32>, tensor<4xi64>
  }
}

{-#
  dialect_resources: {
    builtin: {
      emb_table: "0x04000000000040bf0000003e000020bf0000803e000000bf0000c03e0000c0be0000003f000080be0000203f000000be0000403f00000000000040bf0000003e000020bf0000803e000000bf0000c03e0000c0be0000003f000080be0000203f000000be0000403f00000000000040bf0000003e000020bf0000803e000000bf0000c03e",
      proj_w: "0x040000000000a0bf000000000000a03f000080be0000803f000000bf0000403f000040bf0000003f000080bf0000803e0000a0bf000000000000a03f000080be0000803f000000bf0000403f000040bf0000003f000080bf0000803e0000a0bf000000000000a03f000080be0000803f000000bf0000403f000040bf0000003f000080bf"
    }
  }
#-}
