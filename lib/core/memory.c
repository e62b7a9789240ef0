/* The policy dispatch on top of the memory model: names, keep-best over
 * the heuristics (memory_baselines.c), the exact search (memory_exact.c),
 * the limit fallback, and the result object. */
#include "opsched/memory.h"

#include "alloc.h"
#include "memory.h"
#include "memory_baselines.h"
#include "memory_exact.h"
#include "memory_model.h"
#include "saturate.h"

#include <stdlib.h>
#include <string.h>

/* ---- Policy names ---------------------------------------------------- */

static const char *const policy_names[OPSCHED_MEMORY_POLICY_COUNT] = {
    "critical-path", "min-memory",    "program-order", "exact",
    "xla-list",      "xla-dfs",       "xla-postorder", "inductor-lpmf",
    "inductor-bfs",  "inductor-dfs",  "sethi-ullman"};

const char *opsched_memory_policy_name(opsched_memory_policy p) {
  if ((int)p < 0 || p >= OPSCHED_MEMORY_POLICY_COUNT)
    return "unknown";
  return policy_names[p];
}

opsched_status opsched_memory_policy_from_name(const char *name,
                                               opsched_memory_policy *p) {
  if (!name || !p)
    return OPSCHED_ERR_INVALID;
  for (int i = 0; i < OPSCHED_MEMORY_POLICY_COUNT; i++)
    if (strcmp(name, policy_names[i]) == 0) {
      *p = (opsched_memory_policy)i;
      return OPSCHED_OK;
    }
  return OPSCHED_ERR_INVALID;
}

void opsched_memory_options_init(opsched_memory_options *o) {
  memset(o, 0, sizeof *o);
  o->policy = OPSCHED_MEMORY_CRITICAL_PATH;
}

/* ---- Scheduling ------------------------------------------------------ */

struct opsched_memory_result {
  int32_t n;
  int32_t *order;
  int64_t *during, *after, *starts;
  int64_t peak, original_peak, resident, lower_bound, exact_states;
  int limit_met, exact_proven;
  opsched_memory_policy winner;
  int64_t policy_peak[OPSCHED_MEMORY_POLICY_COUNT];
};

void opsched_memory_result_destroy(opsched_memory_result *r) {
  if (!r)
    return;
  opsched_free(r); /* its arrays are in its block */
}

/* Runs one heuristic into `order`. */
static opsched_status run_heuristic(const mem_model *m, opsched_memory_policy p,
                                    int64_t limit, int32_t *order) {
  switch (p) {
  case OPSCHED_MEMORY_PROGRAM_ORDER:
    return mem_order_program(m, order);
  case OPSCHED_MEMORY_CRITICAL_PATH:
    return mem_order_critical_path(m, limit, order);
  case OPSCHED_MEMORY_XLA_LIST:
    return mem_order_xla_list(m, order);
  case OPSCHED_MEMORY_XLA_DFS:
    return mem_order_xla_dfs(m, order);
  case OPSCHED_MEMORY_XLA_POSTORDER:
    return mem_order_xla_postorder(m, order);
  case OPSCHED_MEMORY_INDUCTOR_LPMF:
    return mem_order_inductor_lpmf(m, order);
  case OPSCHED_MEMORY_INDUCTOR_BFS:
    return mem_order_inductor_bfs(m, order);
  case OPSCHED_MEMORY_INDUCTOR_DFS:
    return mem_order_inductor_dfs(m, order);
  case OPSCHED_MEMORY_SETHI_ULLMAN:
    return mem_order_sethi_ullman(m, order);
  default:
    return OPSCHED_ERR_INVALID;
  }
}

/* The memo's critical-path order for `limit` into *order and *peak, or
 * run and kept (in place of the oldest when full). */
static opsched_status cp_order(const mem_model *m, int64_t limit, int32_t *scratch,
                               opsched_memory_memo *memo, const int32_t **order,
                               int64_t *peak) {
  for (int32_t i = 0; i < memo->cp_count; i++) {
    const opsched_cp_memo *e = &memo->cp[i];
    if (e->fit_max <= limit && limit < e->fail_min) {
      *order = e->order;
      *peak = e->peak;
      return OPSCHED_OK;
    }
  }
  opsched_cp_memo e = {0, INT64_MAX, 0, NULL};
  opsched_status st = mem_order_critical_path_range(m, limit, scratch, &e.fit_max, &e.fail_min);
  if (st != OPSCHED_OK)
    return st;
  *order = scratch;
  *peak = e.peak = mem_simulate(m, scratch, NULL, NULL);
  if (e.peak == -2)
    return OPSCHED_ERR_NOMEM;
  if (!(e.order = opsched_alloc_array((size_t)m->n, sizeof *scratch)))
    return OPSCHED_OK; /* not kept */
  memcpy(e.order, scratch, sizeof *scratch * (size_t)m->n);
  opsched_cp_memo *slot = &memo->cp[memo->cp_next];
  if (memo->cp_count == OPSCHED_CP_MEMO_MAX)
    opsched_free(slot->order);
  else
    memo->cp_count++;
  *slot = e;
  memo->cp_next = (memo->cp_next + 1) % OPSCHED_CP_MEMO_MAX;
  return OPSCHED_OK;
}

/* Runs `p`, records its peak, and keeps its order in r->order when strictly
 * better than r->peak (ties keep the earlier candidate: deterministic). With
 * a memo, a heuristic that ignores the limit runs once per memo. */
static opsched_status try_candidate(const mem_model *m, opsched_memory_result *r,
                                    opsched_memory_policy p, int64_t limit,
                                    int32_t *scratch, opsched_memory_memo *memo) {
  int cacheable = memo && p != OPSCHED_MEMORY_CRITICAL_PATH;
  const int32_t *order = scratch;
  int64_t peak;
  if (memo && p == OPSCHED_MEMORY_CRITICAL_PATH) {
    opsched_status st = cp_order(m, limit, scratch, memo, &order, &peak);
    if (st != OPSCHED_OK)
      return st;
  } else if (cacheable && memo->order[p]) {
    order = memo->order[p];
    peak = memo->peak[p];
  } else {
    opsched_status st = run_heuristic(m, p, limit, scratch);
    if (st != OPSCHED_OK)
      return st;
    peak = mem_simulate(m, scratch, NULL, NULL);
    if (peak == -2)
      return OPSCHED_ERR_NOMEM;
    if (cacheable && (memo->order[p] = opsched_alloc_array((size_t)m->n, sizeof *scratch))) {
      memcpy(memo->order[p], scratch, sizeof *scratch * (size_t)m->n);
      memo->peak[p] = peak;
    }
  }
  r->policy_peak[p] = peak;
  if (r->peak < 0 || peak < r->peak) {
    r->peak = peak;
    r->winner = p;
    memcpy(r->order, order, sizeof *order * (size_t)m->n);
  }
  return OPSCHED_OK;
}

void opsched_memory_memo_free(opsched_memory_memo *memo) {
  for (int p = 0; memo && p < OPSCHED_MEMORY_POLICY_COUNT; p++) {
    opsched_free(memo->order[p]);
    memo->order[p] = NULL;
  }
  for (int32_t i = 0; memo && i < memo->cp_count; i++)
    opsched_free(memo->cp[i].order);
  if (memo) {
    opsched_free(memo->exact_in);
    opsched_free(memo->exact_out);
    memo->exact_in = memo->exact_out = NULL;
    memo->cp_count = memo->cp_next = 0;
    memo->program_known = 0;
  }
  if (memo && memo->model) {
    mem_model_free(memo->model);
    opsched_free(memo->model);
    memo->model = NULL;
  }
}

/* The memory model of (g, b): the memo's, built by its first query (the
 * queries of one search ask for the same graph and buffers; rebuilt when
 * another query brings others). Read-only for the queries. */
static opsched_status memo_model(opsched_memory_memo *memo, const opsched_graph *g,
                                 const opsched_buffers *b, const mem_model **m) {
  if (!memo->model || memo->model_graph != g || memo->model_buffers != b) {
    opsched_memory_memo_free(memo); /* the orders were of the other model */
    mem_model *built = opsched_alloc_array(1, sizeof *built);
    if (!built)
      return OPSCHED_ERR_NOMEM;
    opsched_status st = mem_model_build(g, b, built);
    if (st != OPSCHED_OK) {
      opsched_free(built);
      return st;
    }
    memo->model = built;
    memo->model_graph = g;
    memo->model_buffers = b;
  }
  *m = memo->model;
  return OPSCHED_OK;
}

/* mem_exact from r's incumbent (r->order, r->peak), its answer left in
 * r->order and *es; the memo's when the latest search started from the
 * same incumbent with the same budgets. */
static opsched_status exact_search(const mem_model *m, opsched_memory_result *r,
                                   int64_t budget, int64_t work, opsched_memory_memo *memo,
                                   mem_exact_stats *es) {
  size_t bytes = sizeof *r->order * (size_t)m->n;
  if (memo && memo->exact_in && memo->exact_in_peak == r->peak &&
      memo->exact_budget == budget && memo->exact_work == work &&
      memcmp(memo->exact_in, r->order, bytes) == 0) {
    memcpy(r->order, memo->exact_out, bytes);
    *es = memo->exact_stats;
    return OPSCHED_OK;
  }
  int32_t *in = memo ? opsched_alloc_array_raw((size_t)m->n + 1, sizeof *in) : NULL;
  if (in)
    memcpy(in, r->order, bytes);
  opsched_status st = mem_exact(m, budget, work, r->order, r->peak, es);
  int32_t *out = in ? opsched_alloc_array_raw((size_t)m->n + 1, sizeof *out) : NULL;
  if (st != OPSCHED_OK || !out) { /* nothing kept: the next query searches */
    opsched_free(in);
    opsched_free(out);
    return st;
  }
  memcpy(out, r->order, bytes);
  opsched_free(memo->exact_in);
  opsched_free(memo->exact_out);
  memo->exact_in = in;
  memo->exact_out = out;
  memo->exact_in_peak = r->peak; /* the incumbent's: min_memory sets r->peak after */
  memo->exact_budget = budget;
  memo->exact_work = work;
  memo->exact_stats = *es;
  return OPSCHED_OK;
}

/* Keep-best over every heuristic, then exact when asked. */
static opsched_status min_memory(const mem_model *m, opsched_memory_result *r,
                                 int64_t limit, int run_exact, int64_t budget,
                                 int32_t *scratch, opsched_memory_memo *memo) {
  static const opsched_memory_policy candidates[] = {
      OPSCHED_MEMORY_PROGRAM_ORDER, OPSCHED_MEMORY_CRITICAL_PATH,
      OPSCHED_MEMORY_XLA_LIST,      OPSCHED_MEMORY_XLA_DFS,
      OPSCHED_MEMORY_XLA_POSTORDER, OPSCHED_MEMORY_INDUCTOR_LPMF,
      OPSCHED_MEMORY_INDUCTOR_BFS,  OPSCHED_MEMORY_INDUCTOR_DFS,
      OPSCHED_MEMORY_SETHI_ULLMAN};
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
    opsched_status st = try_candidate(m, r, candidates[i], limit, scratch, memo);
    if (st != OPSCHED_OK)
      return st;
  }
  if (!run_exact)
    return OPSCHED_OK;
  mem_exact_stats es;
  /* The default budget is work proportional to the block; an explicit
   * state budget is the user's to take, without the work cap. */
  int64_t work = budget == 0 ? mem_exact_work_budget(m) : 0;
  opsched_status st = exact_search(m, r, budget == 0 ? 1000000 : budget, work, memo, &es);
  if (st != OPSCHED_OK)
    return st;
  r->exact_states = es.states;
  r->exact_proven = es.proven;
  r->policy_peak[OPSCHED_MEMORY_EXACT] = es.peak;
  if (es.lower_bound > r->lower_bound)
    r->lower_bound = es.lower_bound;
  if (es.improved) {
    r->peak = es.peak;
    r->winner = OPSCHED_MEMORY_EXACT;
  }
  return OPSCHED_OK;
}

opsched_status opsched_memory_schedule(const opsched_graph *g,
                                       const opsched_buffers *b,
                                       const opsched_memory_options *o,
                                       opsched_memory_result **out) {
  return opsched_memory_schedule_memo(g, b, o, NULL, out);
}

opsched_status opsched_memory_schedule_memo(const opsched_graph *g, const opsched_buffers *b,
                                            const opsched_memory_options *o,
                                            opsched_memory_memo *memo,
                                            opsched_memory_result **out) {
  if (out)
    *out = NULL;
  if (!g || !b || !o || !out || !opsched_graph_is_finalized(g) ||
      opsched_graph_num_nodes(g) != opsched_buffers_num_nodes(b) || o->max_memory < 0 ||
      o->exact_budget < 0 || (int)o->policy < 0 ||
      o->policy >= OPSCHED_MEMORY_POLICY_COUNT)
    return OPSCHED_ERR_INVALID;
  mem_model local;
  const mem_model *m = &local;
  opsched_status st = memo ? memo_model(memo, g, b, &m) : mem_model_build(g, b, &local);
  if (st != OPSCHED_OK)
    return st;
  int32_t n = m->n;
  int64_t budget = o->exact_budget; /* 0: the default, see min_memory */
  int32_t exact_max = o->exact_max_nodes ? o->exact_max_nodes : 40;
  int64_t limit = o->max_memory ? o->max_memory : INT64_MAX;
  st = OPSCHED_ERR_NOMEM;
  /* One zeroed block (a block's search asks for many results): the
   * result, its arrays and the scratch order, which it keeps until
   * destroyed (opsched_memory_result_destroy frees r only). */
  size_t un = (size_t)n;
  opsched_memory_result *r =
      un > (SIZE_MAX - sizeof *r) / (3 * sizeof(int64_t) + 2 * sizeof(int32_t))
          ? NULL
          : opsched_alloc_array(1, sizeof *r + un * (3 * sizeof(int64_t) + 2 * sizeof(int32_t)));
  int32_t *scratch = NULL;
  if (!r)
    goto done;
  r->n = n;
  r->during = (int64_t *)(r + 1);
  r->after = r->during + un;
  r->starts = r->after + un;
  r->order = (int32_t *)(r->starts + un);
  scratch = r->order + un;
  r->peak = -1;
  r->resident = m->resident;
  r->lower_bound = mem_trivial_lower_bound(m);
  for (int i = 0; i < OPSCHED_MEMORY_POLICY_COUNT; i++)
    r->policy_peak[i] = -1;
  if (memo && memo->program_known) {
    r->original_peak = memo->program_peak;
  } else {
    if ((st = mem_order_program(m, scratch)) != OPSCHED_OK)
      goto done;
    r->original_peak = mem_simulate(m, scratch, NULL, NULL);
    st = OPSCHED_ERR_NOMEM;
    if (r->original_peak < 0)
      goto done;
    if (memo) {
      memo->program_peak = r->original_peak;
      memo->program_known = 1;
    }
  }
  st = OPSCHED_ERR_NOMEM;

  switch (o->policy) {
  case OPSCHED_MEMORY_MIN_MEMORY:
    st = min_memory(m, r, limit, exact_max >= 0 && n <= exact_max, budget, scratch, memo);
    break;
  case OPSCHED_MEMORY_EXACT:
    st = min_memory(m, r, limit, 1, budget, scratch, memo);
    break;
  case OPSCHED_MEMORY_CRITICAL_PATH:
    st = try_candidate(m, r, OPSCHED_MEMORY_CRITICAL_PATH, limit, scratch, memo);
    /* A hard limit, not a tie-breaker: when rank order cannot keep it, take
     * the lowest-peak order if that one can, else report the lowest found. */
    if (st == OPSCHED_OK && r->peak > limit)
      st = min_memory(m, r, limit, exact_max >= 0 && n <= exact_max, budget,
                      scratch, memo);
    break;
  default:
    st = try_candidate(m, r, o->policy, limit, scratch, memo);
    break;
  }
  if (st != OPSCHED_OK)
    goto done;
  r->peak = mem_simulate(m, r->order, r->during, r->after);
  st = OPSCHED_ERR_NOMEM;
  if (r->peak < 0)
    goto done;
  if (r->exact_proven)
    r->lower_bound = r->peak;
  r->limit_met = r->peak <= limit;
  int64_t t = 0;
  for (int32_t i = 0; i < n; i++) {
    r->starts[r->order[i]] = t;
    t = opsched_sat_add(t, opsched_graph_cost(g, r->order[i]));
  }
  st = OPSCHED_OK;
done:
  if (!memo)
    mem_model_free(&local);
  if (st != OPSCHED_OK) {
    opsched_memory_result_destroy(r);
    return st;
  }
  *out = r;
  return OPSCHED_OK;
}

int32_t opsched_memory_result_num_nodes(const opsched_memory_result *r) { return r->n; }
const int32_t *opsched_memory_result_order(const opsched_memory_result *r) { return r->order; }
const int64_t *opsched_memory_result_live_during(const opsched_memory_result *r) { return r->during; }
const int64_t *opsched_memory_result_live_after(const opsched_memory_result *r) { return r->after; }
const int64_t *opsched_memory_result_starts(const opsched_memory_result *r) { return r->starts; }
int64_t opsched_memory_result_peak(const opsched_memory_result *r) { return r->peak; }
int64_t opsched_memory_result_original_peak(const opsched_memory_result *r) { return r->original_peak; }
int64_t opsched_memory_result_resident_bytes(const opsched_memory_result *r) { return r->resident; }
int opsched_memory_result_limit_met(const opsched_memory_result *r) { return r->limit_met; }
int opsched_memory_result_exact_proven(const opsched_memory_result *r) { return r->exact_proven; }
int64_t opsched_memory_result_lower_bound(const opsched_memory_result *r) { return r->lower_bound; }
int64_t opsched_memory_result_exact_states(const opsched_memory_result *r) { return r->exact_states; }
opsched_memory_policy opsched_memory_result_winner(const opsched_memory_result *r) { return r->winner; }

int64_t opsched_memory_result_policy_peak(const opsched_memory_result *r,
                                          opsched_memory_policy p) {
  if ((int)p < 0 || p >= OPSCHED_MEMORY_POLICY_COUNT)
    return -1;
  return r->policy_peak[p];
}
