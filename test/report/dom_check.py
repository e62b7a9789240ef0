#!/usr/bin/env python3
"""Checks a DOM that headless Chromium dumped from the HTML report.

dom_check.py DOM.html TRACE.json
    The page's script ran (body data-report-ready="1") and recorded no error;
    every block has the summary, graph, memory and Gantt views (past the
    first 1000, the summary and a note only); the summary
    numbers equal the trace's otherData.blocks (an independent writer) and
    the seed's known values (makespan 4, speedup 1.50 on 2 streams); the
    Gantt has one bar per op; small graphs one node per op not folded.
dom_check.py --expect-errors N DOM.html
    The page recorded at least N errors (the self-check of error capture).
"""
import json
import re
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.body = {}
        self.ids = {}            # id -> attrs
        self.text = {}           # id -> text
        self.stack = []          # open ids collecting text
        self.blocks = []         # per section.block: dict of counts
        self.cur = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "body":
            self.body = a
        if "id" in a:
            self.ids[a["id"]] = a
            self.text[a["id"]] = ""
            if tag not in ("input", "br", "img", "meta"):
                self.stack.append((tag, a["id"]))
        if tag == "section" and "block" in cls:
            self.cur = {"index": a.get("data-block"), "views": set(), "ops": 0,
                        "nodes": 0, "waits": 0, "levels": 0, "omitted": 0, "folded": 0}
            self.blocks.append(self.cur)
        if self.cur is None:
            return
        if tag == "div" and "view" in cls:
            self.cur["views"].update(c for c in cls if c != "view")
        if tag == "rect" and "op" in cls:
            self.cur["ops"] += 1
        if tag == "g" and "node" in cls:
            self.cur["nodes"] += 1
        if tag == "line" and "wait" in cls:
            self.cur["waits"] += 1
        if tag == "svg" and "levels" in cls:
            self.cur["levels"] += 1
        if tag == "p" and "omitted" in cls:
            self.cur["omitted"] += 1

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_data(self, data):
        for _, i in self.stack:
            self.text[i] += data
        # The graph view's caption: "N zero-cost ops (...) are folded".
        m = FOLDED.search(data)
        if self.cur is not None and m:
            self.cur["folded"] += int(m.group(1))


FOLDED = re.compile(r"(\d+) zero-cost ops \(constants")


def load(path):
    d = Dom()
    with open(path, encoding="utf-8") as f:
        d.feed(f.read())
    return d


failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def value(d, key, k):
    a = d.ids.get(f"{key}-{k}")
    return None if a is None else a.get("data-value")


def main(argv):
    if argv[1] == "--expect-errors":
        d = load(argv[3])
        n = int((d.ids.get("report-errors") or {}).get("data-count", "0"))
        print(f"recorded errors: {n}: {d.text.get('report-errors', '').strip()[:300]}")
        return 0 if n >= int(argv[2]) else 1

    d = load(argv[1])
    with open(argv[2], encoding="utf-8") as f:
        trace = json.load(f)
    blocks = trace["otherData"]["blocks"]

    errs = d.ids.get("report-errors")
    check(errs is not None, "no #report-errors element")
    if errs is not None:
        check(errs.get("data-count") == "0",
              "the page recorded errors: " + d.text.get("report-errors", "").strip())
    check(d.body.get("data-report-ready") == "1", "the page's script did not finish")
    check(len(d.blocks) == len(blocks), f"{len(d.blocks)} block sections, trace has {len(blocks)}")

    for k, (sec, tb) in enumerate(zip(d.blocks, blocks)):
        name = f"block {k} ({tb['function']} / {tb['block']})"
        # A page draws its first 1000 blocks; later ones show their summary.
        drawn = k < 1000
        check(sec["omitted"] == (0 if drawn else 1), f"{name}: {sec['omitted']} 'views left out' notes")
        for view in ("summary", "graph", "memory", "gantt"):
            check((view in sec["views"]) == (drawn or view == "summary"),
                  f"{name}: {view} view {'missing' if drawn or view == 'summary' else 'drawn'}")
        if drawn:
            check(sec["ops"] == tb["ops"], f"{name}: {sec['ops']} Gantt bars for {tb['ops']} ops")
            if tb["ops"] <= 400:
                check(sec["nodes"] == tb["ops"] - sec["folded"],
                      f"{name}: {sec['nodes']} graph nodes for {tb['ops']} ops, {sec['folded']} folded")
            else:
                check(sec["levels"] == 1, f"{name}: no aggregated graph view")
            check(sec["waits"] == min(tb["waits"], 4000), f"{name}: {sec['waits']} waits drawn")
        expect = {
            "ops": str(tb["ops"]), "streams": str(tb["streams"]),
            "makespan": str(tb["makespan_ns"]), "original": str(tb["total_work_ns"]),
            "speedup": "%.4f" % tb["speedup"], "lower-bound": str(tb["lower_bound_ns"]),
            "critical-path": str(tb["critical_path_ns"]), "waits": str(tb["waits"]),
        }
        if "peak_scheduled" in tb:
            expect["peak"] = str(tb["peak_scheduled"])
        if "memory_limit" in tb:
            expect["limit"] = str(tb["memory_limit"])
        if "arena_bytes" in tb:
            expect["arena"] = str(tb["arena_bytes"])
        for key, want in expect.items():
            got = value(d, key, k)
            check(got == want, f"{name}: summary {key} = {got}, want {want}")
        check(abs(float(value(d, "speedup", k) or 0) * tb["makespan_ns"] - tb["total_work_ns"])
              < 1e-3 * max(1, tb["total_work_ns"]), f"{name}: speedup != work / makespan")

    # The seed, known independently of both writers.
    for key, want in (("ops", "6"), ("streams", "2"), ("makespan", "4"), ("original", "6"),
                      ("speedup", "1.5000"), ("lower-bound", "4")):
        check(value(d, key, 0) == want, f"seed: {key} = {value(d, key, 0)}, want {want}")
    check("4 ns" in d.text.get("makespan-0", ""), "seed: makespan cell text")
    check("1.50" in d.text.get("speedup-0", ""), "seed: speedup cell text")

    for f in failures:
        print("FAIL:", f)
    print(f"DOM checks: {len(blocks)} blocks, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
