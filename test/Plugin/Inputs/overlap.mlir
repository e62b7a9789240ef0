func.func @overlap(%x: f32) -> f32 attributes {opsched.streams = 1 : i64} {
  %a = arith.addf %x, %x {opsched.start = 0 : i64, opsched.end = 5 : i64} : f32
  %b = arith.mulf %a, %x {opsched.start = 2 : i64, opsched.end = 6 : i64} : f32
  return %b : f32
}
