// The seed's demo graph: a->b, a->c, b->d, c->d, d->e, d->f. Ops are named
// by their locations, which the schedule table prints.
func.func @seed(%x: f32) -> (f32, f32) {
  %a = arith.addf %x, %x : f32 loc("a")
  %b = arith.mulf %a, %a : f32 loc("b")
  %c = arith.subf %a, %a : f32 loc("c")
  %d = arith.addf %b, %c : f32 loc("d")
  %e = arith.mulf %d, %d : f32 loc("e")
  %f = arith.subf %d, %d : f32 loc("f")
  return %e, %f : f32, f32
}
