// The op families beyond the skeleton, JIT-run through mlc-run.
// REQUIRES: host-supports-jit
// RUN: mlc-run %s --entry windows | FileCheck %s --check-prefix=WIN
// RUN: mlc-run %s --entry indexing | FileCheck %s --check-prefix=IDX
// RUN: mlc-run %s --entry sorting | FileCheck %s --check-prefix=SORT
// RUN: mlc-run %s --entry conv | FileCheck %s --check-prefix=CONV
// RUN: mlc-run %s --entry switch | FileCheck %s --check-prefix=SWITCH
// RUN: mlc-run %s --entry unsigned_math | FileCheck %s --check-prefix=UNSIGNED

// 2x2 max pooling with stride 2 over iota(4x4), and argmax per row.
// WIN: array({{\[\[}} 5.,  7.],
// WIN-NEXT: [13., 15.]], dtype=float32)
// WIN-NEXT: array([3, 3, 3, 3])
func.func @windows() -> (tensor<2x2xf32>, tensor<4xi64>) {
  %i = "hlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<16xf32>
  %x = "hlo.reshape"(%i) : (tensor<16xf32>) -> tensor<4x4xf32>
  %ninf = "hlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %0 = "hlo.reduce_window"(%x, %ninf) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, kind = "max"} : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
  %1 = "hlo.argmax"(%x) {dimension = 1 : i64} : (tensor<4x4xf32>) -> tensor<4xi64>
  return %0, %1 : tensor<2x2xf32>, tensor<4xi64>
}

// Rows 2, 0 and 9 (clamped to 3) of a 4x2 table, then 1 added to rows 0 and 0 again.
// IDX: array({{\[\[}}4, 5],
// IDX-NEXT: [0, 1],
// IDX-NEXT: [6, 7]], dtype=int32)
// IDX-NEXT: array({{\[\[}}2, 3],
func.func @indexing() -> (tensor<3x2xi32>, tensor<4x2xi32>) {
  %i = "hlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<8xi32>
  %t = "hlo.reshape"(%i) : (tensor<8xi32>) -> tensor<4x2xi32>
  %rows = "hlo.constant"() {value = dense<[2, 0, 9]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "hlo.gather"(%t, %rows) {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 2>} : (tensor<4x2xi32>, tensor<3xi32>) -> tensor<3x2xi32>
  %where = "hlo.constant"() {value = dense<[0, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %ones = "hlo.constant"() {value = dense<1> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %1 = "hlo.scatter"(%t, %where, %ones) {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, kind = "add"} : (tensor<4x2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
  return %0, %1 : tensor<3x2xi32>, tensor<4x2xi32>
}

// SORT: array([-1. ,  0.5,  2. ,  3. ,  nan], dtype=float32)
// SORT-NEXT: array([1, 4, 3, 0, 2], dtype=int32)
func.func @sorting() -> (tensor<5xf32>, tensor<5xi32>) {
  %x = "hlo.constant"() {value = dense<[3.0, -1.0, 0x7FC00000, 2.0, 0.5]> : tensor<5xf32>} : () -> tensor<5xf32>
  %0 = "hlo.sort"(%x) {dimension = 0 : i64} : (tensor<5xf32>) -> tensor<5xf32>
  %1 = "hlo.argsort"(%x) {dimension = 0 : i64} : (tensor<5xf32>) -> tensor<5xi32>
  return %0, %1 : tensor<5xf32>, tensor<5xi32>
}

// A 1-d convolution of [0, 1, 2, 3, 4] with the kernel [1, 1] (a moving sum), padded by one.
// CONV: array({{\[\[\[}}0., 1., 3., 5., 7., 4.]]], dtype=float32)
func.func @conv() -> tensor<1x1x6xf32> {
  %i = "hlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x1x5xf32>
  %k = "hlo.constant"() {value = dense<1.0> : tensor<1x1x2xf32>} : () -> tensor<1x1x2xf32>
  %0 = "hlo.convolution"(%i, %k) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x1x5xf32>, tensor<1x1x2xf32>) -> tensor<1x1x6xf32>
  return %0 : tensor<1x1x6xf32>
}

// scf.index_switch over tensors with hlo ops in its regions: case 1 negates.
// SWITCH: array([-1., -2.], dtype=float32)
func.func @switch() -> tensor<2xf32> {
  %x = "hlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "hlo.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %v = tensor.extract %c[] : tensor<i64>
  %i = arith.index_cast %v : i64 to index
  %r = scf.index_switch %i -> tensor<2xf32>
  case 0 {
    %e = "hlo.exponential"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %e : tensor<2xf32>
  }
  case 1 {
    %n = "hlo.negate"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %n : tensor<2xf32>
  }
  default {
    scf.yield %x : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// Unsigned arithmetic: 250 + 10 wraps to 4; 200 / 0 is all ones; 200 > 100 unsigned.
// UNSIGNED: array([  4, 255], dtype=uint8)
// UNSIGNED-NEXT: array(True)
func.func @unsigned_math() -> (tensor<2xui8>, tensor<i1>) {
  %a = "hlo.constant"() {value = dense<[250, 200]> : tensor<2xui8>} : () -> tensor<2xui8>
  %b = "hlo.constant"() {value = dense<[10, 0]> : tensor<2xui8>} : () -> tensor<2xui8>
  %s = "hlo.add"(%a, %b) : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %d = "hlo.divide"(%a, %b) : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %p = "hlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<2xi32>
  %zero = "hlo.constant"() {value = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %first = "hlo.compare"(%p, %zero) {comparison_direction = "EQ"} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %out = "hlo.select"(%first, %s, %d) : (tensor<2xi1>, tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %x = "hlo.constant"() {value = dense<200> : tensor<ui8>} : () -> tensor<ui8>
  %y = "hlo.constant"() {value = dense<100> : tensor<ui8>} : () -> tensor<ui8>
  %gt = "hlo.compare"(%x, %y) {comparison_direction = "GT"} : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
  return %out, %gt : tensor<2xui8>, tensor<i1>
}
