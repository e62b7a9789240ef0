// op-materialize-streams on unannotated or inconsistent input: an error at
// the op concerned, nothing rewritten.
// RUN: opsched-opt --op-materialize-streams -split-input-file -verify-diagnostics %s

// Scheduled on one stream (or not at all): no opsched.stream anywhere.
// expected-error @below {{no op of the body carries opsched.stream: run op-schedule with streams > 1 first}}
func.func @unscheduled(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  return %a : f32
}

// -----

// Streams in a nested block only (op-schedule planned the branch on two
// streams, the body of two ops on none): the message says so, rather than
// asking for the op-schedule run that was made.
// expected-error @below {{no op of the body carries opsched.stream, only ops of nested blocks do: op-materialize-streams runs the streams of the function's body only}}
func.func @nested_only(%c: i1, %x: f32) -> f32 {
  %r = scf.if %c -> f32 {
    %a = arith.addf %x, %x {opsched.id = 0 : i64, opsched.stream = 0 : i64} : f32
    %b = arith.mulf %x, %x {opsched.id = 1 : i64, opsched.stream = 1 : i64} : f32
    %s = arith.addf %a, %b {opsched.id = 2 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 1>} : f32
    scf.yield %s : f32
  } else {
    scf.yield %x : f32
  }
  return %r : f32
}

// -----

func.func @gap(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.id = 0 : i64, opsched.stream = 0 : i64} : f32
  // expected-error @below {{op without opsched.stream between scheduled ops}}
  %b = arith.mulf %a, %a : f32
  %c = arith.subf %b, %b {opsched.id = 1 : i64, opsched.stream = 1 : i64} : f32
  return %c : f32
}

// -----

func.func @unknown_wait(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.id = 0 : i64, opsched.stream = 0 : i64} : f32
  // expected-error @below {{waits on id 7, which is no earlier op of this block}}
  %b = arith.mulf %a, %a {opsched.id = 1 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 7>} : f32
  return %b : f32
}

// -----

func.func @later_wait(%x: f32) -> f32 {
  // expected-error @below {{waits on id 1, which is no earlier op of this block}}
  %a = arith.addf %x, %x {opsched.id = 0 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 1>} : f32
  %b = arith.mulf %a, %a {opsched.id = 1 : i64, opsched.stream = 1 : i64} : f32
  return %b : f32
}

// -----

func.func @malformed(%x: f32) -> f32 {
  // expected-error @below {{malformed opsched.stream / opsched.id}}
  %a = arith.addf %x, %x {opsched.stream = 0 : i64} : f32
  return %a : f32
}

// -----

func.func @malformed_waits(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.id = 0 : i64, opsched.stream = 0 : i64} : f32
  // expected-error @below {{malformed opsched.waits (want array<i64>)}}
  %b = arith.mulf %a, %a {opsched.id = 1 : i64, opsched.stream = 1 : i64, opsched.waits = 0 : i64} : f32
  return %b : f32
}

// -----

// expected-error @below {{op-materialize-streams needs a single-block function body}}
func.func @blocks(%x: f32, %c: i1) -> f32 {
  %a = arith.addf %x, %x {opsched.id = 0 : i64, opsched.stream = 0 : i64} : f32
  cf.cond_br %c, ^a, ^b
^a:
  return %a : f32
^b:
  return %x : f32
}
