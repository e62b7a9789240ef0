/* fstat, stat and execv are POSIX. */
#define _DEFAULT_SOURCE
#include "reexec.h"

#include "../../lib/core/malloc_env.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* From this input size on, the faults the tunable saves (about 7,000 on a
 * 0.9 MB input, 20,000 on 2.8 MB, 70,000 on 9 MB; 12-14 us each on the
 * development machine) outweigh a second start of the process (about
 * 0.1 s: loading libMLIR again). */
enum { REEXEC_MIN_BYTES = 2 << 20 };

static int64_t regular_file_bytes(const char *path, int fd) {
  struct stat st;
  int ok = path ? stat(path, &st) == 0 : fstat(fd, &st) == 0;
  return ok && S_ISREG(st.st_mode) ? (int64_t)st.st_size : -1;
}

/* The largest regular file among the positional arguments (mlir-opt's
 * input), or stdin's size when none is named and stdin is a file. A wrong
 * guess costs time only: the same program runs either way. */
static int64_t input_bytes(int argc, char **argv) {
  int64_t most = -1;
  int named = 0, options = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options && strcmp(a, "--") == 0) {
      options = 0;
      continue;
    }
    if (options && a[0] == '-' && a[1] != '\0') {
      if (strcmp(a, "-o") == 0 || strcmp(a, "--o") == 0)
        i++; /* the output file's name */
      continue;
    }
    named = 1;
    int64_t bytes = strcmp(a, "-") == 0 ? regular_file_bytes(NULL, 0)
                                        : regular_file_bytes(a, -1);
    most = bytes > most ? bytes : most;
  }
  return named ? most : regular_file_bytes(NULL, 0);
}

void opsched_opt_reexec_for_huge_pages(int argc, char **argv) {
  if (opsched_malloc_env_restore())
    return; /* this is the new image */
  if (input_bytes(argc, argv) < REEXEC_MIN_BYTES || !opsched_malloc_env_prepare())
    return;
  fflush(NULL);
  execv("/proc/self/exe", argv);
  opsched_malloc_env_restore(); /* the exec failed: run as we are */
}
