/* lib/report/memory_fill.c - the report's memory data, recomputed from the
 * memory model with the core's rules (docs/memory.md), so the page shows the
 * numbers the attributes carry: on one stream a buffer is live from its
 * allocating op's position to its last use's (inclusive; results to the
 * end); on several streams from its allocating op's start to the latest end
 * of its holders, frees before allocations at one instant, zero-duration
 * ops between the two (as opsched_memory_peak_in_time). */
#include "report_internal.h"

#include "../core/alloc.h"

#include <stdlib.h>
#include <string.h>

/* A 128-bit live-bytes counter: sums of saturated sizes do not wrap. */
typedef struct acc {
  uint64_t lo, hi;
} acc;

static void acc_add(acc *a, int64_t x) {
  uint64_t lo = a->lo + (uint64_t)x;
  a->hi += lo < a->lo;
  a->lo = lo;
}

static void acc_sub(acc *a, int64_t x) {
  uint64_t lo = a->lo - (uint64_t)x;
  a->hi -= lo > a->lo;
  a->lo = lo;
}

static int64_t acc_i64(const acc *a) {
  return a->hi || a->lo > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)a->lo;
}

/* Per buffer: what the series need. */
typedef struct buf_info {
  int64_t size;
  int32_t owner;   /* -1: resident (never counted) */
  int32_t last;    /* last position of a holder in the scheduled order */
  int32_t forever; /* live until the end */
  int64_t alloc_t, free_t; /* keys t * 2 + phase, in time */
} buf_info;

/* A node's hold in time as keys (t * 2 + phase): an op [s, e) with e > s
 * holds [(s,1), (e,0)); a zero-duration op at t holds [(t,0), (t,1)]. */
static int64_t hold_lo(const int64_t *st, const int64_t *en, int32_t v) {
  return st[v] * 2 + (en[v] > st[v]);
}

static int64_t hold_hi(const int64_t *st, const int64_t *en, int32_t v) {
  return en[v] > st[v] ? en[v] * 2 : st[v] * 2 + 1;
}

static buf_info *buffer_infos(const opsched_buffers *bufs, const opsched_schedule *s,
                              const int32_t *pos) {
  int32_t nb = opsched_buffers_count(bufs);
  buf_info *bi = opsched_alloc_array((size_t)nb + 1, sizeof *bi);
  if (!bi)
    return NULL;
  const int64_t *st = opsched_schedule_starts(s), *en = opsched_schedule_ends(s);
  for (int32_t k = 0; k < nb; k++) {
    int32_t o = opsched_buffers_allocating_node(bufs, k);
    bi[k].size = opsched_buffers_size(bufs, k);
    bi[k].owner = o;
    bi[k].forever = opsched_buffers_live_until_end(bufs, k) != 0;
    if (o >= 0) {
      bi[k].last = pos[o];
      bi[k].alloc_t = hold_lo(st, en, o);
      bi[k].free_t = hold_hi(st, en, o);
    }
  }
  int64_t nu = opsched_buffers_num_uses(bufs);
  for (int64_t i = 0; i < nu; i++) {
    int32_t k, v;
    if (opsched_buffers_use(bufs, i, &k, &v) != OPSCHED_OK || bi[k].owner < 0)
      continue;
    if (pos[v] > bi[k].last)
      bi[k].last = pos[v];
    if (hold_hi(st, en, v) > bi[k].free_t)
      bi[k].free_t = hold_hi(st, en, v);
  }
  return bi;
}

/* Live bytes while / after the op at each position of an order whose
 * positions are `pos` (node -> position); `last[k]` is buffer k's last
 * holder's position in that order. */
static int order_series(const buf_info *bi, int32_t nb, const int32_t *pos, int32_t n,
                        const int32_t *last, int64_t *during, int64_t *after) {
  acc *alloc_at = opsched_alloc_array((size_t)n + 1, sizeof *alloc_at);
  acc *free_at = opsched_alloc_array((size_t)n + 1, sizeof *free_at);
  if (!alloc_at || !free_at) {
    opsched_free(alloc_at);
    opsched_free(free_at);
    return 0;
  }
  for (int32_t k = 0; k < nb; k++) {
    if (bi[k].owner < 0)
      continue;
    int32_t end = bi[k].forever ? n : last[k];
    acc_add(&alloc_at[pos[bi[k].owner]], bi[k].size);
    acc_add(&free_at[end], bi[k].size);
  }
  acc live = {0, 0};
  for (int32_t t = 0; t < n; t++) {
    acc a = alloc_at[t], f = free_at[t];
    uint64_t lo = live.lo + a.lo;
    live.hi += a.hi + (lo < live.lo);
    live.lo = lo;
    during[t] = acc_i64(&live);
    lo = live.lo - f.lo;
    live.hi -= f.hi + (lo > live.lo);
    live.lo = lo;
    if (after)
      after[t] = acc_i64(&live);
  }
  opsched_free(alloc_at);
  opsched_free(free_at);
  return 1;
}

typedef struct time_ev {
  int64_t key;
  int32_t kind; /* 0 free, 1 alloc */
  int32_t buf;
} time_ev;

static int cmp_ev(const void *pa, const void *pb) {
  const time_ev *a = pa, *b = pb;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  return (a->buf > b->buf) - (a->buf < b->buf);
}

/* The step function in time; *peak_key receives the first key where the
 * maximum is reached (-1 when no buffer). */
static int time_series(opsched_report_block *b, const buf_info *bi, int32_t nb,
                       int64_t *peak_key) {
  time_ev *ev = opsched_alloc_array(2 * (size_t)nb + 1, sizeof *ev);
  int64_t *t = opsched_alloc_array(2 * (size_t)nb + 3, sizeof *t);
  int64_t *y = opsched_alloc_array(2 * (size_t)nb + 3, sizeof *y);
  if (!ev || !t || !y) {
    opsched_free(ev);
    opsched_free(t);
    opsched_free(y);
    return 0;
  }
  size_t ne = 0;
  for (int32_t k = 0; k < nb; k++) {
    if (bi[k].owner < 0)
      continue;
    ev[ne++] = (time_ev){bi[k].alloc_t, 1, k};
    if (!bi[k].forever)
      ev[ne++] = (time_ev){bi[k].free_t, 0, k};
  }
  qsort(ev, ne, sizeof *ev, cmp_ev);
  int32_t np = 0;
  if (ne == 0 || ev[0].key / 2 > 0) {
    t[np] = 0;
    y[np++] = 0;
  }
  acc live = {0, 0};
  int64_t best = -1;
  *peak_key = -1;
  for (size_t i = 0; i < ne; i++) {
    if (ev[i].kind == 0)
      acc_sub(&live, bi[ev[i].buf].size);
    else
      acc_add(&live, bi[ev[i].buf].size);
    if (i + 1 < ne && ev[i + 1].key == ev[i].key)
      continue;
    int64_t v = acc_i64(&live);
    if (v > best) {
      best = v;
      *peak_key = ev[i].key;
    }
    if (np > 0 && t[np - 1] == ev[i].key / 2 && y[np - 1] == v)
      continue;
    t[np] = ev[i].key / 2;
    y[np++] = v;
  }
  int64_t mk = opsched_schedule_makespan(b->schedule);
  if (np > 0 && t[np - 1] < mk) {
    t[np] = mk;
    y[np] = y[np - 1];
    np++;
  }
  opsched_free(ev);
  b->mem_time = t;
  b->mem_time_bytes = y;
  b->mem_time_points = np;
  return 1;
}

/* The report's buffers (every non-resident one) and those live at the
 * peak: at position `peak_pos` on one stream, at key `peak_key` in time. */
static int fill_buffers(opsched_report_block *b, const buf_info *bi, int32_t nb,
                        const int32_t *pos, int32_t n, const opsched_arena *arena,
                        int32_t peak_pos, int64_t peak_key) {
  opsched_report_buffer *out = opsched_alloc_array((size_t)nb + 1, sizeof *out);
  int32_t *peak = opsched_alloc_array((size_t)nb + 1, sizeof *peak);
  if (!out || !peak) {
    opsched_free(out);
    opsched_free(peak);
    return 0;
  }
  int32_t m = 0, np = 0;
  for (int32_t k = 0; k < nb; k++) {
    if (bi[k].owner < 0)
      continue;
    opsched_report_buffer *u = &out[m];
    u->offset = arena && k < opsched_arena_num_buffers(arena) ? opsched_arena_offset(arena, k) : -1;
    u->size = bi[k].size;
    u->first = pos[bi[k].owner];
    u->last = bi[k].forever ? n - 1 : bi[k].last;
    u->slot = k;
    u->node = bi[k].owner;
    int live = peak_key >= 0
                   ? bi[k].alloc_t <= peak_key && (bi[k].forever || bi[k].free_t > peak_key)
                   : peak_pos >= 0 && u->first <= peak_pos && peak_pos <= u->last;
    if (live && u->size > 0)
      peak[np++] = m;
    m++;
  }
  b->buffers = out;
  b->num_buffers = m;
  b->peak_buffers = peak;
  b->num_peak_buffers = np;
  if (arena)
    b->arena_size = opsched_arena_size(arena);
  return 1;
}

/* The series by position: scheduled (during, after) and original (during). */
static int position_series(opsched_report_block *b, const opsched_buffers *bufs,
                           const buf_info *bi, int32_t nb, const int32_t *pos, int32_t n) {
  int64_t *during = opsched_alloc_array((size_t)n + 1, sizeof *during);
  int64_t *after = opsched_alloc_array((size_t)n + 1, sizeof *after);
  int64_t *orig = opsched_alloc_array((size_t)n + 1, sizeof *orig);
  int32_t *last = opsched_alloc_array((size_t)nb + 1, sizeof *last);
  int32_t *ident = opsched_alloc_array((size_t)n + 1, sizeof *ident);
  int ok = during && after && orig && last && ident;
  if (ok) {
    for (int32_t k = 0; k < nb; k++)
      last[k] = bi[k].last;
    ok = order_series(bi, nb, pos, n, last, during, after);
  }
  /* The original order: the block's op order (node ids), where a buffer's
   * last use is its largest user id. */
  int topo = 1;
  for (int32_t v = 0; ok && v < n; v++) {
    ident[v] = v;
    int32_t np;
    const int32_t *p = opsched_graph_preds(b->graph, v, &np);
    for (int32_t i = 0; i < np; i++)
      topo &= p[i] < v;
  }
  if (ok && topo) {
    for (int32_t k = 0; k < nb; k++)
      last[k] = bi[k].owner;
    for (int64_t i = 0, nu = opsched_buffers_num_uses(bufs); i < nu; i++) {
      int32_t k, v;
      if (opsched_buffers_use(bufs, i, &k, &v) == OPSCHED_OK && bi[k].owner >= 0 &&
          v > last[k])
        last[k] = v;
    }
    topo = order_series(bi, nb, ident, n, last, orig, NULL);
  }
  opsched_free(last);
  opsched_free(ident);
  if (!ok) {
    opsched_free(during);
    opsched_free(after);
    opsched_free(orig);
    return 0;
  }
  /* After each op: the schedule's own figure (opsched.live_bytes), which
   * on several streams is taken in time at the op's end. */
  const int64_t *sa = opsched_schedule_live_after(b->schedule);
  const int32_t *order = opsched_schedule_order(b->schedule);
  for (int32_t i = 0; sa && i < n; i++)
    after[i] = sa[order[i]];
  b->mem_scheduled = during;
  b->mem_after = after;
  if (topo)
    b->mem_original = orig;
  else
    opsched_free(orig);
  return 1;
}

opsched_status opsched_report_block_fill_memory(opsched_report_block *b,
                                                const opsched_buffers *bufs,
                                                const opsched_arena *arena,
                                                int64_t memory_limit) {
  if (!b || !bufs || !b->graph || !b->schedule)
    return OPSCHED_ERR_INVALID;
  int32_t n = opsched_graph_num_nodes(b->graph), nb = opsched_buffers_count(bufs);
  if (opsched_buffers_num_nodes(bufs) != n || opsched_schedule_num_nodes(b->schedule) != n)
    return OPSCHED_ERR_INVALID;
  opsched_report_block_free_memory(b);
  const int32_t *order = opsched_schedule_order(b->schedule);
  int32_t *pos = opsched_alloc_array((size_t)n + 1, sizeof *pos);
  for (int32_t i = 0; pos && i < n; i++)
    pos[order[i]] = i;
  buf_info *bi = pos ? buffer_infos(bufs, b->schedule, pos) : NULL;
  b->owns_memory = 1;
  b->mem_order = NULL; /* the schedule's sequential order */
  b->memory_limit = memory_limit;
  int ok = bi && position_series(b, bufs, bi, nb, pos, n);
  int64_t peak_key = -1;
  int32_t peak_pos = -1;
  if (ok && opsched_schedule_stream_count(b->schedule) > 1)
    ok = time_series(b, bi, nb, &peak_key);
  else if (ok)
    for (int32_t i = 0; i < n; i++)
      if (peak_pos < 0 || b->mem_scheduled[i] > b->mem_scheduled[peak_pos])
        peak_pos = i;
  ok = ok && fill_buffers(b, bi, nb, pos, n, arena, peak_pos, peak_key);
  opsched_free(pos);
  opsched_free(bi);
  if (!ok) {
    opsched_report_block_free_memory(b);
    return OPSCHED_ERR_NOMEM;
  }
  int64_t ps = opsched_schedule_peak_memory(b->schedule);
  int64_t po = opsched_schedule_original_peak_memory(b->schedule);
  b->peak_scheduled = ps > 0 ? ps : 0;
  b->peak_original = po > 0 ? po : 0;
  return OPSCHED_OK;
}

void opsched_report_block_free_memory(opsched_report_block *b) {
  if (!b || !b->owns_memory)
    return;
  opsched_free((void *)b->mem_scheduled);
  opsched_free((void *)b->mem_after);
  opsched_free((void *)b->mem_original);
  opsched_free((void *)b->mem_time);
  opsched_free((void *)b->mem_time_bytes);
  opsched_free((void *)b->buffers);
  opsched_free((void *)b->peak_buffers);
  b->mem_scheduled = b->mem_after = b->mem_original = NULL;
  b->mem_time = b->mem_time_bytes = NULL;
  b->mem_time_points = 0;
  b->buffers = NULL;
  b->num_buffers = 0;
  b->peak_buffers = NULL;
  b->num_peak_buffers = 0;
  b->owns_memory = 0;
}
