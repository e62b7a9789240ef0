// Issue 12 class 1 (speculation), found by the differential tester:
// progen.py seed 2 under policy=inductor-bfs streams=1, reduced by
// difftest.py (then the one uninitialised load given a stored value).
// @guard exits with status 17 when its argument is zero, and it is: the
// division after it must stay after it. Hoisted above the call (as the
// scheduler of main did, and cost-model=unit streams=2 too), the program
// dies of SIGFPE (status -8) instead of printing 17 and exiting with 17.
// Needs the deps fix (a division that may trap stays after an op that may
// not return).
// REQUIRES: native-build
// RUN: %difftest --program %s --config "policy=inductor-bfs streams=1" \
// RUN:   --config "cost-model=unit streams=2" --config "policy=critical-path streams=1" \
// RUN:   --config "policy=min-memory streams=4" | FileCheck %s
// CHECK: reference: exit status 17, 3 lines of output
// CHECK-NEXT: ok {{.*}} policy=inductor-bfs streams=1 (moved {{[1-9][0-9]*}})
// CHECK-NEXT: ok {{.*}} cost-model=unit streams=2 (moved {{[1-9][0-9]*}})
// CHECK-NEXT: ok {{.*}} policy=critical-path streams=1
// CHECK-NEXT: ok {{.*}} policy=min-memory streams=4
// CHECK-NEXT: difftest: 1 programs, 4 runs, 0 differ, 0 rejected, 0 broken
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @exit(i32)
  func.func private @guard(%x: i64, %code: i64) {
    %z = arith.constant 0 : i64
    %c = arith.cmpi eq, %x, %z : i64
    scf.if %c {
      func.call @printI64(%code) : (i64) -> ()
      func.call @printNewline() : () -> ()
      %s361 = arith.trunci %code : i64 to i32
      func.call @exit(%s361) : (i32) -> ()
    }
    return
  }
  func.func @main() -> i32 {
    %m65 = memref.alloc() : memref<8xi64>
    %i66 = arith.constant 2 : index
    %k66 = arith.constant 7 : i64
    memref.store %k66, %m65[%i66] : memref<8xi64>
    %v67 = memref.load %m65[%i66] : memref<8xi64>
    %k84 = arith.constant 0 : i64
    %k85 = arith.constant 2 : i64
    %k86 = arith.constant 1 : i64
    %v87:2 = scf.while (%w88 = %k84, %w89 = %v67) : (i64, i64) -> (i64, i64) {
      %c90 = arith.cmpi slt, %w88, %k85 : i64
      scf.condition(%c90) %w88, %w89 : i64, i64
    } do {
    ^bb0(%w91: i64, %w92: i64):
      %k93 = arith.constant 5 : i64
      %v94 = arith.muli %w91, %k93 : i64
      %v95 = arith.addi %w92, %v94 : i64
      %v96 = arith.xori %w92, %k93 : i64
      %v97 = arith.addi %v95, %v96 : i64
      %v98 = arith.addi %w91, %k86 : i64
      scf.yield %v98, %v97 : i64, i64
    }
    func.call @printNewline() : () -> ()
    func.call @printNewline() : () -> ()
    %v359 = arith.subi %v87#1, %v87#1 : i64
    %k360 = arith.constant 17 : i64
    func.call @guard(%v359, %k360) : (i64, i64) -> ()
    %q363 = arith.divsi %v87#1, %v359 : i64
    func.call @printI64(%q363) : (i64) -> ()
    %k369 = arith.constant 0 : i32
    return %k369 : i32
  }
}

