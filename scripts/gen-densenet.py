#!/usr/bin/env python3
"""A DenseNet-like block in linalg on tensors, as torch-mlir lowers torch.cat:
each layer convolves the concatenation of all previous outputs (1x1 conv
started from a linalg.fill, ReLU written into the same tensor.empty), and
the next concatenation is a fresh tensor.empty filled by two
tensor.insert_slice. Used by the truth check (test/Truth) as a concat-heavy
shape outside the corpus.
Usage: gen-densenet.py [LAYERS] [GROWTH] > densenet.mlir
"""
import sys


def main():
    layers = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    growth = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    c0, hw = 16, 8
    print("#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>")
    print("module {")
    cfin = c0 + layers * growth
    print(f"  func.func @densenet(%x: tensor<1x{c0}x{hw}x{hw}xf32>) -> tensor<1x{cfin}x{hw}x{hw}xf32> {{")
    print("    %zero = arith.constant 0.0 : f32")
    cat, c = "%x", c0
    for l in range(layers):
        t = f"tensor<1x{growth}x{hw}x{hw}xf32>"
        print(f"    %w{l} = arith.constant dense<0.01> : tensor<{growth}x{c}x1x1xf32>")
        print(f"    %e{l} = tensor.empty() : {t}")
        print(f"    %f{l} = linalg.fill ins(%zero : f32) outs(%e{l} : {t}) -> {t}")
        print(f"    %c{l} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}"
              f" ins({cat}, %w{l} : tensor<1x{c}x{hw}x{hw}xf32>, tensor<{growth}x{c}x1x1xf32>) outs(%f{l} : {t}) -> {t}")
        print(f"    %r{l} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}}"
              f" ins(%c{l} : {t}) outs(%e{l} : {t}) {{")
        print("    ^bb0(%in: f32, %out: f32):")
        print("      %m = arith.maximumf %in, %zero : f32")
        print("      linalg.yield %m : f32")
        print(f"    }} -> {t}")
        n = c + growth
        tn = f"tensor<1x{n}x{hw}x{hw}xf32>"
        print(f"    %E{l} = tensor.empty() : {tn}")
        print(f"    %s{l} = tensor.insert_slice {cat} into %E{l}[0, 0, 0, 0] [1, {c}, {hw}, {hw}] [1, 1, 1, 1]"
              f" : tensor<1x{c}x{hw}x{hw}xf32> into {tn}")
        print(f"    %cat{l} = tensor.insert_slice %r{l} into %s{l}[0, {c}, 0, 0] [1, {growth}, {hw}, {hw}] [1, 1, 1, 1]"
              f" : {t} into {tn}")
        cat, c = f"%cat{l}", n
    print(f"    return {cat} : tensor<1x{c}x{hw}x{hw}xf32>")
    print("  }")
    print("}")


if __name__ == "__main__":
    main()
