#!/usr/bin/env python3
"""The HTML report's numbers are the attributes' numbers (issue 17).

Runs opsched-opt with `report=` (and `summary-format=json` when supported)
on a model in the demo's three modes, then compares the report's embedded
data (the <script class="opsched-data"> JSON and the summary cells'
data-value) with the attributes of the same run's output IR:

- per op, in the output order: the report's "live after" (mema) equals the
  op's opsched.live_bytes;
- one stream: the maximum of "live while the op runs" (mems) equals
  opsched.peak_memory; several streams: the maximum of the time series
  (memtb) does;
- the original order's series peaks at opsched.original_peak_memory;
- summary cells: peak, arena, fragmentation, limit equal the attributes;
- the buffers listed as live at the peak add up to the peak;
- the chart draws no "limit" legend entry without a limit;
- the trace of the same run passes trace_check.py (flows bound to the right
  slices) and its self-test (mutated flows are rejected).

Usage: report_attrs_check.py OPSCHED_OPT MODEL OUTDIR
"""
import html.parser
import json
import os
import re
import subprocess
import sys

FAILS = []


def check(cond, msg):
    if not cond:
        FAILS.append(msg)


class Page(html.parser.HTMLParser):
    """Collects the data scripts, the summary cells and a few SVG facts."""

    def __init__(self):
        super().__init__()
        self.data, self.cells, self.in_data = {}, {}, None
        self.legend_limit = 0
        self.peak_tables = {}
        self.text = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and "opsched-data" in (a.get("class") or ""):
            self.in_data = a["data-block"]
            self.text = []
        if tag == "td" and "data-value" in a and a.get("id"):
            self.cells[a["id"]] = a["data-value"]
        if tag == "span" and a.get("class") == "key limit":
            self.legend_limit += 1
        if tag == "table" and a.get("class") == "peakbufs":
            self.peak_tables[a["id"]] = int(a["data-total"])

    def handle_data(self, d):
        if self.in_data is not None:
            self.text.append(d)

    def handle_endtag(self, tag):
        if tag == "script" and self.in_data is not None:
            self.data[self.in_data] = json.loads("".join(self.text))
            self.in_data = None


def func_attr(ir, name):
    m = re.search(r"opsched\." + name + r" = ([-0-9.e+]+)", ir)
    return None if m is None else float(m.group(1)) if "." in m.group(1) or "e" in m.group(1) else int(m.group(1))


def run_mode(opt, model, outdir, name, options):
    report = os.path.join(outdir, name + ".html")
    trace = os.path.join(outdir, name + ".json")
    out = os.path.join(outdir, name + ".mlir")
    cmd = [opt, f"--op-schedule={options} report={report} trace={trace}", model, "-o", out]
    subprocess.run(cmd, check=True)
    # The trace of the same run: every flow bound to the right slices, and
    # the validator itself rejects mutated flows.
    here = os.path.dirname(os.path.abspath(__file__))
    several = "streams=" in options and "streams=1 " not in options + " "
    r = subprocess.run([sys.executable, os.path.join(here, "trace_check.py")] +
                       (["--self-test"] if several else []) + [trace],
                       capture_output=True, text=True)
    check(r.returncode == 0, f"{name}: trace_check failed:\n{r.stdout}")
    ir = open(out).read()
    p = Page()
    p.feed(open(report).read())
    check(len(p.data) == 1, f"{name}: expected one block, got {len(p.data)}")
    d = p.data["0"]
    fig = d["figures"]
    streams = int(re.search(r"opsched\.streams = (\d+)", ir).group(1))
    peak, opeak = func_attr(ir, "peak_memory"), func_attr(ir, "original_peak_memory")
    arena, frag = func_attr(ir, "arena_size"), func_attr(ir, "fragmentation")
    limit = func_attr(ir, "memory_limit")

    live = [int(x) for x in re.findall(r"opsched\.live_bytes = (\d+)", ir)]
    check(live == d["mema"], f"{name}: per-op live bytes after each op differ from opsched.live_bytes")
    check(len(live) == d["n"], f"{name}: {len(live)} ops with live_bytes, report has {d['n']}")
    if streams == 1:
        check(max(d["mems"]) == peak, f"{name}: chart peak {max(d['mems'])} != opsched.peak_memory {peak}")
        check("memt" not in d, f"{name}: one stream has no time series")
    else:
        check(max(d["memtb"]) == peak, f"{name}: time chart peak {max(d['memtb'])} != opsched.peak_memory {peak}")
        check(d["memt"] == sorted(d["memt"]), f"{name}: time series not in time order")
        check(d["memt"][-1] <= fig["makespan"], f"{name}: time series beyond the makespan")
    check(max(d["memo"]) == opeak, f"{name}: original chart peak {max(d['memo'])} != {opeak}")
    check(fig["peak"] == peak and fig["original_peak"] == opeak, f"{name}: figures {fig}")
    check(int(p.cells["peak-0"]) == peak, f"{name}: summary peak {p.cells['peak-0']} != {peak}")
    check(int(p.cells["arena-0"]) == arena, f"{name}: summary arena {p.cells['arena-0']} != {arena}")
    check(abs(float(p.cells["fragmentation-0"]) - frag) < 1e-5,
          f"{name}: summary fragmentation {p.cells['fragmentation-0']} != {frag}")
    check(p.peak_tables.get("peakbufs-0") == peak,
          f"{name}: buffers live at the peak add up to {p.peak_tables.get('peakbufs-0')}, peak {peak}")
    if limit is None:
        check(p.legend_limit == 0 and "limit-0" not in p.cells, f"{name}: a limit shown without a limit")
        check(fig["limit"] == 0, f"{name}: figures.limit {fig['limit']} without a limit")
    else:
        check(int(p.cells["limit-0"]) == limit and fig["limit"] == limit, f"{name}: limit differs")
        check(p.legend_limit >= 1, f"{name}: no limit legend with a limit")
    print(f"{name}: {streams} stream(s), peak {peak}, original {opeak}, arena {arena}, "
          f"limit {limit}: {len(live)} ops compared")


def main():
    opt, model, outdir = sys.argv[1:4]
    os.makedirs(outdir, exist_ok=True)
    run_mode(opt, model, outdir, "critical-path", "device=h100")
    run_mode(opt, model, outdir, "memory-limit", "device=h100 max-memory=1400KiB")
    run_mode(opt, model, outdir, "streams", "device=h100 streams=4 max-memory=2MiB")
    for f in FAILS:
        print("FAIL:", f)
    if FAILS:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
