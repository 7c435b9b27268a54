// REQUIRES: host-supports-jit
// RUN: mlc-run %s --entry arithmetic | FileCheck %s --check-prefix=ARITH
// RUN: mlc-run %s --entry integer_division | FileCheck %s --check-prefix=DIV
// RUN: mlc-run %s --entry transcendental | FileCheck %s --check-prefix=TRANS
// RUN: mlc-run %s --entry compare_select | FileCheck %s --check-prefix=SELECT
// RUN: mlc-run %s --entry convert | FileCheck %s --check-prefix=CONVERT

// ARITH: array([ 2.  , -4.  ,  9.25, -4.  ], dtype=float32)
func.func @arithmetic() -> tensor<4xf32> {
  %a = "hlo.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %b = "hlo.constant"() {value = dense<[0.5, -3.0, 4.0, -4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.multiply"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "hlo.maximum"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = "hlo.subtract"(%2, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = "hlo.divide"(%3, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = "hlo.negate"(%4) : (tensor<4xf32>) -> tensor<4xf32>
  %6 = "hlo.abs"(%5) : (tensor<4xf32>) -> tensor<4xf32>
  %7 = "hlo.minimum"(%6, %3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %8 = "hlo.add"(%7, %0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %8 : tensor<4xf32>
}

// x/0 = -1 and INT_MIN/-1 = INT_MIN, as XLA defines them; division truncates toward zero.
// DIV: array([         -3,          -1, -2147483648,           2], dtype=int32)
func.func @integer_division() -> tensor<4xi32> {
  %a = "hlo.constant"() {value = dense<[-7, 5, -2147483648, 9]> : tensor<4xi32>} : () -> tensor<4xi32>
  %b = "hlo.constant"() {value = dense<[2, 0, -1, 4]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "hlo.divide"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// exp, log, tanh, sqrt, rsqrt on f64.
// TRANS: array([2.        , 0.76159416, 0.5       , 1.        ])
func.func @transcendental() -> tensor<4xf64> {
  %x = "hlo.constant"() {value = dense<[4.0, 1.0, 4.0, 0.0]> : tensor<4xf64>} : () -> tensor<4xf64>
  %s = "hlo.sqrt"(%x) : (tensor<4xf64>) -> tensor<4xf64>
  %t = "hlo.tanh"(%x) : (tensor<4xf64>) -> tensor<4xf64>
  %r = "hlo.rsqrt"(%x) : (tensor<4xf64>) -> tensor<4xf64>
  %e = "hlo.exponential"(%x) : (tensor<4xf64>) -> tensor<4xf64>
  %l = "hlo.log"(%e) : (tensor<4xf64>) -> tensor<4xf64>
  %i = "hlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi32>
  %c1 = "hlo.constant"() {value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
  %c2 = "hlo.constant"() {value = dense<2> : tensor<4xi32>} : () -> tensor<4xi32>
  %c3 = "hlo.constant"() {value = dense<3> : tensor<4xi32>} : () -> tensor<4xi32>
  %p0 = "hlo.compare"(%i, %c1) {comparison_direction = "LT"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %p1 = "hlo.compare"(%i, %c1) {comparison_direction = "EQ"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %p2 = "hlo.compare"(%i, %c2) {comparison_direction = "EQ"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // [sqrt 4, tanh 1, rsqrt 4, log(exp 0)] built with selects.
  %a = "hlo.select"(%p2, %r, %l) : (tensor<4xi1>, tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %b = "hlo.select"(%p1, %t, %a) : (tensor<4xi1>, tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %c = "hlo.select"(%p0, %s, %b) : (tensor<4xi1>, tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %one = "hlo.constant"() {value = dense<1.0> : tensor<4xf64>} : () -> tensor<4xf64>
  %p3 = "hlo.compare"(%i, %c3) {comparison_direction = "EQ"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %d = "hlo.add"(%c, %one) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %out = "hlo.select"(%p3, %d, %c) : (tensor<4xi1>, tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %out : tensor<4xf64>
}

// Float NE is true for NaN; unsigned compare sees -1 as the largest value; 0-d pred selects whole tensors.
// SELECT: array([ True, False,  True])
// SELECT-NEXT: array([ True, False, False])
// SELECT-NEXT: array([7, 8, 9])
func.func @compare_select() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi64>) {
  %a = "hlo.constant"() {value = dense<[0x7FC00000, 1.0, 2.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %b = "hlo.constant"() {value = dense<[0x7FC00000, 1.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %ne = "hlo.compare"(%a, %b) {comparison_direction = "NE"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %i = "hlo.constant"() {value = dense<[-1, 1, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
  %j = "hlo.constant"() {value = dense<[5, 5, 5]> : tensor<3xi64>} : () -> tensor<3xi64>
  %gt = "hlo.compare"(%i, %j) {comparison_direction = "GT", compare_type = "UNSIGNED"} : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  %p = "hlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %k = "hlo.constant"() {value = dense<[7, 8, 9]> : tensor<3xi64>} : () -> tensor<3xi64>
  %s = "hlo.select"(%p, %i, %k) : (tensor<i1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %ne, %gt, %s : tensor<3xi1>, tensor<3xi1>, tensor<3xi64>
}

// float -> int truncates toward zero, saturates, and maps NaN to 0; anything -> i1 is x != 0.
// CONVERT: array([         -2,           2,  2147483647, -2147483648,           0], dtype=int32)
// CONVERT-NEXT: array([ True,  True,  True,  True,  True])
// CONVERT-NEXT: array([0, 1], dtype=int8)
func.func @convert() -> (tensor<5xi32>, tensor<5xi1>, tensor<2xi8>) {
  %a = "hlo.constant"() {value = dense<[-2.7, 2.7, 1.0e10, -1.0e10, 0x7FC00000]> : tensor<5xf32>} : () -> tensor<5xf32>
  %0 = "hlo.convert"(%a) : (tensor<5xf32>) -> tensor<5xi32>
  %1 = "hlo.convert"(%a) : (tensor<5xf32>) -> tensor<5xi1>
  %b = "hlo.constant"() {value = dense<[256, 257]> : tensor<2xi32>} : () -> tensor<2xi32>
  %2 = "hlo.convert"(%b) : (tensor<2xi32>) -> tensor<2xi8>
  return %0, %1, %2 : tensor<5xi32>, tensor<5xi1>, tensor<2xi8>
}
