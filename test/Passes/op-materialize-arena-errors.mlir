// op-materialize-arena on unannotated or inconsistent input: an error at the
// op concerned, and the function is not rewritten.
// RUN: opsched-opt --op-materialize-arena -split-input-file -verify-diagnostics %s

// Bufferized but never scheduled: no slots.
func.func @unannotated() {
  // expected-error @below {{no buffer slots to materialize: run op-schedule (buffer-slots) on the bufferized function first}}
  %a = memref.alloc() : memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// expected-error @below {{allocations carry opsched.offset but the function has no opsched.arena_size}}
func.func @no_arena_size() {
  %a = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : memref<16xf32>
  %b = memref.alloc() {opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : memref<16xf32>
  return
}

// -----

func.func @outside() attributes {opsched.arena_size = 128 : i64, opsched.alignment = 64 : i64} {
  %a = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : memref<16xf32>
  // expected-error @below {{buffer at offset 128 of 64 bytes lies outside the arena (opsched.arena_size = 128)}}
  %b = memref.alloc() {opsched.offset = array<i64: 128>, opsched.size = array<i64: 64>} : memref<16xf32>
  return
}

// -----

func.func @misaligned() attributes {opsched.arena_size = 256 : i64, opsched.alignment = 64 : i64} {
  // expected-error @below {{opsched.offset 32 is not a multiple of opsched.alignment 64}}
  %a = memref.alloc() {opsched.offset = array<i64: 32>, opsched.size = array<i64: 64>} : memref<16xf32>
  return
}

// -----

func.func @too_small() attributes {opsched.arena_size = 256 : i64} {
  // expected-error @below {{the buffer needs 64 bytes but opsched.size gives 32}}
  %a = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 32>} : memref<16xf32>
  return
}

// -----

func.func @malformed() attributes {opsched.arena_size = 256 : i64} {
  // expected-error @below {{malformed opsched.offset / opsched.size}}
  %a = memref.alloc() {opsched.offset = 0 : i64, opsched.size = array<i64: 64>} : memref<16xf32>
  return
}

// -----

// expected-error @below {{opsched.alignment must be a power of two}}
func.func @bad_alignment() attributes {opsched.arena_size = 256 : i64, opsched.alignment = 48 : i64} {
  %a = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : memref<16xf32>
  return
}
