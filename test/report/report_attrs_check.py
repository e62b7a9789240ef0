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
- summary-format=json (JSON Lines) has exactly the function's opsched.*
  attributes with their values and per block the same figures;
  summary-format=csv has the JSON's figures row by row;
- the 4-stream page runs its script without error in headless Chromium
  (when installed);
- the trace of the same run passes trace_check.py (flows bound to the right
  slices) and its self-test (mutated flows are rejected);
- the frontier view (issue 15): the chosen point is the one marked (one
  ring, class "chosen") and equals opsched.makespan / opsched.peak_memory
  (and its arena opsched.arena_size); the unconstrained point and the
  summary's unconstrained cells equal opsched.unconstrained_*; every point
  is drawn where the chart's scale puts it, Pareto classes match the
  points, floor / limit / tolerance band are the options' and the
  frontier's; summary-format=json has the same points; one stream says
  why there is no chart; with OPSCHED_BENCH, `opsched-bench pareto` on the
  same model and options reports the same chosen, unconstrained and floor
  figures.

Usage: report_attrs_check.py OPSCHED_OPT MODEL OUTDIR [OPSCHED_BENCH]
"""
import csv
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
        self.points, self.rings, self.charts, self.views = [], 0, {}, {}
        self.floor, self.limit_lines, self.band, self.none = [], [], [], []
        self.whiskers = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "circle" and "pt" in cls:
            self.points.append(a)
        if tag == "circle" and "ring" in cls:
            self.rings += 1
        if tag == "svg" and "frontier" in cls:
            self.charts[a["id"]] = a
        if tag == "div" and "frontier" in cls and "view" in cls:
            self.views[a["id"]] = a
        if tag == "path" and "arena" in cls:
            self.whiskers.append(a)
        if tag == "line" and "floor" in cls:
            self.floor.append(int(a["data-value"]))
        if tag == "line" and "limit" in cls and "data-value" in a:
            self.limit_lines.append(int(a["data-value"]))
        if tag == "rect" and "band" in cls:
            self.band.append((int(a["data-best"]), int(a["data-top"])))
        if tag == "p" and (a.get("id") or "").startswith("frontier-none-"):
            self.none.append(a["id"])
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
    m = re.search(r"opsched\." + name + r" = ([-0-9.eE+]+)", ir)
    return None if m is None else float(m.group(1)) if any(ch in m.group(1) for ch in ".eE") else int(m.group(1))


def func_attrs(ir):
    """Every opsched.* attribute of the function, from the output IR."""
    line = next(l for l in ir.split("\n") if "func.func" in l)
    out = {}
    for k, v, ty in re.findall(r"(opsched\.\w+) = ([-0-9.eE+]+|true|false) : (\w+)", line):
        out[k] = float(v) if ty.startswith("f") else int(v)
    for k in re.findall(r"(opsched\.\w+)(?= *[,}])", line):
        out.setdefault(k, True)
    return out


def check_summary(name, ir, json_path, csv_path):
    """summary-format=json equals the attributes; csv equals the json."""
    lines = open(json_path).read().splitlines()
    check(len(lines) == 1, f"{name}: {len(lines)} JSON lines for one function")
    j = json.loads(lines[0])
    attrs = func_attrs(ir)
    check(j["function"] == "@" + re.search(r"func\.func @(\w+)", ir).group(1), f"{name}: function name")
    check(set(j["attributes"]) == set(attrs),
          f"{name}: JSON attributes {sorted(set(j['attributes']) ^ set(attrs))} differ from the IR's")
    for k, v in attrs.items():
        got = j["attributes"].get(k)
        ok = abs(got - v) <= 1e-6 * max(1, abs(v)) if isinstance(v, float) else got == v
        check(ok, f"{name}: JSON {k} = {got}, IR {v}")
    check(len(j["blocks"]) == 1, f"{name}: one block expected")
    b = j["blocks"][0]
    for fig, attr in (("makespan_ns", "opsched.makespan"), ("critical_path_ns", "opsched.critical_path"),
                      ("lower_bound_ns", "opsched.lower_bound"), ("peak_memory", "opsched.peak_memory"),
                      ("original_peak_memory", "opsched.original_peak_memory"),
                      ("arena_size", "opsched.arena_size"), ("waits_after", "opsched.waits_after"),
                      ("waits_before", "opsched.waits_before"), ("streams", "opsched.streams"),
                      ("resident_bytes", "opsched.resident_bytes")):
        check(b[fig] == attrs.get(attr), f"{name}: block {fig} = {b[fig]}, {attr} = {attrs.get(attr)}")
    check(b["ops"] == len(re.findall(r"opsched\.start = ", ir)), f"{name}: block ops")
    rows = list(csv.reader(open(csv_path)))
    flat = {(r[1], r[2]): r[3] for r in rows}
    check(all(r[0] == j["function"] for r in rows), f"{name}: CSV function column")
    for k, v in j["attributes"].items():
        check(("", k) in flat and float(flat[("", k)]) == float(v), f"{name}: CSV {k}")
    for k, v in b.items():
        if k in ("block", "frontier") or v is None:
            continue
        want = float(v) if not isinstance(v, bool) else float(int(v))
        check(("0", k) in flat and float(flat[("0", k)]) == want, f"{name}: CSV block figure {k}")


def dominated(pts, i):
    return any(j != i and q[0] <= pts[i][0] and q[1] <= pts[i][1] and (q[0] < pts[i][0] or q[1] < pts[i][1])
               for j, q in enumerate(pts))


def check_frontier(name, p, d, ir, summary_path, options, bench):
    """The frontier view and data against the attributes (issue 15)."""
    attrs = func_attrs(ir)
    fr = d.get("frontier")
    check(fr is not None and "frontier-0" in p.views, f"{name}: no frontier data / view")
    if fr is None:
        return
    pts, ch, unc = fr["points"], fr["chosen"], fr["unconstrained"]
    check(int(p.views["frontier-0"]["data-chosen"]) == ch and
          int(p.views["frontier-0"]["data-points"]) == len(pts), f"{name}: view attributes")
    # The chosen point is the schedule the attributes describe.
    check(pts[ch][0] == attrs["opsched.makespan"] and pts[ch][1] == attrs["opsched.peak_memory"],
          f"{name}: chosen point {pts[ch][:2]} != opsched.makespan/peak_memory "
          f"{attrs['opsched.makespan']}/{attrs['opsched.peak_memory']}")
    if pts[ch][4] is not None:
        check(pts[ch][4] == attrs.get("opsched.arena_size"), f"{name}: chosen arena {pts[ch][4]}")
    j = json.loads(open(summary_path).read().splitlines()[0])["blocks"][0].get("frontier")
    check(j is not None and j["points"] == pts and j["chosen"] == ch and j["unconstrained"] == unc and
          j["floor_peak"] == fr["floor_peak"], f"{name}: summary JSON frontier {j} != page {fr}")
    check(fr["limit"] == attrs.get("opsched.memory_limit", 0), f"{name}: frontier limit {fr['limit']}")
    if unc >= 0:
        check(pts[unc][0] == attrs.get("opsched.unconstrained_makespan") and
              pts[unc][1] == attrs.get("opsched.unconstrained_peak_memory"),
              f"{name}: unconstrained point {pts[unc][:2]} != opsched.unconstrained_*")
        check(int(p.cells.get("free-makespan-0", -1)) == attrs.get("opsched.unconstrained_makespan") and
              int(p.cells.get("free-peak-0", -1)) == attrs.get("opsched.unconstrained_peak_memory"),
              f"{name}: summary's unconstrained cells differ from the attributes")
    else:
        check("opsched.unconstrained_makespan" not in attrs and "free-makespan-0" not in p.cells,
              f"{name}: unconstrained figures without an unconstrained point")
    if fr["not_run"] is not None:
        check(len(pts) == 1 and p.none == ["frontier-none-0"] and not p.charts and not p.points,
              f"{name}: no sweep, yet a chart (or no explanation)")
        return
    check(p.none == [] and len(p.points) == len(pts) and p.rings == 1, f"{name}: {len(p.points)} circles, "
          f"{p.rings} rings for {len(pts)} points")
    svg = p.charts["frontier-chart-0"]
    x0, x1, y0, y1 = (int(svg[k]) for k in ("data-x0", "data-x1", "data-y0", "data-y1"))
    px0, px1, py0, py1 = (float(svg[k]) for k in ("data-px0", "data-px1", "data-py0", "data-py1"))
    chosen = [c for c in p.points if "chosen" in c["class"].split()]
    check(len(chosen) == 1 and int(chosen[0]["data-i"]) == ch, f"{name}: chosen marks {chosen}")
    for c in p.points:
        i = int(c["data-i"])
        mk, pk = int(c["data-makespan"]), int(c["data-peak"])
        check([mk, pk] == pts[i][:2], f"{name}: circle {i} ({mk}, {pk}) != point {pts[i][:2]}")
        want_x = px0 + (px1 - px0) * (pk - x0) / (x1 - x0)
        want_y = py0 + (py1 - py0) * (mk - y0) / (y1 - y0)
        check(abs(float(c["cx"]) - want_x) <= 0.06 and abs(float(c["cy"]) - want_y) <= 0.06,
              f"{name}: circle {i} at ({c['cx']}, {c['cy']}), scale puts it at ({want_x:.2f}, {want_y:.2f})")
        check(("pareto" in c["class"].split()) == (not dominated(pts, i)), f"{name}: point {i} Pareto class")
        check(("free" in c["class"].split()) == (i == unc), f"{name}: point {i} unconstrained class")
    # Arena whiskers: one per packed candidate, red ("over") past the limit.
    packed = {i: q[4] for i, q in enumerate(pts) if q[4] is not None}
    got = {int(w["data-i"]): int(w["data-arena"]) for w in p.whiskers}
    check(got == packed, f"{name}: arena whiskers {got} != packed arenas {packed}")
    for w in p.whiskers:
        over = fr["limit"] > 0 and int(w["data-arena"]) > fr["limit"]
        check(("over" in w["class"].split()) == over, f"{name}: whisker {w['data-i']} 'over' class")
    check(p.floor == ([fr["floor_peak"]] if fr["floor_peak"] >= 0 else []), f"{name}: floor line {p.floor}")
    check(p.limit_lines.count(fr["limit"]) >= 1 if fr["limit"] else True, f"{name}: no limit line")
    if "max-memory" not in options and "policy" not in options:
        best = min(q[0] for q in pts)
        top = best + int(best * fr["tolerance"])
        check(fr["tolerance"] == 0.02 and p.band == [(best, top)], f"{name}: band {p.band}, want {(best, top)}")
        within = [q for q in pts if q[0] <= top]
        check(pts[ch][1] == min(q[1] for q in within), f"{name}: chosen is not the lowest peak in the band")
    else:
        check(p.band == [], f"{name}: a tolerance band where the tolerance did not choose")
    if bench and "max-memory" not in options:
        check_pareto(name, bench, options, fr, attrs)


def check_pareto(name, bench, options, fr, attrs):
    """`opsched-bench pareto` on the same model and options: its default
    (chosen) row, unconstrained figures and floor are the page's."""
    opts = " ".join(o for o in options.split() if not o.startswith("streams="))
    streams = re.search(r"streams=(\d+)", options).group(1)
    r = subprocess.run([bench, "pareto", MODEL[0], "--streams", streams, "--points", "0", "--options", opts],
                       capture_output=True, text=True)
    check(r.returncode == 0, f"{name}: pareto failed: {r.stderr}")
    if r.returncode:
        return
    head = re.search(r"one-stream min-memory peak (\d+) .*unconstrained makespan (\d+), peak (\d+)", r.stdout)
    row = re.search(r"^default \(chosen\)\s+(\d+)\s+\S+\s+(\d+)\s+\S+\s+(-?\d+)", r.stdout, re.M)
    pts, ch, unc = fr["points"], fr["chosen"], fr["unconstrained"]
    check(head and int(head.group(1)) == fr["floor_peak"], f"{name}: pareto floor vs page {fr['floor_peak']}")
    check(head and [int(head.group(2)), int(head.group(3))] == pts[unc][:2],
          f"{name}: pareto unconstrained vs page {pts[unc][:2]}")
    check(row and [int(row.group(1)), int(row.group(2))] == pts[ch][:2],
          f"{name}: pareto chosen vs page {pts[ch][:2]}")
    if row and pts[ch][4] is not None:
        check(int(row.group(3)) == pts[ch][4], f"{name}: pareto chosen arena {row.group(3)} vs {pts[ch][4]}")
    print(f"{name}: pareto agrees: chosen {pts[ch][:2]}, unconstrained {pts[unc][:2]}, floor {fr['floor_peak']}")


MODEL = [None]


def run_mode(opt, model, outdir, name, options, bench=None):
    report = os.path.join(outdir, name + ".html")
    trace = os.path.join(outdir, name + ".json")
    out = os.path.join(outdir, name + ".mlir")
    summary = os.path.join(outdir, name + ".summary.json")
    cmd = [opt, f"--op-schedule={options} report={report} trace={trace} summary={summary} "
           "summary-format=json", model, "-o", out]
    subprocess.run(cmd, check=True)
    csv_path = os.path.join(outdir, name + ".summary.csv")
    subprocess.run([opt, f"--op-schedule={options} summary={csv_path} summary-format=csv", model,
                    "-o", os.devnull], check=True)
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
    check(abs(float(p.cells["fragmentation-0"]) - frag) <= 1e-12 * max(1.0, abs(frag)),
          f"{name}: summary fragmentation {p.cells['fragmentation-0']} != {frag}")
    check(p.peak_tables.get("peakbufs-0") == peak,
          f"{name}: buffers live at the peak add up to {p.peak_tables.get('peakbufs-0')}, peak {peak}")
    if limit is None:
        check(p.legend_limit == 0 and "limit-0" not in p.cells, f"{name}: a limit shown without a limit")
        check(fig["limit"] == 0, f"{name}: figures.limit {fig['limit']} without a limit")
    else:
        check(int(p.cells["limit-0"]) == limit and fig["limit"] == limit, f"{name}: limit differs")
        check(p.legend_limit >= 1, f"{name}: no limit legend with a limit")
    check_summary(name, ir, summary, csv_path)
    check_frontier(name, p, d, ir, summary, options, bench)
    print(f"{name}: {streams} stream(s), peak {peak}, original {opeak}, arena {arena}, "
          f"limit {limit}: {len(live)} ops compared")


def browser_check(page):
    """The pass's page runs its script without error in headless Chromium
    (memory lane, time hover, label fitting); skipped without chromium."""
    exe = next((c for c in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(c)), None)
    if exe is None:
        print("(no chromium: the page's script is not run)")
        return
    import tempfile
    with tempfile.TemporaryDirectory() as prof:
        r = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update",
                            "--disable-sync", f"--user-data-dir={prof}", "--virtual-time-budget=5000",
                            "--dump-dom", "file://" + os.path.abspath(page)],
                           capture_output=True, text=True, timeout=180)
    dom = r.stdout
    check('id="report-errors" data-count="0"' in dom, f"{page}: the page recorded script errors")
    check('data-report-ready="1"' in dom, f"{page}: the page's script did not finish")


def main():
    opt, model, outdir = sys.argv[1:4]
    bench = sys.argv[4] if len(sys.argv) > 4 else None
    MODEL[0] = model
    os.makedirs(outdir, exist_ok=True)
    run_mode(opt, model, outdir, "critical-path", "device=h100")
    run_mode(opt, model, outdir, "memory-limit", "device=h100 max-memory=1400KiB")
    run_mode(opt, model, outdir, "streams", "device=h100 streams=4 max-memory=2MiB")
    run_mode(opt, model, outdir, "frontier", "device=h100 streams=4", bench)
    run_mode(opt, model, outdir, "frontier-policy", "device=h100 streams=4 policy=min-memory", bench)
    browser_check(os.path.join(outdir, "streams.html"))
    browser_check(os.path.join(outdir, "frontier.html"))
    for f in FAILS:
        print("FAIL:", f)
    if FAILS:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
