#!/usr/bin/env python3
"""Validates trace.json from opsched_trace_write against the Chrome Trace
Event Format (the JSON object form Perfetto and chrome://tracing read) and
checks its numbers by recomputing them from the events:

- the file parses and round-trips through json (dumps + loads is equal);
- every event has the fields its phase needs: X (complete slice: ts, dur),
  M (metadata: process/thread names and sort indices), C (counter: numeric
  args), s/f (flow start/finish: matching ids, start no later than finish);
- flows bind to the right slices under Perfetto's rules (its JSON importer,
  json_trace_parser_impl.cc): a version-2 flow is carried by the X events
  themselves (bind_id with flow_out on the producer, flow_in on the
  consumer); a version-1 s/f event with "bp":"e" binds to the slice open
  on its thread at its timestamp, so it must lie strictly inside exactly
  one slice of that thread, touching no slice boundary. Every flow goes
  from a producer to a consumer that lists it in args.waits_for, forward in
  time, on their own streams, in the slices' category; every wait has
  exactly one flow;
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


def enclosing(by_thread, e):
    """The X event a v1 flow event binds to, or None when ambiguous."""
    t = ns(e["ts"])
    inside, touching = [], 0
    for x in by_thread.get((e["pid"], e["tid"]), []):
        s0, s1 = ns(x["ts"]), ns(x["ts"]) + ns(x["dur"])
        if s0 < t < s1:
            inside.append(x)
        elif s0 == t or s1 == t:
            touching += 1
    return inside[0] if len(inside) == 1 and touching == 0 else None


def op_of(x, ops):
    """The op slice a flow-carrying X event stands for: itself, or for a
    marker its op's slice, which must be on the same stream with the marker
    at the right time (inside the producer's slice, at the consumer's
    start)."""
    if "flow" not in x["args"]:
        return x
    op = ops.get((x["pid"], x["args"]["node"]))
    if op is None:
        check(False, f"marker {x}: no slice of node {x['args']['node']}")
        return None
    t, s0, s1 = ns(x["ts"]), ns(op["ts"]), ns(op["ts"]) + ns(op["dur"])
    check(x["tid"] == op["tid"], f"marker of {op['name']}: on thread {x['tid']}, op on {op['tid']}")
    if x["args"]["flow"] == "out":
        check(s0 <= t and (t < s1 or s0 == s1), f"marker of {op['name']}: {t} outside [{s0}, {s1})")
    else:
        check(t == s0, f"marker of {op['name']}: {t} is not the op's start {s0}")
    return op


def check_flows(xs, flows):
    """Binds every flow to its two slices; returns the flow count per pid."""
    by_thread = defaultdict(list)
    ops = {}
    for x in xs:
        if "flow" not in x["args"]:
            by_thread[(x["pid"], x["tid"])].append(x)
            ops[(x["pid"], x["args"]["node"])] = x
    bound = []  # (id, producer X, consumer X)
    v2 = defaultdict(dict)
    for x in xs:
        if "bind_id" in x:
            out, inn = x.get("flow_out") is True, x.get("flow_in") is True
            check(out != inn, f"slice {x['name']}: bind_id needs exactly one of flow_out/flow_in")
            role = "out" if out else "in"
            check(role not in v2[x["bind_id"]], f"bind_id {x['bind_id']}: two {role} slices")
            v2[x["bind_id"]][role] = x
    for fid, ends in v2.items():
        check(set(ends) == {"out", "in"}, f"bind_id {fid}: unpaired")
        check(fid not in flows, f"bind_id {fid}: also a v1 flow id")
        if set(ends) == {"out", "in"}:
            for x in ends.values():
                check(x.get("cat") == "op", f"bind_id {fid}: category {x.get('cat')!r}, not the slices' 'op'")
            p, c = op_of(ends["out"], ops), op_of(ends["in"], ops)
            if p is not None and c is not None:
                bound.append((f"bind_id {fid}", p, c))
    for fid, pair in flows.items():
        check(set(pair) == {"s", "f"}, f"flow {fid}: unpaired")
        if set(pair) != {"s", "f"}:
            continue
        check(pair["s"]["ts"] <= pair["f"]["ts"], f"flow {fid}: finish before start")
        check(pair["s"]["pid"] == pair["f"]["pid"], f"flow {fid}: across processes")
        p, c = enclosing(by_thread, pair["s"]), enclosing(by_thread, pair["f"])
        check(p is not None, f"flow {fid}: start at {pair['s']['ts']} us binds to no single slice")
        check(c is not None, f"flow {fid}: finish at {pair['f']['ts']} us binds to no single slice")
        for ev, x in (("s", p), ("f", c)):
            if x is not None:
                check(pair[ev].get("cat") == x.get("cat"),
                      f"flow {fid}: category {pair[ev].get('cat')!r}, slice {x.get('cat')!r}")
        if p is not None and c is not None:
            bound.append((f"flow {fid}", p, c))
    per_pid = defaultdict(int)
    seen = set()
    for what, p, c in bound:
        pn, cn = p["args"]["node"], c["args"]["node"]
        check(p["pid"] == c["pid"], f"{what}: across processes")
        check(pn in c["args"].get("waits_for", []),
              f"{what}: binds {p['name']} -> {c['name']}, which does not wait for it")
        check(ns(p["ts"]) + ns(p["dur"]) <= ns(c["ts"]), f"{what}: goes back in time")
        check((p["pid"], pn, cn) not in seen, f"{what}: a second flow for one wait")
        seen.add((p["pid"], pn, cn))
        per_pid[p["pid"]] += 1
    for x in ops.values():
        for u in x["args"].get("waits_for", []):
            check((x["pid"], u, x["args"]["node"]) in seen,
                  f"slice {x['name']} waits for node {u} with no flow bound to both")
    return per_pid


def main(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    doc = json.loads(text)
    return check_doc(doc)


def self_test(path):
    """The validator must catch a flow bound to the wrong thread, time or
    slice: each mutation of a valid trace has to fail."""
    with open(path, encoding="utf-8") as f:
        good = json.load(f)
    if check_doc(json.loads(json.dumps(good))) != 0:
        return 1
    ok = True
    muts = {"marker on another stream": lambda e: e["args"].get("flow") == "in" and e.update(tid=e["tid"] + 1),
            "marker before its op": lambda e: e["args"].get("flow") == "in" and e["ts"] >= 1 and e.update(ts=e["ts"] - 0.5),
            "flow_in on the wrong slice": lambda e: "flow" not in e["args"] and e.get("flow_in") and e.update(bind_id=e["bind_id"] + 10**6)}
    for name, mut in muts.items():
        # Apply to the first event the mutation changes.
        doc = json.loads(json.dumps(good))
        changed = False
        for i, e in enumerate(doc["traceEvents"]):
            before = json.dumps(e, sort_keys=True)
            if e.get("ph") == "X" and "bind_id" in e:
                mut(e)
                if json.dumps(e, sort_keys=True) != before:
                    changed = True
                    break
        if not changed:
            print(f"FAIL: no flow to mutate ({name}): the self-test needs a trace with waits")
            ok = False
            continue
        failures.clear()
        print(f"-- mutation: {name}")
        if check_doc(doc) == 0:
            print(f"FAIL: the validator accepted a trace with {name}")
            ok = False
    failures.clear()
    return 0 if ok else 1


def check_doc(doc):
    check(json.loads(json.dumps(doc)) == doc, "JSON round trip differs")
    check(isinstance(doc, dict), "top level is not an object")
    events = doc.get("traceEvents")
    check(isinstance(events, list) and events, "no traceEvents array")
    check(doc.get("displayTimeUnit") in ("ns", "ms"), "displayTimeUnit")
    blocks = doc.get("otherData", {}).get("blocks", [])
    check(len(blocks) > 0, "no otherData.blocks")

    slices = defaultdict(list)   # pid -> [(ts, dur, tid, args)]
    xs = []                        # every X event (flow binding)
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
            xs.append(e)
            if "flow" in args:  # a marker slice carrying one flow of its op
                check(args["flow"] in ("in", "out") and e.get("dur") == 0, f"{where}: flow marker")
                continue
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
            check(e.get("bp") == "e", f"{where}: flow event must bind to its enclosing slice")

    flows_per_pid = check_flows(xs, flows)

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
        for ts, d, tid, _ in sorted(osl, key=lambda x: (x[0], x[1], x[3]["node"])):
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
    check(s.get("function") != "@seed" or (s.get("ops"), s.get("streams"), s.get("makespan_ns"), s.get("total_work_ns"),
           s.get("speedup")) == (6, 2, 4, 6, 1.5), f"seed numbers: {s}")

    for f in failures[:50]:
        print("FAIL:", f)
    print(f"trace checks: {len(events)} events, {len(blocks)} blocks, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "--self-test":
        sys.exit(self_test(sys.argv[2]))
    sys.exit(main(sys.argv[1]))
