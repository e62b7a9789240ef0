// A single-head self-attention block with a residual and a ReLU MLP, in
// linalg on tensors as torch-mlir lowers it (matmuls started from fills,
// softmax as max/sub-exp/sum/div generics, transposes as generics).
// Hand-written for the truth check (test/Truth/corpus.test): a shape
// outside the convolutional corpus.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr2 = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @attention(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant -3.0e38 : f32
    %wq = arith.constant dense<0.01> : tensor<64x64xf32>
    %wk = arith.constant dense<0.02> : tensor<64x64xf32>
    %wv = arith.constant dense<0.03> : tensor<64x64xf32>
    %wo = arith.constant dense<0.04> : tensor<64x64xf32>
    %w1 = arith.constant dense<0.05> : tensor<64x128xf32>
    %w2 = arith.constant dense<0.06> : tensor<128x64xf32>
    %b1 = arith.constant dense<0.1> : tensor<128xf32>
    %e = tensor.empty() : tensor<32x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
    %q = linalg.matmul ins(%x, %wq : tensor<32x64xf32>, tensor<64x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
    %k = linalg.matmul ins(%x, %wk : tensor<32x64xf32>, tensor<64x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
    %v = linalg.matmul ins(%x, %wv : tensor<32x64xf32>, tensor<64x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
    %et = tensor.empty() : tensor<64x32xf32>
    %kt = linalg.generic {indexing_maps = [#tr2, #id2], iterator_types = ["parallel", "parallel"]} ins(%k : tensor<32x64xf32>) outs(%et : tensor<64x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x32xf32>
    %es = tensor.empty() : tensor<32x32xf32>
    %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<32x32xf32>) -> tensor<32x32xf32>
    %s = linalg.matmul ins(%q, %kt : tensor<32x64xf32>, tensor<64x32xf32>) outs(%fs : tensor<32x32xf32>) -> tensor<32x32xf32>
    %er = tensor.empty() : tensor<32xf32>
    %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
    %mx = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<32x32xf32>) outs(%fm : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %out : f32
      linalg.yield %m : f32
    } -> tensor<32xf32>
    %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%s, %mx : tensor<32x32xf32>, tensor<32xf32>) outs(%es : tensor<32x32xf32>) {
    ^bb0(%in: f32, %m: f32, %out: f32):
      %d = arith.subf %in, %m : f32
      %x2 = math.exp %d : f32
      linalg.yield %x2 : f32
    } -> tensor<32x32xf32>
    %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
    %sm = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<32x32xf32>) outs(%fz : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = arith.addf %in, %out : f32
      linalg.yield %a : f32
    } -> tensor<32xf32>
    %p = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%ex, %sm : tensor<32x32xf32>, tensor<32xf32>) outs(%es : tensor<32x32xf32>) {
    ^bb0(%in: f32, %t: f32, %out: f32):
      %d = arith.divf %in, %t : f32
      linalg.yield %d : f32
    } -> tensor<32x32xf32>
    %a = linalg.matmul ins(%p, %v : tensor<32x32xf32>, tensor<32x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
    %o = linalg.matmul ins(%a, %wo : tensor<32x64xf32>, tensor<64x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
    %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%o, %x : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) {
    ^bb0(%in: f32, %r: f32, %out: f32):
      %s2 = arith.addf %in, %r : f32
      linalg.yield %s2 : f32
    } -> tensor<32x64xf32>
    %e1 = tensor.empty() : tensor<32x128xf32>
    %bb = linalg.generic {indexing_maps = [#col, #id2], iterator_types = ["parallel", "parallel"]} ins(%b1 : tensor<128xf32>) outs(%e1 : tensor<32x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<32x128xf32>
    %m1 = linalg.matmul ins(%h, %w1 : tensor<32x64xf32>, tensor<64x128xf32>) outs(%bb : tensor<32x128xf32>) -> tensor<32x128xf32>
    %r1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m1 : tensor<32x128xf32>) outs(%e1 : tensor<32x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %r = arith.maximumf %in, %zero : f32
      linalg.yield %r : f32
    } -> tensor<32x128xf32>
    %m2 = linalg.matmul ins(%r1, %w2 : tensor<32x128xf32>, tensor<128x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
    %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m2, %h : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) {
    ^bb0(%in: f32, %r: f32, %out: f32):
      %s3 = arith.addf %in, %r : f32
      linalg.yield %s3 : f32
    } -> tensor<32x64xf32>
    return %y : tensor<32x64xf32>
  }
}
