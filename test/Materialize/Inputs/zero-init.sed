# opsched-gen.py's shared init (%e, tensor.empty) filled with zeros, so the
# matmuls that accumulate into it compute defined values: the program can
# run and be compared bit for bit (the generator's own output reads the
# empty tensor, which is fine for scheduling but not for running).
s|^  %e = tensor.empty() : tensor<4x4xf32>$|  %zero = arith.constant 0.0 : f32\n  %e0 = tensor.empty() : tensor<4x4xf32>\n  %e = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x4xf32>) -> tensor<4x4xf32>|
