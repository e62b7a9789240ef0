/* lib/mlir/buffers.h - what bufferized code will allocate for one block: the
 * MLIR side of the memory model (internal to lib/mlir).
 *
 * Rules (docs/memory-model.md has worked examples):
 * - a static tensor result costs numel x element storage bytes (sub-byte
 *   elements take a byte each, complex<T> twice T, index 8);
 * - destination-passing ops write into their init's buffer when every
 *   other reader of the buffer's latest value precedes them in every order
 *   (an SSA path leads from each reader to the op); otherwise they allocate
 *   (the copy);
 * - a tensor.empty has one home buffer, allocated by its first home writer:
 *   walking the block backwards like one-shot bufferization's bottom-up
 *   analysis, a writer of the empty takes the home buffer when the values
 *   it starts there are all consumed before the next home writer in every
 *   order (that writer may read them only element-wise); other writers
 *   allocate;
 * - with program_order, "in every order" above becomes "in the block's
 *   order", as one-shot bufferization sees it, and order edges keep it so;
 * - reshape/cast/slice-like views alias their source (the source lives as
 *   long as any alias is used);
 * - function arguments and constants are resident (reported apart, not in
 *   the schedulable peak); values the terminator uses live until the end.
 */
#ifndef OPSCHED_MLIR_BUFFERS_H
#define OPSCHED_MLIR_BUFFERS_H

#include "mlir-c/IR.h"
#include "op_facts.h"
#include "ptrmap.h"
#include "opsched/memory.h"

#include <stdint.h>

typedef struct opsched_block_buffers {
  opsched_buffers *buffers; /* the core's model, NULL when the block has none */
  int32_t num_values;
  /* Per op result that is a buffer or a view of one, in op order: */
  int32_t *value_op;     /* op index, -1 for a block argument */
  int32_t *value_result; /* result number (argument number) */
  int32_t *value_buffer; /* buffer id */
  uint8_t *value_owns;   /* 1: this result owns (allocates) the buffer */
  int32_t num_buffers;
  int64_t *buffer_bytes; /* per buffer id */
  int32_t *buffer_node;  /* per buffer id: allocating op, -1 resident */
  uint8_t *op_dynamic;   /* per op: a result size was not static */
  uint8_t *op_overflow;  /* per op: a result size saturated */
  /* With program_order: dependencies from -> to (op indices, forward in
   * the block) the graph must add so the in-place writes stay valid. */
  int32_t num_order_edges;
  int32_t *order_from, *order_to;
} opsched_block_buffers;

/* Builds the model for the `n` ops of `block` (`ops` in original order, the
 * terminator excluded and passed apart, may be null). `program_order`:
 * decide in-place writes as one-shot bufferization does on this order
 * (a reader of an overwritten value only has to come first in the block)
 * and list the order edges that keep them valid; otherwise only where SSA
 * forces it in every order. Returns non-zero when out of memory. Never
 * emits diagnostics: the caller reports op_dynamic and op_overflow.
 * `facts` (nullable) has the values region ops capture (op_facts.h).
 * `index` (nullable: built here) maps each of `ops` to its position,
 * `result_index` (nullable: built here) each of their results to its op's
 * (opsched_block_results_init).
 * `results` and `operands`: the totals of the `n` ops' result and operand
 * counts, when the caller has them (one pass less over a large block);
 * negative: counted here. */
int opsched_block_buffers_build(opsched_block_buffers *bb, MlirBlock block,
                                MlirOperation *ops, int32_t n, MlirOperation terminator,
                                int program_order, opsched_op_facts *facts,
                                const opsched_ptrmap *index,
                                const opsched_ptrmap *result_index, int64_t results,
                                int64_t operands);

void opsched_block_buffers_release(opsched_block_buffers *bb);

#endif
