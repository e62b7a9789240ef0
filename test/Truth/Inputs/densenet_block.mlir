#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @densenet(%x: tensor<1x16x8x8xf32>) -> tensor<1x64x8x8xf32> {
    %zero = arith.constant 0.0 : f32
    %w0 = arith.constant dense<0.01> : tensor<8x16x1x1xf32>
    %e0 = tensor.empty() : tensor<1x8x8x8xf32>
    %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<1x16x8x8xf32>, tensor<8x16x1x1xf32>) outs(%f0 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %r0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x8x8x8xf32>) outs(%e0 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x8x8x8xf32>
    %E0 = tensor.empty() : tensor<1x24x8x8xf32>
    %s0 = tensor.insert_slice %x into %E0[0, 0, 0, 0] [1, 16, 8, 8] [1, 1, 1, 1] : tensor<1x16x8x8xf32> into tensor<1x24x8x8xf32>
    %cat0 = tensor.insert_slice %r0 into %s0[0, 16, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x24x8x8xf32>
    %w1 = arith.constant dense<0.01> : tensor<8x24x1x1xf32>
    %e1 = tensor.empty() : tensor<1x8x8x8xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%cat0, %w1 : tensor<1x24x8x8xf32>, tensor<8x24x1x1xf32>) outs(%f1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x8x8x8xf32>) outs(%e1 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x8x8x8xf32>
    %E1 = tensor.empty() : tensor<1x32x8x8xf32>
    %s1 = tensor.insert_slice %cat0 into %E1[0, 0, 0, 0] [1, 24, 8, 8] [1, 1, 1, 1] : tensor<1x24x8x8xf32> into tensor<1x32x8x8xf32>
    %cat1 = tensor.insert_slice %r1 into %s1[0, 24, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x32x8x8xf32>
    %w2 = arith.constant dense<0.01> : tensor<8x32x1x1xf32>
    %e2 = tensor.empty() : tensor<1x8x8x8xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%cat1, %w2 : tensor<1x32x8x8xf32>, tensor<8x32x1x1xf32>) outs(%f2 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2 : tensor<1x8x8x8xf32>) outs(%e2 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x8x8x8xf32>
    %E2 = tensor.empty() : tensor<1x40x8x8xf32>
    %s2 = tensor.insert_slice %cat1 into %E2[0, 0, 0, 0] [1, 32, 8, 8] [1, 1, 1, 1] : tensor<1x32x8x8xf32> into tensor<1x40x8x8xf32>
    %cat2 = tensor.insert_slice %r2 into %s2[0, 32, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x40x8x8xf32>
    %w3 = arith.constant dense<0.01> : tensor<8x40x1x1xf32>
    %e3 = tensor.empty() : tensor<1x8x8x8xf32>
    %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %c3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%cat2, %w3 : tensor<1x40x8x8xf32>, tensor<8x40x1x1xf32>) outs(%f3 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %r3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c3 : tensor<1x8x8x8xf32>) outs(%e3 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x8x8x8xf32>
    %E3 = tensor.empty() : tensor<1x48x8x8xf32>
    %s3 = tensor.insert_slice %cat2 into %E3[0, 0, 0, 0] [1, 40, 8, 8] [1, 1, 1, 1] : tensor<1x40x8x8xf32> into tensor<1x48x8x8xf32>
    %cat3 = tensor.insert_slice %r3 into %s3[0, 40, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x48x8x8xf32>
    %w4 = arith.constant dense<0.01> : tensor<8x48x1x1xf32>
    %e4 = tensor.empty() : tensor<1x8x8x8xf32>
    %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %c4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%cat3, %w4 : tensor<1x48x8x8xf32>, tensor<8x48x1x1xf32>) outs(%f4 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %r4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c4 : tensor<1x8x8x8xf32>) outs(%e4 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x8x8x8xf32>
    %E4 = tensor.empty() : tensor<1x56x8x8xf32>
    %s4 = tensor.insert_slice %cat3 into %E4[0, 0, 0, 0] [1, 48, 8, 8] [1, 1, 1, 1] : tensor<1x48x8x8xf32> into tensor<1x56x8x8xf32>
    %cat4 = tensor.insert_slice %r4 into %s4[0, 48, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x56x8x8xf32>
    %w5 = arith.constant dense<0.01> : tensor<8x56x1x1xf32>
    %e5 = tensor.empty() : tensor<1x8x8x8xf32>
    %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %c5 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%cat4, %w5 : tensor<1x56x8x8xf32>, tensor<8x56x1x1xf32>) outs(%f5 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %r5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c5 : tensor<1x8x8x8xf32>) outs(%e5 : tensor<1x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x8x8x8xf32>
    %E5 = tensor.empty() : tensor<1x64x8x8xf32>
    %s5 = tensor.insert_slice %cat4 into %E5[0, 0, 0, 0] [1, 56, 8, 8] [1, 1, 1, 1] : tensor<1x56x8x8xf32> into tensor<1x64x8x8xf32>
    %cat5 = tensor.insert_slice %r5 into %s5[0, 56, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x64x8x8xf32>
    return %cat5 : tensor<1x64x8x8xf32>
  }
}
