func.func @bad(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  %b = arith.mulf %a, %a {opsched.cost = -3} : f32
  return %b : f32
}
