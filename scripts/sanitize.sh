#!/usr/bin/env bash
# Abuse checks run by scripts/test.sh (docs/benchmarks-scale.md):
#  1. the whole suite (C unit tests + lit) in an ASan+UBSan build
#     (build-asan/, gcc, OPSCHED_SANITIZE=ON); lit tests that load the plugin
#     into Debian's non-sanitized mlir-opt, and Exec/, are excluded
#     (--param sanitized=1, test/lit.cfg.py);
#  2. valgrind memcheck on the core unit tests and two opsched-opt runs
#     (normal build);
#  3. bounded libFuzzer runs of tools/fuzz (build-fuzz/, clang-14,
#     OPSCHED_FUZZ=ON): FUZZ_SECONDS each (default 20), fixed seed;
#  4. the 10k-op scale smoke run (scripts/scale.sh --smoke).
# Set OPSCHED_SKIP_SANITIZE=1 to skip everything.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[ "${OPSCHED_SKIP_SANITIZE:-0}" = 1 ] && exit 0
build="${OPSCHED_BUILD_DIR:-$root/build}"
asan="$root/build-asan"
fuzz="$root/build-fuzz"
secs="${FUZZ_SECONDS:-20}"
lit=/usr/lib/llvm-22/bin/lit

echo "== ASan+UBSan build and suite ($asan)"
cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPSCHED_SANITIZE=ON >/dev/null
ninja -C "$asan" -j 2 >/dev/null
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# install.* builds consumers of the installed (sanitized) archives without
# sanitizer flags, and docs.* loads the (sanitized) plugin into Debian's
# mlir-opt: meaningless here, they run in the normal build.
(cd "$asan" && ctest --output-on-failure -j 2 -E '^(lit|install\..*|docs\..*)$')
"$lit" -q --param sanitized=1 "$asan/test"
unset ASAN_OPTIONS UBSAN_OPTIONS

echo "== valgrind memcheck"
vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
vgdir="$(mktemp -d)"   # test_report writes its report files into the cwd
for t in "$build"/bin/test_*; do
  case "$(basename "$t")" in test_capi) continue ;; esac
  (cd "$vgdir" && "${vg[@]}" "$t" >/dev/null)
done
rm -rf "$vgdir"
"${vg[@]}" "$build/bin/opsched-opt" --op-schedule='streams=2 policy=min-memory max-memory=4KiB' \
  "$root/examples/models/inception_block.mlir" -o /dev/null
"${vg[@]}" "$build/bin/opsched-opt" --op-schedule='cost-model=unit streams=4 effort=1' \
  "$root/examples/models/seed_demo.mlir" -o /dev/null

echo "== libFuzzer, ${secs}s each ($fuzz)"
if command -v clang-14 >/dev/null && [ -e /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ]; then
  CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$fuzz" -G Ninja -DOPSCHED_FUZZ=ON >/dev/null
  ninja -C "$fuzz" -j 2 fuzz_core fuzz_mlir >/dev/null
  work="$(mktemp -d)"
  mkdir -p "$work/core" "$work/mlir"
  cp "$root"/tools/fuzz/seeds/mlir/* "$work/mlir/"
  "$fuzz/bin/fuzz_core" -seed=1 -max_len=600 -max_total_time="$secs" \
    "$work/core" "$root/tools/fuzz/regressions/core" 2>"$work/core.log" || { tail -40 "$work/core.log"; exit 1; }
  "$fuzz/bin/fuzz_mlir" -seed=1 -max_len=4096 -max_total_time="$secs" -rss_limit_mb=4096 \
    "$work/mlir" "$root/tools/fuzz/regressions/mlir" 2>"$work/mlir.log" || { tail -40 "$work/mlir.log"; exit 1; }
  tail -1 "$work/core.log"; tail -1 "$work/mlir.log"
  rm -rf "$work"
else
  echo "clang-14 with libFuzzer not installed: fuzzing skipped"
fi

echo "== scale smoke (10k ops)"
"$root/scripts/scale.sh" --smoke
