/* Unit tests of the frontier layer (opsched/frontier.h): the exact choice on
 * a small block, and a seeded property test over random blocks (tolerance,
 * peak, limits of the peak and the arena, bounded runs, fastest within a
 * limit). */
#include "check.h"
#include "opsched/frontier.h"
#include "random_block.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

static int32_t buf(opsched_buffers *b, int64_t bytes, int32_t owner, int forever, ...) {
  int32_t id = opsched_buffers_add(b, bytes, owner, forever);
  va_list ap;
  va_start(ap, forever);
  for (int u = va_arg(ap, int); u >= 0; u = va_arg(ap, int))
    opsched_buffers_add_use(b, id, u);
  va_end(ap);
  return id;
}

/* a1 (1000 ns) writes 1000 B read by a2 (1 ns, 8 B result); b1 (1 ns) writes
 * 1000 B read by b2 (1 ns, 8 B result). As test/Passes/op-schedule-frontier.mlir. */
static void two_chains(opsched_graph **g, opsched_buffers **b) {
  static const int64_t costs[] = {1000, 1, 1, 1};
  *g = opsched_graph_create(4);
  for (int i = 0; i < 4; i++)
    opsched_graph_add_node(*g, costs[i], 1);
  *b = opsched_buffers_create(4);
  buf(*b, 1000, 0, 0, 1, -1);
  buf(*b, 8, 1, 1, -1);
  buf(*b, 1000, 2, 0, 3, -1);
  buf(*b, 8, 3, 1, -1);
  opsched_graph_finalize(*g);
}

static opsched_frontier_result choose(const opsched_graph *g, const opsched_buffers *b,
                                      int streams, opsched_memory_policy policy,
                                      int64_t limit, double tolerance, int64_t alignment) {
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.streams = streams;
  o.buffers = b;
  o.memory_policy = policy;
  o.max_memory = limit;
  opsched_frontier_options f;
  opsched_frontier_options_init(&f);
  f.makespan_tolerance = tolerance;
  f.pack_arena = alignment > 0;
  f.alignment = alignment > 0 ? alignment : 64;
  opsched_frontier_result r;
  CHECK(opsched_frontier_schedule(g, &o, &f, &r) == OPSCHED_OK);
  return r;
}

static void release(opsched_frontier_result *r) {
  opsched_schedule_destroy(r->schedule);
  opsched_arena_destroy(r->arena);
}

static void test_two_chains(void) {
  opsched_graph *g;
  opsched_buffers *b;
  two_chains(&g, &b);
  /* Default: b waits for a's chain, 0.2% slower, half the peak, one stream. */
  opsched_frontier_result r = choose(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 0, 0.01, 0);
  CHECK_EQ_I64(opsched_schedule_makespan(r.schedule), 1003);
  CHECK_EQ_I64(opsched_schedule_peak_memory(r.schedule), 1016);
  CHECK_EQ_I64(r.unconstrained_makespan, 1001);
  CHECK_EQ_I64(r.unconstrained_peak, 2008);
  CHECK_EQ_I64(r.floor_peak, 1016);
  CHECK_EQ_I64(opsched_schedule_streams_used(r.schedule), 1);
  CHECK(r.runs <= 9);
  /* The points: the unconstrained one first, the chosen one among them. */
  CHECK(r.num_points >= 2 && r.chosen > 0 && r.chosen < r.num_points);
  CHECK_EQ_I64(r.point_makespan[0], 1001);
  CHECK_EQ_I64(r.point_peak[0], 2008);
  CHECK_EQ_I64(r.point_makespan[r.chosen], 1003);
  CHECK_EQ_I64(r.point_peak[r.chosen], 1016);
  release(&r);
  /* No tolerance: the fastest. */
  r = choose(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 0, 0.0, 0);
  CHECK_EQ_I64(opsched_schedule_makespan(r.schedule), 1001);
  CHECK_EQ_I64(opsched_schedule_peak_memory(r.schedule), 2008);
  CHECK_EQ_I64(opsched_schedule_streams_used(r.schedule), 2);
  release(&r);
  /* min-memory on two streams: lowest peak, then makespan. */
  r = choose(g, b, 2, OPSCHED_MEMORY_MIN_MEMORY, 0, 0.01, 0);
  CHECK_EQ_I64(opsched_schedule_peak_memory(r.schedule), 1016);
  CHECK_EQ_I64(opsched_schedule_makespan(r.schedule), 1003);
  release(&r);
  /* A limit the peak meets but a 64-byte aligned arena cannot: the two
   * 8-byte results and a 1000-byte buffer, at 64-byte offsets, need at
   * least 64 + 1024 + 8 = 1096 bytes (an 8-byte one on top). */
  r = choose(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 1095, 0.01, 64);
  CHECK(r.memory_limit_met);
  CHECK(!r.arena_limit_met);
  CHECK_EQ_I64(opsched_arena_size(r.arena), 1096);
  release(&r);
  /* 1096 fits: the arena ends at its top buffer's unaligned end (it was
   * 1152 when every buffer counted at its aligned size). */
  r = choose(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 1096, 0.01, 64);
  CHECK(r.memory_limit_met && r.arena_limit_met);
  CHECK_EQ_I64(opsched_arena_size(r.arena), 1096);
  CHECK_EQ_I64(opsched_schedule_peak_memory(r.schedule), 1016);
  release(&r);
  /* At 8 bytes it fits exactly. */
  r = choose(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 1016, 0.01, 8);
  CHECK(r.memory_limit_met && r.arena_limit_met);
  CHECK_EQ_I64(opsched_arena_size(r.arena), 1016);
  CHECK_EQ_I64(opsched_schedule_makespan(r.schedule), 1003);
  release(&r);
  /* A loose limit: the unconstrained schedule is the fastest within it. */
  r = choose(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 4096, 0.01, 64);
  CHECK_EQ_I64(opsched_schedule_makespan(r.schedule), 1001);
  CHECK(r.arena_limit_met && opsched_arena_size(r.arena) <= 4096);
  release(&r);
  /* One stream: one run, no frontier figures. */
  r = choose(g, b, 1, OPSCHED_MEMORY_CRITICAL_PATH, 0, 0.01, 0);
  CHECK_EQ_I64(r.runs, 1);
  CHECK_EQ_I64(r.unconstrained_makespan, -1);
  release(&r);
  opsched_buffers_destroy(b);
  opsched_graph_destroy(g);
}

/* on_pack brackets every arena the search packs (begin, then end, never
 * nested), and only those: lazily packed candidates under a limit the
 * arena misses, the pick alone without one, none with pack_arena off. */
typedef struct pack_calls {
  int begins, ends, open, nested;
} pack_calls;

static void count_pack(void *user, int begin) {
  pack_calls *c = user;
  if (begin) {
    c->nested |= c->open;
    c->begins++;
  } else {
    c->nested |= !c->open;
    c->ends++;
  }
  c->open = begin;
}

static int32_t packed_points(const opsched_frontier_result *r) {
  int32_t k = 0;
  for (int32_t i = 0; i < r->num_points; i++)
    k += r->point_arena[i] >= 0;
  return k;
}

static void test_pack_hook(void) {
  opsched_graph *g;
  opsched_buffers *b;
  two_chains(&g, &b);
  static const int64_t limits[] = {1095, 0};
  for (int with_arena = 0; with_arena < 2; with_arena++)
    for (int i = 0; i < 2; i++) {
      opsched_schedule_options o;
      opsched_schedule_options_init(&o);
      o.streams = 2;
      o.buffers = b;
      o.max_memory = limits[i];
      opsched_frontier_options f;
      opsched_frontier_options_init(&f);
      f.pack_arena = with_arena;
      pack_calls calls = {0, 0, 0, 0};
      f.on_pack = count_pack;
      f.on_pack_user = &calls;
      opsched_frontier_result r;
      CHECK(opsched_frontier_schedule(g, &o, &f, &r) == OPSCHED_OK);
      CHECK_EQ_I64(calls.begins, calls.ends);
      CHECK_EQ_I64(calls.nested, 0);
      CHECK_EQ_I64(calls.begins, packed_points(&r));
      if (!with_arena)
        CHECK_EQ_I64(calls.begins, 0);
      else if (limits[i] == 0)
        CHECK_EQ_I64(calls.begins, 1); /* the pick */
      else
        CHECK(calls.begins > 1); /* candidates, fastest first, until one fits */
      release(&r);
    }
  opsched_buffers_destroy(b);
  opsched_graph_destroy(g);
}

/* a (4 ns) -> c (4 ns, 66 B of scratch) -> e (5 ns), a -> e; b (3 ns) and
 * d (3 ns, 481 B of scratch) are free. The one-stream floor is d's 481 B:
 * d never overlaps c. Under that limit on 2 streams the order windows find
 * the critical path's 13 ns (a; b || c; d || e); the frontier's runs
 * before them (the rank and the min-memory order, overtaking freely, and
 * the unconstrained schedule) gave 15 ns, and its default a 547 B peak. */
static void scratch_block(opsched_graph **g, opsched_buffers **b) {
  static const int64_t costs[] = {4, 3, 4, 3, 5};
  *g = opsched_graph_create(5);
  for (int i = 0; i < 5; i++)
    opsched_graph_add_node(*g, costs[i], 1);
  opsched_graph_add_edge(*g, 0, 2);
  opsched_graph_add_edge(*g, 0, 4);
  opsched_graph_add_edge(*g, 2, 4);
  *b = opsched_buffers_create(5);
  buf(*b, 66, 2, 0, -1);
  buf(*b, 481, 3, 0, -1);
  opsched_graph_finalize(*g);
}

static void test_order_window(void) {
  opsched_graph *g;
  opsched_buffers *b;
  scratch_block(&g, &b);
  /* The fastest within the floor: 13 ns (before the order windows: 15). */
  opsched_frontier_result r = choose(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 481, 0.01, 0);
  CHECK_EQ_I64(opsched_schedule_makespan(r.schedule), 13);
  CHECK_EQ_I64(opsched_schedule_peak_memory(r.schedule), 481);
  const int64_t *start = opsched_schedule_starts(r.schedule);
  static const int64_t want[] = {0, 4, 4, 8, 8};
  for (int v = 0; v < 5; v++)
    CHECK_EQ_I64(start[v], want[v]);
  release(&r);
  /* Default: the floor at the best makespan is the choice. */
  r = choose(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 0, 0.01, 0);
  CHECK_EQ_I64(r.unconstrained_makespan, 13);
  CHECK_EQ_I64(r.floor_peak, 481);
  CHECK_EQ_I64(opsched_schedule_makespan(r.schedule), 13);
  CHECK_EQ_I64(opsched_schedule_peak_memory(r.schedule), 481);
  release(&r);
  opsched_buffers_destroy(b);
  opsched_graph_destroy(g);
}

static opsched_schedule *plain(const random_block *k, int streams, int64_t limit,
                               opsched_memory_policy policy) {
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.streams = streams;
  o.resource_limit = k->max_demand > streams ? k->max_demand : 0;
  o.buffers = k->b;
  o.max_memory = limit;
  o.memory_policy = policy;
  opsched_schedule *s = NULL;
  CHECK(opsched_schedule_run(k->g, &o, &s) == OPSCHED_OK);
  return s;
}

static void test_random(void) {
  (void)random_blocks_plain_hash; /* shared header; not needed here */
  int chose_lower = 0;
  for (uint64_t seed = 1; seed <= 400; seed++) {
    random_block k;
    random_block_make(seed, RB_MAXN, &k);
    int streams = 2 + (int)(seed % 3);
    if (k.max_demand > streams) {
      random_block_free(&k);
      continue;
    }
    opsched_schedule *u = plain(&k, streams, 0, OPSCHED_MEMORY_CRITICAL_PATH);
    opsched_schedule *one = plain(&k, 1, 0, OPSCHED_MEMORY_MIN_MEMORY);
    int64_t um = opsched_schedule_makespan(u), up = opsched_schedule_peak_memory(u);
    int64_t floor_peak = opsched_schedule_peak_memory(one);
    /* Default: within 1% of the unconstrained makespan, never a higher peak. */
    opsched_frontier_result r =
        choose(k.g, k.b, streams, OPSCHED_MEMORY_CRITICAL_PATH, 0, 0.01, 0);
    int64_t m = opsched_schedule_makespan(r.schedule);
    int64_t p = opsched_schedule_peak_memory(r.schedule);
    CHECK(m <= um + (int64_t)floor((double)um * 0.01));
    CHECK(p <= up);
    CHECK_EQ_I64(r.unconstrained_makespan, um);
    CHECK_EQ_I64(r.unconstrained_peak, up);
    CHECK(r.runs <= 9);
    int32_t used = opsched_schedule_streams_used(r.schedule);
    CHECK(used >= 1 && used <= streams);
    chose_lower += p < up;
    release(&r);
    /* The one-stream min-memory peak as a limit, with the arena. */
    r = choose(k.g, k.b, streams, OPSCHED_MEMORY_CRITICAL_PATH, floor_peak > 0 ? floor_peak : 1,
               0.01, 64);
    p = opsched_schedule_peak_memory(r.schedule);
    int64_t limit = floor_peak > 0 ? floor_peak : 1;
    CHECK_EQ_I64(r.memory_limit_met, p <= limit);
    if (k.positive) /* no zero-duration ops: the in-order fallback meets it */
      CHECK(p <= limit);
    CHECK_EQ_I64(r.arena_limit_met, opsched_arena_size(r.arena) <= limit);
    CHECK(r.runs <= 9);
    release(&r);
    /* Without the arena: never slower than the plain run when that fits. */
    opsched_schedule *pl = plain(&k, streams, limit, OPSCHED_MEMORY_CRITICAL_PATH);
    r = choose(k.g, k.b, streams, OPSCHED_MEMORY_CRITICAL_PATH, limit, 0.01, 0);
    if (opsched_schedule_peak_memory(pl) <= limit)
      CHECK(opsched_schedule_makespan(r.schedule) <= opsched_schedule_makespan(pl));
    release(&r);
    opsched_schedule_destroy(pl);
    opsched_schedule_destroy(u);
    opsched_schedule_destroy(one);
    random_block_free(&k);
  }
  /* The default does trade on some blocks (not a test that cannot fail). */
  CHECK(chose_lower > 0);
}

/* With effort, the frontier's runs share the caller's budget
 * (docs/streams.md, "Effort"): every point is the plain run of its budget
 * and policy with half the placements for the first run and a 16th
 * (max_runs 8) for each later one, not the whole budget each. A small
 * budget (6 decodes of a block) so that the shares decide. */
static void test_effort_shared(void) {
  int32_t checked = 0, differ = 0;
  for (uint64_t seed = 1; seed <= 200; seed++) {
    random_block k;
    random_block_make(seed, RB_MAXN, &k);
    int streams = 2 + (int)(seed % 3);
    if (k.max_demand > streams || k.n < 4) {
      random_block_free(&k);
      continue;
    }
    opsched_schedule_options o;
    opsched_schedule_options_init(&o);
    o.streams = streams;
    o.buffers = k.b;
    o.effort = 1;
    o.effort_placements = 6 * (int64_t)k.n * (OPSCHED_EFFORT_UNIT / k.n);
    opsched_frontier_options f;
    opsched_frontier_options_init(&f);
    opsched_frontier_result r;
    CHECK(opsched_frontier_schedule(k.g, &o, &f, &r) == OPSCHED_OK);
    for (int32_t i = 0; i < r.num_points; i++) {
      opsched_schedule_options p = o;
      p.max_memory = r.point_budget[i];
      p.memory_policy = (opsched_memory_policy)r.point_policy[i];
      opsched_schedule *share = NULL, *whole = NULL;
      p.effort_placements = i == 0 ? o.effort_placements / 2 : o.effort_placements / 16;
      CHECK(opsched_schedule_run(k.g, &p, &share) == OPSCHED_OK);
      p.effort_placements = o.effort_placements;
      CHECK(opsched_schedule_run(k.g, &p, &whole) == OPSCHED_OK);
      CHECK_EQ_I64(r.point_makespan[i], opsched_schedule_makespan(share));
      CHECK_EQ_I64(r.point_peak[i], opsched_schedule_peak_memory(share));
      differ += opsched_schedule_makespan(share) != opsched_schedule_makespan(whole);
      checked++;
      opsched_schedule_destroy(share);
      opsched_schedule_destroy(whole);
    }
    release(&r);
    random_block_free(&k);
  }
  CHECK(checked > 400);
  CHECK(differ > 0); /* the shares are not the whole budget on these */
}

int main(void) {
  test_effort_shared();
  test_two_chains();
  test_pack_hook();
  test_order_window();
  test_random();
  return check_report("test_frontier");
}
