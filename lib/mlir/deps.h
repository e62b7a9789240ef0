/* lib/mlir/deps.h - the dependency rules of a block's graph (internal to
 * lib/mlir). docs/Passes.md, "Dependency rules", states them; in short,
 * between two ops of one block, in program order, there is an edge when:
 * - SSA: the later one uses (at any depth) a value the earlier one defines;
 * - effects, per resource and alias class (alias.h, effect_order.h): read
 *   after write, write after read or write between classes that may
 *   alias; an op with unknown effects orders against every effectful op;
 *   stack
 *   allocations read the automatic allocation scope, which stack
 *   save/restore (unknown effects) write;
 * - aliases across bufferization: an op touching a tensor that may share
 *   memory with a memref (bufferization.to_tensor / to_buffer and what is
 *   derived from them) reads (or, writing it in place, writes) the memref;
 * - speculation: an op that may trap (not speculatable) and an op that may
 *   not return or is observable keep their order (a write to a buffer
 *   value is neither: only a later read sees it).
 * The terminator (the block's last op, whatever it is) is not in the graph:
 * the caller keeps it last. */
#ifndef OPSCHED_MLIR_DEPS_H
#define OPSCHED_MLIR_DEPS_H

#include "mlir-c/IR.h"
#include "opsched/graph.h"
#include "op_facts.h"
#include "ptrmap.h"

#include <stdint.h>

/* Adds every edge among the `n` ops of a block (`ops` in program order,
 * `index` maps each op to its position, `results` (nullable: built here)
 * each result of those ops to its op's position, opsched_block_results).
 * `facts` (nullable: then made for this call) holds the summaries of the
 * function's region ops. Returns non-zero when out of memory. */
/* Maps each result of the `n` ops (`ops` in program order) to its op's
 * position: an operand's producer in the block found from the operand
 * alone, without touching the producer (on a large block a cache miss per
 * operand); a value not in the map is a block argument or defined outside
 * the ops. `counts` (nullable: asked here) holds each op's result count;
 * `index` (nullable), the ops' map, gives the address range (results lie
 * just before their op). Non-zero when out of memory (`results` is then
 * released). */
int opsched_block_results_init(opsched_ptrmap *results, const MlirOperation *ops, int32_t n,
                               const int32_t *counts, const opsched_ptrmap *index);

int opsched_deps_add_edges(opsched_graph *g, MlirOperation *ops, int32_t n,
                           const opsched_ptrmap *index, const opsched_ptrmap *results,
                           opsched_op_facts *facts);

/* 1 when `op` (or an op nested in it) may trap if run earlier: MLIR's
 * speculatability, plus integer division or remainder by a divisor that is
 * not a constant known safe, and tensor element access at an index not
 * known in bounds. */
int opsched_deps_may_trap(MlirOperation op);

/* 1 when `op` itself (not counting nested ops nor MLIR's speculatability)
 * may trap: integer division by a divisor not known safe, tensor element
 * access not known in bounds. */
int opsched_deps_op_may_trap_itself(MlirOperation op);

/* 0 when no op named `name` may trap itself (opsched_deps_op_may_trap_itself
 * is 0 for every op of that name): a test of the name alone. */
int opsched_deps_name_may_trap(MlirStringRef name);

#endif
