// A dynamic stack allocation before a stack save/restore pair, then a call
// that uses the stack: the alloca must stay before the save, or the restore
// frees it and the callee's frame overwrites what it holds.
func.func @clobber(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = memref.alloca(%n) : memref<?xi32>
  %v = arith.constant -1 : i32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %v, %big[%i] : memref<?xi32>
  }
  return
}

func.func @compute(%n: index, %x: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloca(%n) {opsched.cost = 5} : memref<?xi32>
  %sp = llvm.intr.stacksave {opsched.cost = 10} : !llvm.ptr
  llvm.intr.stackrestore %sp {opsched.cost = 1} : !llvm.ptr
  scf.for %i = %c0 to %n step %c1 {
    memref.store %x, %a[%i] : memref<?xi32>
  } {opsched.cost = 1}
  %c256 = arith.constant 256 : index
  func.call @clobber(%c256) {opsched.cost = 1} : (index) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xi32>
    vector.print %v : i32
  } {opsched.cost = 1}
  return
}

func.func @main() -> i32 {
  %status = arith.constant 0 : i32
  %n = arith.constant 4 : index
  %x = arith.constant 17 : i32
  func.call @compute(%n, %x) : (index, i32) -> ()
  return %status : i32
}
