/* setenv, unsetenv, stat and fstat are POSIX, gnu_get_libc_version glibc's. */
#define _DEFAULT_SOURCE
#include "malloc_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif
/* AddressSanitizer brings its own malloc, which reads no glibc tunable. */
#if defined(__SANITIZE_ADDRESS__)
#define OWN_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OWN_MALLOC 1
#endif
#endif
#ifndef OWN_MALLOC
#define OWN_MALLOC 0
#endif

static const char TUNABLE[] = "glibc.malloc.hugetlb";
/* Holds the user's GLIBC_TUNABLES across the exec: "=" and the value, or
 * "-" when there was none. */
static const char SAVED[] = "OPSCHED_MALLOC_SAVED_TUNABLES";

/* Whether the colon-separated list `user` has an entry named `name`. */
static int has_entry(const char *user, const char *name) {
  size_t len = strlen(name);
  for (const char *p = user; p && *p;) {
    if (strncmp(p, name, len) == 0 && (p[len] == '=' || p[len] == ':' || p[len] == '\0'))
      return 1;
    p = strchr(p, ':');
    p = p ? p + 1 : NULL;
  }
  return 0;
}

int opsched_malloc_tunables(const char *user, char *out, size_t cap) {
  if (has_entry(user, TUNABLE))
    return 0;
  int n = user && *user ? snprintf(out, cap, "%s:%s=1", user, TUNABLE)
                        : snprintf(out, cap, "%s=1", TUNABLE);
  return n < 0 || (size_t)n >= cap ? -1 : n;
}

/* glibc 2.35 brought the tunable; older ones ignore it (the exec would be
 * wasted). */
static int glibc_has_tunable(void) {
#if defined(__GLIBC__)
  int major = 0, minor = 0;
  if (sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) != 2)
    return 0;
  return major > 2 || (major == 2 && minor >= 35);
#else
  return 0;
#endif
}

/* Transparent huge pages are not switched off ("never") for the system. */
static int thp_available(void) {
  FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f)
    return 0;
  char line[128] = {0};
  int ok = fgets(line, sizeof line, f) && !strstr(line, "[never]");
  fclose(f);
  return ok;
}

/* Valgrind replaces malloc through the preloads it gives every program it
 * runs (vgpreload_*.so); it does not follow an exec unless told to. */
static int under_valgrind(void) {
  const char *preload = getenv("LD_PRELOAD");
  return preload && strstr(preload, "vgpreload");
}

int opsched_malloc_env_prepare(void) {
  if (OWN_MALLOC || getenv(SAVED) || under_valgrind() || !glibc_has_tunable() ||
      !thp_available())
    return 0;
  const char *user = getenv("GLIBC_TUNABLES");
  size_t cap = (user ? strlen(user) : 0) + sizeof TUNABLE + 8;
  char *value = malloc(cap), *saved = malloc(cap + 2);
  int done = 0;
  if (value && saved && opsched_malloc_tunables(user, value, cap) > 0) {
    if (user)
      snprintf(saved, cap + 2, "=%s", user);
    else
      strcpy(saved, "-");
    done = setenv(SAVED, saved, 1) == 0 && setenv("GLIBC_TUNABLES", value, 1) == 0;
    if (!done)
      opsched_malloc_env_restore();
  }
  free(value);
  free(saved);
  return done;
}

int opsched_malloc_env_restore(void) {
  const char *saved = getenv(SAVED);
  if (!saved)
    return 0;
  if (saved[0] == '=')
    setenv("GLIBC_TUNABLES", saved + 1, 1);
  else
    unsetenv("GLIBC_TUNABLES");
  unsetenv(SAVED);
  return 1;
}

static int64_t regular_file_bytes(const char *path, int fd) {
  struct stat st;
  int ok = path ? stat(path, &st) == 0 : fstat(fd, &st) == 0;
  return ok && S_ISREG(st.st_mode) ? (int64_t)st.st_size : -1;
}

/* The options of mlir-opt that name a file in the next argument: the
 * output and plugins (a plugin is larger than many inputs). */
static int takes_value(const char *arg) {
  static const char *const names[] = {"o", "load-pass-plugin", "load-dialect-plugin"};
  const char *name = arg + (arg[1] == '-' ? 2 : 1);
  for (size_t k = 0; k < sizeof names / sizeof *names; k++)
    if (strcmp(name, names[k]) == 0)
      return 1;
  return 0;
}

int64_t opsched_malloc_env_input_bytes(int argc, char *const *argv) {
  int64_t most = -1;
  int named = 0, options = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options && strcmp(a, "--") == 0) {
      options = 0;
      continue;
    }
    if (options && a[0] == '-' && a[1] != '\0') {
      i += takes_value(a); /* its value is not an input */
      continue;
    }
    named = 1;
    int64_t bytes = strcmp(a, "-") == 0 ? regular_file_bytes(NULL, 0)
                                        : regular_file_bytes(a, -1);
    most = bytes > most ? bytes : most;
  }
  return named ? most : regular_file_bytes(NULL, 0);
}
