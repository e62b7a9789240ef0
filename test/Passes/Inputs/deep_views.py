"""A buffer filled, then read through a chain of D views (D from argv):
linalg.fill into a memref.alloc, D memref.subview each of the one before,
a linalg.copy out of the last, the dealloc. For
op-schedule-verify-deep-views.test."""
import sys

d = int(sys.argv[1])
s = "memref<8xf32, strided<[1]>>"
print("func.func @deep(%out: memref<8xf32>, %x: f32) {")
print("  %buf = memref.alloc() : memref<8xf32>")
print("  linalg.fill ins(%x : f32) outs(%buf : memref<8xf32>)")
print("  %v1 = memref.subview %buf[0] [8] [1] : memref<8xf32> to " + s)
for i in range(2, d + 1):
    print("  %%v%d = memref.subview %%v%d[0] [8] [1] : %s to %s" % (i, i - 1, s, s))
print("  linalg.copy ins(%%v%d : %s) outs(%%out : memref<8xf32>)" % (d, s))
print("  memref.dealloc %buf : memref<8xf32>")
print("  return")
print("}")
