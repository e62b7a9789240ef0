/* tools/opsched-opt/reexec.h - opsched-opt's second start on large inputs.
 *
 * On an input of 2 MiB or more, opsched-opt executes itself again (same
 * arguments, stdin untouched) with glibc's malloc in transparent huge pages
 * (lib/core/malloc_env.h): page faults, 12-14 us each on the development
 * machine, fall from about 76,000 to 8,000 on a 100k-op run. The output is
 * the same. Nothing happens where the tunable would not take effect, or when
 * the user's GLIBC_TUNABLES names glibc.malloc.hugetlb (=0 keeps 4 KiB
 * pages). */
#ifndef OPSCHED_OPT_REEXEC_H
#define OPSCHED_OPT_REEXEC_H

#ifdef __cplusplus
extern "C" {
#endif

/* First thing in main(): returns at once in the new image, when nothing is
 * to be done, or when the exec fails (the environment then as it was);
 * otherwise does not return. */
void opsched_opt_reexec_for_huge_pages(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
