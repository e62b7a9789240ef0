#!/usr/bin/env python3
"""Truth check of opsched's memory model against upstream bufferization.

For each model: bufferize it with stock mlir-opt (--one-shot-bufferize with
function-boundary bufferization) and count the allocations it makes (number
of memref.alloc and their bytes), then compare with the allocations opsched's
model predicts (the `summary` line of op-schedule: "N allocations of B
bytes"). Prints a Markdown table with the bytes error in percent; exit 1
when --require-match and a model differs, or when --max-bytes-error P and a
model's predicted bytes differ from upstream's by more than P percent.
Usage: truth-check.py --opsched-opt BIN --mlir-opt BIN [--require-match]
       [--max-bytes-error P] [--pass-options "OPT=V ..."] MODEL.mlir...
"""
import argparse
import re
import subprocess
import sys

ELEM_BYTES = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "i64": 8, "i32": 4, "i16": 2,
              "i8": 1, "i1": 1, "index": 8}


def memref_bytes(t):
    m = re.match(r"memref<([^>]*)>", t)
    body = m.group(1).split(",")[0]
    parts = body.split("x")
    elem = parts[-1].strip()
    n = 1
    for d in parts[:-1]:
        n *= int(d)
    if elem.startswith("complex<"):
        return n * 2 * ELEM_BYTES[elem[8:-1]]
    return n * ELEM_BYTES.get(elem, (int(elem[1:]) + 7) // 8 if elem[1:].isdigit() else 0)


def upstream(mlir_opt, path):
    out = subprocess.run([mlir_opt, "--one-shot-bufferize=bufferize-function-boundaries", path],
                         check=True, capture_output=True, text=True).stdout
    allocs = re.findall(r"memref\.alloc\(\)(?: \{[^}]*\})? : (memref<[^>]*>)", out)
    return len(allocs), sum(memref_bytes(t) for t in allocs), out.count("memref.copy")


def model(opsched_opt, path, options):
    out = subprocess.run([opsched_opt, f"--op-schedule=summary=- {options}".strip(), path,
                          "-o", "/dev/null"],
                         check=True, capture_output=True, text=True).stderr
    count = nbytes = 0
    for m in re.finditer(r"(\d+) allocations of (\d+) bytes", out):
        count += int(m.group(1))
        nbytes += int(m.group(2))
    return count, nbytes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opsched-opt", required=True)
    ap.add_argument("--mlir-opt", required=True)
    ap.add_argument("--require-match", action="store_true")
    ap.add_argument("--max-bytes-error", type=float, default=None)
    ap.add_argument("--pass-options", default="",
                    help="more op-schedule options, e.g. program-order-in-place=true")
    ap.add_argument("models", nargs="+")
    a = ap.parse_args()
    print("| model | upstream allocs | upstream bytes | upstream copies | opsched allocs | opsched bytes | bytes error | match |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    bad = over = 0
    for path in a.models:
        uc, ub, copies = upstream(a.mlir_opt, path)
        mc, mb = model(a.opsched_opt, path, a.pass_options)
        ok = (uc, ub) == (mc, mb)
        bad += not ok
        err = 100.0 * (mb - ub) / ub if ub else (0.0 if mb == 0 else float("inf"))
        over += a.max_bytes_error is not None and abs(err) > a.max_bytes_error
        name = path.rsplit("/", 1)[-1]
        print(f"| {name} | {uc} | {ub} | {copies} | {mc} | {mb} | {err:+.1f}% | {'yes' if ok else 'no'} |")
    return 1 if (bad and a.require_match) or over else 0


if __name__ == "__main__":
    sys.exit(main())
