/* test_malloc_env: the GLIBC_TUNABLES a new image of the process gets
 * (lib/core/malloc_env.c): the tunable added after the user's entries,
 * never over a glibc.malloc.hugetlb of the user's, and the user's value put
 * back in the new image (or after a failed exec); the input's size read
 * from an mlir-opt command line. */
#define _DEFAULT_SOURCE /* setenv, unsetenv */
#include "check.h"

#include "../../lib/core/malloc_env.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *tunables(const char *user, char *out, size_t cap, int *len) {
  *len = opsched_malloc_tunables(user, out, cap);
  return *len > 0 ? out : "";
}

static void test_value(void) {
  char out[128];
  int len;
  CHECK(strcmp(tunables(NULL, out, sizeof out, &len), "glibc.malloc.hugetlb=1") == 0);
  CHECK_EQ_I64(len, 22);
  CHECK(strcmp(tunables("", out, sizeof out, &len), "glibc.malloc.hugetlb=1") == 0);
  CHECK(strcmp(tunables("glibc.malloc.arena_max=2", out, sizeof out, &len),
               "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1") == 0);
  CHECK_EQ_I64(len, 47);
  /* The user's choice stands, wherever it is in the list. */
  CHECK_EQ_I64(opsched_malloc_tunables("glibc.malloc.hugetlb=0", out, sizeof out), 0);
  CHECK_EQ_I64(opsched_malloc_tunables("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2", out,
                                       sizeof out), 0);
  /* Names that only begin or end alike are other tunables. */
  CHECK(strcmp(tunables("glibc.malloc.hugetlbx=1", out, sizeof out, &len),
               "glibc.malloc.hugetlbx=1:glibc.malloc.hugetlb=1") == 0);
  CHECK(strcmp(tunables("xglibc.malloc.hugetlb=0", out, sizeof out, &len),
               "xglibc.malloc.hugetlb=0:glibc.malloc.hugetlb=1") == 0);
  /* Too small a buffer: -1, never a cut value. */
  CHECK_EQ_I64(opsched_malloc_tunables(NULL, out, 22), -1);
  CHECK_EQ_I64(opsched_malloc_tunables(NULL, out, 23), 22);
}

static int env_is(const char *name, const char *value) {
  const char *v = getenv(name);
  return value ? v && strcmp(v, value) == 0 : v == NULL;
}

/* prepare, then restore: the environment as the user had it. */
static void round_trip(const char *user, const char *expected) {
  if (user)
    setenv("GLIBC_TUNABLES", user, 1);
  else
    unsetenv("GLIBC_TUNABLES");
  int prepared = opsched_malloc_env_prepare();
  if (!expected) { /* the user named the tunable: nothing changes */
    CHECK_EQ_I64(prepared, 0);
    CHECK(env_is("GLIBC_TUNABLES", user));
    CHECK_EQ_I64(opsched_malloc_env_restore(), 0);
    CHECK(env_is("GLIBC_TUNABLES", user));
    return;
  }
  if (!prepared) { /* valgrind, sanitizers, old glibc or no THP: nothing to do */
    printf("test_malloc_env: prepare declined here, environment unchanged\n");
    CHECK(env_is("GLIBC_TUNABLES", user));
    return;
  }
  CHECK(env_is("GLIBC_TUNABLES", expected));
  /* The new image must not execute itself again. */
  CHECK_EQ_I64(opsched_malloc_env_prepare(), 0);
  CHECK(env_is("GLIBC_TUNABLES", expected));
  CHECK_EQ_I64(opsched_malloc_env_restore(), 1);
  CHECK(env_is("GLIBC_TUNABLES", user));
  CHECK(env_is("OPSCHED_MALLOC_SAVED_TUNABLES", NULL));
  CHECK_EQ_I64(opsched_malloc_env_restore(), 0);
  CHECK(env_is("GLIBC_TUNABLES", user));
}

static void test_environment(void) {
  round_trip(NULL, "glibc.malloc.hugetlb=1");
  round_trip("", "glibc.malloc.hugetlb=1");
  round_trip("glibc.malloc.arena_max=2", "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  round_trip("glibc.malloc.hugetlb=0", NULL);
}

/* A file of `bytes` bytes under /tmp; its name in path[64]. */
static int make_file(char *path, size_t bytes) {
  strcpy(path, "/tmp/test_malloc_env.XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0)
    return 0;
  int ok = ftruncate(fd, (off_t)bytes) == 0;
  close(fd);
  return ok;
}

static void test_input_bytes(void) {
  char small[64], large[64];
  if (!make_file(small, 1000) || !make_file(large, 5000)) {
    CHECK(!"temporary files");
    return;
  }
  char opt[] = "opt", o[] = "-o", plugin[] = "--load-pass-plugin", dialect[] = "-load-dialect-plugin",
       flag[] = "--op-schedule=streams=4", pipeline[] = "--pass-pipeline=builtin.module()",
       dashes[] = "--", missing[] = "/tmp/test_malloc_env.none";
  char *const named[] = {opt, flag, small};
  CHECK_EQ_I64(opsched_malloc_env_input_bytes(3, named), 1000);
  char *const two[] = {opt, small, large, flag};
  CHECK_EQ_I64(opsched_malloc_env_input_bytes(4, two), 5000);
  /* The output and plugins are not inputs. */
  char *const output[] = {opt, o, large, small};
  CHECK_EQ_I64(opsched_malloc_env_input_bytes(4, output), 1000);
  char *const plugins[] = {opt, plugin, large, dialect, large, pipeline, small};
  CHECK_EQ_I64(opsched_malloc_env_input_bytes(7, plugins), 1000);
  char *const after[] = {opt, dashes, large};
  CHECK_EQ_I64(opsched_malloc_env_input_bytes(3, after), 5000);
  /* A name that is no regular file: unknown. */
  char *const none[] = {opt, missing};
  CHECK_EQ_I64(opsched_malloc_env_input_bytes(2, none), -1);
  unlink(small);
  unlink(large);
}

int main(void) {
  test_value();
  test_environment();
  test_input_bytes();
  return check_report("test_malloc_env");
}
