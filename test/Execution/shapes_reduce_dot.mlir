// REQUIRES: host-supports-jit
// RUN: mlc-run %s --entry shapes | FileCheck %s --check-prefix=SHAPES
// RUN: mlc-run %s --entry reductions | FileCheck %s --check-prefix=REDUCE
// RUN: mlc-run %s --entry matmul | FileCheck %s --check-prefix=DOT
// RUN: mlc-run %s --entry control_flow | FileCheck %s --check-prefix=CF

// iota -> reshape -> transpose -> broadcast.
// SHAPES: array({{\[}}[0, 3],
// SHAPES-NEXT: [1, 4],
// SHAPES-NEXT: [2, 5]], dtype=int32)
// SHAPES-NEXT: array({{\[\[\[}}0., 1., 2.],
// SHAPES-NEXT: [0., 1., 2.]],
func.func @shapes() -> (tensor<3x2xi32>, tensor<2x2x3xf32>) {
  %i = "hlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<6xi32>
  %r = "hlo.reshape"(%i) : (tensor<6xi32>) -> tensor<2x3xi32>
  %t = "hlo.transpose"(%r) {permutation = array<i64: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %f = "hlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x3xf32>
  %b = "hlo.broadcast_in_dim"(%f) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<1x3xf32>) -> tensor<2x2x3xf32>
  return %t, %b : tensor<3x2xi32>, tensor<2x2x3xf32>
}

// Every reduce kind; the init value takes part once.
// REDUCE: array([ 5, 14])
// REDUCE-NEXT: array([ 0, 60])
// REDUCE-NEXT: array([2, 5])
// REDUCE-NEXT: array([-1, -1])
// REDUCE-NEXT: array(0)
// REDUCE-NEXT: array(7)
// REDUCE-NEXT: array(0)
// REDUCE-NEXT: array([False,  True])
func.func @reductions() -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<2xi1>) {
  %x = "hlo.constant"() {value = dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>} : () -> tensor<2x3xi64>
  %z = "hlo.constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %one = "hlo.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %m1 = "hlo.constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %zero = "hlo.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %add = "hlo.reduce"(%x, %z) {dimensions = array<i64: 1>, kind = "add"} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  %mul = "hlo.reduce"(%x, %one) {dimensions = array<i64: 1>, kind = "mul"} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  %max = "hlo.reduce"(%x, %z) {dimensions = array<i64: 1>, kind = "max"} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  %min = "hlo.reduce"(%x, %m1) {dimensions = array<i64: 1>, kind = "min"} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  %and = "hlo.reduce"(%x, %m1) {dimensions = array<i64: 0, 1>, kind = "and"} : (tensor<2x3xi64>, tensor<i64>) -> tensor<i64>
  %or = "hlo.reduce"(%x, %zero) {dimensions = array<i64: 0, 1>, kind = "or"} : (tensor<2x3xi64>, tensor<i64>) -> tensor<i64>
  %xor = "hlo.reduce"(%x, %one) {dimensions = array<i64: 0, 1>, kind = "xor"} : (tensor<2x3xi64>, tensor<i64>) -> tensor<i64>
  %p = "hlo.constant"() {value = dense<[[true, false], [true, true]]> : tensor<2x2xi1>} : () -> tensor<2x2xi1>
  %t = "hlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %all = "hlo.reduce"(%p, %t) {dimensions = array<i64: 1>, kind = "and"} : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  return %add, %mul, %max, %min, %and, %or, %xor, %all : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<2xi1>
}

// [[1, 2], [3, 4]] @ [[5, 6], [7, 8]].
// DOT: array({{\[}}[19., 22.],
// DOT-NEXT: [43., 50.]], dtype=float32)
func.func @matmul() -> tensor<2x2xf32> {
  %a = "hlo.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %b = "hlo.constant"() {value = dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %0 = "hlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// hlo ops inside scf.while and scf.if, and tensor.concat: sum of 1..5 by a loop, then
// doubled by a branch, concatenated with itself.
// CF: array([30, 30], dtype=int32)
func.func @control_flow() -> tensor<2xi32> {
  %zero = "hlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "hlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %five = "hlo.constant"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %r:2 = scf.while (%i = %one, %acc = %zero) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %le = "hlo.compare"(%i, %five) {comparison_direction = "LE"} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c = tensor.extract %le[] : tensor<i1>
    scf.condition(%c) %i, %acc : tensor<i32>, tensor<i32>
  } do {
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>):
    %next = "hlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %sum = "hlo.add"(%acc, %i) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    scf.yield %next, %sum : tensor<i32>, tensor<i32>
  }
  %big = "hlo.compare"(%r#1, %five) {comparison_direction = "GT"} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %p = tensor.extract %big[] : tensor<i1>
  %d = scf.if %p -> tensor<i32> {
    %twice = "hlo.add"(%r#1, %r#1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    scf.yield %twice : tensor<i32>
  } else {
    scf.yield %r#1 : tensor<i32>
  }
  %v = "hlo.reshape"(%d) : (tensor<i32>) -> tensor<1xi32>
  %cat = tensor.concat dim(0) %v, %v : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  return %cat : tensor<2xi32>
}
