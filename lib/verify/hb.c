/* lib/verify/hb.c - happens-before as vector clocks (hb.h). */
#include "hb.h"

#include <stdlib.h>

int vhb_init(vhb *h, int32_t n, int32_t S) {
  size_t cells = (size_t)(n ? n : 1) * (size_t)(S ? S : 1);
  h->n = n;
  h->S = S;
  h->clk = calloc(cells, sizeof *h->clk);
  h->sidx = malloc((size_t)(n ? n : 1) * sizeof *h->sidx);
  h->spos = calloc((size_t)(n ? n : 1), sizeof *h->spos);
  if (!h->clk || !h->sidx || !h->spos) {
    vhb_free(h);
    return -1;
  }
  for (int32_t v = 0; v < n; v++)
    h->sidx[v] = -1;
  return 0;
}

void vhb_free(vhb *h) {
  free(h->clk);
  free(h->sidx);
  free(h->spos);
  h->clk = NULL;
  h->sidx = h->spos = NULL;
}

/* v's clock includes u and everything before u. */
static void join(vhb *h, int32_t v, int32_t u) {
  int32_t *cv = h->clk + (size_t)v * h->S;
  const int32_t *cu = h->clk + (size_t)u * h->S;
  for (int32_t s = 0; s < h->S; s++)
    if (cv[s] < cu[s])
      cv[s] = cu[s];
  if (cv[h->sidx[u]] < h->spos[u] + 1)
    cv[h->sidx[u]] = h->spos[u] + 1;
}

int32_t vhb_place(vhb *h, int32_t v, int32_t s, int32_t *last_of_stream) {
  int32_t p = last_of_stream[s];
  h->sidx[v] = s;
  h->spos[v] = p >= 0 ? h->spos[p] + 1 : 0;
  if (p >= 0)
    join(h, v, p);
  last_of_stream[s] = v;
  return p;
}

void vhb_wait(vhb *h, int32_t v, int32_t u) {
  if (h->sidx[u] >= 0)
    join(h, v, u);
}

int vhb_before(const vhb *h, int32_t u, int32_t v) {
  if (h->sidx[u] < 0 || h->sidx[v] < 0)
    return 0;
  return h->clk[(size_t)v * h->S + h->sidx[u]] >= h->spos[u] + 1;
}

int vhb_covers(const vhb *h, int32_t v, int32_t s, int32_t pos) {
  return h->clk[(size_t)v * h->S + s] >= pos + 1;
}
