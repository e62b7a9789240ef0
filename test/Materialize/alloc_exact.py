"""Compares op-schedule's buffer sizes with the IR's allocations on bufferized
code: every static `memref.alloc` must carry `opsched.size` equal to its
bytes. Prints one line; exit 1 on any difference. (Used by memref-exact.test.)"""
import math
import re
import sys

WIDTH = {"f64": 8, "i64": 8, "f32": 4, "i32": 4, "f16": 2, "bf16": 2, "i8": 1, "i1": 1}
text = open(sys.argv[1]).read()
allocs = exact = ir_bytes = model_bytes = 0
pat = r"memref\.alloc\(\) \{([^}]*)\} : memref<([0-9x]+)x(\w+)>"
for attrs, dims, elem in re.findall(pat, text):
    size = WIDTH[elem] * math.prod(int(d) for d in dims.split("x"))
    allocs += 1
    ir_bytes += size
    m = re.search(r"opsched\.size = array<i64: (-?\d+)>", attrs)
    if m and int(m.group(1)) == size:
        exact += 1
        model_bytes += size
print("allocations %d, exact %d, IR bytes %d, model bytes %d" % (allocs, exact, ir_bytes, model_bytes))
sys.exit(0 if allocs > 0 and allocs == exact else 1)
