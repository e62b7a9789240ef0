/* Vector clocks of a schedule's synchronisation (arena_clock.h). */
#include "arena_clock.h"

#include "alloc.h"

#include <string.h>

void opsched_hb_first_after_all(const hb_ctx *h, int32_t k, int32_t *out, int32_t stride,
                                int32_t *cov) {
  int32_t S = h->S;
  int64_t lenk = h->so_off[k + 1] - h->so_off[k];
  for (int32_t j = 0; j < S; j++)
    cov[j] = 0; /* places of stream j with their answer filled */
  /* Clocks only grow along stream k: the op at place p of stream j first
   * has completed at the launch of the first op of k whose clock reaches p. */
  for (int64_t q = 1; q <= lenk; q++) {
    const int32_t *row = h->comp + (size_t)h->so_ops[h->so_off[k] + q - 1] * (size_t)S;
    for (int32_t j = 0; j < S; j++)
      if (j != k)
        for (int32_t *out_j = out + h->so_off[j] * stride; cov[j] < row[j]; cov[j]++)
          out_j[(size_t)cov[j] * (size_t)stride] = (int32_t)q;
  }
  for (int32_t j = 0; j < S; j++) {
    int64_t lenj = h->so_off[j + 1] - h->so_off[j];
    for (int64_t p = j == k ? 1 : (int64_t)cov[j] + 1; p <= lenj; p++)
      out[(h->so_off[j] + p - 1) * stride] = j == k && p + 1 <= lenj ? (int32_t)(p + 1) : OPSCHED_HB_NEVER;
  }
}

void opsched_hb_free(hb_ctx *h) {
  opsched_free(h->spos);
  opsched_free(h->seq);
  opsched_free(h->comp);
  opsched_free(h->so_off);
  opsched_free(h->so_ops);
}

/* The streams' layout of s's order: seq, spos, so_off, so_ops (h->comp
 * untouched). */
static opsched_status build_order(const opsched_schedule *s, hb_ctx *h, int32_t *last) {
  int32_t n = h->n, S = h->S;
  const int32_t *order = opsched_schedule_order(s);
  for (int32_t v = 0; v < n; v++)
    h->seq[v] = -1;
  for (int32_t i = 0; i < n; i++) {
    int32_t v = order[i];
    if (v < 0 || v >= n || h->seq[v] >= 0 || h->stream[v] < 0 || h->stream[v] >= S)
      return OPSCHED_ERR_INVALID;
    h->seq[v] = i;
    h->so_off[h->stream[v] + 1]++;
  }
  for (int32_t k = 0; k < S; k++) {
    h->so_off[k + 1] += h->so_off[k];
    last[k] = -1;
  }
  for (int32_t i = 0; i < n; i++) {
    int32_t v = order[i], k = h->stream[v], prev = last[k];
    h->spos[v] = prev >= 0 ? h->spos[prev] + 1 : 1;
    h->so_ops[h->so_off[k] + h->spos[v] - 1] = v;
    last[k] = v;
  }
  return OPSCHED_OK;
}

/* The completion clocks along s's order (build_order done, `last` S ints of
 * scratch); OPSCHED_ERR_INVALID when a wait is on an op not launched
 * before. */
static opsched_status build_clocks(const opsched_schedule *s, hb_ctx *h, int32_t *last) {
  int32_t n = h->n, S = h->S;
  const int32_t *order = opsched_schedule_order(s);
  for (int32_t k = 0; k < S; k++)
    last[k] = -1;
  for (int32_t i = 0; i < n; i++) {
    int32_t v = order[i], k = h->stream[v], prev = last[k];
    int32_t *row = h->comp + (size_t)v * (size_t)S;
    if (prev >= 0)
      memcpy(row, h->comp + (size_t)prev * (size_t)S, sizeof *row * (size_t)S);
    else
      memset(row, 0, sizeof *row * (size_t)S);
    int32_t nw;
    const int32_t *w = opsched_schedule_waits(s, v, &nw);
    for (int32_t a = 0; a < nw; a++) {
      int32_t u = w[a];
      if (u < 0 || u >= n || h->seq[u] >= i)
        return OPSCHED_ERR_INVALID; /* a wait on an op not launched before: no order */
      const int32_t *src = h->comp + (size_t)u * (size_t)S;
      for (int32_t q = 0; q < S; q++)
        if (src[q] > row[q])
          row[q] = src[q];
    }
    row[k] = h->spos[v];
    last[k] = v;
  }
  return OPSCHED_OK;
}

opsched_status opsched_hb_build(const opsched_graph *g, const opsched_schedule *s,
                                hb_ctx *h, int clocks) {
  int32_t n = h->n, S = h->S;
  /* Not zero-filled but so_off: every op's entries are written before
   * they are read (a stream's first op clears its row). */
  h->spos = opsched_alloc_array_raw((size_t)n, sizeof *h->spos);
  h->seq = opsched_alloc_array_raw((size_t)n, sizeof *h->seq);
  h->comp = clocks ? opsched_alloc_array_raw((size_t)n * (size_t)S, sizeof *h->comp) : NULL;
  h->so_off = opsched_alloc_array((size_t)S + 1, sizeof *h->so_off);
  h->so_ops = opsched_alloc_array_raw((size_t)n, sizeof *h->so_ops);
  int32_t *last = opsched_alloc_array_raw((size_t)S, sizeof *last);
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!h->spos || !h->seq || (clocks && !h->comp) || !h->so_off || !h->so_ops || !last)
    goto done;
  st = build_order(s, h, last);
  if (st != OPSCHED_OK || !clocks)
    goto done;
  st = build_clocks(s, h, last);
  if (st != OPSCHED_OK)
    goto done;
  /* Every dependency must be implied by the synchronisation. */
  st = OPSCHED_ERR_INVALID;
  for (int32_t v = 0; v < n; v++) {
    int32_t np;
    const int32_t *pred = opsched_graph_preds(g, v, &np);
    for (int32_t e = 0; e < np; e++)
      if (!opsched_hb_before(h, pred[e], v))
        goto done;
  }
  st = OPSCHED_OK;
done:
  opsched_free(last);
  return st;
}
