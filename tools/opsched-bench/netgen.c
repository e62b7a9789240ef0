/* Network and random-DAG generators for opsched-bench memory. */
#include "netgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const netgen_networks[] = {"resnet50", "inception-v3", "bert-layer",
                                       "unet", NULL};

/* Ops are recorded first and turned into a graph at the end, because the
 * output flag of a buffer must be known when it is added. */
typedef struct op_rec {
  int64_t cost, out_bytes, weight_bytes;
  int32_t in[8];
  int nin;
} op_rec;

typedef struct net {
  op_rec *ops;
  int32_t n, cap;
  int64_t input_bytes;
} net;

/* Adds an op; inputs are op ids or -1 for the network input. */
static int32_t op(net *t, int64_t cost, int64_t out_bytes, int64_t weight_bytes,
                  int nin, const int32_t *in) {
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 64;
    op_rec *no = realloc(t->ops, sizeof *no * (size_t)t->cap);
    if (!no) {
      fprintf(stderr, "opsched-bench: out of memory\n");
      exit(1);
    }
    t->ops = no;
  }
  op_rec *r = &t->ops[t->n];
  memset(r, 0, sizeof *r);
  r->cost = cost > 0 ? cost : 1;
  r->out_bytes = out_bytes;
  r->weight_bytes = weight_bytes;
  r->nin = nin;
  memcpy(r->in, in, sizeof *in * (size_t)nin);
  return t->n++;
}

static int finish(net *t, const char *name, netgen_block *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%s", name);
  out->graph = opsched_graph_create((size_t)t->n);
  out->buffers = opsched_buffers_create(t->n);
  uint8_t *used = calloc((size_t)t->n + 1, 1);
  if (!out->graph || !out->buffers || !used)
    return 1;
  for (int32_t v = 0; v < t->n; v++) {
    opsched_graph_add_node(out->graph, t->ops[v].cost, 1);
    for (int i = 0; i < t->ops[v].nin; i++)
      if (t->ops[v].in[i] >= 0)
        used[t->ops[v].in[i]] = 1;
  }
  int32_t input = -1;
  if (t->input_bytes > 0)
    input = opsched_buffers_add(out->buffers, t->input_bytes, -1, 0);
  /* Op v's output is buffer first_out + v; results are ops nobody reads. */
  int32_t first_out = opsched_buffers_count(out->buffers);
  for (int32_t v = 0; v < t->n; v++)
    opsched_buffers_add(out->buffers, t->ops[v].out_bytes, v, !used[v]);
  for (int32_t v = 0; v < t->n; v++) {
    const op_rec *r = &t->ops[v];
    for (int i = 0; i < r->nin; i++) {
      if (r->in[i] < 0) {
        if (input >= 0)
          opsched_buffers_add_use(out->buffers, input, v);
        continue;
      }
      opsched_graph_add_edge(out->graph, r->in[i], v);
      opsched_buffers_add_use(out->buffers, first_out + r->in[i], v);
    }
    if (r->weight_bytes > 0) {
      int32_t w = opsched_buffers_add(out->buffers, r->weight_bytes, -1, 0);
      opsched_buffers_add_use(out->buffers, w, v);
    }
  }
  free(used);
  free(t->ops);
  t->ops = NULL;
  return opsched_graph_finalize(out->graph) != OPSCHED_OK;
}

void netgen_free(netgen_block *b) {
  opsched_graph_destroy(b->graph);
  opsched_buffers_destroy(b->buffers);
  memset(b, 0, sizeof *b);
}

/* ---- Layers (NCHW f32) ----------------------------------------------- */

typedef struct tensor {
  int32_t id; /* producing op, -1 = network input */
  int64_t n, c, h, w;
} tensor;

static int64_t numel(tensor x) { return x.n * x.c * x.h * x.w; }

static tensor conv(net *t, tensor x, int64_t cout, int64_t kh, int64_t kw,
                   int64_t stride) {
  tensor y = {0, x.n, cout, (x.h + stride - 1) / stride, (x.w + stride - 1) / stride};
  int64_t flops = 2 * numel(y) * x.c * kh * kw;
  y.id = op(t, flops / 1000, numel(y) * 4, cout * x.c * kh * kw * 4, 1, &x.id);
  return y;
}

/* Element-wise op over 1 or 2 inputs of x's shape (relu, add, ...). */
static tensor eltwise(net *t, tensor x, const tensor *other) {
  int32_t in[2] = {x.id, other ? other->id : 0};
  tensor y = x;
  y.id = op(t, numel(x) / 1000, numel(x) * 4, 0, other ? 2 : 1, in);
  return y;
}

static tensor conv_relu(net *t, tensor x, int64_t cout, int64_t kh, int64_t kw,
                        int64_t stride) {
  return eltwise(t, conv(t, x, cout, kh, kw, stride), NULL);
}

static tensor pool(net *t, tensor x, int64_t stride) {
  tensor y = {0, x.n, x.c, (x.h + stride - 1) / stride, (x.w + stride - 1) / stride};
  y.id = op(t, numel(x) / 1000, numel(y) * 4, 0, 1, &x.id);
  return y;
}

static tensor concat(net *t, const tensor *xs, int k) {
  tensor y = xs[0];
  int32_t in[8];
  y.c = 0;
  for (int i = 0; i < k; i++) {
    y.c += xs[i].c;
    in[i] = xs[i].id;
  }
  y.id = op(t, numel(y) / 1000, numel(y) * 4, 0, k, in);
  return y;
}

static tensor upsample(net *t, tensor x, int64_t cout) {
  /* 2x2 transposed convolution. */
  tensor y = {0, x.n, cout, x.h * 2, x.w * 2};
  y.id = op(t, 2 * numel(y) * x.c * 4 / 1000, numel(y) * 4, cout * x.c * 16, 1, &x.id);
  return y;
}

static void resnet50(net *t) {
  tensor x = {-1, 8, 3, 224, 224};
  t->input_bytes = numel(x) * 4;
  x = pool(t, conv_relu(t, x, 64, 7, 7, 2), 2);
  static const int blocks[4] = {3, 4, 6, 3};
  int64_t width = 64;
  for (int s = 0; s < 4; s++, width *= 2)
    for (int b = 0; b < blocks[s]; b++) {
      int64_t stride = (b == 0 && s > 0) ? 2 : 1;
      tensor y = conv_relu(t, x, width, 1, 1, 1);
      y = conv_relu(t, y, width, 3, 3, stride);
      y = conv(t, y, width * 4, 1, 1, 1);
      tensor sc = b == 0 ? conv(t, x, width * 4, 1, 1, stride) : x;
      x = eltwise(t, eltwise(t, y, &sc), NULL);
    }
  x = pool(t, x, 7);
  tensor fc = {0, x.n, 1000, 1, 1};
  op(t, 2 * x.n * x.c * 1000 / 1000, numel(fc) * 4, x.c * 1000 * 4, 1, &x.id);
}

static void inception_v3(net *t) {
  tensor x = {-1, 8, 3, 299, 299};
  t->input_bytes = numel(x) * 4;
  x = conv_relu(t, x, 32, 3, 3, 2);
  x = conv_relu(t, x, 64, 3, 3, 1);
  x = pool(t, x, 2);
  x = conv_relu(t, x, 192, 3, 3, 1);
  x = pool(t, x, 2); /* 35x35 */
  for (int i = 0; i < 3; i++) { /* Inception-A */
    tensor b[4];
    b[0] = conv_relu(t, x, 64, 1, 1, 1);
    b[1] = conv_relu(t, conv_relu(t, x, 48, 1, 1, 1), 64, 5, 5, 1);
    b[2] = conv_relu(t, conv_relu(t, conv_relu(t, x, 64, 1, 1, 1), 96, 3, 3, 1), 96, 3, 3, 1);
    b[3] = conv_relu(t, pool(t, x, 1), 32 + 32 * (i > 0), 1, 1, 1);
    x = concat(t, b, 4);
  }
  { /* Reduction-A to 17x17 */
    tensor b[3];
    b[0] = conv_relu(t, x, 384, 3, 3, 2);
    b[1] = conv_relu(t, conv_relu(t, conv_relu(t, x, 64, 1, 1, 1), 96, 3, 3, 1), 96, 3, 3, 2);
    b[2] = pool(t, x, 2);
    x = concat(t, b, 3);
  }
  for (int i = 0; i < 4; i++) { /* Inception-B with factorised 7x7 */
    int64_t c7 = i == 0 ? 128 : 160;
    tensor b[4];
    b[0] = conv_relu(t, x, 192, 1, 1, 1);
    tensor y = conv_relu(t, x, c7, 1, 1, 1);
    y = conv_relu(t, y, c7, 1, 7, 1);
    b[1] = conv_relu(t, y, 192, 7, 1, 1);
    y = conv_relu(t, x, c7, 1, 1, 1);
    y = conv_relu(t, y, c7, 7, 1, 1);
    y = conv_relu(t, y, c7, 1, 7, 1);
    y = conv_relu(t, y, c7, 7, 1, 1);
    b[2] = conv_relu(t, y, 192, 1, 7, 1);
    b[3] = conv_relu(t, pool(t, x, 1), 192, 1, 1, 1);
    x = concat(t, b, 4);
  }
  { /* Reduction-B to 8x8 */
    tensor b[3];
    b[0] = conv_relu(t, conv_relu(t, x, 192, 1, 1, 1), 320, 3, 3, 2);
    tensor y = conv_relu(t, x, 192, 1, 1, 1);
    y = conv_relu(t, conv_relu(t, y, 192, 1, 7, 1), 192, 7, 1, 1);
    b[1] = conv_relu(t, y, 192, 3, 3, 2);
    b[2] = pool(t, x, 2);
    x = concat(t, b, 3);
  }
  for (int i = 0; i < 2; i++) { /* Inception-C with split branches */
    tensor b[6];
    b[0] = conv_relu(t, x, 320, 1, 1, 1);
    tensor y = conv_relu(t, x, 384, 1, 1, 1);
    b[1] = conv_relu(t, y, 384, 1, 3, 1);
    b[2] = conv_relu(t, y, 384, 3, 1, 1);
    y = conv_relu(t, conv_relu(t, x, 448, 1, 1, 1), 384, 3, 3, 1);
    b[3] = conv_relu(t, y, 384, 1, 3, 1);
    b[4] = conv_relu(t, y, 384, 3, 1, 1);
    b[5] = conv_relu(t, pool(t, x, 1), 192, 1, 1, 1);
    x = concat(t, b, 6);
  }
  x = pool(t, x, 8);
  tensor fc = {0, x.n, 1000, 1, 1};
  op(t, 2 * x.n * x.c * 1000 / 1000, numel(fc) * 4, x.c * 1000 * 4, 1, &x.id);
}

/* One BERT-base encoder layer: batch 8, sequence 512, hidden 768, 12 heads,
 * FFN 3072. Matmuls read resident weights; transposes are real ops. */
static void bert_layer(net *t) {
  const int64_t B = 8, S = 512, H = 768, NH = 12, F = 3072;
  const int64_t act = B * S * H * 4, scores = B * NH * S * S * 4, ffn = B * S * F * 4;
  t->input_bytes = act;
  int32_t x = -1, in[2];
  int32_t q = op(t, 2 * B * S * H * H / 1000, act, H * H * 4, 1, &x);
  int32_t k = op(t, 2 * B * S * H * H / 1000, act, H * H * 4, 1, &x);
  int32_t v = op(t, 2 * B * S * H * H / 1000, act, H * H * 4, 1, &x);
  int32_t qh = op(t, act / 4000, act, 0, 1, &q);  /* split heads */
  int32_t kt = op(t, act / 4000, act, 0, 1, &k);  /* split + transpose */
  int32_t vh = op(t, act / 4000, act, 0, 1, &v);
  in[0] = qh, in[1] = kt;
  int32_t s = op(t, 2 * B * NH * S * S * (H / NH) / 1000, scores, 0, 2, in);
  int32_t sc = op(t, scores / 4000, scores, 0, 1, &s); /* scale + mask */
  int32_t p = op(t, 5 * scores / 4000, scores, 0, 1, &sc); /* softmax */
  in[0] = p, in[1] = vh;
  int32_t ctx = op(t, 2 * B * NH * S * S * (H / NH) / 1000, act, 0, 2, in);
  int32_t merged = op(t, act / 4000, act, 0, 1, &ctx);
  int32_t o = op(t, 2 * B * S * H * H / 1000, act, H * H * 4, 1, &merged);
  in[0] = o, in[1] = x;
  int32_t r1 = op(t, act / 4000, act, 0, 2, in);
  int32_t ln1 = op(t, 8 * act / 4000, act, 2 * H * 4, 1, &r1);
  int32_t f1 = op(t, 2 * B * S * H * F / 1000, ffn, H * F * 4, 1, &ln1);
  int32_t gelu = op(t, 8 * ffn / 4000, ffn, 0, 1, &f1);
  int32_t f2 = op(t, 2 * B * S * H * F / 1000, act, H * F * 4, 1, &gelu);
  in[0] = f2, in[1] = ln1;
  int32_t r2 = op(t, act / 4000, act, 0, 2, in);
  op(t, 8 * act / 4000, act, 2 * H * 4, 1, &r2);
}

static void unet(net *t) {
  tensor x = {-1, 4, 3, 256, 256};
  t->input_bytes = numel(x) * 4;
  tensor skip[4];
  int64_t c = 64;
  for (int l = 0; l < 4; l++, c *= 2) {
    x = conv_relu(t, conv_relu(t, x, c, 3, 3, 1), c, 3, 3, 1);
    skip[l] = x;
    x = pool(t, x, 2);
  }
  x = conv_relu(t, conv_relu(t, x, c, 3, 3, 1), c, 3, 3, 1);
  for (int l = 3; l >= 0; l--) {
    c /= 2;
    tensor parts[2] = {skip[l], upsample(t, x, c)};
    x = concat(t, parts, 2);
    x = conv_relu(t, conv_relu(t, x, c, 3, 3, 1), c, 3, 3, 1);
  }
  conv(t, x, 2, 1, 1, 1);
}

int netgen_network(const char *name, netgen_block *out) {
  net t = {0};
  if (!strcmp(name, "resnet50"))
    resnet50(&t);
  else if (!strcmp(name, "inception-v3"))
    inception_v3(&t);
  else if (!strcmp(name, "bert-layer"))
    bert_layer(&t);
  else if (!strcmp(name, "unet"))
    unet(&t);
  else
    return 1;
  return finish(&t, name, out);
}

static uint64_t next_rand(uint64_t *s) {
  *s += 0x9e3779b97f4a7c15ull;
  uint64_t z = *s;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int netgen_random(uint64_t seed, int32_t nodes, netgen_block *out) {
  net t = {0};
  uint64_t s = seed;
  int32_t width = 2 + (int32_t)(next_rand(&s) % 6);
  /* Layers start at l2 (two back), l1 (previous) and cur; -1 = none yet. */
  int32_t l2 = -1, l1 = -1;
  t.input_bytes = 4 << 20;
  while (t.n < nodes) {
    int32_t cur = t.n, w = 1 + (int32_t)(next_rand(&s) % (uint64_t)width);
    for (int32_t i = 0; i < w && t.n < nodes; i++) {
      int32_t in[3];
      int nin = 0;
      if (l1 < 0) {
        in[nin++] = -1;
      } else {
        int want = 1 + (int)(next_rand(&s) % 3);
        int32_t lo = l2 >= 0 ? l2 : l1;
        for (int j = 0; j < want; j++) {
          int32_t c = lo + (int32_t)(next_rand(&s) % (uint64_t)(cur - lo));
          int dup = 0;
          for (int q = 0; q < nin; q++)
            dup |= in[q] == c;
          if (!dup)
            in[nin++] = c;
        }
      }
      /* 16 KiB .. 64 MiB, log-uniform over 12 octaves. */
      int64_t bytes = (int64_t)16384 << (next_rand(&s) % 13);
      bytes += (int64_t)(next_rand(&s) % (uint64_t)bytes);
      int64_t weight = next_rand(&s) % 2 ? bytes / 4 : 0;
      op(&t, bytes / 1000 + 1, bytes, weight, nin, in);
    }
    l2 = l1;
    l1 = cur;
  }
  char name[48];
  snprintf(name, sizeof name, "random-%d-s%llu", (int)nodes, (unsigned long long)seed);
  return finish(&t, name, out);
}
