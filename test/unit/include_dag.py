#!/usr/bin/env python3
"""Keeps lib/core a layered DAG (issue 13.2).

Three checks, each failing with the offending files:

1. Modules: X.c and its internal header X.h are one module; module A depends
   on B when A's source or header includes "B.h". The graph must be acyclic.
2. Contracts: every function an internal header X.h declares is defined in
   X.c (or is static inline in the header), so a header cannot hide a loop by
   declaring functions of several files.
3. Symbols (with --archive): object A depends on B when A references a
   symbol B defines (nm). Acyclic as well: the link-level truth.

And, with --max-lines N, no function body in lib/core longer than N lines.

usage: include_dag.py --src lib/core [--archive libopsched_core.a --nm nm]
                      [--max-lines 150]
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A top-level prototype: starts at column 0, ends with ');' (may span lines).
PROTO = re.compile(r'^(?!static|typedef|#|\s|/|\*|})[^;{}()]*?\b(\w+)\s*\([^;{}]*\)\s*;', re.M)
DEFN = re.compile(r'^(?!static\b)[A-Za-z_][^;{}()]*?\b(\w+)\s*\([^;{}]*\)\s*\{', re.M)


def strip_comments(text):
    return re.sub(r'/\*.*?\*/|//[^\n]*', '', text, flags=re.S)


def find_cycle(graph):
    """Returns one cycle as a list of nodes, or None."""
    state, stack = {}, []

    def visit(u):
        state[u] = 1
        stack.append(u)
        for v in sorted(graph.get(u, ())):
            if state.get(v) == 1:
                return stack[stack.index(v):] + [v]
            if not state.get(v):
                found = visit(v)
                if found:
                    return found
        stack.pop()
        state[u] = 2
        return None

    for u in sorted(graph):
        if not state.get(u):
            found = visit(u)
            if found:
                return found
    return None


def module_graph(src):
    files = sorted(f for f in os.listdir(src) if f.endswith(('.c', '.h')))
    modules = {os.path.splitext(f)[0] for f in files}
    graph = {m: set() for m in modules}
    for f in files:
        mod = os.path.splitext(f)[0]
        with open(os.path.join(src, f)) as fh:
            for inc in INCLUDE.findall(fh.read()):
                dep = os.path.splitext(os.path.basename(inc))[0]
                if '/' not in inc and dep in modules and dep != mod:
                    graph[mod].add(dep)
    return files, graph


def contract_errors(src, files):
    errors = []
    for f in files:
        if not f.endswith('.h'):
            continue
        with open(os.path.join(src, f)) as fh:
            header = strip_comments(fh.read())
        declared = set(PROTO.findall(header))
        if not declared:
            continue
        impl = os.path.join(src, f[:-2] + '.c')
        defined = set()
        if os.path.exists(impl):
            with open(impl) as fh:
                defined = set(DEFN.findall(strip_comments(fh.read())))
        for name in sorted(declared - defined):
            errors.append(f'{f} declares {name}() but {f[:-2]}.c does not define it')
    return errors


def symbol_graph(archive, nm):
    out = subprocess.run([nm, '-A', archive], check=True, capture_output=True,
                         text=True).stdout
    defs, uses = {}, {}
    for line in out.splitlines():
        parts = line.split(':')
        if len(parts) < 3:
            continue
        obj, rest = parts[1], ':'.join(parts[2:]).split()
        if len(rest) < 2:
            continue
        kind, sym = rest[-2], rest[-1]
        uses.setdefault(obj, set())
        if kind == 'U':
            uses[obj].add(sym)
        elif kind in 'TDBR':
            defs[sym] = obj
    graph = {o: set() for o in uses}
    for obj, syms in uses.items():
        for s in syms:
            if s in defs and defs[s] != obj:
                graph[obj].add(defs[s])
    return graph


def long_functions(src, limit):
    errors = []
    for f in sorted(os.listdir(src)):
        if not f.endswith('.c'):
            continue
        with open(os.path.join(src, f)) as fh:
            lines = strip_comments_keep_lines(fh.read()).split('\n')
        depth, start = 0, None
        for i, line in enumerate(lines):
            opened = line.count('{')
            if depth == 0 and opened:
                first = i
                while first > 0 and lines[first][:1] in (' ', '\t'):
                    first -= 1
                head = ' '.join(lines[first:i + 1])
                is_function = re.search(r'\w+\s*\([^;]*\)\s*\{', head) and '=' not in head.split('(')[0]
                start = first if is_function else None
            depth += opened - line.count('}')
            if depth == 0 and start is not None:
                if i - start + 1 > limit:
                    errors.append(f'{f}:{start + 1}: function of {i - start + 1} lines '
                                  f'(limit {limit})')
                start = None
    return errors


def strip_comments_keep_lines(text):
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'',
                  lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--src', required=True)
    ap.add_argument('--archive')
    ap.add_argument('--nm', default='nm')
    ap.add_argument('--max-lines', type=int)
    args = ap.parse_args()
    failed = False
    files, graph = module_graph(args.src)
    cycle = find_cycle(graph)
    if cycle:
        print('include cycle between modules: ' + ' -> '.join(cycle))
        failed = True
    for e in contract_errors(args.src, files):
        print(e)
        failed = True
    if args.archive:
        cycle = find_cycle(symbol_graph(args.archive, args.nm))
        if cycle:
            print('symbol cycle between objects: ' + ' -> '.join(cycle))
            failed = True
    if args.max_lines:
        for e in long_functions(args.src, args.max_lines):
            print(e)
            failed = True
    if not failed:
        print(f'lib/core: {len(graph)} modules, no cycle')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
