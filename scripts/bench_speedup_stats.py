#!/usr/bin/env python3
"""Rows of the predicted-vs-measured speedup table (scripts/bench-speedup.sh run).

bench_speedup_stats.py DIR NAME ROUNDS STREAMS ALIASES
    DIR: the bench directory (DIR/NAME-sS/ holds the configuration built for
    S streams; DIR/bench/NAME.LABEL.R.out the output of round R of program
    LABEL: `seq` the sequential program, `sS` the scheduled one for S
    streams). STREAMS: the stream counts ("1 2 4"). ALIASES: "4=2 ..." when
    the S=4 executable is byte for byte the S=2 one (run once, reported for
    both). Writes DIR/NAME-sS.report (run_model_harness.py report over every
    round) and prints one markdown row per stream count.

Per round r, ratio_r = median(seq calls) / median(scheduled calls) (each
run's first call dropped: page faults). The row gives the median of ratio_r
over the rounds and its spread (min-max over the rounds): a row whose
spread is wide is noise, not model error. `min-based` is min(seq calls) /
min(scheduled calls) over every round: interference from other processes
only adds time, so the best call of each program is the least disturbed
one. `vs 1-stream` is the median over rounds of the 1-stream scheduled
program's median over this one's, measured in the same round.
"""
import contextlib
import io
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_model_harness as h  # noqa: E402

HEADER = (
    "| input | streams | predicted speedup | measured speedup (median of rounds) | spread over rounds |"
    " min-based speedup | error | bit-identical | predicted time | measured time |"
    " measured / 1-stream plan | peak heap seq / arena program | arena (B) |\n"
    "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
)


def calls(path):
    """Call times of one run, the first (page faults) dropped."""
    _, times, _ = h.parse_run(path)
    return times[1:] or times


def rows(d, name, rounds, streams, aliases):
    alias = dict(a.split("=") for a in aliases.split())
    out = lambda label, r: os.path.join(d, "bench", "%s.%s.%d.out" % (name, label, r))
    rs = range(1, rounds + 1)
    seq = [calls(out("seq", r)) for r in rs]
    one = None
    if "1" in streams and os.path.exists(out("s1", 1)):
        one = [calls(out("s1", r)) for r in rs]
    lines = []
    for s in streams:
        cfg = os.path.join(d, "%s-s%s" % (name, s))
        if not os.path.exists(os.path.join(cfg, "sched")):
            lines.append("| %s | %s | not built |" % (name, s))
            continue
        label = "s" + alias.get(s, s)
        sched = [calls(out(label, r)) for r in rs]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            h.report(os.path.join(cfg, "sched.memref.mlir"),
                     ",".join(out("seq", r) for r in rs),
                     ",".join(out(label, r) for r in rs),
                     os.path.join(cfg, "sched.mat.mlir"))
        rep = buf.getvalue()
        with open(cfg + ".report", "w") as f:
            f.write(rep)
        text = open(os.path.join(cfg, "sched.memref.mlir")).read()
        pred = h.attr(text, "speedup") or 1.0
        mk = h.attr(text, "makespan")
        arena = h.attr(text, "arena_size")
        same = re.search(r"bit-identical:\s+(\w+)", rep)
        heap = re.search(r"ratio seq/sched ([0-9.]+)", rep)
        ratios = [statistics.median(q) / statistics.median(c) for q, c in zip(seq, sched)]
        med = statistics.median(ratios)
        best = min(min(q) for q in seq) / min(min(c) for c in sched)
        ts = statistics.median([t for c in sched for t in c])
        vs1 = "-"
        if one is not None and s != "1":
            vs1 = "%.3f" % statistics.median(
                statistics.median(o) / statistics.median(c) for o, c in zip(one, sched))
        ncalls = sum(len(c) for c in sched)
        lines.append("| %s | %s | %.3f | %.3f (%dx%d) | %.3f-%.3f | %.3f | %+.0f%% | %s | %s | %.4f s | %s | %s | %s |" % (
            name, s + (" (= %s)" % alias[s] if s in alias else ""), pred,
            med, rounds, ncalls // rounds, min(ratios), max(ratios), best,
            100 * (pred - med) / med, same.group(1) if same else "?",
            "%.4f s" % (mk / 1e9) if mk else "?", ts, vs1,
            "%.2f" % float(heap.group(1)) if heap else "?", int(arena) if arena is not None else "?"))
    return lines


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "header":
        print(HEADER)
    elif len(sys.argv) == 6:
        print("\n".join(rows(sys.argv[1], sys.argv[2], int(sys.argv[3]),
                             sys.argv[4].split(), sys.argv[5])))
    else:
        sys.exit(__doc__)
