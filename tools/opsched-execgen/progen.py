#!/usr/bin/env python3
"""Random runnable MLIR programs for differential testing of op-schedule
(docs/benchmarks-exec.md, tools/opsched-execgen/difftest.py).

  progen.py SEED [--size N] [--only KIND,...] [--expect]

--size: snippets in main (default 40); --only: restrict the snippets to
these kinds (arith always stays; the list is progen.SNIPPETS); --expect:
print the values the generator's own model predicts main prints.

Prints a module whose `main` (-> i32, returns 0) mixes what lowered code
contains: scalar arith, memref and tensor code, subviews that alias,
memref.alloc/alloca/dealloc/copy, llvm.intr.stacksave/stackrestore with
allocas between them and a callee that overwrites freed stack,
bufferization.to_tensor/to_buffer, scf.for/if/while, memref.alloca_scope,
calls to private functions (pure, writing memory, exiting), cf.assert,
divisions by values that may be zero behind a guard (a call that may exit,
a cf.assert, an scf.if that exits), and linalg on tensors and memrefs.
Everything computed is printed (printI64 / printMemrefF32), in batches.

The generator models every scalar and buffer it emits, so it knows which
divisor is zero and makes each zero divisor follow a guard that fires: the
original program never traps, it exits with a status (3..99) or aborts on
the assert. A schedule that hoists a division above its guard traps
(SIGFPE) instead; one that reads a buffer after its dealloc, or keeps an
alloca inside a stacksave/stackrestore pair, prints other values.

Deterministic: the same SEED and size give the same text (no use of
Python's random module or hash order).
"""
import sys

MASK = (1 << 64) - 1
INT_MIN = -(1 << 63)


def wrap(x):
    x &= MASK
    return x - (1 << 64) if x >= (1 << 63) else x


def unsigned(x):
    return x & MASK


class Rng:
    """64-bit LCG (Knuth MMIX), as execgen.py."""

    def __init__(self, seed):
        self.s = (int(seed) * 6364136223846793005 + 1442695040888963407) % 2**64
        self.next()

    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) % 2**64
        return self.s >> 33

    def below(self, n):
        return self.next() % n

    def chance(self, percent):
        return self.below(100) < percent

    def pick(self, seq):
        return seq[self.below(len(seq))]


def sdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


BINOPS = {
    "addi": lambda a, b: wrap(a + b),
    "subi": lambda a, b: wrap(a - b),
    "muli": lambda a, b: wrap(a * b),
    "xori": lambda a, b: wrap(a ^ b),
    "andi": lambda a, b: wrap(a & b),
    "ori": lambda a, b: wrap(a | b),
    "maxsi": max,
    "minsi": min,
}
DIVOPS = {
    "divsi": lambda a, b: wrap(sdiv(a, b)),
    "remsi": lambda a, b: wrap(a - b * sdiv(a, b)),
    "divui": lambda a, b: wrap(unsigned(a) // unsigned(b)),
    "remui": lambda a, b: wrap(unsigned(a) % unsigned(b)),
}


def traps(op, a, b):
    return b == 0 or (op in ("divsi", "remsi") and a == INT_MIN and b == -1)


class Block:
    """Lines of one block being emitted, at one indentation."""

    def __init__(self, indent):
        self.indent = indent
        self.lines = []

    def emit(self, text):
        self.lines.append(" " * self.indent + text)


class Gen:
    def __init__(self, seed, size, only=None):
        self.rng = Rng(seed)
        self.size = size
        self.only = only
        self.n = 0
        self.helpers = []          # text of private functions
        self.helper_names = set()
        self.exit_via_llvm = self.rng.chance(50)
        self.exited = False        # a guard fired: what follows is dead code
        self.pending = []          # (name, value) scalars not printed yet
        self.pending_f32 = []      # f32 tensors (names) to print
        self.pool = []             # (name, value) i64 scalars usable in main
        self.expected = []         # values main prints (None: not modelled)
        self.status = 3 + self.rng.below(90)

    def fresh(self, prefix="v"):
        self.n += 1
        return "%%%s%d" % (prefix, self.n)

    # ----- scalars -------------------------------------------------------
    def const(self, b, value, ty="i64"):
        v = self.fresh("k")
        b.emit("%s = arith.constant %d : %s" % (v, value, ty))
        return v

    def index(self, b, value):
        v = self.fresh("i")
        b.emit("%s = arith.constant %d : index" % (v, value))
        return v

    def operand(self, pool=None):
        pool = self.pool if pool is None else pool
        return pool[self.rng.below(len(pool))]

    def binop(self, b, pool, x=None, y=None):
        x = x or self.operand(pool)
        y = y or self.operand(pool)
        op = self.rng.pick(sorted(BINOPS))
        v = self.fresh()
        b.emit("%s = arith.%s %s, %s : i64" % (v, op, x[0], y[0]))
        return (v, None if x[1] is None or y[1] is None else BINOPS[op](x[1], y[1]))

    def keep(self, sv, printed=True):
        self.pool.append(sv)
        if printed:
            self.pending.append(sv)

    # ----- snippets in main ----------------------------------------------
    def s_arith(self, b):
        for _ in range(3 + self.rng.below(6)):
            self.keep(self.binop(b, self.pool), self.rng.chance(40))

    def guard(self, b, x, d, fires):
        """Emits something that does not return when d is zero: a call that
        may exit, a cf.assert, an scf.if that exits, or a callee that
        asserts before it divides. Returns a value the guard computed, if
        any."""
        kind = self.rng.below(4)
        if kind == 3 and not fires and x[1] is not None:
            a2 = wrap(wrap(x[1] + 1) * self.status)
            if traps("divsi", a2, d[1]):
                kind = 0
        if kind == 0:
            code = self.const(b, self.status)
            b.emit("func.call @guard(%s, %s) : (i64, i64) -> ()" % (d[0], code))
            self.need_guard()
        elif kind == 1:
            z = self.const(b, 0)
            c = self.fresh("c")
            b.emit("%s = arith.cmpi ne, %s, %s : i64" % (c, d[0], z))
            b.emit('cf.assert %s, "divisor is zero"' % c)
        elif kind == 2:
            z = self.const(b, 0)
            c = self.fresh("c")
            b.emit("%s = arith.cmpi eq, %s, %s : i64" % (c, d[0], z))
            b.emit("scf.if %s {" % c)
            inner = Block(b.indent + 2)
            code = self.const(inner, self.status)
            inner.emit("func.call @printI64(%s) : (i64) -> ()" % code)
            inner.emit("func.call @printNewline() : () -> ()")
            self.exit_call(inner, code)
            b.lines.extend(inner.lines)
            b.emit("}")
        else:
            code = self.const(b, self.status)
            v = self.fresh()
            b.emit("%s = func.call @checked_div(%s, %s, %s) : (i64, i64, i64) -> i64" % (
                v, x[0], d[0], code))
            self.need_checked_div()
            if not fires and x[1] is not None:
                a2 = wrap(wrap(x[1] + 1) * self.status)
                self.keep((v, wrap(DIVOPS["divsi"](a2, d[1]) + a2)))
            else:
                self.keep((v, None), False)
        if fires:
            self.exited = True

    def s_division(self, b):
        op = self.rng.pick(sorted(DIVOPS))
        x = self.operand()
        if x[1] is None:
            return
        fires = not self.exited and self.rng.chance(12)
        if fires:
            # A zero the compiler cannot see: x - x.
            z = self.fresh()
            b.emit("%s = arith.subi %s, %s : i64" % (z, x[0], x[0]))
            d = (z, 0)
        else:
            cands = [p for p in self.pool if p[1] is not None and not traps(op, x[1], p[1])]
            if not cands:
                return
            d = self.rng.pick(cands)
        self.guard(b, x, d, fires)
        # Independent work between the guard and the division, so a
        # scheduler has something to interleave.
        for _ in range(self.rng.below(3)):
            self.keep(self.binop(b, self.pool), False)
        v = self.fresh("q")
        b.emit("%s = arith.%s %s, %s : i64" % (v, op, x[0], d[0]))
        self.keep((v, None if fires else DIVOPS[op](x[1], d[1])))

    def s_assert(self, b):
        """cf.assert x <= bound: holds, except rarely (then the program
        aborts there, and what follows is dead)."""
        x = self.operand()
        if x[1] is None:
            return
        fails = not self.exited and self.rng.chance(4)
        bound = self.const(b, x[1] - 1 if fails else x[1] + self.rng.below(3))
        c = self.fresh("c")
        b.emit("%s = arith.cmpi sle, %s, %s : i64" % (c, x[0], bound))
        b.emit('cf.assert %s, "value above its bound"' % c)
        if fails:
            self.exited = True

    def s_alias(self, b):
        """alloc, a subview of it, stores through both, a copy, loads."""
        n = 16
        off = self.rng.below(8)
        m = self.fresh("m")
        b.emit("%s = memref.alloc() : memref<%dxi64>" % (m, n))
        buf = [None] * n
        fillv = self.operand()
        b.emit("linalg.fill ins(%s : i64) outs(%s : memref<%dxi64>)" % (fillv[0], m, n))
        buf = [fillv[1]] * n
        sv = self.fresh("sv")
        svty = "memref<8xi64, strided<[1], offset: %d>>" % off
        b.emit("%s = memref.subview %s[%d] [8] [1] : memref<%dxi64> to %s" % (sv, m, off, n, svty))
        for _ in range(1 + self.rng.below(3)):
            val = self.operand()
            i = self.rng.below(8)
            ix = self.index(b, i)
            if self.rng.chance(50):
                b.emit("memref.store %s, %s[%s] : %s" % (val[0], sv, ix, svty))
                buf[off + i] = val[1]
            else:
                j = self.rng.below(n)
                ix = self.index(b, j)
                b.emit("memref.store %s, %s[%s] : memref<%dxi64>" % (val[0], m, ix, n))
                buf[j] = val[1]
        for _ in range(1 + self.rng.below(3)):
            j = self.rng.below(n)
            ix = self.index(b, j)
            v = self.fresh()
            b.emit("%s = memref.load %s[%s] : memref<%dxi64>" % (v, m, ix, n))
            self.keep((v, buf[j]))
        if self.rng.chance(60):
            c = self.fresh("m")
            b.emit("%s = memref.alloc() : memref<8xi64>" % c)
            b.emit("memref.copy %s, %s : %s to memref<8xi64>" % (sv, c, svty))
            cbuf = buf[off:off + 8]
            # Overwrite the source after the copy: the copy must read first.
            val = self.operand()
            b.emit("linalg.fill ins(%s : i64) outs(%s : %s)" % (val[0], sv, svty))
            for k in range(8):
                buf[off + k] = val[1]
            j = self.rng.below(8)
            ix = self.index(b, j)
            v = self.fresh()
            b.emit("%s = memref.load %s[%s] : memref<8xi64>" % (v, c, ix))
            self.keep((v, cbuf[j]))
            j = self.rng.below(n)
            ix = self.index(b, j)
            v = self.fresh()
            b.emit("%s = memref.load %s[%s] : memref<%dxi64>" % (v, m, ix, n))
            self.keep((v, buf[j]))
            b.emit("memref.dealloc %s : memref<8xi64>" % c)
        b.emit("memref.dealloc %s : memref<%dxi64>" % (m, n))

    def s_to_tensor(self, b):
        """A tensor over a memref, read (extract, linalg) before its dealloc."""
        m = self.fresh("m")
        b.emit("%s = memref.alloc() : memref<4xi64>" % m)
        buf = []
        for i in range(4):
            val = self.operand()
            ix = self.index(b, i)
            b.emit("memref.store %s, %s[%s] : memref<4xi64>" % (val[0], m, ix))
            buf.append(val[1])
        t = self.fresh("t")
        b.emit("%s = bufferization.to_tensor %s restrict : memref<4xi64> to tensor<4xi64>" % (t, m))
        reads = []
        for _ in range(1 + self.rng.below(2)):
            j = self.rng.below(4)
            ix = self.index(b, j)
            v = self.fresh()
            b.emit("%s = tensor.extract %s[%s] : tensor<4xi64>" % (v, t, ix))
            reads.append((v, buf[j]))
        if self.rng.chance(50):
            e = self.fresh("t")
            s = self.fresh("t")
            b.emit("%s = tensor.empty() : tensor<4xi64>" % e)
            b.emit("%s = linalg.add ins(%s, %s : tensor<4xi64>, tensor<4xi64>) outs(%s : tensor<4xi64>)"
                   " -> tensor<4xi64>" % (s, t, t, e))
            j = self.rng.below(4)
            ix = self.index(b, j)
            v = self.fresh()
            b.emit("%s = tensor.extract %s[%s] : tensor<4xi64>" % (v, s, ix))
            reads.append((v, None if buf[j] is None else wrap(2 * buf[j])))
        for _ in range(self.rng.below(3)):
            self.keep(self.binop(b, self.pool), False)
        b.emit("memref.dealloc %s : memref<4xi64>" % m)
        for r in reads:
            self.keep(r)

    def s_to_buffer(self, b):
        vals = [self.rng.below(200) - 100 for _ in range(4)]
        t = self.fresh("t")
        b.emit("%s = arith.constant dense<[%s]> : tensor<4xi64>" % (t, ", ".join(map(str, vals))))
        m = self.fresh("m")
        b.emit("%s = bufferization.to_buffer %s read_only : tensor<4xi64> to memref<4xi64>" % (m, t))
        j = self.rng.below(4)
        ix = self.index(b, j)
        v = self.fresh()
        b.emit("%s = memref.load %s[%s] : memref<4xi64>" % (v, m, ix))
        self.keep((v, vals[j]))

    def s_stack(self, b):
        """stacksave, a temporary alloca, stackrestore, then an alloca that
        must outlive the restore, a callee that overwrites the freed stack,
        and a load of the survivor. In a one-trip scf.for so the allocas are
        dynamic (not in the entry block) once lowered."""
        self.need_clobber()
        x = self.operand()
        y = self.operand()
        c0, c1 = self.index(b, 0), self.index(b, 1)
        r = self.fresh()
        it = self.fresh("it")
        acc = self.fresh("acc")
        b.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (i64) {" % (
            r, it, c0, c1, c1, acc, x[0]))
        inner = Block(b.indent + 2)
        sp = self.fresh("sp")
        inner.emit("%s = llvm.intr.stacksave : !llvm.ptr" % sp)
        tmp = self.fresh("a")
        inner.emit("%s = memref.alloca() : memref<8xi64>" % tmp)
        ix = self.index(inner, self.rng.below(8))
        inner.emit("memref.store %s, %s[%s] : memref<8xi64>" % (y[0], tmp, ix))
        t = self.fresh()
        inner.emit("%s = memref.load %s[%s] : memref<8xi64>" % (t, tmp, ix))
        inner.emit("llvm.intr.stackrestore %s : !llvm.ptr" % sp)
        keep = self.fresh("a")
        inner.emit("%s = memref.alloca() : memref<8xi64>" % keep)
        j = self.rng.below(8)
        jx = self.index(inner, j)
        inner.emit("memref.store %s, %s[%s] : memref<8xi64>" % (acc, keep, jx))
        inner.emit("func.call @clobber() : () -> ()")
        l = self.fresh()
        inner.emit("%s = memref.load %s[%s] : memref<8xi64>" % (l, keep, jx))
        s = self.fresh()
        inner.emit("%s = arith.addi %s, %s : i64" % (s, l, t))
        inner.emit("scf.yield %s : i64" % s)
        b.lines.extend(inner.lines)
        b.emit("}")
        self.keep((r, None if x[1] is None or y[1] is None else wrap(x[1] + y[1])))

    def s_alloca_scope(self, b):
        x = self.operand()
        r = self.fresh()
        b.emit("%s = memref.alloca_scope -> (i64) {" % r)
        inner = Block(b.indent + 2)
        a = self.fresh("a")
        inner.emit("%s = memref.alloca() : memref<4xi64>" % a)
        ix = self.index(inner, self.rng.below(4))
        inner.emit("memref.store %s, %s[%s] : memref<4xi64>" % (x[0], a, ix))
        local = [x]
        for _ in range(2 + self.rng.below(3)):
            local.append(self.binop(inner, local))
        l = self.fresh()
        inner.emit("%s = memref.load %s[%s] : memref<4xi64>" % (l, a, ix))
        last = local[-1]
        s = self.fresh()
        inner.emit("%s = arith.addi %s, %s : i64" % (s, l, last[0]))
        inner.emit("memref.alloca_scope.return %s : i64" % s)
        b.lines.extend(inner.lines)
        b.emit("}")
        self.keep((r, None if x[1] is None or last[1] is None else wrap(x[1] + last[1])))

    def s_if(self, b):
        x = self.operand()
        y = self.operand()
        c = self.fresh("c")
        b.emit("%s = arith.cmpi slt, %s, %s : i64" % (c, x[0], y[0]))
        r = self.fresh()
        b.emit("%s = scf.if %s -> (i64) {" % (r, c))
        vals = []
        for branch in range(2):
            inner = Block(b.indent + 2)
            local = [x, y]
            for _ in range(2 + self.rng.below(4)):
                local.append(self.binop(inner, local))
            acc = local[2]
            for v in local[3:]:
                s = self.fresh()
                inner.emit("%s = arith.addi %s, %s : i64" % (s, acc[0], v[0]))
                acc = (s, wrap(acc[1] + v[1]) if acc[1] is not None and v[1] is not None else None)
            inner.emit("scf.yield %s : i64" % acc[0])
            b.lines.extend(inner.lines)
            b.emit("}" if branch == 1 else "} else {")
            vals.append(acc[1])
        known = x[1] is not None and y[1] is not None
        self.keep((r, (vals[0] if x[1] < y[1] else vals[1]) if known else None))

    def s_while(self, b):
        x = self.operand()
        trips = 1 + self.rng.below(4)
        zero = self.const(b, 0)
        n = self.const(b, trips)
        one = self.const(b, 1)
        r0 = self.fresh()
        i, acc = self.fresh("w"), self.fresh("w")
        b.emit("%s:2 = scf.while (%s = %s, %s = %s) : (i64, i64) -> (i64, i64) {" % (
            r0, i, zero, acc, x[0]))
        c = self.fresh("c")
        b.emit("  %s = arith.cmpi slt, %s, %s : i64" % (c, i, n))
        b.emit("  scf.condition(%s) %s, %s : i64, i64" % (c, i, acc))
        b.emit("} do {")
        i2, acc2 = self.fresh("w"), self.fresh("w")
        b.emit("^bb0(%s: i64, %s: i64):" % (i2, acc2))
        inner = Block(b.indent + 2)
        k = self.rng.below(50) + 1
        kv = self.const(inner, k)
        t1 = self.fresh()
        inner.emit("%s = arith.muli %s, %s : i64" % (t1, i2, kv))
        t2 = self.fresh()
        inner.emit("%s = arith.addi %s, %s : i64" % (t2, acc2, t1))
        t3 = self.fresh()
        inner.emit("%s = arith.xori %s, %s : i64" % (t3, acc2, kv))
        t4 = self.fresh()
        inner.emit("%s = arith.addi %s, %s : i64" % (t4, t2, t3))
        i3 = self.fresh()
        inner.emit("%s = arith.addi %s, %s : i64" % (i3, i2, one))
        inner.emit("scf.yield %s, %s : i64, i64" % (i3, t4))
        b.lines.extend(inner.lines)
        b.emit("}")
        val = x[1]
        if val is not None:
            for it in range(trips):
                val = wrap(wrap(val + it * k) + (val ^ k))
        self.keep((r0 + "#1", val))

    def s_call_pure(self, b):
        k = self.need_pure()
        x, y = self.operand(), self.operand()
        v = self.fresh()
        b.emit("%s = func.call @pure%d(%s, %s) : (i64, i64) -> i64" % (v, k[0], x[0], y[0]))
        val = k[1](x[1], y[1]) if x[1] is not None and y[1] is not None else None
        self.keep((v, val))

    def s_call_mem(self, b):
        """A callee that writes memory, and one that reads it."""
        self.need_mem()
        m = self.fresh("m")
        b.emit("%s = memref.alloc() : memref<4xi64>" % m)
        x = self.operand()
        b.emit("func.call @fill4(%s, %s) : (memref<4xi64>, i64) -> ()" % (m, x[0]))
        v = self.fresh()
        b.emit("%s = func.call @sum4(%s) : (memref<4xi64>) -> i64" % (v, m))
        y = self.operand()
        j = self.rng.below(4)
        c1 = self.index(b, j)
        b.emit("memref.store %s, %s[%s] : memref<4xi64>" % (y[0], m, c1))
        w = self.fresh()
        b.emit("%s = func.call @sum4(%s) : (memref<4xi64>) -> i64" % (w, m))
        b.emit("memref.dealloc %s : memref<4xi64>" % m)
        known = x[1] is not None and y[1] is not None
        self.keep((v, wrap(4 * x[1] + 6) if x[1] is not None else None))
        self.keep((w, wrap(4 * x[1] + 6 - (x[1] + j) + y[1]) if known else None))

    def s_linalg_tensor(self, b):
        n = 4
        def dense():
            vals = [(self.rng.below(33) - 16) / 16.0 for _ in range(n * n)]
            rows = ["[" + ", ".join("%.4f" % vals[r * n + c] for c in range(n)) + "]" for r in range(n)]
            return "dense<[%s]>" % ", ".join(rows)
        ty = "tensor<%dx%dxf32>" % (n, n)
        a, w = self.fresh("t"), self.fresh("t")
        b.emit("%s = arith.constant %s : %s" % (a, dense(), ty))
        b.emit("%s = arith.constant %s : %s" % (w, dense(), ty))
        z = self.fresh("f")
        b.emit("%s = arith.constant 0.0 : f32" % z)
        e, f, mm = self.fresh("t"), self.fresh("t"), self.fresh("t")
        b.emit("%s = tensor.empty() : %s" % (e, ty))
        b.emit("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" % (f, z, e, ty, ty))
        b.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
            mm, a, w, ty, ty, f, ty, ty))
        e2, ad = self.fresh("t"), self.fresh("t")
        b.emit("%s = tensor.empty() : %s" % (e2, ty))
        b.emit("%s = linalg.add ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
            ad, mm, a, ty, ty, e2, ty, ty))
        self.pending_f32.append((ad, ty))

    def s_linalg_memref(self, b):
        ty = "memref<4xi64>"
        m1, m2 = self.fresh("m"), self.fresh("m")
        x, y = self.operand(), self.operand()
        b.emit("%s = memref.alloc() : %s" % (m1, ty))
        b.emit("%s = memref.alloc() : %s" % (m2, ty))
        b.emit("linalg.fill ins(%s : i64) outs(%s : %s)" % (x[0], m1, ty))
        b.emit("linalg.fill ins(%s : i64) outs(%s : %s)" % (y[0], m2, ty))
        b.emit("linalg.add ins(%s, %s : %s, %s) outs(%s : %s)" % (m1, m2, ty, ty, m1, ty))
        b.emit("linalg.fill ins(%s : i64) outs(%s : %s)" % (x[0], m2, ty))
        ix = self.index(b, self.rng.below(4))
        v, w = self.fresh(), self.fresh()
        b.emit("%s = memref.load %s[%s] : %s" % (v, m1, ix, ty))
        b.emit("%s = memref.load %s[%s] : %s" % (w, m2, ix, ty))
        b.emit("memref.dealloc %s : %s" % (m1, ty))
        b.emit("memref.dealloc %s : %s" % (m2, ty))
        known = x[1] is not None and y[1] is not None
        self.keep((v, wrap(x[1] + y[1]) if known else None))
        self.keep((w, x[1]))

    def flush(self, b):
        for name, val in self.pending:
            if not self.exited:
                self.expected.append(val)
            b.emit("func.call @printI64(%s) : (i64) -> ()" % name)
            b.emit("func.call @printNewline() : () -> ()")
        self.pending = []
        for name, ty in self.pending_f32:
            buf, u = self.fresh("m"), self.fresh("u")
            mty = ty.replace("tensor", "memref")
            b.emit("%s = bufferization.to_buffer %s read_only : %s to %s" % (buf, name, ty, mty))
            b.emit("%s = memref.cast %s : %s to memref<*xf32>" % (u, buf, mty))
            b.emit("func.call @printMemrefF32(%s) : (memref<*xf32>) -> ()" % u)
        self.pending_f32 = []

    # ----- helpers ---------------------------------------------------------
    def exit_call(self, b, code_i64):
        c = self.fresh("s")
        b.emit("%s = arith.trunci %s : i64 to i32" % (c, code_i64))
        if self.exit_via_llvm:
            b.emit("llvm.call @exit(%s) : (i32) -> ()" % c)
        else:
            b.emit("func.call @exit(%s) : (i32) -> ()" % c)

    def helper(self, name, text):
        if name not in self.helper_names:
            self.helper_names.add(name)
            self.helpers.append(text)

    def need_guard(self):
        b = Block(6)
        b.emit("func.call @printI64(%code) : (i64) -> ()")
        b.emit("func.call @printNewline() : () -> ()")
        self.exit_call(b, "%code")
        self.helper("guard", """  func.func private @guard(%x: i64, %code: i64) {
    %z = arith.constant 0 : i64
    %c = arith.cmpi eq, %x, %z : i64
    scf.if %c {
""" + "\n".join(b.lines) + """
    }
    return
  }""")

    def need_checked_div(self):
        """A callee that asserts its divisor is not zero, then divides: the
        division must stay below the assert inside the callee too."""
        self.helper("checked_div", """  func.func private @checked_div(%a: i64, %d: i64, %code: i64) -> i64 {
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %a1 = arith.addi %a, %one : i64
    %a2 = arith.muli %a1, %code : i64
    %nz = arith.cmpi ne, %d, %z : i64
    cf.assert %nz, "checked_div: zero divisor"
    %q = arith.divsi %a2, %d : i64
    %r = arith.addi %q, %a2 : i64
    return %r : i64
  }""")

    def need_clobber(self):
        self.helper("clobber", """  func.func private @clobber() {
    %buf = memref.alloca() : memref<64xi64>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %v = arith.constant -7777 : i64
    scf.for %i = %c0 to %c64 step %c1 {
      memref.store %v, %buf[%i] : memref<64xi64>
    }
    return
  }""")

    def need_pure(self):
        k = self.rng.below(3)
        lines, fn = PURE[k]
        self.helper("pure%d" % k, lines)
        return (k, fn)

    def need_mem(self):
        # fill4 stores x+i at i (sum 4x+6); sum4 adds the four.
        self.helper("fill4", """  func.func private @fill4(%m: memref<4xi64>, %x: i64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %one = arith.constant 1 : i64
    %two = arith.constant 2 : i64
    %three = arith.constant 3 : i64
    %x1 = arith.addi %x, %one : i64
    %x2 = arith.addi %x, %two : i64
    %x3 = arith.addi %x, %three : i64
    memref.store %x, %m[%c0] : memref<4xi64>
    memref.store %x1, %m[%c1] : memref<4xi64>
    memref.store %x2, %m[%c2] : memref<4xi64>
    memref.store %x3, %m[%c3] : memref<4xi64>
    return
  }""")
        self.helper("sum4", """  func.func private @sum4(%m: memref<4xi64>) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %a = memref.load %m[%c0] : memref<4xi64>
    %b = memref.load %m[%c1] : memref<4xi64>
    %c = memref.load %m[%c2] : memref<4xi64>
    %d = memref.load %m[%c3] : memref<4xi64>
    %ab = arith.addi %a, %b : i64
    %cd = arith.addi %c, %d : i64
    %s = arith.addi %ab, %cd : i64
    return %s : i64
  }""")

    # ----- the program -----------------------------------------------------
    def program(self):
        main = Block(4)
        # Inputs: stored to memory and loaded back, so nothing folds.
        nin = 8
        inb = self.fresh("in")
        main.emit("%s = memref.alloc() : memref<%dxi64>" % (inb, nin))
        vals = [self.rng.below(41) - 20 for _ in range(nin)]
        for i, v in enumerate(vals):
            k = self.const(main, v)
            ix = self.index(main, i)
            main.emit("memref.store %s, %s[%s] : memref<%dxi64>" % (k, inb, ix, nin))
        for i, v in enumerate(vals):
            ix = self.index(main, i)
            x = self.fresh("x")
            main.emit("%s = memref.load %s[%s] : memref<%dxi64>" % (x, inb, ix, nin))
            self.pool.append((x, v))
        snippets = [
            (self.s_arith, 14), (self.s_division, 14), (self.s_assert, 5),
            (self.s_alias, 8), (self.s_to_tensor, 10), (self.s_to_buffer, 4),
            (self.s_stack, 8), (self.s_alloca_scope, 4), (self.s_if, 7),
            (self.s_while, 5), (self.s_call_pure, 6), (self.s_call_mem, 5),
            (self.s_linalg_tensor, 5), (self.s_linalg_memref, 5),
        ]
        if self.only:
            # arith stays: the independent work a schedule interleaves.
            snippets = [(fn, w) for fn, w in snippets
                        if fn.__name__[2:] in self.only or fn.__name__ == "s_arith"]
        total = sum(w for _, w in snippets)
        for _ in range(self.size):
            r = self.rng.below(total)
            for fn, w in snippets:
                if r < w:
                    fn(main)
                    break
                r -= w
            if self.rng.chance(15):
                self.flush(main)
        self.flush(main)
        main.emit("memref.dealloc %s : memref<%dxi64>" % (inb, nin))
        ok = self.fresh("k")
        main.emit("%s = arith.constant 0 : i32" % ok)
        main.emit("return %s : i32" % ok)
        decls = ["  func.func private @printI64(i64)",
                 "  func.func private @printNewline()",
                 "  func.func private @printMemrefF32(memref<*xf32>)"]
        decls.append("  llvm.func @exit(i32)" if self.exit_via_llvm
                     else "  func.func private @exit(i32)")
        return ("// Generated by tools/opsched-execgen/progen.py; do not edit.\nmodule {\n"
                + "\n".join(decls) + "\n" + "\n".join(self.helpers) + "\n"
                + "  func.func @main() -> i32 {\n" + "\n".join(main.lines) + "\n  }\n}\n")


def _pure(k, body, fn):
    return ("""  func.func private @pure%d(%%a: i64, %%b: i64) -> i64 {
%s
  }""" % (k, body), fn)


# Pure callees with independent ops in their bodies (scheduled too).
PURE = [
    _pure(0, """    %c3 = arith.constant 3 : i64
    %c5 = arith.constant 5 : i64
    %x = arith.muli %a, %c3 : i64
    %y = arith.muli %b, %c5 : i64
    %s = arith.addi %x, %y : i64
    %d = arith.subi %a, %b : i64
    %r = arith.xori %s, %d : i64
    return %r : i64""", lambda a, b: wrap(wrap(a * 3 + b * 5) ^ wrap(a - b))),
    _pure(1, """    %c7 = arith.constant 7 : i64
    %m = arith.maxsi %a, %b : i64
    %n = arith.minsi %a, %b : i64
    %p = arith.muli %m, %c7 : i64
    %q = arith.subi %p, %n : i64
    return %q : i64""", lambda a, b: wrap(max(a, b) * 7 - min(a, b))),
    _pure(2, """    %c9 = arith.constant 9 : i64
    %o = arith.ori %a, %c9 : i64
    %d = arith.divsi %b, %o : i64
    %r = arith.remsi %a, %o : i64
    %s = arith.addi %d, %r : i64
    return %s : i64""", None),
]


def _pure2(a, b):
    o = wrap(a | 9)
    if o == 0:
        return None
    return wrap(DIVOPS["divsi"](b, o) + DIVOPS["remsi"](a, o))


PURE[2] = (PURE[2][0], _pure2)


SNIPPETS = ["arith", "division", "assert", "alias", "to_tensor", "to_buffer", "stack",
            "alloca_scope", "if", "while", "call_pure", "call_mem", "linalg_tensor",
            "linalg_memref"]


def generate(seed, size=40, only=None):
    return Gen(seed, size, only).program()


def expected(seed, size=40):
    """The printI64 values the model predicts before any guard fires."""
    g = Gen(seed, size)
    g.program()
    return g.expected


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    size = 40
    if "--size" in argv:
        size = int(argv[argv.index("--size") + 1])
    only = None
    if "--only" in argv:
        only = argv[argv.index("--only") + 1].split(",")
        bad = [k for k in only if k not in SNIPPETS]
        if bad:
            sys.exit("progen: unknown snippet kind(s) %s; known: %s" % (
                ", ".join(bad), ", ".join(SNIPPETS)))
    if "--expect" in argv:
        sys.stdout.write("".join("%s\n" % v for v in expected(int(argv[1]), size)))
        return
    sys.stdout.write(generate(int(argv[1]), size, only))


if __name__ == "__main__":
    main(sys.argv)
