// A second op-schedule on its own output writes the same IR, except
// opsched.original_peak_memory: the peak of the order the run was given,
// which on the second run is the first run's schedule (docs/Passes.md,
// "Idempotence").
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule %opsched_src/examples/models/inception_block.mlir -o %t.1.mlir
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule %t.1.mlir -o %t.2.mlir
// RUN: sed -e 's/opsched.original_peak_memory = [0-9]* : i64, //' %t.1.mlir > %t.1.cmp
// RUN: sed -e 's/opsched.original_peak_memory = [0-9]* : i64, //' %t.2.mlir > %t.2.cmp
// RUN: diff %t.1.cmp %t.2.cmp
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='streams=4' %opsched_src/examples/models/inception_block.mlir -o %t.3.mlir
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='streams=4' %t.3.mlir -o %t.4.mlir
// RUN: sed -e 's/opsched.original_peak_memory = [0-9]* : i64, //' %t.3.mlir > %t.3.cmp
// RUN: sed -e 's/opsched.original_peak_memory = [0-9]* : i64, //' %t.4.mlir > %t.4.cmp
// RUN: diff %t.3.cmp %t.4.cmp
// The seed demo has no buffers: byte-identical.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='cost-model=unit streams=2' %opsched_src/examples/models/seed_demo.mlir -o %t.5.mlir
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='cost-model=unit streams=2' %t.5.mlir -o %t.6.mlir
// RUN: diff %t.5.mlir %t.6.mlir
