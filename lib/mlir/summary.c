/* lib/mlir/summary.c - the machine-readable `summary` (summary-format=json
 * or csv, docs/Passes.md), like IREE's scheduling statistics dump. The
 * function's figures are its opsched.* attributes, read back after they are
 * written, so the summary cannot disagree with them; each block's figures
 * come from its schedule. */
#include "summary.h"

#include "mlir-c/BuiltinAttributes.h"
#include "opsched/frontier.h"
#include "opsched/memory.h"

#include <inttypes.h>
#include <string.h>

/* A symbol name as JSON / CSV text: quotes, backslashes and control bytes
 * escaped (JSON) or the field quoted with doubled quotes (CSV). */
static void put_name(FILE *out, const char *prefix, MlirStringRef s, int csv) {
  fputc('"', out);
  fputs(prefix, out);
  for (size_t i = 0; i < s.length; i++) {
    unsigned char c = (unsigned char)s.data[i];
    if (csv)
      fputs(c == '"' ? "\"\"" : (char[]){(char)c, 0}, out);
    else if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static MlirStringRef func_sym(MlirOperation func) {
  MlirAttribute sym =
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym))
    return mlirStringAttrGetValue(sym);
  return mlirStringRefCreateFromCString("?");
}

/* Writes an attribute's value as a JSON / CSV number or boolean; 0 when it
 * is not one (then nothing is written). */
static int put_value(FILE *out, MlirAttribute a) {
  if (mlirAttributeIsAInteger(a))
    fprintf(out, "%" PRId64, mlirIntegerAttrGetValueInt(a));
  else if (mlirAttributeIsAFloat(a))
    fprintf(out, "%.17g", mlirFloatAttrGetValueDouble(a));
  else if (mlirAttributeIsABool(a))
    fputs(mlirBoolAttrGetValue(a) ? "true" : "false", out);
  else
    return 0;
  return 1;
}

static int is_opsched(MlirStringRef name) {
  return name.length > 8 && memcmp(name.data, "opsched.", 8) == 0;
}

typedef struct figure {
  const char *name;
  int64_t value; /* INT64_MIN: not known (null / no row) */
} figure;

enum { NUM_FIGURES = 16 };

/* Every figure of one block's schedule. */
static void block_figures(const opsched_block_plan *p, int top, figure *f) {
  const opsched_schedule *s = p->schedule;
  int64_t peak = opsched_schedule_peak_memory(s), opeak = opsched_schedule_original_peak_memory(s);
  int64_t res = opsched_schedule_resident_bytes(s);
  figure all[NUM_FIGURES] = {
      {"top_level", top},
      {"ops", p->n},
      {"streams", opsched_schedule_streams_used(s)}, /* as opsched.streams: used ones */
      {"makespan_ns", opsched_schedule_makespan(s)},
      {"critical_path_ns", opsched_schedule_critical_path(s)},
      {"lower_bound_ns", opsched_schedule_lower_bound(s)},
      {"total_work_ns", opsched_schedule_total_work(s)},
      {"waits_before", opsched_schedule_num_waits_unreduced(s)},
      {"waits_after", opsched_schedule_num_waits(s)},
      {"reuse_waits", p->reuse_waits},
      {"peak_memory", peak >= 0 ? peak : INT64_MIN},
      {"original_peak_memory", opeak >= 0 ? opeak : INT64_MIN},
      {"resident_bytes", res >= 0 ? res : INT64_MIN},
      {"arena_size", p->arena ? opsched_arena_size(p->arena) : INT64_MIN},
      {"buffers", p->arena ? opsched_arena_num_buffers(p->arena) : INT64_MIN},
      {"memory_limit_met", opsched_schedule_memory_limit_met(s)},
  };
  memcpy(f, all, sizeof all);
}

/* The candidates the frontier scheduled for the block, as the HTML
 * report's data has them: [makespan, peak, budget, policy, arena|null]. */
static void write_frontier_json(FILE *out, const opsched_plan_frontier *f) {
  if (!f || f->num_points <= 0)
    return;
  fputs(",\"frontier\":{\"points\":[", out);
  for (int32_t i = 0; i < f->num_points; i++) {
    fprintf(out, "%s[%" PRId64 ",%" PRId64 ",%" PRId64 ",\"%s\",", i ? "," : "", f->makespan[i],
            f->peak[i], f->budget[i],
            opsched_memory_policy_name((opsched_memory_policy)f->policy[i]));
    if (f->arena[i] >= 0)
      fprintf(out, "%" PRId64 "]", f->arena[i]);
    else
      fputs("null]", out);
  }
  fprintf(out, "],\"chosen\":%" PRId32 ",\"unconstrained\":%" PRId32 ",\"floor_peak\":%" PRId64
               "}",
          f->chosen, f->unconstrained, f->floor_peak);
}

static void write_json(FILE *out, MlirOperation func, const opsched_block_plan *plans,
                       const uint8_t *top_level, size_t count) {
  fputs("{\"function\":", out);
  put_name(out, "@", func_sym(func), 0);
  fputs(",\"attributes\":{", out);
  int first = 1;
  for (intptr_t i = 0, na = mlirOperationGetNumAttributes(func); i < na; i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(func, i);
    MlirStringRef name = mlirIdentifierStr(a.name);
    if (!is_opsched(name))
      continue;
    fputs(first ? "" : ",", out);
    put_name(out, "", name, 0);
    fputc(':', out);
    if (!put_value(out, a.attribute))
      fputs("null", out);
    first = 0;
  }
  fputs("},\"blocks\":[", out);
  int k = 0;
  for (size_t i = 0; i < count; i++) {
    if (!plans[i].schedule)
      continue;
    figure f[NUM_FIGURES];
    block_figures(&plans[i], top_level[i], f);
    fprintf(out, "%s{\"block\":%d,\"speedup\":%.17g", k ? "," : "", k,
            opsched_schedule_speedup(plans[i].schedule));
    for (int j = 0; j < NUM_FIGURES; j++) {
      fprintf(out, ",\"%s\":", f[j].name);
      if (f[j].value == INT64_MIN)
        fputs("null", out);
      else if (j == 0 || j == NUM_FIGURES - 1)
        fputs(f[j].value ? "true" : "false", out);
      else
        fprintf(out, "%" PRId64, f[j].value);
    }
    write_frontier_json(out, plans[i].frontier);
    fputc('}', out);
    k++;
  }
  fputs("]}\n", out);
}

static void write_csv(FILE *out, MlirOperation func, const opsched_block_plan *plans,
                      const uint8_t *top_level, size_t count) {
  MlirStringRef fn = func_sym(func);
  for (intptr_t i = 0, na = mlirOperationGetNumAttributes(func); i < na; i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(func, i);
    MlirStringRef name = mlirIdentifierStr(a.name);
    if (!is_opsched(name) || !(mlirAttributeIsAInteger(a.attribute) ||
                               mlirAttributeIsAFloat(a.attribute) || mlirAttributeIsABool(a.attribute)))
      continue;
    put_name(out, "@", fn, 1);
    fprintf(out, ",,%.*s,", (int)name.length, name.data);
    put_value(out, a.attribute);
    fputc('\n', out);
  }
  int k = 0;
  for (size_t i = 0; i < count; i++) {
    if (!plans[i].schedule)
      continue;
    figure f[NUM_FIGURES];
    block_figures(&plans[i], top_level[i], f);
    put_name(out, "@", fn, 1);
    fprintf(out, ",%d,speedup,%.17g\n", k, opsched_schedule_speedup(plans[i].schedule));
    for (int j = 0; j < NUM_FIGURES; j++) {
      if (f[j].value == INT64_MIN)
        continue;
      put_name(out, "@", fn, 1);
      fprintf(out, ",%d,%s,%" PRId64 "\n", k, f[j].name, f[j].value);
    }
    k++;
  }
}

void opsched_summary_write(FILE *out, int format, MlirOperation func,
                           const opsched_block_plan *plans, const uint8_t *top_level,
                           size_t count) {
  if (format == OPSCHED_SUMMARY_JSON)
    write_json(out, func, plans, top_level, count);
  else if (format == OPSCHED_SUMMARY_CSV)
    write_csv(out, func, plans, top_level, count);
}
