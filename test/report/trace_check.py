#!/usr/bin/env python3
"""Validates trace.json from opsched_trace_write against the Chrome Trace
Event Format (the JSON object form Perfetto and chrome://tracing read) and
checks its numbers by recomputing them from the events:

- the file parses and round-trips through json (dumps + loads is equal);
- every event has the fields its phase needs: X (complete slice: ts, dur),
  M (metadata: process/thread names and sort indices), C (counter: numeric
  args), s/f (flow start/finish: matching ids, f binds to the enclosing
  slice, start no later than finish);
- per block of otherData.blocks: one slice per op on the schedule process
  and on the original-order process, slices of one stream never overlap,
  streams < the stream count, the latest end is the makespan, the original
  order is back to back and sums to the total work, one flow per wait, the
  live-bytes counter peaks at peak_scheduled;
- the seed (first block): 6 ops, makespan 4 ns on 2 streams, speedup 1.5.
Usage: trace_check.py TRACE.json
"""
import json
import sys
from collections import defaultdict

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def ns(us):
    return round(us * 1000)


def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def main(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    doc = json.loads(text)
    check(json.loads(json.dumps(doc)) == doc, "JSON round trip differs")
    check(isinstance(doc, dict), "top level is not an object")
    events = doc.get("traceEvents")
    check(isinstance(events, list) and events, "no traceEvents array")
    check(doc.get("displayTimeUnit") in ("ns", "ms"), "displayTimeUnit")
    blocks = doc.get("otherData", {}).get("blocks", [])
    check(len(blocks) > 0, "no otherData.blocks")

    slices = defaultdict(list)   # pid -> [(ts, dur, tid, args)]
    counters = defaultdict(list)  # (pid, name) -> [(ts, value)]
    flows = defaultdict(dict)     # id -> {ph: event}
    names = {}
    for i, e in enumerate(events):
        where = f"event {i}"
        if not isinstance(e, dict):
            check(False, f"{where}: not an object")
            continue
        ph = e.get("ph")
        check(ph in ("X", "M", "C", "s", "f"), f"{where}: phase {ph!r}")
        check(isinstance(e.get("pid"), int) and isinstance(e.get("tid"), int),
              f"{where}: pid/tid must be integers")
        check(isinstance(e.get("name"), str), f"{where}: name must be a string")
        if ph != "M":
            check(is_num(e.get("ts")) and e["ts"] >= 0, f"{where}: ts")
        if ph == "X":
            check(is_num(e.get("dur")) and e["dur"] >= 0, f"{where}: dur")
            args = e.get("args", {})
            check(isinstance(args.get("node"), int), f"{where}: args.node")
            check(args.get("cost_ns") == ns(e.get("dur", 0)), f"{where}: cost_ns != dur")
            slices[e["pid"]].append((ns(e["ts"]), ns(e["dur"]), e["tid"], args))
        elif ph == "M":
            check(e["name"] in ("process_name", "thread_name", "process_sort_index",
                                "thread_sort_index"), f"{where}: metadata {e['name']}")
            args = e.get("args", {})
            if e["name"].endswith("_name"):
                check(isinstance(args.get("name"), str), f"{where}: args.name")
                names[(e["name"], e["pid"], e["tid"])] = args.get("name")
            else:
                check(isinstance(args.get("sort_index"), int), f"{where}: args.sort_index")
        elif ph == "C":
            args = e.get("args")
            check(isinstance(args, dict) and args and all(is_num(v) for v in args.values()),
                  f"{where}: counter args must be numbers")
            counters[(e["pid"], e["name"])].append((ns(e["ts"]), args.get("bytes")))
        else:
            check("id" in e, f"{where}: flow without id")
            check(ph not in flows[e.get("id")], f"{where}: duplicate flow {ph} id")
            flows[e.get("id")][ph] = e
            if ph == "f":
                check(e.get("bp") == "e", f"{where}: flow finish must bind to its enclosing slice")

    flows_per_pid = defaultdict(int)
    for fid, pair in flows.items():
        check(set(pair) == {"s", "f"}, f"flow {fid}: unpaired")
        if set(pair) == {"s", "f"}:
            check(pair["s"]["ts"] <= pair["f"]["ts"], f"flow {fid}: finish before start")
            check(pair["s"]["pid"] == pair["f"]["pid"], f"flow {fid}: across processes")
            flows_per_pid[pair["s"]["pid"]] += 1

    for k, b in enumerate(blocks):
        name = f"block {k} ({b['function']} / {b['block']})"
        pid, opid = b["pid"], b["original_pid"]
        sl, osl = slices[pid], slices[opid]
        check(("process_name", pid, 0) in names and ("process_name", opid, 0) in names,
              f"{name}: process names")
        check(len(sl) == b["ops"] and len(osl) == b["ops"], f"{name}: slices per op")
        check(sorted(a["node"] for *_, a in sl) == list(range(b["ops"])), f"{name}: nodes")
        end = max((t + d for t, d, _, _ in sl), default=0)
        check(end == b["makespan_ns"], f"{name}: latest end {end} != makespan {b['makespan_ns']}")
        by_tid = defaultdict(list)
        for t, d, tid, _ in sl:
            check(0 <= tid < b["streams"], f"{name}: stream {tid}")
            by_tid[tid].append((t, d))
        for tid, lst in by_tid.items():
            lst.sort()
            for (t0, d0), (t1, _) in zip(lst, lst[1:]):
                check(t0 + d0 <= t1, f"{name}: overlap on stream {tid} at {t1}")
        t = 0
        for ts, d, tid, _ in sorted(osl):
            check(ts == t and tid == 0, f"{name}: original order not back to back")
            t = ts + d
        check(t == b["total_work_ns"], f"{name}: original length {t} != {b['total_work_ns']}")
        check(flows_per_pid[pid] == b["waits"], f"{name}: {flows_per_pid[pid]} flows, {b['waits']} waits")
        check(b["waits"] <= b["waits_unreduced"], f"{name}: waits > unreduced")
        check(b["lower_bound_ns"] <= b["makespan_ns"], f"{name}: makespan below lower bound")
        if b["makespan_ns"]:
            check(abs(b["speedup"] - b["total_work_ns"] / b["makespan_ns"]) < 1e-4, f"{name}: speedup")
        live = counters.get((pid, "live bytes"))
        if "peak_scheduled" in b:
            check(live and max(v for _, v in live) == b["peak_scheduled"], f"{name}: live bytes peak")
            check(all(a[0] <= c[0] for a, c in zip(live, live[1:])), f"{name}: counter time goes back")
        if "peak_original" in b:
            olive = counters.get((opid, "live bytes"))
            check(olive and max(v for _, v in olive) == b["peak_original"], f"{name}: original peak")
        if "memory_limit" in b:
            lim = counters.get((pid, "memory limit"))
            check(lim and all(v == b["memory_limit"] for _, v in lim), f"{name}: limit counter")

    s = blocks[0] if blocks else {}
    check((s.get("ops"), s.get("streams"), s.get("makespan_ns"), s.get("total_work_ns"),
           s.get("speedup")) == (6, 2, 4, 6, 1.5), f"seed numbers: {s}")

    for f in failures[:50]:
        print("FAIL:", f)
    print(f"trace checks: {len(events)} events, {len(blocks)} blocks, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
