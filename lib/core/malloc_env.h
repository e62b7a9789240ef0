/* lib/core/malloc_env.h - glibc's malloc in huge pages, for a new image of
 * the process (internal).
 *
 * A 4 KiB page fault costs 12-14 us on the development machine (a virtual
 * machine), and a 100k-op run of opsched-opt takes about 76,000 of them,
 * most in memory MLIR allocates through malloc; with glibc's
 * `glibc.malloc.hugetlb=1` tunable (glibc 2.35 and later: malloc asks for
 * transparent huge pages on its heap and mappings) about 8,000, both starts
 * counted. glibc reads GLIBC_TUNABLES once, when the process starts, so
 * only a new image of the process gets it: opsched-opt executes itself
 * again on large inputs, and the plugin adds the tunable to the
 * re-execution it does for its flags (and does one for it alone on large
 * inputs of the --pass-pipeline form). The
 * user's value is saved and put back in the new image, so that tools it
 * starts see the user's environment. A GLIBC_TUNABLES of the user's that
 * names glibc.malloc.hugetlb (=0: keep 4 KiB pages) is left as it is. */
#ifndef OPSCHED_CORE_MALLOC_ENV_H
#define OPSCHED_CORE_MALLOC_ENV_H

#include <stddef.h>
#include <stdint.h>

/* The GLIBC_TUNABLES value that adds glibc.malloc.hugetlb=1 to the user's
 * `user` (NULL or empty: none), written to out[cap]: returns its length,
 * 0 when `user` already names glibc.malloc.hugetlb, -1 when it does not
 * fit. */
int opsched_malloc_tunables(const char *user, char *out, size_t cap);

/* Whether a new image of this process would get malloc in huge pages, and
 * if so sets GLIBC_TUNABLES for it (the user's value saved in a marker
 * variable) and returns 1. 0, changing nothing: glibc older than 2.35,
 * transparent huge pages "never", under valgrind or AddressSanitizer (whose
 * malloc is not glibc's), the user's GLIBC_TUNABLES names the tunable, or
 * this image was itself started by such an execution. */
int opsched_malloc_env_prepare(void);

/* The user's GLIBC_TUNABLES back and the marker removed: in the new image,
 * before anything else reads the environment, or after a failed exec.
 * Returns 1 when the marker was there (in a new image: it was started with
 * the tunable), else 0. */
int opsched_malloc_env_restore(void);

/* From this input size on (about 20k ops), the faults the tunable saves
 * (about 7,000 on a 0.9 MB input, 20,000 on 2.8 MB, 70,000 on 9 MB; 12-14 us
 * each on the development machine) outweigh a second start of the process
 * (about 0.1 s: libMLIR is loaded again). */
enum { OPSCHED_MALLOC_ENV_MIN_INPUT = 2 << 20 };

/* The input of an mlir-opt command line argv[0, argc): the size of the
 * largest regular file among the positional arguments (not the value after
 * -o, --load-pass-plugin or --load-dialect-plugin), or of stdin when none
 * is named and stdin is a file; -1 when unknown (a pipe). A wrong guess
 * costs time only: the same program runs either way. */
int64_t opsched_malloc_env_input_bytes(int argc, char *const *argv);

#endif
