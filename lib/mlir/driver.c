#include "driver.h"

#include "attrs.h"
#include "block_plan.h"
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

static void write_summary(FILE *f, MlirOperation func, int scheduled, int64_t ops,
                          int64_t blocks, int64_t critical_path, int64_t makespan,
                          int64_t work, int32_t streams) {
  MlirStringRef name = func_name(func);
  fprintf(f, "@%.*s: ", (int)name.length, name.data);
  if (!scheduled) {
    fputs("nothing to schedule\n", f);
    return;
  }
  fprintf(f, "%lld ops in %lld block%s; critical path %lld ns", (long long)ops,
          (long long)blocks, blocks == 1 ? "" : "s", (long long)critical_path);
  if (makespan >= 0) {
    /* The seed's metric: time before (original order, one stream) / after. */
    double speedup = makespan > 0 ? (double)work / (double)makespan : 1.0;
    fprintf(f, "; makespan %lld ns on %d stream%s; speedup %.2fx over the original order on one stream",
            (long long)makespan, streams, streams == 1 ? "" : "s", speedup);
  }
  fputc('\n', f);
}

MlirLogicalResult opschedMlirRunOnFunction(MlirOperation func, const opsched_options *o,
                                           const opsched_run_outputs *out) {
  plan_list l = {0};
  for (MlirRegion r = mlirOperationGetFirstRegion(func); !mlirRegionIsNull(r);
       r = mlirRegionGetNextInOperation(r))
    collect_region(&l, r, o, 1);

  if (!l.failed) {
    int64_t makespan = 0, critical_path = 0, work = 0, ops = 0, blocks = 0;
    int64_t lower_bound = 0, waits_before = 0, waits_after = 0;
    int scheduled = 0;
    for (size_t i = 0; i < l.count; i++) {
      const opsched_block_plan *p = &l.plans[i];
      if (!p->schedule)
        continue;
      opsched_block_plan_apply(p, out->reorder);
      if (out->dot || out->table)
        write_reports(p, out, func);
      ops += p->n;
      blocks++;
      if (l.top_level[i]) {
        scheduled = 1;
        makespan += opsched_schedule_makespan(p->schedule);
        critical_path += opsched_schedule_critical_path(p->schedule);
        work += opsched_schedule_total_work(p->schedule);
        lower_bound += opsched_schedule_lower_bound(p->schedule);
        waits_before += opsched_schedule_num_waits_unreduced(p->schedule);
        waits_after += opsched_schedule_num_waits(p->schedule);
      }
    }
    if (scheduled) {
      opsched_attr_set_i64(func, OPSCHED_ATTR_CRITICAL_PATH, critical_path);
      if (out->reorder) {
        opsched_attr_set_i64(func, OPSCHED_ATTR_MAKESPAN, makespan);
        opsched_attr_set_i64(func, OPSCHED_ATTR_LOWER_BOUND, lower_bound);
        /* The seed's metric: original order on one stream (= total work)
         * over the new makespan. */
        opsched_attr_set_f64(func, OPSCHED_ATTR_SPEEDUP,
                             makespan > 0 ? (double)work / (double)makespan : 1.0);
        opsched_attr_set_i64(func, OPSCHED_ATTR_STREAMS, o->schedule.streams);
        opsched_attr_set_i64(func, OPSCHED_ATTR_WAITS_BEFORE, waits_before);
        opsched_attr_set_i64(func, OPSCHED_ATTR_WAITS_AFTER, waits_after);
      }
    }
    if (out->summary)
      write_summary(out->summary, func, scheduled, ops, blocks, critical_path,
                    out->reorder ? makespan : -1, work, o->schedule.streams);
  }
  for (size_t i = 0; i < l.count; i++)
    opsched_block_plan_release(&l.plans[i]);
  free(l.plans);
  free(l.top_level);
  return l.failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}
