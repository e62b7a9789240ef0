#!/usr/bin/env bash
# The README's second command: install, build, and run every test: C unit
# tests, lit (passes, plugin, abuse corpus, execution equivalence, property
# tests), install/examples and browser tests through ctest; then the
# sanitized suite, valgrind, bounded fuzzing and the scale smoke test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
(cd "$root/build" && ctest --output-on-failure -j 2) | tee "$log"
"$root/scripts/sanitize.sh"   # ASan+UBSan suite, valgrind, bounded fuzzing, 10k scale smoke (docs/benchmarks-scale.md)
# One closing line for whoever reads the end of the log (every step above
# stops the script on a failure, so reaching here means all passed).
total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$log" | tail -1)
echo "opsched: ${total:-0} passed, 0 failed"
