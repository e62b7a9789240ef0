#!/usr/bin/env bash
# The install test (registered by test/install/CMakeLists.txt as
# install.examples): installs the build into WORK/prefix, configures and
# builds the three examples out of tree against it, runs them and checks
# their output with FileCheck against the *.check files next to this script.
set -euo pipefail

while [ $# -gt 0 ]; do
  case "$1" in
    --cmake) CMAKE=$2 ;;
    --generator) GENERATOR=$2 ;;
    --c-compiler) CC_PATH=$2 ;;
    --cxx-compiler) CXX_PATH=$2 ;;
    --build) BUILD=$2 ;;
    --source) SRC=$2 ;;
    --work) WORK=$2 ;;
    --filecheck) FILECHECK=$2 ;;
    --mlir-opt) MLIR_OPT=$2 ;;
    --checks) CHECKS=$2 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift 2
done

PREFIX=$WORK/prefix
MODEL=$SRC/examples/models/seed_demo.mlir
step() { echo "== $*"; }

rm -rf "$WORK"
mkdir -p "$WORK"

step "install into $PREFIX"
"$CMAKE" --install "$BUILD" --prefix "$PREFIX" > "$WORK/install.log"
for f in lib/libopsched_core.a lib/libopsched_capi.so lib/libopsched.so bin/opsched-opt \
         include/opsched/Version.h include/opsched/graph.h include/opsched/Passes.h \
         include/opsched/arena.h include/opsched/attr_names.h include/opsched/report.h \
         lib/libopsched_report.a \
         include/opsched-c/OpSched.h lib/cmake/OpSched/OpSchedConfig.cmake \
         lib/cmake/OpSched/OpSchedConfigVersion.cmake; do
  [ -e "$PREFIX/$f" ] || { echo "missing after install: $f" >&2; exit 1; }
done

step "libopsched_capi.so: our API and the MLIR C API exported, one libMLIR"
nm -D --defined-only "$PREFIX/lib/libopsched_capi.so" > "$WORK/capi.symbols"
for s in opschedCreateOpSchedulePass opschedScheduleFunction opschedRegisterPasses \
         mlirContextCreate mlirParsePassPipeline mlirRegisterAllDialects \
         _ZN7opsched14registerPassesEv; do
  grep -q " T $s\$" "$WORK/capi.symbols" || { echo "not exported: $s" >&2; exit 1; }
done
if grep -q ' T opsched_\| T opschedMlir' "$WORK/capi.symbols"; then
  echo "internal symbols exported:" >&2
  grep ' T opsched_\| T opschedMlir' "$WORK/capi.symbols" | head >&2
  exit 1
fi

build_example() { # name
  step "configure and build examples/$1 against the prefix"
  "$CMAKE" -S "$SRC/examples/$1" -B "$WORK/$1" -G "$GENERATOR" \
    -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_COMPILER="$CC_PATH" \
    -DCMAKE_CXX_COMPILER="$CXX_PATH" -DCMAKE_BUILD_TYPE=Release > "$WORK/$1.configure.log" 2>&1 ||
    { cat "$WORK/$1.configure.log" >&2; exit 1; }
  "$CMAKE" --build "$WORK/$1" -j 2 > "$WORK/$1.build.log" 2>&1 ||
    { cat "$WORK/$1.build.log" >&2; exit 1; }
}

run_and_check() { # name check-file args...
  local name=$1 check=$2
  shift 2
  step "run $name, FileCheck $check"
  local status=0
  "$WORK/$name/$name" "$@" > "$WORK/$name.out" 2>&1 || status=$?
  cat "$WORK/$name.out"
  [ "$status" -eq 0 ] || { echo "$name exited with $status" >&2; exit 1; }
  "$FILECHECK" --dump-input=fail "$CHECKS/$check" < "$WORK/$name.out"
}

build_example core-graph
# The core alone must not pull MLIR in.
if grep -qi 'MLIRConfig\|LLVMConfig' "$WORK/core-graph/CMakeCache.txt"; then
  echo "core-graph: find_package(OpSched COMPONENTS core) looked for MLIR" >&2
  exit 1
fi
run_and_check core-graph core-graph.check

build_example c-pipeline
run_and_check c-pipeline c-pipeline.check "$MODEL"
ldd "$WORK/c-pipeline/c-pipeline" > "$WORK/c-pipeline.ldd"
[ "$(grep -c 'libMLIR' "$WORK/c-pipeline.ldd")" -eq 1 ] ||
  { echo "c-pipeline: not exactly one libMLIR:" >&2; cat "$WORK/c-pipeline.ldd" >&2; exit 1; }

build_example cxx-pipeline
run_and_check cxx-pipeline cxx-pipeline.check "$MODEL"

step "installed plugin in stock mlir-opt, installed opsched-opt"
env -u LD_PRELOAD "$MLIR_OPT" --load-pass-plugin="$PREFIX/lib/libopsched.so" \
  --pass-pipeline='builtin.module(func.func(op-schedule{cost-model=unit streams=2}))' "$MODEL" \
  > "$WORK/plugin.out"
"$FILECHECK" --check-prefix=ATTRS "$CHECKS/tools.check" < "$WORK/plugin.out"
"$PREFIX/bin/opsched-opt" --op-schedule='cost-model=unit streams=2 table=-' "$MODEL" -o /dev/null \
  2> "$WORK/opt.out"
"$FILECHECK" --check-prefix=TABLE "$CHECKS/tools.check" < "$WORK/opt.out"
step "ok"
