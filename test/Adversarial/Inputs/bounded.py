#!/usr/bin/env python3
"""bounded.py MIB SECONDS CMD...: runs CMD with its address space limited to
MIB mebibytes and its time to SECONDS, so a test of a memory or time cliff
fails fast instead of exhausting the machine. Exits with CMD's status, or 124
(with a message) when the time ran out."""
import resource
import subprocess
import sys


def main():
    mib, seconds, cmd = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (mib << 20, mib << 20))

    try:
        return subprocess.run(cmd, preexec_fn=limit, timeout=seconds).returncode
    except subprocess.TimeoutExpired:
        print("bounded.py: %s took over %g s" % (cmd[0], seconds), file=sys.stderr)
        return 124


if __name__ == "__main__":
    sys.exit(main())
