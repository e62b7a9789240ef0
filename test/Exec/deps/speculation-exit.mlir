// A division by zero after a call that exits when the divisor is zero: the
// program prints, then exits with status 3. Hoisting the division above the
// call (its chain has the larger rank) traps with SIGFPE instead.
func.func private @exit(i32)

func.func @guard(%b: i32) {
  %c0 = arith.constant 0 : i32
  %z = arith.cmpi eq, %b, %c0 : i32
  scf.if %z {
    vector.print str "zero divisor: exit 3\n"
    %c3 = arith.constant 3 : i32
    func.call @exit(%c3) : (i32) -> ()
  }
  return
}

func.func @compute(%a: i32, %b: i32) {
  vector.print %a : i32
  func.call @guard(%b) {opsched.cost = 1} : (i32) -> ()
  %q = arith.divsi %a, %b {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  %s = arith.addi %r, %a {opsched.cost = 50} : i32
  vector.print %s : i32
  return
}

func.func @main() -> i32 {
  %status = arith.constant 0 : i32
  %a = arith.constant 42 : i32
  %b = arith.constant 7 : i32
  %z = arith.constant 0 : i32
  func.call @compute(%a, %b) : (i32, i32) -> ()
  func.call @compute(%a, %z) : (i32, i32) -> ()
  return %status : i32
}
