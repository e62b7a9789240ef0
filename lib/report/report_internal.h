/* lib/report/report_internal.h - helpers shared by the trace and HTML
 * writers (internal). No state: every function works on its arguments. */
#ifndef OPSCHED_REPORT_INTERNAL_H
#define OPSCHED_REPORT_INTERNAL_H

#include "opsched/report.h"

#include <stdint.h>
#include <stdio.h>

/* Writes `s` as the body of a JSON string (no quotes): ", \ and control
 * characters escaped, invalid UTF-8 bytes replaced by U+FFFD. With
 * `html_safe`, <, > and & are written as \u003c, \u003e, \u0026 so the JSON
 * can sit inside a <script> element. NULL writes nothing. */
void opsched_rep_json_str(FILE *out, const char *s, int html_safe);
/* Same, with the surrounding quotes. */
void opsched_rep_json_qstr(FILE *out, const char *s, int html_safe);

/* Writes `s` HTML-escaped (& < > " ' as entities; invalid UTF-8 replaced by
 * U+FFFD; newlines kept). NULL writes nothing. */
void opsched_rep_html_str(FILE *out, const char *s);

/* Writes ns as microseconds with exactly three decimals ("12.345"). */
void opsched_rep_us(FILE *out, int64_t ns);

/* Human units: "850 ns", "12.35 µs", "1.234 ms", "2.500 s" and "512 B",
 * "1.50 KiB", "3.25 MiB", "1.00 GiB". */
void opsched_rep_fmt_ns(char *buf, size_t size, int64_t ns);
void opsched_rep_fmt_bytes(char *buf, size_t size, int64_t bytes);
/* A "nice" tick step (1, 2 or 5 times a power of ten) near range/ticks. */
int64_t opsched_rep_nice_step(int64_t range, int ticks);

/* The frontier view of a block (html_frontier.c): the chart and table of
 * the candidates, or why there was none; nothing when b->frontier is NULL.
 * `index` is the block's page-wide index (element ids). */
void opsched_rep_html_frontier(FILE *out, const opsched_report_block *b, int32_t index);
/* The frontier as JSON for the page's data ("frontier":{...}), nothing
 * when NULL. */
void opsched_rep_frontier_json(FILE *out, const opsched_report_frontier *fr);

/* 1 when the module is well formed for the writers (graphs finalized,
 * schedules match their graphs, arrays with counts). */
int opsched_rep_module_ok(const opsched_report_module *m);

/* The block's peaks: the given value or, when 0, the max of its array
 * (0 when the array is NULL). */
int64_t opsched_rep_peak_original(const opsched_report_block *b);
int64_t opsched_rep_peak_scheduled(const opsched_report_block *b);
/* The arena size: b->arena_size or the max end of the buffers. */
int64_t opsched_rep_arena(const opsched_report_block *b);
/* The scheduled memory order (mem_order or the schedule's order). */
const int32_t *opsched_rep_mem_order(const opsched_report_block *b);

/* Label of node v: labels[v] when given and non-NULL, else written as
 * "op<v>" into buf (size >= 24). */
const char *opsched_rep_label(const opsched_report_block *b, int32_t v,
                              char *buf, size_t size);

/* The HTML page's fixed parts (html_template.c): CSS, the script that
 * records errors (runs first, in <head>) and the main script (runs last). */
extern const char opsched_html_css[];
extern const char opsched_html_error_js[];
extern const char opsched_html_main_js[];

#endif
