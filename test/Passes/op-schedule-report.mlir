// trace= and report= from the pass: the seed's demo on two streams. The
// trace is checked against the Trace Event Format and its numbers recomputed
// (test/report/trace_check.py: 6 ops, makespan 4 on 2 streams, speedup 1.5);
// the HTML report is opened in headless Chromium as a person would.
// RUN: opsched-opt --op-schedule='cost-model=unit streams=2 trace=%t.json report=%t.html' %opsched_src/examples/models/seed_demo.mlir -o /dev/null
// RUN: %python %opsched_src/test/report/trace_check.py %t.json
// RUN: FileCheck %s --check-prefix=HTML < %t.html
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// A report with memory: the Inception block under a limit, on 4 streams.
// RUN: opsched-opt --op-schedule='streams=4 max-memory=2MiB trace=%t.mem.json report=%t.mem.html' %opsched_src/examples/models/inception_block.mlir -o /dev/null
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); assert any(e.get('ph') == 'C' for e in d['traceEvents'])" %t.mem.json
// RUN: FileCheck %s --check-prefix=MEM < %t.mem.html

// HTML: <!DOCTYPE html>
// HTML: Content-Security-Policy
// HTML: @seed
// HTML-NOT: <script src=
// HTML-NOT: http://
// HTML-NOT: https://
// TRACE: "traceEvents"
// TRACE: "name":"a"
// MEM: op-schedule{{{.*}}max-memory=2MiB{{.*}}streams=4
// MEM: @inception_block
