#map = affine_map<(d0) -> (d0)>
module {
  func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) {
    %t = async.execute {
      linalg.copy {opsched.stream = 0 : i64} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
      async.yield
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) attrs = {opsched.stream = 1 : i64} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    async.await %t : !async.token
    return
  }
}
