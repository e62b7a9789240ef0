#!/usr/bin/env bash
# The README's second command: install, build, and run every test (C unit
# tests and lit, through ctest).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j 2
"$root/scripts/sanitize.sh"   # ASan+UBSan suite, valgrind, bounded fuzzing, 10k scale smoke (docs/benchmarks-scale.md)
