#!/usr/bin/env python3
"""Emits small but real networks in linalg on tensors, with fixed inputs and a
`main` that prints the result bit-exactly (f32 bits as i32), for the
execution-equivalence tests (docs/benchmarks-exec.md).

  execgen.py cnn SEED          inception/resnet-like CNN: padded 3x3 and 1x1
                               convs, relu, residual adds, concat, pooling by
                               reduction, a final matmul
  execgen.py transformer SEED  attention blocks: projections, transpose,
                               exp-softmax (reduce + broadcast + div),
                               residual, mean-centering, MLP with tanh
  execgen.py dag SEED N        a layered random DAG of N ops on 8x8 tensors:
                               matmul, add/mul/max/tanh, reduce+broadcast,
                               concat + slice
  execgen.py wrap FILE FUNC    a corpus model: keeps FILE's module, adds a
                               `main` that feeds FUNC a deterministic input
                               (from its argument types) and prints it

Deterministic: the same arguments give the same text. Every value is exact
in f32 at the inputs (multiples of 1/16), so any difference after
scheduling is a real one.
"""
import re
import sys


class Rng:
    """64-bit LCG (Knuth MMIX): no dependence on Python's random module."""

    def __init__(self, seed):
        self.s = (int(seed) * 6364136223846793005 + 1442695040888963407) % 2**64

    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) % 2**64
        return self.s >> 33

    def below(self, n):
        return self.next() % n

    def val(self):
        return (self.below(33) - 16) / 16.0


def ty(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


class Emitter:
    def __init__(self, seed):
        self.rng = Rng(seed)
        self.lines = []
        self.n = 0

    def fresh(self):
        self.n += 1
        return "%%v%d" % self.n

    def emit(self, text):
        self.lines.append("    " + text)

    def const(self, shape):
        count = 1
        for d in shape:
            count *= d
        vals = [self.rng.val() for _ in range(count)]

        def nest(flat, dims):
            if not dims:
                return "%.4f" % flat[0]
            step = len(flat) // dims[0]
            return "[" + ", ".join(nest(flat[i * step:(i + 1) * step], dims[1:])
                                   for i in range(dims[0])) + "]"

        v = self.fresh()
        self.emit("%s = arith.constant dense<%s> : %s" % (v, nest(vals, list(shape)), ty(shape)))
        return v

    def zeros(self, shape):
        e, f = self.fresh(), self.fresh()
        self.emit("%s = tensor.empty() : %s" % (e, ty(shape)))
        self.emit("%s = linalg.fill ins(%%zero : f32) outs(%s : %s) -> %s" % (f, e, ty(shape), ty(shape)))
        return f

    def empty(self, shape):
        e = self.fresh()
        self.emit("%s = tensor.empty() : %s" % (e, ty(shape)))
        return e

    def named(self, op, ins, shapes, out_shape):
        init = self.empty(out_shape)
        v = self.fresh()
        self.emit("%s = linalg.%s ins(%s : %s) outs(%s : %s) -> %s" % (
            v, op, ", ".join(ins), ", ".join(ty(s) for s in shapes), init,
            ty(out_shape), ty(out_shape)))
        return v

    def arith(self, op, a, b, shape):
        v = self.fresh()
        self.emit("%s = arith.%s %s, %s : %s" % (v, op, a, b, ty(shape)))
        return v

    def tanh(self, a, shape):
        v = self.fresh()
        self.emit("%s = math.tanh %s : %s" % (v, a, ty(shape)))
        return v

    def relu(self, a, shape):
        z = self.zeros(shape)
        return self.named("max", [a, z], [shape, shape], shape)

    def matmul(self, a, b, m, k, n):
        f = self.zeros([m, n])
        v = self.fresh()
        self.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
            v, a, b, ty([m, k]), ty([k, n]), f, ty([m, n]), ty([m, n])))
        return v

    def reduce_sum(self, a, shape, dims):
        out = [d for i, d in enumerate(shape) if i not in dims]
        f = self.zeros(out)
        v = self.fresh()
        self.emit("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%s]" % (
            v, a, ty(shape), f, ty(out), ", ".join(str(d) for d in dims)))
        self.emit("      (%in: f32, %acc: f32) {")
        self.emit("        %s = arith.addf %in, %acc : f32")
        self.emit("        linalg.yield %s : f32")
        self.emit("      }")
        return v, out

    def broadcast(self, a, in_shape, out_shape, dims):
        e = self.empty(out_shape)
        v = self.fresh()
        self.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%s]" % (
            v, a, ty(in_shape), e, ty(out_shape), ", ".join(str(d) for d in dims)))
        return v

    def transpose(self, a, m, n):
        e = self.empty([n, m])
        v = self.fresh()
        self.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [1, 0]" % (
            v, a, ty([m, n]), e, ty([n, m])))
        return v

    def concat(self, vals, shapes, dim):
        out = list(shapes[0])
        out[dim] = sum(s[dim] for s in shapes)
        v = self.fresh()
        self.emit("%s = tensor.concat dim(%d) %s : (%s) -> %s" % (
            v, dim, ", ".join(vals), ", ".join(ty(s) for s in shapes), ty(out)))
        return v, out

    def slice2d(self, a, shape, off, size):
        v = self.fresh()
        self.emit("%s = tensor.extract_slice %s[0, %d] [%d, %d] [1, 1] : %s to %s" % (
            v, a, off, size[0], size[1], ty(shape), ty(size)))
        return v

    def pad_hw(self, a, shape):
        out = [shape[0], shape[1] + 2, shape[2] + 2, shape[3]]
        v = self.fresh()
        self.emit("%s = tensor.pad %s low[0, 1, 1, 0] high[0, 1, 1, 0] {" % (v, a))
        self.emit("    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):")
        self.emit("      tensor.yield %zero : f32")
        self.emit("    } : %s to %s" % (ty(shape), ty(out)))
        return v, out

    def conv(self, a, shape, cout, k):
        src, sshape = (self.pad_hw(a, shape) if k == 3 else (a, shape))
        w = self.const([k, k, shape[3], cout])
        out = [1, shape[1], shape[2], cout]
        f = self.zeros(out)
        v = self.fresh()
        self.emit("%s = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, "
                  "strides = dense<1> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
                      v, src, w, ty(sshape), ty([k, k, shape[3], cout]), f, ty(out), ty(out)))
        return v, out

    def module(self, fn_name, result, result_shape):
        body = "\n".join(self.lines)
        return MODULE.format(fn=fn_name, body=body, res=result, rty=ty(result_shape),
                             ity=ty(result_shape).replace("f32>", "i32>"))


MODULE = """// Generated by tools/opsched-execgen/execgen.py; do not edit.
module {{
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @{fn}() -> {rty} {{
    %zero = arith.constant 0.0 : f32
{body}
    return {res} : {rty}
  }}
  func.func @main() {{
    %r = call @{fn}() : () -> {rty}
    %bits = arith.bitcast %r : {rty} to {ity}
    %u = tensor.cast %bits : {ity} to tensor<*xi32>
    call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
    return
  }}
}}
"""


def gen_cnn(seed):
    e = Emitter(seed)
    r = e.rng
    shape = [1, 6, 6, 4]
    x = e.const(shape)
    x, shape = e.conv(x, shape, 8, 3)
    x = e.relu(x, shape)
    for _ in range(2 + r.below(2)):
        branches, bshapes = [], []
        for b in range(2 + r.below(2)):
            kind = r.below(3)
            if kind == 0:
                v, s = e.conv(x, shape, 4, 1)
            elif kind == 1:
                v, s = e.conv(x, shape, 4, 3)
                v = e.relu(v, s)
            else:
                v, s = e.conv(x, shape, 4, 1)
                v, s = e.conv(v, s, 4, 3)
            branches.append(v)
            bshapes.append(s)
        cat, cshape = e.concat(branches, bshapes, 3)
        y, yshape = e.conv(cat, cshape, shape[3], 1)
        x = e.relu(e.arith("addf", y, x, shape), shape)
    pooled, pshape = e.reduce_sum(x, shape, [1, 2])
    w = e.const([pshape[1], 5])
    out = e.matmul(pooled, w, 1, pshape[1], 5)
    return e.module("cnn", out, [1, 5])


def gen_transformer(seed):
    e = Emitter(seed)
    r = e.rng
    s, d = 6, 8
    x = e.const([s, d])
    for _ in range(1 + r.below(2)):
        heads = []
        for _h in range(2):
            q = e.matmul(x, e.const([d, 4]), s, d, 4)
            k = e.matmul(x, e.const([d, 4]), s, d, 4)
            v = e.matmul(x, e.const([d, 4]), s, d, 4)
            kt = e.transpose(k, s, 4)
            sc = e.matmul(q, kt, s, 4, s)
            sc = e.arith("mulf", sc, e.const([s, s]), [s, s])
            ex = e.named("exp", [sc], [[s, s]], [s, s])
            sm, _ = e.reduce_sum(ex, [s, s], [1])
            smb = e.broadcast(sm, [s], [s, s], [1])
            p = e.named("div", [ex, smb], [[s, s], [s, s]], [s, s])
            heads.append(e.matmul(p, v, s, s, 4))
        cat, _ = e.concat(heads, [[s, 4], [s, 4]], 1)
        o = e.matmul(cat, e.const([d, d]), s, d, d)
        x = e.arith("addf", x, o, [s, d])
        mean, _ = e.reduce_sum(x, [s, d], [1])
        mb = e.broadcast(mean, [s], [s, d], [1])
        x = e.arith("subf", x, e.arith("mulf", mb, e.const([s, d]), [s, d]), [s, d])
        h = e.tanh(e.matmul(x, e.const([d, 2 * d]), s, d, 2 * d), [s, 2 * d])
        x = e.arith("addf", x, e.matmul(h, e.const([2 * d, d]), s, 2 * d, d), [s, d])
    return e.module("transformer", x, [s, d])


def gen_dag(seed, n):
    e = Emitter(seed)
    r = e.rng
    sh = [8, 8]
    layers = [[e.const(sh) for _ in range(3)]]
    made = 0
    while made < n:
        layer = []
        for _ in range(1 + r.below(4)):
            pool = layers[-1] + (layers[-2] if len(layers) > 1 else [])
            a, b = pool[r.below(len(pool))], pool[r.below(len(pool))]
            kind = r.below(7)
            if kind == 0:
                v = e.matmul(a, b, 8, 8, 8)
            elif kind == 1:
                v = e.arith("addf", a, b, sh)
            elif kind == 2:
                v = e.arith("mulf", a, e.const(sh), sh)
            elif kind == 3:
                v = e.named("max", [a, b], [sh, sh], sh)
            elif kind == 4:
                v = e.tanh(a, sh)
            elif kind == 5:
                rs, _ = e.reduce_sum(a, sh, [1])
                v = e.arith("subf", b, e.broadcast(rs, [8], sh, [1]), sh)
            else:
                c, _ = e.concat([e.slice2d(a, sh, 0, [8, 4]), e.slice2d(b, sh, 4, [8, 4])],
                                [[8, 4], [8, 4]], 1)
                v = c
            layer.append(v)
            made += 1
        layers.append(layer)
    # Sum every value no one used, so the whole DAG reaches the result.
    used = set(re.findall(r"%v\d+\b", "\n".join(
        l.split("=", 1)[1] for l in e.lines if "=" in l)))
    sinks = [v for layer in layers[1:] for v in layer if v not in used]
    acc = sinks[0]
    for v in sinks[1:]:
        acc = e.arith("addf", acc, v, sh)
    return e.module("dag", acc, sh)


def gen_wrap(path, fn):
    text = open(path).read()
    m = re.search(r"func\.func @%s\(([^)]*)\)\s*->\s*(tensor<[^>]*>)" % re.escape(fn), text)
    if not m:
        sys.exit("execgen: no function @%s with a tensor result in %s" % (fn, path))
    args = re.findall(r"%[\w]+: (tensor<[^>]*>)", m.group(1))
    rty = m.group(2)
    lines = []
    names = []
    for i, aty in enumerate(args):
        dims = [int(d) for d in aty[len("tensor<"):-len("xf32>")].split("x")]
        rank = len(dims)
        idx = ", ".join("%%i%d" % j for j in range(rank))
        # x[i...] = ((sum_j (j+1) * i_j) mod 17 - 8) / 16: exact, varied.
        body = ["      ^bb0(%out: f32):"]
        body.append("        %%acc0 = arith.constant %d : index" % i)
        for j in range(rank):
            body.append("        %%i%d = linalg.index %d : index" % (j, j))
            body.append("        %%k%d = arith.constant %d : index" % (j, j + 1))
            body.append("        %%p%d = arith.muli %%i%d, %%k%d : index" % (j, j, j))
            body.append("        %%acc%d = arith.addi %%acc%d, %%p%d : index" % (j + 1, j, j))
        body.append("        %m = arith.constant 17 : index")
        body.append("        %%r = arith.remui %%acc%d, %%m : index" % rank)
        body.append("        %ri = arith.index_cast %r : index to i32")
        body.append("        %rf = arith.sitofp %ri : i32 to f32")
        body.append("        %c8 = arith.constant 8.0 : f32")
        body.append("        %c16 = arith.constant 0.0625 : f32")
        body.append("        %s = arith.subf %rf, %c8 : f32")
        body.append("        %y = arith.mulf %s, %c16 : f32")
        body.append("        linalg.yield %y : f32")
        maps = "affine_map<(%s) -> (%s)>" % (", ".join("d%d" % j for j in range(rank)),
                                             ", ".join("d%d" % j for j in range(rank)))
        lines.append("    %%e%d = tensor.empty() : %s" % (i, aty))
        lines.append("    %%in%d = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} "
                     "outs(%%e%d : %s) {" % (i, maps, ", ".join(['"parallel"'] * rank), i, aty))
        lines.extend(body)
        lines.append("    } -> %s" % aty)
        names.append("%%in%d" % i)
    ity = rty.replace("f32>", "i32>")
    main = """  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {{
{inputs}
    %r = call @{fn}({args}) : ({atys}) -> {rty}
    %bits = arith.bitcast %r : {rty} to {ity}
    %u = tensor.cast %bits : {ity} to tensor<*xi32>
    call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
    return
  }}
""".format(inputs="\n".join(lines), fn=fn, args=", ".join(names), atys=", ".join(args),
           rty=rty, ity=ity)
    end = text.rstrip().rfind("}")
    return "// execgen.py wrap of %s\n" % path.split("/")[-1] + text[:end] + main + "}\n"


def main(argv):
    if len(argv) >= 3 and argv[1] == "cnn":
        out = gen_cnn(int(argv[2]))
    elif len(argv) >= 3 and argv[1] == "transformer":
        out = gen_transformer(int(argv[2]))
    elif len(argv) >= 4 and argv[1] == "dag":
        out = gen_dag(int(argv[2]), int(argv[3]))
    elif len(argv) >= 4 and argv[1] == "wrap":
        out = gen_wrap(argv[2], argv[3])
    else:
        sys.exit(__doc__)
    sys.stdout.write(out)


if __name__ == "__main__":
    main(sys.argv)
