#!/usr/bin/env python3
"""Scale inputs for opsched (docs/benchmarks-scale.md): one function of about
N ops, on small static tensors so the ops are real but the files stay lean.

  opsched-gen.py dag N [SEED]     layered random DAG: each op reads 1-2 values
                                  of the previous 3 layers; linalg.matmul,
                                  linalg.max (relu-like), arith.addf/mulf,
                                  math.tanh; layers of 1-64 ops
  opsched-gen.py arith N [SEED]   dag's shape with only arith.addf and
                                  arith.mulf: the cheapest ops MLIR parses
                                  and prints, so the attributes the pass
                                  writes weigh most against parse+print
  opsched-gen.py dynamic N [SEED] dag with a dynamic leading dimension
                                  (tensor<?x4xf32>, as a model with a
                                  dynamic batch has): every op has a
                                  dynamic shape
  opsched-gen.py blocks N         a real block repeated: matmul, bias add,
                                  relu, a tanh side branch and a residual add
                                  (6 ops per block, chained)
  opsched-gen.py wide N [SEED]    wide random multi-stream DAG: layers of
                                  512-1023 independent ops, each reading 1-2
                                  random values of the previous layer (work
                                  for every stream, and many buffers live)
  opsched-gen.py chains K L N [SEED]
                                  K independent heavy chains joined at the
                                  end (run-model.sh input, wide work for
                                  streams): chain i is L_i in [1, L] steps
                                  (L_i = L when SEED is 0) of an NxN matmul
                                  with its own weight argument and a relu;
                                  the chains' results are summed pairwise
  opsched-gen.py fanout N         one value read by every op: N ops ready at
                                  once, results of two sizes (every second
                                  an 8x8 tensor), every fourth summed into a
                                  chain that ends the function (a tight
                                  max-memory on many streams turns most of
                                  the ready ops away at every step)
  opsched-gen.py nested N [SEED]  deep nesting: about sqrt(N)/2 scf.if
                                  regions nested in one another, each block a
                                  random DAG of its share of the N ops
  opsched-gen.py loops N          many small blocks: scf.for loops of 20
                                  body ops each (a tensor carried in
                                  iter_args), one op between loops
  opsched-gen.py branches N       tiny blocks: sibling scf.if ops whose
                                  then-block (2 ops and a yield) reads values
                                  defined outside it (captures)
  opsched-gen.py tiles N          a tiled matmul, as tiling and unrolling
                                  leave it: N/3 tiles, each an
                                  extract_slice of the input, a matmul and
                                  an insert_slice into a chain of one
                                  destination (the in-place chain of
                                  destination-passing style)
  opsched-gen.py switch N         one op of many regions: an
                                  scf.index_switch of N/3 cases, each a
                                  block of 2 ops and a yield
  opsched-gen.py cfg N            a region of many blocks: blocks of 10 ops
                                  chained by cf.br, a tensor passed as the
                                  block argument
  opsched-gen.py memrefs N        memref ops, two of every three of cost 0:
                                  an allocation, a linalg.add into it from
                                  two of the 64 latest memrefs, and a view of
                                  it (effort's decodes ask the profile for
                                  the earliest instant of each cost-0 op)

  opsched-gen.py shared-init N    one zero-filled init (a linalg.fill of a
                                  tensor.empty) shared by every op, as
                                  torch-mlir emits it for the matmuls of a
                                  network: a chain of linalg.matmul into it
                                  and linalg.add that also read it (the
                                  in-place questions of the buffer model
                                  each walked its N uses: quadratic)

  opsched-gen.py functions N [PER]
                                  many small functions, as a module of
                                  dispatch kernels: N/PER functions of PER
                                  ops (default 10: matmul, add, mul, tanh;
                                  a matmul also has its tensor.empty), each
                                  op reading one or two of the 8 latest
                                  values of its function (what a pass pays
                                  per function, not per op)

  opsched-gen.py dense N [W]      every value read by every op of the next
                                  layer, through a view: layers of W
                                  (default 64) tensor.concat ops, each
                                  reading all W values of the previous layer
                                  (rotated) as tensor.extract_slice views of
                                  their concats; N/2 * W operands, and
                                  buffers read through views, so the buffer
                                  model's DAG has edges the graph lacks

  opsched-gen.py views N          a chain of N/2 memref.subview, each of the
                                  one before (the first of an allocation),
                                  each read by a linalg.add into the output
                                  argument: every access asks which
                                  allocation a view comes from, and whether
                                  it escapes (walks of the whole chain)

  opsched-gen.py effects N [SEED] [STREAMS] [WAITS]
                                  an annotated schedule for
                                  op-schedule-verify: N memref ops (loads,
                                  stores, fills, copies, calls, deallocs,
                                  divisions)
                                  over 2 arguments and 8 allocations, on
                                  STREAMS (default 4) streams with random
                                  waits and consistent times; WAITS percent
                                  of the ops (default 25) wait on a recent op
                                  and as many on a random one; most pairs
                                  stay unordered, so it reports many effect
                                  conflicts (the checker's worst case)

Deterministic; writes to stdout.
"""
import io
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


def dag(out, n, seed, arith_only=False):
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
            kind = next(rnd) % 5
            op(out, 2 + kind % 2 if arith_only else kind, v, x, y)
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


def dynamic(out, n, seed):
    buf = io.StringIO()
    dag(buf, n, seed)
    dyn = "tensor<?x4xf32>"
    text = buf.getvalue().replace(T, dyn)
    out.write(text.replace(
        "  %%e = tensor.empty() : %s\n" % dyn,
        "  %%c0 = arith.constant 0 : index\n  %%d0 = tensor.dim %%a, %%c0 : %s\n"
        "  %%e = tensor.empty(%%d0) : %s\n" % (dyn, dyn), 1))


def dag_ops(out, rnd, v, count, inputs, prefix):
    """`count` ops of a layered random DAG over `inputs`; returns (next id,
    the values no op read)."""
    layers, width = [list(inputs), []], 1 + next(rnd) % 32
    unused = set()
    for _ in range(count):
        if len(layers[-1]) >= width:  # a new layer of 1-32 ops
            layers.append([])
            width = 1 + next(rnd) % 32
        pool = [x for l in layers[-4:-1] for x in l]
        x = pool[next(rnd) % len(pool)]
        y = pool[next(rnd) % len(pool)]
        op(out, next(rnd) % 5, v, x, y)
        unused.discard(x)
        unused.discard(y)
        name = "%%v%d" % v
        unused.add(name)
        layers[-1].append(name)
        v += 1
    return v, sorted(unused, key=lambda s: int(s[2:]))


def reduce_sinks(out, v, sinks, indent="  "):
    """A balanced tree of addf over `sinks`; returns (next id, the root)."""
    while len(sinks) > 1:
        nxt = []
        for i in range(0, len(sinks) - 1, 2):
            out.write("%s%%v%d = arith.addf %s, %s : %s\n" % (indent, v, sinks[i], sinks[i + 1], T))
            nxt.append("%%v%d" % v)
            v += 1
        if len(sinks) % 2:
            nxt.append(sinks[-1])
        sinks = nxt
    return v, sinks[0]


def wide(out, n, seed):
    rnd = lcg(seed)
    header(out)
    prev, v, unused = ["%a", "%b"], 0, set()
    while v < n:
        layer = []
        for _ in range(min(512 + next(rnd) % 512, n - v)):
            x = prev[next(rnd) % len(prev)]
            y = prev[next(rnd) % len(prev)]
            op(out, next(rnd) % 5, v, x, y)
            unused.discard(x)
            unused.discard(y)
            unused.add("%%v%d" % v)
            layer.append("%%v%d" % v)
            v += 1
        prev = layer
    v, root = reduce_sinks(out, v, sorted(unused, key=lambda s: int(s[2:])))
    out.write("  return %s : %s\n}\n" % (root, T))


def nested(out, n, seed):
    rnd = lcg(seed)
    depth = max(1, int(n ** 0.5) // 2)
    share = max(1, n // depth)
    out.write("func.func @scale(%%a: %s, %%b: %s, %%c: i1) -> %s {\n" % (T, T, T))
    out.write("  %%e = tensor.empty() : %s\n" % T)
    v = 0
    inputs = ["%a", "%b"]
    # Level d: half its ops, the if holding level d + 1, the other half
    # (reading the if's result), then yield the reduction of its sinks.
    for d in range(depth):
        ind = "  " * (d + 1)
        v, sinks = dag_ops_indented(out, rnd, v, share // 2, inputs, ind)
        inputs = inputs + sinks[-2:]
        if d + 1 < depth:
            out.write("%s%%r%d = scf.if %%c -> (%s) {\n" % (ind, d, T))
    for d in reversed(range(depth)):
        ind = "  " * (d + 1)
        ins = ["%%r%d" % d] if d + 1 < depth else []
        v, sinks = dag_ops_indented(out, rnd, v, share - share // 2, ins + ["%a", "%b"], ind)
        v, root = reduce_sinks(out, v, sinks, ind)
        if d > 0:
            out.write("%sscf.yield %s : %s\n" % (ind, root, T))
            out.write("%s} else {\n%s  scf.yield %%b : %s\n%s}\n" % ("  " * d, "  " * d, T, "  " * d))
        else:
            out.write("  return %s : %s\n}\n" % (root, T))


def dag_ops_indented(out, rnd, v, count, inputs, indent):
    class Shift:
        def write(self, text):
            out.write(indent[2:] + text)
    return dag_ops(Shift(), rnd, v, count, inputs, indent)


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


def chains(out, k, length, n, seed):
    rnd = lcg(seed)
    t = "tensor<%dx%dxf32>" % (n, n)
    steps = [length if seed == 0 else 1 + next(rnd) % length for _ in range(k)]
    weights = ["%%w%d_%d: %s" % (c, s, t) for c in range(k) for s in range(steps[c])]
    out.write("#id = affine_map<(d0, d1) -> (d0, d1)>\n")
    out.write("func.func @chains(%%x: %s, %s) -> %s {\n" % (t, ", ".join(weights), t))
    out.write("  %zero = arith.constant 0.000000e+00 : f32\n")
    # Every result gets its own tensor.empty, as exported models do: one
    # shared empty lets bufferization reuse one chain's buffer in another.
    ends = []
    for c in range(k):
        x = "%x"
        for s in range(steps[c]):
            v = "%%c%d_%d" % (c, s)
            out.write("  %se = tensor.empty() : %s\n" % (v, t))
            out.write("  %sz = linalg.fill ins(%%zero : f32) outs(%se : %s) -> %s\n" % (v, v, t, t))
            out.write("  %sm = linalg.matmul ins(%s, %%w%d_%d : %s, %s) outs(%sz : %s) -> %s\n"
                      % (v, x, c, s, t, t, v, t, t))
            out.write("  %sr = tensor.empty() : %s\n" % (v, t))
            out.write("  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = "
                      "[\"parallel\", \"parallel\"]} ins(%sm : %s) outs(%sr : %s) {\n"
                      "  ^bb0(%%in: f32, %%o: f32):\n    %%r = arith.maximumf %%in, %%zero : f32\n"
                      "    linalg.yield %%r : f32\n  } -> %s\n" % (v, v, t, v, t, t))
            x = v
        ends.append(x)
    j = 0
    while len(ends) > 1:
        nxt = []
        for a in range(0, len(ends) - 1, 2):
            out.write("  %%j%de = tensor.empty() : %s\n" % (j, t))
            out.write("  %%j%d = linalg.add ins(%s, %s : %s, %s) outs(%%j%de : %s) -> %s\n"
                      % (j, ends[a], ends[a + 1], t, t, j, t, t))
            nxt.append("%%j%d" % j)
            j += 1
        if len(ends) % 2:
            nxt.append(ends[-1])
        ends = nxt
    out.write("  return %s : %s\n}\n" % (ends[0], t))


def effects(out, n, seed, streams, rate):
    rnd = lcg(seed)
    M = "memref<16xf32>"
    out.write("func.func private @ext(%s)\n" % M)
    out.write("func.func @effects(%%a: %s, %%b: %s, %%i: index, %%x: f32, %%k: i32) -> i32 "
              "attributes {opsched.streams = %d : i64} {\n" % (M, M, streams))
    bufs, end, last, ids = ["%a", "%b"], [0] * streams, [None] * streams, 0
    ends = []

    def attrs(stream, waits):
        nonlocal ids
        t = max([end[stream]] + [ends[w] for w in waits])
        end[stream] = t + 1
        ends.append(t + 1)
        last[stream] = ids
        w = ", opsched.waits = array<i64: %s>" % ", ".join(map(str, waits)) if waits else ""
        ids += 1
        return "{opsched.start = %d, opsched.end = %d, opsched.stream = %d, opsched.id = %d%s}" % (
            t, t + 1, stream, ids - 1, w)
    for k in range(8):  # allocations on stream 0; every stream's first op waits on the last
        out.write("  %%m%d = memref.alloc() %s : %s\n" % (k, attrs(0, []), M))
        bufs.append("%%m%d" % k)
    first = set([0])
    for v in range(n):
        s = next(rnd) % streams
        waits = []
        if s not in first:
            first.add(s)
            waits.append(7)
        elif ids > 8:
            for w in (ids - 1 - next(rnd) % min(16, ids - 8), 8 + next(rnd) % (ids - 8)):
                if next(rnd) % 100 < rate and w != last[s]:
                    waits.append(w)
        m, kind = bufs[next(rnd) % len(bufs)], next(rnd) % 32
        a = attrs(s, sorted(set(waits)))
        if kind < 12:
            out.write("  %%l%d = memref.load %s[%%i] %s : %s\n" % (v, m, a, M))
        elif kind < 22:
            out.write("  memref.store %%x, %s[%%i] %s : %s\n" % (m, a, M))
        elif kind < 26:
            out.write("  linalg.fill ins(%%x : f32) outs(%s : %s) %s\n" % (m, M, a))
        elif kind < 28:
            out.write("  memref.copy %s, %s %s : %s to %s\n" % (m, bufs[next(rnd) % len(bufs)], a, M, M))
        elif kind < 30:
            out.write("  func.call @ext(%s) %s : (%s) -> ()\n" % (m, a, M))
        elif kind < 31 and m[1] == "m":  # frees an allocation (later uses stay valid IR)
            out.write("  memref.dealloc %s %s : %s\n" % (m, a, M))
        else:
            out.write("  %%d%d = arith.divsi %%k, %%k %s : i32\n" % (v, a))
    out.write("  return %k : i32\n}\n")


def fanout(out, n):
    t8 = "tensor<8x8xf32>"
    out.write("func.func @scale(%%a: %s, %%b: %s, %%c: %s) -> %s {\n" % (T, T, t8, T))
    out.write("  %%s = arith.addf %%a, %%b : %s\n" % T)
    out.write("  %%s8 = arith.addf %%c, %%c : %s\n" % t8)
    for i in range(n):
        if i % 2:
            out.write("  %%v%d = arith.mulf %%s8, %%c : %s\n" % (i, t8))
        else:
            out.write("  %%v%d = arith.mulf %%s, %%a : %s\n" % (i, T))
    acc = "%v0"
    for i in range(4, n, 4):
        out.write("  %%r%d = arith.addf %s, %%v%d : %s\n" % (i, acc, i, T))
        acc = "%%r%d" % i
    out.write("  return %s : %s\n}\n" % (acc, T))



def loops(out, n):
    out.write("func.func @scale(%%a: %s, %%b: %s) -> %s {\n" % (T, T, T))
    out.write("  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n")
    out.write("  %c4 = arith.constant 4 : index\n")
    x = "%a"
    for j in range(max(1, n // 22)):
        out.write("  %%l%d = scf.for %%i%d = %%c0 to %%c4 step %%c1 iter_args(%%t%d = %s) -> (%s) {\n"
                  % (j, j, j, x, T))
        p = "%%t%d" % j
        for i in range(20):
            out.write("    %%w%d_%d = arith.mulf %s, %%b : %s\n" % (j, i, p, T))
            if i % 3 == 0:
                p = "%%w%d_%d" % (j, i)
        out.write("    scf.yield %%w%d_19 : %s\n  }\n" % (j, T))
        out.write("  %%o%d = arith.addf %%l%d, %%b : %s\n" % (j, j, T))
        x = "%%o%d" % j
    out.write("  return %s : %s\n}\n" % (x, T))


def branches(out, n):
    rnd = lcg(3)
    out.write("func.func @scale(%%a: %s, %%b: %s, %%c: i1) -> %s {\n" % (T, T, T))
    outer = ["%a", "%b"]
    for j in range(max(1, n // 6)):
        x, y = outer[-1 - next(rnd) % min(100, len(outer))], outer[next(rnd) % len(outer)]
        out.write("  %%r%d = scf.if %%c -> (%s) {\n" % (j, T))
        out.write("    %%p%d = arith.mulf %s, %s : %s\n" % (j, x, y, T))
        out.write("    %%q%d = arith.addf %%p%d, %%a : %s\n" % (j, j, T))
        out.write("    scf.yield %%q%d : %s\n  } else {\n    scf.yield %s : %s\n  }\n" % (j, T, x, T))
        outer.append("%%r%d" % j)
    out.write("  return %s : %s\n}\n" % (outer[-1], T))


def tiles(out, n):
    rows = 64 * 4
    big = "tensor<%dx4xf32>" % rows
    out.write("func.func @scale(%%a: %s, %%b: %s, %%t0: %s) -> %s {\n" % (big, T, big, big))
    out.write("  %%e = tensor.empty() : %s\n" % T)
    k = max(1, n // 3)
    for i in range(k):
        r = (i % 64) * 4
        out.write("  %%s%d = tensor.extract_slice %%a[%d, 0] [4, 4] [1, 1] : %s to %s\n" % (i, r, big, T))
        out.write("  %%m%d = linalg.matmul ins(%%s%d, %%b : %s, %s) outs(%%e : %s) -> %s\n"
                  % (i, i, T, T, T, T))
        out.write("  %%t%d = tensor.insert_slice %%m%d into %%t%d[%d, 0] [4, 4] [1, 1] : %s into %s\n"
                  % (i + 1, i, i, r, T, big))
    out.write("  return %%t%d : %s\n}\n" % (k, big))


def switch(out, n):
    out.write("func.func @scale(%%a: %s, %%b: %s, %%i: index) -> %s {\n" % (T, T, T))
    out.write("  %%r = scf.index_switch %%i -> %s\n" % T)
    for j in range(max(1, n // 3)):
        out.write("  case %d {\n    %%p%d = arith.mulf %%a, %%b : %s\n" % (j, j, T))
        out.write("    %%q%d = arith.addf %%p%d, %%a : %s\n" % (j, j, T))
        out.write("    scf.yield %%q%d : %s\n  }\n" % (j, T))
    out.write("  default {\n    scf.yield %%a : %s\n  }\n" % T)
    out.write("  return %%r : %s\n}\n" % T)


def cfg(out, n):
    nb = max(1, n // 10)
    out.write("func.func @scale(%%a: %s, %%b: %s) -> %s {\n  cf.br ^bb1(%%a : %s)\n" % (T, T, T, T))
    for j in range(1, nb + 1):
        out.write("^bb%d(%%x%d: %s):\n" % (j, j, T))
        p = "%%x%d" % j
        for i in range(9):
            out.write("  %%v%d_%d = arith.addf %s, %%b : %s\n" % (j, i, p, T))
            if i % 2:
                p = "%%v%d_%d" % (j, i)
        if j < nb:
            out.write("  cf.br ^bb%d(%%v%d_8 : %s)\n" % (j + 1, j, T))
        else:
            out.write("  return %%v%d_8 : %s\n" % (j, T))
    out.write("}\n")


def memrefs(out, n):
    rnd = lcg(5)
    m = "memref<4x4xf32>"
    out.write("func.func @scale(%%a: %s, %%b: %s) {\n" % (m, m))
    names = ["%a", "%b"]
    for i in range(0, n, 3):
        recent = names[-64:]
        x, y = recent[next(rnd) % len(recent)], recent[next(rnd) % len(recent)]
        out.write("  %%m%d = memref.alloc() : %s\n" % (i, m))
        out.write("  linalg.add ins(%s, %s : %s, %s) outs(%%m%d : %s)\n" % (x, y, m, m, i, m))
        out.write("  %%s%d = memref.subview %%m%d[0, 0] [2, 2] [1, 1] : %s to "
                  "memref<2x2xf32, strided<[4, 1]>>\n" % (i, i, m))
        names.append("%%m%d" % i)
    out.write("  return\n}\n")

def shared_init(out, n):
    out.write("func.func @scale(%%a: %s, %%w: %s) -> %s {\n" % (T, T, T))
    out.write("  %%zero = arith.constant 0.0 : f32\n  %%e = tensor.empty() : %s\n" % T)
    out.write("  %%z = linalg.fill ins(%%zero : f32) outs(%%e : %s) -> %s\n" % (T, T))
    prev = "%a"
    for i in range(n - 3):
        if i % 2 == 0:
            out.write("  %%x%d = linalg.matmul ins(%s, %%w : %s, %s) outs(%%z : %s) -> %s\n"
                      % (i, prev, T, T, T, T))
        else:
            out.write("  %%x%d = linalg.add ins(%%z, %s : %s, %s) outs(%%z : %s) -> %s\n"
                      % (i, prev, T, T, T, T))
        prev = "%%x%d" % i
    out.write("  return %s : %s\n}\n" % (prev, T))


def dense(out, n, w=64):
    t1 = "tensor<1xf32>"
    tw = "tensor<%dxf32>" % w
    out.write("func.func @scale(%%a: %s) -> %s {\n" % (t1, tw))
    prev = []
    for i in range(w):
        out.write("  %%v0_%d = math.tanh %%a : %s\n" % (i, t1))
        prev.append("%%v0_%d" % i)
    types = ", ".join([t1] * w)
    layers = max(1, (n - w) // (2 * w))
    for l in range(1, layers + 1):
        cur = []
        for i in range(w):
            args = ", ".join(prev[i:] + prev[:i])
            out.write("  %%c%d_%d = tensor.concat dim(0) %s : (%s) -> %s\n" % (l, i, args, types, tw))
            out.write("  %%v%d_%d = tensor.extract_slice %%c%d_%d[%d] [1] [1] : %s to %s\n"
                      % (l, i, l, i, i, tw, t1))
            cur.append("%%v%d_%d" % (l, i))
        prev = cur
    out.write("  %%r = tensor.concat dim(0) %s : (%s) -> %s\n" % (", ".join(prev), types, tw))
    out.write("  return %%r : %s\n}\n" % tw)


def views(out, n):
    m = "memref<8xf32>"
    sv = "memref<8xf32, strided<[1]>>"
    out.write("func.func @scale(%%a: %s, %%out: %s) {\n" % (m, m))
    out.write("  %%v0 = memref.alloc() : %s\n" % m)
    out.write("  linalg.add ins(%%a, %%a : %s, %s) outs(%%v0 : %s)\n" % (m, m, m))
    for i in range(1, max(2, n // 2)):
        out.write("  %%v%d = memref.subview %%v%d[0] [8] [1] : %s to %s\n"
                  % (i, i - 1, m if i == 1 else sv, sv))
        out.write("  linalg.add ins(%%v%d, %%a : %s, %s) outs(%%out : %s)\n" % (i, sv, m, m))
    out.write("  memref.dealloc %%v0 : %s\n  return\n}\n" % m)


def functions(out, n, per=10):
    """Many small functions (dispatch-sized kernels): N / PER functions of
    PER ops, each op reading one or two of the 8 latest values of its
    function."""
    rnd = lcg(7)
    for f in range(max(1, n // per)):
        out.write("func.func @kernel%d(%%a: %s, %%b: %s) -> %s {\n" % (f, T, T, T))
        vals = ["%a", "%b"]
        for i in range(per):
            recent = vals[-8:]
            x, y = recent[next(rnd) % len(recent)], recent[next(rnd) % len(recent)]
            kind = ("linalg.matmul", "arith.addf", "arith.mulf", "math.tanh")[next(rnd) % 4]
            if kind == "linalg.matmul":
                out.write("  %%e%d = tensor.empty() : %s\n" % (i, T))
                out.write("  %%v%d = linalg.matmul ins(%s, %s : %s, %s) outs(%%e%d : %s) -> %s\n"
                          % (i, x, y, T, T, i, T, T))
            elif kind == "math.tanh":
                out.write("  %%v%d = math.tanh %s : %s\n" % (i, x, T))
            else:
                out.write("  %%v%d = %s %s, %s : %s\n" % (i, kind, x, y, T))
            vals.append("%%v%d" % i)
        out.write("  return %%v%d : %s\n}\n" % (per - 1, T))


if __name__ == "__main__":
    out = sys.stdout
    if len(sys.argv) >= 3 and sys.argv[1] == "dag":
        dag(out, int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    elif len(sys.argv) >= 3 and sys.argv[1] == "dynamic":
        dynamic(out, int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    elif len(sys.argv) >= 3 and sys.argv[1] == "arith":
        dag(out, int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1, arith_only=True)
    elif len(sys.argv) >= 3 and sys.argv[1] == "blocks":
        blocks(out, int(sys.argv[2]))
    elif len(sys.argv) >= 3 and sys.argv[1] in ("loops", "branches", "switch", "cfg", "memrefs",
                                                  "shared-init", "tiles"):
        {"loops": loops, "branches": branches, "switch": switch, "cfg": cfg, "memrefs": memrefs,
         "shared-init": shared_init, "tiles": tiles}[sys.argv[1]](out, int(sys.argv[2]))
    elif len(sys.argv) >= 3 and sys.argv[1] == "functions":
        functions(out, int(sys.argv[2]), max(1, int(sys.argv[3])) if len(sys.argv) > 3 else 10)
    elif len(sys.argv) >= 3 and sys.argv[1] == "views":
        views(out, int(sys.argv[2]))
    elif len(sys.argv) >= 3 and sys.argv[1] == "dense":
        dense(out, int(sys.argv[2]), max(1, int(sys.argv[3])) if len(sys.argv) > 3 else 64)
    elif len(sys.argv) >= 3 and sys.argv[1] == "fanout":
        fanout(out, int(sys.argv[2]))
    elif len(sys.argv) >= 5 and sys.argv[1] == "chains":
        chains(out, int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]),
               int(sys.argv[5]) if len(sys.argv) > 5 else 0)
    elif len(sys.argv) >= 3 and sys.argv[1] in ("wide", "nested"):
        {"wide": wide, "nested": nested}[sys.argv[1]](
            out, int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    elif len(sys.argv) >= 3 and sys.argv[1] == "effects":
        effects(out, int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1,
                int(sys.argv[4]) if len(sys.argv) > 4 else 4, int(sys.argv[5]) if len(sys.argv) > 5 else 25)
    else:
        sys.exit(__doc__)
