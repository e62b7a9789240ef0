"""One function whose block holds N ops before its terminator (N from
argv): a chain of arith.addf on tensors. For timing.mlir (the nested phase
timers start at blocks of 128 ops)."""
import sys

n = int(sys.argv[1])
t = "tensor<16xf32>"
print("func.func @chain%d(%%v: %s) -> %s {" % (n, t, t))
print("  %%a1 = arith.addf %%v, %%v : %s" % t)
for i in range(2, n + 1):
    print("  %%a%d = arith.addf %%a%d, %%v : %s" % (i, i - 1, t))
print("  return %%a%d : %s" % (n, t))
print("}")
