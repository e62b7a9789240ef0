/* execv is POSIX. */
#define _DEFAULT_SOURCE
#include "reexec.h"

#include "../../lib/core/malloc_env.h"

#include <stdio.h>
#include <unistd.h>

void opsched_opt_reexec_for_huge_pages(int argc, char **argv) {
  if (opsched_malloc_env_restore())
    return; /* this is the new image */
  if (opsched_malloc_env_input_bytes(argc, argv) < OPSCHED_MALLOC_ENV_MIN_INPUT ||
      !opsched_malloc_env_prepare())
    return;
  fflush(NULL);
  execv("/proc/self/exe", argv);
  opsched_malloc_env_restore(); /* the exec failed: run as we are */
}
