#include "effect_order.h"

#include <stdlib.h>
#include <string.h>

/* The accesses to one key (a resource whole, or one class of it) since it
 * was last cleared: its last writer and the readers after it. */
typedef struct key_state {
  int32_t last_writer;
  int32_t *readers;
  int32_t nreaders, cap;
  uint8_t touched; /* listed in the resource's `touched` */
} key_state;

typedef struct resource_state {
  uintptr_t resource;
  key_state whole;
  key_state *cls;   /* per alias class, allocated at first use */
  int32_t *touched; /* classes with a last writer or readers */
  int32_t ntouched;
} resource_state;

struct opsched_effect_order {
  const opsched_alias *alias;
  resource_state *res;
  int32_t nres, cap;
  int32_t last_unknown; /* last op with unknown effects, or -1 */
  int32_t *effectful;   /* effectful ops since last_unknown */
  int32_t neffectful;
  int err;
};

opsched_effect_order *opsched_effect_order_new(const opsched_alias *alias, int32_t n) {
  opsched_effect_order *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->alias = alias;
  s->last_unknown = -1;
  s->effectful = malloc(sizeof *s->effectful * (size_t)(n > 0 ? n : 1));
  if (!s->effectful) {
    free(s);
    return NULL;
  }
  return s;
}

static void key_free(key_state *k) { free(k->readers); }

void opsched_effect_order_free(opsched_effect_order *s) {
  if (!s)
    return;
  for (int32_t i = 0; i < s->nres; i++) {
    resource_state *rs = &s->res[i];
    key_free(&rs->whole);
    for (int32_t c = 0; rs->cls && c < s->alias->count; c++)
      key_free(&rs->cls[c]);
    free(rs->cls);
    free(rs->touched);
  }
  free(s->res);
  free(s->effectful);
  free(s);
}

static resource_state *find_resource(opsched_effect_order *s, uintptr_t r) {
  for (int32_t i = 0; i < s->nres; i++)
    if (s->res[i].resource == r)
      return &s->res[i];
  if (s->nres == s->cap) {
    int32_t cap = s->cap ? 2 * s->cap : 8;
    resource_state *p = realloc(s->res, sizeof *p * (size_t)cap);
    if (!p)
      return NULL;
    s->res = p;
    s->cap = cap;
  }
  resource_state *rs = &s->res[s->nres++];
  memset(rs, 0, sizeof *rs);
  rs->resource = r;
  rs->whole.last_writer = -1;
  return rs;
}

/* The per-class keys of a resource, made at its first class access. */
static int ensure_classes(const opsched_effect_order *s, resource_state *rs) {
  if (rs->cls)
    return 0;
  int32_t n = s->alias->count;
  rs->cls = calloc((size_t)n, sizeof *rs->cls);
  rs->touched = malloc(sizeof *rs->touched * (size_t)n);
  if (!rs->cls || !rs->touched)
    return 1;
  for (int32_t c = 0; c < n; c++)
    rs->cls[c].last_writer = -1;
  return 0;
}

static void edge(opsched_effect_order *s, opsched_graph *g, int32_t from, int32_t to) {
  if (from >= 0 && opsched_graph_add_edge(g, from, to) != OPSCHED_OK)
    s->err = 1;
}

/* Op v after the accesses to `k` it conflicts with: its last writer, and
 * its readers too when v writes. */
static void after_key(opsched_effect_order *s, opsched_graph *g, const key_state *k, int32_t v,
                      int write) {
  edge(s, g, k->last_writer, v);
  for (int32_t i = 0; write && i < k->nreaders; i++)
    edge(s, g, k->readers[i], v);
}

static void push_reader(opsched_effect_order *s, key_state *k, int32_t v) {
  if (k->nreaders == k->cap) {
    int32_t cap = k->cap ? 2 * k->cap : 8;
    int32_t *p = realloc(k->readers, sizeof *p * (size_t)cap);
    if (!p) {
      s->err = 1;
      return;
    }
    k->readers = p;
    k->cap = cap;
  }
  k->readers[k->nreaders++] = v;
}

static void touch(resource_state *rs, int32_t c) {
  if (!rs->cls[c].touched) {
    rs->cls[c].touched = 1;
    rs->touched[rs->ntouched++] = c;
  }
}

/* Forgets the listed classes `clear` selects (0 none, 1 escaped ones, 2
 * all): a write that conflicts with everything they conflict with now
 * stands for them. */
static void clear_classes(const opsched_effect_order *s, resource_state *rs, int clear) {
  int32_t kept = 0;
  for (int32_t i = 0; i < rs->ntouched; i++) {
    int32_t c = rs->touched[i];
    if (clear == 2 || (clear == 1 && s->alias->escaped[c])) {
      rs->cls[c].last_writer = -1;
      rs->cls[c].nreaders = 0;
      rs->cls[c].touched = 0;
    } else {
      rs->touched[kept++] = c;
    }
  }
  rs->ntouched = kept;
}

/* A whole-resource access conflicts with every class of the resource. */
static void access_whole(opsched_effect_order *s, opsched_graph *g, resource_state *rs,
                         int32_t v, int write) {
  after_key(s, g, &rs->whole, v, write);
  for (int32_t i = 0; i < rs->ntouched; i++)
    after_key(s, g, &rs->cls[rs->touched[i]], v, write);
  if (!write) {
    push_reader(s, &rs->whole, v);
    return;
  }
  clear_classes(s, rs, 2);
  rs->whole.last_writer = v;
  rs->whole.nreaders = 0;
}

/* A class access conflicts with the whole resource and the classes that
 * may alias it. A write to the unknown class stands for every escaped one
 * afterwards; a write to an allocation only for itself. */
static void access_class(opsched_effect_order *s, opsched_graph *g, resource_state *rs,
                         int32_t c, int32_t v, int write) {
  after_key(s, g, &rs->whole, v, write);
  after_key(s, g, &rs->cls[c], v, write);
  if (c == OPSCHED_ALIAS_UNKNOWN) {
    for (int32_t i = 0; i < rs->ntouched; i++)
      if (rs->touched[i] != c && s->alias->escaped[rs->touched[i]])
        after_key(s, g, &rs->cls[rs->touched[i]], v, write);
  } else if (s->alias->escaped[c]) {
    after_key(s, g, &rs->cls[OPSCHED_ALIAS_UNKNOWN], v, write);
  }
  if (!write) {
    push_reader(s, &rs->cls[c], v);
    touch(rs, c);
    return;
  }
  if (c == OPSCHED_ALIAS_UNKNOWN) {
    clear_classes(s, rs, 1);
  } else {
    rs->cls[c].nreaders = 0;
  }
  rs->cls[c].last_writer = v;
  touch(rs, c);
}

/* An op with unknown effects orders against every effectful op before it,
 * and stands for all of them afterwards. */
static void add_unknown(opsched_effect_order *s, opsched_graph *g, int32_t v) {
  for (int32_t i = 0; i < s->neffectful; i++)
    edge(s, g, s->effectful[i], v);
  s->neffectful = 0;
  s->last_unknown = v;
  for (int32_t i = 0; i < s->nres; i++) {
    resource_state *rs = &s->res[i];
    rs->whole.last_writer = -1;
    rs->whole.nreaders = 0;
    if (rs->cls)
      clear_classes(s, rs, 2);
  }
}

int opsched_effect_order_add(opsched_effect_order *s, opsched_graph *g, int32_t v,
                             const opsched_fx *fx, int64_t nfx) {
  if (nfx == 0)
    return s->err;
  edge(s, g, s->last_unknown, v);
  if (nfx < 0) {
    add_unknown(s, g, v);
    return s->err;
  }
  s->effectful[s->neffectful++] = v;
  for (int64_t e = 0; e < nfx && !s->err; e++) {
    resource_state *rs = find_resource(s, fx[e].resource);
    if (!rs || (fx[e].cls != OPSCHED_EFFECT_WHOLE && ensure_classes(s, rs)))
      return 1;
    if (fx[e].cls == OPSCHED_EFFECT_WHOLE)
      access_whole(s, g, rs, v, fx[e].write);
    else
      access_class(s, g, rs, fx[e].cls, v, fx[e].write);
  }
  return s->err;
}
