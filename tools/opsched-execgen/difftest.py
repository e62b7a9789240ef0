#!/usr/bin/env python3
"""Differential tester for op-schedule (docs/benchmarks-exec.md).

  difftest.py --count N --seed S [--jobs J] [--keep DIR] [--size K] [--only KINDS]
              [--configs-per-program C] [--config CFG]... [--no-reduce]
              [--opsched-opt BIN] [--llvm-bin DIR]
  difftest.py --program FILE [--config CFG]... (check one program, e.g. a
              reduced one kept as a lit test)
  difftest.py --bufferize ... (the memref pipeline of scripts/run-model.sh:
              see below)

For each program (progen.py, seeds S .. S+N-1, or FILE) it builds the
original natively and runs it (the reference), then for each option set
runs `opsched-opt --op-schedule=CFG --op-schedule-verify`, builds and runs
the scheduled module the same way. Stdout (printed addresses masked) and
the exit status (a signal is a status) must be identical, and the checker
must accept the schedule. Native and unoptimised: mlir-opt lowering,
mlir-translate, `llc -O0`, gcc; the JIT's optimiser could sink or delete a
trapping division and hide a reordering bug.

Prints one line per program and option set:
  ok SEED CFG (moved K)        K: adjacent op pairs the schedule inverted
  DIFF SEED CFG: what differs  (stdout / exit status)
  REJECTED SEED CFG: ...       op-schedule-verify (or op-schedule) failed
and a closing line "difftest: P programs, R runs, D differ, J rejected,
moved M on average". Exit status 1 when anything differed or was rejected.

On a difference it writes to DIR (default: a new directory under /tmp)
the program, the scheduled output and both outputs, then reduces the
program (deletes statements of main and the callees, with everything that
uses what they define, while the difference persists) and writes
SEED-reduced.mlir.

Option sets: by default, each program gets C (8) of the list below,
rotating through it so every entry runs: every policy on 1, 2 and 4
streams with the roofline and the unit cost model, plus unmeetable memory
limits (their scheduled output is still checked; only the checker's
"above opsched.memory_limit" error is expected there), and three with
`stage=memref` (the program is bufferized first, then scheduled).
--config replaces the list.

--bufferize checks what a runtime executes after bufferization: each
program is bufferized first (one-shot-bufferize with function boundaries and
identity layouts, as scripts/run-model.sh does); the reference is that
memref program built sequentially; each option set (all on 2 or 4 streams)
runs op-schedule and op-schedule-verify on it, then op-materialize-arena
and op-materialize-streams, and the result is lowered with the async
runtime (coroutines through `opt -O0`, linked with libmlir_async_runtime)
and run on its thread pool. Stdout and exit status must match. Without
--only, the programs leave out the snippet kinds a materialized program
cannot run on a thread pool whatever the schedule: `stack` and
`alloca_scope` (a stack allocation or stacksave made in one async region is
gone in the next: op-materialize-streams keeps them in the caller only
before the first scheduled op) and `division` (its guards call exit(),
which from a worker thread waits forever for the thread pool to stop).
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import progen  # noqa: E402

POLICIES = ["critical-path", "min-memory", "program-order", "exact", "xla-list",
            "xla-dfs", "xla-postorder", "inductor-lpmf", "inductor-bfs",
            "inductor-dfs", "sethi-ullman"]
CONFIGS = (["policy=%s streams=%d%s" % (p, s, c) for c in ("", " cost-model=unit")
            for s in (1, 2, 4) for p in POLICIES]
           + ["max-memory=1 streams=1", "max-memory=1 streams=4 cost-model=unit",
              "max-memory=256 streams=2", "priority=program-order streams=2",
              "effort=1 streams=4", "device=cpu streams=2 policy=min-memory",
              "stage=memref policy=critical-path streams=2",
              "stage=memref policy=min-memory streams=4 cost-model=unit",
              "stage=memref policy=xla-dfs streams=1"])
LOWER = ["--one-shot-bufferize=bufferize-function-boundaries",
         "--convert-linalg-to-loops", "--convert-scf-to-cf", "--expand-strided-metadata",
         "--lower-affine", "--finalize-memref-to-llvm", "--convert-math-to-llvm",
         "--convert-arith-to-llvm", "--convert-index-to-llvm", "--convert-func-to-llvm",
         "--convert-cf-to-llvm", "--reconcile-unrealized-casts"]
BUFFERIZE = ["--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map"]
# --bufferize: every option set on several streams (the materialized
# program runs its streams as async.execute regions).
BUFFERIZE_CONFIGS = ["policy=%s streams=%d%s" % (p, s, c) for c in ("", " cost-model=unit")
                     for s in (2, 4) for p in POLICIES] + [
                         "priority=program-order streams=2", "effort=1 streams=4",
                         "device=cpu streams=2 policy=min-memory"]
MATERIALIZE = ["--op-materialize-arena", "--op-materialize-streams"]
BUFFERIZE_KINDS = [k for k in progen.SNIPPETS if k not in ("stack", "alloca_scope", "division")]
ASYNC_LOWER = ["--async-to-async-runtime", "--async-runtime-ref-counting",
               "--async-runtime-ref-counting-opt"] + LOWER[1:3] + [
                   "--expand-strided-metadata", "--lower-affine", "--convert-async-to-llvm"] + LOWER[5:]
TIMEOUT = 20


class ToolError(Exception):
    pass


class Fatal(Exception):
    """A tool cannot be started at all: no run means anything."""


class Runner:
    """Builds and runs modules natively; caches by the module text (minus
    locations and opsched attributes), so option sets that give the same
    order are built once."""

    def __init__(self, args, workdir):
        self.args = args
        self.workdir = workdir
        self.cache = {}
        self.libdir = os.path.join(os.path.dirname(args.llvm_bin), "lib")

    def tool(self, name):
        return os.path.join(self.args.llvm_bin, name)

    def pipe(self, cmd, data):
        try:
            p = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=120)
        except OSError as e:
            raise Fatal("cannot run %s: %s" % (cmd[0], e))
        if p.returncode != 0:
            raise ToolError("%s: %s" % (os.path.basename(cmd[0]),
                                        p.stderr.decode(errors="replace")[:1500]))
        return p.stdout

    def build(self, text):
        """Natively, unoptimised. A materialized module (async.execute) goes
        through the async runtime lowering and `opt -O0` (the coroutine
        passes run at every level); a memref module skips bufferization."""
        is_async = b"async.execute" in text
        lower = ASYNC_LOWER if is_async else LOWER[1:] if self.args.bufferize else LOWER
        ll = self.pipe([self.tool("mlir-opt")] + lower + ["-"], text)
        ir = self.pipe([self.tool("mlir-translate"), "--mlir-to-llvmir", "-"], ll)
        if is_async:
            ir = self.pipe([self.tool("opt"), "-O0", "-S", "-"], ir)
        obj = os.path.join(self.workdir, "prog.o")
        exe = os.path.join(self.workdir, "prog")
        self.pipe([self.tool("llc"), "-O0", "-relocation-model=pic", "-filetype=obj",
                   "-o", obj, "-"], ir)
        runtime = ["-lmlir_async_runtime"] if is_async else []
        link = ["gcc", obj, "-o", exe, "-L" + self.libdir] + runtime + [
            "-lmlir_c_runner_utils", "-lmlir_runner_utils", "-Wl,-rpath," + self.libdir]
        # gold links these in 20 ms where bfd takes 0.6 s.
        try:
            self.pipe(link[:1] + ["-fuse-ld=gold"] + link[1:], b"")
        except ToolError:
            self.pipe(link, b"")
        return exe

    def execute(self, text, reference=False):
        """(stdout with addresses masked, exit status; -N for signal N).
        A reference runs twice (two address-space layouts) and must print
        the same both times: a program reading garbage proves nothing."""
        key = hashlib.sha256(normalise(text)).hexdigest()
        if key in self.cache and (not reference or self.cache[key][2]):
            return self.cache[key][:2]
        exe = self.build(text)
        res = self.run_exe(exe)
        # The second run fills fresh and freed heap memory with a byte
        # pattern (tcache off: glibc does not perturb chunks it reuses from
        # there), so a read of uninitialised or freed memory shows.
        perturb = {"GLIBC_TUNABLES": "glibc.malloc.tcache_count=0:glibc.malloc.perturb=165"}
        if reference and self.run_exe(exe, perturb) != res:
            raise ToolError("the original program is not deterministic")
        self.cache[key] = res + (reference,)
        return res

    def run_exe(self, exe, env=None):
        try:
            p = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               timeout=TIMEOUT, env=dict(os.environ, **(env or {})))
            return (re.sub(rb"base@ = 0x[0-9a-f]+", b"base@ = ADDR", p.stdout), p.returncode)
        except subprocess.TimeoutExpired:
            return (b"", "timeout")

    def schedule(self, text, config):
        """The scheduled module, or raises ToolError. The checker runs on
        it; under a max-memory it may only complain about that limit.
        `stage=memref` first bufferizes the program (one-shot-bufferize, as
        the lowering does) and schedules the memref code."""
        if config.startswith("stage=memref"):
            config = config[len("stage=memref"):].strip()
            text = self.pipe([self.tool("mlir-opt"), LOWER[0], "-"], text)
        base = [self.args.opsched_opt, "--mlir-disable-threading",
                "--mlir-print-debuginfo", "--mlir-print-local-scope"]
        if "max-memory" not in config:
            out = self.pipe(base + ["--op-schedule=%s" % config, "--op-schedule-verify", "-"],
                            text)
            if self.args.bufferize:
                # A plan that fell back to one stream (a profile's handoff_ns)
                # has no opsched.stream: the arena alone, as run-model.sh does.
                marker = b"opsched.stream = " if isinstance(out, bytes) else "opsched.stream = "
                mat = MATERIALIZE if marker in out else MATERIALIZE[:1]
                out = self.pipe(base + mat + ["-"], out)
            return out
        out = self.pipe(base + ["--op-schedule=%s" % config, "-"], text)
        p = subprocess.run([self.args.opsched_opt, "--op-schedule-verify", "-o", os.devnull, "-"],
                           input=out, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        errors = [l for l in p.stderr.decode(errors="replace").splitlines() if "error:" in l]
        other = [l for l in errors if "opsched.memory_limit" not in l]
        if other:
            raise ToolError("op-schedule-verify: " + "\n".join(other[:5]))
        return out


def normalise(text):
    """The module text without locations and opsched attributes: what the
    native build depends on."""
    t = re.sub(rb" loc\([^()]*(\([^()]*\)[^()]*)*\)", b"", text)
    t = re.sub(rb"opsched\.[a-z_]+( = (array<[^>]*>|[^,}]+))?", b"", t)
    return re.sub(rb"[{}, ]+", b" ", t)


def inversions(text):
    """Adjacent ops (in printed order) whose source positions are inverted."""
    keys = [(int(l), int(c)) for l, c in re.findall(rb'loc\("[^"]*":(\d+):(\d+)\)', text)]
    return sum(1 for a, b in zip(keys, keys[1:]) if a > b)


def describe(ref, got):
    what = []
    if ref[1] != got[1]:
        what.append("exit status %s, scheduled %s" % (ref[1], got[1]))
    if ref[0] != got[0]:
        a, b = ref[0].splitlines(), got[0].splitlines()
        i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
        what.append("stdout differs at line %d: %r vs %r" % (
            i + 1, a[i] if i < len(a) else b"<end>", b[i] if i < len(b) else b"<end>"))
    return "; ".join(what)


def check(runner, text, config):
    """('ok', moved) | ('diff', message, scheduled, ref, got) | ('rejected', message)."""
    ref = runner.execute(text, reference=True)
    try:
        scheduled = runner.schedule(text, config)
    except ToolError as e:
        return ("rejected", str(e).strip().splitlines()[0] if str(e).strip() else "failed", str(e))
    try:
        got = runner.execute(scheduled)
    except ToolError as e:
        return ("rejected", "the scheduled module does not lower: " + str(e).splitlines()[0], str(e))
    if got != ref:
        return ("diff", describe(ref, got), scheduled, ref, got)
    return ("ok", inversions(scheduled))


# ----- reduction --------------------------------------------------------------

# Statements that only write memory are deleted only with what they write
# to: deleting one alone would make the program read uninitialised memory,
# whose garbage depends on the order (a false difference).
WRITER = re.compile(r"\s*(memref\.store|memref\.copy|linalg\.\w+ ins\(.*\) outs\([^)]*memref"
                    r"|func\.call @fill4|llvm\.intr\.stackrestore)")


def statements(lines):
    """Indices of statements: [start, end) line ranges of the ops directly
    in a function body (main and callees), with their regions; never the
    terminator."""
    out = []
    i = 0
    in_fn = False
    while i < len(lines):
        l = lines[i]
        if re.match(r"  func\.func .*\{$", l):
            in_fn = True
            i += 1
            continue
        if in_fn and l.startswith("  }"):
            in_fn = False
            i += 1
            continue
        if in_fn and re.match(r"    \S", l) and not re.match(r"    (return|\})", l):
            j = i + 1
            while j < len(lines) and (lines[j].startswith("     ") or lines[j].startswith("    }")
                                      or lines[j].startswith("    ^")):
                j += 1
            out.append((i, j))
            i = j
            continue
        i += 1
    return out


def written(line):
    """The memref a writer statement writes to."""
    for pat in (r"memref\.store [^,]+, (%\w+)\[", r"memref\.copy [^,]+, (%\w+) ",
                r"outs\((%\w+) :", r"func\.call @fill4\((%\w+),"):
        m = re.search(pat, line)
        if m:
            return m.group(1)
    return None


def delete(lines, stmts, chosen):
    """Deletes the chosen statements and, transitively, every statement
    using a value they define (so the result still parses). A writer that
    goes takes the buffer it writes with it (its allocation, so every use):
    a surviving reader would read uninitialised memory."""
    gone = set(chosen)
    defs = {}
    for k, (a, b) in enumerate(stmts):
        m = re.match(r"\s*(%[\w]+)(:\d+)? = ", lines[a])
        if m:
            defs[k] = m.group(1)
    owner = dict((v, k) for k, v in defs.items())
    changed = True
    while changed:
        changed = False
        for k in list(gone):
            target = written(lines[stmts[k][0]]) if WRITER.match(lines[stmts[k][0]]) else None
            if target in owner and owner[target] not in gone:
                gone.add(owner[target])
                changed = True
        dead = [defs[k] for k in gone if k in defs]
        if not dead:
            break
        pat = re.compile("(" + "|".join(re.escape(d) for d in dead) + r")(?![\w])")
        for k, (a, b) in enumerate(stmts):
            if k not in gone and any(pat.search(lines[x]) for x in range(a, b)):
                gone.add(k)
                changed = True
    drop = set()
    for k in gone:
        a, b = stmts[k]
        drop.update(range(a, b))
    return [l for x, l in enumerate(lines) if x not in drop]


def reduce_program(runner, text, config, kind, log):
    """Delta debugging over statements while check() keeps giving `kind`."""
    lines = text.decode().split("\n")

    def interesting(cand):
        try:
            res = check(runner, "\n".join(cand).encode(), config)
        except (ToolError, subprocess.TimeoutExpired):
            return False
        return res[0] == kind

    n = 2
    while True:
        stmts = statements(lines)
        if not stmts:
            break
        chunk = max(1, len(stmts) // n)
        progress = False
        for start in range(len(stmts) - 1, -1, -chunk):
            chosen = [k for k in range(max(0, start - chunk + 1), start + 1)
                      if not WRITER.match(lines[stmts[k][0]])]
            cand = delete(lines, stmts, chosen)
            if cand != lines and interesting(cand):
                lines = cand
                progress = True
                break
        if progress:
            n = max(2, n - 1)
            continue
        if chunk == 1:
            break
        n = min(len(stmts), n * 2)
    lines = prune_functions(lines)
    if not interesting(lines):
        raise ToolError("reduction lost the difference when pruning functions")
    log("reduced to %d statements" % len(statements(lines)))
    return "\n".join(lines).encode()


def prune_functions(lines):
    """Drops functions and declarations nothing refers to any more."""
    while True:
        spans = []
        i = 0
        while i < len(lines):
            m = re.match(r"  (?:func\.func private|llvm\.func) @(\w+)", lines[i])
            if m:
                j = i + 1
                if lines[i].rstrip().endswith("{"):
                    while not lines[j].startswith("  }"):
                        j += 1
                    j += 1
                spans.append((m.group(1), i, j))
                i = j
                continue
            i += 1
        for name, a, b in spans:
            pat = re.compile(r"@%s\b" % name)
            if not any(pat.search(l) for k, l in enumerate(lines) if not a <= k < b):
                lines = lines[:a] + lines[b:]
                break
        else:
            return lines


# ----- driver -------------------------------------------------------------------

def model_disagrees(ref, expected):
    """The generator models what main prints (progen.py --expect): when the
    program ran to its end, the printed integers must be those values."""
    if expected is None or ref[1] != 0:
        return None
    got = [l for l in ref[0].decode(errors="replace").splitlines() if re.fullmatch(r"-?\d+", l)]
    if len(got) != len(expected):
        return "prints %d integers, the model %d" % (len(got), len(expected))
    for i, (g, e) in enumerate(zip(got, expected)):
        if e is not None and int(g) != e:
            return "integer %d is %s, the model says %d" % (i + 1, g, e)
    return None


def job(task):
    args, name, text, configs, expected = task
    work = tempfile.mkdtemp(prefix="difftest-")
    runner = Runner(args, work)
    lines = []
    results = []
    try:
        try:
            if args.bufferize:
                text = runner.pipe([runner.tool("mlir-opt")] + BUFFERIZE + ["-"], text)
            ref = runner.execute(text, reference=True)
        except ToolError as e:
            return (["BROKEN %s: the original is unusable: %s" % (name, e)],
                    [("broken", 0)])
        bad = model_disagrees(ref, expected)
        if bad:
            return (["BROKEN %s: progen's model disagrees with the program: %s" % (name, bad)],
                    [("broken", 0)])
        if args.program:
            lines.append("reference: exit status %s, %d lines of output" % (
                ref[1], len(ref[0].splitlines())))
        for config in configs:
            res = check(runner, text, config)
            if res[0] == "ok":
                lines.append("ok %s %s (moved %d)" % (name, config, res[1]))
                results.append(("ok", res[1]))
                continue
            tag = "DIFF" if res[0] == "diff" else "REJECTED"
            lines.append("%s %s %s: %s" % (tag, name, config, res[1]))
            results.append((res[0], 0))
            if args.keep_dir:
                lines.extend(keep(args, runner, name, text, config, res, ref))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return lines, results


def keep(args, runner, name, text, config, res, ref):
    d = args.keep_dir
    os.makedirs(d, exist_ok=True)
    tag = re.sub(r"[^\w=.-]+", "_", "%s_%s" % (name, config))
    msgs = []

    def write(suffix, data):
        path = os.path.join(d, tag + suffix)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return path

    write(".mlir", text)
    if res[0] == "diff":
        write(".scheduled.mlir", res[2])
        write(".ref.out", res[3][0] + b"\nexit status: %s\n" % str(res[3][1]).encode())
        write(".got.out", res[4][0] + b"\nexit status: %s\n" % str(res[4][1]).encode())
    else:
        write(".error.txt", res[2])
    if not args.no_reduce:
        small = reduce_program(runner, text, config, res[0], lambda m: msgs.append("  " + m))
        msgs.append("  kept %s" % write(".reduced.mlir", small))
    return msgs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=40, help="snippets per program")
    ap.add_argument("--only", help="snippet kinds (progen.py --only)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--keep", dest="keep_dir")
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--configs-per-program", type=int, default=8)
    ap.add_argument("--config", action="append")
    ap.add_argument("--program")
    ap.add_argument("--bufferize", action="store_true",
                    help="bufferize, schedule on several streams, materialize, run async")
    ap.add_argument("--opsched-opt", default=os.path.join(HERE, "..", "..", "build", "bin",
                                                          "opsched-opt"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    args = ap.parse_args()
    if args.program:
        text = open(args.program, "rb").read()
        configs = args.config or (BUFFERIZE_CONFIGS if args.bufferize else CONFIGS)
        tasks = [(args, os.path.basename(args.program), text, configs, None)]
    else:
        if args.keep_dir is None:
            args.keep_dir = tempfile.mkdtemp(prefix="difftest-keep-")
        tasks = []
        per = args.configs_per_program
        for i in range(args.count):
            seed = args.seed + i
            pool_ = BUFFERIZE_CONFIGS if args.bufferize else CONFIGS
            configs = args.config or [pool_[(i * per + j) % len(pool_)] for j in range(per)]
            kinds = args.only.split(",") if args.only else (
                BUFFERIZE_KINDS if args.bufferize else None)
            gen = progen.Gen(seed, args.size, kinds)
            text = gen.program().encode()
            tasks.append((args, "seed=%d" % seed, text, configs, gen.expected))
    counts = {"ok": 0, "diff": 0, "rejected": 0, "broken": 0}
    moved = 0
    if args.jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(args.jobs)
        outputs = pool.imap(job, tasks)
    else:
        pool = None
        outputs = map(job, tasks)
    try:
        for lines, results in outputs:
            for l in lines:
                sys.stdout.write(l + "\n")
            sys.stdout.flush()
            for kind, k in results:
                counts[kind] += 1
                moved += k
    except Fatal as e:
        sys.stdout.write("difftest: %s\n" % e)
        return 2
    if pool:
        pool.close()
        pool.join()
    runs = sum(counts.values())
    sys.stdout.write("difftest: %d programs, %d runs, %d differ, %d rejected, %d broken, "
                     "moved %.1f on average\n" % (
                         len(tasks), runs, counts["diff"], counts["rejected"], counts["broken"],
                         moved / max(1, counts["ok"])))
    if counts["diff"] or counts["rejected"] or counts["broken"]:
        if args.keep_dir and not args.program:
            sys.stdout.write("difftest: kept in %s\n" % args.keep_dir)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
