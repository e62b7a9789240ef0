/* lib/mlir/op_facts.h - what the dependency rules ask of an op and all it
 * holds, summarized once per function (internal to lib/mlir).
 *
 * A region-holding op is asked, at its own block's level, for the memory
 * effects, speculatability, termination and captured values of its whole
 * subtree. Walking the subtree for each question costs O(depth x ops) on
 * deep nests; here each region op's summary is built once, bottom-up, from
 * its own facts and its nested ops' summaries (docs/design.md, "Per-op
 * summaries"), and kept for the function's run (or until
 * opsched_op_facts_release_flat frees those no later block asks for). The answers are exactly
 * those of the walking queries they replace (queries.h, deps.h): same
 * effects in the same order, same flags.
 *
 * Valid while the function's IR does not change: plans are built before
 * any attribute is written or op moved. */
#ifndef OPSCHED_MLIR_OP_FACTS_H
#define OPSCHED_MLIR_OP_FACTS_H

#include "mlir-c/IR.h"
#include "queries.h"

#include <stddef.h>
#include <stdint.h>

typedef struct opsched_op_facts opsched_op_facts;

/* An empty cache; NULL when out of memory. */
opsched_op_facts *opsched_op_facts_new(void);
void opsched_op_facts_free(opsched_op_facts *f);

/* Frees the region ops' summaries when every one made so far is of an op
 * at a planned block's own level (none below: the blocks nested in those
 * ops hold no region op, and no later block asks for one of them again, or
 * asks for it once, rebuilt from its leaves). A large flat block's summaries
 * are its largest cache: freed before its schedule and arena. `f`
 * nullable. */
void opsched_op_facts_release_flat(opsched_op_facts *f);

/* As opsched_mlir_op_value_effects(op, out, cap). Returns -2 when out of
 * memory. */
int64_t opsched_op_facts_value_effects(opsched_op_facts *f, MlirOperation op,
                                       opsched_value_effect *out, int64_t cap);

/* As opsched_deps_may_trap(op) and opsched_mlir_op_may_not_return(op); 1
 * (the safe answer) when out of memory. */
int opsched_op_facts_may_trap(opsched_op_facts *f, MlirOperation op);
int opsched_op_facts_may_not_return(opsched_op_facts *f, MlirOperation op);

/* The values ops nested in `op` (at any depth) use that are defined
 * outside `op`, each once, in no promised order; `*count` = 0 for an op
 * without regions. `*bufferization` = 1 when `op` or an op nested in it is
 * a bufferization.to_tensor or to_buffer. Returns NULL with *count = -1
 * when out of memory. */
const MlirValue *opsched_op_facts_captured(opsched_op_facts *f, MlirOperation op,
                                           int64_t *count, int *bufferization);

/* Memoized answer of a per-function question: `*known` says whether
 * `key` was asked before, and then `*value` is the answer. */
int opsched_op_facts_function_flag(opsched_op_facts *f, MlirOperation key, int *value);
void opsched_op_facts_set_function_flag(opsched_op_facts *f, MlirOperation key, int value);

/* As opsched_mlir_op_dps_inits(op, first), asked of MLIR only for
 * destination-passing op names (`f` nullable). */
int64_t opsched_op_facts_dps_inits(opsched_op_facts *f, MlirOperation op, int64_t *first);

/* The function's memo of op work (op_work.h), for a block of `ops` ops: a
 * memo too small for it is replaced by a larger one (it only caches
 * answers). NULL when `f` is NULL or out of memory. */
typedef struct opsched_work_memo opsched_work_memo;
opsched_work_memo *opsched_op_facts_work_memo(opsched_op_facts *f, size_t ops);

#endif
