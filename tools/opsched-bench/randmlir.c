/* opsched-bench random-mlir: random but valid modules of tensor ops, for
 * the property test that runs op-schedule and then the independent checker
 * (op-schedule-verify) on thousands of random blocks.
 *
 * Each function has ops of three kinds over a few tensor shapes: unary and
 * binary elementwise ops (fresh buffers), destination-passing linalg ops
 * into a tensor.empty or into a value's last use (in place), and views
 * (extract_slice / expand_shape of a value). Costs are random through
 * opsched.cost so the schedules differ. Deterministic for a seed. */
#include "bench.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int pick(uint64_t *s, int n) { return (int)(next_rand(s) % (uint64_t)n); }

enum { SHAPES = 3 };
static const int shape_len[SHAPES] = {16, 64, 256};

typedef struct value {
  int id;    /* %vN */
  int shape; /* index into shape_len */
} value;

/* `ops` random steps, each writing one op (elementwise, DPS in place) or
 * two (tensor.empty + linalg, extract_slice + use) or, for a view of the
 * smallest shape, none; plus three leading ops and the return. */
static int write_function(FILE *f, int fn, int ops, uint64_t *s, int64_t *written) {
  value *vals = malloc(sizeof *vals * ((size_t)ops + SHAPES));
  int nvals = 0;
  if (!vals)
    return -1;
  fprintf(f, "func.func @f%d(", fn);
  for (int k = 0; k < SHAPES; k++)
    fprintf(f, "%s%%a%d: tensor<%dxf32>", k ? ", " : "", k, shape_len[k]);
  fprintf(f, ") -> (");
  for (int k = 0; k < SHAPES; k++)
    fprintf(f, "%stensor<%dxf32>", k ? ", " : "", shape_len[k]);
  fprintf(f, ") {\n");
  int next = 0;
  for (int k = 0; k < SHAPES; k++) {
    (*written)++;
    fprintf(f, "  %%v%d = math.exp %%a%d {opsched.cost = %d} : tensor<%dxf32>\n", next, k,
            1 + pick(s, 9), shape_len[k]);
    vals[nvals++] = (value){next++, k};
  }
  for (int i = 0; i < ops; i++) {
    value a = vals[pick(s, nvals)];
    int cost = 1 + pick(s, 9);
    int kind = pick(s, 6);
    int len = shape_len[a.shape];
    if (kind <= 1) { /* unary elementwise */
      static const char *const unary[] = {"math.exp", "math.sqrt", "math.absf", "math.tanh"};
      (*written)++;
      fprintf(f, "  %%v%d = %s %%v%d {opsched.cost = %d} : tensor<%dxf32>\n", next,
              unary[pick(s, 4)], a.id, cost, len);
      vals[nvals++] = (value){next++, a.shape};
    } else if (kind == 2) { /* binary elementwise on two values of one shape */
      value b = vals[pick(s, nvals)];
      for (int t = 0; t < 8 && b.shape != a.shape; t++)
        b = vals[pick(s, nvals)];
      if (b.shape != a.shape)
        b = a;
      (*written)++;
      fprintf(f, "  %%v%d = arith.addf %%v%d, %%v%d {opsched.cost = %d} : tensor<%dxf32>\n",
              next, a.id, b.id, cost, len);
      vals[nvals++] = (value){next++, a.shape};
    } else if (kind == 3) { /* DPS into a fresh tensor.empty */
      (*written)++;
      fprintf(f, "  %%e%d = tensor.empty() : tensor<%dxf32>\n", next, len);
      (*written)++;
      fprintf(f,
              "  %%v%d = linalg.exp ins(%%v%d : tensor<%dxf32>) outs(%%e%d : tensor<%dxf32>) "
              "{opsched.cost = %d} -> tensor<%dxf32>\n",
              next, a.id, len, next, len, cost, len);
      vals[nvals++] = (value){next++, a.shape};
    } else if (kind == 4) { /* DPS into an existing value (in place if last use) */
      value b = vals[pick(s, nvals)];
      for (int t = 0; t < 8 && b.shape != a.shape; t++)
        b = vals[pick(s, nvals)];
      if (b.shape != a.shape)
        b = a;
      (*written)++;
      fprintf(f,
              "  %%v%d = linalg.add ins(%%v%d, %%v%d : tensor<%dxf32>, tensor<%dxf32>) "
              "outs(%%v%d : tensor<%dxf32>) {opsched.cost = %d} -> tensor<%dxf32>\n",
              next, a.id, a.id, len, len, b.id, len, cost, len);
      vals[nvals++] = (value){next++, a.shape};
    } else if (a.shape > 0) { /* a view: the first elements, then a use */
      int to = a.shape - 1, tl = shape_len[to];
      (*written)++;
      fprintf(f,
              "  %%s%d = tensor.extract_slice %%v%d[0] [%d] [1] : tensor<%dxf32> to "
              "tensor<%dxf32>\n",
              next, a.id, tl, len, tl);
      (*written)++;
      fprintf(f, "  %%v%d = math.sin %%s%d {opsched.cost = %d} : tensor<%dxf32>\n", next,
              next, cost, tl);
      vals[nvals++] = (value){next++, to};
    }
  }
  /* Return the last value of each shape. */
  fprintf(f, "  return");
  for (int k = 0; k < SHAPES; k++) {
    int id = -1;
    for (int i = nvals - 1; i >= 0 && id < 0; i--)
      if (vals[i].shape == k)
        id = vals[i].id;
    fprintf(f, "%s %%v%d", k ? "," : "", id);
  }
  fprintf(f, " : ");
  for (int k = 0; k < SHAPES; k++)
    fprintf(f, "%stensor<%dxf32>", k ? ", " : "", shape_len[k]);
  fprintf(f, "\n}\n");
  free(vals);
  return 0;
}

int bench_random_mlir(int argc, char **argv) {
  uint64_t seed = 1;
  int functions = 10, ops = 30;
  const char *out = NULL;
  for (int i = 0; i < argc; i++) {
    int more = i + 1 < argc;
    if (!strcmp(argv[i], "--seed") && more)
      seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--functions") && more)
      functions = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--ops") && more)
      ops = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-o") && more)
      out = argv[++i];
    else {
      fprintf(stderr, "usage: opsched-bench random-mlir [--seed S] [--functions N] "
                      "[--ops N] [-o FILE]\n"
                      "  --ops N: random steps per function (no cap); a step writes 0-2 "
                      "ops, about 1.3 on average;\n  the module ends with a comment "
                      "giving the op count\n");
      return 2;
    }
  }
  if (functions < 1 || ops < 0) {
    fprintf(stderr, "opsched-bench: --functions must be >= 1 and --ops >= 0\n");
    return 2;
  }
  FILE *f = out ? fopen(out, "w") : stdout;
  if (!f) {
    fprintf(stderr, "opsched-bench: cannot write %s\n", out);
    return 1;
  }
  uint64_t s = seed;
  int64_t written = 0;
  for (int fn = 0; fn < functions; fn++)
    if (write_function(f, fn, ops, &s, &written) != 0) {
      fprintf(stderr, "opsched-bench: out of memory\n");
      return 1;
    }
  /* Say exactly what was made: --ops counts steps, not ops. */
  fprintf(f, "// opsched-bench random-mlir: %d functions, %" PRId64
             " ops (+1 return each), %d steps per function\n", functions, written, ops);
  if (out)
    fclose(f);
  return 0;
}
