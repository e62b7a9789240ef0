// Issue 12 class 2 (bufferization boundaries), found by the differential
// tester: progen.py --only to_tensor --size 12 seed 50 under
// policy=min-memory streams=2, reduced by difftest.py. %t39 is a tensor
// over %m34 (bufferization.to_tensor): the linalg.add reading it reads
// %m34, so it must stay before memref.dealloc %m34. Moved after the dealloc
// (min-memory streams=2 and sethi-ullman did: freeing early lowers the
// peak), it reads freed heap and prints garbage instead of 2. Needs the
// deps fix (readers of a tensor made from a memref are readers of it).
// REQUIRES: native-build
// RUN: %difftest --program %s --config "policy=min-memory streams=2" \
// RUN:   --config "policy=sethi-ullman streams=1" --config "policy=critical-path streams=1" \
// RUN:   --config "cost-model=unit streams=4" | FileCheck %s
// CHECK: reference: exit status 0, 1 lines of output
// CHECK-NEXT: ok {{.*}} policy=min-memory streams=2 (moved {{[1-9][0-9]*}})
// CHECK-NEXT: ok {{.*}} policy=sethi-ullman streams=1 (moved {{[1-9][0-9]*}})
// CHECK-NEXT: ok {{.*}} policy=critical-path streams=1
// CHECK-NEXT: ok {{.*}} cost-model=unit streams=4
// CHECK-NEXT: difftest: 1 programs, 4 runs, 0 differ, 0 rejected, 0 broken
module {
  func.func private @printI64(i64)
  func.func @main() -> i32 {
    %in1 = memref.alloc() : memref<8xi64>
    %k2 = arith.constant 1 : i64
    %i3 = arith.constant 0 : index
    memref.store %k2, %in1[%i3] : memref<8xi64>
    %k4 = arith.constant -3 : i64
    %i5 = arith.constant 1 : index
    memref.store %k4, %in1[%i5] : memref<8xi64>
    %k6 = arith.constant 0 : i64
    %i7 = arith.constant 2 : index
    memref.store %k6, %in1[%i7] : memref<8xi64>
    %k8 = arith.constant -8 : i64
    %i9 = arith.constant 3 : index
    memref.store %k8, %in1[%i9] : memref<8xi64>
    %k10 = arith.constant 4 : i64
    %i11 = arith.constant 4 : index
    memref.store %k10, %in1[%i11] : memref<8xi64>
    %k12 = arith.constant 16 : i64
    %i13 = arith.constant 5 : index
    memref.store %k12, %in1[%i13] : memref<8xi64>
    %k14 = arith.constant -4 : i64
    %i15 = arith.constant 6 : index
    memref.store %k14, %in1[%i15] : memref<8xi64>
    %k16 = arith.constant 5 : i64
    %i17 = arith.constant 7 : index
    memref.store %k16, %in1[%i17] : memref<8xi64>
    %i18 = arith.constant 0 : index
    %x19 = memref.load %in1[%i18] : memref<8xi64>
    %i24 = arith.constant 3 : index
    %x25 = memref.load %in1[%i24] : memref<8xi64>
    %i26 = arith.constant 4 : index
    %x27 = memref.load %in1[%i26] : memref<8xi64>
    %i30 = arith.constant 6 : index
    %x31 = memref.load %in1[%i30] : memref<8xi64>
    %i32 = arith.constant 7 : index
    %x33 = memref.load %in1[%i32] : memref<8xi64>
    %m34 = memref.alloc() : memref<4xi64>
    %i35 = arith.constant 0 : index
    memref.store %x19, %m34[%i35] : memref<4xi64>
    %i36 = arith.constant 1 : index
    memref.store %x25, %m34[%i36] : memref<4xi64>
    %i37 = arith.constant 2 : index
    memref.store %x33, %m34[%i37] : memref<4xi64>
    %i38 = arith.constant 3 : index
    memref.store %x33, %m34[%i38] : memref<4xi64>
    %t39 = bufferization.to_tensor %m34 restrict : memref<4xi64> to tensor<4xi64>
    %t42 = tensor.empty() : tensor<4xi64>
    %t43 = linalg.add ins(%t39, %t39 : tensor<4xi64>, tensor<4xi64>) outs(%t42 : tensor<4xi64>) -> tensor<4xi64>
    %i44 = arith.constant 0 : index
    %v45 = tensor.extract %t43[%i44] : tensor<4xi64>
    memref.dealloc %m34 : memref<4xi64>
    %v46 = arith.maxsi %x31, %v45 : i64
    %v126 = arith.subi %x27, %v46 : i64
    func.call @printI64(%v126) : (i64) -> ()
    %k136 = arith.constant 0 : i32
    return %k136 : i32
  }
}

