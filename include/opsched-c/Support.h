/*===- opsched-c/Support.h - opsched C API: common definitions ------*- C -*-===
 *
 * Part of the opsched C API (docs/api.md). Follows the MLIR C API
 * conventions: strings are MlirStringRef (pointer + length, not necessarily
 * NUL-terminated), results are MlirLogicalResult, errors are delivered to an
 * MlirStringCallback, and a function named Create hands the caller an object
 * it owns.
 *
 *===----------------------------------------------------------------------===*/
#ifndef OPSCHED_C_SUPPORT_H
#define OPSCHED_C_SUPPORT_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define OPSCHED_CAPI_EXPORTED
#else
#define OPSCHED_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

/* The opsched version, e.g. "0.1.0" (OPSCHED_VERSION_STRING of the library,
 * which may differ from the header's opsched/Version.h if they were not
 * installed together). Static storage, NUL-terminated. */
OPSCHED_CAPI_EXPORTED MlirStringRef opschedGetVersion(void);

/* The MLIR version the library was built against, e.g. "22.1.8".
 * Static storage, NUL-terminated. */
OPSCHED_CAPI_EXPORTED MlirStringRef opschedGetMlirVersion(void);

#ifdef __cplusplus
}
#endif

#endif /* OPSCHED_C_SUPPORT_H */
