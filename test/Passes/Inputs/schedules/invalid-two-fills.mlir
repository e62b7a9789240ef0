// Two fills of one buffer at once.
func.func @f(%m: memref<4xf32>, %a: f32, %b: f32) attributes {opsched.streams = 2 : i64} {
  linalg.fill {opsched.start = 0, opsched.end = 2, opsched.stream = 0, opsched.id = 0} ins(%a : f32) outs(%m : memref<4xf32>)
  linalg.fill {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 1} ins(%b : f32) outs(%m : memref<4xf32>)
  return
}
