/*===- opsched-c/OpSched.h - the whole opsched C API ----------------*- C -*-===
 *
 * Includes every opsched C API header. Link with OpSched::capi
 * (libopsched_capi.so), which also carries the MLIR C API functions a C
 * program needs (IR, parsing, pass managers, dialect and pass registration).
 *
 *===----------------------------------------------------------------------===*/
#ifndef OPSCHED_C_OPSCHED_H
#define OPSCHED_C_OPSCHED_H

#include "opsched-c/Passes.h"
#include "opsched-c/Schedule.h"
#include "opsched-c/Support.h"

#endif /* OPSCHED_C_OPSCHED_H */
