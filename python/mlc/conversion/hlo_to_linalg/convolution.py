"""hlo.convolution -> the lhs padded (edges, and lhs dilation as interior zeros), then one
linalg.generic accumulating lhs * rhs over the loops

    (batch, group, output feature in group, output spatial..., input feature in group, kernel spatial...)

with lhs spatial index `out * stride + k * rhs_dilation`. Feature groups split the input
and output features (grouped / depthwise convolution); batch groups split the lhs batch and
the output features. The (group, feature) extent comes from a shape-only operand.

A plain 2-D convolution (no groups, no input dilation, one float type) is instead, in any
layout (operands transposed to NHWC / HWIO and the result back when they are not that
already), either

  - direct: one named `linalg.conv_2d_nhwc_hwcf` on the padded input, which mlc-direct-conv
    (codegen/direct_conv.py) lowers to register-tiled code: no im2col buffer, the weights
    packed once, the taps summed as small GEMMs into 6 x 16 (AVX2) register tiles; or
  - im2col: one strided copy per kernel tap into col[(n, oh, ow), (kh, kw, ci)], then one
    named matmul, which the CPU strategies run as an OpenBLAS call (big) or the packed GEMM.

The rule (`choose_direct`): direct, except when all of these hold, then im2col:
  1. the im2col product goes to OpenBLAS (f32/f64, BLAS on and found, M*N*K at least
     blas.size_floor: MIN_MNK, never for f32 on 512-bit vectors): MLC's own packed GEMM,
     the other im2col engine, runs the same microkernel as the direct path after a copy,
     so it never wins (on the AVX-512 host with OpenBLAS on MLC's pool, direct against
     the im2col + sgemm it replaced, medians of 40 calls, ms: 3x3 s2 4x28x28 128->256
     2.32 / 2.55, 8x56x56 64->128 5.09 / 7.27; 3x3 s1 4x14x14 256->256 4.28 / 5.26; 1x1 s2
     8x56x56 64->128 0.49 / 1.80, 4x28x28 256->512 0.97 / 1.65);
  2. at least IM2COL_MIN_CO output channels and either a stride > 1 or at least
     IM2COL_MIN_CI input channels: OpenBLAS's kernel outruns the direct one on wide
     products and the strided windows share little data;
  3. at least IM2COL_MIN_PIXELS output pixels (a short M leaves BLAS's threads idle).
Measured (benchmarks on this 2-core AVX2 EPYC, shared: load average 4-6 during the runs;
in-process A/B, interleaved, medians of 7-11, ms; `direct / im2col`):
  3x3 s1 8x56x56 64->64 71 / 109, 1->8 0.48 / 0.96, 3->32 3.96 / 3.76, 16->16 9.7 / 16.2,
  64->1 14 / 82, 64->3 25 / 119; 4x28x28 128->128 64 / 72; 8x7x7 512->512 152 / 270;
  4x14x14 256->256 64 / 53 (another run 65 / 69), 512->512 249 / 237;
  3x3 s2 8x56x56 64->128 79 / 60, 4x28x28 128->256 30 / 25;
  7x7 s2 2x112x112 3->64 8.5 / 16.4; 1x1 s1 8x56x56 64->64 16 / 29, 4x14x14 256->1024
  36 / 56, 1024->256 36 / 36; 1x1 s2 8x56x56 64->128 12.7 / 10.2, 4x28x28 256->512 16 / 12.8.
A function that calls BLAS runs its other loops on one thread (codegen/sequential_beside_blas.py), which
is one more reason the rule keeps im2col to where BLAS clearly wins.

A 2-D depthwise convolution (feature_group_count = input channels, channel multiplier 1,
no input dilation, a float type) is one named `linalg.depthwise_conv_2d_nhwc_hwc` on the
padded NHWC input and the (kh, kw, channels) kernel, which mlc-direct-conv vectorizes over
channels (against the generic loop nest, 'same' 3x3, in-process A/B, load average 7:
8x56x56x64 6.1 / 16.8 ms, 8x112x112x32 10.3 / 51.9 ms, 8x28x28x256 stride 2 3.0 / 5.0 ms).
Other grouped convolutions keep the generic nest.

For these paths the padding inserts the input into an empty tensor and zeroes only the
borders (`_pad_borders`), not the whole padded tensor first; the named convolutions carry
`mlc.zero_init`, so the kernels overwrite their output and drop its zero fill. A padded
depthwise convolution also carries `mlc.pad` (its low padding [top, left]): mlc-direct-conv
then reads the unpadded source in place (edge pixels summed over their in-bounds taps only)
and erases the padded copy: the depthwise kernel reads each input element about as often as
that copy does, so the copy was a third of its time (8x56x56x64 'same' 3x3, one thread, CPU
time, in-process A/B: 3.38 -> 2.87 ms alone; with its batch norm + ReLU6 epilogue 3.56 ->
2.56 ms, 4.30 ms before either). Dense convolutions keep the copy: KH*KW*Co multiply-adds
per input element make it a small share. A padded direct dense convolution carries the mark
too: when it calls MLC's precompiled kernel (codegen/conv_library.py), the call writes the
padded copy itself and the program's own fills and copy are erased.
"""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import linalg, tensor

from ... import config
from ...dialects.hlo.shape_rules import convolution_layout
from ...dialects.hlo.types import is_float
from ...codegen.views import reassociation
from .registry import PARALLEL, REDUCTION, empty, fill, generic, lowering
from .scalar import combine, const, convert_scalar
from .slicing import extract_slice, insert_slice, pad_tensor


def _dim(i: int) -> ir.AffineExpr:
    return ir.AffineDimExpr.get(i)


def _affine(*terms) -> ir.AffineExpr:
    """sum of (loop, coefficient) terms."""
    expr = None
    for loop, coefficient in terms:
        term = _dim(loop) if coefficient == 1 else ir.AffineExpr.get_mul(_dim(loop), ir.AffineConstantExpr.get(coefficient))
        expr = term if expr is None else ir.AffineExpr.get_add(expr, term)
    return expr


# The im2col copy is skipped above this size (it would dwarf the convolution's own data).
IM2COL_MAX_BYTES = 512 << 20


def _is_plain_2d(c, lhs, rhs, result_type) -> bool:
    """2-D, no groups, no input dilation, one float type: any layout (it is transposed to
    NHWC / HWIO around the im2col product when it is not that already)."""
    et = result_type.element_type
    return (lhs.rank == 4 and c.feature_groups == 1 and c.batch_groups == 1 and c.lhs_dilation == [1, 1]
            and is_float(et) and lhs.element_type == et and rhs.element_type == et)


def _pad_borders(source: ir.Value, low: list[int], high: list[int]) -> ir.Value:
    """`source` zero padded (non-negative edges, no interior): the source inserted into an
    empty tensor, then a zero slab inserted on each padded side of each padded dim (the
    slabs of later dims span the earlier dims' padded extent). Only the borders are filled:
    a fill of the whole padded tensor first (pad_tensor) writes every element twice, and a
    big fill is a slow store loop in the generated code."""
    t = ir.RankedTensorType(source.type)
    et = t.element_type
    padded_shape = [lo + n + hi for lo, n, hi in zip(low, t.shape, high)]
    result = insert_slice(source, empty(ir.RankedTensorType.get(padded_shape, et)), list(low))
    for d in range(t.rank):
        for start, width in ((0, low[d]), (low[d] + t.shape[d], high[d])):
            if width == 0:
                continue
            # Dims before d: padded extent (already bordered); after d: the source's interior rows.
            shape = [padded_shape[i] if i < d else (width if i == d else t.shape[i]) for i in range(t.rank)]
            offsets = [0 if i < d else (start if i == d else low[i]) for i in range(t.rank)]
            slab = fill(const(et, 0), empty(ir.RankedTensorType.get(shape, et)))
            result = insert_slice(slab, result, offsets)
    return result


def _is_depthwise_2d(c, lhs, rhs, result_type) -> bool:
    """2-D depthwise (one group per input channel, channel multiplier 1), no input dilation,
    one float type the direct kernel has: a linalg.depthwise_conv_2d_nhwc_hwc."""
    from ...codegen.blas import compute_type  # codegen imports conversion modules

    et = result_type.element_type
    channels = lhs.shape[c.in_feature]
    return (FORCE != "im2col" and lhs.rank == 4 and c.batch_groups == 1 and c.feature_groups == channels
            and channels > 0 and rhs.shape[c.k_in] == 1 and rhs.shape[c.k_out] == channels
            and c.lhs_dilation == [1, 1]
            and is_float(et) and compute_type(et) is not None
            and lhs.element_type == et and rhs.element_type == et)


def _transposed(value: ir.Value, permutation: list[int]) -> ir.Value:
    """linalg.transpose (result dim i = source dim permutation[i]); the value if identity."""
    if permutation == sorted(permutation):
        return value
    t = ir.RankedTensorType(value.type)
    init = empty(ir.RankedTensorType.get([t.shape[p] for p in permutation], t.element_type))
    transposed = linalg.transpose(value, outs=[init], permutation=permutation)
    return transposed.results[0] if isinstance(transposed, ir.OpView) else transposed


def _reshape(value: ir.Value, shape: list[int], groups: list[list[int]], expand: bool) -> ir.Value:
    t = ir.RankedTensorType.get(shape, ir.RankedTensorType(value.type).element_type)
    if expand:
        return tensor.expand_shape(t, value, reassociation(groups), [], shape)
    return tensor.collapse_shape(t, value, reassociation(groups))


def _im2col(source: ir.Value, c, rhs: ir.RankedTensorType, kernel: ir.Value, result_type) -> ir.Value:
    """The common 2-D convolution as one matrix multiplication (what XLA and oneDNN do for
    NHWC): col[n, oh, ow, kh, kw, ci] = x[n, oh*s + kh*d, ow*s + kw*d, ci], then
    out[(n, oh, ow), co] = col[(n, oh, ow), (kh, kw, ci)] @ w[(kh, kw, ci), co], which the
    CPU strategies run as a BLAS call or tiled vector code."""
    et = result_type.element_type
    n, oh, ow, co = result_type.shape
    kh, kw, ci, _ = rhs.shape
    col_shape = [n, oh, ow, kh, kw, ci]
    # One strided copy per kernel tap, as linalg.copy: a named op, so elementwise fusion does
    # not fold the copies into the product (which must read a plain matrix).
    col = empty(ir.RankedTensorType.get(col_shape, et))
    tap_type = ir.RankedTensorType.get([n, oh, ow, ci], et)
    for i in range(kh):
        for j in range(kw):
            window = extract_slice(source, tap_type, [0, i * c.rhs_dilation[0], j * c.rhs_dilation[1], 0],
                                   [1, c.strides[0], c.strides[1], 1])
            offsets, sizes = [0, 0, 0, i, j, 0], [n, oh, ow, 1, 1, ci]
            slot = tensor.extract_slice(tap_type, col, [], [], [], offsets, sizes, [1] * 6)
            copied = linalg.copy(window, outs=[slot])
            col = tensor.insert_slice(copied, col, [], [], [], offsets, sizes, [1] * 6)
    rows, depth = n * oh * ow, kh * kw * ci
    matrix = _reshape(col, [rows, depth], [[0, 1, 2], [3, 4, 5]], expand=False)
    weights = _reshape(kernel, [depth, co], [[0, 1, 2], [3]], expand=False)
    init = fill(const(et, 0), empty(ir.RankedTensorType.get([rows, co], et)))
    # A named matmul: elementwise fusion and reshape propagation leave it alone (as a
    # generic they would fold the im2col copies back in); codegen generalizes it later.
    product = linalg.matmul(matrix, weights, outs=[init])
    return _reshape(product, [n, oh, ow, co], [[0, 1, 2], [3]], expand=True)


def _direct(source: ir.Value, c, kernel: ir.Value, result_type) -> ir.Value:
    """The direct convolution: one named linalg.conv_2d_nhwc_hwcf on the padded NHWC input
    (cut to what the windows read) and the HWIO kernel, which mlc-direct-conv lowers to
    register-tiled code (codegen/direct_conv.py). A named op, so elementwise fusion leaves
    it alone."""
    init = fill(const(result_type.element_type, 0), empty(result_type))
    product = linalg.conv_2d_nhwc_hwcf(source, kernel, outs=[init], strides=list(c.strides),
                                       dilations=list(c.rhs_dilation))
    product.owner.attributes[ZERO_INIT] = ir.UnitAttr.get()
    return product


# On the named convolutions made here: their init is the zero fill made with them, so the
# direct kernel may overwrite the output instead of adding to it (bufferization keeps the
# attribute; the fill itself may have moved into another loop by then: row fusion).
ZERO_INIT = "mlc.zero_init"
# On a depthwise conv whose input is its source zero padded by _pad_borders: the low padding
# [top, left] (mlc-direct-conv then reads the source in place and drops the padded copy).
PAD = "mlc.pad"

# Measurement switch: False pads by filling the whole padded tensor (pad_tensor) instead.
BORDER_PAD = True

# Set by measurement scripts to force one path ("direct" | "im2col"); None: the rule.
FORCE: str | None = None


IM2COL_MIN_CO = 128
IM2COL_MIN_CI = 256
IM2COL_MIN_PIXELS = 512


def choose_direct(c, lhs, rhs, result_type) -> bool:
    """Direct convolution or im2col + GEMM for a plain 2-D float convolution (the rule and
    its measurements: module docstring)."""
    if FORCE is not None:
        return FORCE == "direct"
    from ...codegen.blas import blas_available, size_floor  # codegen imports conversion modules

    et = result_type.element_type
    ci, co = rhs.shape[c.k_in], rhs.shape[c.k_out]
    pixels = math.prod(result_type.shape) // max(1, result_type.shape[c.out_feature])
    depth = ci * math.prod(rhs.shape[d] for d in c.k_spatial)
    floor = size_floor(et.width) if et.width in (32, 64) else None
    if not (config.blas_enabled() and floor is not None and pixels * co * depth >= floor and blas_available()):
        return True
    wide = co >= IM2COL_MIN_CO and (max(c.strides) > 1 or ci >= IM2COL_MIN_CI)
    return not (wide and pixels >= IM2COL_MIN_PIXELS)


def _covered(source: ir.Value, c, rhs: ir.RankedTensorType, result_type) -> ir.Value:
    """The padded lhs cut to the spatial elements some window reads. Then every spatial
    extent is what the loops cover, which upstream's unit-dim folding assumes: a tail past
    the last strided window made it build a generic with mismatched operand sizes."""
    t = ir.RankedTensorType(source.type)
    shape = list(t.shape)
    for i, d in enumerate(c.in_spatial):
        out, k = result_type.shape[c.out_spatial[i]], rhs.shape[c.k_spatial[i]]
        if out > 0 and k > 0:  # an empty loop reads nothing: leave that extent alone
            shape[d] = min(shape[d], (out - 1) * c.strides[i] + (k - 1) * c.rhs_dilation[i] + 1)
    if shape == list(t.shape):
        return source
    return extract_slice(source, ir.RankedTensorType.get(shape, t.element_type), [0] * t.rank)


@lowering("convolution")
def lower_convolution(op, sig):
    lhs, rhs = sig.operand_types
    c = convolution_layout(sig)
    result_type = op.results[0].type
    et = result_type.element_type
    n = len(c.in_spatial)

    low, high, interior = [0] * lhs.rank, [0] * lhs.rank, [0] * lhs.rank
    for i, d in enumerate(c.in_spatial):
        low[d], high[d] = c.padding[i]
        interior[d] = c.lhs_dilation[i] - 1
    source = op.operands[0]
    plain = _is_plain_2d(c, lhs, rhs, result_type)
    direct_kind = plain or _is_depthwise_2d(c, lhs, rhs, result_type)
    bordered = False
    if BORDER_PAD and direct_kind and not any(interior) and min(low + high) >= 0 and (any(low) or any(high)):
        source = _pad_borders(source, low, high)  # for either path: only the borders are zeroed
        bordered = True
    elif any(low) or any(high) or any(interior):
        source = pad_tensor(source, const(lhs.element_type, 0), low, high, interior)
    col_bytes = (math.prod(result_type.shape) // result_type.shape[c.out_feature]
                 * rhs.shape[c.k_in] * math.prod(rhs.shape[d] for d in c.k_spatial) * (et.width // 8)
                 if result_type.rank == 4 else 0)
    direct = plain and choose_direct(c, lhs, rhs, result_type)
    if direct or (plain and col_bytes <= IM2COL_MAX_BYTES):
        nhwc = [c.in_batch, c.in_spatial[0], c.in_spatial[1], c.in_feature]
        hwio = [c.k_spatial[0], c.k_spatial[1], c.k_in, c.k_out]
        out_nhwc = [c.out_batch, c.out_spatial[0], c.out_spatial[1], c.out_feature]
        kernel = _transposed(op.operands[1], hwio)
        kernel_type = ir.RankedTensorType(kernel.type)
        nhwc_result = ir.RankedTensorType.get([result_type.shape[d] for d in out_nhwc], et)
        if direct:
            product = _direct(_transposed(_covered(source, c, rhs, result_type), nhwc), c, kernel, nhwc_result)
            if bordered:  # mlc-direct-conv's precompiled kernel may write the padded copy itself
                product.owner.attributes[PAD] = ir.DenseI64ArrayAttr.get([low[c.in_spatial[0]], low[c.in_spatial[1]]])
        else:
            product = _im2col(_transposed(source, nhwc), c, kernel_type, kernel, nhwc_result)
        back = [out_nhwc.index(d) for d in range(4)]  # requested dim d is NHWC dim back[d]
        return [_transposed(product, back)]

    if _is_depthwise_2d(c, lhs, rhs, result_type):
        nhwc = [c.in_batch, c.in_spatial[0], c.in_spatial[1], c.in_feature]
        hwio = [c.k_spatial[0], c.k_spatial[1], c.k_in, c.k_out]
        out_nhwc = [c.out_batch, c.out_spatial[0], c.out_spatial[1], c.out_feature]
        kernel = _transposed(op.operands[1], hwio)
        kh, kw, _, channels = ir.RankedTensorType(kernel.type).shape
        kernel = _reshape(kernel, [kh, kw, channels], [[0], [1], [2, 3]], expand=False)
        x = _transposed(_covered(source, c, rhs, result_type), nhwc)
        nhwc_result = ir.RankedTensorType.get([result_type.shape[d] for d in out_nhwc], et)
        init = fill(const(et, 0), empty(nhwc_result))
        product = linalg.depthwise_conv_2d_nhwc_hwc(x, kernel, outs=[init], strides=list(c.strides),
                                                    dilations=list(c.rhs_dilation))
        product.owner.attributes[ZERO_INIT] = ir.UnitAttr.get()
        if bordered:  # the input is `source` zero padded: mlc-direct-conv reads the source itself
            product.owner.attributes[PAD] = ir.DenseI64ArrayAttr.get([low[c.in_spatial[0]], low[c.in_spatial[1]]])
        return [_transposed(product, [out_nhwc.index(d) for d in range(4)])]

    source = _covered(source, c, rhs, result_type)
    groups = max(c.feature_groups, c.batch_groups)
    c_group = rhs.shape[c.k_in]
    o_group = rhs.shape[c.k_out] // groups
    b_group = lhs.shape[c.in_batch] // c.batch_groups
    # Loop numbering.
    B, G, O = 0, 1, 2
    S = [3 + i for i in range(n)]
    C = 3 + n
    K = [4 + n + i for i in range(n)]
    n_loops = 4 + 2 * n

    lhs_exprs = [None] * lhs.rank
    lhs_exprs[c.in_batch] = _affine((G, b_group), (B, 1)) if c.batch_groups > 1 else _dim(B)
    lhs_exprs[c.in_feature] = _affine((G, c_group), (C, 1)) if c.feature_groups > 1 else _dim(C)
    for i, d in enumerate(c.in_spatial):
        lhs_exprs[d] = _affine((S[i], c.strides[i]), (K[i], c.rhs_dilation[i]))
    rhs_exprs = [None] * rhs.rank
    rhs_exprs[c.k_in] = _dim(C)
    rhs_exprs[c.k_out] = _affine((G, o_group), (O, 1))
    for i, d in enumerate(c.k_spatial):
        rhs_exprs[d] = _dim(K[i])
    out_exprs = [None] * result_type.rank
    out_exprs[c.out_batch] = _dim(B)
    out_exprs[c.out_feature] = _affine((G, o_group), (O, 1))
    for i, d in enumerate(c.out_spatial):
        out_exprs[d] = _dim(S[i])

    groups_shape = empty(ir.RankedTensorType.get([groups, o_group], et))
    maps = [ir.AffineMap.get(n_loops, 0, lhs_exprs), ir.AffineMap.get(n_loops, 0, rhs_exprs),
            ir.AffineMap.get(n_loops, 0, [_dim(G), _dim(O)]), ir.AffineMap.get(n_loops, 0, out_exprs)]
    iterators = [PARALLEL] * (3 + n) + [REDUCTION] * (1 + n)
    init = fill(const(et, 0), empty(result_type))

    def body(x, w, _shape, acc):
        x = convert_scalar(x, lhs.element_type, et, sig.operand_unsigned(0), sig.result_unsigned())
        w = convert_scalar(w, rhs.element_type, et, sig.operand_unsigned(1), sig.result_unsigned())
        return combine("add", et, acc, combine("mul", et, x, w))

    return [generic([source, op.operands[1], groups_shape], init, maps, iterators, body)]
