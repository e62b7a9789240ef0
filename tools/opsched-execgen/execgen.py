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
  execgen.py wrap FILE FUNC [--seed S] [--keep-weights]
                               a corpus model: keeps FILE's module (and its
                               dense_resource trailer), replaces splat float
                               weights by seeded pseudo-random ones of the
                               same sign and magnitude, adds a `main` that
                               feeds FUNC seeded pseudo-random inputs (any
                               static tensor type: floats, integers in
                               0..7) and prints every result exactly

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


ELEM_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "i1": 1, "i8": 8, "i16": 16,
             "i32": 32, "i64": 64}


def split_types(text):
    """Top-level comma-separated items of a function signature (commas
    outside <>, (), [] and {}); scripts/run_model_harness.py uses it too."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def tensor_parts(t):
    m = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)>", t.strip())
    if not m:
        sys.exit("execgen: wrap handles static tensors only, not %s" % t)
    dims = [int(d) for d in m.group(1).split("x") if d]
    if m.group(2) not in ELEM_BITS:
        sys.exit("execgen: wrap: element type %s is not handled" % m.group(2))
    return dims, m.group(2)


def random_tensor(name, aty, salt, base=None, mixed=False):
    """Lines making `name`, a tensor of type aty filled with seeded
    pseudo-random values from its flat index: a multiplicative hash, mod 17.
    Floats: (r - 8) / 16; with a base, base * (r - 8) / 8 when mixed (a
    weight matrix or kernel: both signs, or ReLUs after same-sign kernels
    zero everything), else base * (1 + (r - 8) / 32) (a bias or
    normalisation parameter keeps its sign: a variance stays positive).
    Integers: r mod 8 (valid indices for small tables)."""
    dims, et = tensor_parts(aty)
    rank = len(dims)
    p = "%%%s_" % name[1:]
    body = ["      ^bb0(%out: " + et + "):"]
    body.append("        %sacc0 = arith.constant 0 : index" % p)
    stride = 1
    for j in reversed(range(rank)):
        k = rank - 1 - j
        body.append("        %si%d = linalg.index %d : index" % (p, j, j))
        body.append("        %ss%d = arith.constant %d : index" % (p, j, stride))
        body.append("        %sm%d = arith.muli %si%d, %ss%d : index" % (p, j, p, j, p, j))
        body.append("        %sacc%d = arith.addi %sacc%d, %sm%d : index" % (p, k + 1, p, k, p, j))
        stride *= dims[j]
    body.append("        %sh0 = arith.constant 2654435761 : index" % p)
    body.append("        %ssalt = arith.constant %d : index" % (p, salt))
    body.append("        %sh1 = arith.muli %sacc%d, %sh0 : index" % (p, p, rank, p))
    body.append("        %sh2 = arith.addi %sh1, %ssalt : index" % (p, p, p))
    body.append("        %sc13 = arith.constant 13 : index" % p)
    body.append("        %sh3 = arith.shrui %sh2, %sc13 : index" % (p, p, p))
    body.append("        %sh4 = arith.xori %sh2, %sh3 : index" % (p, p, p))
    body.append("        %sc17 = arith.constant 17 : index" % p)
    body.append("        %sr = arith.remui %sh4, %sc17 : index" % (p, p, p))
    if et.startswith("i"):
        body.append("        %sc8 = arith.constant 8 : index" % p)
        body.append("        %sr8 = arith.remui %sr, %sc8 : index" % (p, p, p))
        body.append("        %sy = arith.index_cast %sr8 : index to %s" % (p, p, et))
    else:
        body.append("        %sri = arith.index_cast %sr : index to i32" % (p, p))
        body.append("        %srf = arith.sitofp %sri : i32 to f32" % (p, p))
        body.append("        %sc8 = arith.constant 8.0 : f32" % p)
        body.append("        %sd = arith.subf %srf, %sc8 : f32" % (p, p, p))
        if base is None:
            body.append("        %sc16 = arith.constant 0.0625 : f32" % p)
            body.append("        %sv = arith.mulf %sd, %sc16 : f32" % (p, p, p))
        else:
            body.append("        %sc32 = arith.constant %s : f32" % (p, "0.125" if mixed else "0.03125"))
            body.append("        %sc1 = arith.constant %s : f32" % (p, "0.0" if mixed else "1.0"))
            body.append("        %sb = arith.constant %s : f32" % (p, base))
            body.append("        %sf = arith.mulf %sd, %sc32 : f32" % (p, p, p))
            body.append("        %sg = arith.addf %sf, %sc1 : f32" % (p, p, p))
            body.append("        %sv = arith.mulf %sg, %sb : f32" % (p, p, p))
        if et == "f32":
            body[-1] = body[-1].replace("%sv = " % p, "%sy = " % p)
        elif ELEM_BITS[et] < 32:
            body.append("        %sy = arith.truncf %sv : f32 to %s" % (p, p, et))
        else:
            body.append("        %sy = arith.extf %sv : f32 to %s" % (p, p, et))
    body.append("        linalg.yield %sy : %s" % (p, et))
    maps = "affine_map<(%s) -> (%s)>" % (", ".join("d%d" % j for j in range(rank)),
                                         ", ".join("d%d" % j for j in range(rank)))
    lines = ["    %s_e = tensor.empty() : %s" % (name, aty),
             "    %s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} "
             "outs(%s_e : %s) {" % (name, maps, ", ".join(['"parallel"'] * rank), name, aty)]
    lines.extend(body)
    lines.append("    } -> %s" % aty)
    return lines


def randomize_weights(text, seed):
    """Splat float constants (exported models often carry one repeated
    value per weight) become seeded pseudo-random tensors of the same
    magnitude, so outputs are not one value repeated."""
    count = [0]

    def repl(m):
        indent, name, val, aty = m.group(1), m.group(2), m.group(3), m.group(4)
        dims, et = tensor_parts(aty)
        if not dims or et not in ("f16", "bf16", "f32", "f64"):
            return m.group(0)
        count[0] += 1
        base = float(val)
        if base == 0.0:
            return m.group(0)
        return "\n".join(random_tensor(name, aty, seed * 7919 + count[0], base=repr(base),
                                        mixed=len(dims) >= 2))

    return re.sub(r"(?m)^(\s*)(%[\w]+) = arith\.constant dense<(-?[0-9.eE+-]+)> : "
                  r"(tensor<[^>]*>)$", repl, text)


def print_result(val, rty, k):
    """Lines printing one tensor result exactly: floats as their bits."""
    dims, et = tensor_parts(rty)
    shape = "x".join(str(d) for d in dims)
    shape = shape + "x" if shape else ""
    lines = []
    cur, cty = val, rty
    if et in ("f16", "bf16"):
        lines.append("    %%w%d = arith.extf %s : %s to tensor<%sf32>" % (k, cur, cty, shape))
        cur, cty, et = "%%w%d" % k, "tensor<%sf32>" % shape, "f32"
    if et in ("i1", "i8", "i16"):
        lines.append("    %%w%d = arith.extsi %s : %s to tensor<%si32>" % (k, cur, cty, shape))
        cur, cty, et = "%%w%d" % k, "tensor<%si32>" % shape, "i32"
    ity = {"f32": "i32", "f64": "i64", "i32": "i32", "i64": "i64"}[et]
    if et.startswith("f"):
        lines.append("    %%bits%d = arith.bitcast %s : %s to tensor<%s%s>" % (k, cur, cty, shape, ity))
        cur = "%%bits%d" % k
    lines.append("    %%u%d = tensor.cast %s : tensor<%s%s> to tensor<*x%s>" % (k, cur, shape, ity, ity))
    lines.append("    call @printMemref%s(%%u%d) : (tensor<*x%s>) -> ()" % (ity.upper(), k, ity))
    return lines, ity


def gen_wrap(path, fn, seed=0, weights=True):
    text = open(path).read()
    m = re.search(r"func\.func @%s\(" % re.escape(fn), text)
    if not m:
        sys.exit("execgen: no function @%s in %s" % (fn, path))
    # The argument list, then `-> T` or `-> (T, ...)`.
    depth, i = 1, m.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    argtext = text[m.end():i - 1]
    rm = re.match(r"\s*->\s*(\((?:[^()]|\([^()]*\))*\)|[^\s{]+)", text[i:])
    if not rm:
        sys.exit("execgen: @%s has no result" % fn)
    rtext = rm.group(1)
    rtys = split_types(rtext[1:-1] if rtext.startswith("(") else rtext)
    rtys = [re.sub(r"\s*\{.*\}$", "", t) for t in rtys]
    args = [re.sub(r"\s*(\{.*\}|loc\(.*\))$", "", a.split(":", 1)[1].strip())
            for a in split_types(argtext)]
    body = text
    if weights:
        body = randomize_weights(text, seed)
    lines, names = [], []
    for k, aty in enumerate(args):
        lines.extend(random_tensor("%%in%d" % k, aty, seed * 104729 + k))
        names.append("%%in%d" % k)
    res = ["%%r%d" % k for k in range(len(rtys))]
    call = "    %s = call @%s(%s) : (%s) -> %s" % (
        ", ".join(res) if len(res) > 1 else res[0], fn, ", ".join(names), ", ".join(args),
        "(%s)" % ", ".join(rtys) if len(rtys) > 1 else rtys[0])
    lines.append(call)
    printers = set()
    for k, rty in enumerate(rtys):
        pl, ity = print_result(res[k], rty, k)
        lines.extend(pl)
        printers.add(ity)
    decls = "".join("  func.func private @printMemref%s(tensor<*x%s>)\n" % (t.upper(), t)
                    for t in sorted(printers))
    main = decls + "  func.func @main() {\n" + "\n".join(lines) + "\n    return\n  }\n"
    # Insert main before the module's closing brace, which precedes the
    # {-# dialect_resources #-} trailer when the module has one.
    trailer = body.find("{-#")
    head, tail = (body, "") if trailer < 0 else (body[:trailer], body[trailer:])
    end = head.rstrip().rfind("}")
    return ("// execgen.py wrap of %s\n" % path.split("/")[-1] + head[:end] + main + "}\n"
            + tail)


def main(argv):
    if len(argv) >= 3 and argv[1] == "cnn":
        out = gen_cnn(int(argv[2]))
    elif len(argv) >= 3 and argv[1] == "transformer":
        out = gen_transformer(int(argv[2]))
    elif len(argv) >= 4 and argv[1] == "dag":
        out = gen_dag(int(argv[2]), int(argv[3]))
    elif len(argv) >= 4 and argv[1] == "wrap":
        seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 0
        out = gen_wrap(argv[2], argv[3], seed, "--keep-weights" not in argv)
    else:
        sys.exit(__doc__)
    sys.stdout.write(out)


if __name__ == "__main__":
    main(sys.argv)
