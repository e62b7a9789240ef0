// op-buffer-slots reads the schedule the IR carries; a placement or waits
// that do not form a schedule are errors at the block's first op, a stream
// id out of range at its op.
// RUN: opsched-opt --op-buffer-slots -split-input-file -verify-diagnostics %s

// A dependency that starts before its producer ends.
func.func @placement(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{opsched: the block's opsched.start/end/stream attributes are not a valid schedule}}
  %a = math.exp %x {opsched.start = 0 : i64, opsched.end = 4 : i64} : tensor<16xf32>
  %b = math.sqrt %a {opsched.start = 2 : i64, opsched.end = 3 : i64} : tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

// A wait on an id no op of the block carries.
func.func @unknown_id(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  // expected-error @+1 {{opsched: the block's opsched.waits do not follow its schedule}}
  %a = math.exp %x {opsched.id = 0 : i64, opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 0 : i64} : tensor<16xf32>
  %b = math.sqrt %x {opsched.id = 1 : i64, opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 7>} : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// -----

// A wait on an op that is still running when the waiting op starts: the
// placement's times cannot both hold.
func.func @against_time(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  // expected-error @+1 {{opsched: the block's opsched.waits do not follow its schedule}}
  %a = math.exp %x {opsched.id = 0 : i64, opsched.start = 0 : i64, opsched.end = 4 : i64, opsched.stream = 0 : i64} : tensor<16xf32>
  %b = math.sqrt %x {opsched.id = 1 : i64, opsched.start = 1 : i64, opsched.end = 2 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 0>} : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// -----

// A stream id past the largest a placement may name.
func.func @stream_id_range(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 0 : i64} : tensor<16xf32>
  // expected-error @+1 {{opsched: opsched.stream must be an integer from 0 to 999999}}
  %b = math.sqrt %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 1000000 : i64} : tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

// A negative stream id.
func.func @stream_id_negative(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{opsched: opsched.stream must be an integer from 0 to 999999}}
  %a = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = -1 : i64} : tensor<16xf32>
  %b = math.sqrt %a {opsched.start = 1 : i64, opsched.end = 2 : i64, opsched.stream = 0 : i64} : tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

// 257 streams, one more than a schedule opens (the clocks behind the arena
// grow with ops x streams): an error, where any 256 ids are accepted.
func.func @too_many_streams(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{opsched: the block's opsched.stream attributes name 257 streams; a schedule has at most 256}}
  %v0 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 0 : i64} : tensor<16xf32>
  %v1 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 1000 : i64} : tensor<16xf32>
  %v2 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 2000 : i64} : tensor<16xf32>
  %v3 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 3000 : i64} : tensor<16xf32>
  %v4 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 4000 : i64} : tensor<16xf32>
  %v5 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 5000 : i64} : tensor<16xf32>
  %v6 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 6000 : i64} : tensor<16xf32>
  %v7 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 7000 : i64} : tensor<16xf32>
  %v8 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 8000 : i64} : tensor<16xf32>
  %v9 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 9000 : i64} : tensor<16xf32>
  %v10 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 10000 : i64} : tensor<16xf32>
  %v11 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 11000 : i64} : tensor<16xf32>
  %v12 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 12000 : i64} : tensor<16xf32>
  %v13 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 13000 : i64} : tensor<16xf32>
  %v14 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 14000 : i64} : tensor<16xf32>
  %v15 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 15000 : i64} : tensor<16xf32>
  %v16 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 16000 : i64} : tensor<16xf32>
  %v17 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 17000 : i64} : tensor<16xf32>
  %v18 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 18000 : i64} : tensor<16xf32>
  %v19 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 19000 : i64} : tensor<16xf32>
  %v20 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 20000 : i64} : tensor<16xf32>
  %v21 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 21000 : i64} : tensor<16xf32>
  %v22 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 22000 : i64} : tensor<16xf32>
  %v23 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 23000 : i64} : tensor<16xf32>
  %v24 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 24000 : i64} : tensor<16xf32>
  %v25 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 25000 : i64} : tensor<16xf32>
  %v26 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 26000 : i64} : tensor<16xf32>
  %v27 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 27000 : i64} : tensor<16xf32>
  %v28 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 28000 : i64} : tensor<16xf32>
  %v29 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 29000 : i64} : tensor<16xf32>
  %v30 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 30000 : i64} : tensor<16xf32>
  %v31 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 31000 : i64} : tensor<16xf32>
  %v32 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 32000 : i64} : tensor<16xf32>
  %v33 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 33000 : i64} : tensor<16xf32>
  %v34 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 34000 : i64} : tensor<16xf32>
  %v35 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 35000 : i64} : tensor<16xf32>
  %v36 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 36000 : i64} : tensor<16xf32>
  %v37 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 37000 : i64} : tensor<16xf32>
  %v38 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 38000 : i64} : tensor<16xf32>
  %v39 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 39000 : i64} : tensor<16xf32>
  %v40 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 40000 : i64} : tensor<16xf32>
  %v41 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 41000 : i64} : tensor<16xf32>
  %v42 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 42000 : i64} : tensor<16xf32>
  %v43 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 43000 : i64} : tensor<16xf32>
  %v44 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 44000 : i64} : tensor<16xf32>
  %v45 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 45000 : i64} : tensor<16xf32>
  %v46 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 46000 : i64} : tensor<16xf32>
  %v47 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 47000 : i64} : tensor<16xf32>
  %v48 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 48000 : i64} : tensor<16xf32>
  %v49 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 49000 : i64} : tensor<16xf32>
  %v50 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 50000 : i64} : tensor<16xf32>
  %v51 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 51000 : i64} : tensor<16xf32>
  %v52 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 52000 : i64} : tensor<16xf32>
  %v53 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 53000 : i64} : tensor<16xf32>
  %v54 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 54000 : i64} : tensor<16xf32>
  %v55 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 55000 : i64} : tensor<16xf32>
  %v56 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 56000 : i64} : tensor<16xf32>
  %v57 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 57000 : i64} : tensor<16xf32>
  %v58 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 58000 : i64} : tensor<16xf32>
  %v59 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 59000 : i64} : tensor<16xf32>
  %v60 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 60000 : i64} : tensor<16xf32>
  %v61 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 61000 : i64} : tensor<16xf32>
  %v62 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 62000 : i64} : tensor<16xf32>
  %v63 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 63000 : i64} : tensor<16xf32>
  %v64 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 64000 : i64} : tensor<16xf32>
  %v65 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 65000 : i64} : tensor<16xf32>
  %v66 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 66000 : i64} : tensor<16xf32>
  %v67 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 67000 : i64} : tensor<16xf32>
  %v68 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 68000 : i64} : tensor<16xf32>
  %v69 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 69000 : i64} : tensor<16xf32>
  %v70 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 70000 : i64} : tensor<16xf32>
  %v71 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 71000 : i64} : tensor<16xf32>
  %v72 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 72000 : i64} : tensor<16xf32>
  %v73 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 73000 : i64} : tensor<16xf32>
  %v74 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 74000 : i64} : tensor<16xf32>
  %v75 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 75000 : i64} : tensor<16xf32>
  %v76 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 76000 : i64} : tensor<16xf32>
  %v77 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 77000 : i64} : tensor<16xf32>
  %v78 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 78000 : i64} : tensor<16xf32>
  %v79 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 79000 : i64} : tensor<16xf32>
  %v80 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 80000 : i64} : tensor<16xf32>
  %v81 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 81000 : i64} : tensor<16xf32>
  %v82 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 82000 : i64} : tensor<16xf32>
  %v83 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 83000 : i64} : tensor<16xf32>
  %v84 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 84000 : i64} : tensor<16xf32>
  %v85 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 85000 : i64} : tensor<16xf32>
  %v86 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 86000 : i64} : tensor<16xf32>
  %v87 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 87000 : i64} : tensor<16xf32>
  %v88 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 88000 : i64} : tensor<16xf32>
  %v89 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 89000 : i64} : tensor<16xf32>
  %v90 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 90000 : i64} : tensor<16xf32>
  %v91 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 91000 : i64} : tensor<16xf32>
  %v92 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 92000 : i64} : tensor<16xf32>
  %v93 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 93000 : i64} : tensor<16xf32>
  %v94 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 94000 : i64} : tensor<16xf32>
  %v95 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 95000 : i64} : tensor<16xf32>
  %v96 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 96000 : i64} : tensor<16xf32>
  %v97 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 97000 : i64} : tensor<16xf32>
  %v98 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 98000 : i64} : tensor<16xf32>
  %v99 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 99000 : i64} : tensor<16xf32>
  %v100 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 100000 : i64} : tensor<16xf32>
  %v101 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 101000 : i64} : tensor<16xf32>
  %v102 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 102000 : i64} : tensor<16xf32>
  %v103 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 103000 : i64} : tensor<16xf32>
  %v104 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 104000 : i64} : tensor<16xf32>
  %v105 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 105000 : i64} : tensor<16xf32>
  %v106 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 106000 : i64} : tensor<16xf32>
  %v107 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 107000 : i64} : tensor<16xf32>
  %v108 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 108000 : i64} : tensor<16xf32>
  %v109 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 109000 : i64} : tensor<16xf32>
  %v110 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 110000 : i64} : tensor<16xf32>
  %v111 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 111000 : i64} : tensor<16xf32>
  %v112 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 112000 : i64} : tensor<16xf32>
  %v113 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 113000 : i64} : tensor<16xf32>
  %v114 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 114000 : i64} : tensor<16xf32>
  %v115 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 115000 : i64} : tensor<16xf32>
  %v116 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 116000 : i64} : tensor<16xf32>
  %v117 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 117000 : i64} : tensor<16xf32>
  %v118 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 118000 : i64} : tensor<16xf32>
  %v119 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 119000 : i64} : tensor<16xf32>
  %v120 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 120000 : i64} : tensor<16xf32>
  %v121 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 121000 : i64} : tensor<16xf32>
  %v122 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 122000 : i64} : tensor<16xf32>
  %v123 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 123000 : i64} : tensor<16xf32>
  %v124 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 124000 : i64} : tensor<16xf32>
  %v125 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 125000 : i64} : tensor<16xf32>
  %v126 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 126000 : i64} : tensor<16xf32>
  %v127 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 127000 : i64} : tensor<16xf32>
  %v128 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 128000 : i64} : tensor<16xf32>
  %v129 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 129000 : i64} : tensor<16xf32>
  %v130 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 130000 : i64} : tensor<16xf32>
  %v131 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 131000 : i64} : tensor<16xf32>
  %v132 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 132000 : i64} : tensor<16xf32>
  %v133 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 133000 : i64} : tensor<16xf32>
  %v134 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 134000 : i64} : tensor<16xf32>
  %v135 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 135000 : i64} : tensor<16xf32>
  %v136 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 136000 : i64} : tensor<16xf32>
  %v137 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 137000 : i64} : tensor<16xf32>
  %v138 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 138000 : i64} : tensor<16xf32>
  %v139 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 139000 : i64} : tensor<16xf32>
  %v140 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 140000 : i64} : tensor<16xf32>
  %v141 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 141000 : i64} : tensor<16xf32>
  %v142 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 142000 : i64} : tensor<16xf32>
  %v143 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 143000 : i64} : tensor<16xf32>
  %v144 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 144000 : i64} : tensor<16xf32>
  %v145 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 145000 : i64} : tensor<16xf32>
  %v146 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 146000 : i64} : tensor<16xf32>
  %v147 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 147000 : i64} : tensor<16xf32>
  %v148 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 148000 : i64} : tensor<16xf32>
  %v149 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 149000 : i64} : tensor<16xf32>
  %v150 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 150000 : i64} : tensor<16xf32>
  %v151 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 151000 : i64} : tensor<16xf32>
  %v152 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 152000 : i64} : tensor<16xf32>
  %v153 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 153000 : i64} : tensor<16xf32>
  %v154 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 154000 : i64} : tensor<16xf32>
  %v155 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 155000 : i64} : tensor<16xf32>
  %v156 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 156000 : i64} : tensor<16xf32>
  %v157 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 157000 : i64} : tensor<16xf32>
  %v158 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 158000 : i64} : tensor<16xf32>
  %v159 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 159000 : i64} : tensor<16xf32>
  %v160 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 160000 : i64} : tensor<16xf32>
  %v161 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 161000 : i64} : tensor<16xf32>
  %v162 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 162000 : i64} : tensor<16xf32>
  %v163 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 163000 : i64} : tensor<16xf32>
  %v164 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 164000 : i64} : tensor<16xf32>
  %v165 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 165000 : i64} : tensor<16xf32>
  %v166 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 166000 : i64} : tensor<16xf32>
  %v167 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 167000 : i64} : tensor<16xf32>
  %v168 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 168000 : i64} : tensor<16xf32>
  %v169 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 169000 : i64} : tensor<16xf32>
  %v170 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 170000 : i64} : tensor<16xf32>
  %v171 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 171000 : i64} : tensor<16xf32>
  %v172 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 172000 : i64} : tensor<16xf32>
  %v173 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 173000 : i64} : tensor<16xf32>
  %v174 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 174000 : i64} : tensor<16xf32>
  %v175 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 175000 : i64} : tensor<16xf32>
  %v176 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 176000 : i64} : tensor<16xf32>
  %v177 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 177000 : i64} : tensor<16xf32>
  %v178 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 178000 : i64} : tensor<16xf32>
  %v179 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 179000 : i64} : tensor<16xf32>
  %v180 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 180000 : i64} : tensor<16xf32>
  %v181 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 181000 : i64} : tensor<16xf32>
  %v182 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 182000 : i64} : tensor<16xf32>
  %v183 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 183000 : i64} : tensor<16xf32>
  %v184 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 184000 : i64} : tensor<16xf32>
  %v185 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 185000 : i64} : tensor<16xf32>
  %v186 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 186000 : i64} : tensor<16xf32>
  %v187 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 187000 : i64} : tensor<16xf32>
  %v188 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 188000 : i64} : tensor<16xf32>
  %v189 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 189000 : i64} : tensor<16xf32>
  %v190 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 190000 : i64} : tensor<16xf32>
  %v191 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 191000 : i64} : tensor<16xf32>
  %v192 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 192000 : i64} : tensor<16xf32>
  %v193 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 193000 : i64} : tensor<16xf32>
  %v194 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 194000 : i64} : tensor<16xf32>
  %v195 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 195000 : i64} : tensor<16xf32>
  %v196 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 196000 : i64} : tensor<16xf32>
  %v197 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 197000 : i64} : tensor<16xf32>
  %v198 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 198000 : i64} : tensor<16xf32>
  %v199 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 199000 : i64} : tensor<16xf32>
  %v200 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 200000 : i64} : tensor<16xf32>
  %v201 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 201000 : i64} : tensor<16xf32>
  %v202 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 202000 : i64} : tensor<16xf32>
  %v203 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 203000 : i64} : tensor<16xf32>
  %v204 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 204000 : i64} : tensor<16xf32>
  %v205 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 205000 : i64} : tensor<16xf32>
  %v206 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 206000 : i64} : tensor<16xf32>
  %v207 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 207000 : i64} : tensor<16xf32>
  %v208 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 208000 : i64} : tensor<16xf32>
  %v209 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 209000 : i64} : tensor<16xf32>
  %v210 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 210000 : i64} : tensor<16xf32>
  %v211 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 211000 : i64} : tensor<16xf32>
  %v212 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 212000 : i64} : tensor<16xf32>
  %v213 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 213000 : i64} : tensor<16xf32>
  %v214 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 214000 : i64} : tensor<16xf32>
  %v215 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 215000 : i64} : tensor<16xf32>
  %v216 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 216000 : i64} : tensor<16xf32>
  %v217 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 217000 : i64} : tensor<16xf32>
  %v218 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 218000 : i64} : tensor<16xf32>
  %v219 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 219000 : i64} : tensor<16xf32>
  %v220 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 220000 : i64} : tensor<16xf32>
  %v221 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 221000 : i64} : tensor<16xf32>
  %v222 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 222000 : i64} : tensor<16xf32>
  %v223 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 223000 : i64} : tensor<16xf32>
  %v224 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 224000 : i64} : tensor<16xf32>
  %v225 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 225000 : i64} : tensor<16xf32>
  %v226 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 226000 : i64} : tensor<16xf32>
  %v227 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 227000 : i64} : tensor<16xf32>
  %v228 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 228000 : i64} : tensor<16xf32>
  %v229 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 229000 : i64} : tensor<16xf32>
  %v230 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 230000 : i64} : tensor<16xf32>
  %v231 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 231000 : i64} : tensor<16xf32>
  %v232 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 232000 : i64} : tensor<16xf32>
  %v233 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 233000 : i64} : tensor<16xf32>
  %v234 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 234000 : i64} : tensor<16xf32>
  %v235 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 235000 : i64} : tensor<16xf32>
  %v236 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 236000 : i64} : tensor<16xf32>
  %v237 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 237000 : i64} : tensor<16xf32>
  %v238 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 238000 : i64} : tensor<16xf32>
  %v239 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 239000 : i64} : tensor<16xf32>
  %v240 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 240000 : i64} : tensor<16xf32>
  %v241 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 241000 : i64} : tensor<16xf32>
  %v242 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 242000 : i64} : tensor<16xf32>
  %v243 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 243000 : i64} : tensor<16xf32>
  %v244 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 244000 : i64} : tensor<16xf32>
  %v245 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 245000 : i64} : tensor<16xf32>
  %v246 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 246000 : i64} : tensor<16xf32>
  %v247 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 247000 : i64} : tensor<16xf32>
  %v248 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 248000 : i64} : tensor<16xf32>
  %v249 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 249000 : i64} : tensor<16xf32>
  %v250 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 250000 : i64} : tensor<16xf32>
  %v251 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 251000 : i64} : tensor<16xf32>
  %v252 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 252000 : i64} : tensor<16xf32>
  %v253 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 253000 : i64} : tensor<16xf32>
  %v254 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 254000 : i64} : tensor<16xf32>
  %v255 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 255000 : i64} : tensor<16xf32>
  %v256 = math.exp %x {opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 256000 : i64} : tensor<16xf32>
  return %v0 : tensor<16xf32>
}
