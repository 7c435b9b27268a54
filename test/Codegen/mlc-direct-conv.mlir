// mlc-direct-conv: a 2-D NHWC x HWIO convolution on buffers becomes the direct kernel: the
// weights packed once into zero-padded NR-wide panels, then register tiles of MR output
// pixels x NR channels whose K loop reads the input in place (no im2col buffer).
// AVX2 (default prefix): 6 x 16 f32 tiles, two vector<8xf32> per pixel, one thread; prefix
// WIDE for AVX-512 on two threads, 8 x 32 tiles of vector<16xf32>, the pixels split by an scf.forall.
// RUN: mlc-opt %s --split-input-file --mlc-direct-conv="register-bits=256 threads=1" | FileCheck %s
// RUN: mlc-opt %s --split-input-file --mlc-direct-conv="register-bits=512 threads=2" | FileCheck %s --check-prefix=WIDE

// 3x3, 64 -> 64 channels, 'same' (the input already padded): K = 576 > KC, so the K loop is
// cut into the taps of each kernel row (kw and ci merged: a run of 192 input elements); the
// zero fill before the convolution is dropped and the first K block overwrites the output.
// CHECK-LABEL: func @conv3x3
// CHECK-NOT: linalg.fill
// CHECK: memref.alloc() {alignment = 64 : i64, mlc.direct_conv} : memref<36864xf32>
// CHECK: vector.transfer_read {{.*}} : memref<576x64xf32, strided<[64, 1], offset: ?>>, vector<16xf32>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c3 step %c1
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c192 step %c192
// CHECK: scf.for {{.*}} step %c2{{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-24: arith.addf {{.*}} fastmath<contract> : vector<8xf32>
// CHECK: arith.select
// CHECK: vector.transfer_write {{.*}} : vector<8xf32>, memref<3136x64xf32, strided<[64, 1], offset: ?>>
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// CHECK: memref.dealloc
// WIDE-LABEL: func @conv3x3
// WIDE: memref.alloc() {alignment = 64 : i64, mlc.direct_conv} : memref<36864xf32>
// WIDE: scf.forall (%{{.*}}) in (2)
// WIDE: iter_args({{.*}}) -> (vector<16xf32>,
// WIDE-COUNT-32: arith.addf {{.*}} fastmath<contract> : vector<16xf32>
func.func @conv3x3(%x: memref<1x58x58x64xf32>, %w: memref<3x3x64x64xf32>, %o: memref<1x56x56x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%o : memref<1x56x56x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x58x58x64xf32>, memref<3x3x64x64xf32>) outs(%o : memref<1x56x56x64xf32>)
  return
}

// -----

// Small depth (3x3x3 = 27 <= KC): one K loop per tile over the 3 kernel rows (runs of
// kw * ci = 9), the sum kept in registers across them; 17 output channels are two 16-wide
// panels, the second zero padded (a masked transfer_read when packing: no in_bounds) and masked
// on store; 5x5 = 25 pixels are 4 full tiles and one of 1 (rows past 25 skipped).
// Without a zero fill before it the convolution accumulates into the output.
// CHECK-LABEL: func @conv_odd
// CHECK: memref.alloc() {alignment = 64 : i64, mlc.direct_conv} : memref<864xf32>
// CHECK: vector.transfer_read %{{.*}}, %cst{{[_0-9]*}} : memref<27x17xf32, strided<[17, 1], offset: ?>>, vector<16xf32>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c1{{.*}} iter_args
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c9{{.*}} step %c1{{.*}} iter_args
// CHECK: arith.cmpi slt
// CHECK: vector.transfer_read %{{.*}}, %cst{{[_0-9]*}} : memref<25x17xf32, strided<[17, 1], offset: ?>>, vector<8xf32>
// CHECK: vector.transfer_write %{{.*}}] : vector<8xf32>, memref<25x17xf32, strided<[17, 1], offset: ?>>
func.func @conv_odd(%x: memref<1x7x7x3xf32>, %w: memref<3x3x3x17xf32>, %o: memref<1x5x5x17xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x7x7x3xf32>, memref<3x3x3x17xf32>) outs(%o : memref<1x5x5x17xf32>)
  return
}

// -----

// Kernel dilation 2 along W: the kw taps are not contiguous with the channels, so each of
// the 9 taps is its own run of ci = 4 (tap offsets from kh * dh and kw * dw); f64 on AVX2 is
// 6 x 8 tiles of two vector<4xf64>.
// CHECK-LABEL: func @conv_dilated_f64
// CHECK: memref.alloc() {alignment = 64 : i64, mlc.direct_conv} : memref<288xf64>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c9{{.*}} step %c1{{.*}} iter_args
// CHECK: arith.divui
// CHECK: arith.remui
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c2{{.*}} iter_args({{.*}}) -> (vector<4xf64>,
func.func @conv_dilated_f64(%x: memref<2x9x9x4xf64>, %w: memref<3x3x4x8xf64>, %o: memref<2x3x5x8xf64>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[3, 1]> : tensor<2xi64>}
    ins(%x, %w : memref<2x9x9x4xf64>, memref<3x3x4x8xf64>) outs(%o : memref<2x3x5x8xf64>)
  return
}

// -----

// Depthwise, vectorized over channels: tiles of 6 pixels x 16 channels (AVX2); per tap one
// weight vector load per 8 channels shared by the 6 pixels' input loads; 20 channels are one
// full chunk and a tail of 4 (one masked vector). mlc.zero_init: the output is overwritten.
// CHECK-LABEL: func @depthwise
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c50 step %c6
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c16 step %c16
// CHECK: scf.for {{.*}} to %c3{{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: scf.for {{.*}} to %c3{{.*}} iter_args
// CHECK-COUNT-14: vector.load
// CHECK-NOT: vector.load
// CHECK: vector.store {{.*}} {mlc.direct_conv}
// CHECK: vector.create_mask %c4{{.*}} : vector<8xi1>
// CHECK: vector.maskedload
// CHECK: vector.maskedstore {{.*}} {mlc.direct_conv}
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwc
// WIDE-LABEL: func @depthwise
// WIDE: vector.create_mask %c4{{.*}} : vector<16xi1>
func.func @depthwise(%x: memref<2x7x7x20xf32>, %w: memref<3x3x20xf32>, %o: memref<2x5x5x20xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, mlc.zero_init}
    ins(%x, %w : memref<2x7x7x20xf32>, memref<3x3x20xf32>) outs(%o : memref<2x5x5x20xf32>)
  return
}
