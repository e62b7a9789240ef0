#!/usr/bin/env python3
"""Generates the big adversarial inputs at test time (nothing large is
committed):
  gen.py fan N        one block: N ops reading one value (fan-out N), all
                      feeding one tensor.concat (fan-in N)
  gen.py funcs N      a module of N functions of mixed shapes and sizes
"""
import sys


def fan(n):
    print("func.func @fan(%%a: tensor<1xf32>) -> tensor<%dxf32> {" % n)
    for i in range(n):
        print("  %%v%d = arith.addf %%a, %%a : tensor<1xf32>" % i)
    print("  %%c = tensor.concat dim(0) %s : (%s) -> tensor<%dxf32> loc(\"concat\")" % (
        ", ".join("%%v%d" % i for i in range(n)), ", ".join(["tensor<1xf32>"] * n), n))
    print("  return %%c : tensor<%dxf32>" % n)
    print("}")


def funcs(n):
    for f in range(n):
        w = 4 + (f * 7) % 13
        k = 2 + f % 5
        print("func.func @f%d(%%a: tensor<%dx%dxf32>, %%b: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {" % (f, w, w, w, w, w, w))
        print("  %%e = tensor.empty() : tensor<%dx%dxf32>" % (w, w))
        prev = ["%a", "%b"]
        for i in range(k):
            print("  %%m%d = linalg.matmul ins(%s, %s : tensor<%dx%dxf32>, tensor<%dx%dxf32>) outs(%%e : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>" % (
                i, prev[-1], prev[-2], w, w, w, w, w, w, w, w))
            print("  %%x%d = arith.addf %s, %%b : tensor<%dx%dxf32>" % (i, prev[-2], w, w))
            prev += ["%%m%d" % i, "%%x%d" % i]
        print("  %%r = arith.addf %s, %s : tensor<%dx%dxf32>" % (prev[-1], prev[-2], w, w))
        print("  return %%r : tensor<%dx%dxf32>" % (w, w))
        print("}")


if __name__ == "__main__":
    {"fan": fan, "funcs": funcs}[sys.argv[1]](int(sys.argv[2]))
