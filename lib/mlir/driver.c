#include "driver.h"

#include "attrs.h"
#include "block_plan.h"
#include "queries.h"
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

static void collect_region(plan_list *l, MlirRegion region, const opsched_options *o,
                           int top) {
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    opsched_block_plan *p = plan_push(l, top);
    if (!p) {
      l->failed = 1;
      return;
    }
    if (opsched_block_plan_build(p, b, o) == OPSCHED_PLAN_FAILED)
      l->failed = 1;
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      for (MlirRegion r = mlirOperationGetFirstRegion(op); !mlirRegionIsNull(r);
           r = mlirRegionGetNextInOperation(r))
        collect_region(l, r, o, 0);
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
                          MlirOperation func) {
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
      opsched_dot_cluster(out->dot, (*out->cluster_counter)++, title, p->graph,
                          p->schedule, (const char *const *)labels);
    if (out->table)
      opsched_print_table(out->table, p->schedule, (const char *const *)labels);
  }
  for (int32_t v = 0; v < p->n; v++)
    free(labels[v]);
  free(labels);
}

typedef struct function_figures function_figures;
static void write_summary(FILE *out, MlirOperation func, const function_figures *f,
                          int reorder, int32_t streams);

/* Peaks exist only where some block had buffers; stale values of an earlier
 * run are removed otherwise. */
static void write_memory_attrs(MlirOperation func, const opsched_options *o,
                               int64_t peak, int64_t original_peak, int64_t resident) {
  if (peak >= 0) {
    opsched_attr_set_i64(func, OPSCHED_ATTR_PEAK_MEMORY, peak);
    opsched_attr_set_i64(func, OPSCHED_ATTR_ORIGINAL_PEAK, original_peak);
    opsched_attr_set_i64(func, OPSCHED_ATTR_RESIDENT, resident);
  } else {
    opsched_attr_remove(func, OPSCHED_ATTR_PEAK_MEMORY);
    opsched_attr_remove(func, OPSCHED_ATTR_ORIGINAL_PEAK);
    opsched_attr_remove(func, OPSCHED_ATTR_RESIDENT);
  }
  if (o->max_memory > 0)
    opsched_attr_set_i64(func, OPSCHED_ATTR_MEMORY_LIMIT, o->max_memory);
  else
    opsched_attr_remove(func, OPSCHED_ATTR_MEMORY_LIMIT);
}

/* A function's figures, over the blocks of its body (nested regions are
 * scheduled but not added). */
typedef struct function_figures {
  int scheduled;
  int64_t ops, blocks, makespan, critical_path, work, lower_bound;
  int64_t waits_before, waits_after;
  int64_t peak, original_peak, resident; /* -1: no buffers anywhere */
  int limit_met;
} function_figures;

static void gather_figures(const plan_list *l, function_figures *f) {
  memset(f, 0, sizeof *f);
  f->peak = f->original_peak = f->resident = -1;
  f->limit_met = 1;
  for (size_t i = 0; i < l->count; i++) {
    const opsched_schedule *s = l->plans[i].schedule;
    if (!s)
      continue;
    f->ops += l->plans[i].n;
    f->blocks++;
    if (!l->top_level[i])
      continue;
    f->scheduled = 1;
    f->makespan += opsched_schedule_makespan(s);
    f->critical_path += opsched_schedule_critical_path(s);
    f->work += opsched_schedule_total_work(s);
    f->lower_bound += opsched_schedule_lower_bound(s);
    f->waits_before += opsched_schedule_num_waits_unreduced(s);
    f->waits_after += opsched_schedule_num_waits(s);
    /* Blocks of a CFG run one at a time: the function's peak is the largest
     * block peak. */
    if (opsched_schedule_peak_memory(s) > f->peak)
      f->peak = opsched_schedule_peak_memory(s);
    if (opsched_schedule_original_peak_memory(s) > f->original_peak)
      f->original_peak = opsched_schedule_original_peak_memory(s);
    if (opsched_schedule_resident_bytes(s) > f->resident)
      f->resident = opsched_schedule_resident_bytes(s);
    f->limit_met &= opsched_schedule_memory_limit_met(s);
  }
}

static void write_function_attrs(MlirOperation func, const opsched_options *o,
                                 const function_figures *f, int reorder) {
  opsched_attr_set_i64(func, OPSCHED_ATTR_CRITICAL_PATH, f->critical_path);
  if (!reorder)
    return;
  opsched_attr_set_i64(func, OPSCHED_ATTR_MAKESPAN, f->makespan);
  opsched_attr_set_i64(func, OPSCHED_ATTR_LOWER_BOUND, f->lower_bound);
  /* The seed's metric: original order on one stream (= total work) over the
   * new makespan. */
  opsched_attr_set_f64(func, OPSCHED_ATTR_SPEEDUP,
                       f->makespan > 0 ? (double)f->work / (double)f->makespan : 1.0);
  opsched_attr_set_i64(func, OPSCHED_ATTR_STREAMS, o->schedule.streams);
  opsched_attr_set_i64(func, OPSCHED_ATTR_WAITS_BEFORE, f->waits_before);
  opsched_attr_set_i64(func, OPSCHED_ATTR_WAITS_AFTER, f->waits_after);
  write_memory_attrs(func, o, f->peak, f->original_peak, f->resident);
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
      fprintf(out, "; peak memory %lld bytes (original order %lld, resident %lld)",
              (long long)f->peak, (long long)f->original_peak, (long long)f->resident);
  }
  fputc('\n', out);
}

MlirLogicalResult opschedMlirRunOnFunction(MlirOperation func, const opsched_options *o,
                                           const opsched_run_outputs *out) {
  plan_list l = {0};
  for (MlirRegion r = mlirOperationGetFirstRegion(func); !mlirRegionIsNull(r);
       r = mlirRegionGetNextInOperation(r))
    collect_region(&l, r, o, 1);

  function_figures f;
  gather_figures(&l, &f);
  if (!l.failed && out->reorder && !f.limit_met && o->max_memory > 0) {
    char msg[256];
    snprintf(msg, sizeof msg,
             "opsched: cannot meet max-memory = %lld bytes: the lowest peak found is "
             "%lld bytes",
             (long long)o->max_memory, (long long)f.peak);
    opschedMlirEmit(mlirOperationGetLocation(func),
                    o->strict_memory ? OPSCHED_SEVERITY_ERROR : OPSCHED_SEVERITY_WARNING,
                    msg);
    /* Strict: fail before anything is rewritten. */
    if (o->strict_memory)
      l.failed = 1;
  }
  if (!l.failed) {
    for (size_t i = 0; i < l.count; i++) {
      const opsched_block_plan *p = &l.plans[i];
      if (!p->schedule)
        continue;
      opsched_block_plan_apply(p, out->reorder);
      if (out->dot || out->table)
        write_reports(p, out, func);
    }
    if (f.scheduled)
      write_function_attrs(func, o, &f, out->reorder);
    if (out->summary)
      write_summary(out->summary, func, &f, out->reorder, o->schedule.streams);
  }
  for (size_t i = 0; i < l.count; i++)
    opsched_block_plan_release(&l.plans[i]);
  free(l.plans);
  free(l.top_level);
  return l.failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}
