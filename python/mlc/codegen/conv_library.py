"""MLC's precompiled convolution kernels: the direct convolution (direct_conv.py) over
runtime sizes, with its input's zero padding, compiled once per host and kept.

    linalg.fill / linalg.copy ...  (the zero-padded copy of %x, hlo-to-linalg's mlc.pad)
    linalg.conv_2d_nhwc_hwcf ins(%padded, %w : memref<8x58x58x64xf32>, ...) outs(%o : ...)
  ->                                                              (mlc-direct-conv)
    func.call @mlc_conv_f32_mw_t2_v512(%N, %OH, %OW, %Ci, %Co, %KH, %KW, %sh, %sw, %dh, %dw,
        %padded_base, %offset, %stride_n, %stride_h, %stride_w,  %w_base, %offset, %ld,
        %o_base, %offset, %ld, %overwrite,
        %pad, %x_base, %offset, %stride_n, %stride_h, %stride_w, %H, %W, %top, %left, %HP, %WP)

As the GEMM's kernels (gemm_library.py): XLA's CPU backend calls Eigen's convolution,
compiled when XLA was built, where MLC generated (and LLVM compiled) the direct convolution
for each program's shapes: the benchmark table's 3x3 conv compiled in 92 ms against
jax.jit's 14. A kernel is the same loop nest (packed weight panels, MR x NR register tiles
of output pixels by channels, the K blocks, the threads' chunks of pixels) emitted over
index arguments: every edge guarded, and the K loop, whose length (KW * Ci or Ci) is then
unknown, unrolled by two with the odd step apart.

The padding: a padded convolution reads a temporary holding its input zero padded, which
the program filled (the borders) and copied (the interior) before; the kernel's call takes
those writes over (`pad`): its threads write the temporary's rows (zeros, the source's row,
zeros), then convolve. The program then holds no loops of its own for a padded
convolution: only the call.

Measured (Zen 4, AVX-512, two threads): the table's 3x3 conv (8x56x56x64 -> 64, 'same')
compiles in 24-25 ms instead of 92 (jax.jit 11-14), runs in 8.95 ms against the generated
kernel's 8.85 (best of 30); warmed compiles of resnet_basic 175 -> 101 ms and
resnet_bottleneck 259 -> 182 ms; a variant's build 0.1-0.14 s, once per host.

Variant: the element type (f32, f64), whether a kernel row's taps are one contiguous run of
input (`merged`: dilation 1 along W and pixels Ci apart), whether K is cut into blocks
(depth above the GEMM's KC) or each tile sums the whole window in registers, the threads
and the vector width. Taken: f32 or f64 input, weights and output, weights HWIO with Co
contiguous and (KH, KW, Ci) collapsing into one K dimension, output pixels collapsing into
one M dimension with Co contiguous, and no fused epilogue applied (a conv whose tiles would
go through a consumer keeps its generated kernel, as a GEMM's). Built, kept and linked by
kernel_library.py; off with CompileOptions.gemm_kernels (exported libraries, the
ExecutionEngine JIT).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from mlir import ir
from mlir.dialects import arith, func, memref, scf, vector

from .. import config
from .externs import declare_external
from .kernel_library import ELEMENT_TYPES
from .loops import in_parts
from .packed_gemm import Operand, _for, _icdiv, _imin, _index, blocking

PREFIX = "mlc_conv_"
_SYMBOL = re.compile(rf"{PREFIX}(f32|f64)_([ms])([bw])_t(\d+)_v(\d+)$")
# The arguments, in order (module docstring): sizes, the conv's input (the padded buffer when
# it pads), the weights, the output, overwrite, then the padding's source and extents.
SIZES = ("n", "oh", "ow", "ci", "co", "kh", "kw", "sh", "sw", "dh", "dw")
PAD_SIZES = ("h", "w", "top", "left", "hp", "wp")


@dataclass(frozen=True)
class ConvVariant:
    """What one precompiled convolution kernel is specialized for (everything else is an
    argument)."""

    dtype: str  # the element type of the input, weights, output and sums (ELEMENT_TYPES)
    merged: bool  # a kernel row's (kw, ci) taps are one contiguous run of the input
    k_blocked: bool  # K cut into blocks of at most the GEMM's KC (else whole windows in registers)
    threads: int
    register_bits: int
    kind: ClassVar[str] = "convolution"

    @property
    def element_type(self) -> ir.Type:
        return ELEMENT_TYPES[self.dtype]()

    @property
    def symbol(self) -> str:
        return (f"{PREFIX}{self.dtype}_{'m' if self.merged else 's'}{'b' if self.k_blocked else 'w'}_"
                f"t{self.threads}_v{self.register_bits}")

    @staticmethod
    def parse(symbol: str) -> "ConvVariant | None":
        found = _SYMBOL.match(symbol)
        if found is None:
            return None
        dtype, merged, blocked, threads, bits = found.groups()
        return ConvVariant(dtype, merged == "m", blocked == "b", int(threads), int(bits))

    def function_type(self) -> ir.FunctionType:
        index, i1 = ir.IndexType.get(), ir.IntegerType.get_signless(1)
        base = ir.MemRefType.get([], self.element_type)
        return ir.FunctionType.get([index] * len(SIZES) + [base] + [index] * 4 + [base, index, index]
                                   + [base, index, index] + [i1, i1, base] + [index] * (4 + len(PAD_SIZES)), [])

    def build_module(self) -> ir.Module:
        """A module holding the kernel's function, as direct_conv emits it (the `codegen`
        stage before mlc-direct-conv's successors), in the current context."""
        from .direct_conv import conv_dims, emit_conv_loops
        with ir.Location.unknown():
            module = ir.Module.create()
            with ir.InsertionPoint(module.body):
                kernel = func.FuncOp(self.symbol, self.function_type())
                entry = kernel.add_entry_block()
            with ir.InsertionPoint(entry):
                args = list(entry.arguments)
                n, oh, ow, ci, co, kh, kw, sh, sw, dh, dw = args[:11]
                x, x_off, *x_strides = args[11:16]
                w, w_off, w_ld = args[16:19]
                o, o_off, o_ld = args[19:22]
                overwrite, pad = args[22:24]
                src, src_off, *src_strides = args[24:29]
                h, wd, top, left, hp, wp = args[29:35]
                if_pad = scf.IfOp(pad)
                with ir.InsertionPoint(if_pad.then_block):
                    _emit_pad(self, n, ci, (src, src_off, src_strides), (x, x_off, x_strides), h, wd, top, left,
                              hp, wp)
                    scf.YieldOp([])
                d = conv_dims(n, oh, ow, ci, co, kh, kw, (sh, sw), (dh, dw), x_strides, self.merged)
                w_src = Operand(w, w_off, w_ld, 1).view(d.depth, co)

                def views():
                    extent = arith.muli(n, x_strides[0])
                    return (_flat(x, x_off, extent, self.element_type),
                            Operand(o, o_off, o_ld, 1).view(d.pixels, co))

                emit_conv_loops(w_src, True, views, d, self.element_type, self.register_bits, self.threads,
                                overwrite, self.k_blocked)
                func.ReturnOp([])
        return module


def _flat(base: ir.Value, offset: ir.Value, extent: ir.Value, element: ir.Type) -> ir.Value:
    """A 1-D unit-stride view of `extent` elements from element `offset` of a base buffer."""
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    t = ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], element, ir.StridedLayoutAttr.get(dyn, [1]))
    return memref.reinterpret_cast(t, base, [offset], [extent], [], [dyn], [ir.ShapedType.get_dynamic_size()], [1])


def _emit_pad(variant: ConvVariant, n, ci, source, padded, h, w, top, left, hp, wp) -> None:
    """padded[b, i, j, :] = source[b, i - top, j - left, :] inside the source, else zeros,
    for i < hp, j < wp; rows of both are contiguous (pixels Ci apart). The threads share
    the N * HP rows."""
    el = variant.element_type
    lanes = blocking(el, variant.register_bits).lanes
    vt = ir.VectorType.get([lanes], el)
    mask_t = ir.VectorType.get([lanes], ir.IntegerType.get_signless(1))
    zeros = arith.constant(vt, ir.DenseElementsAttr.get_splat(vt, ir.FloatAttr.get(el, 0.0)))
    s_base, s_off, s_strides = source
    p_base, p_off, p_strides = padded
    s = _flat(s_base, s_off, arith.muli(n, s_strides[0]), el)
    p = _flat(p_base, p_off, arith.muli(n, p_strides[0]), el)
    rows = arith.muli(n, hp)
    chunk = _icdiv(rows, variant.threads)
    row_len, inner = arith.muli(wp, ci), arith.muli(w, ci)
    left_len = arith.muli(left, ci)

    def run(at, length, src_at=None):
        """Elements [at, at + length) of the padded buffer: zeros, or the source's from
        src_at; full vectors, then one masked."""
        full = arith.subi(length, arith.remui(length, _index(lanes)))
        loop = _for(0, full, lanes)
        with ir.InsertionPoint(loop.body):
            i = loop.induction_variable
            value = zeros if src_at is None else vector.load(vt, s, [arith.addi(src_at, i)])
            vector.store(value, p, [arith.addi(at, i)])
            scf.YieldOp([])
        tail = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ult, full, length))
        with ir.InsertionPoint(tail.then_block):
            mask = vector.create_mask(mask_t, [arith.subi(length, full)])
            value = zeros if src_at is None else vector.maskedload(vt, s, [arith.addi(src_at, full)], mask, zeros)
            vector.maskedstore(p, [arith.addi(at, full)], mask, value)
            scf.YieldOp([])

    def body(t):
        lo = arith.muli(t, chunk) if t is not None else _index(0)
        hi = _imin(arith.addi(lo, chunk), rows) if t is not None else rows
        loop = _for(lo, hi, 1)
        with ir.InsertionPoint(loop.body):
            r = loop.induction_variable
            b, i = arith.divui(r, hp), arith.remui(r, hp)
            at = arith.addi(arith.muli(b, p_strides[0]), arith.muli(i, p_strides[1]))
            si = arith.subi(i, top)
            inside = arith.andi(arith.cmpi(arith.CmpIPredicate.sge, si, _index(0)),
                                arith.cmpi(arith.CmpIPredicate.slt, si, h))
            row = scf.IfOp(inside, has_else=True)
            with ir.InsertionPoint(row.then_block):
                src_at = arith.addi(arith.muli(b, s_strides[0]), arith.muli(si, s_strides[1]))
                run(at, left_len)
                run(arith.addi(at, left_len), inner, src_at)
                right = arith.addi(left_len, inner)
                run(arith.addi(at, right), arith.subi(row_len, right))
                scf.YieldOp([])
            with ir.InsertionPoint(row.else_block):
                run(at, row_len)
                scf.YieldOp([])
            scf.YieldOp([])

    in_parts(variant.threads, body)


def variant_for(op, s, lay, register_bits: int, threads: int, k_blocked: bool) -> ConvVariant | None:
    """The kernel that runs this conv (direct_conv's static shape `s` and layout `lay`), or
    None when the program keeps its own (module docstring: what is taken). `threads`: what
    the generated kernel would use."""
    types = {ir.MemRefType(op.operands[i].type).element_type for i in range(3)}
    dtype = next((name for name, t in ELEMENT_TYPES.items() if types == {t()}), None)
    if dtype is None or not config.gemm_kernels_enabled() or lay.w[3] != 1:
        return None
    return ConvVariant(dtype, lay.merged, k_blocked, threads, register_bits)


def padding_of(op, s, lay, source, top_left) -> tuple | None:
    """The kernel's padding arguments for a conv reading `source` zero padded with its top
    left corner at `top_left` (direct_conv.padded_source), or None when the kernel cannot
    write that padding (rows not contiguous, or a source past the padded buffer)."""
    from .epilogue import _static_strides
    st = ir.MemRefType(source.type)
    strides = _static_strides(source)
    _, h, w, ci = st.shape
    top, left = top_left
    if strides is None or strides[2:] != [ci, 1] or lay.x[2] != s.ci or ci != s.ci or min(top, left) < 0 \
            or top + h > s.h or left + w > s.w:
        return None
    return strides[:3], (h, w, top, left, s.h, s.w)


def emit_call(module: ir.Operation, variant: ConvVariant, op, s, lay, overwrite: bool, padding=None) -> None:
    """At the current insertion point: the call of `variant`'s kernel on `op`'s operands
    (declared in `module`); `padding`: (source, padding_of's result) when the call writes
    the conv's zero-padded input itself."""
    index = ir.IndexType.get()
    declare_external(module, variant.symbol, variant.function_type())
    const = lambda v: arith.constant(index, v)  # noqa: E731
    xb, wb, ob = (op.operands[i] for i in range(3))
    args = [const(v) for v in (s.n, s.oh, s.ow, s.ci, s.co, s.kh, s.kw, *s.strides, *s.dilations)]

    def buffer(value, strides):
        meta = memref.extract_strided_metadata(value)
        return [meta[0], meta[1], *map(const, strides)]

    args += buffer(xb, lay.x[:3]) + buffer(wb, [lay.w[2]]) + buffer(ob, [lay.o[2]])
    i1 = ir.IntegerType.get_signless(1)
    args += [arith.constant(i1, int(overwrite)), arith.constant(i1, int(padding is not None))]
    if padding is not None:
        source, (strides, extents) = padding
        args += buffer(source, strides) + [const(v) for v in extents]
    else:  # (unused: the conv's own input in the source's place)
        args += buffer(xb, lay.x[:3]) + [const(0)] * len(PAD_SIZES)
    func.CallOp([], variant.symbol, args)
