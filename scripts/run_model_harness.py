#!/usr/bin/env python3
"""Helpers of scripts/run-model.sh (text in, text out; no MLIR bindings).

prep MODEL OUT ARGS_JSON
    Turns every splat f32 tensor constant of the model's entry function into
    a function argument, so the harness can fill the weights with seeded
    random data (exported models often hold one repeated value per weight,
    which makes comparing two programs' outputs meaningless). Writes the
    entry's name, argument and result types to ARGS_JSON.

main BUFFERIZED ARGS_JSON OUT SEED REPEATS
    Appends a memref-level `main` to a bufferized module (identity-layout
    function boundaries): it allocates every argument, fills it with a
    deterministic hash of (seed, argument, element index), calls the entry
    REPEATS times timing each call with rtclock, measures the heap bytes the
    first call holds at its peak (opsched_mc_* from tools/malloc-count), and
    prints every result's bits as i32 so two programs compare bit for bit.

report SCHEDULED SEQ_OUT SCHED_OUT [MATERIALIZED]
    (SEQ_OUT, SCHED_OUT: a run's output, or several runs' comma-separated)
    Prints predicted (the scheduled function's opsched.* attributes) against
    measured figures and checks the outputs are bit-identical (exit 1 if not).
profile SCHEDULED OUT
    Times every top-level op of the scheduled entry function (one stream,
    IR order = schedule order): an rtclock call goes before each op and
    before the return, and each call of the entry prints "INDEX, SECONDS"
    per op. `profile-report` reads those lines back.

trace MATERIALIZED OUT
    Puts an opsched_trace call (tools/opsched-trace) before and after every
    linalg op and memref.copy: which thread ran which op, and when.
trace-report TRACE_FILE
    Per call (the first dropped): span, busy time per thread, time with two
    or more ops at once, idle thread time; medians over the calls.

profile-report SCHEDULED RUN_OUT
    Per op class: ops, predicted ns (the sum of opsched.end - opsched.start),
    measured ns
    (the sum of the per-op medians over calls 2..R), measured / predicted;
    then the whole function.
"""
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools",
                                "opsched-execgen"))
from execgen import split_types  # noqa: E402  (one signature splitter)

FUNC_RE = re.compile(r"func\.func\s+@([\w$.]+)\s*\((.*?)\)\s*(?:->\s*(.*?))?\s*(?:attributes\s*\{.*\})?\s*\{\s*$")
SPLAT_RE = re.compile(r"^(\s*)(%[\w$.]+) = arith\.constant dense<([^<>\[\]]*)> : (tensor<([0-9x]+)xf32>)\s*$")


def entry_line(lines):
    """The index of the public function's signature line (the last public one)."""
    found = None
    for i, line in enumerate(lines):
        if "func.func" in line and "private" not in line and FUNC_RE.search(line.strip()):
            found = i
    if found is None:
        sys.exit("run-model: no public func.func with a one-line signature in the model")
    return found


def prep(model, out, args_json):
    lines = open(model).read().split("\n")
    i = entry_line(lines)
    m = FUNC_RE.search(lines[i].strip())
    name, args, results = m.group(1), split_types(m.group(2)), m.group(3) or ""
    new_args = list(args)
    body, depth = [], 0
    for j in range(i + 1, len(lines)):
        line = lines[j]
        s = SPLAT_RE.match(line)
        if s and depth == 0 and "x" in s.group(5) + "x":
            new_args.append("%s: %s" % (s.group(2), s.group(4)))
            lines[j] = None
            continue
        depth += line.count("{") - line.count("}")
        if depth < 0:
            break
    sig = lines[i]
    start = sig.index("(", sig.index("@" + name))
    end = start + 1 + len(m.group(2))
    lines[i] = sig[:start + 1] + ", ".join(new_args) + sig[end:]
    open(out, "w").write("\n".join(l for l in lines if l is not None))
    types = [a.split(":", 1)[1].strip() for a in new_args]
    res = [r.strip() for r in split_types(results.strip("() "))] if results else []
    json.dump({"name": name, "args": types, "results": res}, open(args_json, "w"))


def shape_of(t):
    m = re.match(r"(?:tensor|memref)<([0-9x]*?)x?(f32|f16|f64|i32|i64|i8|i1)>", t)
    if not m:
        sys.exit("run-model: unsupported argument type %s (static f32 tensors only)" % t)
    dims = [int(d) for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def fill(lines, var, dims, seed, scale):
    rank = len(dims)
    ds = ", ".join("d%d" % k for k in range(rank))
    mt = "memref<%sxf32>" % "x".join(map(str, dims)) if dims else "memref<f32>"
    lines.append("    linalg.generic {indexing_maps = [affine_map<(%s) -> (%s)>], iterator_types = [%s]} outs(%s : %s) {"
                 % (ds, ds, ", ".join(['"parallel"'] * rank), var, mt))
    lines.append("    ^bb0(%out: f32):")
    lin = None
    for k in range(rank):
        lines.append("      %%i%d = linalg.index %d : index" % (k, k))
        if lin is None:
            lin = "%i0"
        else:
            lines.append("      %%m%d = arith.muli %s, %%c%d : index" % (k, lin, dims[k]))
            lines.append("      %%l%d = arith.addi %%m%d, %%i%d : index" % (k, k, k))
            lin = "%%l%d" % k
    lines.append("      %%x = arith.index_cast %s : index to i32" % (lin or "%c0"))
    # A 32-bit integer hash (murmur3 finalizer) of seed + index.
    lines.append("      %%s = arith.constant %d : i32" % seed)
    lines.append("      %h0 = arith.addi %x, %s : i32")
    lines.append("      %h1 = arith.muli %h0, %k1 : i32")
    lines.append("      %h2 = arith.shrui %h1, %c15 : i32")
    lines.append("      %h3 = arith.xori %h1, %h2 : i32")
    lines.append("      %h4 = arith.muli %h3, %k2 : i32")
    lines.append("      %h5 = arith.shrui %h4, %c13 : i32")
    lines.append("      %h6 = arith.xori %h4, %h5 : i32")
    lines.append("      %h7 = arith.shrui %h6, %c8 : i32")
    lines.append("      %u = arith.uitofp %h7 : i32 to f32")
    lines.append("      %f = arith.mulf %u, %two24 : f32")
    lines.append("      %g = arith.subf %f, %half : f32")
    lines.append("      %%sc = arith.constant %.9e : f32" % (2 * scale))
    lines.append("      %v = arith.mulf %g, %sc : f32")
    lines.append("      linalg.yield %v : f32")
    lines.append("    }")


def main_fn(bufferized, args_json, out, seed, repeats):
    meta = json.load(open(args_json))
    text = open(bufferized).read().rstrip()
    if not text.endswith("}"):
        sys.exit("run-model: unexpected module text")
    L = []
    decls = ["func.func private @rtclock() -> f64", "func.func private @printF64(f64)",
             "func.func private @printI64(i64)", "func.func private @printNewline()",
             "func.func private @printMemrefI32(memref<*xi32>)",
             "func.func private @opsched_mc_mark()", "func.func private @opsched_mc_peak() -> i64",
             "func.func private @opsched_mc_current() -> i64"]
    L += ["  " + d for d in decls]
    # Returns 0: a native main's result is the process's exit status.
    L.append("  func.func @main() -> i32 {")
    consts = {"%k1": "-2048144789 : i32", "%k2": "-1028477387 : i32", "%c15": "15 : i32",
              "%c13": "13 : i32", "%c8": "8 : i32", "%two24": "5.96046448e-08 : f32",
              "%half": "5.000000e-01 : f32", "%c0": "0 : index", "%c1": "1 : index",
              "%crep": "%d : index" % repeats}
    for k, v in consts.items():
        L.append("    %s = arith.constant %s" % (k, v))
    dimset = set()
    for t in meta["args"]:
        dimset.update(shape_of(t)[0])
    for d in sorted(dimset):
        if d not in (0, 1):
            L.append("    %%c%d = arith.constant %d : index" % (d, d))
    argvals, argtypes = [], []
    for n, t in enumerate(meta["args"]):
        dims, et = shape_of(t)
        if et != "f32":
            sys.exit("run-model: argument %d is not f32" % n)
        mt = "memref<%sxf32>" % "x".join(map(str, dims))
        L.append("    %%a%d = memref.alloc() {alignment = 64 : i64} : %s" % (n, mt))
        fan_in = 1
        for d in dims[1:]:
            fan_in *= d
        scale = 1.0 if n == 0 else ((3.0 / fan_in) ** 0.5 if len(dims) > 1 else 0.1)
        fill(L, "%%a%d" % n, dims, seed * 7919 + n * 104729, scale)
        argvals.append("%%a%d" % n)
        argtypes.append(mt)
    restypes = [r.replace("tensor<", "memref<") for r in meta["results"]]
    call = "func.call @%s(%s) : (%s) -> (%s)" % (meta["name"], ", ".join(argvals), ", ".join(argtypes),
                                            ", ".join(restypes))
    rnames = ["%%r%d" % k for k in range(len(restypes))]
    L.append("    func.call @opsched_mc_mark() : () -> ()")
    L.append("    %base = func.call @opsched_mc_current() : () -> i64")
    L.append("    %t0 = func.call @rtclock() : () -> f64")
    L.append("    %s = %s" % (", ".join(rnames), call) if rnames else "    " + call)
    L.append("    %t1 = func.call @rtclock() : () -> f64")
    L.append("    %peak = func.call @opsched_mc_peak() : () -> i64")
    L.append("    %held = arith.subi %peak, %base : i64")
    L.append("    func.call @printI64(%held) : (i64) -> ()")
    L.append("    func.call @printNewline() : () -> ()")
    L.append("    %dt = arith.subf %t1, %t0 : f64")
    L.append("    func.call @printF64(%dt) : (f64) -> ()")
    L.append("    func.call @printNewline() : () -> ()")
    for k, rt in enumerate(restypes):
        dims, et = shape_of(rt)
        bt = rt.replace("xf32>", "xi32>")
        ds = ", ".join("d%d" % q for q in range(len(dims)))
        L.append("    %%b%d = memref.alloc() : %s" % (k, bt))
        L.append("    linalg.generic {indexing_maps = [affine_map<(%s) -> (%s)>, affine_map<(%s) -> (%s)>], iterator_types = [%s]} ins(%%r%d : %s) outs(%%b%d : %s) {"
                 % (ds, ds, ds, ds, ", ".join(['"parallel"'] * len(dims)), k, rt, k, bt))
        L.append("    ^bb0(%in: f32, %o: i32):")
        L.append("      %bits = arith.bitcast %in : f32 to i32")
        L.append("      linalg.yield %bits : i32")
        L.append("    }")
        L.append("    %%u%d = memref.cast %%b%d : %s to memref<*xi32>" % (k, k, bt))
        L.append("    func.call @printMemrefI32(%%u%d) : (memref<*xi32>) -> ()" % k)
        L.append("    memref.dealloc %%b%d : %s" % (k, bt))
        L.append("    memref.dealloc %%r%d : %s" % (k, rt))
    L.append("    scf.for %it = %c1 to %crep step %c1 {")
    L.append("      %s0 = func.call @rtclock() : () -> f64")
    sn = ["%%q%d" % k for k in range(len(restypes))]
    L.append("      %s = %s" % (", ".join(sn), call) if sn else "      " + call)
    L.append("      %s1 = func.call @rtclock() : () -> f64")
    L.append("      %ds = arith.subf %s1, %s0 : f64")
    L.append("      func.call @printF64(%ds) : (f64) -> ()")
    L.append("      func.call @printNewline() : () -> ()")
    for k, rt in enumerate(restypes):
        L.append("      memref.dealloc %%q%d : %s" % (k, rt))
    L.append("    }")
    for n, t in enumerate(argtypes):
        L.append("    memref.dealloc %%a%d : %s" % (n, t))
    L.append("    %ok = arith.constant 0 : i32")
    L.append("    return %ok : i32")
    L.append("  }")
    open(out, "w").write(text[:-1].rstrip() + "\n" + "\n".join(L) + "\n}\n")


def parse_run(paths):
    """Heap bytes, call times and result bits of one run, or of several runs
    of one program (comma-separated paths: times pooled over the runs, each
    run's first call dropped, bits and heap of the first run)."""
    if "," in paths:
        runs = [parse_run(p) for p in paths.split(",")]
        times = [runs[0][1][0]] + [t for r in runs for t in (r[1][1:] or r[1])]
        return runs[0][0], times, runs[0][2]
    lines = open(paths).read().split("\n")
    held = int(lines[0])
    times = [float(lines[1])]
    bits = []
    rest = lines[2:]
    for line in rest:
        if re.match(r"^\d+\.\d+(e[-+]?\d+)?$", line.strip()):
            times.append(float(line))
        elif line.strip():
            bits.append(re.sub(r"base@ = 0x[0-9a-f]+", "base@", line))
    return held, times, bits


def attr(text, name):
    m = re.search(r"opsched\.%s = ([-0-9.eE+]+)" % re.escape(name), text)
    return float(m.group(1)) if m else None


WIDTH = {"f64": 8, "i64": 8, "f32": 4, "i32": 4, "f16": 2, "bf16": 2, "i8": 1, "i1": 1}


def allocated_bytes(materialized):
    """Bytes of every static memref.alloc of the materialized module (before
    `main` is added): the arena plus the buffers that kept their own."""
    total = 0
    for dims, elem in re.findall(r"memref\.alloc\(\)(?: \{[^}]*\})? : memref<([0-9x]+)x(\w+)>",
                                 open(materialized).read()):
        n = WIDTH.get(elem, 0)
        for d in dims.split("x"):
            n *= int(d)
        total += n
    return total


# The runtime's own heap beyond the plan's allocations: 64 KiB (the
# runner utils, the thread pool) plus, per async.execute region of the
# materialized module (hops included), its coroutine frame, token and
# values, which may all be alive at once (docs/materialize.md: 189 B per
# region with nothing captured, 367-836 B per region measured on
# mobilenet_v2, googlenet and inception_v3; 1 KiB covers them).
RUNTIME_SLACK = 65536
SLACK_PER_REGION = 1024


def runtime_slack(materialized):
    return RUNTIME_SLACK + SLACK_PER_REGION * open(materialized).read().count("async.execute")


def report(scheduled, seq_out, sched_out, materialized=None):
    text = open(scheduled).read()
    sh, st, sb = parse_run(sched_out)
    qh, qt, qb = parse_run(seq_out)
    same = sb == qb and len(sb) > 0
    # The first call pays for page faults of fresh memory: timing uses the rest.
    tq = statistics.median(qt[1:] or qt)
    ts = statistics.median(st[1:] or st)
    makespan = attr(text, "makespan")
    work = None
    if makespan is not None and attr(text, "speedup") is not None:
        work = makespan * attr(text, "speedup")
    print("outputs bit-identical:      %s" % ("yes" if same else "NO"))
    print("predicted makespan:         %s ns (opsched.makespan; %s)" %
          (int(makespan) if makespan is not None else "?",
           "predicted speedup %.3f" % attr(text, "speedup") if work else "no speedup"))
    print("measured wall time:         scheduled %.6f s, sequential %.6f s (median of %d)" %
          (ts, tq, max(1, len(st) - 1)))
    print("measured speedup:           %.3f" % (tq / ts if ts > 0 else float("nan")))
    for name in ("peak_memory", "arena_size", "resident_bytes"):
        v = attr(text, name)
        print("predicted %-17s %s" % (name + ":", int(v) if v is not None else "?"))
    v = attr(text, "original_peak_memory")
    print("predicted original_peak_memory: %s (the model's order, one stream)" %
          (int(v) if v is not None else "?"))
    print("measured peak heap:         scheduled %d B, sequential %d B (ratio seq/sched %.3f)" %
          (sh, qh, qh / sh if sh else float("nan")))
    if materialized:
        bound = allocated_bytes(materialized)
        slack = runtime_slack(materialized)
        print("arena program allocates:    %d B (arena + kept buffers); measured peak within it: %s"
              % (bound, "yes" if sh <= bound + slack else "NO (+%d B)" % (sh - bound - slack)))
    return 0 if same else 1


def body_ops(lines):
    """(index of the entry's signature, [(start line, end line)] of every
    top-level op of its body, the return included)."""
    i = entry_line(lines)
    ops, depth, start = [], 1, None
    indent = len(lines[i + 1]) - len(lines[i + 1].lstrip())
    for j in range(i + 1, len(lines)):
        # An op starts at the body's indentation; deeper lines continue it.
        if depth == 1 and len(lines[j]) - len(lines[j].lstrip()) <= indent:
            if lines[j].strip() == "}":
                break
            if start is not None:
                ops.append((start, j))
            start = j
        depth += lines[j].count("{") - lines[j].count("}")
    if start is not None:
        ops.append((start, j))
    return i, ops


OPNAME_RE = re.compile(r'^\s*(?:[%\w#:, ]+ = )?"?([a-z_]+\.[\w.]+|return)')


def op_class(text):
    m = OPNAME_RE.match(text)
    name = m.group(1) if m else "?"
    if name == "linalg.generic":
        name += "(reduction)" if '"reduction"' in text else "(parallel)"
    return name


def profile(scheduled, out):
    lines = open(scheduled).read().split("\n")
    _, ops = body_ops(lines)
    ret = ops[-1][0]
    stamps = [s for s, _ in ops[:-1]] + [ret]
    new = []
    for j, line in enumerate(lines):
        if j in stamps:
            new.append("    %%opsched_t%d = func.call @rtclock() : () -> f64" % stamps.index(j))
        if j == ret:
            for k in range(len(stamps) - 1):
                new.append("    %%opsched_d%d = arith.subf %%opsched_t%d, %%opsched_t%d : f64" % (k, k + 1, k))
                new.append("    %%opsched_k%d = arith.constant %d : i64" % (k, k))
                new.append("    func.call @printI64(%%opsched_k%d) : (i64) -> ()" % k)
                new.append("    func.call @printComma() : () -> ()")
                new.append("    func.call @printF64(%%opsched_d%d) : (f64) -> ()" % k)
                new.append("    func.call @printNewline() : () -> ()")
        new.append(line)
    text = "\n".join(new).rstrip()
    decl = "  func.func private @printComma()\n"
    open(out, "w").write(text[:-1].rstrip() + "\n" + decl + "}\n")


def profile_report(scheduled, run_out):
    lines = open(scheduled).read().split("\n")
    _, ops = body_ops(lines)
    samples = {}
    for line in open(run_out):
        m = re.match(r"^(\d+), ([-0-9.e+]+)$", line.strip())
        if m:
            samples.setdefault(int(m.group(1)), []).append(float(m.group(2)))
    classes = {}
    for k, (s, e) in enumerate(ops[:-1]):
        text = "\n".join(lines[s:e])
        st = re.search(r"opsched\.start = (\d+)", text)
        en = re.search(r"opsched\.end = (\d+)", text)
        t = samples.get(k, [])
        meas = statistics.median(t[1:] or t) * 1e9 if t else 0.0
        row = classes.setdefault(op_class(text), [0, 0.0, 0.0])
        row[0] += 1
        row[1] += int(en.group(1)) - int(st.group(1)) if st and en else 0
        row[2] += meas
    print("%-34s %5s %14s %14s %9s" % ("op class", "ops", "predicted ns", "measured ns", "meas/pred"))
    total = [0, 0.0, 0.0]
    for name, (n, p, m) in sorted(classes.items(), key=lambda kv: -kv[1][2]):
        print("%-34s %5d %14.0f %14.0f %9s" % (name, n, p, m, "%.3f" % (m / p) if p else "-"))
        total = [total[0] + n, total[1] + p, total[2] + m]
    print("%-34s %5d %14.0f %14.0f %9s" % ("all", total[0], total[1], total[2],
                                           "%.3f" % (total[2] / total[1]) if total[1] else "-"))


TRACED_RE = re.compile(r'^(\s+)(?:%[^=]+= )?"?(linalg\.[\w.]+|memref\.copy)\b')


def trace(materialized, out):
    """Puts opsched_trace(LINE, 0) before and opsched_trace(LINE, 1) after
    every linalg op and memref.copy of the file (LINE: the op's 1-based line
    in MATERIALIZED; an op with a region ends at the closing brace at its
    own indentation)."""
    lines = open(materialized).read().rstrip().split("\n")
    new, pending, n = [], [], [0]

    def call(ind, ident, phase):
        n[0] += 1
        k = n[0]
        return ["%s%%opsched_tr%d = arith.constant %d : i64" % (ind, k, ident),
                "%s%%opsched_tp%d = arith.constant %d : i64" % (ind, k, phase),
                "%sfunc.call @opsched_trace(%%opsched_tr%d, %%opsched_tp%d) : (i64, i64) -> ()"
                % (ind, k, k)]
    for j, line in enumerate(lines):
        m = TRACED_RE.match(line)
        if m and "opsched." in line:
            new += call(m.group(1), j + 1, 0)
            new.append(line)
            if line.rstrip().endswith("{"):
                pending.append((m.group(1), j + 1))
            else:
                new += call(m.group(1), j + 1, 1)
            continue
        new.append(line)
        if pending and line.rstrip() == pending[-1][0] + "}":
            ind, ident = pending.pop()
            new += call(ind, ident, 1)
    text = "\n".join(new)
    decl = "  func.func private @opsched_trace(i64, i64)\n"
    open(out, "w").write(text[:-1].rstrip() + "\n" + decl + "}\n")


def trace_report(trace_file):
    """Per call of the entry (the first dropped): span (first op start to
    last op end), busy time per thread (sum of its ops' wall time), the time
    two or more ops ran at once, and idle thread time (threads x span - busy:
    a worker with nothing to run, waiting on another thread, or preempted
    between ops). Prints the medians over calls 2..R."""
    ev = sorted((tuple(int(x) for x in l.split()) for l in open(trace_file) if l.strip()),
                key=lambda e: e[3])
    if not ev:
        print("trace: no records")
        return
    # Every traced op runs once per call of the entry.
    calls_per_run = min(sum(1 for e in ev if e[1] == i and e[2] == 0) for i in set(e[1] for e in ev))
    per = len(ev) // calls_per_run
    stats = []
    for c in range(1 if calls_per_run > 1 else 0, calls_per_run):
        open_, ops = {}, []
        for tid, ident, phase, ns, cpu in ev[c * per:(c + 1) * per]:
            if phase == 0:
                open_[(tid, ident)] = (ns, cpu)
            elif (tid, ident) in open_:
                s, sc = open_.pop((tid, ident))
                ops.append((s, ns, tid, cpu - sc))
        t0, t1 = min(o[0] for o in ops), max(o[1] for o in ops)
        tids = sorted(set(o[2] for o in ops))
        busy = sorted((sum(o[1] - o[0] for o in ops if o[2] == t) for t in tids), reverse=True)
        level, last, both = 0, t0, 0
        for t, d in sorted([(o[0], 1) for o in ops] + [(o[1], -1) for o in ops]):
            if level >= 2:
                both += t - last
            level, last = level + d, t
        span = t1 - t0
        stats.append((span, busy, both, len(tids) * span - sum(busy),
                      sum(o[3] for o in ops), sum(o[1] - o[0] for o in ops), len(tids)))
    med = lambda xs: statistics.median(xs)
    span = med([s[0] for s in stats])
    print("traced calls:               %d (the first dropped), %d op(s) each, on %d thread(s)"
          % (len(stats), per // 2, max(s[6] for s in stats)))
    print("span:                       %.6f s (median; first op start to last op end)" % (span / 1e9))
    nb = max(len(s[1]) for s in stats)
    print("busy per thread:            %s s (median, busiest first)" % ", ".join(
        "%.6f" % (med([s[1][k] if k < len(s[1]) else 0 for s in stats]) / 1e9) for k in range(nb)))
    print("two or more ops at once:    %.1f%% of the span (median)" % (100 * med([s[2] / s[0] for s in stats])))
    print("idle thread time:           %.1f%% of threads x span (median)" % (
        100 * med([s[3] / (s[0] * max(1, len(s[1]))) for s in stats])))
    print("op CPU / op wall:           %.3f (below 1: threads preempted inside ops)" % (
        sum(s[4] for s in stats) / max(1, sum(s[5] for s in stats))))


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "prep" and len(sys.argv) == 5:
        prep(*sys.argv[2:5])
    elif cmd == "main" and len(sys.argv) == 7:
        main_fn(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
    elif cmd == "profile" and len(sys.argv) == 4:
        profile(*sys.argv[2:4])
    elif cmd == "profile-report" and len(sys.argv) == 4:
        profile_report(*sys.argv[2:4])
    elif cmd == "trace" and len(sys.argv) == 4:
        trace(*sys.argv[2:4])
    elif cmd == "trace-report" and len(sys.argv) == 3:
        trace_report(sys.argv[2])
    elif cmd == "report" and len(sys.argv) in (5, 6):
        sys.exit(report(*sys.argv[2:]))
    else:
        sys.exit(__doc__)
