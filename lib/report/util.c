/* lib/report/util.c - escaping and model checks shared by the writers. */
#include "report_internal.h"

#include <inttypes.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
static int utf8_len(const unsigned char *s) {
  unsigned c = s[0];
  if (c < 0x80)
    return 1;
  int len;
  unsigned min;
  if ((c & 0xE0) == 0xC0) {
    len = 2;
    min = 0x80;
    c &= 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    min = 0x800;
    c &= 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    min = 0x10000;
    c &= 0x07;
  } else {
    return 0;
  }
  for (int i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    c = (c << 6) | (s[i] & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return 0;
  return len;
}

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Copies the UTF-8 sequence at `s` (a lead byte >= 0x80), or the
 * replacement character for an invalid one; returns what follows it. */
static const unsigned char *copy_utf8(FILE *out, const unsigned char *s) {
  int len = utf8_len(s);
  if (len == 0) {
    fputs(replacement, out);
    return s + 1;
  }
  fwrite(s, 1, (size_t)len, out);
  return s + len;
}

/* Writes one ASCII character `c` escaped for the target; `flag` is the
 * JSON writer's html_safe. */
typedef void (*escape_ascii_fn)(FILE *out, unsigned c, int flag);

/* The one escaping loop: UTF-8 sequences copied (invalid ones replaced),
 * ASCII through `esc`. */
static void escape_str(FILE *out, const char *str, escape_ascii_fn esc, int flag) {
  if (!str)
    return;
  const unsigned char *s = (const unsigned char *)str;
  while (*s) {
    if (*s >= 0x80) {
      s = copy_utf8(out, s);
      continue;
    }
    esc(out, *s++, flag);
  }
}

static void json_ascii(FILE *out, unsigned c, int html_safe) {
  switch (c) {
  case '"': fputs("\\\"", out); break;
  case '\\': fputs("\\\\", out); break;
  case '\n': fputs("\\n", out); break;
  case '\r': fputs("\\r", out); break;
  case '\t': fputs("\\t", out); break;
  default:
    if (c < 0x20 || c == 0x7F || (html_safe && (c == '<' || c == '>' || c == '&')))
      fprintf(out, "\\u%04x", c);
    else
      fputc((int)c, out);
  }
}

static void html_ascii(FILE *out, unsigned c, int unused) {
  (void)unused;
  switch (c) {
  case '&': fputs("&amp;", out); break;
  case '<': fputs("&lt;", out); break;
  case '>': fputs("&gt;", out); break;
  case '"': fputs("&quot;", out); break;
  case '\'': fputs("&#39;", out); break;
  default:
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
      fputs(replacement, out);
    else
      fputc((int)c, out);
  }
}

void opsched_rep_json_str(FILE *out, const char *str, int html_safe) {
  escape_str(out, str, json_ascii, html_safe);
}

void opsched_rep_json_qstr(FILE *out, const char *s, int html_safe) {
  fputc('"', out);
  opsched_rep_json_str(out, s, html_safe);
  fputc('"', out);
}

void opsched_rep_html_str(FILE *out, const char *str) { escape_str(out, str, html_ascii, 0); }

void opsched_rep_us(FILE *out, int64_t ns) {
  if (ns < 0) {
    fputc('-', out);
    /* -INT64_MIN overflows; costs are never negative anyway. */
    ns = ns == INT64_MIN ? INT64_MAX : -ns;
  }
  fprintf(out, "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
}

/* A frontier needs its points, a chosen one among them and non-negative
 * makespans; a peak is -1 only without a memory model, where there is no
 * chart (not_run says why). */
static int frontier_ok(const opsched_report_frontier *fr) {
  if (!fr)
    return 1;
  if (fr->num_points < 1 || fr->num_points > OPSCHED_REPORT_FRONTIER_MAX_POINTS || !fr->makespan || !fr->peak || fr->chosen < 0 ||
      fr->chosen >= fr->num_points || fr->unconstrained < -1 ||
      fr->unconstrained >= fr->num_points)
    return 0;
  for (int32_t i = 0; i < fr->num_points; i++)
    if (fr->makespan[i] < 0 || fr->peak[i] < -1 || (fr->peak[i] < 0 && !fr->not_run))
      return 0;
  return 1;
}

int opsched_rep_module_ok(const opsched_report_module *m) {
  if (!m || m->num_functions < 0 || (m->num_functions > 0 && !m->functions))
    return 0;
  for (int32_t f = 0; f < m->num_functions; f++) {
    const opsched_report_function *fn = &m->functions[f];
    if (fn->num_blocks < 0 || (fn->num_blocks > 0 && !fn->blocks))
      return 0;
    for (int32_t k = 0; k < fn->num_blocks; k++) {
      const opsched_report_block *b = &fn->blocks[k];
      if (!b->graph || !b->schedule || !opsched_graph_is_finalized(b->graph))
        return 0;
      int32_t n = opsched_graph_num_nodes(b->graph);
      if (opsched_schedule_num_nodes(b->schedule) != n)
        return 0;
      if (b->num_buffers < 0 || (b->num_buffers > 0 && !b->buffers))
        return 0;
      if (b->num_peak_buffers < 0 || (b->num_peak_buffers > 0 && !b->peak_buffers) ||
          b->mem_time_points < 0 ||
          (b->mem_time_points > 0 && (!b->mem_time || !b->mem_time_bytes)))
        return 0;
      for (int32_t i = 0; i < b->num_peak_buffers; i++)
        if (b->peak_buffers[i] < 0 || b->peak_buffers[i] >= b->num_buffers)
          return 0;
      if (!frontier_ok(b->frontier))
        return 0;
      if (b->mem_order)
        for (int32_t i = 0; i < n; i++)
          if (b->mem_order[i] < 0 || b->mem_order[i] >= n)
            return 0;
    }
  }
  return 1;
}

static int64_t max_of(const int64_t *a, int32_t n) {
  int64_t m = 0;
  if (a)
    for (int32_t i = 0; i < n; i++)
      if (a[i] > m)
        m = a[i];
  return m;
}

int64_t opsched_rep_peak_original(const opsched_report_block *b) {
  if (b->peak_original)
    return b->peak_original;
  return max_of(b->mem_original, opsched_graph_num_nodes(b->graph));
}

int64_t opsched_rep_peak_scheduled(const opsched_report_block *b) {
  if (b->peak_scheduled)
    return b->peak_scheduled;
  return max_of(b->mem_scheduled, opsched_graph_num_nodes(b->graph));
}

int64_t opsched_rep_arena(const opsched_report_block *b) {
  if (b->arena_size)
    return b->arena_size;
  int64_t m = 0;
  for (int32_t i = 0; i < b->num_buffers; i++) {
    if (b->buffers[i].offset < 0)
      continue; /* not placed in an arena */
    int64_t e = b->buffers[i].offset + b->buffers[i].size;
    if (e > m)
      m = e;
  }
  return m;
}

const int32_t *opsched_rep_mem_order(const opsched_report_block *b) {
  return b->mem_order ? b->mem_order : opsched_schedule_order(b->schedule);
}

const char *opsched_rep_label(const opsched_report_block *b, int32_t v,
                              char *buf, size_t size) {
  if (b->labels && b->labels[v])
    return b->labels[v];
  snprintf(buf, size, "op%" PRId32, v);
  return buf;
}

/* "850 ns", "12.35 us", "1.234 ms", "2.500 s" */
void opsched_rep_fmt_ns(char *buf, size_t size, int64_t ns) {
  if (ns < 10000)
    snprintf(buf, size, "%" PRId64 " ns", ns);
  else if (ns < 10000000)
    snprintf(buf, size, "%.2f \xC2\xB5s", (double)ns / 1e3);
  else if (ns < 10000000000)
    snprintf(buf, size, "%.3f ms", (double)ns / 1e6);
  else
    snprintf(buf, size, "%.3f s", (double)ns / 1e9);
}

/* "512 B", "1.50 KiB", "3.25 MiB", "1.00 GiB" */
void opsched_rep_fmt_bytes(char *buf, size_t size, int64_t b) {
  if (b < 1024)
    snprintf(buf, size, "%" PRId64 " B", b);
  else if (b < 1024 * 1024)
    snprintf(buf, size, "%.2f KiB", (double)b / 1024.0);
  else if (b < (int64_t)1024 * 1024 * 1024)
    snprintf(buf, size, "%.2f MiB", (double)b / (1024.0 * 1024.0));
  else
    snprintf(buf, size, "%.2f GiB", (double)b / (1024.0 * 1024.0 * 1024.0));
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) near range/ticks. */
int64_t opsched_rep_nice_step(int64_t range, int ticks) {
  if (range <= 0)
    return 1;
  int64_t raw = range / ticks;
  if (raw < 1)
    return 1;
  int64_t p = 1;
  while (p <= raw / 10)
    p *= 10;
  int64_t m = raw / p; /* 1..9 */
  return (m < 2 ? 2 : m < 5 ? 5 : 10) * p;
}
