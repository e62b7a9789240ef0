#!/usr/bin/env python3
"""Scale inputs for opsched (docs/benchmarks-scale.md): one function of about
N ops, on small static tensors so the ops are real but the files stay lean.

  opsched-gen.py dag N [SEED]     layered random DAG: each op reads 1-2 values
                                  of the previous 3 layers; linalg.matmul,
                                  linalg.max (relu-like), arith.addf/mulf,
                                  math.tanh; layers of 1-64 ops
  opsched-gen.py blocks N         a real block repeated: matmul, bias add,
                                  relu, a tanh side branch and a residual add
                                  (6 ops per block, chained)

Deterministic; writes to stdout.
"""
import sys

T = "tensor<4x4xf32>"


def lcg(seed):
    s = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
    while True:
        s = (s * 6364136223846793005 + 1442695040888963407) % 2**64
        yield s >> 33


def header(out):
    out.write("func.func @scale(%%a: %s, %%b: %s) -> %s {\n" % (T, T, T))
    out.write("  %%e = tensor.empty() : %s\n" % T)


def op(out, kind, v, x, y):
    if kind == 0:
        out.write("  %%v%d = linalg.matmul ins(%s, %s : %s, %s) outs(%%e : %s) -> %s\n" % (v, x, y, T, T, T, T))
    elif kind == 1:
        out.write("  %%v%d = linalg.max ins(%s, %s : %s, %s) outs(%%e : %s) -> %s\n" % (v, x, y, T, T, T, T))
    elif kind == 2:
        out.write("  %%v%d = arith.addf %s, %s : %s\n" % (v, x, y, T))
    elif kind == 3:
        out.write("  %%v%d = arith.mulf %s, %s : %s\n" % (v, x, y, T))
    else:
        out.write("  %%v%d = math.tanh %s : %s\n" % (v, x, T))


def dag(out, n, seed):
    rnd = lcg(seed)
    header(out)
    layers = [["%a", "%b"]]
    unused = set()
    v = 0
    while v < n:
        width = 1 + next(rnd) % 64
        layer = []
        pool = [x for l in layers[-3:] for x in l]
        for _ in range(min(width, n - v)):
            x = pool[next(rnd) % len(pool)]
            y = pool[next(rnd) % len(pool)]
            op(out, next(rnd) % 5, v, x, y)
            unused.discard(x)
            unused.discard(y)
            name = "%%v%d" % v
            unused.add(name)
            layer.append(name)
            v += 1
        layers.append(layer)
    # Sinks join pairwise into the result (a balanced tree of addf).
    sinks = sorted(unused, key=lambda s: int(s[2:]))
    while len(sinks) > 1:
        nxt = []
        for i in range(0, len(sinks) - 1, 2):
            out.write("  %%v%d = arith.addf %s, %s : %s\n" % (v, sinks[i], sinks[i + 1], T))
            nxt.append("%%v%d" % v)
            v += 1
        if len(sinks) % 2:
            nxt.append(sinks[-1])
        sinks = nxt
    out.write("  return %s : %s\n}\n" % (sinks[0], T))


def blocks(out, n):
    header(out)
    x = "%a"
    v = 0
    while v + 6 <= max(n, 6):
        out.write("  %%v%d = linalg.matmul ins(%s, %%b : %s, %s) outs(%%e : %s) -> %s\n" % (v, x, T, T, T, T))
        out.write("  %%v%d = arith.addf %%v%d, %%b : %s\n" % (v + 1, v, T))
        out.write("  %%v%d = linalg.max ins(%%v%d, %%a : %s, %s) outs(%%e : %s) -> %s\n" % (v + 2, v + 1, T, T, T, T))
        out.write("  %%v%d = math.tanh %s : %s\n" % (v + 3, x, T))
        out.write("  %%v%d = arith.mulf %%v%d, %%v%d : %s\n" % (v + 4, v + 3, v + 2, T))
        out.write("  %%v%d = arith.addf %%v%d, %s : %s\n" % (v + 5, v + 4, x, T))
        x = "%%v%d" % (v + 5)
        v += 6
    out.write("  return %s : %s\n}\n" % (x, T))


if __name__ == "__main__":
    out = sys.stdout
    if len(sys.argv) >= 3 and sys.argv[1] == "dag":
        dag(out, int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    elif len(sys.argv) >= 3 and sys.argv[1] == "blocks":
        blocks(out, int(sys.argv[2]))
    else:
        sys.exit(__doc__)
