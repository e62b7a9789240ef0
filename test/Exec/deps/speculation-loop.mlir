// A loop whose body calls a function that exits, then a division by a
// divisor the loop checks: the loop may not return, so the division stays
// after it (status 5, not SIGFPE).
func.func private @exit(i32)

func.func @check(%i: index, %b: i32) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : index
  %z = arith.cmpi eq, %b, %c0 : i32
  %last = arith.cmpi eq, %i, %c2 : index
  %both = arith.andi %z, %last : i1
  scf.if %both {
    vector.print str "checked: exit 5\n"
    %c5 = arith.constant 5 : i32
    func.call @exit(%c5) : (i32) -> ()
  }
  return
}

func.func @compute(%a: i32, %b: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    func.call @check(%i, %b) : (index, i32) -> ()
  } {opsched.cost = 1}
  %q = arith.divui %a, %b {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  vector.print %r : i32
  return
}

func.func @main() -> i32 {
  %status = arith.constant 0 : i32
  %a = arith.constant 99 : i32
  %b = arith.constant 4 : i32
  %z = arith.constant 0 : i32
  func.call @compute(%a, %b) : (i32, i32) -> ()
  func.call @compute(%a, %z) : (i32, i32) -> ()
  return %status : i32
}
