#include "driver.h"

#include "attrs.h"
#include "block_plan.h"
#include "queries.h"
#include "summary.h"
#include "opsched/frontier.h"
#include "opsched/report.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct plan_list {
  opsched_block_plan *plans;
  uint8_t *top_level; /* block of the function's own body */
  size_t count, cap;
  int failed;
} plan_list;

static opsched_block_plan *plan_push(plan_list *l, int top) {
  if (l->count == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 8;
    opsched_block_plan *p = realloc(l->plans, sizeof *p * cap);
    if (!p)
      return NULL;
    l->plans = p;
    uint8_t *t = realloc(l->top_level, cap);
    if (!t)
      return NULL;
    l->top_level = t;
    l->cap = cap;
  }
  l->top_level[l->count] = (uint8_t)top;
  return &l->plans[l->count++];
}

/* Forwards a block plan's phases to the run's callback. */
static void plan_phase_to_run(void *user, opsched_plan_phase phase, int begin) {
  const opsched_run_outputs *out = user;
  static const opsched_run_phase map[] = {[OPSCHED_PLAN_PHASE_GRAPH] = OPSCHED_PHASE_GRAPH,
                                          [OPSCHED_PLAN_PHASE_SCHEDULE] = OPSCHED_PHASE_SCHEDULE,
                                          [OPSCHED_PLAN_PHASE_ARENA] = OPSCHED_PHASE_ARENA};
  out->phase(out->phase_user, map[phase], begin);
}

/* What collecting a function's blocks shares. */
typedef struct collect_ctx {
  plan_list *list;
  const opsched_options *options;
  opsched_plan_source source;
  const opsched_plan_hooks *hooks;
  opsched_op_facts *facts;
  opsched_note_budget *notes;
  int64_t function_ops; /* ops in all the function's blocks: effort's shares */
  int64_t functions;    /* the functions sharing effort's unit (1 and up) */
} collect_ctx;

static int64_t ops_in_block(MlirBlock b) {
  int64_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n++;
  return n;
}

/* Ops in every block of every region of `op`, at any depth. */
static int64_t ops_nested(MlirOperation op) {
  int64_t n = 0;
  for (MlirRegion r = mlirOperationGetFirstRegion(op); !mlirRegionIsNull(r);
       r = mlirRegionGetNextInOperation(r))
    for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(o);
           o = mlirOperationGetNextInBlock(o))
        n += 1 + ops_nested(o);
  return n;
}

/* The functions that share effort's unit with `func`
 * (opsched_effort_share_among): the ops of its name in its parent block, it
 * included, counted up to `cap` (from there the share no longer depends on
 * the count); 1 without a parent. Each function of a module was given the
 * whole unit before: a module of 10,000 functions of 12 ops took over 60 s
 * with effort=16. Only the parent block's list and its ops' names are
 * read, which the function passes running beside this one never change
 * (they may not add or remove siblings), so the count is the same on every
 * thread and run. */
static int64_t sibling_functions(MlirOperation func, int64_t cap) {
  MlirBlock parent = mlirOperationGetBlock(func);
  if (mlirBlockIsNull(parent))
    return 1;
  MlirIdentifier name = mlirOperationGetName(func);
  int64_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(parent); !mlirOperationIsNull(op) && n < cap;
       op = mlirOperationGetNextInBlock(op))
    n += mlirIdentifierEqual(mlirOperationGetName(op), name);
  return n > 0 ? n : 1;
}

/* The options block `b` is scheduled with: with effort, its share of the
 * function's (opsched_effort_share_among), so that the local search's work
 * grows with the function's ops, not with its number of blocks or the
 * module's number of functions. */
static const opsched_options *block_options(const collect_ctx *c, MlirBlock b,
                                            opsched_options *copy) {
  if (c->options->schedule.effort <= 0 || c->options->schedule.effort_placements > 0)
    return c->options;
  *copy = *c->options;
  copy->schedule.effort_placements =
      opsched_effort_share_among(copy->schedule.effort, ops_in_block(b), c->function_ops,
                                 c->functions);
  return copy;
}

static void collect_region(const collect_ctx *c, MlirRegion region, int top) {
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    opsched_block_plan *p = plan_push(c->list, top);
    if (!p) {
      opsched_mlir_emit(mlirOperationGetLocation(mlirBlockGetParentOperation(b)),
                      OPSCHED_SEVERITY_ERROR,
                      "opsched: out of memory while collecting the function's blocks");
      c->list->failed = 1;
      return;
    }
    opsched_options copy;
    if (opsched_block_plan_build_timed(p, b, block_options(c, b, &copy), c->source, c->hooks,
                                       c->facts, c->notes) == OPSCHED_PLAN_FAILED)
      c->list->failed = 1;
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      for (MlirRegion r = mlirOperationGetFirstRegion(op); !mlirRegionIsNull(r);
           r = mlirRegionGetNextInOperation(r))
        collect_region(c, r, 0);
  }
}

/* An op's label in reports: its name location ("a" in loc("a")) when it has
 * one, else its op name. Caller frees. */
static char *op_label(MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirStringRef s = mlirLocationIsAName(loc)
                        ? mlirIdentifierStr(mlirLocationNameGetName(loc))
                        : mlirIdentifierStr(mlirOperationGetName(op));
  char *label = malloc(s.length + 1);
  if (label) {
    memcpy(label, s.data, s.length);
    label[s.length] = '\0';
  }
  return label;
}

/* The function's symbol name, or "?" (not NUL-terminated). */
static MlirStringRef func_name(MlirOperation func) {
  MlirAttribute sym = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_name"));
  if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym))
    return mlirStringAttrGetValue(sym);
  return mlirStringRefCreateFromCString("?");
}

static void write_reports(const opsched_block_plan *p, const opsched_run_outputs *out,
                          MlirOperation func, const opsched_options *o) {
  char **labels = calloc((size_t)p->n, sizeof *labels);
  if (!labels)
    return;
  int ok = 1;
  for (int32_t v = 0; v < p->n; v++)
    ok &= (labels[v] = op_label(p->ops[v])) != NULL;
  if (ok) {
    char title[256];
    MlirStringRef fn = func_name(func);
    MlirOperation parent = mlirBlockGetParentOperation(p->block);
    MlirStringRef pn = mlirIdentifierStr(mlirOperationGetName(parent));
    snprintf(title, sizeof title, "@%.*s: block of %.*s", (int)fn.length, fn.data,
             (int)pn.length, pn.data);
    if (out->dot)
      opsched_dot_cluster_folded(out->dot, (*out->cluster_counter)++, title, p->graph,
                                 p->schedule, (const char *const *)labels, o->dot_fold);
    if (out->table)
      opsched_print_table(out->table, p->schedule, (const char *const *)labels);
  }
  for (int32_t v = 0; v < p->n; v++)
    free(labels[v]);
  free(labels);
}

typedef opsched_function_figures function_figures;
static void write_summary(FILE *out, MlirOperation func, const function_figures *f,
                          int reorder, int32_t streams);

/* Peaks exist only where some block had buffers; stale values of an earlier
 * run are removed otherwise. */
static void write_memory_attrs(opsched_attr_list *attrs, const opsched_options *o,
                               int64_t peak, int64_t original_peak, int64_t resident) {
  if (peak >= 0) {
    opsched_attr_list_i64(attrs, OPSCHED_ATTR_PEAK_MEMORY, peak);
    opsched_attr_list_i64(attrs, OPSCHED_ATTR_ORIGINAL_PEAK, original_peak);
    opsched_attr_list_i64(attrs, OPSCHED_ATTR_RESIDENT, resident);
  } else {
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_PEAK_MEMORY);
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_ORIGINAL_PEAK);
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_RESIDENT);
  }
  if (o->max_memory > 0)
    opsched_attr_list_i64(attrs, OPSCHED_ATTR_MEMORY_LIMIT, o->max_memory);
  else
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_MEMORY_LIMIT);
}


/* Sums of per-block figures saturate at INT64_MAX like the figures
 * themselves (tensor sizes that overflow 64-bit byte counts). */
static int64_t figure_add(int64_t a, int64_t b) {
  return b > 0 && a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* The attributes' range (OPSCHED_ATTR_VALUE_MAX): the figures a caller gets
 * are the values the attributes hold. */
static int64_t cap(int64_t v) { return v > OPSCHED_ATTR_VALUE_MAX ? OPSCHED_ATTR_VALUE_MAX : v; }

static void cap_figures(function_figures *f) {
  int64_t *fields[] = {&f->makespan, &f->critical_path, &f->work, &f->lower_bound,
                       &f->peak, &f->original_peak, &f->resident, &f->buffer_bytes,
                       &f->arena, &f->free_makespan, &f->free_peak};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    *fields[i] = cap(*fields[i]);
}

/* The frontier figures: a block without them (one stream, no buffers,
 * too large for the sweep) counts with its own schedule's. */
static void gather_frontier(const plan_list *l, function_figures *f) {
  int any = 0;
  f->free_makespan = 0;
  f->free_peak = -1;
  for (size_t i = 0; i < l->count; i++) {
    const opsched_block_plan *p = &l->plans[i];
    if (!p->schedule)
      continue;
    int32_t used = opsched_schedule_streams_used(p->schedule);
    if (used > f->streams_used)
      f->streams_used = used;
    f->arena_limit_met &= p->arena_limit_met;
    if (!l->top_level[i])
      continue;
    any |= p->unconstrained_makespan >= 0;
    f->free_makespan = figure_add(f->free_makespan, p->unconstrained_makespan >= 0
                                                        ? p->unconstrained_makespan
                                                        : opsched_schedule_makespan(p->schedule));
    int64_t peak = p->unconstrained_peak >= 0 ? p->unconstrained_peak
                                              : opsched_schedule_peak_memory(p->schedule);
    if (peak > f->free_peak)
      f->free_peak = peak;
  }
  if (!any)
    f->free_makespan = f->free_peak = -1;
}

static void gather_figures(const plan_list *l, function_figures *f) {
  memset(f, 0, sizeof *f);
  f->peak = f->original_peak = f->resident = f->arena = -1;
  f->limit_met = f->arena_limit_met = 1;
  gather_frontier(l, f);
  for (size_t i = 0; i < l->count; i++) {
    const opsched_schedule *s = l->plans[i].schedule;
    if (!s)
      continue;
    f->ops += l->plans[i].n;
    f->blocks++;
    const opsched_block_buffers *bb = &l->plans[i].bufs;
    for (int32_t k = 0; bb->buffers && k < bb->num_buffers; k++)
      if (bb->buffer_node[k] >= 0) {
        f->buffers++;
        f->buffer_bytes = figure_add(f->buffer_bytes, bb->buffer_bytes[k]);
      }
    if (!l->top_level[i])
      continue;
    f->scheduled = 1;
    f->makespan = figure_add(f->makespan, opsched_schedule_makespan(s));
    f->critical_path =
        figure_add(f->critical_path, opsched_schedule_critical_path(s));
    f->work = figure_add(f->work, opsched_schedule_total_work(s));
    f->lower_bound = figure_add(f->lower_bound, opsched_schedule_lower_bound(s));
    f->waits_before += opsched_schedule_num_waits_unreduced(s);
    f->waits_after += opsched_schedule_num_waits(s);
    f->reuse_waits += l->plans[i].reuse_waits;
    /* Blocks of a CFG run one at a time: the function's peak is the largest
     * block peak. */
    if (opsched_schedule_peak_memory(s) > f->peak)
      f->peak = opsched_schedule_peak_memory(s);
    if (opsched_schedule_original_peak_memory(s) > f->original_peak)
      f->original_peak = opsched_schedule_original_peak_memory(s);
    if (opsched_schedule_resident_bytes(s) > f->resident)
      f->resident = opsched_schedule_resident_bytes(s);
    /* Against max-memory (the frontier may run tighter budgets inside). */
    f->limit_met &= l->plans[i].memory_limit_met;
    if (l->plans[i].arena && opsched_arena_size(l->plans[i].arena) > f->arena)
      f->arena = opsched_arena_size(l->plans[i].arena);
  }
  cap_figures(f);
}

static void write_arena_attrs(opsched_attr_list *attrs, const opsched_options *o,
                              const function_figures *f) {
  if (f->arena < 0) {
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_ARENA_SIZE);
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_ALIGNMENT);
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_FRAGMENTATION);
    return;
  }
  opsched_attr_list_i64(attrs, OPSCHED_ATTR_ARENA_SIZE, f->arena);
  opsched_attr_list_i64(attrs, OPSCHED_ATTR_ALIGNMENT, o->alignment);
  /* Against the peak of live bytes, the lower bound of any arena. */
  opsched_attr_list_f64(attrs, OPSCHED_ATTR_FRAGMENTATION,
                       f->peak > 0 ? (double)f->arena / (double)f->peak - 1.0 : 0.0);
}

static void write_frontier_attrs(opsched_attr_list *attrs, const function_figures *f) {
  if (f->free_makespan >= 0) {
    opsched_attr_list_i64(attrs, OPSCHED_ATTR_UNCONSTRAINED_MAKESPAN, f->free_makespan);
    opsched_attr_list_i64(attrs, OPSCHED_ATTR_UNCONSTRAINED_PEAK, f->free_peak);
  } else {
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_UNCONSTRAINED_MAKESPAN);
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_UNCONSTRAINED_PEAK);
  }
}

static void write_function_attrs(opsched_attr_list *attrs, const opsched_options *o,
                                 const function_figures *f, int reorder) {
  opsched_attr_list_i64(attrs, OPSCHED_ATTR_CRITICAL_PATH, f->critical_path);
  if (!reorder)
    return;
  opsched_attr_list_i64(attrs, OPSCHED_ATTR_MAKESPAN, f->makespan);
  opsched_attr_list_i64(attrs, OPSCHED_ATTR_LOWER_BOUND, f->lower_bound);
  /* The seed's metric: original order on one stream (= total work) over the
   * new makespan. */
  opsched_attr_list_f64(attrs, OPSCHED_ATTR_SPEEDUP,
                       f->makespan > 0 ? (double)f->work / (double)f->makespan : 1.0);
  /* What the schedule uses, not the option: the frontier may leave
   * streams idle, and a narrow block cannot fill them. */
  opsched_attr_list_i64(attrs, OPSCHED_ATTR_STREAMS, f->streams_used > 0 ? f->streams_used : 1);
  opsched_attr_list_i64(attrs, OPSCHED_ATTR_STREAMS_REQUESTED, o->schedule.streams);
  write_frontier_attrs(attrs, f);
  opsched_attr_list_i64(attrs, OPSCHED_ATTR_WAITS_BEFORE, f->waits_before);
  opsched_attr_list_i64(attrs, OPSCHED_ATTR_WAITS_AFTER, f->waits_after);
  if (f->reuse_waits > 0)
    opsched_attr_list_i64(attrs, OPSCHED_ATTR_REUSE_WAITS, f->reuse_waits);
  else
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_REUSE_WAITS);
  write_memory_attrs(attrs, o, f->peak, f->original_peak, f->resident);
  write_arena_attrs(attrs, o, f);
  if (o->schedule.streams > 1)
    opsched_attr_list_i64(attrs, OPSCHED_ATTR_RESOURCE_LIMIT, opsched_options_capacity(o));
  else
    opsched_attr_list_remove(attrs, OPSCHED_ATTR_RESOURCE_LIMIT);
}

static void write_summary(FILE *out, MlirOperation func, const function_figures *f,
                          int reorder, int32_t streams) {
  MlirStringRef name = func_name(func);
  fprintf(out, "@%.*s: ", (int)name.length, name.data);
  if (!f->scheduled) {
    fputs("nothing to schedule\n", out);
    return;
  }
  fprintf(out, "%lld ops in %lld block%s; critical path %lld ns", (long long)f->ops,
          (long long)f->blocks, f->blocks == 1 ? "" : "s", (long long)f->critical_path);
  if (reorder) {
    /* The seed's metric: time before (original order, one stream) / after. */
    double speedup = f->makespan > 0 ? (double)f->work / (double)f->makespan : 1.0;
    fprintf(out, "; makespan %lld ns on %d stream%s; speedup %.2fx over the original order on one stream",
            (long long)f->makespan, streams, streams == 1 ? "" : "s", speedup);
    if (f->peak >= 0)
      fprintf(out,
              "; peak memory %lld bytes (original order %lld, resident %lld); "
              "%lld allocations of %lld bytes",
              (long long)f->peak, (long long)f->original_peak, (long long)f->resident,
              (long long)f->buffers, (long long)f->buffer_bytes);
  }
  fputc('\n', out);
}

static opsched_function_report *report_take(plan_list *l, MlirOperation func,
                                            const opsched_options *o);

/* Whether `op` carries any opsched.* attribute: most unscheduled ops (payload
 * bodies) carry none, and skipping them saves a dictionary rebuild each. */
static int has_opsched_attr(MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumDiscardableAttributes(op); i < n; i++) {
    MlirStringRef name =
        mlirIdentifierStr(mlirOperationGetDiscardableAttribute(op, i).name);
    if (name.length > 8 && memcmp(name.data, "opsched.", 8) == 0)
      return 1;
  }
  return 0;
}

/* max-memory bounds what a runtime allocates: the arena too. Returns 1
 * when the function must fail (strict-memory). */
static int check_arena_limit(MlirOperation func, const opsched_options *o,
                             const function_figures *f) {
  if (o->max_memory <= 0 || f->arena_limit_met)
    return 0;
  char msg[300];
  snprintf(msg, sizeof msg,
           "opsched: the buffer arena does not fit max-memory = %lld bytes: the "
           "smallest arena found is %lld bytes (peak live bytes %lld)",
           (long long)o->max_memory, (long long)f->arena, (long long)f->peak);
  opsched_mlir_emit(mlirOperationGetLocation(func),
                  o->strict_memory ? OPSCHED_SEVERITY_ERROR : OPSCHED_SEVERITY_WARNING, msg);
  return o->strict_memory;
}

static void no_effect(MlirOperation func, opsched_severity severity, const char *what) {
  char msg[300];
  snprintf(msg, sizeof msg, "opsched: %s", what);
  opsched_mlir_emit(mlirOperationGetLocation(func), severity, msg);
}

/* Options that cannot change this function's result, detected from the
 * options and the figures alone (no extra scheduling run). */
static void warn_no_effect(MlirOperation func, const opsched_options *o,
                           const function_figures *f) {
  int streams = o->schedule.streams > 1;
  if (o->schedule.effort > 0 && !streams)
    no_effect(func, OPSCHED_SEVERITY_WARNING,
              "'effort' has no effect on one stream: the makespan is the total work "
              "whatever the order");
  if (o->makespan_tolerance != OPSCHED_DEFAULT_MAKESPAN_TOLERANCE &&
      (!streams || o->max_memory > 0 || o->memory_policy != OPSCHED_MEMORY_CRITICAL_PATH ||
       f->peak < 0))
    no_effect(func, OPSCHED_SEVERITY_WARNING,
              "'makespan-tolerance' has no effect: it applies on several streams, "
              "without max-memory, with the critical-path policy, to blocks with buffers");
  if (o->strict_memory && o->max_memory <= 0)
    no_effect(func, OPSCHED_SEVERITY_WARNING, "'strict-memory' has no effect without 'max-memory'");
  /* Per function, and a module mixes scalar and tensor functions: a remark. */
  if (f->peak < 0 && o->max_memory > 0)
    no_effect(func, OPSCHED_SEVERITY_REMARK,
              "'max-memory' has no effect here: no block of this function has buffers "
              "to count");
  if (f->peak < 0 && o->memory_policy != OPSCHED_MEMORY_CRITICAL_PATH)
    no_effect(func, OPSCHED_SEVERITY_REMARK,
              "'policy' has no effect here: no block of this function has buffers to count");
  if (!o->buffer_slots && o->alignment != OPSCHED_ARENA_DEFAULT_ALIGNMENT)
    no_effect(func, OPSCHED_SEVERITY_WARNING, "'alignment' has no effect with buffer-slots=false");
  /* The cap changed the result only where a block uses every capped stream. */
  if (o->schedule.streams > OPSCHED_STREAMS_MAX && f->streams_used >= OPSCHED_STREAMS_MAX) {
    char msg[200];
    snprintf(msg, sizeof msg,
             "'streams' = %d is not honoured: schedules open at most %d streams, and this "
             "function is scheduled as with streams=%d",
             (int)o->schedule.streams, OPSCHED_STREAMS_MAX, OPSCHED_STREAMS_MAX);
    no_effect(func, OPSCHED_SEVERITY_WARNING, msg);
  }
}


/* Removes what opsched_block_plan_apply would write under `flags` from every
 * op of `block` (all = 1) or from its terminator only: ops this run does not
 * schedule must not keep an earlier run's results. */
static void clear_stale(opsched_attr_writer *w, MlirBlock block, MlirOperation terminator,
                        int all, int flags) {
  static const opsched_op_attr by_flag[][6] = {
      {OPSCHED_OP_RANK, OPSCHED_OP_CRITICAL},
      {OPSCHED_OP_START, OPSCHED_OP_END, OPSCHED_OP_LIVE_BYTES, OPSCHED_OP_ID,
       OPSCHED_OP_STREAM, OPSCHED_OP_WAITS},
      {OPSCHED_OP_SLOT, OPSCHED_OP_OFFSET, OPSCHED_OP_SIZE}};
  static const int counts[] = {2, 6, 3};
  static const int flag_of[] = {OPSCHED_APPLY_RANKS, OPSCHED_APPLY_SCHEDULE,
                                OPSCHED_APPLY_SLOTS};
  MlirOperation op = all ? mlirBlockGetFirstOperation(block) : terminator;
  for (; !mlirOperationIsNull(op); op = all ? mlirOperationGetNextInBlock(op)
                                            : (MlirOperation){NULL}) {
    if (!has_opsched_attr(op))
      continue;
    opsched_attr_batch b;
    opsched_batch_begin(&b, w, op);
    for (int k = 0; k < 3; k++)
      if (flags & flag_of[k])
        for (int j = 0; j < counts[k]; j++)
          opsched_batch_remove(&b, by_flag[k][j]);
    opsched_batch_commit(&b);
  }
}

static void phase(const opsched_run_outputs *out, opsched_run_phase ph, int begin) {
  if (out->phase)
    out->phase(out->phase_user, ph, begin);
}

/* Remarks and the max-memory diagnostic, once the plans are built; a strict
 * unmet limit fails the run. */
static void diagnose_plans(plan_list *l, MlirOperation func, const opsched_options *o,
                           const function_figures *f, const opsched_run_outputs *out) {
  if (l->failed || !out->reorder)
    return;
  if (o->memory_policy == OPSCHED_MEMORY_EXACT)
    for (size_t i = 0; i < l->count; i++)
      if (l->plans[i].schedule && l->plans[i].bufs.buffers &&
          !opsched_schedule_memory_exact_proven(l->plans[i].schedule)) {
        opsched_mlir_emit(mlirOperationGetLocation(l->plans[i].ops[0]), OPSCHED_SEVERITY_REMARK,
                        "opsched: the exact search stopped at its budget: this block's "
                        "order is the lowest peak found, not a proven optimum");
      }
  if (!f->limit_met && o->max_memory > 0) {
    char msg[256];
    snprintf(msg, sizeof msg,
             "opsched: cannot meet max-memory = %lld bytes: the lowest peak found is "
             "%lld bytes",
             (long long)o->max_memory, (long long)f->peak);
    opsched_mlir_emit(mlirOperationGetLocation(func),
                    o->strict_memory ? OPSCHED_SEVERITY_ERROR : OPSCHED_SEVERITY_WARNING,
                    msg);
    /* Strict: fail before anything is rewritten. */
    if (o->strict_memory)
      l->failed = 1;
  }
}

/* Writes every plan back (and the DOT/table text), clears what unscheduled
 * ops kept from an earlier run, then the function's attributes. */
static void apply_plans(plan_list *l, MlirOperation func, const opsched_options *o,
                        const function_figures *f, const opsched_run_outputs *out) {
  /* The figures are gathered: without reports, the graphs and buffer
   * models go before the attributes are made (a lower peak). */
  int reports = out->dot || out->table || out->report;
  for (size_t i = 0; !reports && i < l->count; i++)
    opsched_block_plan_trim(&l->plans[i]);
  int flags = out->slots_only ? OPSCHED_APPLY_SLOTS
                              : OPSCHED_APPLY_RANKS | OPSCHED_APPLY_SLOTS |
                                    (out->reorder ? OPSCHED_APPLY_SCHEDULE : 0);
  opsched_attr_writer w;
  opsched_attr_writer_init(&w, mlirOperationGetContext(func));
  for (size_t i = 0; i < l->count; i++) {
    const opsched_block_plan *p = &l->plans[i];
    clear_stale(&w, p->block, mlirBlockGetTerminator(p->block), !p->schedule, flags);
    if (!p->schedule)
      continue;
    opsched_block_plan_apply(p, flags, &w);
    if (out->dot || out->table)
      write_reports(p, out, func, o);
  }
  opsched_attr_writer_free(&w);
  opsched_attr_list fl;
  opsched_attr_list_begin(&fl, func);
  if (f->scheduled && out->slots_only)
    write_arena_attrs(&fl, o, f);
  else if (f->scheduled)
    write_function_attrs(&fl, o, f, out->reorder);
  opsched_attr_list_commit(&fl);
}

MlirLogicalResult opsched_mlir_run_on_function(MlirOperation func, const opsched_options *o,
                                           const opsched_run_outputs *out) {
  plan_list l = {0};
  opsched_plan_hooks hooks = {plan_phase_to_run, (void *)out};
  phase(out, OPSCHED_PHASE_PLAN, 1);
  /* facts NULL when out of memory: each block then makes its own. */
  int64_t function_ops = o->schedule.effort > 0 ? ops_nested(func) : 0;
  opsched_note_budget notes;
  memset(&notes, 0, sizeof notes);
  collect_ctx c = {&l, o, out->slots_only ? OPSCHED_PLAN_PLACEMENT : OPSCHED_PLAN_SCHEDULE,
                   out->phase ? &hooks : NULL, opsched_op_facts_new(), &notes, function_ops,
                   o->schedule.effort > 0
                       ? sibling_functions(func, opsched_effort_functions_cap(function_ops))
                       : 1};
  for (MlirRegion r = mlirOperationGetFirstRegion(func); !mlirRegionIsNull(r);
       r = mlirRegionGetNextInOperation(r))
    collect_region(&c, r, 1);
  opsched_op_facts_free(c.facts);
  opsched_note_flush(&notes);
  phase(out, OPSCHED_PHASE_PLAN, 0);

  function_figures f;
  gather_figures(&l, &f);
  diagnose_plans(&l, func, o, &f, out);
  if (!l.failed && out->reorder && f.scheduled && check_arena_limit(func, o, &f))
    l.failed = 1;
  if (!l.failed && out->reorder && f.scheduled)
    warn_no_effect(func, o, &f);
  if (!l.failed) {
    phase(out, OPSCHED_PHASE_ATTRIBUTES, 1);
    apply_plans(&l, func, o, &f, out);
    phase(out, OPSCHED_PHASE_ATTRIBUTES, 0);
    if (out->summary && o->summary_format != OPSCHED_SUMMARY_PRETTY)
      opsched_summary_write(out->summary, o->summary_format, func, l.plans, l.top_level,
                            l.count);
    else if (out->summary)
      write_summary(out->summary, func, &f, out->reorder, f.streams_used > 0 ? f.streams_used : 1);
    if (out->figures)
      *out->figures = f;
  }
  if (!l.failed && out->report && f.scheduled) {
    phase(out, OPSCHED_PHASE_REPORTS, 1);
    *out->report = report_take(&l, func, o);
    phase(out, OPSCHED_PHASE_REPORTS, 0);
  }
  for (size_t i = 0; i < l.count; i++)
    opsched_block_plan_release(&l.plans[i]);
  free(l.plans);
  free(l.top_level);
  return l.failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}

/* ---- Reports ------------------------------------------------------------ */

struct opsched_function_report {
  char *name;
  opsched_block_plan *plans; /* taken from the run */
  size_t count;
  opsched_report_block *blocks;
  int32_t num_blocks;
  opsched_report_frontier *frontiers; /* per block, what blocks[k].frontier points to */
  char (*frontier_notes)[96];          /* per block: frontiers[k].not_run's text */
  /* Storage the report blocks point into. */
  char **strings;
  size_t num_strings;
  int64_t **arrays;
  size_t num_arrays;
};

static char *dup_ref(MlirStringRef s) {
  char *c = malloc(s.length + 1);
  if (c) {
    memcpy(c, s.data, s.length);
    c[s.length] = '\0';
  }
  return c;
}

typedef struct string_sink {
  char *data;
  size_t size;
} string_sink;

static void sink_append(MlirStringRef piece, void *user) {
  string_sink *sk = user;
  char *d = realloc(sk->data, sk->size + piece.length + 1);
  if (!d)
    return;
  memcpy(d + sk->size, piece.data, piece.length);
  sk->size += piece.length;
  d[sk->size] = '\0';
  sk->data = d;
}

/* The location as MLIR prints it, e.g. loc("model.mlir":12:3). */
static char *loc_string(MlirOperation op) {
  string_sink sk = {NULL, 0};
  mlirLocationPrint(mlirOperationGetLocation(op), sink_append, &sk);
  return sk.data ? sk.data : dup_ref(mlirStringRefCreateFromCString("?"));
}

/* Why the frontier made one run for this block (opsched/frontier.h: one
 * stream, no buffers, too many ops); NULL when it compared candidates. */
static const char *frontier_not_run(const opsched_block_plan *p, const opsched_options *o,
                                    char *buf, size_t size) {
  if (p->frontier->num_points > 1)
    return NULL;
  opsched_frontier_options fo;
  opsched_frontier_options_init(&fo);
  if (o->schedule.streams <= 1)
    return o->max_memory > 0 ? "one stream, and its schedule fit max-memory at once"
                             : "one stream (streams=1): there is no parallelism to trade for memory";
  if (!p->bufs.buffers)
    return "no buffers in this block: memory is not part of the choice";
  if (p->n > fo.max_nodes) {
    snprintf(buf, size, "the block has %d ops, more than the %d the frontier sweeps", (int)p->n,
             (int)fo.max_nodes);
    return buf;
  }
  return "one candidate";
}

/* The report's view of a plan's frontier, with the options that chose. */
static void report_frontier(opsched_report_frontier *rf, char *note, size_t note_size,
                            const opsched_block_plan *p, const opsched_options *o) {
  const opsched_plan_frontier *f = p->frontier;
  rf->num_points = f->num_points;
  rf->chosen = f->chosen;
  rf->unconstrained = f->unconstrained;
  rf->makespan = f->makespan;
  rf->peak = f->peak;
  rf->budget = f->budget;
  rf->policy = f->policy;
  rf->arena = f->arena;
  rf->floor_peak = f->floor_peak;
  rf->memory_limit = o->max_memory;
  rf->not_run = frontier_not_run(p, o, note, note_size);
  /* The tolerance chose only without a limit, on the critical-path policy. */
  rf->tolerance = !rf->not_run && o->max_memory <= 0 && f->unconstrained >= 0 &&
                          o->memory_policy == OPSCHED_MEMORY_CRITICAL_PATH
                      ? o->makespan_tolerance
                      : -1.0;
}

/* Moves the scheduled plans of `l` into a report; the list keeps only empty
 * plans. NULL when out of memory (the report is then skipped). */
static opsched_function_report *report_take(plan_list *l, MlirOperation func,
                                            const opsched_options *o) {
  opsched_function_report *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  MlirStringRef fn = func_name(func);
  size_t scheduled = 0, nstrings = 0;
  for (size_t i = 0; i < l->count; i++)
    if (l->plans[i].schedule) {
      scheduled++;
      nstrings += 2 * (size_t)l->plans[i].n + 1;
    }
  r->name = malloc(fn.length + 2);
  r->plans = calloc(scheduled, sizeof *r->plans);
  r->blocks = calloc(scheduled, sizeof *r->blocks);
  r->frontiers = calloc(scheduled, sizeof *r->frontiers);
  r->frontier_notes = calloc(scheduled, sizeof *r->frontier_notes);
  r->strings = calloc(nstrings, sizeof *r->strings);
  r->arrays = calloc(3 * scheduled, sizeof *r->arrays);
  if (!r->name || !r->plans || !r->blocks || !r->frontiers || !r->frontier_notes || !r->strings || !r->arrays) {
    opsched_mlir_function_report_destroy(r);
    return NULL;
  }
  r->name[0] = '@';
  memcpy(r->name + 1, fn.data, fn.length);
  r->name[fn.length + 1] = '\0';
  for (size_t i = 0; i < l->count; i++) {
    opsched_block_plan *p = &l->plans[i];
    if (!p->schedule)
      continue;
    opsched_block_plan *kept = &r->plans[r->count++];
    *kept = *p;
    memset(p, 0, sizeof *p); /* ownership moved */
    opsched_report_block *b = &r->blocks[r->num_blocks++];
    b->graph = kept->graph;
    b->schedule = kept->schedule;
    char **labels = r->strings + r->num_strings;
    for (int32_t v = 0; v < kept->n; v++)
      r->strings[r->num_strings++] = op_label(kept->ops[v]);
    char **locs = r->strings + r->num_strings;
    for (int32_t v = 0; v < kept->n; v++)
      r->strings[r->num_strings++] = loc_string(kept->ops[v]);
    MlirOperation parent = mlirBlockGetParentOperation(kept->block);
    char title[256];
    MlirStringRef pn = mlirIdentifierStr(mlirOperationGetName(parent));
    snprintf(title, sizeof title, "block %d of %.*s", r->num_blocks - 1, (int)pn.length,
             pn.data);
    r->strings[r->num_strings++] = dup_ref(mlirStringRefCreateFromCString(title));
    b->title = r->strings[r->num_strings - 1];
    b->labels = (const char *const *)labels;
    b->locations = (const char *const *)locs;
    /* Memory over time, the arena and the buffers live at the peak, with
     * the numbers the attributes carry (lib/report/memory_fill.c). */
    if (kept->bufs.buffers)
      (void)opsched_report_block_fill_memory(b, kept->bufs.buffers, kept->arena,
                                             o->max_memory);
    if (kept->frontier && kept->frontier->num_points > 0) {
      report_frontier(&r->frontiers[r->num_blocks - 1], r->frontier_notes[r->num_blocks - 1],
                      sizeof r->frontier_notes[0], kept, o);
      b->frontier = &r->frontiers[r->num_blocks - 1];
    }
  }
  return r;
}

void opsched_mlir_function_report_destroy(opsched_function_report *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->count; i++)
    opsched_block_plan_release(&r->plans[i]);
  for (int32_t i = 0; r->blocks && i < r->num_blocks; i++)
    opsched_report_block_free_memory(&r->blocks[i]);
  for (size_t i = 0; i < r->num_strings; i++)
    free(r->strings[i]);
  for (size_t i = 0; i < r->num_arrays; i++)
    free(r->arrays[i]);
  free(r->strings);
  free(r->arrays);
  free(r->plans);
  free(r->blocks);
  free(r->frontiers);
  free(r->frontier_notes);
  free(r->name);
  free(r);
}

int opsched_mlir_write_reports(opsched_function_report *const *reports, size_t count,
                            const char *subtitle, FILE *trace, FILE *html) {
  opsched_report_function *fns = calloc(count + 1, sizeof *fns);
  if (!fns)
    return 1;
  int32_t nf = 0;
  for (size_t i = 0; i < count; i++) {
    if (!reports[i])
      continue;
    fns[nf].name = reports[i]->name;
    fns[nf].blocks = reports[i]->blocks;
    fns[nf].num_blocks = reports[i]->num_blocks;
    nf++;
  }
  opsched_report_module m = {"opsched report", subtitle, fns, nf};
  int failed = 0;
  if (trace)
    failed |= opsched_trace_write(trace, &m) != OPSCHED_OK;
  if (html)
    failed |= opsched_html_write(html, &m) != OPSCHED_OK;
  free(fns);
  return failed;
}
