// RUN: mlc-opt %s --split-input-file --threads=2 --hlo-to-linalg | FileCheck %s
// RUN: mlc-opt %s --split-input-file --threads=1 --hlo-to-linalg | FileCheck %s --check-prefix=SERIAL

// -----

// Elementwise add of floats becomes one parallel linalg.generic over arith.addf.
// CHECK-LABEL: func @add_f32
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK: arith.addf
// CHECK-NOT: hlo.
func.func @add_f32(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "hlo.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// add on i1 is logical or.
// CHECK-LABEL: func @add_i1
// CHECK: arith.ori %{{.*}}, %{{.*}} : i1
func.func @add_i1(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = "hlo.add"(%a, %b) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func @subtract_i32
// CHECK: arith.subi %{{.*}}, %{{.*}} : i32
func.func @subtract_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "hlo.subtract"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func @multiply_f64
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f64
func.func @multiply_f64(%a: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %0 = "hlo.multiply"(%a, %b) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// Integer division guards x/0 (-> -1) and INT_MIN/-1 (-> INT_MIN) so it never traps.
// CHECK-LABEL: func @divide_i32
// CHECK-DAG: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: ^bb0(%[[L:.*]]: i32, %[[R:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[BYZERO:.*]] = arith.cmpi eq, %[[R]], %[[ZERO]]
// CHECK: %[[SAFE:.*]] = arith.select %{{.*}}, %[[ONE]], %[[R]]
// CHECK: %[[Q:.*]] = arith.divsi %[[L]], %[[SAFE]]
// CHECK: arith.select %[[BYZERO]], %[[M1]], %[[Q]]
func.func @divide_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "hlo.divide"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Float max/min propagate NaN (maximumf); integers use signed max/min.
// CHECK-LABEL: func @maximum_minimum
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.minsi %{{.*}}, %{{.*}} : i64
func.func @maximum_minimum(%a: tensor<4xf32>, %b: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %0 = "hlo.maximum"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.minimum"(%b, %b) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0, %1 : tensor<4xf32>, tensor<4xi64>
}

// -----

// Each float unary op becomes its arith/math op.
// CHECK-LABEL: func @unary_float
// CHECK: arith.negf
// CHECK: math.absf
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.tanh
// CHECK: math.sqrt
// CHECK: math.rsqrt
func.func @unary_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.abs"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "hlo.exponential"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "hlo.log"(%2) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "hlo.tanh"(%3) : (tensor<4xf32>) -> tensor<4xf32>
  %5 = "hlo.sqrt"(%4) : (tensor<4xf32>) -> tensor<4xf32>
  %6 = "hlo.rsqrt"(%5) : (tensor<4xf32>) -> tensor<4xf32>
  return %6 : tensor<4xf32>
}

// -----

// Integer negate is 0 - x; abs is math.absi.
// CHECK-LABEL: func @unary_int
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: arith.subi %[[ZERO]], %{{.*}} : i32
// CHECK: math.absi
func.func @unary_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "hlo.negate"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  %1 = "hlo.abs"(%0) : (tensor<4xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// Float NE is unordered (true for NaN); compare_type picks signed or unsigned predicates.
// CHECK-LABEL: func @compare
// CHECK: arith.cmpf une
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi uge
func.func @compare(%a: tensor<4xf32>, %b: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = "hlo.compare"(%a, %a) {comparison_direction = "NE"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = "hlo.compare"(%b, %b) {comparison_direction = "LT"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %2 = "hlo.compare"(%b, %b) {comparison_direction = "GE", compare_type = "UNSIGNED"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// A 0-d pred is read through a map with no results.
// CHECK-DAG: #[[$SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func @select_scalar_pred
// CHECK: linalg.generic {indexing_maps = [#[[$SCALAR]], #[[$ID]], #[[$ID]], #[[$ID]]]
// CHECK: arith.select
func.func @select_scalar_pred(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.select"(%p, %a, %b) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// float -> int saturates and maps NaN to 0; f32 -> f64 extends; i1 -> i64 zero-extends.
// CHECK-LABEL: func @convert
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.cmpf oge
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf uno
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.extui %{{.*}} : i1 to i64
func.func @convert(%a: tensor<4xf32>, %b: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xf64>, tensor<4xi64>) {
  %0 = "hlo.convert"(%a) : (tensor<4xf32>) -> tensor<4xi32>
  %1 = "hlo.convert"(%a) : (tensor<4xf32>) -> tensor<4xf64>
  %2 = "hlo.convert"(%b) : (tensor<4xi1>) -> tensor<4xi64>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xf64>, tensor<4xi64>
}

// -----

// constant becomes arith.constant; iota reads linalg.index of its dimension.
// CHECK-LABEL: func @constant_iota
// CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: arith.sitofp %[[I64]] : i64 to f32
func.func @constant_iota() -> (tensor<2xf32>, tensor<2x3xf32>) {
  %0 = "hlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "hlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3xf32>
  return %0, %1 : tensor<2xf32>, tensor<2x3xf32>
}

// -----

// A size-1 operand dim that expands is read at index 0.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-LABEL: func @broadcast_in_dim
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]}
func.func @broadcast_in_dim(%a: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = "hlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<1x3xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// reshape collapses to 1-d then expands; a 0-d operand first expands to 1-d.
// CHECK-LABEL: func @reshape
// CHECK: %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: tensor.expand_shape %[[C]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<f32> into tensor<1xf32>
func.func @reshape(%a: tensor<2x3xf32>, %s: tensor<f32>) -> (tensor<3x2xf32>, tensor<1x1xf32>) {
  %0 = "hlo.reshape"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = "hlo.reshape"(%s) : (tensor<f32>) -> tensor<1x1xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<1x1xf32>
}

// -----

// CHECK-LABEL: func @transpose
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<4x2x3xf32>) permutation = [2, 0, 1]
func.func @transpose(%a: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = "hlo.transpose"(%a) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// reduce fills the output with the init value, then combines along `dimensions`.
// CHECK-LABEL: func @reduce
// CHECK: %[[INIT:.*]] = tensor.extract %{{.*}}[] : tensor<i32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[INIT]] : i32)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%[[FILL]] : tensor<2xi32>)
// CHECK: arith.xori
func.func @reduce(%a: tensor<2x3xi32>, %z: tensor<i32>) -> tensor<2xi32> {
  %0 = "hlo.reduce"(%a, %z) {dimensions = array<i64: 1>, kind = "xor"} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Loops are (batch, lhs free, rhs free, contracting).
// CHECK-DAG: #[[$LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func @dot_general_batched
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: %[[P:.*]] = arith.mulf
// CHECK: arith.addf %{{.*}}, %[[P]]
func.func @dot_general_batched(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "hlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64: 0>, rhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// Float unary ops map to their math-dialect op; logistic is 1 / (1 + exp(-x)); sign keeps
// +-0 and NaN by selecting x itself. expm1 and log1p are not math.expm1/log1p (which
// convert-math-to-llvm turns into exp(x) - 1 and log(1 + x), losing every digit near 0):
// expm1 = (u - 1) * (x / log u) with u = exp x, log1p = log u * (x / (u - 1)) with u = 1 + x.
// CHECK-LABEL: func @more_float_unary
// CHECK: math.floor
// CHECK: math.ceil
// CHECK: math.roundeven
// CHECK: math.round
// CHECK: ^bb0(%[[EX:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[EU:.*]] = math.exp %[[EX]] : f32
// CHECK: %[[EM1:.*]] = arith.subf %[[EU]], %{{.*}} : f32
// CHECK: %[[EL:.*]] = math.log %[[EU]] : f32
// CHECK: %[[ER:.*]] = arith.divf %[[EX]], %[[EL]] : f32
// CHECK: arith.mulf %[[EM1]], %[[ER]] : f32
// CHECK: ^bb0(%[[LX:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[LU:.*]] = arith.addf %{{.*}}, %[[LX]] : f32
// CHECK: %[[LM1:.*]] = arith.subf %[[LU]], %{{.*}} : f32
// CHECK: %[[LL:.*]] = math.log %[[LU]] : f32
// CHECK: %[[LR:.*]] = arith.divf %[[LX]], %[[LM1]] : f32
// CHECK: arith.mulf %[[LL]], %[[LR]] : f32
// CHECK: math.cbrt
// CHECK: math.sin
// CHECK: math.cos
// CHECK: math.tan
// CHECK: %[[NEG:.*]] = arith.negf
// CHECK: %[[E:.*]] = math.exp %[[NEG]]
// CHECK: %[[D:.*]] = arith.addf %{{.*}}, %[[E]]
// CHECK: arith.divf %{{.*}}, %[[D]]
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: arith.cmpf ogt, %[[X]]
// CHECK: arith.cmpf olt, %[[X]]
// CHECK: %[[INNER:.*]] = arith.select %{{.*}}, %{{.*}}, %[[X]] : f32
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[INNER]] : f32
func.func @more_float_unary(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.floor"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.ceil"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "hlo.round_nearest_even"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "hlo.round_nearest_afz"(%2) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "hlo.exponential_minus_one"(%3) : (tensor<4xf32>) -> tensor<4xf32>
  %5 = "hlo.log_plus_one"(%4) : (tensor<4xf32>) -> tensor<4xf32>
  %6 = "hlo.cbrt"(%5) : (tensor<4xf32>) -> tensor<4xf32>
  %7 = "hlo.sine"(%6) : (tensor<4xf32>) -> tensor<4xf32>
  %8 = "hlo.cosine"(%7) : (tensor<4xf32>) -> tensor<4xf32>
  %9 = "hlo.tan"(%8) : (tensor<4xf32>) -> tensor<4xf32>
  %10 = "hlo.logistic"(%9) : (tensor<4xf32>) -> tensor<4xf32>
  %11 = "hlo.sign"(%10) : (tensor<4xf32>) -> tensor<4xf32>
  return %11 : tensor<4xf32>
}

// -----

// Float binary ops, atan2 with its two-zero case selected (+-0 or +-pi: upstream's
// math.atan2 folder says NaN), is_finite (ordered != inf of |x|), clamp (max then min),
// TOTALORDER compare (integer keys from the bits).
// CHECK-LABEL: func @more_float_binary
// CHECK: arith.remf
// CHECK: math.powf
// CHECK: ^bb0(%[[Y:.*]]: f32, %[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[YZ:.*]] = arith.cmpf oeq, %[[Y]],
// CHECK: %[[XZ:.*]] = arith.cmpf oeq, %[[X]],
// CHECK: %[[BOTH:.*]] = arith.andi %[[YZ]], %[[XZ]]
// CHECK: math.copysign %{{.*}}, %[[X]] :
// CHECK: %[[AXIS:.*]] = math.copysign %{{.*}}, %[[Y]] :
// CHECK: %[[ATAN:.*]] = math.atan2 %[[Y]], %[[X]] :
// CHECK: arith.select %[[BOTH]], %[[AXIS]], %[[ATAN]]
// CHECK: %[[ABS:.*]] = math.absf
// CHECK: arith.cmpf one, %[[ABS]]
// CHECK: %[[MAX:.*]] = arith.maximumf
// CHECK: arith.minimumf %[[MAX]]
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.cmpi slt
func.func @more_float_binary(%a: tensor<4xf32>, %lo: tensor<f32>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xf32>, tensor<4xi1>) {
  %0 = "hlo.remainder"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.power"(%0, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "hlo.atan2"(%1, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = "hlo.is_finite"(%2) : (tensor<4xf32>) -> tensor<4xi1>
  %4 = "hlo.clamp"(%lo, %a, %lo) : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %5 = "hlo.compare"(%a, %4) {comparison_direction = "LT", compare_type = "TOTALORDER"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %2, %3, %4, %5 : tensor<4xf32>, tensor<4xi1>, tensor<4xf32>, tensor<4xi1>
}

// -----

// Integer ops: remainder guards x % 0 (-> x) and MIN % -1; power uses math.ipowi; shifts by
// >= the bit width select their defined result instead of LLVM's poison.
// CHECK-LABEL: func @integer_ops
// CHECK: arith.remsi
// CHECK: math.ipowi
// CHECK: arith.andi
// CHECK: arith.ori
// CHECK: arith.xori
// CHECK: %[[FAR:.*]] = arith.cmpi uge, %{{.*}}, %{{.*}} : i32
// CHECK: %[[SAFE:.*]] = arith.select %[[FAR]]
// CHECK: %[[SHL:.*]] = arith.shli %{{.*}}, %[[SAFE]]
// CHECK: arith.select %[[FAR]], %{{.*}}, %[[SHL]]
// CHECK: arith.shrsi
// CHECK: arith.shrui
// CHECK: math.ctpop
// CHECK: math.ctlz
// CHECK: arith.xori %{{.*}}, %{{.*}}-1{{.*}} : i32
func.func @integer_ops(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "hlo.remainder"(%a, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = "hlo.power"(%0, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = "hlo.and"(%1, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = "hlo.or"(%2, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = "hlo.xor"(%3, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %5 = "hlo.shift_left"(%4, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %6 = "hlo.shift_right_arithmetic"(%5, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %7 = "hlo.shift_right_logical"(%6, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %8 = "hlo.popcnt"(%7) : (tensor<4xi32>) -> tensor<4xi32>
  %9 = "hlo.count_leading_zeros"(%8) : (tensor<4xi32>) -> tensor<4xi32>
  %10 = "hlo.not"(%9) : (tensor<4xi32>) -> tensor<4xi32>
  return %10 : tensor<4xi32>
}

// -----

// reverse reads index (size - 1 - i); slice is a strided extract_slice; dynamic starts are
// clamped to [0, dim - size] before extract_slice/insert_slice; pad fills, inserts with the
// interior stride, then crops what negative edges remove.
// CHECK-DAG: #[[$REV:.*]] = affine_map<(d0, d1) -> (d0, -d1 + 4)>
// CHECK-LABEL: func @slicing
// CHECK: linalg.generic {indexing_maps = [#[[$REV]], #{{.*}}]
// CHECK: tensor.extract_slice %{{.*}}[1, 0] [2, 2] [2, 3] : tensor<4x5xf32> to tensor<2x2xf32>
// CHECK: %[[I:.*]] = tensor.extract %{{.*}}[] : tensor<i32>
// CHECK: %[[IDX:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[LOW:.*]] = arith.maxsi %[[IDX]], %{{.*}} : index
// CHECK: %[[OFF:.*]] = arith.minsi %[[LOW]], %{{.*}} : index
// CHECK: tensor.extract_slice %{{.*}}[%[[OFF]], %{{.*}}] [2, 3] [1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] [2, 3] [1, 1]
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<6x13xf32>)
// CHECK: %[[INS:.*]] = tensor.insert_slice %{{.*}} into %[[FILL]][2, 0] [4, 5] [1, 3]
// CHECK: tensor.extract_slice %[[INS]][0, 1] [5, 12] [1, 1] : tensor<6x13xf32> to tensor<5x12xf32>
// CHECK: arith.bitcast %{{.*}} : f32 to i32
func.func @slicing(%a: tensor<4x5xf32>, %i: tensor<i32>, %z: tensor<f32>) -> (tensor<4x5xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<4x5xf32>, tensor<5x12xf32>, tensor<4x5xi32>) {
  %0 = "hlo.reverse"(%a) {dimensions = array<i64: 1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %1 = "hlo.slice"(%a) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 4, 4>, strides = array<i64: 2, 3>} : (tensor<4x5xf32>) -> tensor<2x2xf32>
  %2 = "hlo.dynamic_slice"(%a, %i, %i) {slice_sizes = array<i64: 2, 3>} : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %3 = "hlo.dynamic_update_slice"(%a, %2, %i, %i) : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x5xf32>
  %4 = "hlo.pad"(%a, %z) {edge_padding_low = array<i64: 2, -1>, edge_padding_high = array<i64: -1, 0>, interior_padding = array<i64: 0, 2>} : (tensor<4x5xf32>, tensor<f32>) -> tensor<5x12xf32>
  %5 = "hlo.bitcast_convert"(%a) : (tensor<4x5xf32>) -> tensor<4x5xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x5xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<4x5xf32>, tensor<5x12xf32>, tensor<4x5xi32>
}

// -----

// Unsigned start indices are zero-extended (index_castui) and clamped with an unsigned min
// only: a ui8 200 is 200 (not -56), a ui64 >= 2^63 clamps to the top (not to 0).
// CHECK-LABEL: func @unsigned_starts
// CHECK: %[[I:.*]] = tensor.extract %{{.*}}[] : tensor<i8>
// CHECK: %[[IDX:.*]] = arith.index_castui %[[I]] : i8 to index
// CHECK-NOT: arith.maxsi
// CHECK: %[[OFF:.*]] = arith.minui %[[IDX]], %{{.*}} : index
// CHECK: tensor.extract_slice %{{.*}}[%[[OFF]]] [2] [1]
// CHECK: linalg.generic
// CHECK: %[[G:.*]] = tensor.extract %{{.*}} : tensor<3x1xi64>
// CHECK: %[[GI:.*]] = arith.index_castui %[[G]] : i64 to index
// CHECK: arith.minui %[[GI]], %{{.*}} : index
func.func @unsigned_starts(%a: tensor<300xf32>, %i: tensor<ui8>, %g: tensor<3x1xui64>) -> (tensor<2xf32>, tensor<3xf32>) {
  %0 = "hlo.dynamic_slice"(%a, %i) {slice_sizes = array<i64: 2>} : (tensor<300xf32>, tensor<ui8>) -> tensor<2xf32>
  %1 = "hlo.gather"(%a, %g) {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : i64, offset_dims = array<i64>, slice_sizes = array<i64: 1>, start_index_map = array<i64: 0>} : (tensor<300xf32>, tensor<3x1xui64>) -> tensor<3xf32>
  return %0, %1 : tensor<2xf32>, tensor<3xf32>
}

// -----

// argmax is two reductions of one combiner each (both vectorizable): the NaN-propagating
// max (without signed zeros: it is only compared with ==), then the smallest position
// holding it (or holding a NaN), n where none does.
// reduce_window pads with the init value, then reads `out * stride + window * dilation`
// under a shape-only window operand.
// CHECK-DAG: #[[$WIN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 2 + d3)>
// CHECK-LABEL: func @windows
// CHECK: %[[N:.*]] = arith.constant 5 : i64
// CHECK: %[[BEST:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x5xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK:   arith.maximumf {{.*}} fastmath<nsz>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %[[BEST]] : tensor<4x5xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xi64>)
// CHECK: ^bb0(%[[V:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: i64):
// CHECK:   %[[EQ:.*]] = arith.cmpf oeq, %[[V]], %[[B]]
// CHECK:   %[[NAN:.*]] = arith.cmpf uno, %[[V]], %[[V]]
// CHECK:   %[[MATCH:.*]] = arith.ori %[[EQ]], %[[NAN]]
// CHECK:   %[[I:.*]] = linalg.index 1 : index
// CHECK:   %[[POS:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:   %[[CAND:.*]] = arith.select %[[MATCH]], %[[POS]], %[[N]]
// CHECK:   arith.minsi %[[CAND]], %[[ACC]]
// CHECK: %[[PAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1] [4, 5] [1, 1]
// Only the rows and columns some window reads (the padded last row is never read).
// CHECK: %[[READ:.*]] = tensor.extract_slice %[[PAD]][0, 0] [4, 6] [1, 1] : tensor<5x6xf32> to tensor<4x6xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$WIN]], {{.*}}], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[READ]], %{{.*}} : tensor<4x6xf32>, tensor<2x2xf32>)
// CHECK: arith.maximumf
func.func @windows(%a: tensor<4x5xf32>, %z: tensor<f32>) -> (tensor<4xi64>, tensor<2x3xf32>) {
  %0 = "hlo.argmax"(%a) {dimension = 1 : i64} : (tensor<4x5xf32>) -> tensor<4xi64>
  %1 = "hlo.reduce_window"(%a, %z) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, kind = "max"} : (tensor<4x5xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<4xi64>, tensor<2x3xf32>
}

// -----

// A running reduction (a window of the axis's whole length, padded n-1 in front) is a scan.
// Along the innermost axis, row by row: each row's elements in order into one running
// scalar. Along another axis, one slice of the axis per step, combined into a carried
// accumulator and inserted into the result. cumsum's init is add's identity; max is
// idempotent, so any init scans; a sum whose init is not 0 (every window adds it again per
// padded element) keeps the window.
// CHECK-LABEL: func @running_reductions
// CHECK: %[[INIT:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: scf.for %[[R:.*]] = %c0 to %c3 step %c1 iter_args(%[[ROWS:.*]] = %{{.*}}) -> (tensor<3x7xf32>)
// CHECK:   scf.for %[[K:.*]] = %c0 to %c7 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]], %[[OUT:.*]] = %[[ROWS]]) -> (f32, tensor<3x7xf32>)
// CHECK:     %[[X:.*]] = tensor.extract %{{.*}}[%[[R]], %[[K]]] : tensor<3x7xf32>
// CHECK:     %[[NEXT:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK:     %[[INS:.*]] = tensor.insert %[[NEXT]] into %[[OUT]][%[[R]], %[[K]]]
// CHECK:     scf.yield %[[NEXT]], %[[INS]]
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (tensor<1x7xf32>, tensor<3x7xf32>)
// CHECK:     arith.maximumf
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK:   arith.addf
func.func @running_reductions(%a: tensor<3x7xf32>, %any: tensor<f32>) -> (tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>) {
  %zero = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %five = "hlo.constant"() {value = dense<5.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "hlo.reduce_window"(%a, %zero) {window_dimensions = array<i64: 1, 7>, padding = dense<[[0, 0], [6, 0]]> : tensor<2x2xi64>, kind = "add"} : (tensor<3x7xf32>, tensor<f32>) -> tensor<3x7xf32>
  %1 = "hlo.reduce_window"(%a, %any) {window_dimensions = array<i64: 3, 1>, padding = dense<[[2, 0], [0, 0]]> : tensor<2x2xi64>, kind = "max"} : (tensor<3x7xf32>, tensor<f32>) -> tensor<3x7xf32>
  %2 = "hlo.reduce_window"(%a, %five) {window_dimensions = array<i64: 1, 7>, padding = dense<[[0, 0], [6, 0]]> : tensor<2x2xi64>, kind = "add"} : (tensor<3x7xf32>, tensor<f32>) -> tensor<3x7xf32>
  return %0, %1, %2 : tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>
}

// -----

// Grouped NCW convolution: the padded input is read at (g * Cg + c, s * stride + k);
// the kernel at (g * Og + o, c, k); a shape-only [groups, Og] operand bounds (g, o).
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[$KER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1 * 3 + d2, d4, d5)>
// CHECK-DAG: #[[$GRP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 3 + d2, d3)>
// CHECK-LABEL: func @grouped_convolution
// CHECK: %[[PAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1] [1, 4, 8] [1, 1, 1]
// CHECK: %[[GROUPS:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$KER]], #[[$GRP]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[PAD]], %{{.*}}, %[[GROUPS]] :
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @grouped_convolution(%x: tensor<1x4x8xf32>, %w: tensor<6x2x3xf32>) -> tensor<1x6x4xf32> {
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[1, 0]]> : tensor<1x2xi64>, feature_group_count = 2 : i64, batch_group_count = 1 : i64} : (tensor<1x4x8xf32>, tensor<6x2x3xf32>) -> tensor<1x6x4xf32>
  return %0 : tensor<1x6x4xf32>
}

// -----

// A strided convolution whose last window ends before the padded input does: the generic
// reads only the covered columns (2 of 3), so the loops cover its operand exactly.
// CHECK-LABEL: func @convolution_input_tail
// CHECK: %[[PAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 2] [2, 4, 1] [1, 1, 1]
// CHECK: %[[READ:.*]] = tensor.extract_slice %[[PAD]][0, 0, 0] [2, 4, 2] [1, 1, 1] : tensor<2x4x3xf32> to tensor<2x4x2xf32>
// CHECK: linalg.generic {{.*}} ins(%[[READ]], %{{.*}}, %{{.*}} : tensor<2x4x2xf32>, tensor<2x2x4xf32>, tensor<2x2xf32>)
func.func @convolution_input_tail(%x: tensor<2x4x1xf32>, %w: tensor<2x2x4xf32>) -> tensor<2x4x1xf32> {
  %0 = "hlo.convolution"(%x, %w) {batch_group_count = 2 : i64, feature_group_count = 1 : i64, input_batch_dimension = 1 : i64, input_feature_dimension = 0 : i64, input_spatial_dimensions = array<i64: 2>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 2 : i64, kernel_spatial_dimensions = array<i64: 0>, lhs_dilation = array<i64: 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2>, padding = dense<[[2, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_strides = array<i64: 2>} : (tensor<2x4x1xf32>, tensor<2x2x4xf32>) -> tensor<2x4x1xf32>
  return %0 : tensor<2x4x1xf32>
}

// -----

// gather: a generic over the result reads the clamped start from the index tensor, then the
// operand, with tensor.extract. scatter: an scf.for nest over the updates carries the
// result; an update whose window fits is combined and written with tensor.insert.
// CHECK-LABEL: func @gather_scatter
// CHECK: linalg.generic
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[START:.*]] = tensor.extract %{{.*}}[%[[ROW]]] : tensor<3xi32>
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract %{{.*}} : tensor<5x4xf32>
// CHECK: scf.for %[[U:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<5x4xf32>)
// CHECK: scf.for
// CHECK: scf.if
// CHECK: arith.addf
// CHECK: tensor.insert
func.func @gather_scatter(%t: tensor<5x4xf32>, %i: tensor<3xi32>, %u: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<5x4xf32>) {
  %0 = "hlo.gather"(%t, %i) {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 4>} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  %1 = "hlo.scatter"(%t, %i, %u) {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, kind = "add"} : (tensor<5x4xf32>, tensor<3xi32>, tensor<3x4xf32>) -> tensor<5x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<5x4xf32>
}

// -----

// Merge sort over 5 elements: passes of width 1, 2 and 4, each a fresh tensor filled by an
// scf.for over run pairs; each merge is an scf.for of ceil(count / 2) steps taking one
// element from the front and one from the back, read at a selected position (a select of
// indices, not of floats); argsort carries an iota of indices along.
// CHECK-LABEL: func @sorting
// CHECK: scf.for %[[LO:.*]] = %c0 to %c5 step %c2
// CHECK:   %[[STEPS:.*]] = arith.divui %{{.*}}, %c2 : index
// CHECK:   scf.for %[[T:.*]] = %c0 to %[[STEPS]] step %c1 iter_args({{.*}}) -> (index, index, index, index, tensor<5xf32>)
// CHECK:     %[[FRONT:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK:     %[[V:.*]] = tensor.extract %{{.*}}[%[[FRONT]]] : tensor<5xf32>
// CHECK:     %[[IN:.*]] = tensor.insert %[[V]] into
// CHECK:     %[[BACK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK:     %[[W:.*]] = tensor.extract %{{.*}}[%[[BACK]]] : tensor<5xf32>
// CHECK:     tensor.insert %[[W]] into %[[IN]]
// CHECK-NOT: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: scf.for %{{.*}} = %c0 to %c5 step %c4
// CHECK: scf.for %{{.*}} = %c0 to %c5 step %c8
// CHECK: linalg.index 0 : index
// CHECK-COUNT-3: arith.divui
// CHECK: return
func.func @sorting(%a: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %0 = "hlo.sort"(%a) {dimension = 0 : i64} : (tensor<5xf32>) -> tensor<5xf32>
  %1 = "hlo.argsort"(%a) {dimension = 0 : i64} : (tensor<5xf32>) -> tensor<5xi32>
  return %0, %1 : tensor<5xf32>, tensor<5xi32>
}

// -----

// A long innermost reduction is split into 16 lanes: partial results of a [n/16, 16]
// view (the lane loop is parallel, so it vectorizes), then a reduction of the lanes. An
// f32 sum keeps its lanes in f64 (extf in the partial loop, truncf in the last one).
// CHECK-LABEL: func @long_reduction
// CHECK: %[[V:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1]] output_shape [128, 16] : tensor<2048xf32> into tensor<128x16xf32>
// CHECK: %[[P:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%[[V]] : tensor<128x16xf32>) outs(%{{.*}} : tensor<16xf64>)
// CHECK: arith.extf
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%[[P]] : tensor<16xf64>)
// CHECK: arith.truncf
func.func @long_reduction(%x: tensor<2048xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0 = "hlo.reduce"(%x, %z) {dimensions = array<i64: 0>, kind = "add"} : (tensor<2048xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A long max keeps its element type, and a huge reduction to few results is first cut
// into 8 chunks (a parallel outer loop): [65536] -> [8, 512, 16].
// CHECK-LABEL: func @chunked_max
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1, 2]] output_shape [8, 512, 16]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}} outs(%{{.*}} : tensor<8x16xf32>)
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} ins(%{{.*}} : tensor<8x16xf32>)
func.func @chunked_max(%x: tensor<65536xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0 = "hlo.reduce"(%x, %z) {dimensions = array<i64: 0>, kind = "max"} : (tensor<65536xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A plain 2-D convolution is a direct convolution (or im2col + one named matmul, by the
// rule: hlo-to-linalg-convolution.mlir); NCHW/OIHW operands are transposed to NHWC/HWIO
// first and the NHWC result back to NCHW.
// CHECK-LABEL: func @conv_as_matmul
// CHECK: linalg.transpose ins(%{{.*}} : tensor<3x2x3x3xf32>) {{.*}} permutation = [2, 3, 1, 0]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x2x6x6xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x6x2xf32>, tensor<3x3x2x3xf32>)
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x4x4x3xf32>) {{.*}} permutation = [0, 3, 1, 2]
func.func @conv_as_matmul(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32> {
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2, 3>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2, 3>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2, 3>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

// A loop fusion (hlo-fuse's outlined function) of elementwise ops, a splat constant and a
// broadcast of an argument is one generic, built at once (loop_fusion.py); @main's own
// ops are lowered one by one.
// CHECK-LABEL: func private @loop_fusion
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%arg1, %arg0 : tensor<8xf32>, tensor<4x8xf32>)
// CHECK: ^bb0(%[[B:.*]]: f32, %[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[M:.*]] = arith.mulf %[[X]], %[[TWO]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[M]], %[[B]] : f32
// CHECK: %[[T:.*]] = math.tanh %[[S]] : f32
// CHECK: linalg.yield %[[T]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return
func.func private @loop_fusion(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> attributes {hlo.fusion_kind = "loop"} {
  %c = "hlo.constant"() {value = dense<2.0> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
  %bb = "hlo.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %m = "hlo.multiply"(%a, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = "hlo.add"(%m, %bb) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "hlo.tanh"(%s) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// Unsigned operands: the generic computes on signless casts, with unsigned semantics
// (divui), and two results (a multi-output loop fusion) are two outputs of it.
// CHECK-LABEL: func private @unsigned_two_results
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<5xi8>, tensor<5xi8>)
// CHECK: arith.divui
// CHECK: arith.muli
// CHECK-NOT: linalg.generic
func.func private @unsigned_two_results(%a: tensor<5xui8>, %b: tensor<5xui8>) -> (tensor<5xui8>, tensor<5xui8>) attributes {hlo.fusion_kind = "loop"} {
  %d = "hlo.divide"(%a, %b) : (tensor<5xui8>, tensor<5xui8>) -> tensor<5xui8>
  %m = "hlo.multiply"(%d, %b) : (tensor<5xui8>, tensor<5xui8>) -> tensor<5xui8>
  return %d, %m : tensor<5xui8>, tensor<5xui8>
}

// -----

// A reshape inside the fusion is not elementwise: the op-by-op lowering (one generic per
// op, merged later by mlc-fuse-kernels).
// CHECK-LABEL: func private @with_reshape
// CHECK: tensor.expand_shape
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func private @with_reshape(%a: tensor<4xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {hlo.fusion_kind = "loop"} {
  %r = "hlo.reshape"(%a) : (tensor<4xf32>) -> tensor<4x1xf32>
  %b = "hlo.broadcast_in_dim"(%r) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %s = "hlo.subtract"(%x, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Enough rows times length (64 x 128 merge steps of ~8 ops: 2^16, the thread rule's floor):
// each pass's rows become an scf.forall, each iteration merging its row into its own slice
// of the pass's fresh tensor and inserting it back in parallel. (f64 rows of 128: merge
// sort, radix sort's 8 passes cost more.)
// CHECK-LABEL: func @sorting_rows
// CHECK-NOT: arith.shrui
// CHECK: %[[FRESH:.*]] = tensor.empty() : tensor<64x128xf64>
// CHECK: scf.forall (%[[ROW:.*]]) in (64) shared_outs(%[[OUT:.*]] = %[[FRESH]]) -> (tensor<64x128xf64>)
// CHECK:   %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[ROW]], 0] [1, 128] [1, 1]
// CHECK:   scf.for {{.*}} iter_args(%{{.*}} = %[[SLICE]]) -> (tensor<1x128xf64>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[ROW]], 0] [1, 128] [1, 1]
func.func @sorting_rows(%a: tensor<64x128xf64>) -> tensor<64x128xf64> {
  %0 = "hlo.sort"(%a) {dimension = 1 : i64} : (tensor<64x128xf64>) -> tensor<64x128xf64>
  return %0 : tensor<64x128xf64>
}

// -----

// A row of 300 f32: radix sort. The row's keys (descending: complemented) are computed
// first; one loop over the row counts the four 8-bit digits into 4 x 256 buckets;
// each pass prefix-sums its buckets and scatters by digit; key and value travel as one i64
// word (key << 32 | value bits), the digits read above the value's 32 bits; the last pass
// writes the value alone (the word's low half) into the result.
// CHECK-LABEL: func @radix_sort_descending
// CHECK: %[[ROW:.*]] = tensor.extract_slice %arg0[0] [300] [1] : tensor<300xf32> to tensor<300xf32>
// CHECK: %[[KEYS:.*]] = linalg.generic {{.*}} ins(%[[ROW]] : tensor<300xf32>) outs(%{{.*}} : tensor<300xi32>)
// CHECK:   arith.bitcast %{{.*}} : f32 to i32
// CHECK:   arith.cmpf oeq
// CHECK:   arith.cmpf uno
// CHECK:   arith.cmpi slt
// CHECK:   %[[KEY:.*]] = arith.select
// CHECK:   %[[DESC:.*]] = arith.xori %[[KEY]], %c-1_i32 : i32
// CHECK:   linalg.yield %[[DESC]] : i32
// CHECK: %[[COUNTS:.*]] = scf.for %{{.*}} = %c0 to %c300 step %c1 iter_args(%{{.*}}) -> (tensor<1024xindex>)
// CHECK-COUNT-4: tensor.insert %{{.*}} : tensor<1024xindex>
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c1 iter_args({{.*}}) -> (tensor<256xindex>, index)
// CHECK: scf.for {{.*}} -> (tensor<256xindex>, tensor<300xi64>)
// CHECK:   %[[V:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK:   %[[K:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK:   %[[HIGH:.*]] = arith.shli %[[K]], %c32_i64 : i64
// CHECK:   %[[LOW:.*]] = arith.extui %[[V]] : i32 to i64
// CHECK:   %[[WORD:.*]] = arith.ori %[[HIGH]], %[[LOW]] : i64
// CHECK:   arith.shrui %[[WORD]], %c32_i64 : i64
// CHECK: scf.for {{.*}} -> (tensor<256xindex>, tensor<300xi64>)
// CHECK:   arith.shrui %{{.*}}, %c40_i64 : i64
// CHECK: scf.for {{.*}} -> (tensor<256xindex>, tensor<300xi64>)
// CHECK:   arith.shrui %{{.*}}, %c48_i64 : i64
// CHECK: %[[LAST:.*]]:2 = scf.for {{.*}} -> (tensor<256xindex>, tensor<300xf32>)
// CHECK:   arith.shrui %{{.*}}, %c56_i64 : i64
// CHECK:   %[[BITS:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK:   arith.bitcast %[[BITS]] : i32 to f32
// CHECK: return %[[LAST]]#1
func.func @radix_sort_descending(%a: tensor<300xf32>) -> tensor<300xf32> {
  %0 = "hlo.sort"(%a) {dimension = 0 : i64, descending = true} : (tensor<300xf32>) -> tensor<300xf32>
  return %0 : tensor<300xf32>
}

// -----

// One row of 5001 f32 on two threads (parallel_sort.py): the row's words (key << 32 | value
// bits) from one generic; an scf.forall over the two halves (2501 and 2500 elements: the
// loops run to a count selected per half) radix-sorts each into its slice of a 5002-word
// buffer; a second scf.forall merges: the split of the first 2501 (co-rank, an scf.while
// binary search), then each half from both ends in one scf.for; the result is the merged
// buffer's first 5001. On one thread: one radix sort, no forall.
// CHECK-LABEL: func @sort_halves
// CHECK: %[[WORDS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<5001xi64>)
// CHECK: %[[SORTED:.*]] = scf.forall (%[[C:.*]]) in (2) shared_outs(%[[BUF:.*]] = %{{.*}}) -> (tensor<5002xi64>)
// CHECK:   %[[BASE:.*]] = arith.muli %[[C]], %c2501 : index
// CHECK:   %[[HALF:.*]] = tensor.extract_slice %[[BUF]][%[[BASE]]] [2501] [1]
// CHECK:   %[[COUNT:.*]] = arith.select %{{.*}}, %c2501, %c2500 : index
// CHECK:   scf.for %{{.*}} = %c0 to %[[COUNT]] step %c1 iter_args(%{{.*}}) -> (tensor<6144xindex>)
// CHECK:     tensor.extract %[[WORDS]]
// CHECK:   scf.for %{{.*}} = %c0 to %[[COUNT]] step %c1 iter_args(%{{.*}}, %{{.*}} = %[[HALF]]) -> (tensor<2048xindex>, tensor<2501xi64>)
// CHECK:   tensor.parallel_insert_slice %{{.*}} into %[[BUF]][%[[BASE]]] [2501] [1]
// CHECK: %[[MERGED:.*]] = scf.forall (%{{.*}}) in (2) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<1x5002xf32>)
// CHECK:   scf.while
// CHECK:     tensor.extract %[[SORTED]]
// CHECK:     arith.cmpi ult
// CHECK:   scf.for {{.*}} -> (index, index, index, index, tensor<1x2501xf32>)
// CHECK-COUNT-2: tensor.insert %{{.*}} : tensor<1x2501xf32>
// CHECK:   tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%c0, %{{.*}}] [1, 2501] [1, 1]
// CHECK: %[[RESULT:.*]] = tensor.extract_slice %[[MERGED]][0, 0] [1, 5001] [1, 1]
// CHECK: return %[[RESULT]]
// SERIAL-LABEL: func @sort_halves
// SERIAL-NOT: scf.forall
// SERIAL: scf.for {{.*}} -> (tensor<2048xindex>, tensor<1x5001xf32>)
// SERIAL-NOT: scf.forall
// SERIAL: return
func.func @sort_halves(%a: tensor<1x5001xf32>) -> tensor<1x5001xf32> {
  %0 = "hlo.sort"(%a) {dimension = 1 : i64} : (tensor<1x5001xf32>) -> tensor<1x5001xf32>
  return %0 : tensor<1x5001xf32>
}

// -----

// argsort of long rows of int32: the key flips the sign bit; the payload is the position
// (no iota tensor), packed under the key in an i64 word and written as i32 by the last
// pass; 4096 per row take 11-bit digits (3 passes, 3 x 2048 buckets); 16 rows x 4096 is
// enough work for the rows to run in parallel.
// CHECK-LABEL: func @radix_argsort_rows
// CHECK: scf.forall (%[[ROW:.*]]) in (16) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<16x4096xi32>)
// CHECK:   tensor.extract_slice %arg0[%[[ROW]], 0] [1, 4096] [1, 1] : tensor<16x4096xi32> to tensor<4096xi32>
// CHECK:   linalg.generic
// CHECK:     arith.xori %{{.*}}, %c-2147483648_i32 : i32
// CHECK:   scf.for {{.*}} -> (tensor<6144xindex>)
// CHECK:   scf.for %{{.*}} = %c0 to %c2048 step %c1
// CHECK:   scf.for %[[I:.*]] = %c0 to %c4096 step %c1 {{.*}} -> (tensor<2048xindex>, tensor<4096xi64>)
// CHECK:     arith.index_cast %[[I]] : index to i32
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[ROW]], 0] [1, 4096] [1, 1]
func.func @radix_argsort_rows(%a: tensor<16x4096xi32>) -> tensor<16x4096xi32> {
  %0 = "hlo.argsort"(%a) {dimension = 1 : i64} : (tensor<16x4096xi32>) -> tensor<16x4096xi32>
  return %0 : tensor<16x4096xi32>
}

// -----

// argsort with limit 3 over rows of 500: a selection, no sort. Each row's keys are computed
// first (the row's slice); the first 3 elements are insertion-sorted (an scf.while shifting
// kept pairs down while the new key is before the previous one); every later element is
// compared with the last kept key (unsigned) and inserted only when before it (scf.if).
// CHECK-LABEL: func @top_k_selection
// CHECK-NOT: arith.shrui
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c2 step %c1 iter_args(%{{.*}}) -> (tensor<2x3xi32>)
// CHECK:   tensor.extract_slice %arg0[%[[ROW]], 0] [1, 500] [1, 1] : tensor<2x500xf32> to tensor<500xf32>
// CHECK:   %[[KEYS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<500xi32>)
// CHECK:   scf.for %{{.*}} = %c0 to %c3 step %c1 {{.*}} -> (tensor<3xi32>, tensor<2x3xi32>)
// CHECK:     scf.while
// CHECK:   scf.for %[[I:.*]] = %c3 to %c500 step %c1 {{.*}} -> (tensor<3xi32>, tensor<2x3xi32>)
// CHECK:     %[[KEY:.*]] = tensor.extract %[[KEYS]][%[[I]]] : tensor<500xi32>
// CHECK:     %[[LAST:.*]] = tensor.extract %{{.*}}[%c2] : tensor<3xi32>
// CHECK:     %[[BEFORE:.*]] = arith.cmpi ult, %[[KEY]], %[[LAST]] : i32
// CHECK:     scf.if %[[BEFORE]] -> (tensor<3xi32>, tensor<2x3xi32>)
// CHECK:       scf.while
func.func @top_k_selection(%a: tensor<2x500xf32>) -> tensor<2x3xi32> {
  %0 = "hlo.argsort"(%a) {dimension = 1 : i64, descending = true, limit = 3 : i64} : (tensor<2x500xf32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// limit 200 of 500: even random rows would insert often; the worst case (every element
// inserted, 200 shifts each) costs more than twice the radix sort, which runs instead, and
// its first 200 positions are the result.
// CHECK-LABEL: func @top_k_by_sorting
// CHECK-NOT: scf.while
// CHECK: arith.shrui
// CHECK: %[[FIRST:.*]] = tensor.extract_slice %{{.*}}[0, 0] [2, 200] [1, 1] : tensor<2x500xi32> to tensor<2x200xi32>
// CHECK: return %[[FIRST]]
func.func @top_k_by_sorting(%a: tensor<2x500xf32>) -> tensor<2x200xi32> {
  %0 = "hlo.argsort"(%a) {dimension = 1 : i64, descending = true, limit = 200 : i64} : (tensor<2x500xf32>) -> tensor<2x200xi32>
  return %0 : tensor<2x200xi32>
}

// -----

// A running reduction of one row (1-D): the running value is a scalar carried by the loop,
// one element extracted, combined and inserted per step (as a one-element tensor its
// buffer was allocated and freed per element).
// CHECK-LABEL: func @running_sum_1d
// CHECK: %[[INIT:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: scf.for %[[K:.*]] = %c0 to %c9 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]], %[[OUT:.*]] = %{{.*}}) -> (f32, tensor<9xf32>)
// CHECK:   %[[X:.*]] = tensor.extract %arg0[%[[K]]] : tensor<9xf32>
// CHECK:   %[[NEXT:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK:   %[[INS:.*]] = tensor.insert %[[NEXT]] into %[[OUT]][%[[K]]] : tensor<9xf32>
// CHECK:   scf.yield %[[NEXT]], %[[INS]] : f32, tensor<9xf32>
func.func @running_sum_1d(%a: tensor<9xf32>) -> tensor<9xf32> {
  %zero = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "hlo.reduce_window"(%a, %zero) {window_dimensions = array<i64: 9>, padding = dense<[[8, 0]]> : tensor<1x2xi64>, kind = "add"} : (tensor<9xf32>, tensor<f32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}

// -----

// Reduced dims with a kept one between them (N, H, W of NCHW): the trailing run (H, W)
// first, from max's identity, into an [N, C] partial; then N into the result from the init.
// A long float sum keeps its partials in f64 (rounded once, at the end).
// CHECK-LABEL: func @reduce_separated_dims
// CHECK: %[[PMAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]{{.*}} outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%[[PMAX]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<3xf32>)
// CHECK:   arith.maximumf
// CHECK: %[[PSUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]{{.*}} outs(%{{.*}} : tensor<2x3xf64>)
// CHECK:   arith.extf
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%[[PSUM]] : tensor<2x3xf64>) outs(%{{.*}} : tensor<3xf64>)
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @reduce_separated_dims(%x: tensor<2x3x40x40xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %ninf = "hlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %zero = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "hlo.reduce"(%x, %ninf) {dimensions = array<i64: 0, 2, 3>, kind = "max"} : (tensor<2x3x40x40xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = "hlo.reduce"(%x, %zero) {dimensions = array<i64: 0, 2, 3>, kind = "add"} : (tensor<2x3x40x40xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// 10,000 point updates added into 64 elements on two threads: an scf.forall gives each
// thread a private copy (a slice of a 2 x 64 tensor filled with add's identity, 0) and
// its 5,000 updates (bounds-checked as always); a reduction over the copies' dim then adds
// them into the operand. On one thread: the serial loop over the updates, in order.
// CHECK-LABEL: func @scatter_private
// CHECK: %[[COPIES:.*]] = scf.forall (%[[C:.*]]) in (2) shared_outs(%[[ALL:.*]] = %{{.*}}) -> (tensor<2x64xf32>)
// CHECK:   %[[OWN:.*]] = tensor.extract_slice %[[ALL]][%[[C]], 0] [1, 64] [1, 1] : tensor<2x64xf32> to tensor<64xf32>
// CHECK:   %[[ZERO:.*]] = linalg.fill ins(%cst : f32) outs(%[[OWN]] : tensor<64xf32>)
// CHECK:   %[[FIRST:.*]] = arith.muli %[[C]], %c5000 : index
// CHECK:   %[[END:.*]] = arith.minsi %{{.*}}, %c10000 : index
// CHECK:   %[[DONE:.*]] = scf.for %{{.*}} = %[[FIRST]] to %[[END]] step %c1 iter_args(%{{.*}} = %[[ZERO]]) -> (tensor<64xf32>)
// CHECK:     scf.if
// CHECK:       arith.addf
// CHECK:   tensor.parallel_insert_slice %[[DONE]] into %[[ALL]][%[[C]], 0] [1, 64] [1, 1]
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[COPIES]] : tensor<2x64xf32>) outs(%arg0 : tensor<64xf32>)
// CHECK:   arith.addf
// CHECK: return %[[SUM]]
// SERIAL-LABEL: func @scatter_private
// SERIAL-NOT: scf.forall
// SERIAL: scf.for %{{.*}} = %c0 to %c10000 step %c1 iter_args(%{{.*}} = %arg0) -> (tensor<64xf32>)
// SERIAL-NOT: scf.forall
// SERIAL: return
func.func @scatter_private(%t: tensor<64xf32>, %i: tensor<10000x1xi32>, %u: tensor<10000xf32>) -> tensor<64xf32> {
  %0 = "hlo.scatter"(%t, %i, %u) {index_vector_dim = 1 : i64, inserted_window_dims = array<i64: 0>, kind = "add", scatter_dims_to_operand_dims = array<i64: 0>, update_window_dims = array<i64>} : (tensor<64xf32>, tensor<10000x1xi32>, tensor<10000xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// A vector times a matrix laid out [contracting, free]: the contracting loop goes outside
// (a reduction, then the free loop, innermost along the matrix's rows and the output).
// A matrix times a vector keeps the usual order (the contraction innermost, along rows).
// CHECK-LABEL: func @vector_matrix
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%arg0, %arg1 : tensor<100xf32>, tensor<100x37xf32>) outs(%{{.*}} : tensor<37xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg1, %arg2 : tensor<100x37xf32>, tensor<37xf32>) outs(%{{.*}} : tensor<100xf32>)
func.func @vector_matrix(%v: tensor<100xf32>, %w: tensor<100x37xf32>, %u: tensor<37xf32>) -> (tensor<37xf32>, tensor<100xf32>) {
  %0 = "hlo.dot_general"(%v, %w) {lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 0>, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<100xf32>, tensor<100x37xf32>) -> tensor<37xf32>
  %1 = "hlo.dot_general"(%w, %u) {lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<100x37xf32>, tensor<37xf32>) -> tensor<100xf32>
  return %0, %1 : tensor<37xf32>, tensor<100xf32>
}

// -----

// No contracting dims (a scalar times a vector, fuzz run 30): all loops parallel, the
// vector-matrix order does not apply.
// CHECK-LABEL: func @scalar_times_vector
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<i16>, tensor<5xi16>)
// CHECK:   arith.muli
// CHECK:   arith.addi
func.func @scalar_times_vector(%a: tensor<i16>, %b: tensor<5xi16>) -> tensor<5xi16> {
  %0 = "hlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64>} : (tensor<i16>, tensor<5xi16>) -> tensor<5xi16>
  return %0 : tensor<5xi16>
}
