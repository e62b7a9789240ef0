#!/usr/bin/env python3
"""Every ```sh block of README.md and docs/*.md runs as written (issue 17).

Copies the source tree (no build trees, no .git) into a temporary
directory, links `build` there to the build tree under test, and runs each
```sh block with `bash -e -o pipefail` from the copy's root, as a user who
just cloned and ran the setup command would. A block fails when a command
exits non-zero.

Marker: a block preceded by the line
    <!-- doc-test: skip: REASON -->
is not run (it installs packages, builds a second tree, or takes hours);
the reason is printed. Fenced blocks that look like shell commands (a line
starting with a known command) but are not ```sh and not marked fail: a
command in the docs is either tested or explicitly exempt.

An ```mlir block whose first line is `// opsched-opt ARGS` is an example
output: the command runs and every other line of the block (but `...`)
must appear in its output, so the example cannot drift from the pass.

Usage: run_doc_commands.py SOURCE_DIR BUILD_DIR [--list]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = re.compile(r"<!--\s*doc-test:\s*skip:\s*(.+?)\s*-->")
FENCE = re.compile(r"^```(\S*)\s*$")
COMMAND = re.compile(r"^\s*(\./scripts/|scripts/|build/bin/|build-\w+/bin/|mlir-opt|"
                     r"/usr/lib/llvm-22/bin/|python3 |cmake |ninja |ctest |"
                     r"lit |FileCheck )")


def blocks(path):
    """(line, lang, text, skip reason or None) of each fenced block."""
    out, lines = [], open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, lang = i, m.group(1)
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != "```":
            j += 1
        prev = next((lines[k] for k in range(start - 1, -1, -1) if lines[k].strip()), "")
        sm = SKIP.search(prev)
        out.append((start + 1, lang, "\n".join(lines[start + 1:j]), sm.group(1) if sm else None))
        i = j + 1
    return out


def check_example(root, text):
    """None when every line of an example block is in its command's output."""
    lines = text.split("\n")
    cmd = "build/bin/" + lines[0][len("// "):]
    r = subprocess.run(["bash", "-e", "-c", cmd], cwd=root, capture_output=True, text=True,
                       timeout=300)
    if r.returncode != 0:
        return f"`{cmd}` exit {r.returncode}: {r.stderr.strip()[-500:]}"
    got = {l.strip() for l in r.stdout.split("\n")}
    for l in lines[1:]:
        if l.strip() and l.strip() != "..." and l.strip() not in got:
            return f"example line not in the output of `{cmd}`:\n  {l.strip()}"
    return None


def doc_files(src):
    files = [os.path.join(src, "README.md")]
    docs = os.path.join(src, "docs")
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    return files


def fresh_copy(src, build):
    tmp = tempfile.mkdtemp(prefix="opsched-doc-")
    root = os.path.join(tmp, "opsched")

    def ignore(d, names):
        return [n for n in names if n in (".git", "out") or n.startswith("build")]
    shutil.copytree(src, root, ignore=ignore, symlinks=True)
    os.symlink(os.path.abspath(build), os.path.join(root, "build"))
    return tmp, root


def main():
    src, build = sys.argv[1], sys.argv[2]
    fails, ran, skipped = [], 0, 0
    tmp, root = fresh_copy(src, build)
    try:
        for path in doc_files(src):
            rel = os.path.relpath(path, src)
            for line, lang, text, skip in blocks(path):
                where = f"{rel}:{line}"
                if skip is not None:
                    print(f"SKIP {where}: {skip}")
                    skipped += 1
                    continue
                if lang == "mlir" and text.startswith("// opsched-opt "):
                    ran += 1
                    err = check_example(root, text)
                    print(("FAIL " if err else "ok   ") + where)
                    if err:
                        fails.append(f"{where}: {err}")
                    continue
                if lang != "sh":
                    cmds = [l for l in text.split("\n") if COMMAND.match(l)]
                    if cmds and lang in ("", "text", "bash", "console", "shell"):
                        fails.append(f"{where}: a ```{lang} block with commands ({cmds[0].strip()!r}): "
                                     "make it ```sh (tested) or mark it <!-- doc-test: skip: REASON -->")
                    continue
                if "--list" in sys.argv:
                    print(f"RUN  {where}:\n{text}")
                    continue
                ran += 1
                r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", text], cwd=root,
                                   capture_output=True, text=True, timeout=900)
                if r.returncode != 0:
                    fails.append(f"{where}: exit {r.returncode}\n--- block:\n{text}\n--- stderr (tail):\n"
                                 + "\n".join(r.stderr.strip().split("\n")[-15:]))
                    print(f"FAIL {where}")
                else:
                    print(f"ok   {where}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in fails:
        print("FAIL:", f)
    print(f"doc commands: {ran} blocks run, {skipped} skipped by marker, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
