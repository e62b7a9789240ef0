#!/usr/bin/env python3
"""Execution equivalence: runs a module before and after op-schedule and
requires bit-identical output (docs/benchmarks-exec.md).

  exec_check.py --opsched-opt BIN --llvm-bin DIR MODEL [--stage S]... [--config C]...

MODEL must have a `main` printing its result (tools/opsched-execgen/
execgen.py emits such modules). The reference is MODEL lowered and run as
is. For every stage and every config, op-schedule with that config runs at
that stage of the lowering (followed by op-schedule-verify, which must
accept it), then the rest of the pipeline and mlir-runner;
stdout must equal the reference byte for byte (the memref base address
printed by the runner utils is masked). Stages:
  tensor  op-schedule on linalg on tensors (before bufferization)
  memref  op-schedule right after one-shot-bufferize: linalg on memrefs,
          where only memory effects keep writers and readers in order
Prints one line per run, "ok <stage> <config> (moved K)" (K: adjacent op
pairs whose input order the schedule inverted) or "MISMATCH ..."; exits 1 on
a mismatch or a failing tool. Default configs: every memory policy on 1, 2
and 4 streams, plus a memory limit, program-order priority and effort.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

POLICIES = ["critical-path", "min-memory", "program-order", "exact", "xla-list",
            "xla-dfs", "inductor-lpmf", "sethi-ullman"]
DEFAULT_CONFIGS = (["policy=%s streams=%d" % (p, s) for p in POLICIES for s in (1, 2, 4)]
                   + ["max-memory=1 streams=1", "max-memory=1 streams=4",
                      "priority=program-order streams=2", "effort=1 streams=4",
                      "cost-model=unit streams=4 policy=min-memory"])
BUFFERIZE = ["--convert-elementwise-to-linalg",
             "--one-shot-bufferize=bufferize-function-boundaries"]
LOWER = ["-buffer-deallocation-pipeline", "-convert-linalg-to-loops",
         "-convert-scf-to-cf", "-expand-strided-metadata", "-lower-affine",
         "-finalize-memref-to-llvm", "-convert-math-to-llvm", "-convert-math-to-libm",
         "-convert-arith-to-llvm",
         "-convert-func-to-llvm", "-convert-cf-to-llvm", "-reconcile-unrealized-casts"]


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.stdout.write("FAILED: %s\n%s" % (" ".join(cmd), p.stderr.decode(errors="replace")))
        sys.exit(1)
    return p.stdout


def execute(args, text):
    opt = os.path.join(args.llvm_bin, "mlir-opt")
    runner = os.path.join(args.llvm_bin, "mlir-runner")
    libdir = os.path.join(os.path.dirname(args.llvm_bin), "lib")
    llvm = run([opt] + LOWER + ["-"], text)
    libs = [os.path.join(libdir, "libmlir_runner_utils.so"),
            os.path.join(libdir, "libmlir_c_runner_utils.so")]
    # math.erf and friends lower to libm calls (-convert-math-to-libm).
    libs += [l for l in ("/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/libm.so.6")
             if os.path.exists(l)][:1]
    out = run([runner, "-e", "main", "-entry-point-result=void",
               "-shared-libs=%s" % ",".join(libs)], llvm)
    return re.sub(rb"base@ = 0x[0-9a-f]+", b"base@ = ADDR", out)


def inversions(text):
    """Adjacent pairs of ops, in the output, whose input positions
    (line:col locations of stdin) are out of order: 0 when nothing moved.
    Locations are inline (--mlir-print-local-scope) or #loc aliases
    defined on lines of their own (a module with resources is printed
    without local scope)."""
    alias = dict((name, (int(l), int(c))) for name, l, c in re.findall(
        rb'^(#loc\d*) = loc\("(?:-|<stdin>)":(\d+):(\d+)\)', text, re.M))
    body = re.sub(rb"(?m)^#loc.*$", b"", text)
    keys = []
    for m in re.finditer(rb'loc\((?:"(?:-|<stdin>)":(\d+):(\d+)|(#loc\d*))\)', body):
        if m.group(3):
            if m.group(3) in alias:
                keys.append(alias[m.group(3)])
        else:
            keys.append((int(m.group(1)), int(m.group(2))))
    return sum(1 for a, b in zip(keys, keys[1:]) if a > b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opsched-opt", required=True)
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--stage", action="append", choices=["tensor", "memref"])
    ap.add_argument("--config", action="append")
    ap.add_argument("model")
    args = ap.parse_args()
    stages = args.stage or ["tensor", "memref"]
    configs = args.config or DEFAULT_CONFIGS
    opt = os.path.join(args.llvm_bin, "mlir-opt")
    source = open(args.model, "rb").read()
    bufferized = run([opt] + BUFFERIZE + ["-"], source)
    reference = execute(args, bufferized)
    numbers = [n for part in reference.split(b"data =")[1:]
               for n in re.findall(rb"-?\d+", part.split(b"Unranked Memref")[0])]
    if len(numbers) == 0:
        sys.stdout.write("FAILED: the reference printed no data\n")
        return 1
    sys.stdout.write("reference: %d values (%d distinct)\n" % (len(numbers), len(set(numbers))))
    bad = 0
    for stage in stages:
        for config in configs:
            # op-schedule-verify re-checks every schedule independently (not
            # with an unmeetable max-memory: it reports the limit exceeded).
            verify = [] if "max-memory" in config else ["--op-schedule-verify"]
            # --mlir-print-local-scope would drop dense_resource blobs
            # (the run then fails: "resource does not exist").
            local = [] if b"{-#" in source else ["--mlir-print-local-scope"]
            sched = ["--op-schedule=%s" % config] + verify + [
                     "--mlir-disable-threading", "--mlir-print-debuginfo"] + local
            scheduled = run([args.opsched_opt] + sched + ["-"],
                            source if stage == "tensor" else bufferized)
            moved = inversions(scheduled)
            text = run([opt] + BUFFERIZE + ["-"], scheduled) if stage == "tensor" else scheduled
            got = execute(args, text)
            if got != reference:
                bad += 1
                sys.stdout.write("MISMATCH %s %s\n" % (stage, config))
                sys.stdout.write(got.decode(errors="replace")[:2000])
            else:
                sys.stdout.write("ok %s %s (moved %d)\n" % (stage, config, moved))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
