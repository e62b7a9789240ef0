/* lib/report/trace.c - Chrome Trace Event Format writer (Perfetto,
 * chrome://tracing). See opsched_trace_write in opsched/report.h. */
#include "report_internal.h"

#include "../core/alloc.h"

#include <inttypes.h>

/* Per-trace counters the writer threads through its helpers. */
typedef struct trace_ctx {
  FILE *out;
  int first; /* no event written yet (comma placement) */
  int64_t flow_id;
} trace_ctx;

static void ev_begin(trace_ctx *t) {
  fputs(t->first ? "\n" : ",\n", t->out);
  t->first = 0;
}

static void meta(trace_ctx *t, const char *what, int32_t pid, int32_t tid,
                 const char *key, const char *name, int64_t sort) {
  ev_begin(t);
  fprintf(t->out, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%" PRId32
                  ",\"tid\":%" PRId32 ",\"args\":{\"%s\":",
          what, pid, tid, key);
  if (name)
    opsched_rep_json_qstr(t->out, name, 0);
  else
    fprintf(t->out, "%" PRId64, sort);
  fputs("}}", t->out);
}

/* "<function> / <block>: <what>" as a JSON string. */
static void proc_name(trace_ctx *t, int32_t pid, const char *fname,
                      const char *bname, const char *what) {
  ev_begin(t);
  fprintf(t->out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRId32
                  ",\"tid\":0,\"args\":{\"name\":\"",
          pid);
  opsched_rep_json_str(t->out, fname, 0);
  fputs(" / ", t->out);
  opsched_rep_json_str(t->out, bname, 0);
  fputs(": ", t->out);
  opsched_rep_json_str(t->out, what, 0);
  fputs("\"}}", t->out);
}

static void slice(trace_ctx *t, const opsched_report_block *b, int32_t v,
                  int32_t pid, int32_t tid, int64_t ts, int64_t pos) {
  char buf[32];
  const opsched_schedule *s = b->schedule;
  int64_t cost = opsched_graph_cost(b->graph, v);
  int crit = opsched_schedule_critical(s)[v];
  ev_begin(t);
  fputs("{\"ph\":\"X\",\"name\":", t->out);
  opsched_rep_json_qstr(t->out, opsched_rep_label(b, v, buf, sizeof buf), 0);
  fprintf(t->out, ",\"cat\":\"%s\",\"pid\":%" PRId32 ",\"tid\":%" PRId32 ",\"ts\":",
          crit ? "op,critical" : "op", pid, tid);
  opsched_rep_us(t->out, ts);
  fputs(",\"dur\":", t->out);
  opsched_rep_us(t->out, cost);
  fprintf(t->out, ",\"args\":{\"node\":%" PRId32 ",\"position\":%" PRId64, v, pos);
  if (b->locations && b->locations[v]) {
    fputs(",\"location\":", t->out);
    opsched_rep_json_qstr(t->out, b->locations[v], 0);
  }
  fprintf(t->out, ",\"cost_ns\":%" PRId64, cost);
  if (b->node_bytes)
    fprintf(t->out, ",\"bytes\":%" PRId64, b->node_bytes[v]);
  fprintf(t->out, ",\"rank\":%" PRId64 ",\"critical\":%s",
          opsched_schedule_ranks(s)[v], crit ? "true" : "false");
  fputs("}}", t->out);
}

static void counter(trace_ctx *t, const char *name, int32_t pid, int64_t ts,
                    int64_t value) {
  ev_begin(t);
  fprintf(t->out, "{\"ph\":\"C\",\"name\":\"%s\",\"pid\":%" PRId32
                  ",\"tid\":0,\"ts\":",
          name, pid);
  opsched_rep_us(t->out, ts);
  fprintf(t->out, ",\"args\":{\"bytes\":%" PRId64 "}}", value);
}

static void flow(trace_ctx *t, const char *ph, int32_t pid, int32_t tid,
                 int64_t ts, int64_t id) {
  ev_begin(t);
  fprintf(t->out, "{\"ph\":\"%s\",%s\"name\":\"wait\",\"cat\":\"wait\",\"id\":%" PRId64
                  ",\"pid\":%" PRId32 ",\"tid\":%" PRId32 ",\"ts\":",
          ph, ph[0] == 'f' ? "\"bp\":\"e\"," : "", id, pid, tid);
  opsched_rep_us(t->out, ts);
  fputc('}', t->out);
}

static opsched_status write_block(trace_ctx *t, const opsched_report_block *b,
                                  const char *fname, const char *bname,
                                  int32_t index) {
  const opsched_schedule *s = b->schedule;
  int32_t n = opsched_graph_num_nodes(b->graph);
  int32_t streams = opsched_schedule_stream_count(s);
  const int32_t *order = opsched_schedule_order(s);
  const int64_t *start = opsched_schedule_starts(s);
  const int32_t *stream = opsched_schedule_streams(s);
  int32_t pid_s = 2 * index + 1, pid_o = 2 * index + 2;
  char what[64];

  snprintf(what, sizeof what, "schedule (%" PRId32 " stream%s)", streams,
           streams == 1 ? "" : "s");
  proc_name(t, pid_s, fname, bname, what);
  meta(t, "process_sort_index", pid_s, 0, "sort_index", NULL, 2 * (int64_t)index);
  for (int32_t k = 0; k < streams; k++) {
    char tn[32];
    snprintf(tn, sizeof tn, "stream %" PRId32, k);
    meta(t, "thread_name", pid_s, k, "name", tn, 0);
    meta(t, "thread_sort_index", pid_s, k, "sort_index", NULL, k);
  }
  proc_name(t, pid_o, fname, bname, "original order (1 stream)");
  meta(t, "process_sort_index", pid_o, 0, "sort_index", NULL, 2 * (int64_t)index + 1);
  meta(t, "thread_name", pid_o, 0, "name", "original order", 0);

  /* The schedule: slices in sequential order, then the waits as flows. */
  for (int32_t i = 0; i < n; i++)
    slice(t, b, order[i], pid_s, stream[order[i]], start[order[i]], i);
  for (int32_t i = 0; i < n; i++) {
    int32_t v = order[i], nw;
    const int32_t *w = opsched_schedule_waits(s, v, &nw);
    for (int32_t k = 0; k < nw; k++) {
      int64_t id = ++t->flow_id;
      flow(t, "s", pid_s, stream[w[k]], start[w[k]], id);
      flow(t, "f", pid_s, stream[v], start[v], id);
    }
  }
  int64_t makespan = opsched_schedule_makespan(s);
  if (b->mem_scheduled) {
    const int32_t *mo = opsched_rep_mem_order(b);
    int64_t ts = 0;
    for (int32_t i = 0; i < n; i++) {
      if (start[mo[i]] > ts)
        ts = start[mo[i]];
      counter(t, "live bytes", pid_s, ts, b->mem_scheduled[i]);
    }
  }
  if (b->memory_limit > 0) {
    counter(t, "memory limit", pid_s, 0, b->memory_limit);
    counter(t, "memory limit", pid_s, makespan, b->memory_limit);
  }

  /* The original order on one stream: back to back from 0. */
  int64_t *ostart = opsched_alloc_array((size_t)n, sizeof *ostart);
  if (!ostart)
    return OPSCHED_ERR_NOMEM;
  int64_t ts = 0;
  for (int32_t v = 0; v < n; v++) {
    ostart[v] = ts;
    int64_t c = opsched_graph_cost(b->graph, v);
    ts = c > INT64_MAX - ts ? INT64_MAX : ts + c;
  }
  for (int32_t v = 0; v < n; v++)
    slice(t, b, v, pid_o, 0, ostart[v], v);
  if (b->mem_original)
    for (int32_t v = 0; v < n; v++)
      counter(t, "live bytes", pid_o, ostart[v], b->mem_original[v]);
  if (b->memory_limit > 0) {
    counter(t, "memory limit", pid_o, 0, b->memory_limit);
    counter(t, "memory limit", pid_o, ts, b->memory_limit);
  }
  opsched_free(ostart);
  return OPSCHED_OK;
}

static void block_summary(FILE *out, const opsched_report_block *b,
                          const char *fname, const char *bname, int32_t index) {
  const opsched_schedule *s = b->schedule;
  fputs("{\"function\":", out);
  opsched_rep_json_qstr(out, fname, 0);
  fputs(",\"block\":", out);
  opsched_rep_json_qstr(out, bname, 0);
  fprintf(out,
          ",\"pid\":%" PRId32 ",\"original_pid\":%" PRId32 ",\"ops\":%" PRId32
          ",\"streams\":%" PRId32 ",\"makespan_ns\":%" PRId64
          ",\"lower_bound_ns\":%" PRId64 ",\"critical_path_ns\":%" PRId64
          ",\"total_work_ns\":%" PRId64 ",\"speedup\":%.4f,\"waits\":%" PRId64
          ",\"waits_unreduced\":%" PRId64,
          2 * index + 1, 2 * index + 2, opsched_graph_num_nodes(b->graph),
          opsched_schedule_stream_count(s), opsched_schedule_makespan(s),
          opsched_schedule_lower_bound(s), opsched_schedule_critical_path(s),
          opsched_schedule_total_work(s), opsched_schedule_speedup(s),
          opsched_schedule_num_waits(s), opsched_schedule_num_waits_unreduced(s));
  if (b->mem_original)
    fprintf(out, ",\"peak_original\":%" PRId64, opsched_rep_peak_original(b));
  if (b->mem_scheduled)
    fprintf(out, ",\"peak_scheduled\":%" PRId64, opsched_rep_peak_scheduled(b));
  if (b->memory_limit > 0)
    fprintf(out, ",\"memory_limit\":%" PRId64, b->memory_limit);
  if (b->num_buffers > 0)
    fprintf(out, ",\"arena_bytes\":%" PRId64, opsched_rep_arena(b));
  fputc('}', out);
}

/* Names of function f and its block k, into the given buffers. */
static void names(const opsched_report_module *m, int32_t f, int32_t k,
                  char *fb, char *bb, size_t size, const char **fname,
                  const char **bname) {
  const opsched_report_function *fn = &m->functions[f];
  const opsched_report_block *b = &fn->blocks[k];
  snprintf(fb, size, "function %" PRId32, f);
  snprintf(bb, size, "block %" PRId32, k);
  *fname = fn->name ? fn->name : fb;
  *bname = b->title ? b->title : bb;
}

opsched_status opsched_trace_write(FILE *out, const opsched_report_module *m) {
  if (!out || !opsched_rep_module_ok(m))
    return OPSCHED_ERR_INVALID;
  trace_ctx t = {out, 1, 0};
  char fb[32], bb[32];
  const char *fname, *bname;
  fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"opsched\",\"title\":", out);
  opsched_rep_json_qstr(out, m->title ? m->title : "opsched report", 0);
  if (m->subtitle) {
    fputs(",\"subtitle\":", out);
    opsched_rep_json_qstr(out, m->subtitle, 0);
  }
  fputs(",\"blocks\":[", out);
  int32_t index = 0;
  for (int32_t f = 0; f < m->num_functions; f++)
    for (int32_t k = 0; k < m->functions[f].num_blocks; k++) {
      names(m, f, k, fb, bb, sizeof fb, &fname, &bname);
      fputs(index ? ",\n" : "\n", out);
      block_summary(out, &m->functions[f].blocks[k], fname, bname, index++);
    }
  fputs("]},\n\"traceEvents\":[", out);
  index = 0;
  opsched_status st = OPSCHED_OK;
  for (int32_t f = 0; f < m->num_functions && st == OPSCHED_OK; f++)
    for (int32_t k = 0; k < m->functions[f].num_blocks && st == OPSCHED_OK; k++) {
      names(m, f, k, fb, bb, sizeof fb, &fname, &bname);
      st = write_block(&t, &m->functions[f].blocks[k], fname, bname, index++);
    }
  fputs("\n]}\n", out);
  if (st != OPSCHED_OK)
    return st;
  return ferror(out) ? OPSCHED_ERR_STATE : OPSCHED_OK;
}
