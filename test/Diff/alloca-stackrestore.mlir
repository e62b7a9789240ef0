// Issue 12 class 3 (allocation scopes), found by the differential tester:
// progen.py seed 3 under policy=xla-dfs streams=2, reduced by difftest.py.
// In the one-trip loop (a non-entry block once lowered, so its allocas are
// dynamic) %a71 is allocated after llvm.intr.stackrestore and must outlive
// it: @clobber then overwrites the stack below the restored pointer. Moved
// between stacksave and stackrestore (xla-dfs streams=2, cost-model=unit
// streams=4 did), the restore frees %a71 and the program prints -7682
// (@clobber's -7777 plus 95) instead of 333. Needs the deps fix (an
// allocation on the automatic allocation scope orders against stack
// save/restore).
// REQUIRES: native-build
// RUN: %difftest --program %s --config "policy=xla-dfs streams=2" \
// RUN:   --config "cost-model=unit streams=4" --config "policy=critical-path streams=1" \
// RUN:   --config "policy=min-memory streams=1" | FileCheck %s
// CHECK: reference: exit status 0, 1 lines of output
// CHECK-NEXT: ok {{.*}} policy=xla-dfs streams=2 (moved {{[1-9][0-9]*}})
// CHECK-NEXT: ok {{.*}} cost-model=unit streams=4 (moved {{[1-9][0-9]*}})
// CHECK-NEXT: ok {{.*}} policy=critical-path streams=1
// CHECK-NEXT: ok {{.*}} policy=min-memory streams=1
// CHECK-NEXT: difftest: 1 programs, 4 runs, 0 differ, 0 rejected, 0 broken
module {
  func.func private @printI64(i64)
  func.func private @pure1(%a: i64, %b: i64) -> i64 {
    %c7 = arith.constant 7 : i64
    %m = arith.maxsi %a, %b : i64
    %n = arith.minsi %a, %b : i64
    %p = arith.muli %m, %c7 : i64
    %q = arith.subi %p, %n : i64
    return %q : i64
  }
  func.func private @clobber() {
    %buf = memref.alloca() : memref<64xi64>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %v = arith.constant -7777 : i64
    scf.for %i = %c0 to %c64 step %c1 {
      memref.store %v, %buf[%i] : memref<64xi64>
    }
    return
  }
  func.func @main() -> i32 {
    %in1 = memref.alloc() : memref<8xi64>
    %k8 = arith.constant 17 : i64
    %i9 = arith.constant 3 : index
    memref.store %k8, %in1[%i9] : memref<8xi64>
    %k12 = arith.constant 3 : i64
    %i13 = arith.constant 5 : index
    memref.store %k12, %in1[%i13] : memref<8xi64>
    %k14 = arith.constant 14 : i64
    %i15 = arith.constant 6 : index
    memref.store %k14, %in1[%i15] : memref<8xi64>
    %i24 = arith.constant 3 : index
    %x25 = memref.load %in1[%i24] : memref<8xi64>
    %i28 = arith.constant 5 : index
    %x29 = memref.load %in1[%i28] : memref<8xi64>
    %i30 = arith.constant 6 : index
    %x31 = memref.load %in1[%i30] : memref<8xi64>
    %v39 = func.call @pure1(%x31, %x29) : (i64, i64) -> i64
    %v59 = arith.muli %x31, %x25 : i64
    %i62 = arith.constant 0 : index
    %i63 = arith.constant 1 : index
    %v64 = scf.for %it65 = %i62 to %i63 step %i63 iter_args(%acc66 = %v59) -> (i64) {
      %sp67 = llvm.intr.stacksave : !llvm.ptr
      %a68 = memref.alloca() : memref<8xi64>
      %i69 = arith.constant 1 : index
      memref.store %v39, %a68[%i69] : memref<8xi64>
      %v70 = memref.load %a68[%i69] : memref<8xi64>
      llvm.intr.stackrestore %sp67 : !llvm.ptr
      %a71 = memref.alloca() : memref<8xi64>
      %i72 = arith.constant 5 : index
      memref.store %acc66, %a71[%i72] : memref<8xi64>
      func.call @clobber() : () -> ()
      %v73 = memref.load %a71[%i72] : memref<8xi64>
      %v74 = arith.addi %v73, %v70 : i64
      scf.yield %v74 : i64
    }
    func.call @printI64(%v64) : (i64) -> ()
    %k374 = arith.constant 0 : i32
    return %k374 : i32
  }
}

