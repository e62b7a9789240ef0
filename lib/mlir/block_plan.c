#include "block_plan.h"

#include "attrs.h"
#include "deps.h"
#include "op_work.h"
#include "prefetch.h"
#include "ptrmap.h"
#include "queries.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "opsched/frontier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void emit(MlirOperation op, opsched_severity sev, const char *msg) {
  opsched_mlir_emit(mlirOperationGetLocation(op), sev, msg);
}

/* A non-negative integer override attribute `a` (named `name`; null when
 * absent): -1 when absent, -2 when present but not a valid value (an error
 * is emitted). */
static int64_t read_override(MlirOperation op, MlirAttribute a, const char *name, int64_t min) {
  if (mlirAttributeIsNull(a))
    return -1;
  if (mlirAttributeIsAInteger(a)) {
    int64_t v = mlirIntegerAttrGetValueInt(a);
    if (v >= min)
      return v;
  }
  char msg[160];
  snprintf(msg, sizeof msg, "'%s' must be an integer attribute >= %lld", name,
           (long long)min);
  emit(op, OPSCHED_SEVERITY_ERROR, msg);
  return -2;
}

/* The op's duration; sets *dynamic when the roofline met a dynamic shape.
 * `cost_attr`: its opsched.cost attribute (null when absent). */
static int64_t op_cost(MlirOperation op, MlirAttribute cost_attr, const opsched_options *o,
                       int *failed, int *dynamic, opsched_work_memo *memo) {
  int64_t override = read_override(op, cost_attr, OPSCHED_ATTR_COST, 0);
  if (override == -2)
    *failed = 1;
  if (override >= 0)
    return override;
  if (o->cost_model == OPSCHED_COST_UNIT)
    return 1;
  opsched_op_work work;
  opsched_op_work_measure_memo(op, &work, dynamic, memo);
  const opsched_device *d = opsched_options_device(o);
  int64_t t = opsched_cost_roofline(d, &work);
  /* On several streams each op may run in its own async.execute region;
   * with a hand-off latency the scheduler charges both (schedule_on_frontier). */
  if (t > 0 && o->schedule.streams > 1 && d->region_ns > 0 && d->handoff_ns == 0)
    t = t > INT64_MAX - d->region_ns ? INT64_MAX : t + d->region_ns;
  return t;
}

/* The ops with dynamic shapes (a remark) and saturated sizes (a warning),
 * counted in the function's notes (op_notes.h). */
static void report_shapes(const opsched_block_plan *p, const uint8_t *cost_dynamic,
                          opsched_note_budget *notes) {
  for (int32_t i = 0; i < p->n; i++) {
    int mem_dynamic = p->bufs.op_dynamic && p->bufs.op_dynamic[i];
    if (cost_dynamic[i] || mem_dynamic)
      opsched_note_at(notes, OPSCHED_NOTE_DYNAMIC_SHAPE, p->ops[i]);
    if (p->bufs.op_overflow && p->bufs.op_overflow[i])
      opsched_note_at(notes, OPSCHED_NOTE_SIZE_OVERFLOW, p->ops[i]);
  }
}

/* Stream ids a placement may carry: [0, PLACEMENT_STREAM_IDS). */
enum { PLACEMENT_STREAM_IDS = 1000000 };

/* The placement's stream ids renumbered 0, 1, ... in their order (`max`
 * the largest): the clocks behind the arena and the waits are then as wide
 * as the streams used, not as the largest id (ids 0 and 999999 were
 * 1,000,000 clocks per op). Returns the streams used, -1 out of memory. */
static int32_t dense_streams(int32_t *stream, int32_t n, int32_t max) {
  int32_t *dense = calloc((size_t)max + 1, sizeof *dense);
  if (!dense)
    return -1;
  for (int32_t v = 0; v < n; v++)
    dense[stream[v]] = 1;
  int32_t used = 0;
  for (int32_t k = 0; k <= max; k++)
    if (dense[k])
      dense[k] = used++; /* only ids in use are read below */
  for (int32_t v = 0; v < n; v++)
    stream[v] = dense[stream[v]];
  free(dense);
  return used;
}

/* The IR's placement: every op's start, end and stream (ids renumbered,
 * dense_streams), or, when some op lacks a start or end, the IR order on
 * one stream. Returns the streams; 0 after an error emitted at the op (a
 * stream id out of range, more streams than a schedule opens), -1 out of
 * memory. */
static int32_t read_placement(const opsched_block_plan *p, int64_t *start, int64_t *end,
                              int32_t *stream) {
  int all = 1;
  int32_t max = 0;
  char msg[160];
  for (int32_t v = 0; v < p->n && all; v++) {
    MlirAttribute a = mlirOperationGetDiscardableAttributeByName(
        p->ops[v], mlirStringRefCreateFromCString(OPSCHED_ATTR_START));
    MlirAttribute b = mlirOperationGetDiscardableAttributeByName(
        p->ops[v], mlirStringRefCreateFromCString(OPSCHED_ATTR_END));
    MlirAttribute c = mlirOperationGetDiscardableAttributeByName(
        p->ops[v], mlirStringRefCreateFromCString(OPSCHED_ATTR_STREAM));
    all = !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a) &&
          !mlirAttributeIsNull(b) && mlirAttributeIsAInteger(b);
    if (!all)
      break;
    start[v] = mlirIntegerAttrGetValueInt(a);
    end[v] = mlirIntegerAttrGetValueInt(b);
    stream[v] = 0;
    if (!mlirAttributeIsNull(c)) {
      if (!mlirAttributeIsAInteger(c) || mlirIntegerAttrGetValueInt(c) < 0 ||
          mlirIntegerAttrGetValueInt(c) >= PLACEMENT_STREAM_IDS) {
        snprintf(msg, sizeof msg, "opsched: %s must be an integer from 0 to %d",
                 OPSCHED_ATTR_STREAM, PLACEMENT_STREAM_IDS - 1);
        emit(p->ops[v], OPSCHED_SEVERITY_ERROR, msg);
        return 0;
      }
      stream[v] = (int32_t)mlirIntegerAttrGetValueInt(c);
      if (stream[v] > max)
        max = stream[v];
    }
  }
  if (!all) {
    int64_t t = 0;
    for (int32_t v = 0; v < p->n; v++) {
      start[v] = t;
      t += opsched_graph_cost(p->graph, v);
      end[v] = t;
      stream[v] = 0;
    }
    return 1;
  }
  int32_t streams = dense_streams(stream, p->n, max);
  if (streams > OPSCHED_STREAMS_MAX) {
    snprintf(msg, sizeof msg,
             "opsched: the block's %s attributes name %d streams; a schedule has at most %d",
             OPSCHED_ATTR_STREAM, streams, OPSCHED_STREAMS_MAX);
    emit(p->ops[0], OPSCHED_SEVERITY_ERROR, msg);
    return 0;
  }
  return streams;
}

/* The IR's opsched.waits (ids from opsched.id) as syncs of the placed
 * schedule: they are part of the emitted synchronisation, so buffers they
 * order may share memory. Ops without ids or waits add nothing. Returns
 * OPSCHED_ERR_INVALID when a wait names an unknown id or does not follow
 * the timeline (opsched_schedule_add_syncs). */
static opsched_status syncs_from_ir(opsched_block_plan *p) {
  int32_t n = p->n;
  MlirAttribute *waits = malloc(sizeof *waits * (size_t)n);
  int32_t *node_of = malloc(sizeof *node_of * (size_t)n);
  int32_t *from = NULL, *to = NULL;
  int64_t count = 0;
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!waits || !node_of)
    goto done;
  for (int32_t v = 0; v < n; v++) {
    node_of[v] = -1;
    waits[v] = mlirOperationGetDiscardableAttributeByName(
        p->ops[v], mlirStringRefCreateFromCString(OPSCHED_ATTR_WAITS));
    if (!mlirAttributeIsNull(waits[v]) && mlirAttributeIsADenseI64Array(waits[v]))
      count += mlirDenseArrayGetNumElements(waits[v]);
  }
  for (int32_t v = 0; v < n; v++) {
    MlirAttribute id = mlirOperationGetDiscardableAttributeByName(
        p->ops[v], mlirStringRefCreateFromCString(OPSCHED_ATTR_ID));
    if (!mlirAttributeIsNull(id) && mlirAttributeIsAInteger(id)) {
      int64_t k = mlirIntegerAttrGetValueInt(id);
      if (k >= 0 && k < n)
        node_of[k] = v;
    }
  }
  from = malloc(sizeof *from * (size_t)(count + 1));
  to = malloc(sizeof *to * (size_t)(count + 1));
  if (!from || !to)
    goto done;
  st = OPSCHED_ERR_INVALID;
  count = 0;
  for (int32_t v = 0; v < n; v++) {
    if (mlirAttributeIsNull(waits[v]) || !mlirAttributeIsADenseI64Array(waits[v]))
      continue;
    for (intptr_t i = 0, m = mlirDenseArrayGetNumElements(waits[v]); i < m; i++) {
      int64_t k = mlirDenseI64ArrayGetElement(waits[v], i);
      if (k < 0 || k >= n || node_of[k] < 0)
        goto done;
      from[count] = node_of[k];
      to[count++] = v;
    }
  }
  st = opsched_schedule_add_syncs(p->schedule, p->graph, from, to, count);
done:
  free(waits);
  free(node_of);
  free(from);
  free(to);
  return st;
}

/* The schedule the IR carries; *diagnosed is 1 when read_placement has
 * emitted an error. */
static opsched_status schedule_from_ir(opsched_block_plan *p, int *diagnosed) {
  int64_t *start = malloc(sizeof *start * (size_t)p->n);
  int64_t *end = malloc(sizeof *end * (size_t)p->n);
  int32_t *stream = malloc(sizeof *stream * (size_t)p->n);
  opsched_status st = OPSCHED_ERR_NOMEM;
  *diagnosed = 0;
  if (start && end && stream) {
    int32_t streams = read_placement(p, start, end, stream);
    *diagnosed = streams == 0;
    st = streams == 0  ? OPSCHED_ERR_INVALID
         : streams < 0 ? OPSCHED_ERR_NOMEM
                       : opsched_schedule_from_placement(p->graph, p->bufs.buffers, start,
                                                         end, stream, streams, &p->schedule);
  }
  free(start);
  free(end);
  free(stream);
  return st;
}

/* Out of memory while planning: an error at the block's parent op (or its
 * first op), never a silent failure. */
/* "opsched: cannot WHAT: STATUS" as an error at the block's first op. */
static void emit_failure(const opsched_block_plan *p, const char *what, opsched_status st) {
  char msg[200];
  snprintf(msg, sizeof msg, "opsched: cannot %s: %s", what, opsched_status_str(st));
  emit(p->ops[0], OPSCHED_SEVERITY_ERROR, msg);
}

static void emit_oom(MlirBlock block) {
  MlirOperation at = mlirBlockGetParentOperation(block);
  if (mlirOperationIsNull(at))
    at = mlirBlockGetFirstOperation(block);
  if (!mlirOperationIsNull(at))
    emit(at, OPSCHED_SEVERITY_ERROR, "opsched: out of memory while planning this block");
}

/* Ends the current phase (if any) and begins `next` (-1: none). */
static void plan_phase(const opsched_plan_hooks *h, int *current, int next) {
  if (!h || !h->phase)
    return;
  if (*current >= 0)
    h->phase(h->user, (opsched_plan_phase)*current, 0);
  *current = next;
  if (next >= 0)
    h->phase(h->user, (opsched_plan_phase)next, 1);
}

/* The phase timers of one block's plan: the hooks and the phase now open. */
typedef struct plan_clock {
  const opsched_plan_hooks *hooks;
  int phase;
} plan_clock;

/* The frontier packs arenas while it searches (the pick's, and under a
 * limit the candidates'): that time is the arena phase's. */
static void frontier_packs(void *user, int begin) {
  plan_clock *c = user;
  plan_phase(c->hooks, &c->phase, begin ? OPSCHED_PLAN_PHASE_ARENA : OPSCHED_PLAN_PHASE_SCHEDULE);
}

/* A copy of the frontier's points in one allocation (NULL out of memory:
 * the reports then leave the view out). */
static opsched_plan_frontier *copy_frontier(const opsched_frontier_result *r) {
  size_t n = (size_t)r->num_points;
  opsched_plan_frontier *f = calloc(1, sizeof *f + n * (4 * sizeof(int64_t) + sizeof(int32_t)));
  if (!f)
    return NULL;
  int64_t *a = (int64_t *)(f + 1);
  f->makespan = a;
  f->peak = a + n;
  f->budget = a + 2 * n;
  f->arena = a + 3 * n;
  f->policy = (int32_t *)(a + 4 * n);
  f->num_points = r->num_points;
  f->chosen = r->chosen;
  f->unconstrained = r->unconstrained;
  f->floor_peak = r->floor_peak;
  memcpy(f->makespan, r->point_makespan, n * sizeof(int64_t));
  memcpy(f->peak, r->point_peak, n * sizeof(int64_t));
  memcpy(f->budget, r->point_budget, n * sizeof(int64_t));
  memcpy(f->arena, r->point_arena, n * sizeof(int64_t));
  memcpy(f->policy, r->point_policy, n * sizeof(int32_t));
  return f;
}

/* The schedule, and with slots its arena, chosen on the makespan / peak
 * frontier (opsched/frontier.h); *arena_st is the packing's status, and
 * *packed says whether the arena was attempted. */
static opsched_status schedule_on_frontier(opsched_block_plan *p, const opsched_options *o,
                                           plan_clock *clock, opsched_status *arena_st,
                                           int *packed) {
  opsched_schedule_options so = o->schedule;
  so.resource_limit = opsched_options_capacity(o);
  so.buffers = p->bufs.buffers;
  so.max_memory = o->max_memory;
  so.memory_policy = o->memory_policy;
  /* The runtime's cross-stream costs: charged on the schedule's streams,
   * which falls back to one stream when they do not pay. */
  const opsched_device *d = opsched_options_device(o);
  if (o->cost_model == OPSCHED_COST_ROOFLINE && so.streams > 1 && d->handoff_ns > 0) {
    so.handoff_ns = d->handoff_ns;
    so.region_ns = d->region_ns;
  }
  opsched_frontier_options fo;
  opsched_frontier_options_init(&fo);
  fo.makespan_tolerance = o->makespan_tolerance;
  fo.pack_arena = o->buffer_slots && p->bufs.buffers;
  fo.alignment = o->alignment;
  fo.packers = OPSCHED_ARENA_DEFAULT | (o->sync_reuse ? OPSCHED_ARENA_SYNC_REUSE : 0u);
  fo.on_pack = frontier_packs;
  fo.on_pack_user = clock;
  opsched_frontier_result r;
  opsched_status st = opsched_frontier_schedule(p->graph, &so, &fo, &r);
  if (st != OPSCHED_OK)
    return st;
  p->schedule = r.schedule;
  p->arena = r.arena;
  *arena_st = r.arena_status;
  *packed = fo.pack_arena;
  p->unconstrained_makespan = r.unconstrained_makespan;
  p->unconstrained_peak = r.unconstrained_peak;
  p->memory_limit_met = r.memory_limit_met;
  p->arena_limit_met = r.arena_limit_met;
  p->frontier = copy_frontier(&r);
  return OPSCHED_OK;
}

opsched_plan_result opsched_block_plan_build(opsched_block_plan *p, MlirBlock block,
                                             const opsched_options *o,
                                             opsched_plan_source source) {
  return opsched_block_plan_build_timed(p, block, o, source, NULL, NULL, NULL);
}

/* The block's ops but its last one (which stays last); 0 with fewer than
 * two, -1 out of memory. One walk over the block (each op visited is a
 * cache miss on a large block): the ops go to a local array, then, past
 * it, to one that doubles; the plan's array is made once at the end. */
static int collect_ops(opsched_block_plan *p, MlirBlock block) {
  enum { LOCAL = 512 };
  MlirOperation local[LOCAL], *ops = local;
  size_t cap = LOCAL, count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (count == cap) {
      MlirOperation *grown = count >= INT32_MAX ? NULL
                             : ops == local    ? malloc(sizeof *ops * cap * 2)
                                               : realloc(ops, sizeof *ops * cap * 2);
      if (!grown) {
        if (ops != local)
          free(ops);
        emit_oom(block);
        return -1;
      }
      if (ops == local)
        memcpy(grown, local, sizeof local);
      ops = grown;
      cap *= 2;
    }
    ops[count++] = op;
    /* Read now, while the op is in the cache: the attributes size their
     * per-result arrays by it before writing any op. */
    intptr_t nr = mlirOperationGetNumResults(op);
    if (nr > p->max_results)
      p->max_results = nr > INT32_MAX - 1 ? INT32_MAX - 1 : (int32_t)nr;
  }
  /* The last op stays last, registered or not, in every region kind: it
   * may be the block's terminator (an unregistered op may be one). */
  p->terminator = count ? ops[count - 1] : (MlirOperation){NULL};
  if (count <= 2) /* at most one op before the last */
    return 0;
  p->n = (int32_t)(count - 1);
  if (ops == local) {
    p->ops = malloc(sizeof *p->ops * (size_t)p->n);
    if (p->ops)
      memcpy(p->ops, local, sizeof *p->ops * (size_t)p->n);
  } else {
    p->ops = ops;
  }
  if (!p->ops) {
    p->n = 0;
    emit_oom(block);
    return -1;
  }
  return 1;
}

/* An op's resource demand against the capacity: 1 when it cannot fit. */
static int demand_too_large(MlirOperation op, int64_t demand, const opsched_options *o) {
  char msg[200];
  int32_t cap = opsched_options_capacity(o);
  if (demand <= cap)
    return 0;
  if (o->schedule.resource_limit > 0)
    snprintf(msg, sizeof msg, "op demands %lld resources but 'resource-limit' is %d",
             (long long)demand, cap);
  else if (cap < o->schedule.streams)
    snprintf(msg, sizeof msg,
             "op demands %lld resources but the device profile's 'cores' is %d",
             (long long)demand, cap);
  else
    snprintf(msg, sizeof msg,
             "op demands %lld resources but the capacity ('resource-limit', "
             "default: 'streams') is %d",
             (long long)demand, cap);
  emit(op, OPSCHED_SEVERITY_ERROR, msg);
  return 1;
}

/* One node per op (cost, demand), then the buffer model. Non-zero on a
 * diagnosed failure. */
static int add_nodes(opsched_block_plan *p, MlirBlock block, const opsched_options *o,
                     opsched_op_facts *facts, opsched_note_budget *notes,
                     const opsched_ptrmap *index, opsched_ptrmap *result_index) {
  int failed = 0, oom = 0;
  opsched_work_memo *memo = opsched_op_facts_work_memo(facts, (size_t)p->n);
  const MlirStringRef cost_name = {OPSCHED_ATTR_COST, sizeof OPSCHED_ATTR_COST - 1};
  const MlirStringRef demand_name = {OPSCHED_ATTR_RESOURCES, sizeof OPSCHED_ATTR_RESOURCES - 1};
  uint8_t *cost_dynamic = calloc((size_t)p->n, 1);
  int32_t *counts = malloc(sizeof *counts * (size_t)p->n); /* results per op */
  if (!cost_dynamic || !counts) {
    free(cost_dynamic);
    free(counts);
    emit_oom(block);
    return 1;
  }
  int64_t results = 0, operands = 0; /* for the buffer model */
  for (int32_t i = 0; i < p->n; i++) {
    opsched_prefetch_op(p->ops, i + OPSCHED_PREFETCH_AHEAD, p->n);
    counts[i] = (int32_t)mlirOperationGetNumResults(p->ops[i]);
    results += counts[i];
    operands += mlirOperationGetNumOperands(p->ops[i]);
    int dynamic = 0;
    MlirAttribute cost_attr, demand_attr; /* one call finds both */
    opsched_mlir_op_discardable_pair(p->ops[i], cost_name, demand_name, &cost_attr,
                                     &demand_attr);
    int64_t cost = op_cost(p->ops[i], cost_attr, o, &failed, &dynamic, memo);
    cost_dynamic[i] = (uint8_t)dynamic;
    int64_t demand = read_override(p->ops[i], demand_attr, OPSCHED_ATTR_RESOURCES, 1);
    if (demand == -2)
      failed = 1;
    failed |= demand_too_large(p->ops[i], demand, o);
    if (opsched_graph_add_node(p->graph, cost < 0 ? 0 : cost,
                               demand < 1 ? 1 : (int32_t)demand) < 0) {
      oom = 1;
      break;
    }
  }
  /* Most dependency edges are one per operand: their storage at once
   * rather than by doubling (a block of dense ops has millions). */
  oom |= !oom && opsched_graph_reserve_edges(p->graph, operands) != OPSCHED_OK;
  /* The results' map (the ops' address range) without another pass over
   * the ops: their result counts are known. */
  if (oom || (!failed && opsched_block_results_init(result_index, p->ops, p->n, counts, index))) {
    free(cost_dynamic);
    free(counts);
    emit_oom(block);
    return 1;
  }
  free(counts);
  if (failed || opsched_block_buffers_build(&p->bufs, block, p->ops, p->n, p->terminator,
                                           o->inplace_program_order, facts, index,
                                           result_index, results, operands)) {
    free(cost_dynamic);
    return 1;
  }
  report_shapes(p, cost_dynamic, notes);
  free(cost_dynamic);
  return 0;
}

/* The dependency edges and the finished graph: OK, UNTOUCHED (a cycle: the
 * block keeps its order) or FAILED. */
static opsched_plan_result finish_graph(opsched_block_plan *p, MlirBlock block,
                                        const opsched_ptrmap *index,
                                        const opsched_ptrmap *result_index,
                                        opsched_op_facts *facts) {
  int err = opsched_deps_add_edges(p->graph, p->ops, p->n, index, result_index, facts);
  /* The order the buffer model's in-place writes rely on (forward in the
   * block like every other edge, so no cycle can come from them). */
  for (int32_t k = 0; !err && k < p->bufs.num_order_edges; k++)
    err = opsched_graph_add_edge(p->graph, p->bufs.order_from[k], p->bufs.order_to[k]) !=
          OPSCHED_OK;
  if (err) {
    emit_oom(block); /* edges fail only when they cannot be stored */
    return OPSCHED_PLAN_FAILED;
  }
  opsched_status st = opsched_graph_finalize(p->graph);
  if (st == OPSCHED_ERR_CYCLE) {
    MlirOperation parent = mlirBlockGetParentOperation(block);
    emit(mlirOperationIsNull(parent) ? p->ops[0] : parent, OPSCHED_SEVERITY_WARNING,
         "opsched: block left in its original order: its dependency graph has a cycle");
    opsched_graph_destroy(p->graph);
    p->graph = NULL;
    return OPSCHED_PLAN_UNTOUCHED;
  }
  if (st != OPSCHED_OK) {
    emit_failure(p, "finish this block's graph", st);
    return OPSCHED_PLAN_FAILED;
  }
  return OPSCHED_PLAN_OK;
}

/* The schedule: read back from the IR (placement) or chosen on the
 * frontier, which may pack the arena too (*packed, *arena_st). Non-zero on
 * a diagnosed failure. */
static int schedule_block(opsched_block_plan *p, const opsched_options *o,
                          opsched_plan_source source, plan_clock *clock,
                          opsched_status *arena_st, int *packed) {
  opsched_status st;
  if (source == OPSCHED_PLAN_PLACEMENT) {
    int diagnosed;
    st = schedule_from_ir(p, &diagnosed);
    if (diagnosed)
      return 1;
    if (st == OPSCHED_ERR_INVALID) {
      emit(p->ops[0], OPSCHED_SEVERITY_ERROR,
           "opsched: the block's opsched.start/end/stream attributes are not a valid "
           "schedule (a dependency starts before its producer ends, or ops of one "
           "stream overlap); run op-schedule-verify for details");
      return 1;
    }
    if (st == OPSCHED_OK && opsched_schedule_stream_count(p->schedule) > 1 &&
        (st = syncs_from_ir(p)) == OPSCHED_ERR_INVALID) {
      emit(p->ops[0], OPSCHED_SEVERITY_ERROR,
           "opsched: the block's opsched.waits do not follow its schedule (an unknown "
           "opsched.id, or a wait on an op that does not end before the waiting op "
           "starts); run op-schedule-verify for details");
      return 1;
    }
  } else {
    st = schedule_on_frontier(p, o, clock, arena_st, packed);
  }
  if (st != OPSCHED_OK) {
    emit_failure(p, "schedule this block", st);
    return 1;
  }
  return 0;
}

/* Slots and offsets under the schedule, with the waits timeline reuse
 * needs. Non-zero on a diagnosed failure. */
static int assign_arena(opsched_block_plan *p, const opsched_options *o,
                        opsched_plan_source source, opsched_status arena_st, int packed) {
  if (!o->buffer_slots || !p->bufs.buffers)
    return 0;
  /* Timeline reuse adds waits, so only where this pass writes them. */
  unsigned packers = OPSCHED_ARENA_DEFAULT;
  if (o->sync_reuse && source != OPSCHED_PLAN_PLACEMENT)
    packers |= OPSCHED_ARENA_SYNC_REUSE;
  opsched_status st = packed ? arena_st
                             : opsched_arena_assign_with(p->graph, p->schedule,
                                                         p->bufs.buffers, o->alignment,
                                                         packers, &p->arena);
  if (st == OPSCHED_OK) {
    int64_t nsync;
    const int32_t *to;
    const int32_t *from = opsched_arena_syncs(p->arena, &nsync, &to);
    int64_t before = opsched_schedule_num_waits(p->schedule);
    st = opsched_schedule_add_syncs(p->schedule, p->graph, from, to, nsync);
    p->reuse_waits = opsched_schedule_num_waits(p->schedule) - before;
  }
  if (st == OPSCHED_ERR_INFEASIBLE) {
    /* Saturated (overflowing) sizes cannot get 64-bit offsets: the block
     * keeps its schedule and figures, without slots. */
    emit(p->ops[0], OPSCHED_SEVERITY_WARNING,
         "opsched: buffer sizes overflow 64-bit arena offsets; no slots assigned in "
         "this block");
    st = OPSCHED_OK;
  }
  if (st != OPSCHED_OK) {
    emit_failure(p, "assign buffer slots in this block", st);
    return 1;
  }
  return 0;
}

/* Nothing costs anything (a scalar payload body such as linalg.generic's
 * under the roofline): ranks tie, the order would not change, and
 * annotating zeros is noise. The plan is dropped. */
static void drop_plan(opsched_block_plan *p) {
  opsched_schedule_destroy(p->schedule);
  opsched_graph_destroy(p->graph);
  opsched_block_buffers_release(&p->bufs);
  opsched_arena_destroy(p->arena);
  p->arena = NULL;
  p->schedule = NULL;
  p->graph = NULL;
}

/* Every op costs 0 and nothing is a buffer (a linalg op's scalar body
 * under the roofline): the critical path the schedule would find is 0, so
 * the plan would be dropped after scheduling (drop_plan): drop it before.
 * Not when the schedule is read back from the IR, whose attributes are
 * checked there. */
static int costs_nothing(const opsched_block_plan *p, opsched_plan_source source) {
  if (source == OPSCHED_PLAN_PLACEMENT || p->bufs.buffers)
    return 0;
  for (int32_t v = 0; v < p->n; v++)
    if (opsched_graph_cost(p->graph, v) != 0)
      return 0;
  return 1;
}

/* What costs_nothing would find, decided before building anything: under
 * the roofline every op is free (no shaped operand or result, no region,
 * no cost or resource override), no block argument is a buffer, and every
 * operand is defined before its user (no cycle for finish_graph to warn
 * about). A linalg op's scalar body is one: thousands of them in a model,
 * each otherwise a graph, a buffer model and dependencies dropped at once. */
static int trivially_free(const opsched_block_plan *p, const opsched_ptrmap *index,
                          const opsched_options *o, opsched_plan_source source) {
  if (source == OPSCHED_PLAN_PLACEMENT || o->cost_model == OPSCHED_COST_UNIT)
    return 0;
  for (intptr_t a = 0, na = mlirBlockGetNumArguments(p->block); a < na; a++)
    if (mlirTypeIsAShaped(mlirValueGetType(mlirBlockGetArgument(p->block, a))))
      return 0;
  for (int32_t i = 0; i < p->n; i++) {
    MlirOperation op = p->ops[i];
    if (mlirOperationGetNumRegions(op) != 0 || mlirOperationGetNumDiscardableAttributes(op) != 0)
      return 0;
    for (intptr_t r = 0, nr = mlirOperationGetNumResults(op); r < nr; r++)
      if (mlirTypeIsAShaped(mlirValueGetType(mlirOperationGetResult(op, r))))
        return 0;
    for (intptr_t k = 0, nk = mlirOperationGetNumOperands(op); k < nk; k++) {
      MlirValue v = mlirOperationGetOperand(op, k);
      if (mlirTypeIsAShaped(mlirValueGetType(v)))
        return 0;
      if (mlirValueIsAOpResult(v) &&
          opsched_ptrmap_get(index, mlirOpResultGetOwner(v).ptr) >= i)
        return 0;
    }
  }
  return 1;
}

opsched_plan_result opsched_block_plan_build_timed(opsched_block_plan *p, MlirBlock block,
                                                   const opsched_options *o,
                                                   opsched_plan_source source,
                                                   const opsched_plan_hooks *hooks,
                                                   opsched_op_facts *facts,
                                                   opsched_note_budget *notes) {
  memset(p, 0, sizeof *p);
  p->block = block;
  p->unconstrained_makespan = p->unconstrained_peak = -1;
  p->memory_limit_met = p->arena_limit_met = 1;
  int have = collect_ops(p, block);
  if (p->n < OPSCHED_PHASE_TIMER_MIN_OPS)
    hooks = NULL; /* counted in the caller's plan timer (block_plan.h) */
  if (have <= 0)
    return have < 0 ? OPSCHED_PLAN_FAILED : OPSCHED_PLAN_UNTOUCHED;
  /* The graph phase starts with the ops' index (not before: most blocks,
   * such as a linalg body, end above without a plan or a timer). */
  plan_clock clock = {hooks, -1};
  plan_phase(hooks, &clock.phase, OPSCHED_PLAN_PHASE_GRAPH);
  opsched_plan_result result = OPSCHED_PLAN_FAILED;
  opsched_ptrmap index = {0}, result_index = {0}; /* result_index: made by add_nodes */

  /* The ops' positions, on a large block placed by address (ptrmap.h: a
   * block's ops lie at nearly ascending addresses; the value maps of the
   * buffer model and the alias sets follow this one). A smaller block's
   * tables and ops stay in the last-level cache whatever the placement:
   * hashed, as cheap in instructions as it gets. */
  enum { BY_ADDRESS_MIN_OPS = 32768 };
  uintptr_t lo = 1, hi = 0; /* lo > hi: no range */
  for (int32_t i = 0; p->n >= BY_ADDRESS_MIN_OPS && i < p->n; i++) {
    uintptr_t a = (uintptr_t)p->ops[i].ptr;
    lo = i == 0 || a < lo ? a : lo;
    hi = a > hi ? a : hi;
  }
  if (opsched_ptrmap_init_near(&index, (size_t)p->n, (const void *)lo, (const void *)hi)) {
    emit_oom(block);
    goto done;
  }
  int lost = 0;
  for (int32_t i = 0; i < p->n; i++)
    lost |= opsched_ptrmap_put(&index, p->ops[i].ptr, i);
  if (lost) {
    emit_oom(block);
    goto done;
  }

  result = OPSCHED_PLAN_UNTOUCHED;
  if (trivially_free(p, &index, o, source))
    goto done;
  result = OPSCHED_PLAN_FAILED;
  p->graph = opsched_graph_create((size_t)p->n);
  if (!p->graph) {
    emit_oom(block);
    goto done;
  }
  if (add_nodes(p, block, o, facts, notes, &index, &result_index))
    goto done;
  result = finish_graph(p, block, &index, &result_index, facts);
  /* Nothing past the graph reads the two maps, nor (on a flat block) the
   * summaries: freed before the schedule and the arena, which hold the
   * plan's largest arrays. */
  opsched_ptrmap_free(&result_index);
  opsched_ptrmap_free(&index);
  opsched_op_facts_release_flat(facts);
  if (result != OPSCHED_PLAN_OK)
    goto done;
  if (costs_nothing(p, source)) {
    drop_plan(p);
    result = OPSCHED_PLAN_UNTOUCHED;
    goto done;
  }
  result = OPSCHED_PLAN_FAILED;
  plan_phase(hooks, &clock.phase, OPSCHED_PLAN_PHASE_SCHEDULE);
  opsched_status arena_st = OPSCHED_OK;
  int packed = 0;
  if (schedule_block(p, o, source, &clock, &arena_st, &packed))
    goto done;
  plan_phase(hooks, &clock.phase, OPSCHED_PLAN_PHASE_ARENA);
  if (assign_arena(p, o, source, arena_st, packed))
    goto done;
  if (opsched_schedule_critical_path(p->schedule) == 0) {
    drop_plan(p);
    result = OPSCHED_PLAN_UNTOUCHED;
    goto done;
  }
  result = OPSCHED_PLAN_OK;
done:
  plan_phase(hooks, &clock.phase, -1);
  opsched_ptrmap_free(&result_index);
  opsched_ptrmap_free(&index);
  return result;
}

void opsched_block_plan_release(opsched_block_plan *p) {
  opsched_arena_destroy(p->arena);
  opsched_block_buffers_release(&p->bufs);
  opsched_schedule_destroy(p->schedule);
  opsched_graph_destroy(p->graph);
  free(p->frontier);
  free(p->ops);
  memset(p, 0, sizeof *p);
}

void opsched_block_plan_trim(opsched_block_plan *p) {
  opsched_graph_destroy(p->graph);
  opsched_buffers_destroy(p->bufs.buffers);
  p->graph = NULL;
  p->bufs.buffers = NULL;
}

/* The model's values of each op: value indices grouped by op (counting
 * sort on value_op). *first has n + 1 entries; NULL on out of memory. */
static int32_t *values_by_op(const opsched_block_plan *p, int32_t **first) {
  const opsched_block_buffers *bb = &p->bufs;
  *first = calloc((size_t)p->n + 2, sizeof **first);
  int32_t *by_op = malloc(sizeof *by_op * (size_t)(bb->num_values + 1));
  int32_t *fill = calloc((size_t)p->n + 1, sizeof *fill);
  if (!*first || !by_op || !fill) {
    free(*first);
    free(by_op);
    free(fill);
    *first = NULL;
    return NULL;
  }
  int32_t *f = *first;
  for (int32_t i = 0; i < bb->num_values; i++)
    if (bb->value_op[i] >= 0)
      f[bb->value_op[i] + 1]++;
  for (int32_t v = 0; v < p->n; v++)
    f[v + 1] += f[v];
  for (int32_t i = 0; i < bb->num_values; i++) {
    int32_t v = bb->value_op[i];
    if (v >= 0)
      by_op[f[v] + fill[v]++] = i;
  }
  free(fill);
  return by_op;
}

/* Slot numbers by first use in the new order, not the input's buffer
 * numbering, so a second run on the pass's own output writes the same
 * numbers (idempotence). -1 for buffers without a slot; NULL on OOM. */
static int64_t *slot_numbers(const opsched_block_plan *p, const int32_t *order,
                             const int32_t *first, const int32_t *by_op) {
  const opsched_block_buffers *bb = &p->bufs;
  int64_t *number = malloc(sizeof *number * (size_t)(bb->num_buffers + 1));
  if (!number)
    return NULL;
  for (int32_t k = 0; k < bb->num_buffers; k++)
    number[k] = -1;
  int64_t next = 0;
  for (int32_t i = 0; i < p->n; i++)
    for (int32_t j = first[order[i]]; j < first[order[i] + 1]; j++) {
      int32_t buf = bb->value_buffer[by_op[j]];
      if (bb->value_result[by_op[j]] >= 0 && bb->buffer_node[buf] >= 0 && number[buf] < 0)
        number[buf] = next++;
    }
  return number;
}

/* Slot, offset and size per result of op v (arrays of its result count). */
static int slot_arrays(const opsched_block_plan *p, int32_t v, const int32_t *first,
                       const int32_t *by_op, const int64_t *slot_number, int64_t *slot,
                       int64_t *offset, int64_t *size, int32_t nr) {
  const opsched_block_buffers *bb = &p->bufs;
  for (int32_t r = 0; r < nr; r++)
    slot[r] = offset[r] = size[r] = -1;
  int any = 0;
  for (int32_t j = first[v]; j < first[v + 1]; j++) {
    int32_t i = by_op[j];
    int32_t buf = bb->value_buffer[i], r = bb->value_result[i];
    if (r < 0 || r >= nr || bb->buffer_node[buf] < 0)
      continue; /* resident buffers get no slot */
    slot[r] = slot_number[buf];
    if (bb->value_owns[i]) {
      int dyn = bb->op_dynamic[v] && bb->buffer_bytes[buf] == 0;
      offset[r] = dyn ? -2 : opsched_arena_offset(p->arena, buf);
      size[r] = bb->buffer_bytes[buf];
    }
    any = 1;
  }
  return any;
}

/* Ids of the ops op v waits on (positions in the new order), sorted. */
static int32_t wait_ids(const opsched_schedule *s, int32_t v, const int32_t *position,
                        int64_t *ids) {
  int32_t nw;
  const int32_t *waits = opsched_schedule_waits(s, v, &nw);
  for (int32_t k = 0; k < nw; k++)
    ids[k] = position[waits[k]];
  for (int32_t k = 1; k < nw; k++) /* sorted ids read best */
    for (int32_t j = k; j > 0 && ids[j - 1] > ids[j]; j--) {
      int64_t t = ids[j];
      ids[j] = ids[j - 1];
      ids[j - 1] = t;
    }
  return nw;
}

void opsched_block_plan_apply(const opsched_block_plan *p, int flags, opsched_attr_writer *w) {
  const opsched_schedule *s = p->schedule;
  int reorder = flags & OPSCHED_APPLY_SCHEDULE, ranks = flags & OPSCHED_APPLY_RANKS;
  int slots = (flags & OPSCHED_APPLY_SLOTS) && p->arena;
  int multi = reorder && opsched_schedule_stream_count(s) > 1;
  const int64_t *live = opsched_schedule_live_after(s);
  const int32_t *order = opsched_schedule_order(s);
  int32_t max_results = p->max_results;
  int32_t *position = malloc(sizeof *position * (size_t)(p->n + 1));
  int64_t *ids = malloc(sizeof *ids * (size_t)(p->n + 1));
  int64_t *arrays = malloc(sizeof *arrays * 3 * (size_t)(max_results + 1));
  int32_t *first = NULL, *by_op = slots ? values_by_op(p, &first) : NULL;
  int64_t *slot_number = by_op ? slot_numbers(p, order, first, by_op) : NULL;
  if (!position || !ids || !arrays || (slots && !slot_number))
    goto done; /* out of memory: the IR keeps its original form */
  for (int32_t i = 0; i < p->n; i++)
    position[order[i]] = i;
  /* Ids and slots (below the op and buffer counts) are read by value. */
  opsched_attr_writer_reserve(w, (p->n > p->bufs.num_buffers ? p->n : p->bufs.num_buffers) + 1);
  int64_t *slot = arrays, *offset = arrays + max_results + 1,
          *size = arrays + 2 * (max_results + 1);
  for (int32_t v = 0; v < p->n; v++) {
    /* One dictionary update per op, whatever the number of attributes. */
    opsched_attr_batch b;
    opsched_batch_begin(&b, w, p->ops[v]);
    if (ranks) {
      opsched_batch_i64(&b, OPSCHED_OP_RANK, opsched_schedule_ranks(s)[v]);
      opsched_batch_unit(&b, OPSCHED_OP_CRITICAL, opsched_schedule_critical(s)[v]);
    }
    if (reorder) {
      opsched_batch_i64(&b, OPSCHED_OP_START, opsched_schedule_starts(s)[v]);
      opsched_batch_i64(&b, OPSCHED_OP_END, opsched_schedule_ends(s)[v]);
      if (live)
        opsched_batch_i64(&b, OPSCHED_OP_LIVE_BYTES, live[v]);
      else
        opsched_batch_remove(&b, OPSCHED_OP_LIVE_BYTES);
      /* Streams: placement and the waits a runtime needs, by position in the
       * new order; stale ones of an earlier multi-stream run go. */
      if (multi) {
        opsched_batch_i64_once(&b, OPSCHED_OP_ID, position[v]); /* distinct */
        opsched_batch_i64(&b, OPSCHED_OP_STREAM, opsched_schedule_streams(s)[v]);
        int32_t nw = wait_ids(s, v, position, ids);
        if (nw > 0)
          opsched_batch_i64_array(&b, OPSCHED_OP_WAITS, ids, nw);
        else
          opsched_batch_remove(&b, OPSCHED_OP_WAITS);
      } else {
        opsched_batch_remove(&b, OPSCHED_OP_ID);
        opsched_batch_remove(&b, OPSCHED_OP_STREAM);
        opsched_batch_remove(&b, OPSCHED_OP_WAITS);
      }
    }
    if (flags & OPSCHED_APPLY_SLOTS) {
      int32_t nr = (int32_t)mlirOperationGetNumResults(p->ops[v]);
      if (slots && slot_arrays(p, v, first, by_op, slot_number, slot, offset, size, nr)) {
        opsched_batch_i64_array(&b, OPSCHED_OP_SLOT, slot, nr);
        opsched_batch_i64_array(&b, OPSCHED_OP_OFFSET, offset, nr);
        opsched_batch_i64_array(&b, OPSCHED_OP_SIZE, size, nr);
      } else {
        opsched_batch_remove(&b, OPSCHED_OP_SLOT);
        opsched_batch_remove(&b, OPSCHED_OP_OFFSET);
        opsched_batch_remove(&b, OPSCHED_OP_SIZE);
      }
    }
    opsched_batch_commit(&b);
  }
  if (reorder) {
    /* Chain each op after the previous one, starting at the block's front;
     * the terminator (never moved) ends up last. */
    MlirOperation front = mlirBlockGetFirstOperation(p->block);
    if (!mlirOperationEqual(front, p->ops[order[0]]))
      mlirOperationMoveBefore(p->ops[order[0]], front);
    for (int32_t i = 1; i < p->n; i++) {
      /* Moving an op next to itself corrupts the op list: skip those. */
      MlirOperation prev = p->ops[order[i - 1]];
      if (!mlirOperationEqual(mlirOperationGetNextInBlock(prev), p->ops[order[i]]))
        mlirOperationMoveAfter(p->ops[order[i]], prev);
    }
  }
done:
  free(position);
  free(ids);
  free(arrays);
  free(first);
  free(by_op);
  free(slot_number);
}
