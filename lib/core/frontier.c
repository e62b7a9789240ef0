/* Choosing a point on a block's makespan / peak frontier: a bounded number
 * of opsched_schedule_run() calls with different budgets and policies, see
 * include/opsched/frontier.h and docs/streams.md. */
#include "opsched/frontier.h"
#include "opsched/exact_frontier.h"
#include "opsched/options.h"

#include "schedule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CANDIDATES = OPSCHED_FRONTIER_MAX_POINTS };

typedef struct candidate {
  opsched_schedule *schedule;
  opsched_arena *arena;
  opsched_status arena_status;
  int packed;
  int64_t makespan, peak, arena_size; /* arena_size -1: not packed / failed */
  int64_t budget;                      /* recorded for reports */
  opsched_memory_policy policy;
  /* The run's options: a schedule left pending by
   * opsched_schedule_run_times is finished (complete) with them when the
   * search needs more than its makespan and peak (an arena, the pick). */
  opsched_schedule_options options;
} candidate;

typedef struct search {
  const opsched_graph *graph;
  opsched_schedule_options options; /* the caller's */
  const opsched_frontier_options *frontier;
  candidate cands[MAX_CANDIDATES];
  int32_t count, runs;
  int improve; /* the next budgeted run gets a local search of effort 1 */
  /* With effort: op placements of local search not yet given to a run
   * (effort_share). */
  int64_t effort_left;
  int several; /* the search makes several runs */
  opsched_status failure; /* first failed run */
  /* Shared by the runs (schedule.h); NULL with a single run or out of memory. */
  opsched_schedule_memo *memo;
} search;

void opsched_frontier_options_init(opsched_frontier_options *o) {
  memset(o, 0, sizeof *o);
  o->makespan_tolerance = OPSCHED_DEFAULT_MAKESPAN_TOLERANCE;
  o->max_runs = 8;
  o->max_nodes = 5000;
  o->alignment = OPSCHED_ARENA_DEFAULT_ALIGNMENT;
  o->packers = OPSCHED_ARENA_DEFAULT;
}

int32_t opsched_schedule_streams_used(const opsched_schedule *s) {
  int32_t n = opsched_schedule_num_nodes(s), k = opsched_schedule_stream_count(s);
  const int32_t *stream = opsched_schedule_streams(s);
  uint8_t *seen = calloc((size_t)k + 1, 1);
  int32_t used = 0;
  if (!seen) /* cannot count: the capacity is an upper bound */
    return n > 0 ? k : 0;
  for (int32_t v = 0; v < n; v++)
    if (stream[v] >= 0 && stream[v] < k && !seen[stream[v]]) {
      seen[stream[v]] = 1;
      used++;
    }
  free(seen);
  return used;
}

/* The local search budget of the next run (op placements), when the
 * caller asks for effort and the search makes several runs: they share the
 * caller's budget, half to the first run (the reference makespan), an
 * equal part of the other half to each later run of up to max_runs, so the
 * block's search never spends more than the caller's effort (docs/streams.md,
 * "Effort"). One run gets it all. */
static int64_t effort_share(search *s) {
  int64_t whole = opsched_effort_placements(&s->options);
  if (!s->several)
    return whole;
  int32_t later = s->frontier->max_runs > 0 ? s->frontier->max_runs : 1;
  int64_t share = s->runs == 0 ? whole / 2 : whole / 2 / later;
  if (share > s->effort_left)
    share = s->effort_left;
  s->effort_left -= share;
  return share > 0 ? share : 1;
}

/* Runs the scheduler with `budget` bytes (0 = none) and `policy`; the
 * candidate is recorded. Returns its index, -1 when the run failed or no
 * room or run is left. */
static int32_t run_candidate(search *s, int64_t budget, opsched_memory_policy policy) {
  if (s->count == MAX_CANDIDATES || s->failure != OPSCHED_OK)
    return -1;
  opsched_schedule_options so = s->options;
  so.max_memory = budget;
  so.memory_policy = policy;
  if (s->improve && budget > 0 && so.effort < 1)
    so.effort = 1;
  else if (so.effort > 0)
    so.effort_placements = effort_share(s);
  candidate *c = &s->cands[s->count];
  memset(c, 0, sizeof *c);
  s->runs++;
  c->options = so;
  opsched_status st = opsched_schedule_run_times(s->graph, &so, s->memo, &c->schedule);
  if (st != OPSCHED_OK) {
    s->failure = st;
    return -1;
  }
  c->makespan = opsched_schedule_makespan(c->schedule);
  c->peak = opsched_schedule_peak_memory(c->schedule);
  c->arena_size = -1;
  c->budget = budget;
  c->policy = policy;
  return s->count++;
}

/* Peak of the policy's one-stream order (its lower end of the frontier);
 * -1 when the run failed. */
static int64_t one_stream_peak(search *s, opsched_memory_policy policy) {
  opsched_schedule_options so = s->options;
  /* One op runs at a time: the capacity only has to admit every demand. */
  so.resource_limit = so.resource_limit > 0 ? so.resource_limit : so.streams;
  so.streams = 1;
  so.effort = 0;
  so.max_memory = 0;
  so.memory_policy = policy;
  int64_t peak = -1;
  s->runs++;
  if (opsched_schedule_one_stream_peak(s->graph, &so, s->memo, &peak) != OPSCHED_OK)
    return -1;
  return peak;
}

/* Finishes c's schedule (opsched_schedule_finish); a failure is the
 * search's. */
static opsched_status complete(search *s, candidate *c) {
  opsched_status st = opsched_schedule_finish(s->graph, &c->options, s->memo, c->schedule);
  if (st != OPSCHED_OK && s->failure == OPSCHED_OK)
    s->failure = st;
  return st;
}

static void pack(search *s, candidate *c) {
  if (c->packed)
    return;
  c->packed = 1;
  if ((c->arena_status = complete(s, c)) != OPSCHED_OK) {
    c->arena_size = -1;
    return;
  }
  const opsched_frontier_options *f = s->frontier;
  if (f->on_pack)
    f->on_pack(f->on_pack_user, 1);
  c->arena_status = opsched_arena_assign_within(s->graph, c->schedule, s->options.buffers,
                                                f->alignment, f->packers,
                                                s->options.max_memory, &c->arena);
  if (f->on_pack)
    f->on_pack(f->on_pack_user, 0);
  c->arena_size = c->arena_status == OPSCHED_OK ? opsched_arena_size(c->arena) : -1;
}

static int within(int64_t makespan, int64_t best, double tolerance) {
  return makespan <= best || (double)(makespan - best) <= floor((double)best * tolerance);
}

static int64_t best_makespan(const search *s) {
  int64_t best = INT64_MAX;
  for (int32_t i = 0; i < s->count; i++)
    if (s->cands[i].makespan < best)
      best = s->cands[i].makespan;
  return best;
}

/* Lowest peak among the candidates within the tolerance of the best
 * makespan; ties to the shorter makespan, then the earlier candidate. */
static int32_t pick_lowest_peak(const search *s, double tolerance) {
  int64_t best = best_makespan(s);
  int32_t pick = -1;
  for (int32_t i = 0; i < s->count; i++) {
    const candidate *c = &s->cands[i];
    if (!within(c->makespan, best, tolerance))
      continue;
    if (pick < 0 || c->peak < s->cands[pick].peak ||
        (c->peak == s->cands[pick].peak && c->makespan < s->cands[pick].makespan))
      pick = i;
  }
  return pick;
}

/* Tries one budget with the rank priority and, when that misses the
 * tolerance, the min-memory order's (each wins on some networks: the rank
 * keeps the critical path moving, the memory order avoids stalls at the
 * gate); the one that won last goes first; then the rank with a local
 * search. Returns the accepted candidate's peak, -1 when none is within the
 * tolerance or no run is left. */
static int64_t try_budget(search *s, int64_t budget, opsched_memory_policy *first) {
  double tol = s->frontier->makespan_tolerance;
  int64_t closest = INT64_MAX;
  for (int k = 0; k < 3 && s->runs <= s->frontier->max_runs; k++) {
    opsched_memory_policy p = k == 0 ? *first
                              : *first == OPSCHED_MEMORY_CRITICAL_PATH
                                  ? OPSCHED_MEMORY_MIN_MEMORY
                                  : OPSCHED_MEMORY_CRITICAL_PATH;
    /* Third, when the closer miss is within 3 tolerances, the rank with a
     * local search filtered by the budget (effort 1: a bounded number of
     * list decodes): the gated list scheduler has no insertion, so with
     * slack in the budget it can trail HEFT, whose schedule the budget
     * rejects (opsched-gen dag 800 4: 1.0163x slower at every budget up to
     * 2.8x the floor; with it the best makespan at 1.07x). Larger misses
     * are structural (docs/benchmarks.md §7), not worth its time. */
    if (k == 2 && (!within(closest, best_makespan(s), 3 * tol) || s->options.handoff_ns > 0))
      break;
    if (k == 2)
      p = OPSCHED_MEMORY_CRITICAL_PATH;
    s->improve = k == 2;
    if (s->memo && s->improve && s->options.effort < 1)
      s->memo->improve_stall = OPSCHED_FRONTIER_STALL;
    int32_t c = run_candidate(s, budget, p);
    s->improve = 0;
    if (s->memo)
      s->memo->improve_stall = 0;
    if (c < 0)
      return -1;
    if (within(s->cands[c].makespan, best_makespan(s), tol)) {
      *first = p;
      return s->cands[c].peak;
    }
    closest = s->cands[c].makespan < closest ? s->cands[c].makespan : closest;
  }
  return -1;
}

/* Default on several streams: the floor first, then a bisection of the
 * budget between the floor and the unconstrained peak. */
static int32_t sweep_tolerance(search *s, int32_t unconstrained, int64_t floor_peak) {
  int64_t hi = s->cands[unconstrained].peak, lo = floor_peak;
  if (floor_peak < 0 || hi <= lo)
    return unconstrained;
  int64_t step = (hi - lo) / 32 > 0 ? (hi - lo) / 32 : 1;
  int64_t budget = lo;
  opsched_memory_policy first = OPSCHED_MEMORY_CRITICAL_PATH;
  while (s->runs <= s->frontier->max_runs && hi - lo > step) {
    int64_t peak = try_budget(s, budget, &first);
    if (peak >= 0 && budget == floor_peak)
      break; /* nothing lower to look for */
    if (peak >= 0)
      hi = peak < budget ? peak : budget;
    else
      lo = budget;
    budget = lo + (hi - lo) / 2;
  }
  return pick_lowest_peak(s, s->frontier->makespan_tolerance);
}

/* Small blocks (at most EXACT_MAX_OPS ops), when `exact_nodes` > 0: the
 * exact search (opsched/exact_frontier.h) looks for schedules within the
 * tolerance of the best makespan below the pick's peak, a bisection of the
 * budget between the floor and that peak, each probe stopping at its first
 * schedule or after `exact_nodes` nodes (8192: about 15 ms). The list
 * schedulers are greedy under a budget: on
 * examples/models/inception_block.mlir their best within 2% peaks at
 * 1.2249x the floor, this finds 1.1442x, the proven lowest being 1.1429x
 * (docs/benchmarks.md §7). */
enum { EXACT_MAX_OPS = 64, EXACT_PROBES = 6 };

static int32_t exact_improve(search *s, int32_t pick, int64_t floor_peak) {
  if (pick < 0 || floor_peak < 0 || s->frontier->exact_nodes <= 0 ||
      opsched_graph_num_nodes(s->graph) > EXACT_MAX_OPS)
    return pick;
  double tol = s->frontier->makespan_tolerance;
  int64_t best = best_makespan(s);
  opsched_exact_options eo;
  opsched_exact_options_init(&eo);
  eo.streams = s->options.streams;
  eo.resource_limit = s->options.resource_limit;
  eo.makespan_limit = best + (int64_t)floor((double)best * tol);
  eo.node_limit = s->frontier->exact_nodes;
  eo.first_found = 1;
  int64_t lo = floor_peak - 1, hi = s->cands[pick].peak;
  for (int k = 0; k < EXACT_PROBES && hi - lo > 1 && s->count < MAX_CANDIDATES; k++) {
    eo.max_memory = lo + (hi - lo) / 2;
    opsched_exact_result r;
    if (opsched_exact_min_makespan(s->graph, s->options.buffers, &eo, &r) != OPSCHED_OK)
      break;
    candidate *c = &s->cands[s->count];
    memset(c, 0, sizeof *c);
    if (r.status == OPSCHED_EXACT_OPTIMAL && r.start &&
        opsched_schedule_from_starts(s->graph, &s->options, r.start, &c->schedule) ==
            OPSCHED_OK) {
      c->makespan = opsched_schedule_makespan(c->schedule);
      c->peak = opsched_schedule_peak_memory(c->schedule);
      c->arena_size = -1;
      c->budget = eo.max_memory;
      c->policy = OPSCHED_MEMORY_CRITICAL_PATH;
      s->count++;
      hi = c->peak;
    } else {
      lo = eo.max_memory;
    }
    opsched_exact_result_release(&r);
  }
  return pick_lowest_peak(s, tol);
}

/* A policy other than critical-path without a limit: its one-stream peak
 * as the budget, its order and the rank as priorities; lowest peak first,
 * then makespan. */
static int32_t honour_policy(search *s, int64_t floor_peak) {
  if (floor_peak >= 0) {
    run_candidate(s, floor_peak > 0 ? floor_peak : 1, s->options.memory_policy);
    run_candidate(s, floor_peak > 0 ? floor_peak : 1, OPSCHED_MEMORY_CRITICAL_PATH);
  }
  int32_t pick = -1;
  for (int32_t i = 0; i < s->count; i++) {
    const candidate *c = &s->cands[i];
    if (pick < 0 || c->peak < s->cands[pick].peak ||
        (c->peak == s->cands[pick].peak && c->makespan < s->cands[pick].makespan))
      pick = i;
  }
  return pick;
}

/* Against the caller's limit: a candidate run under a tighter budget may
 * miss that budget and still fit. */
static int fits(const candidate *c, int64_t limit) { return c->peak <= limit; }

/* The fastest candidate whose peak fits the limit and, when packed, whose
 * arena fits too; arenas are packed lazily, fastest first. -1 when none. */
static int32_t fastest_fitting(search *s, int64_t limit, int pack_arena) {
  for (;;) {
    int32_t pick = -1;
    for (int32_t i = 0; i < s->count; i++) {
      candidate *c = &s->cands[i];
      if (!fits(c, limit) || (c->packed && (c->arena_size < 0 || c->arena_size > limit)))
        continue;
      if (pick < 0 || c->makespan < s->cands[pick].makespan)
        pick = i;
    }
    if (pick < 0 || !pack_arena || s->cands[pick].packed)
      return pick;
    pack(s, &s->cands[pick]);
  }
}

/* When nothing fits both: a peak within the limit first (all of those were
 * packed), then the smallest arena, then the makespan; over the limit, the
 * lowest peak. */
static int better_fallback(const candidate *c, const candidate *p, int64_t limit) {
  int cf = fits(c, limit), pf = fits(p, limit);
  if (cf != pf)
    return cf;
  if (!cf)
    return c->peak < p->peak;
  int64_t ca = c->arena_size < 0 ? INT64_MAX : c->arena_size;
  int64_t pa = p->arena_size < 0 ? INT64_MAX : p->arena_size;
  return ca != pa ? ca < pa : c->makespan < p->makespan;
}

/* Under a limit above the one-stream min-memory peak, that peak as a
 * budget too: there the order windows keep close to that order's live-set
 * profile, so a looser limit never gets a slower schedule than the floor's,
 * and the arena stays close to the one-stream arena when the limit's own
 * candidates pack worse (Inception-v3 at 9.1 MB: 1.24x the unconstrained
 * makespan before, 1.04x). */
static void add_floor(search *s, int64_t limit) {
  if (s->runs + 2 > s->frontier->max_runs + 1)
    return;
  int64_t floor_peak = one_stream_peak(s, OPSCHED_MEMORY_MIN_MEMORY);
  if (floor_peak > 0 && floor_peak < limit)
    run_candidate(s, floor_peak, s->options.memory_policy);
}

/* With max_memory: the fastest schedule within it (peak and arena). When
 * no arena fits, budgets below the limit by the arena's excess (doubling)
 * are tried. */
static int32_t fastest_within(search *s, int multi, int32_t *unconstrained) {
  int64_t limit = s->options.max_memory;
  int pack_arena = s->frontier->pack_arena;
  int32_t first = run_candidate(s, limit, s->options.memory_policy);
  if (first < 0)
    return -1;
  if (multi) {
    *unconstrained = run_candidate(s, 0, OPSCHED_MEMORY_CRITICAL_PATH);
    if (s->options.memory_policy == OPSCHED_MEMORY_CRITICAL_PATH)
      run_candidate(s, limit, OPSCHED_MEMORY_MIN_MEMORY);
    add_floor(s, limit);
  }
  int32_t pick = fastest_fitting(s, limit, pack_arena);
  int64_t budget = limit;
  for (int tries = 0; pick < 0 && pack_arena && tries < 3 &&
                      s->runs <= s->frontier->max_runs;
       tries++) {
    /* The smallest arena over the limit sets how much tighter to go. */
    int64_t excess = INT64_MAX;
    for (int32_t i = 0; i < s->count; i++)
      if (s->cands[i].packed && s->cands[i].arena_size > limit &&
          s->cands[i].arena_size - limit < excess)
        excess = s->cands[i].arena_size - limit;
    /* Doubling steps: an arena's excess over its peak does not shrink
     * with the budget. */
    int64_t step = excess < (INT64_MAX >> tries) ? excess << tries : INT64_MAX;
    if (excess == INT64_MAX || step >= budget)
      break;
    budget -= step;
    run_candidate(s, budget, s->options.memory_policy);
    pick = fastest_fitting(s, limit, pack_arena);
  }
  if (pick >= 0)
    return pick;
  pick = 0;
  for (int32_t i = 1; i < s->count; i++)
    if (better_fallback(&s->cands[i], &s->cands[pick], limit))
      pick = i;
  return pick;
}

static void finish(search *s, int32_t pick, int32_t unconstrained,
                   opsched_frontier_result *r) {
  candidate *c = &s->cands[pick];
  if (s->frontier->pack_arena && s->options.buffers)
    pack(s, c);
  r->schedule = c->schedule;
  r->arena = c->arena;
  r->arena_status = c->packed ? c->arena_status : OPSCHED_OK;
  c->schedule = NULL;
  c->arena = NULL;
  if (unconstrained >= 0) {
    r->unconstrained_makespan = s->cands[unconstrained].makespan;
    r->unconstrained_peak = s->cands[unconstrained].peak;
  }
  r->num_points = s->count;
  r->chosen = pick;
  r->unconstrained = unconstrained;
  for (int32_t i = 0; i < s->count; i++) {
    r->point_makespan[i] = s->cands[i].makespan;
    r->point_peak[i] = s->cands[i].peak;
    r->point_budget[i] = s->cands[i].budget;
    r->point_policy[i] = (int32_t)s->cands[i].policy;
    r->point_arena[i] = s->cands[i].arena_size;
  }
  r->arena_limit_met = !(s->options.max_memory > 0 && r->arena &&
                         opsched_arena_size(r->arena) > s->options.max_memory);
  r->memory_limit_met = !(s->options.max_memory > 0 && s->options.buffers &&
                          c->peak > s->options.max_memory);
}

opsched_status opsched_frontier_schedule(const opsched_graph *graph,
                                         const opsched_schedule_options *options,
                                         const opsched_frontier_options *frontier,
                                         opsched_frontier_result *result) {
  memset(result, 0, sizeof *result);
  result->unconstrained_makespan = result->unconstrained_peak = result->floor_peak = -1;
  result->arena_limit_met = result->memory_limit_met = 1;
  result->unconstrained = -1;
  search *s = calloc(1, sizeof *s);
  if (!s)
    return OPSCHED_ERR_NOMEM;
  s->graph = graph;
  s->options = *options;
  s->frontier = frontier;
  s->effort_left = opsched_effort_placements(options);
  int multi = options->streams > 1 && options->buffers &&
              opsched_graph_num_nodes(graph) <= frontier->max_nodes;
  int bounded = options->buffers && options->max_memory > 0 &&
                opsched_graph_num_nodes(graph) <= frontier->max_nodes;
  s->several = multi || bounded;
  if (s->several) /* several runs: they share work (schedule.h) */
    s->memo = calloc(1, sizeof *s->memo);
  int32_t pick = -1, unconstrained = -1;
  if (bounded) {
    pick = fastest_within(s, multi, &unconstrained);
  } else if (multi) {
    unconstrained = run_candidate(s, 0, OPSCHED_MEMORY_CRITICAL_PATH);
    int cp = options->memory_policy == OPSCHED_MEMORY_CRITICAL_PATH;
    if (unconstrained >= 0) {
      result->floor_peak =
          one_stream_peak(s, cp ? OPSCHED_MEMORY_MIN_MEMORY : options->memory_policy);
      pick = cp ? exact_improve(s, sweep_tolerance(s, unconstrained, result->floor_peak),
                                result->floor_peak)
                : honour_policy(s, result->floor_peak);
    }
  } else {
    pick = run_candidate(s, options->max_memory, options->memory_policy);
  }
  if (pick >= 0 && s->failure == OPSCHED_OK)
    complete(s, &s->cands[pick]);
  opsched_status st = s->failure;
  if (pick >= 0 && st == OPSCHED_OK) {
    finish(s, pick, unconstrained, result);
    result->runs = s->runs;
    result->candidates = s->count;
  } else if (st == OPSCHED_OK) {
    st = OPSCHED_ERR_NOMEM;
  }
  for (int32_t i = 0; i < s->count; i++) {
    opsched_schedule_destroy(s->cands[i].schedule);
    opsched_arena_destroy(s->cands[i].arena);
  }
  opsched_schedule_memo_free(s->memo);
  free(s->memo);
  free(s);
  return st;
}
