// mlc-direct-conv: a 2-D NHWC x HWIO convolution on buffers becomes the direct kernel: the
// weights packed once into zero-padded NR-wide panels, then register tiles of MR output
// pixels x NR channels whose K loop reads the input in place (no im2col buffer).
// AVX2 (default prefix): 6 x 16 f32 tiles, two vector<8xf32> per pixel, one thread; prefix
// WIDE for AVX-512 on two threads, 8 x 32 tiles of vector<16xf32>, the pixels split by an scf.forall.
// Prefix KERNEL, the same with MLC's precompiled kernels on (codegen/conv_library.py): a dense conv
// whose tiles need no epilogue becomes a call of the variant for its type, taps and depth.
// RUN: mlc-opt %s --split-input-file --no-gemm-kernels --mlc-direct-conv="register-bits=256 threads=1" | FileCheck %s
// RUN: mlc-opt %s --split-input-file --no-gemm-kernels --mlc-direct-conv="register-bits=512 threads=2" | FileCheck %s --check-prefix=WIDE
// RUN: mlc-opt %s --split-input-file --mlc-direct-conv="register-bits=512 threads=2" | FileCheck %s --check-prefix=KERNEL

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
// KERNEL: func.func private @mlc_conv_f32_mb_t2_v512(
// KERNEL-LABEL: func @conv3x3
// KERNEL-NOT: linalg.fill
// KERNEL: call @mlc_conv_f32_mb_t2_v512(%c1{{[_0-9]*}}, %c56{{[_0-9]*}}, %c56{{[_0-9]*}}, %c64{{[_0-9]*}}, %c64{{[_0-9]*}}, %c3{{[_0-9]*}}, %c3{{[_0-9]*}},
// KERNEL-NOT: scf.for
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
// KERNEL-LABEL: func @conv_odd
// KERNEL: %false = arith.constant false
// KERNEL: call @mlc_conv_f32_mw_t1_v512(%c1{{[_0-9]*}}, %c5{{[_0-9]*}}, %c5{{[_0-9]*}}, %c3{{[_0-9]*}}, %c17{{[_0-9]*}}, %c3{{[_0-9]*}}, %c3{{[_0-9]*}}, {{.*}}, %false{{[_0-9]*}}, %false{{[_0-9]*}},
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
// KERNEL-LABEL: func @conv_dilated_f64
// KERNEL: call @mlc_conv_f64_sw_t1_v512(%c2{{[_0-9]*}}, %c3{{[_0-9]*}}, %c5{{[_0-9]*}}, %c4{{[_0-9]*}}, %c8{{[_0-9]*}}, %c3{{[_0-9]*}}, %c3{{[_0-9]*}}, %c3{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}}, %c2{{[_0-9]*}},
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

// -----

// Padding inside the depthwise kernel: hlo-to-linalg's mlc.pad says the input is %x zero
// padded by [1, 1] at the top/left; the kernel reads %x itself and the padded buffer's
// writers (the fill and the interior copy) are erased. Output rows one at a time: on a row
// inside the source vertically, the columns whose windows stay inside run as 6-pixel tiles
// (here [1, 7): one tile), the others (the row's edges, rows 0 and 7) one pixel at a time,
// over the taps inside the source only: [max(ceil(-origin / d), 0), min(ceil((8 - origin) / d), 3)).
// (8 channels: one masked chunk of 8 lanes, a tile of 6 pixels x 1 vector.)
// CHECK-LABEL: func @depthwise_padded
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.copy
// CHECK: memref.extract_strided_metadata %arg0
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c16 step %c1
// CHECK: %[[A:.*]] = arith.select {{.*}}, %c1{{.*}}, %c0
// CHECK: %[[E:.*]] = arith.select {{.*}}, %c7{{.*}}, %c0
// CHECK: scf.for {{.*}} = %[[A]] to %[[E]] step %c6
// CHECK: iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.maskedstore {{.*}} {mlc.direct_conv}
// CHECK: scf.for {{.*}} = %c0{{.*}} to %[[A]] step %c1
// CHECK: arith.ceildivsi
// CHECK: arith.maxsi
// CHECK: arith.ceildivsi
// CHECK: arith.minsi {{.*}}, %c3
// CHECK: scf.for %{{.*}} = %[[HLO:.*]] to %[[HHI:.*]] step %c1{{.*}} iter_args({{.*}}) -> (vector<8xf32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1{{.*}} iter_args({{.*}}) -> (vector<8xf32>)
// CHECK: scf.for {{.*}} = %[[E]] to %c8{{.*}} step %c1
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise_padded(%x: memref<2x8x8x8xf32>, %w: memref<3x3x8xf32>, %o: memref<2x8x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x10x10x8xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<2x10x10x8xf32>)
  %interior = memref.subview %p[0, 1, 1, 0] [2, 8, 8, 8] [1, 1, 1, 1] : memref<2x10x10x8xf32> to memref<2x8x8x8xf32, strided<[800, 80, 8, 1], offset: 88>>
  linalg.copy ins(%x : memref<2x8x8x8xf32>) outs(%interior : memref<2x8x8x8xf32, strided<[800, 80, 8, 1], offset: 88>>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, mlc.zero_init, mlc.pad = array<i64: 1, 1>}
    ins(%p, %w : memref<2x10x10x8xf32>, memref<3x3x8xf32>) outs(%o : memref<2x8x8x8xf32>)
  memref.dealloc %p : memref<2x10x10x8xf32>
  return
}

// -----

// The elementwise consumer of a convolution's output (a batch norm's scale and shift per
// channel, then ReLU) is applied to each register tile before the store, which goes to the
// consumer's output: the conv's own buffer is never written, the generic is erased.
// CHECK-LABEL: func @pointwise_epilogue
// CHECK-NOT: linalg.generic
// CHECK: iter_args({{.*}}) -> (vector<8xf32>,
// CHECK: vector.load %{{.*}} : memref<16xf32, strided<[1], offset: ?>>, vector<8xf32>
// CHECK: arith.mulf %{{.*}} : vector<8xf32>
// CHECK: arith.addf %{{.*}} : vector<8xf32>
// CHECK: arith.maximumf %{{.*}} : vector<8xf32>
// CHECK: vector.store {{.*}} {mlc.direct_conv} : memref<{{.*}}>, vector<8xf32>
// CHECK-NOT: linalg.generic
// KERNEL-LABEL: func @pointwise_epilogue
// KERNEL-NOT: call @mlc_conv
// KERNEL: {mlc.direct_conv}
func.func @pointwise_epilogue(%x: memref<1x6x6x8xf32>, %w: memref<1x1x8x16xf32>, %s: memref<16xf32>,
                             %t: memref<16xf32>, %out: memref<1x6x6x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x6x6x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x6x6x16xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x6x6x8xf32>, memref<1x1x8x16xf32>) outs(%c : memref<1x6x6x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %s, %t : memref<1x6x6x16xf32>, memref<16xf32>, memref<16xf32>) outs(%out : memref<1x6x6x16xf32>) {
  ^bb0(%in: f32, %scale: f32, %shift: f32, %o: f32):
    %0 = arith.mulf %in, %scale : f32
    %1 = arith.addf %0, %shift : f32
    %2 = arith.maximumf %1, %zero : f32
    linalg.yield %2 : f32
  }
  memref.dealloc %c : memref<1x6x6x16xf32>
  return
}

// -----

// The consumer writes a temporary whose view (of the scratch buffer) is made after the conv:
// that view moves before the conv, where the kernel writes through it.
// CHECK-LABEL: func @epilogue_into_temporary
// CHECK: %[[T:.*]] = memref.view %arg3[%{{.*}}][] : memref<4096xi8> to memref<1x4x4x16xf32>
// CHECK: memref.extract_strided_metadata %[[T]]
// CHECK: arith.maximumf %{{.*}} : vector<8xf32>
// CHECK-NOT: linalg.generic
// CHECK: linalg.copy ins(%[[T]]
func.func @epilogue_into_temporary(%x: memref<1x4x4x8xf32>, %w: memref<1x1x8x16xf32>, %out: memref<1x4x4x16xf32>,
                                  %scratch: memref<4096xi8>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %c = memref.view %scratch[%c0][] : memref<4096xi8> to memref<1x4x4x16xf32>
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, mlc.zero_init}
    ins(%x, %w : memref<1x4x4x8xf32>, memref<1x1x8x16xf32>) outs(%c : memref<1x4x4x16xf32>)
  %t = memref.view %scratch[%c1024][] : memref<4096xi8> to memref<1x4x4x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<1x4x4x16xf32>) outs(%t : memref<1x4x4x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  }
  linalg.copy ins(%t : memref<1x4x4x16xf32>) outs(%out : memref<1x4x4x16xf32>)
  return
}

// -----

// The consumer's output takes the bytes of the conv's input (a scratch buffer reused once the
// conv has read it), so the kernel may not write it while the input is being read: the
// epilogue goes into the conv's own buffer %c instead, and the later reader of %t reads %c.
// CHECK-LABEL: func @epilogue_redirected
// CHECK: %[[C:.*]] = memref.view %arg3[%c4096{{.*}}][] : memref<8192xi8> to memref<1x4x4x16xf32>
// CHECK: memref.extract_strided_metadata %[[C]]
// CHECK: arith.maximumf %{{.*}} : vector<8xf32>
// CHECK-NOT: linalg.generic
// CHECK: linalg.copy ins(%[[C]]
func.func @epilogue_redirected(%x: memref<1x4x4x8xf32>, %w: memref<1x1x8x16xf32>, %out: memref<1x4x4x16xf32>,
                              %scratch: memref<8192xi8>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %p = memref.view %scratch[%c0][] : memref<8192xi8> to memref<1x4x4x8xf32>
  linalg.copy ins(%x : memref<1x4x4x8xf32>) outs(%p : memref<1x4x4x8xf32>)
  %c = memref.view %scratch[%c4096][] : memref<8192xi8> to memref<1x4x4x16xf32>
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, mlc.zero_init}
    ins(%p, %w : memref<1x4x4x8xf32>, memref<1x1x8x16xf32>) outs(%c : memref<1x4x4x16xf32>)
  %t = memref.view %scratch[%c0][] : memref<8192xi8> to memref<1x4x4x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<1x4x4x16xf32>) outs(%t : memref<1x4x4x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  }
  linalg.copy ins(%t : memref<1x4x4x16xf32>) outs(%out : memref<1x4x4x16xf32>)
  return
}

// -----

// A padded dense conv (hlo-to-linalg's mlc.pad: %x zero padded by [1, 2] at the top/left).
// The generated kernel reads the padded buffer the fill and the interior copy wrote. With
// the precompiled kernels (KERNEL) the call writes that buffer itself (`pad` = true, then
// %x's base, offset, strides and the extents H, W, top, left, HP, WP): the program's fill
// and copy are erased; the call names the variant (f32, kernel rows' taps merged, the whole
// window in registers: K = 3 * 4 * 8 = 96, one thread: 2^11.8 multiply-adds).
// CHECK-LABEL: func @dense_padded
// CHECK: linalg.fill
// CHECK: linalg.copy
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// KERNEL-LABEL: func @dense_padded
// KERNEL-NOT: linalg.fill
// KERNEL-NOT: linalg.copy
// KERNEL: %[[PB:base_buffer[_0-9]*]], %[[PO:offset[_0-9]*]], {{.*}} = memref.extract_strided_metadata %alloc
// KERNEL: %[[XB:base_buffer[_0-9]*]], %[[XO:offset[_0-9]*]], {{.*}} = memref.extract_strided_metadata %arg0
// KERNEL: call @mlc_conv_f32_mw_t1_v512(%c2{{[_0-9]*}}, %c6{{[_0-9]*}}, %c7{{[_0-9]*}}, %c8{{[_0-9]*}}, %c5{{[_0-9]*}}, %c3{{[_0-9]*}}, %c4{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}}, %[[PB]], %[[PO]], %c640{{[_0-9]*}}, %c80{{[_0-9]*}}, %c8{{[_0-9]*}}, {{.*}}, %true{{[_0-9]*}}, %true{{[_0-9]*}}, %[[XB]], %[[XO]], %c288{{[_0-9]*}}, %c48{{[_0-9]*}}, %c8{{[_0-9]*}}, %c6{{[_0-9]*}}, %c6{{[_0-9]*}}, %c1{{[_0-9]*}}, %c2{{[_0-9]*}}, %c8{{[_0-9]*}}, %c10{{[_0-9]*}})
// KERNEL-NOT: linalg.conv_2d_nhwc_hwcf
func.func @dense_padded(%x: memref<2x6x6x8xf32>, %w: memref<3x4x8x5xf32>, %o: memref<2x6x7x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x8x10x8xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<2x8x10x8xf32>)
  %interior = memref.subview %p[0, 1, 2, 0] [2, 6, 6, 8] [1, 1, 1, 1] : memref<2x8x10x8xf32> to memref<2x6x6x8xf32, strided<[640, 80, 8, 1], offset: 96>>
  linalg.copy ins(%x : memref<2x6x6x8xf32>) outs(%interior : memref<2x6x6x8xf32, strided<[640, 80, 8, 1], offset: 96>>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, mlc.zero_init, mlc.pad = array<i64: 1, 2>}
    ins(%p, %w : memref<2x8x10x8xf32>, memref<3x4x8x5xf32>) outs(%o : memref<2x6x7x5xf32>)
  memref.dealloc %p : memref<2x8x10x8xf32>
  return
}
