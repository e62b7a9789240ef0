// An Inception-v3-style block (4 branches: 1x1; 1x1-3x3; 1x1-3x3-3x3;
// 3x3 max-pool-1x1) joined by tensor.insert_slice, in linalg on tensors.
// Weights are arguments so the file stays small. Written for opsched's
// README demo and tests; static shapes, f32.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @inception_block(%x: tensor<1x64x28x28xf32>, %w_b1: tensor<64x64x1x1xf32>, %w_b2a: tensor<96x64x1x1xf32>, %w_b2b: tensor<128x96x3x3xf32>, %w_b3a: tensor<16x64x1x1xf32>, %w_b3b: tensor<32x16x3x3xf32>, %w_b3c: tensor<32x32x3x3xf32>, %w_b4: tensor<32x64x1x1xf32>) -> tensor<1x256x28x28xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant -3.40282347E+38 : f32
  %init1 = tensor.empty() : tensor<1x64x28x28xf32>
  %zeroed2 = linalg.fill ins(%zero : f32) outs(%init1 : tensor<1x64x28x28xf32>) -> tensor<1x64x28x28xf32>
  %conv_b1_3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w_b1 : tensor<1x64x28x28xf32>, tensor<64x64x1x1xf32>) outs(%zeroed2 : tensor<1x64x28x28xf32>) -> tensor<1x64x28x28xf32>
  %relu_b1_4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv_b1_3 : tensor<1x64x28x28xf32>) outs(%init1 : tensor<1x64x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x28x28xf32>
  %init5 = tensor.empty() : tensor<1x96x28x28xf32>
  %zeroed6 = linalg.fill ins(%zero : f32) outs(%init5 : tensor<1x96x28x28xf32>) -> tensor<1x96x28x28xf32>
  %conv_b2a_7 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w_b2a : tensor<1x64x28x28xf32>, tensor<96x64x1x1xf32>) outs(%zeroed6 : tensor<1x96x28x28xf32>) -> tensor<1x96x28x28xf32>
  %relu_b2a_8 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv_b2a_7 : tensor<1x96x28x28xf32>) outs(%init5 : tensor<1x96x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x96x28x28xf32>
  %pad9 = tensor.pad %relu_b2a_8 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x96x28x28xf32> to tensor<1x96x30x30xf32>
  %init10 = tensor.empty() : tensor<1x128x28x28xf32>
  %zeroed11 = linalg.fill ins(%zero : f32) outs(%init10 : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  %conv_b2b_12 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad9, %w_b2b : tensor<1x96x30x30xf32>, tensor<128x96x3x3xf32>) outs(%zeroed11 : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  %relu_b2b_13 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv_b2b_12 : tensor<1x128x28x28xf32>) outs(%init10 : tensor<1x128x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x128x28x28xf32>
  %init14 = tensor.empty() : tensor<1x16x28x28xf32>
  %zeroed15 = linalg.fill ins(%zero : f32) outs(%init14 : tensor<1x16x28x28xf32>) -> tensor<1x16x28x28xf32>
  %conv_b3a_16 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w_b3a : tensor<1x64x28x28xf32>, tensor<16x64x1x1xf32>) outs(%zeroed15 : tensor<1x16x28x28xf32>) -> tensor<1x16x28x28xf32>
  %relu_b3a_17 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv_b3a_16 : tensor<1x16x28x28xf32>) outs(%init14 : tensor<1x16x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x28x28xf32>
  %pad18 = tensor.pad %relu_b3a_17 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x28x28xf32> to tensor<1x16x30x30xf32>
  %init19 = tensor.empty() : tensor<1x32x28x28xf32>
  %zeroed20 = linalg.fill ins(%zero : f32) outs(%init19 : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  %conv_b3b_21 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad18, %w_b3b : tensor<1x16x30x30xf32>, tensor<32x16x3x3xf32>) outs(%zeroed20 : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  %relu_b3b_22 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv_b3b_21 : tensor<1x32x28x28xf32>) outs(%init19 : tensor<1x32x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x28x28xf32>
  %pad23 = tensor.pad %relu_b3b_22 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x32x28x28xf32> to tensor<1x32x30x30xf32>
  %init24 = tensor.empty() : tensor<1x32x28x28xf32>
  %zeroed25 = linalg.fill ins(%zero : f32) outs(%init24 : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  %conv_b3c_26 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad23, %w_b3c : tensor<1x32x30x30xf32>, tensor<32x32x3x3xf32>) outs(%zeroed25 : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  %relu_b3c_27 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv_b3c_26 : tensor<1x32x28x28xf32>) outs(%init24 : tensor<1x32x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x28x28xf32>
  %pad28 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<1x64x28x28xf32> to tensor<1x64x30x30xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %init29 = tensor.empty() : tensor<1x64x28x28xf32>
  %filled30 = linalg.fill ins(%ninf : f32) outs(%init29 : tensor<1x64x28x28xf32>) -> tensor<1x64x28x28xf32>
  %pool31 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad28, %window : tensor<1x64x30x30xf32>, tensor<3x3xf32>) outs(%filled30 : tensor<1x64x28x28xf32>) -> tensor<1x64x28x28xf32>
  %init32 = tensor.empty() : tensor<1x32x28x28xf32>
  %zeroed33 = linalg.fill ins(%zero : f32) outs(%init32 : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  %conv_b4_34 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pool31, %w_b4 : tensor<1x64x28x28xf32>, tensor<32x64x1x1xf32>) outs(%zeroed33 : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  %relu_b4_35 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv_b4_34 : tensor<1x32x28x28xf32>) outs(%init32 : tensor<1x32x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x28x28xf32>
  %cat36 = tensor.empty() : tensor<1x256x28x28xf32>
  %concat37 = tensor.insert_slice %relu_b1_4 into %cat36[0, 0, 0, 0] [1, 64, 28, 28] [1, 1, 1, 1] : tensor<1x64x28x28xf32> into tensor<1x256x28x28xf32>
  %concat38 = tensor.insert_slice %relu_b2b_13 into %concat37[0, 64, 0, 0] [1, 128, 28, 28] [1, 1, 1, 1] : tensor<1x128x28x28xf32> into tensor<1x256x28x28xf32>
  %concat39 = tensor.insert_slice %relu_b3c_27 into %concat38[0, 192, 0, 0] [1, 32, 28, 28] [1, 1, 1, 1] : tensor<1x32x28x28xf32> into tensor<1x256x28x28xf32>
  %concat40 = tensor.insert_slice %relu_b4_35 into %concat39[0, 224, 0, 0] [1, 32, 28, 28] [1, 1, 1, 1] : tensor<1x32x28x28xf32> into tensor<1x256x28x28xf32>
  return %concat40 : tensor<1x256x28x28xf32>
}
