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

/* Flow binding of one slice (version 2 of the flow events: the X event
 * itself carries the flow, so it cannot attach to a neighbour). */
typedef struct slice_flow {
  int64_t bind_id; /* 0 = none */
  int out;         /* 1: flow_out, 0: flow_in */
} slice_flow;

static void slice(trace_ctx *t, const opsched_report_block *b, int32_t v,
                  int32_t pid, int32_t tid, int64_t ts, int64_t pos,
                  const slice_flow *fl) {
  char buf[32];
  const opsched_schedule *s = b->schedule;
  int64_t cost = opsched_graph_cost(b->graph, v);
  int crit = opsched_schedule_critical(s)[v];
  ev_begin(t);
  fputs("{\"ph\":\"X\",\"name\":", t->out);
  opsched_rep_json_qstr(t->out, opsched_rep_label(b, v, buf, sizeof buf), 0);
  /* One category for slices and flows: viewers link flows only within one
   * (the critical path is in args). */
  fprintf(t->out, ",\"cat\":\"op\",\"pid\":%" PRId32 ",\"tid\":%" PRId32 ",\"ts\":",
          pid, tid);
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
  int32_t nw = 0;
  const int32_t *w = fl ? opsched_schedule_waits(s, v, &nw) : NULL;
  if (nw > 0) {
    fputs(",\"waits_for\":[", t->out);
    for (int32_t k = 0; k < nw; k++)
      fprintf(t->out, k ? ",%" PRId32 : "%" PRId32, w[k]);
    fputc(']', t->out);
  }
  fputc('}', t->out);
  if (fl && fl->bind_id)
    fprintf(t->out, ",\"bind_id\":%" PRId64 ",\"%s\":true", fl->bind_id,
            fl->out ? "flow_out" : "flow_in");
  fputc('}', t->out);
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

/* A zero-duration slice "wait" that carries one flow of an op with several
 * (a slice has one bind_id): at the producer's last nanosecond (inside its
 * slice) or at the consumer's start, on the op's stream. */
static void flow_marker(trace_ctx *t, int32_t pid, int32_t tid, int64_t ts, int32_t node,
                        int32_t peer, int64_t id, int out) {
  ev_begin(t);
  fprintf(t->out, "{\"ph\":\"X\",\"name\":\"wait\",\"cat\":\"op\",\"pid\":%" PRId32
                  ",\"tid\":%" PRId32 ",\"ts\":",
          pid, tid);
  opsched_rep_us(t->out, ts);
  fprintf(t->out, ",\"dur\":0.000,\"args\":{\"node\":%" PRId32 ",\"flow\":\"%s\",\"%s\":%" PRId32
                  "},\"bind_id\":%" PRId64 ",\"%s\":true}",
          node, out ? "out" : "in", out ? "consumer" : "producer", peer, id,
          out ? "flow_out" : "flow_in");
}

/* The waits as flows bound to slices (version 2 of the flow events: the X
 * event carries bind_id and flow_out / flow_in, so a flow cannot attach to
 * a neighbouring slice as a timestamp-matched s/f pair can). A slice with
 * exactly one flow carries it itself (`fl`, per node); for an op with
 * several, each flow gets its own marker slice on the op's stream. */
static opsched_status write_flows(trace_ctx *t, const opsched_report_block *b, int32_t pid,
                                  slice_flow *fl) {
  const opsched_schedule *s = b->schedule;
  int32_t n = opsched_graph_num_nodes(b->graph);
  const int64_t *start = opsched_schedule_starts(s), *end = opsched_schedule_ends(s);
  const int32_t *stream = opsched_schedule_streams(s), *order = opsched_schedule_order(s);
  int32_t *roles = opsched_alloc_array((size_t)n + 1, sizeof *roles);
  if (!roles)
    return OPSCHED_ERR_NOMEM;
  for (int32_t v = 0; v < n; v++) {
    int32_t nw;
    const int32_t *w = opsched_schedule_waits(s, v, &nw);
    roles[v] += nw;
    for (int32_t k = 0; k < nw; k++)
      roles[w[k]]++;
  }
  for (int32_t i = 0; i < n; i++) {
    int32_t v = order[i], nw;
    const int32_t *w = opsched_schedule_waits(s, v, &nw);
    for (int32_t k = 0; k < nw; k++) {
      int32_t u = w[k];
      int64_t id = ++t->flow_id;
      if (roles[u] == 1)
        fl[u] = (slice_flow){id, 1};
      else
        flow_marker(t, pid, stream[u], end[u] > start[u] ? end[u] - 1 : start[u], u, v, id, 1);
      if (roles[v] == 1)
        fl[v] = (slice_flow){id, 0};
      else
        flow_marker(t, pid, stream[v], start[v], v, u, id, 0);
    }
  }
  opsched_free(roles);
  return OPSCHED_OK;
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

  /* The schedule: the waits as flows, then slices in sequential order. */
  slice_flow *fl = opsched_alloc_array((size_t)n + 1, sizeof *fl);
  if (!fl || write_flows(t, b, pid_s, fl) != OPSCHED_OK) {
    opsched_free(fl);
    return OPSCHED_ERR_NOMEM;
  }
  for (int32_t i = 0; i < n; i++)
    slice(t, b, order[i], pid_s, stream[order[i]], start[order[i]], i, &fl[order[i]]);
  opsched_free(fl);
  int64_t makespan = opsched_schedule_makespan(s);
  if (b->mem_time && b->mem_time_points > 0) {
    /* Several streams: the live bytes in time (the peak in time). */
    for (int32_t i = 0; i < b->mem_time_points; i++)
      counter(t, "live bytes", pid_s, b->mem_time[i], b->mem_time_bytes[i]);
  } else if (b->mem_scheduled) {
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
    slice(t, b, v, pid_o, 0, ostart[v], v, NULL);
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
