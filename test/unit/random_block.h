/* test/unit/random_block.h - a seeded random block (DAG + buffers) for the
 * property tests. Uses only the graph and buffer APIs, so a schedule hash
 * over these blocks can be computed by any version of the core. */
#ifndef OPSCHED_TEST_RANDOM_BLOCK_H
#define OPSCHED_TEST_RANDOM_BLOCK_H

#include "opsched/graph.h"
#include "opsched/memory.h"
#include "opsched/schedule.h"

#include <stdint.h>

enum { RB_MAXN = 24, RB_MAXB = 2 * RB_MAXN + 1 };

typedef struct random_block {
  opsched_graph *g;
  opsched_buffers *b;
  /* A shadow of the buffers, for independent checks (owner -1: resident). */
  int nb;
  int64_t size[RB_MAXB];
  int owner[RB_MAXB], forever[RB_MAXB], nusers[RB_MAXB];
  int users[RB_MAXB][RB_MAXN];
  int n;
  int max_demand;
  int positive;  /* every cost >= 1 */
  int all_edges; /* every buffer use is also a graph edge */
} random_block;

static uint64_t rb_next(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* Builds block number `index` (any value) with 1..maxn ops (maxn <=
 * RB_MAXN); `one_size`: every buffer of the block that is not empty has
 * 48 bytes (the same random draws otherwise). */
static void random_block_make_sized(uint64_t index, int maxn, int one_size,
                                    random_block *k) {
  uint64_t st = 0x9e3779b97f4a7c15u ^ (index * 0xbf58476d1ce4e5b9u);
  if (st == 0)
    st = 1;
  for (int i = 0; i < 4; i++)
    rb_next(&st);
  int n = 1 + (int)(rb_next(&st) % (uint64_t)maxn);
  int density = 5 + (int)(rb_next(&st) % 40); /* percent */
  k->n = n;
  k->nb = 0;
  k->max_demand = 1 + (int)(rb_next(&st) % 3);
  k->positive = rb_next(&st) % 3 == 0;
  k->all_edges = rb_next(&st) % 2 == 0;
  k->g = opsched_graph_create((size_t)n);
  k->b = opsched_buffers_create(n);
  for (int v = 0; v < n; v++) {
    int64_t c = (int64_t)(rb_next(&st) % 7);
    if (rb_next(&st) % 4 == 0)
      c = 0;
    if (k->positive && c == 0)
      c = 1 + (int64_t)(rb_next(&st) % 3);
    opsched_graph_add_node(
        k->g, c, 1 + (int32_t)(rb_next(&st) % (uint64_t)k->max_demand));
  }
  for (int u = 0; u < n; u++)
    for (int v = u + 1; v < n; v++)
      if ((int)(rb_next(&st) % 100) < density)
        opsched_graph_add_edge(k->g, u, v);
  for (int v = 0; v < n; v++) {
    int outs = (int)(rb_next(&st) % 3);
    for (int o = 0; o < outs; o++) {
      int64_t bytes = (int64_t)(rb_next(&st) % 100);
      if (rb_next(&st) % 8 == 0)
        bytes *= 37;
      if (one_size && bytes > 0)
        bytes = 48;
      int forever = rb_next(&st) % 6 == 0;
      int32_t id = opsched_buffers_add(k->b, bytes, v, forever);
      int kb = k->nb++;
      k->size[kb] = bytes;
      k->owner[kb] = v;
      k->forever[kb] = forever;
      k->nusers[kb] = 0;
      for (int u = v + 1; u < n; u++)
        if (rb_next(&st) % 3 == 0) {
          opsched_buffers_add_use(k->b, id, u);
          k->users[kb][k->nusers[kb]++] = u;
          if (k->all_edges || rb_next(&st) % 2 == 0)
            opsched_graph_add_edge(k->g, v, u);
        }
    }
  }
  if (rb_next(&st) % 4 == 0) { /* a resident input read by the first op */
    int64_t bytes = 1 + (int64_t)(rb_next(&st) % 1000);
    int32_t id = opsched_buffers_add(k->b, bytes, -1, 0);
    opsched_buffers_add_use(k->b, id, 0);
    int kb = k->nb++;
    k->size[kb] = bytes;
    k->owner[kb] = -1;
    k->forever[kb] = 0;
    k->nusers[kb] = 1;
    k->users[kb][0] = 0;
  }
  opsched_graph_finalize(k->g);
}

static void random_block_make(uint64_t index, int maxn, random_block *k) {
  random_block_make_sized(index, maxn, 0, k);
}

static void random_block_free(random_block *k) {
  opsched_graph_destroy(k->g);
  opsched_buffers_destroy(k->b);
}

/* FNV-1a over 64-bit words. */
static void rb_hash(uint64_t *h, uint64_t x) {
  for (int i = 0; i < 8; i++) {
    *h ^= (x >> (8 * i)) & 0xff;
    *h *= 0x100000001b3u;
  }
}

/* Hash of the schedules (starts, ends, streams, order, waits) of blocks
 * 0..count-1 without buffers, over streams 1..4, both priorities, effort 0
 * and (every 8th block) 1. */
static uint64_t random_blocks_plain_hash(int count, int maxn) {
  uint64_t h = 0xcbf29ce484222325u;
  for (int i = 0; i < count; i++) {
    random_block k;
    random_block_make((uint64_t)i, maxn, &k);
    for (int streams = 1; streams <= 4; streams++)
      for (int cfg = 0; cfg < 3; cfg++) {
        if (cfg == 2 && i % 8 != 0)
          continue;
        opsched_schedule_options o;
        opsched_schedule_options_init(&o);
        o.streams = streams;
        o.resource_limit = streams > k.max_demand ? streams : k.max_demand;
        o.priority = cfg == 1 ? OPSCHED_PRIORITY_PROGRAM_ORDER
                              : OPSCHED_PRIORITY_CRITICAL_PATH;
        o.effort = cfg == 2;
        opsched_schedule *s = NULL;
        if (opsched_schedule_run(k.g, &o, &s) != OPSCHED_OK) {
          rb_hash(&h, 0xdead);
          continue;
        }
        for (int v = 0; v < k.n; v++) {
          int32_t nw;
          const int32_t *w = opsched_schedule_waits(s, v, &nw);
          rb_hash(&h, (uint64_t)opsched_schedule_starts(s)[v]);
          rb_hash(&h, (uint64_t)opsched_schedule_ends(s)[v]);
          rb_hash(&h, (uint64_t)opsched_schedule_streams(s)[v]);
          rb_hash(&h, (uint64_t)opsched_schedule_order(s)[v]);
          for (int a = 0; a < nw; a++)
            rb_hash(&h, (uint64_t)w[a]);
        }
        opsched_schedule_destroy(s);
      }
    random_block_free(&k);
  }
  return h;
}

#endif
