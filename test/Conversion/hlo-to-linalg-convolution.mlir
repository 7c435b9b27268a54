// Plain 2-D convolutions: the direct path (a named linalg.conv_2d_nhwc_hwcf, which
// mlc-direct-conv lowers) or im2col + one named matmul, by the rule in
// conversion/hlo_to_linalg/convolution.py. The default prefix runs with BLAS on and 256-bit
// vectors (the wide strided case below is im2col); NOBLAS with BLAS off, and with BLAS on
// and 512-bit vectors (im2col's f32 GEMM would be MLC's own there too: blas.size_floor).
// RUN: mlc-opt %s --split-input-file --blas --vector-bits 256 --hlo-to-linalg | FileCheck %s
// RUN: mlc-opt %s --split-input-file --no-blas --hlo-to-linalg | FileCheck %s --check-prefix=NOBLAS
// RUN: mlc-opt %s --split-input-file --blas --vector-bits 512 --hlo-to-linalg | FileCheck %s --check-prefix=NOBLAS

// NHWC x HWIO, stride 2, 'same' padding: the input inserted into an empty padded tensor and
// only the borders zeroed (one slab per padded side: H slabs over the interior columns, W
// slabs over the whole padded height); the output zero filled; one named convolution
// carrying the strides and dilations, marked mlc.zero_init (its init is that zero fill, so
// mlc-direct-conv overwrites the output and drops the fill wherever it ends up) and mlc.pad
// with the low padding (a call of the precompiled kernel writes the padded copy itself).
// CHECK-LABEL: func @direct_nhwc
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<3x19x19x5xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[EMPTY]][0, 1, 1, 0] [3, 17, 17, 5] [1, 1, 1, 1] : tensor<3x17x17x5xf32> into tensor<3x19x19x5xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 0] [3, 1, 17, 5] [1, 1, 1, 1] : tensor<3x1x17x5xf32> into tensor<3x19x19x5xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 18, 1, 0] [3, 1, 17, 5] [1, 1, 1, 1] : tensor<3x1x17x5xf32> into tensor<3x19x19x5xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 0] [3, 19, 1, 5] [1, 1, 1, 1] : tensor<3x19x1x5xf32> into tensor<3x19x19x5xf32>
// CHECK: %[[PAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 18, 0] [3, 19, 1, 5] [1, 1, 1, 1] : tensor<3x19x1x5xf32> into tensor<3x19x19x5xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<3x9x9x7xf32>)
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, mlc.pad = array<i64: 1, 1>, mlc.zero_init, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %{{.*}} : tensor<3x19x19x5xf32>, tensor<3x3x5x7xf32>) outs(%[[INIT]] : tensor<3x9x9x7xf32>)
// CHECK-NOT: linalg.copy
// CHECK-NOT: linalg.matmul
// CHECK: return %[[CONV]]
func.func @direct_nhwc(%x: tensor<3x17x17x5xf32>, %w: tensor<3x3x5x7xf32>) -> tensor<3x9x9x7xf32> {
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 2, 2>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<3x17x17x5xf32>, tensor<3x3x5x7xf32>) -> tensor<3x9x9x7xf32>
  return %0 : tensor<3x9x9x7xf32>
}

// -----

// NCHW / OIHW operands are transposed to NHWC / HWIO around the direct convolution, the NHWC
// result back to NCHW.
// CHECK-LABEL: func @direct_nchw
// CHECK: %[[W:.*]] = linalg.transpose ins(%{{.*}} : tensor<3x2x3x3xf32>) {{.*}} permutation = [2, 3, 1, 0]
// CHECK: %[[X:.*]] = linalg.transpose ins(%{{.*}} : tensor<1x2x6x6xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[X]], %[[W]] : tensor<1x6x6x2xf32>, tensor<3x3x2x3xf32>) outs(%{{.*}} : tensor<1x4x4x3xf32>)
// CHECK: linalg.transpose ins(%[[CONV]] : tensor<1x4x4x3xf32>) {{.*}} permutation = [0, 3, 1, 2]
func.func @direct_nchw(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32> {
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2, 3>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2, 3>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2, 3>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

// Kernel dilation 2 along H, stride 2, no padding: the input is cut to the rows and columns
// some window reads (7 of 8), so the named op's operands match its loops exactly.
// CHECK-LABEL: func @direct_dilated_valid
// CHECK: %[[READ:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 9, 7, 3] [1, 1, 1, 1] : tensor<1x10x8x3xf64> to tensor<1x9x7x3xf64>
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, mlc.zero_init, strides = dense<2> : tensor<2xi64>} ins(%[[READ]], %{{.*}} : tensor<1x9x7x3xf64>, tensor<3x3x3x4xf64>) outs(%{{.*}} : tensor<1x3x3x4xf64>)
func.func @direct_dilated_valid(%x: tensor<1x10x8x3xf64>, %w: tensor<3x3x3x4xf64>) -> tensor<1x3x3x4xf64> {
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 2, 2>, rhs_dilation = array<i64: 2, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x10x8x3xf64>, tensor<3x3x3x4xf64>) -> tensor<1x3x3x4xf64>
  return %0 : tensor<1x3x3x4xf64>
}

// -----

// Wide and strided (128 -> 256 channels, stride 2, 784 output pixels, 2^27.8 multiply-adds):
// with BLAS on, im2col (one strided copy per tap) and one matmul that OpenBLAS runs; with
// BLAS off the direct path.
// CHECK-LABEL: func @im2col_wide_strided
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// CHECK-COUNT-9: linalg.copy
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<784x1152xf32>, tensor<1152x256xf32>)
// NOBLAS-LABEL: func @im2col_wide_strided
// NOBLAS-NOT: linalg.copy
// NOBLAS: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, mlc.pad = array<i64: 0, 0>, mlc.zero_init, strides = dense<2> : tensor<2xi64>} {{.*}} -> tensor<4x14x14x256xf32>
// NOBLAS-NOT: linalg.matmul
func.func @im2col_wide_strided(%x: tensor<4x28x28x128xf32>, %w: tensor<3x3x128x256xf32>) -> tensor<4x14x14x256xf32> {
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 2, 2>, padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<4x28x28x128xf32>, tensor<3x3x128x256xf32>) -> tensor<4x14x14x256xf32>
  return %0 : tensor<4x14x14x256xf32>
}

// -----

// The same channels at stride 1 and 128 input channels: direct whatever BLAS does.
// CHECK-LABEL: func @direct_wide_unit_stride
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
func.func @direct_wide_unit_stride(%x: tensor<4x14x14x128xf32>, %w: tensor<3x3x128x256xf32>) -> tensor<4x14x14x256xf32> {
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<4x14x14x128xf32>, tensor<3x3x128x256xf32>) -> tensor<4x14x14x256xf32>
  return %0 : tensor<4x14x14x256xf32>
}

// -----

// Depthwise (feature_group_count = channels, one input channel per group): the kernel's
// unit input-feature dim is collapsed away and one named depthwise convolution runs on the
// padded input, marked mlc.zero_init (its init is the zero fill: the kernel overwrites) and
// mlc.pad (the low padding [top, left]: mlc-direct-conv reads the unpadded source in place).
// CHECK-LABEL: func @depthwise
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 1, 0] [3, 17, 17, 5] [1, 1, 1, 1]
// CHECK: %[[PAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 18, 0] [3, 19, 1, 5] [1, 1, 1, 1]
// CHECK: %[[W:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<3x3x1x5xf32> into tensor<3x3x5xf32>
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, mlc.pad = array<i64: 1, 1>, mlc.zero_init, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %[[W]] : tensor<3x19x19x5xf32>, tensor<3x3x5xf32>) outs(%[[INIT]] : tensor<3x9x9x5xf32>)
// CHECK-NOT: linalg.generic
func.func @depthwise(%x: tensor<3x17x17x5xf32>, %w: tensor<3x3x1x5xf32>) -> tensor<3x9x9x5xf32> {
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 2, 2>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, feature_group_count = 5 : i64, batch_group_count = 1 : i64} : (tensor<3x17x17x5xf32>, tensor<3x3x1x5xf32>) -> tensor<3x9x9x5xf32>
  return %0 : tensor<3x9x9x5xf32>
}

// -----

// A channel multiplier of 2 (10 output channels from 5 groups) keeps the generic grouped loop nest.
// CHECK-LABEL: func @depthwise_multiplier
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK: linalg.generic
func.func @depthwise_multiplier(%x: tensor<1x6x6x5xf32>, %w: tensor<3x3x1x10xf32>) -> tensor<1x4x4x10xf32> {
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, feature_group_count = 5 : i64, batch_group_count = 1 : i64} : (tensor<1x6x6x5xf32>, tensor<3x3x1x10xf32>) -> tensor<1x4x4x10xf32>
  return %0 : tensor<1x4x4x10xf32>
}
