/* tools/opsched-bench/calibrate.c - `calibrate`: this machine's profile.
 *
 * Writes small linalg kernels as MLIR, lowers them with the pipeline of
 * scripts/run-model.sh (mlir-opt-22, mlir-translate, opt, llc, cc), runs
 * them, and derives a device profile from the fastest of 7 runs: the reduction rate
 * from a matmul and a convolution (their mean: models mix both), the
 * elementwise rate from a batch-norm-like body on a cache-resident tensor,
 * bandwidth from an elementwise copy-scale over 64 MiB, per-op overhead
 * from a function of many tiny ops, the async runtime's cost per region
 * from a chain of dependent async.execute regions, the cost of a strided
 * access from a transpose larger than the L2 cache, and the cores the
 * runtime's thread pool uses, and the cross-stream hand-off from two
 * streams that wait on each other at every step against one stream of the
 * same regions. `op-schedule device=FILE` reads the profile
 * (docs/materialize.md). */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
  REPEATS = 7, TINY_OPS = 512, ASYNC_REGIONS = 256, KERNELS = 10, TRANSPOSED = 2048,
  /* The hand-off kernels: steps of two streams, each region a fill of
   * HANDOFF_FLOATS floats (64 KiB, about 10 us here: long enough that the
   * other stream's worker goes idle between its regions). */
  HANDOFF_STEPS = 128, HANDOFF_FLOATS = 16384
};

/* The kernels; main prints REPEATS times per kernel, kernel after kernel. */
static const char *const kernels =
    "#id2 = affine_map<(d0, d1) -> (d0, d1)>\n"
    "#id1 = affine_map<(d0) -> (d0)>\n"
    "func.func private @rtclock() -> f64\n"
    "func.func private @printF64(f64)\n"
    "func.func private @printNewline()\n"
    "func.func @matmul(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) attributes {passthrough = [\"noinline\"]} {\n"
    "  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)\n"
    "  return\n}\n"
    "func.func @conv(%x: memref<1x64x30x30xf32>, %w: memref<64x64x3x3xf32>, %y: memref<1x64x28x28xf32>) attributes {passthrough = [\"noinline\"]} {\n"
    "  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}"
    " ins(%x, %w : memref<1x64x30x30xf32>, memref<64x64x3x3xf32>) outs(%y : memref<1x64x28x28xf32>)\n"
    "  return\n}\n"
    "func.func @stream(%x: memref<8388608xf32>, %y: memref<8388608xf32>) attributes {passthrough = [\"noinline\"]} {\n"
    "  %s = arith.constant 1.5 : f32\n"
    "  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = [\"parallel\"]}"
    " ins(%x : memref<8388608xf32>) outs(%y : memref<8388608xf32>) {\n"
    "  ^bb0(%i: f32, %o: f32):\n    %m = arith.mulf %i, %s : f32\n    linalg.yield %m : f32\n  }\n"
    "  return\n}\n"
    "#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>\n"
    "func.func @eltwise(%x: memref<1x64x32x32xf32>, %y: memref<1x64x32x32xf32>) attributes {passthrough = [\"noinline\"]} {\n"
    "  %m = arith.constant 0.25 : f32\n  %s = arith.constant 1.5 : f32\n  %z = arith.constant 0.0 : f32\n"
    "  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}"
    " ins(%x : memref<1x64x32x32xf32>) outs(%y : memref<1x64x32x32xf32>) {\n"
    "  ^bb0(%i: f32, %o: f32):\n    %a = arith.subf %i, %m : f32\n    %b = arith.mulf %a, %s : f32\n"
    "    %c = arith.mulf %b, %s : f32\n    %d = arith.addf %c, %m : f32\n"
    "    %e = arith.maximumf %d, %z : f32\n    linalg.yield %e : f32\n  }\n"
    "  return\n}\n"
    "#tr = affine_map<(d0, d1) -> (d1, d0)>\n"
    "func.func @transpose(%x: memref<2048x2048xf32>, %y: memref<2048x2048xf32>) attributes {passthrough = [\"noinline\"]} {\n"
    "  linalg.generic {indexing_maps = [#tr, #id2], iterator_types = [\"parallel\", \"parallel\"]}"
    " ins(%x : memref<2048x2048xf32>) outs(%y : memref<2048x2048xf32>) {\n"
    "  ^bb0(%i: f32, %o: f32):\n    linalg.yield %i : f32\n  }\n"
    "  return\n}\n";

static void emit_tiny(FILE *f) {
  fprintf(f, "func.func @tiny(%%t: memref<4xf32>) attributes {passthrough = [\"noinline\"]} {\n  %%v = arith.constant 1.0 : f32\n");
  for (int i = 0; i < TINY_OPS; i++)
    fprintf(f, "  linalg.fill ins(%%v : f32) outs(%%t : memref<4xf32>)\n");
  fprintf(f, "  return\n}\n");
  fprintf(f, "func.func @regions(%%t: memref<4xf32>) attributes {passthrough = [\"noinline\"]} {\n  %%v = arith.constant 1.0 : f32\n");
  for (int i = 0; i < ASYNC_REGIONS; i++)
    fprintf(f, "  %%k%d = async.execute {\n    linalg.fill ins(%%v : f32) outs(%%t : "
               "memref<4xf32>)\n    async.yield\n  }\n  async.await %%k%d : !async.token\n",
            i, i);
  fprintf(f, "  return\n}\n");
  /* A chain: each region waits on the previous one's token and hops back
   * to the pool, as op-materialize-streams' segments do; only the last is
   * awaited. */
  fprintf(f, "func.func @chain(%%t: memref<4xf32>) attributes {passthrough = [\"noinline\"]} {\n  %%v = arith.constant 1.0 : f32\n"
             "  %%k0 = async.execute {\n    linalg.fill ins(%%v : f32) outs(%%t : memref<4xf32>)\n    async.yield\n  }\n");
  for (int i = 1; i < ASYNC_REGIONS; i++)
    fprintf(f, "  %%k%d = async.execute [%%k%d] {\n    %%h = async.execute {\n      async.yield\n    }\n"
               "    async.await %%h : !async.token\n    linalg.fill ins(%%v : f32) outs(%%t : "
               "memref<4xf32>)\n    async.yield\n  }\n",
            i, i - 1);
  fprintf(f, "  async.await %%k%d : !async.token\n  return\n}\n", ASYNC_REGIONS - 1);
}

/* One region of the hand-off kernels: waits on `deps` (may be empty), hops
 * to the pool as op-materialize-streams' segments do, fills `buf`. */
static void emit_handoff_region(FILE *f, const char *name, const char *deps, const char *buf) {
  fprintf(f, "  %%%s = async.execute%s%s%s {\n", name, *deps ? " [" : "", deps, *deps ? "]" : "");
  if (*deps)
    fprintf(f, "    %%h = async.execute {\n      async.yield\n    }\n"
               "    async.await %%h : !async.token\n");
  fprintf(f, "    linalg.fill ins(%%v : f32) outs(%%%s : memref<%dxf32>)\n    async.yield\n  }\n",
          buf, HANDOFF_FLOATS);
}

/* @xchain: 2 x HANDOFF_STEPS regions on one stream, each waiting on the
 * previous one; @sync2: two streams of HANDOFF_STEPS regions, each region
 * waiting on both streams' previous regions (tokens in one order, as
 * op-materialize-streams lists them). A step of @sync2 beyond one region
 * of @xchain is one hand-off: the model charges handoff_ns on each
 * cross-stream wait and lets the two regions of a step run at once. */
static void emit_handoff(FILE *f) {
  char name[32], deps[64];
  fprintf(f, "func.func @xchain(%%t: memref<%dxf32>, %%u: memref<%dxf32>) attributes "
             "{passthrough = [\"noinline\"]} {\n  %%v = arith.constant 1.0 : f32\n",
          HANDOFF_FLOATS, HANDOFF_FLOATS);
  for (int i = 0; i < 2 * HANDOFF_STEPS; i++) {
    snprintf(name, sizeof name, "k%d", i);
    snprintf(deps, sizeof deps, i ? "%%k%d" : "", i - 1);
    emit_handoff_region(f, name, deps, i % 2 ? "t" : "u");
  }
  fprintf(f, "  async.await %%k%d : !async.token\n  return\n}\n", 2 * HANDOFF_STEPS - 1);
  fprintf(f, "func.func @sync2(%%t: memref<%dxf32>, %%u: memref<%dxf32>) attributes "
             "{passthrough = [\"noinline\"]} {\n  %%v = arith.constant 1.0 : f32\n",
          HANDOFF_FLOATS, HANDOFF_FLOATS);
  for (int i = 0; i < HANDOFF_STEPS; i++) {
    snprintf(deps, sizeof deps, i ? "%%a%d, %%b%d" : "", i - 1, i - 1);
    snprintf(name, sizeof name, "a%d", i);
    emit_handoff_region(f, name, deps, "t");
    snprintf(name, sizeof name, "b%d", i);
    emit_handoff_region(f, name, deps, "u");
  }
  fprintf(f, "  async.await %%a%d : !async.token\n  async.await %%b%d : !async.token\n"
             "  return\n}\n",
          HANDOFF_STEPS - 1, HANDOFF_STEPS - 1);
}

static void emit_timed(FILE *f, const char *call) {
  fprintf(f, "  scf.for %%i = %%c0 to %%cr step %%c1 {\n"
             "    %%t0 = func.call @rtclock() : () -> f64\n    %s\n"
             "    %%t1 = func.call @rtclock() : () -> f64\n"
             "    %%d = arith.subf %%t1, %%t0 : f64\n"
             "    func.call @printF64(%%d) : (f64) -> ()\n"
             "    func.call @printNewline() : () -> ()\n  }\n",
          call);
}

static void emit_main(FILE *f) {
  static const char *const bufs[][2] = {
      {"a", "256x256"}, {"b", "256x256"},   {"c", "256x256"}, {"x", "1x64x30x30"},
      {"w", "64x64x3x3"}, {"y", "1x64x28x28"}, {"p", "8388608"}, {"q", "8388608"},
      {"t", "4"}, {"e", "1x64x32x32"}, {"g", "1x64x32x32"}, {"u", "2048x2048"},
      {"v", "2048x2048"}, {"h", "16384"}, {"k", "16384"}};
  /* Returns 0: a native main's result is the process's exit status. */
  fprintf(f, "func.func @main() -> i32 {\n  %%c0 = arith.constant 0 : index\n"
             "  %%c1 = arith.constant 1 : index\n  %%cr = arith.constant %d : index\n"
             "  %%one = arith.constant 0.5 : f32\n",
          REPEATS);
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
    fprintf(f, "  %%%s = memref.alloc() : memref<%sxf32>\n"
               "  linalg.fill ins(%%one : f32) outs(%%%s : memref<%sxf32>)\n",
            bufs[i][0], bufs[i][1], bufs[i][0], bufs[i][1]);
  emit_timed(f, "func.call @matmul(%a, %b, %c) : (memref<256x256xf32>, memref<256x256xf32>, "
                "memref<256x256xf32>) -> ()");
  emit_timed(f, "func.call @conv(%x, %w, %y) : (memref<1x64x30x30xf32>, "
                "memref<64x64x3x3xf32>, memref<1x64x28x28xf32>) -> ()");
  emit_timed(f, "func.call @stream(%p, %q) : (memref<8388608xf32>, memref<8388608xf32>) -> ()");
  emit_timed(f, "func.call @tiny(%t) : (memref<4xf32>) -> ()");
  emit_timed(f, "func.call @regions(%t) : (memref<4xf32>) -> ()");
  emit_timed(f, "func.call @chain(%t) : (memref<4xf32>) -> ()");
  emit_timed(f, "func.call @eltwise(%e, %g) : (memref<1x64x32x32xf32>, memref<1x64x32x32xf32>) -> ()");
  emit_timed(f, "func.call @transpose(%u, %v) : (memref<2048x2048xf32>, memref<2048x2048xf32>) -> ()");
  emit_timed(f, "func.call @xchain(%h, %k) : (memref<16384xf32>, memref<16384xf32>) -> ()");
  emit_timed(f, "func.call @sync2(%h, %k) : (memref<16384xf32>, memref<16384xf32>) -> ()");
  fprintf(f, "  %%ok = arith.constant 0 : i32\n  return %%ok : i32\n}\n");
}

static int run(const char *cmd) {
  int r = system(cmd);
  if (r != 0)
    fprintf(stderr, "opsched-bench calibrate: failed: %s\n", cmd);
  return r != 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int read_times(const char *path, double best[KERNELS]);

/* Builds and runs the kernels in `dir`; fills the best times (seconds). */
static int measure(const char *dir, const char *llvm, double best[KERNELS]) {
  char path[1024], cmd[8192];
  snprintf(path, sizeof path, "%s/kernels.mlir", dir);
  FILE *f = fopen(path, "w");
  if (!f)
    return 1;
  fputs(kernels, f);
  emit_tiny(f);
  emit_handoff(f);
  emit_main(f);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "%s/bin/mlir-opt %s/kernels.mlir --async-to-async-runtime "
           "--async-runtime-ref-counting --async-runtime-ref-counting-opt "
           "--convert-linalg-to-loops --lower-affine --convert-scf-to-cf "
           "--expand-strided-metadata --convert-async-to-llvm --finalize-memref-to-llvm "
           "--convert-math-to-llvm --convert-arith-to-llvm --convert-index-to-llvm "
           "--convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts "
           "-o %s/k.ll.mlir && %s/bin/mlir-translate --mlir-to-llvmir %s/k.ll.mlir -o %s/k.ll && "
           "%s/bin/opt -O2 %s/k.ll -o %s/k.bc && %s/bin/llc -O2 -relocation-model=pic %s/k.bc "
           "-o %s/k.s && cc %s/k.s -o %s/k -L%s/lib -lmlir_async_runtime -lmlir_c_runner_utils "
           "-lmlir_runner_utils -Wl,-rpath,%s/lib && %s/k > %s/k.out",
           llvm, dir, dir, llvm, dir, dir, llvm, dir, dir, llvm, dir, dir, dir, dir, llvm, llvm,
           dir, dir);
  if (run(cmd))
    return 1;
  snprintf(path, sizeof path, "%s/k.out", dir);
  return read_times(path, best);
}

/* Reads the kernels' times (seconds, REPEATS per kernel, kernel after
 * kernel, as the kernels' main prints them) and keeps each one's fastest. */
static int read_times(const char *path, double best[KERNELS]) {
  FILE *f = fopen(path, "r");
  if (!f)
    return 1;
  double t[KERNELS][REPEATS];
  int ok = 1;
  for (int k = 0; k < KERNELS && ok; k++)
    for (int r = 0; r < REPEATS && ok; r++)
      ok = fscanf(f, "%lf", &t[k][r]) == 1;
  fclose(f);
  if (!ok)
    return 1;
  /* The fastest run: on a shared machine the others were interrupted. */
  for (int k = 0; k < KERNELS; k++) {
    qsort(t[k], REPEATS, sizeof t[k][0], cmp_double);
    best[k] = t[k][0];
  }
  return 0;
}

/* The profile from the kernels' best times (seconds). Rates in units
 * per ns = G-units per s. */
static void write_profile(FILE *f, const double best[KERNELS]) {
  double mm_flops = 2.0 * 256 * 256 * 256, conv_flops = 2.0 * 64 * 64 * 9 * 28 * 28;
  double stream_bytes = 2.0 * 8388608 * 4, elt_ops = 5.0 * 64 * 32 * 32;
  double mm_rate = mm_flops / (best[0] * 1e9), conv_rate = conv_flops / (best[1] * 1e9);
  /* Equal FLOPs of each: a model's reductions mix both shapes. */
  double flops = (mm_flops + conv_flops) / ((best[0] + best[1]) * 1e9);
  double bandwidth = stream_bytes / (best[2] * 1e9);
  double launch = best[3] * 1e9 / TINY_OPS, awaited = best[4] * 1e9 / ASYNC_REGIONS;
  double region = best[5] * 1e9 / ASYNC_REGIONS, elt = elt_ops / (best[6] * 1e9);
  long cores = sysconf(_SC_NPROCESSORS_ONLN), cache = sysconf(_SC_LEVEL2_CACHE_SIZE);
  /* A transpose's time beyond streaming its bytes: one miss per element. */
  double tr_elems = (double)TRANSPOSED * TRANSPOSED, tr_bytes = 2.0 * tr_elems * 4;
  double strided = (best[7] * 1e9 - tr_bytes / bandwidth) / tr_elems;
  /* A step of two streams that wait on each other, beyond one region. */
  double step = best[9] * 1e9 / HANDOFF_STEPS, chained = best[8] * 1e9 / (2 * HANDOFF_STEPS);
  double handoff = step - chained;
  fprintf(f, "# opsched device profile: opsched-bench calibrate (fastest of %d runs)\n"
             "# matmul 256^3: %.3f GFLOP/s; conv 64x64x3x3 on 28x28: %.3f GFLOP/s\n"
             "# elementwise 5 ops on 64x32x32: %.3f GFLOP/s; copy-scale 2 x 32 MiB: %.3f GB/s\n"
             "# async.execute region: %.0f ns chained, %.0f ns awaited one by one\n"
             "# transpose 2048^2: %.3f ns per element\n"
             "# hand-off: %.0f ns per step of two streams waiting on each other, %.0f ns "
             "per region of one stream (64 KiB fills)\n"
             "name calibrated\nflops_per_ns %.6f\nbytes_per_ns %.6f\nlaunch_ns %.0f\n"
             "elementwise_flops_per_ns %.6f\ncores %ld\nregion_ns %.0f\nstrided_ns %.3f\n"
             "cache_bytes %ld\nhandoff_ns %.0f\n",
          REPEATS, mm_rate, conv_rate, elt, bandwidth, region, awaited,
          best[7] * 1e9 / tr_elems, step, chained, flops, bandwidth, launch < 1 ? 1 : launch, elt,
          cores > 0 ? cores : 1, region, strided > 0 ? strided : 0,
          cache > 0 ? cache : 1048576L, handoff > 0 ? handoff : 0);
}

static int calibrate_here(const char *llvm, double best[KERNELS]);

int bench_calibrate(int argc, char **argv) {
  const char *out = "-", *llvm = "/usr/lib/llvm-22", *times = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc)
      out = argv[++i];
    else if (!strcmp(argv[i], "--times") && i + 1 < argc)
      times = argv[++i];
    else if (!strcmp(argv[i], "--llvm") && i + 1 < argc)
      llvm = argv[++i];
    else {
      fprintf(stderr, "usage: opsched-bench calibrate [-o PROFILE] [--llvm DIR] [--times FILE]\n");
      return 2;
    }
  }
  double best[KERNELS];
  int failed = times ? read_times(times, best) : calibrate_here(llvm, best);
  if (failed)
    return 1;
  FILE *f = strcmp(out, "-") ? fopen(out, "w") : stdout;
  if (!f)
    return 1;
  write_profile(f, best);
  if (f != stdout)
    fclose(f);
  return 0;
}

/* Measures in a fresh temporary directory (kept with OPSCHED_CALIBRATE_KEEP). */
static int calibrate_here(const char *llvm, double best[KERNELS]) {
  char dir[] = "/tmp/opsched-calibrate-XXXXXX";
  if (!mkdtemp(dir))
    return 1;
  int failed = measure(dir, llvm, best);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (getenv("OPSCHED_CALIBRATE_KEEP"))
    fprintf(stderr, "opsched-bench calibrate: kept %s\n", dir);
  else if (system(cmd) != 0)
    fprintf(stderr, "opsched-bench calibrate: could not remove %s\n", dir);
  return failed;
}
