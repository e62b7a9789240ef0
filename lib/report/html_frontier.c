/* lib/report/html_frontier.c - the HTML report's frontier view: makespan
 * against peak memory for every candidate the frontier layer scheduled
 * (opsched/frontier.h), the Pareto-optimal ones connected, the chosen and
 * unconstrained points marked, the one-stream floor, the max-memory limit
 * and the tolerance band where they apply, and the same points as a table.
 * Every drawn number is also written as a data-* attribute (raw integers)
 * so that tests compare the page with the attributes. */
#include "report_internal.h"

#include "opsched/memory.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* The plot area inside a 1000 x 300 viewBox. */
#define FX0 96.0
#define FX1 972.0
#define FY0 22.0
#define FY1 250.0

/* A linear scale from [lo, hi] (data) to [p0, p1] (SVG units). */
typedef struct scale {
  int64_t lo, hi;
  double p0, p1;
} scale;

static double at(const scale *s, int64_t v) {
  double span = (double)(s->hi - s->lo);
  return s->p0 + (s->p1 - s->p0) * (span > 0 ? (double)(v - s->lo) / span : 0.5);
}

/* [lo, hi] padded by 8% of the span (or of the value for a single one),
 * never below 0. */
static scale padded(int64_t lo, int64_t hi, double p0, double p1) {
  int64_t span = hi - lo, pad = span > 0 ? span / 10 : hi / 20;
  if (pad < 1)
    pad = 1;
  scale s = {lo > pad ? lo - pad : 0, hi + pad, p0, p1};
  return s;
}

/* A text label in the chart; placed where it covers no point and no
 * other label when such a place is among its candidates. */
typedef struct label {
  char text[128];
  const char *cls;
  double x, y;
  int end;  /* text-anchor end (else start) */
  int bold; /* wider characters */
  int used;
} label;

enum { L_CHOSEN, L_FREE, L_FLOOR, L_LIMIT, L_BAND, NUM_LABELS }; /* placement order */

/* What the chart holds, computed once. */
typedef struct fchart {
  const opsched_report_frontier *fr;
  scale x, y;         /* x: peak bytes, y: makespan ns */
  int64_t best;       /* lowest makespan of the points */
  int64_t band_top;   /* best + the tolerance, as the frontier counts it; -1 = no band */
  uint8_t pareto[OPSCHED_REPORT_FRONTIER_MAX_POINTS]; /* per point: on the front */
  label labels[NUM_LABELS];
} fchart;

/* Point i is Pareto-optimal when no other point is at least as good on
 * both axes and better on one. */
static int dominated(const opsched_report_frontier *fr, int32_t i) {
  for (int32_t j = 0; j < fr->num_points; j++) {
    int le = fr->makespan[j] <= fr->makespan[i] && fr->peak[j] <= fr->peak[i];
    int lt = fr->makespan[j] < fr->makespan[i] || fr->peak[j] < fr->peak[i];
    if (j != i && le && lt)
      return 1;
  }
  return 0;
}

static void widen(int64_t v, int64_t *lo, int64_t *hi) {
  if (v < *lo)
    *lo = v;
  if (v > *hi)
    *hi = v;
}

static void chart_init(fchart *c, const opsched_report_frontier *fr) {
  memset(c, 0, sizeof *c);
  c->fr = fr;
  int64_t xlo = INT64_MAX, xhi = 0, ylo = INT64_MAX, yhi = 0;
  for (int32_t i = 0; i < fr->num_points; i++) {
    widen(fr->peak[i], &xlo, &xhi);
    widen(fr->makespan[i], &ylo, &yhi);
    c->pareto[i] = !dominated(fr, i);
  }
  c->best = ylo;
  /* The frontier's own test: within when makespan - best <= floor(best * tol). */
  c->band_top = fr->tolerance >= 0 ? c->best + (int64_t)floor((double)c->best * fr->tolerance) : -1;
  if (c->band_top >= 0)
    widen(c->band_top, &ylo, &yhi);
  if (fr->floor_peak >= 0)
    widen(fr->floor_peak, &xlo, &xhi);
  if (fr->memory_limit > 0)
    widen(fr->memory_limit, &xlo, &xhi);
  for (int32_t i = 0; fr->arena && i < fr->num_points; i++)
    if (fr->arena[i] >= 0)
      widen(fr->arena[i], &xlo, &xhi);
  c->x = padded(xlo, xhi, FX0, FX1);
  c->y = padded(ylo, yhi, FY1, FY0);
}

/* ---- Axes --------------------------------------------------------------- */

/* Byte ticks: a nice step in the unit (B, KiB, MiB, GiB) that leaves at
 * least 4 units in the range, labelled as a whole number of that unit. */
static void x_axis(FILE *out, const scale *s) {
  static const char *const names[] = {"B", "KiB", "MiB", "GiB"};
  int64_t range = s->hi - s->lo, unit = 1;
  int u = 0;
  while (u < 3 && range / (unit * 1024) >= 4) {
    unit *= 1024;
    u++;
  }
  int64_t step = opsched_rep_nice_step(range / unit, 6) * unit;
  char buf[48];
  for (int64_t t = (s->lo + step - 1) / step * step; t <= s->hi; t += step) {
    double x = at(s, t);
    snprintf(buf, sizeof buf, "%" PRId64 " %s", t / unit, names[u]);
    fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\"/>"
                 "<text class=\"tick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n",
            x, x, FY0, FY1, x, FY1 + 16, buf);
    if (step > INT64_MAX - t)
      break;
  }
  fprintf(out, "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\"/>"
               "<text class=\"tick\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">peak memory "
               "(live bytes)</text>\n",
          FX0, FX1, FY1, FY1, (FX0 + FX1) / 2, FY1 + 34);
}

static void y_axis(FILE *out, const scale *s) {
  int64_t step = opsched_rep_nice_step(s->hi - s->lo, 5);
  char buf[48];
  for (int64_t t = (s->lo + step - 1) / step * step; t <= s->hi; t += step) {
    double y = at(s, t);
    opsched_rep_fmt_ns(buf, sizeof buf, t);
    fprintf(out, "<line class=\"grid\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                 "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
            FX0, FX1, y, y, FX0 - 6, y + 4, buf);
    if (step > INT64_MAX - t)
      break;
  }
  fprintf(out, "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\"/>"
               "<text class=\"tick\" transform=\"translate(16 %.0f) rotate(-90)\" "
               "text-anchor=\"middle\">makespan</text>\n",
          FX0, FX0, FY0, FY1, (FY0 + FY1) / 2);
}

/* ---- Guides: tolerance band, floor, limit ------------------------------ */

static void guides(FILE *out, const fchart *c) {
  const opsched_report_frontier *fr = c->fr;
  if (c->band_top >= 0) {
    double y0 = at(&c->y, c->band_top), y1 = at(&c->y, c->best);
    fprintf(out, "<rect class=\"band\" x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
                 "data-best=\"%" PRId64 "\" data-top=\"%" PRId64 "\"/>\n",
            FX0, y0, FX1 - FX0, y1 - y0 > 1 ? y1 - y0 : 1, c->best, c->band_top);
  }
  if (fr->floor_peak >= 0) {
    double x = at(&c->x, fr->floor_peak);
    fprintf(out, "<line class=\"floor\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" "
                 "data-value=\"%" PRId64 "\"/>\n",
            x, x, FY0, FY1, fr->floor_peak);
  }
  if (fr->memory_limit > 0) {
    double x = at(&c->x, fr->memory_limit);
    fprintf(out, "<line class=\"limit\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" "
                 "data-value=\"%" PRId64 "\"/>\n",
            x, x, FY0, FY1, fr->memory_limit);
  }
}

/* Each packed candidate's arena: a whisker from its peak to its arena size
 * (red past max-memory: the reason a candidate under the limit may lose). */
static void arena_whiskers(FILE *out, const fchart *c) {
  const opsched_report_frontier *fr = c->fr;
  for (int32_t i = 0; fr->arena && i < fr->num_points; i++) {
    if (fr->arena[i] < 0)
      continue;
    double x0 = at(&c->x, fr->peak[i]), x1 = at(&c->x, fr->arena[i]);
    double y = at(&c->y, fr->makespan[i]);
    int over = fr->memory_limit > 0 && fr->arena[i] > fr->memory_limit;
    fprintf(out, "<path class=\"arena%s\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1f\" data-i=\"%" PRId32
                 "\" data-arena=\"%" PRId64 "\"/>\n",
            over ? " over" : "", x0, y, x1, x1, y - 5, y + 5, i, fr->arena[i]);
  }
}

/* ---- Points --------------------------------------------------------------- */

static const char *policy_name(const opsched_report_frontier *fr, int32_t i) {
  return fr->policy ? opsched_memory_policy_name((opsched_memory_policy)fr->policy[i]) : "?";
}

/* The Pareto-optimal points by increasing peak (so by decreasing
 * makespan), joined by a line. */
static void pareto_line(FILE *out, const fchart *c) {
  const opsched_report_frontier *fr = c->fr;
  int32_t order[OPSCHED_REPORT_FRONTIER_MAX_POINTS], k = 0;
  for (int32_t i = 0; i < fr->num_points; i++)
    if (c->pareto[i])
      order[k++] = i;
  for (int32_t a = 1; a < k; a++) /* insertion sort: few points */
    for (int32_t b = a; b > 0 && (fr->peak[order[b]] < fr->peak[order[b - 1]] ||
                                  (fr->peak[order[b]] == fr->peak[order[b - 1]] &&
                                   order[b] < order[b - 1]));
         b--) {
      int32_t t = order[b];
      order[b] = order[b - 1];
      order[b - 1] = t;
    }
  fputs("<polyline class=\"pareto\" points=\"", out);
  for (int32_t i = 0; i < k; i++)
    fprintf(out, "%s%.1f,%.1f", i ? " " : "", at(&c->x, fr->peak[order[i]]),
            at(&c->y, fr->makespan[order[i]]));
  fputs("\"/>\n", out);
}

static void point_tip(char *tip, size_t size, const opsched_report_frontier *fr, int32_t i) {
  char mk[48], pk[48], bu[48], ar[48];
  opsched_rep_fmt_ns(mk, sizeof mk, fr->makespan[i]);
  opsched_rep_fmt_bytes(pk, sizeof pk, fr->peak[i]);
  if (fr->budget && fr->budget[i] > 0)
    opsched_rep_fmt_bytes(bu, sizeof bu, fr->budget[i]);
  else
    snprintf(bu, sizeof bu, "%s", fr->budget ? "none" : "?");
  if (fr->arena && fr->arena[i] >= 0)
    opsched_rep_fmt_bytes(ar, sizeof ar, fr->arena[i]);
  else
    snprintf(ar, sizeof ar, "not packed");
  snprintf(tip, size,
           "run %" PRId32 "%s%s\nmakespan %s (%" PRId64 " ns)\npeak %s (%" PRId64
           " B)\nbudget %s, policy %s\narena %s",
           i + 1, i == fr->chosen ? ": chosen" : "",
           i == fr->unconstrained ? (i == fr->chosen ? ", unconstrained" : ": unconstrained") : "",
           mk, fr->makespan[i], pk, fr->peak[i], bu, policy_name(fr, i), ar);
}

/* Every point, the chosen one last (on top) with a ring. */
static void points(FILE *out, const fchart *c, int32_t index) {
  const opsched_report_frontier *fr = c->fr;
  char tip[320];
  for (int32_t k = 0; k <= fr->num_points; k++) {
    int32_t i = k < fr->num_points ? k : fr->chosen;
    if (k < fr->num_points && i == fr->chosen)
      continue;
    int chosen = i == fr->chosen, free_ = i == fr->unconstrained;
    double x = at(&c->x, fr->peak[i]), y = at(&c->y, fr->makespan[i]);
    point_tip(tip, sizeof tip, fr, i);
    if (chosen)
      fprintf(out, "<circle class=\"ring\" cx=\"%.1f\" cy=\"%.1f\" r=\"11\"/>", x, y);
    fprintf(out, "<circle id=\"frontier-pt-%" PRId32 "-%" PRId32 "\" class=\"pt%s%s%s\" "
                 "cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" data-i=\"%" PRId32 "\" data-makespan=\"%" PRId64
                 "\" data-peak=\"%" PRId64 "\" data-tip=\"",
            index, i, c->pareto[i] ? " pareto" : "", chosen ? " chosen" : "",
            free_ ? " free" : "", x, y, chosen ? 7 : 5, i, fr->makespan[i], fr->peak[i]);
    opsched_rep_html_str(out, tip);
    fputs("\"/>\n", out);
  }
}

/* Labels of the chosen and unconstrained points: beside the point, on the
 * side with room, the chosen one above and the unconstrained one below. */
typedef struct box {
  double x0, y0, x1, y1;
} box;

static box label_box(const label *l) {
  double w = (l->bold ? 7.0 : 6.6) * (double)strlen(l->text);
  box b = {l->end ? l->x - w : l->x, l->y - 11, l->end ? l->x : l->x + w, l->y + 3};
  return b;
}

static int overlap(box a, box b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* Inside the plot, over no point and no label placed before `self`. */
static int label_free(const fchart *c, const label *l, int self) {
  box b = label_box(l);
  if (b.x0 < FX0 + 2 || b.x1 > FX1 - 2 || b.y0 < 4 || b.y1 > FY1 - 2)
    return 0;
  for (int32_t i = 0; i < c->fr->num_points; i++) {
    double x = at(&c->x, c->fr->peak[i]), y = at(&c->y, c->fr->makespan[i]);
    box p = {x - 8, y - 8, x + 8, y + 8};
    if (overlap(b, p))
      return 0;
  }
  for (int k = 0; k < self; k++)
    if (c->labels[k].used && overlap(b, label_box(&c->labels[k])))
      return 0;
  return 1;
}

static void put(label *l, const double *spot) {
  l->x = spot[0];
  l->y = spot[1];
  l->end = spot[2] != 0;
}

/* Puts label `k` at the first free spot among `count` candidates
 * (x, y, end), at the first one when none is free. */
static void place(fchart *c, int k, const double (*spots)[3], int count) {
  label *l = &c->labels[k];
  l->used = 1;
  for (int j = 0; j < count; j++) {
    put(l, spots[j]);
    if (label_free(c, l, k))
      return;
  }
  put(l, spots[0]);
}

/* Beside point i: above, below, then a line further, right before left. */
static void place_point(fchart *c, int k, int32_t i, const char *what, const char *cls) {
  const opsched_report_frontier *fr = c->fr;
  char mk[48], pk[48];
  opsched_rep_fmt_ns(mk, sizeof mk, fr->makespan[i]);
  opsched_rep_fmt_bytes(pk, sizeof pk, fr->peak[i]);
  label *l = &c->labels[k];
  snprintf(l->text, sizeof l->text, "%s: %s, %s", what, mk, pk);
  l->cls = cls;
  l->bold = 1;
  double x = at(&c->x, fr->peak[i]), y = at(&c->y, fr->makespan[i]);
  const double spots[][3] = {{x + 12, y - 10, 0}, {x - 12, y - 10, 1}, {x + 12, y + 18, 0},
                             {x - 12, y + 18, 1}, {x + 12, y - 26, 0}, {x - 12, y - 26, 1},
                             {x + 12, y + 34, 0}, {x - 12, y + 34, 1}};
  place(c, k, spots, (int)(sizeof spots / sizeof spots[0]));
}

/* Beside a vertical guide at x: at the top, then the bottom. */
static void place_guide(fchart *c, int k, double x, int left_first) {
  double a = left_first ? 1 : 0, b = left_first ? 0 : 1;
  const double spots[][3] = {{x + (a ? -4 : 4), FY0 + 12, a}, {x + (b ? -4 : 4), FY0 + 12, b},
                             {x + (a ? -4 : 4), FY1 - 6, a},  {x + (b ? -4 : 4), FY1 - 6, b},
                             {x + (a ? -4 : 4), FY0 + 28, a}, {x + (b ? -4 : 4), FY0 + 28, b}};
  place(c, k, spots, (int)(sizeof spots / sizeof spots[0]));
}

/* Every label's text and place, the most important first. */
static void layout_labels(fchart *c) {
  const opsched_report_frontier *fr = c->fr;
  char buf[48];
  place_point(c, L_CHOSEN, fr->chosen,
              fr->unconstrained == fr->chosen ? "chosen = unconstrained" : "chosen",
              "ptlabel chosen");
  if (fr->unconstrained >= 0 && fr->unconstrained != fr->chosen)
    place_point(c, L_FREE, fr->unconstrained, "unconstrained", "ptlabel free");
  if (fr->floor_peak >= 0) {
    opsched_rep_fmt_bytes(buf, sizeof buf, fr->floor_peak);
    snprintf(c->labels[L_FLOOR].text, sizeof c->labels[0].text, "1-stream floor %s", buf);
    c->labels[L_FLOOR].cls = "floorlabel";
    place_guide(c, L_FLOOR, at(&c->x, fr->floor_peak), 0);
  }
  if (fr->memory_limit > 0) {
    opsched_rep_fmt_bytes(buf, sizeof buf, fr->memory_limit);
    snprintf(c->labels[L_LIMIT].text, sizeof c->labels[0].text, "max-memory %s", buf);
    c->labels[L_LIMIT].cls = "limit";
    place_guide(c, L_LIMIT, at(&c->x, fr->memory_limit), 1);
  }
  if (c->band_top >= 0) {
    double y0 = at(&c->y, c->band_top), y1 = at(&c->y, c->best);
    snprintf(c->labels[L_BAND].text, sizeof c->labels[0].text,
             "within %.4g%% of the best makespan", 100.0 * fr->tolerance);
    c->labels[L_BAND].cls = "bandlabel";
    const double spots[][3] = {{FX0 + 6, y1 + 14, 0}, {FX0 + 6, y0 - 5, 0},
                               {FX1 - 6, y0 - 5, 1},  {FX1 - 6, y1 + 14, 1},
                               {(FX0 + FX1) / 2, y0 - 5, 0}, {(FX0 + FX1) / 2, y1 + 14, 0}};
    place(c, L_BAND, spots, (int)(sizeof spots / sizeof spots[0]));
  }
}

static void labels(FILE *out, const fchart *c) {
  for (int k = 0; k < NUM_LABELS; k++) {
    const label *l = &c->labels[k];
    if (!l->used)
      continue;
    fprintf(out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\"%s>", l->cls, l->x, l->y,
            l->end ? " text-anchor=\"end\"" : "");
    opsched_rep_html_str(out, l->text);
    fputs("</text>\n", out);
  }
}

/* ---- The view ------------------------------------------------------------ */

static void rule_caption(FILE *out, const opsched_report_frontier *fr) {
  fputs("<p class=\"caption\">", out);
  if (fr->memory_limit > 0)
    fputs("Rule: the fastest candidate whose peak (and arena, when packed) fits "
          "max-memory.",
          out);
  else if (fr->tolerance >= 0)
    fprintf(out, "Rule: the lowest peak among the candidates within %.4g%% of the best "
                 "makespan (makespan-tolerance).",
            100.0 * fr->tolerance);
  else
    fputs("Rule: the policy's order as a budget: the lowest peak, then the shortest "
          "makespan.",
          out);
  fprintf(out, " %" PRId32 " candidate%s, run order; hover a point for its budget and "
               "policy.</p>\n",
          fr->num_points, fr->num_points == 1 ? "" : "s");
  fputs("<p class=\"legend\"><span class=\"key pt\"></span>candidate"
        "<span class=\"key pareto\"></span>Pareto-optimal (connected)"
        "<span class=\"key chosen\"></span>chosen",
        out);
  if (fr->unconstrained >= 0)
    fputs("<span class=\"key free\"></span>unconstrained", out);
  if (fr->floor_peak >= 0)
    fputs("<span class=\"key floor\"></span>one-stream floor", out);
  if (fr->memory_limit > 0)
    fputs("<span class=\"key limit\"></span>max-memory", out);
  if (fr->tolerance >= 0)
    fputs("<span class=\"key band\"></span>tolerance band", out);
  for (int32_t i = 0; fr->arena && i < fr->num_points; i++)
    if (fr->arena[i] >= 0) {
      fputs("<span class=\"key arena\"></span>peak \xE2\x86\x92 arena (packed candidates)", out);
      break;
    }
  fputs("</p>\n", out);
}

static void chart(FILE *out, const fchart *c, int32_t index) {
  fprintf(out, "<svg class=\"frontier\" id=\"frontier-chart-%" PRId32 "\" viewBox=\"0 0 1000 300\" "
               "width=\"100%%\" role=\"img\" aria-label=\"makespan against peak memory\" "
               "data-x0=\"%" PRId64 "\" data-x1=\"%" PRId64 "\" data-y0=\"%" PRId64
               "\" data-y1=\"%" PRId64 "\" data-px0=\"%.0f\" data-px1=\"%.0f\" "
               "data-py0=\"%.0f\" data-py1=\"%.0f\">\n",
          index, c->x.lo, c->x.hi, c->y.lo, c->y.hi, FX0, FX1, FY1, FY0);
  guides(out, c);
  x_axis(out, &c->x);
  y_axis(out, &c->y);
  arena_whiskers(out, c);
  pareto_line(out, c);
  points(out, c, index);
  labels(out, c);
  fputs("</svg>\n", out);
}

static void cell_i64(FILE *out, int64_t raw, const char *text) {
  fprintf(out, "<td data-value=\"%" PRId64 "\">", raw);
  opsched_rep_html_str(out, text);
  fputs("</td>", out);
}

/* The points as a table: the same numbers, exact. */
static void point_table(FILE *out, const fchart *c, int32_t index) {
  const opsched_report_frontier *fr = c->fr;
  char buf[64];
  fprintf(out, "<table class=\"frontier\" id=\"frontier-table-%" PRId32 "\"><tr><th>run</th>"
               "<th>budget</th><th>policy</th><th>makespan</th><th>peak</th><th>arena</th>"
               "<th></th></tr>\n",
          index);
  for (int32_t i = 0; i < fr->num_points; i++) {
    fprintf(out, "<tr class=\"%s\" data-i=\"%" PRId32 "\"><td>%" PRId32 "</td>",
            i == fr->chosen ? "chosen" : "", i, i + 1);
    int64_t budget = fr->budget ? fr->budget[i] : -1;
    if (budget > 0)
      opsched_rep_fmt_bytes(buf, sizeof buf, budget);
    cell_i64(out, budget, budget > 0 ? buf : budget == 0 ? "none" : "?");
    fputs("<td>", out);
    opsched_rep_html_str(out, policy_name(fr, i));
    fputs("</td>", out);
    opsched_rep_fmt_ns(buf, sizeof buf, fr->makespan[i]);
    cell_i64(out, fr->makespan[i], buf);
    opsched_rep_fmt_bytes(buf, sizeof buf, fr->peak[i]);
    cell_i64(out, fr->peak[i], buf);
    int64_t arena = fr->arena ? fr->arena[i] : -1;
    if (arena >= 0)
      opsched_rep_fmt_bytes(buf, sizeof buf, arena);
    cell_i64(out, arena, arena >= 0 ? buf : "not packed");
    fprintf(out, "<td class=\"note\">%s%s%s%s%s</td></tr>\n", i == fr->chosen ? "chosen " : "",
            i == fr->unconstrained ? "unconstrained " : "", c->pareto[i] ? "Pareto" : "",
            c->band_top >= 0 && fr->makespan[i] <= c->band_top ? " \xC2\xB7 within tolerance" : "",
            fr->memory_limit > 0 && fr->peak[i] > fr->memory_limit ? " \xC2\xB7 peak over max-memory"
            : fr->memory_limit > 0 && arena > fr->memory_limit ? " \xC2\xB7 arena over max-memory"
                                                                : "");
  }
  fputs("</table>\n", out);
}

void opsched_rep_html_frontier(FILE *out, const opsched_report_block *b, int32_t index) {
  const opsched_report_frontier *fr = b->frontier;
  if (!fr)
    return;
  fprintf(out, "<div class=\"view frontier\" id=\"frontier-%" PRId32 "\" data-points=\"%" PRId32
               "\" data-chosen=\"%" PRId32 "\"><h4>Makespan vs peak memory</h4>\n",
          index, fr->num_points, fr->chosen);
  if (fr->not_run) {
    char mk[48], pk[48];
    opsched_rep_fmt_ns(mk, sizeof mk, fr->makespan[fr->chosen]);
    if (fr->peak[fr->chosen] >= 0)
      opsched_rep_fmt_bytes(pk, sizeof pk, fr->peak[fr->chosen]);
    else
      snprintf(pk, sizeof pk, "not modelled");
    fprintf(out, "<p class=\"none\" id=\"frontier-none-%" PRId32 "\">No frontier to draw: ", index);
    opsched_rep_html_str(out, fr->not_run);
    fprintf(out, ". The schedule came from one run (makespan %s, peak %s).</p>\n</div>\n",
            mk, pk);
    return;
  }
  fchart c;
  chart_init(&c, fr);
  layout_labels(&c);
  rule_caption(out, fr);
  chart(out, &c, index);
  point_table(out, &c, index);
  fputs("</div>\n", out);
}

void opsched_rep_frontier_json(FILE *out, const opsched_report_frontier *fr) {
  if (!fr)
    return;
  /* points: [makespan, peak, budget, policy, arena] in run order; null = unknown */
  fputs(",\n\"frontier\":{\"points\":[", out);
  for (int32_t i = 0; i < fr->num_points; i++) {
    fprintf(out, "%s[%" PRId64 ",%" PRId64 ",", i ? "," : "", fr->makespan[i], fr->peak[i]);
    if (fr->budget)
      fprintf(out, "%" PRId64 ",", fr->budget[i]);
    else
      fputs("null,", out);
    if (fr->policy)
      opsched_rep_json_qstr(out, policy_name(fr, i), 1);
    else
      fputs("null", out);
    if (fr->arena && fr->arena[i] >= 0)
      fprintf(out, ",%" PRId64 "]", fr->arena[i]);
    else
      fputs(",null]", out);
  }
  fprintf(out, "],\"chosen\":%" PRId32 ",\"unconstrained\":%" PRId32 ",\"floor_peak\":%" PRId64
               ",\"limit\":%" PRId64 ",\"tolerance\":",
          fr->chosen, fr->unconstrained, fr->floor_peak, fr->memory_limit);
  if (fr->tolerance >= 0)
    fprintf(out, "%.17g", fr->tolerance);
  else
    fputs("null", out);
  fputs(",\"not_run\":", out);
  if (fr->not_run)
    opsched_rep_json_qstr(out, fr->not_run, 1);
  else
    fputs("null", out);
  fputc('}', out);
}
