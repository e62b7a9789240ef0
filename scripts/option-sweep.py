#!/usr/bin/env python3
"""Option sweep (docs/benchmarks-scale.md, issue 16): every documented
op-schedule option value on every generator family, the pass's own time
(--mlir-timing's OpSchedulePass) per run, and the worst option per family.
Target: no input of <= 100k ops over 5 s in the pass with any option value
except policy=exact with an explicit large budget.

  scripts/option-sweep.py [--sizes 10000 ...] [--kinds dag ...] [--only REGEX]
                          [--resources K] [--timeout S] [--build DIR] [--csv FILE]

--resources K gives the arith and math ops of every input the demands 1,
2, ..., K in turn (`opsched.resources`) and every option set a capacity
of at least K (`resource-limit`, raised or added): the list schedulers'
and the resource profile's paths for demands above 1 (round 22's cliffs).

The passes that read the schedule's attributes run too, each timed
alone: after `streams=1`, `streams=4` and `streams=16`, op-schedule-verify,
op-buffer-slots, op-materialize-arena and (on several streams)
op-materialize-streams on the output, shown as `streams=4, then --PASS`;
and op-dep-graph on each input (round 27: on dag
100k, op-materialize-streams took 49 s).
A run that fails (an error exit, e.g. strict-memory under a tight limit)
is timed all the same and marked `exit N`; a timeout is marked `>S`.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Every documented option value (docs/Passes.md "-op-schedule" Options), on
# one and on four streams where the stream count changes what runs.
OPTIONS = [
    "streams=1", "streams=2", "streams=4", "streams=16", "streams=64", "streams=1000000",
    "priority=program-order", "priority=program-order streams=4",
    "cost-model=unit", "cost-model=unit streams=4",
    "device=h100 streams=4", "device=a100 streams=4", "device=cpu streams=4",
    "resource-limit=2 streams=4", "resource-limit=64 streams=16",
    "effort=1 streams=4", "effort=16 streams=4", "effort=16 streams=16",
    "max-memory=1KiB", "max-memory=1KiB streams=4", "max-memory=1KiB streams=16",
    "max-memory=2GiB", "max-memory=2GiB streams=4",
    "max-memory=1KiB strict-memory=true streams=4", "max-memory=2GiB strict-memory=true streams=4",
    "makespan-tolerance=0 streams=4", "makespan-tolerance=50 streams=4", "makespan-tolerance=100 streams=16",
    "buffer-slots=false streams=4", "alignment=1 streams=4", "alignment=4096 streams=4",
    "sync-reuse=false streams=4", "sync-reuse=false streams=16",
] + ["policy=%s%s" % (p, s) for p in
     ("critical-path", "min-memory", "program-order", "exact", "xla-list", "xla-dfs", "xla-postorder",
      "inductor-lpmf", "inductor-bfs", "inductor-dfs", "sethi-ullman")
     for s in ("", " streams=4")] + [
    "policy=min-memory max-memory=1KiB streams=4", "policy=exact max-memory=1KiB",
    "summary=- streams=4", "summary=- summary-format=json streams=4", "summary=- summary-format=csv streams=4",
    "table=- streams=4", "trace=%(tmp)s/trace.json streams=4", "report=%(tmp)s/report.html streams=4",
    "dot=%(tmp)s/g.dot", "dot=%(tmp)s/g.dot dot-fold=true",
]


def generate(kind, n, path, build):
    with open(path, "w") as f:
        if kind == "random":
            subprocess.run([os.path.join(build, "bin/opsched-bench"), "random-mlir", "--functions", "1",
                            "--ops", str(n)], stdout=f, check=True)
        else:
            subprocess.run([sys.executable, os.path.join(ROOT, "tools/opsched-gen/opsched-gen.py"), kind,
                            str(n)], stdout=f, check=True)


# The passes run on op-schedule's output after these option sets, and
# whether each needs several streams.
AFTER = ["streams=1", "streams=4", "streams=16"]
PASSES_AFTER = [("op-schedule-verify", False), ("op-buffer-slots", False), ("op-materialize-arena", False),
                ("op-materialize-streams", True)]


# An arith or math op's operands, before its attribute dictionary.
DEMAND_SITE = re.compile(r"^(\s*%\w+ = (?:arith|math)\.\w+ [^:{]*?) : ", re.M)


def add_demands(path, k):
    """Demands 1..k in turn on the arith and math ops of the file at path."""
    with open(path) as f:
        text = f.read()
    count = [0]

    def annotate(m):
        count[0] += 1
        return "%s {opsched.resources = %d : i64} : " % (m.group(1), (count[0] - 1) % k + 1)

    with open(path, "w") as f:
        f.write(DEMAND_SITE.sub(annotate, text))


def with_capacity(opts, k):
    """opts with a resource-limit of at least k."""
    m = re.search(r"resource-limit=(\d+)", opts)
    if not m:
        return opts + " resource-limit=%d" % k
    return opts if int(m.group(1)) >= k else opts.replace(m.group(0), "resource-limit=%d" % k)


def timed(cmd, timeout):
    """(pass seconds or None, wall seconds, cpu seconds, exit code or
    'timeout'). The pass's time is --mlir-timing's (wall) scaled by the
    process's CPU / wall ratio: on a shared machine wall times stretch with
    the load, CPU times much less."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout, text=True,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - t0, float(timeout), "timeout"
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    m = re.search(r"^\s*([0-9.]+)\s.*\bOp\w+Pass\b", p.stderr, re.M)
    secs = float(m.group(1)) * min(1.0, cpu / wall) if m and wall > 0 else None
    return secs, wall, cpu, p.returncode


def cell(secs, cpu, rc, timeout):
    if rc == "timeout":
        return ">%d" % timeout
    text = "%.2f" % (secs if secs is not None else cpu)
    return text if rc == 0 else text + " (exit %d)" % rc


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", nargs="+", type=int, default=[10000])
    ap.add_argument("--kinds", nargs="+",
                    default=["dag", "blocks", "wide", "nested", "random", "fanout", "shared-init", "functions", "dense", "views"])
    ap.add_argument("--only", default="", help="run only the option sets this regular expression finds")
    ap.add_argument("--resources", type=int, default=0, metavar="K",
                    help="demands 1..K on the arith and math ops, a capacity of at least K")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--build", default=os.environ.get("OPSCHED_BUILD_DIR", os.path.join(ROOT, "build")))
    ap.add_argument("--csv", help="also write kind,size,options,pass_s,cpu_s,wall_s,exit rows here")
    a = ap.parse_args()
    sched = os.path.join(a.build, "bin/opsched-opt")
    rows, worst = [], {}
    print("| input | size | options | pass s (cpu est.) | process cpu s | wall s |\n"
          "|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in a.kinds:
            for n in a.sizes:
                src, out = os.path.join(tmp, "in.mlir"), os.path.join(tmp, "out.mlir")
                generate(kind, n, src, a.build)
                if a.resources > 0:
                    add_demands(src, a.resources)

                def run(shown, cmd):
                    secs, wall, cpu, rc = timed(cmd + ["--mlir-timing"], a.timeout)
                    rows.append((kind, n, shown, secs, cpu, wall, rc))
                    print("| %s | %d | `%s` | %s | %.2f | %.2f |" % (
                        kind, n, shown, cell(secs, cpu, rc, a.timeout), cpu, wall), flush=True)
                    t = a.timeout * 10 if rc == "timeout" else (secs if secs is not None else cpu)
                    if (kind, n) not in worst or t > worst[(kind, n)][1]:
                        worst[(kind, n)] = (shown, t, cell(secs, cpu, rc, a.timeout))
                    return rc

                if re.search(a.only, "op-dep-graph"):
                    run("--op-dep-graph", [sched, "--op-dep-graph", src, "-o", os.devnull])
                for plain in [o % {"tmp": tmp} for o in OPTIONS if re.search(a.only, o)]:
                    opts = with_capacity(plain, a.resources) if a.resources > 0 else plain
                    rc = run(opts.replace(tmp + "/", ""), [sched, "--op-schedule=" + opts, src, "-o", out])
                    if rc != 0 or plain not in AFTER:
                        continue
                    for name, several in PASSES_AFTER:
                        if not several or plain != "streams=1":
                            run("%s, then --%s" % (opts, name), [sched, "--" + name, out, "-o", os.devnull])
    print("\n| input | size | worst option | pass s (cpu est.) |\n|---|---|---|---|")
    for (kind, n), (opts, _, text) in worst.items():
        print("| %s | %d | `%s` | %s |" % (kind, n, opts, text))
    if a.csv:
        with open(a.csv, "w") as f:
            for r in rows:
                f.write("%s,%d,%s,%s,%.3f,%.3f,%s\n" % (r[0], r[1], r[2], "" if r[3] is None else "%.3f" % r[3],
                                                        r[4], r[5], r[6]))


if __name__ == "__main__":
    main()
