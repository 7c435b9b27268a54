"""Pass `mlc-direct-conv`: a 2-D NHWC x HWIO convolution (`linalg.conv_2d_nhwc_hwcf` on
buffers, which hlo-to-linalg emits when its rule picks the direct path) becomes a direct
convolution: no im2col buffer, the taps summed as small GEMMs into register tiles.

    Wp[panel][(kh, kw, ci)][NR] = W[kh, kw, ci, panel*NR + :]      (once per call, zero padded)
    scf.forall over the threads' chunks of output pixels m = (n, oh, ow)     (both cores)
      for each block of MC pixels, for each panel of NR output channels, for each MR pixels:
        acc[MR][NR/lanes] = 0 in vector registers
        for kh (, kw):                        the taps
          for j in the tap's contiguous run of input elements (ci, or (kw, ci) when dw = 1):
            acc[r] += broadcast(X[base(m + r) + tap + j]) * Wp[panel][tap + j][:]
        O[m + r, panel*NR + :] (+)= acc       (rows past the end skipped, channels masked)

This is the packed GEMM's microkernel (packed_gemm.py) with A read in place: row r of the
tile is output pixel m + r, whose input window starts at base(m + r); every row reads the
same offsets (tap + j) from its base, so the K loop is a GEMM's with MR row pointers. With
kernel dilation 1 along W the KW taps of one kernel row and the channels are one contiguous
run of KW*Ci elements (NHWC), which keeps the inner loop long when Ci is small. Flattening
(n, oh, ow) into M makes odd output widths cost one partial tile per call, not per row.

Only the weights are packed (KH*KW*Ci*Co elements, read once per MR pixels): zero padding
the output channels to whole panels lets every vector load be full; the input is read where
it is (hlo-to-linalg pads it, as for im2col). The register tile, the packing of W, the C
update and the thread split are packed_gemm's (`blocking`, `_pack`, `_update_c`,
`loops.forall`); the choice between this and im2col is made in hlo-to-linalg (rule and
measurements in conversion/hlo_to_linalg/convolution.py).

Cache blocking: K is cut per tap run into chunks of at most the GEMM's KC (a KC x NR weight
chunk stays in L1) when the depth KH*KW*Ci exceeds KC; each block of MC output pixels then
loops over the K chunks, the panels and its tiles, adding into its output rows (the first
chunk overwrites when the output starts as zeros). Smaller depths sum every tap in registers
and store once.

Depthwise convolutions (`linalg.depthwise_conv_2d_nhwc_hwc`, channel multiplier 1) are
vectorized over channels instead (`emit_depthwise`): tiles of MR pixels x NR channels, per
tap one weight vector load shared by the MR pixels' input loads and FMAs; a last partial
chunk of channels uses masked loads and stores. No packing (the weights are KH*KW*C).

Both kernels overwrite the output when it starts as zeros (a zero fill right before, or
hlo-to-linalg's `mlc.zero_init` mark: row fusion may have moved the fill into another
loop), else they add to it, as the named ops do.

Epilogue (`epilogue.match_epilogue`, shared with the packed GEMM): when the conv's next kernel is an elementwise linalg.generic
(or a row-fusion loop holding only one) that reads the conv's output at the same index and
otherwise only per-channel vectors, same-shaped buffers (a residual) and scalars, with an
arith/math body (batch norm, bias, ReLU, ReLU6, ...), the kernel applies that body to each
register tile before storing it, into the generic's output, and the generic is erased: the
conv's output never goes to memory and back. Taken when the tile holds the finished sum:
every depthwise tile, and dense convs whose depth fits one K block (KH*KW*Ci <= KC); a
K-blocked dense conv adds into its output block by block and keeps the generic. The
generic's output must not share bytes with what the kernel reads (the input, or the
unpadded source when it pads, and the weights): it is written while they are read. When it
does (the scratch allocator gives a temporary the input's bytes once the conv has read
them), the kernel writes into the conv's own buffer and later readers of the generic's
output read that one, if no other temporary takes those bytes later; else no fusion.
The conv's own buffer may be a view other temporaries of the scratch buffer share before
the conv or after the generic, once a zero fill there overwrites it.
Views of the generic's buffers made between the conv and it move before the conv.

Padding inside the depthwise kernel (`padded_source`, hlo-to-linalg's `mlc.pad` mark): the
kernel reads the unpadded source in place and the padded copy (the interior copy and the
border fills, which only wrote that temporary) is erased. It then walks output rows: on a
row whose windows lie inside the source vertically, the columns whose windows lie inside
horizontally run as plain MR-pixel tiles; every other pixel (the row's left and right
edges, rows in the top or bottom padding, a last partial tile) runs alone, its tap loops
bounded to the taps inside the source (from its window origin: no per-tap test, no masked
load; a tap in the padding adds zero, so it is skipped). Dense convolutions keep the padded copy: they are
compute-bound (KH*KW*Co multiply-adds per input element against the depthwise KH*KW), so
the copy is a small share of their time, while the depthwise kernel reads each input
element about as often as the copy does.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, memref, scf, vector

from ..destination_style import inits, segment_sizes
from ..transforms.pass_base import Pass
from . import conv_library
from .blas import PACKED_PARALLEL_MIN_MNK, _zero_fill_before, compute_type
from .epilogue import (_PURE, Epilogue, _inside, _may_alias, _op, _owner_op, _static_sizes, _static_strides,
                       apply_body, match_epilogue)
from .loops import block_ops, in_parts
from .packed_gemm import (Blocking, Operand, _convert, _for, _iadd, _icdiv, _idx, _imin, _imul, _index, _mul_add,
                          _narrow, _pack, _ragged, _update_c, _zero, blocking)
from .target import num_threads, vector_register_bits
from .views import view_root

# A depthwise kernel splits between threads from this many multiply-adds (a dense one from
# blas.PACKED_PARALLEL_MIN_MNK). Measured, p25 of 300 interleaved calls, one thread against
# two: (1, 56, 56, 32) 3x3 36 against 74 us (2^19.8), (4, 56, 56, 64) 235 against 177
# (2^22.8); dense (1, 14, 14, 16) 3x3 -> 16 18 against 72 us, (1, 28, 28, 32) -> 32 (2^22.8)
# 134 against 152, (4, 28, 28, 32) (2^24.8) 530 against 366. Depthwise work moves more
# bytes per multiply-add, so it pays to split sooner.
DEPTHWISE_PARALLEL_MIN_MACS = 1 << 21

MARK = "mlc.direct_conv"  # on the packed weight buffer / the depthwise output stores (for tests and readers)
OP = "linalg.conv_2d_nhwc_hwcf"
ZERO_INIT = "mlc.zero_init"  # hlo-to-linalg's mark: the output's init is all zeros

# Output pixels per cache block (MC): the K blocks and panels loop inside a block, so its
# output rows (MC x Co, re-read once per K block) and its input rows for one K block (MC x
# KC) stay in L2 while each KC x NR chunk of a weight panel is read from L1 MC/MR times.
# MC is the most pixels whose output and input rows fit BLOCK_BYTES (half of the EPYC's
# 512 KB L2 per core). BLOCK_TILES (MC / MR) overrides it, for measurements.
BLOCK_BYTES = 256 << 10
BLOCK_TILES: int | None = None
# Measurement switch: None = the rule (K blocks when the depth exceeds KC); True/False force.
K_BLOCKING: bool | None = None


@dataclass(frozen=True)
class ConvShape:
    """O[n, oh, ow, co] = sum X[n, oh*sh + kh*dh, ow*sw + kw*dw, ci] W[kh, kw, ci, co]."""

    n: int
    h: int
    w: int
    ci: int
    kh: int
    kw: int
    co: int
    oh: int
    ow: int
    strides: tuple[int, int]
    dilations: tuple[int, int]

    @property
    def pixels(self) -> int:
        return self.n * self.oh * self.ow

    @property
    def depth(self) -> int:
        return self.kh * self.kw * self.ci


def _ints(attr) -> tuple[int, ...]:
    return tuple(int(v) for v in ir.DenseIntElementsAttr(attr))


def _static_operands(op, name: str) -> tuple | None:
    """(input, filter, output) memref types of a `name` op on three static buffers, or None."""
    if op.name != name or len(op.operands) != 3:
        return None
    types = [op.operands[i].type for i in range(3)]
    if not all(isinstance(t, ir.MemRefType) and ir.MemRefType(t).has_static_shape for t in types):
        return None
    return tuple(ir.MemRefType(t) for t in types)


def conv_shape(op) -> ConvShape | None:
    """The shape of a linalg.conv_2d_nhwc_hwcf on static buffers, or None."""
    operands = _static_operands(op, OP)
    if operands is None:
        return None
    x, w, o = operands
    strides = _ints(op.attributes["strides"]) if "strides" in op.attributes else (1, 1)
    dilations = _ints(op.attributes["dilations"]) if "dilations" in op.attributes else (1, 1)
    n, h, wd, ci = x.shape
    kh, kw, ci2, co = w.shape
    n2, oh, ow, co2 = o.shape
    if (n, ci, co) != (n2, ci2, co2) or 0 in (n, h, wd, ci, kh, kw, co, oh, ow):
        return None
    return ConvShape(n, h, wd, ci, kh, kw, co, oh, ow, strides, dilations)


@dataclass(frozen=True)
class _Layout:
    """The strides the kernel reads the three buffers with (elements)."""

    x: list[int]  # n, h, w, c (c == 1)
    w: list[int]  # kh, kw, ci, co; (kh, kw, ci) collapse into one K dim of stride w[2]
    o: list[int]  # n, oh, ow, co; (n, oh, ow) collapse into one M dim of stride o[2], co == 1
    merged: bool  # the (kw, ci) run of one kernel row is contiguous in X: one inner loop


def _layout(op, s: ConvShape) -> _Layout | None:
    x, w, o = (_static_strides(op.operands[i]) for i in range(3))
    if x is None or w is None or o is None:
        return None
    if x[3] != 1 or o[3] != 1:
        return None
    if w[1] != s.ci * w[2] or w[0] != s.kw * w[1]:
        return None
    if o[1] != s.ow * o[2] or o[0] != s.oh * o[1]:
        return None
    merged = s.dilations[1] == 1 and x[2] == s.ci
    return _Layout(x, w, o, merged)


def supported(op) -> bool:
    """Whether this pass rewrites `op`: a static NHWC x HWIO conv of one float type the packed
    microkernel has (f16/bf16 summed in f32, f32, f64), channels contiguous."""
    s = conv_shape(op)
    if s is None:
        return False
    types = {ir.MemRefType(op.operands[i].type).element_type for i in range(3)}
    if len(types) != 1:
        return False
    et = types.pop()
    return isinstance(et, ir.FloatType) and compute_type(et) is not None and _layout(op, s) is not None


def _flat(value: ir.Value) -> ir.Value:
    """A 1-D view of a strided buffer from its first element (offset kept dynamic), long
    enough to reach its last element."""
    t = ir.MemRefType(value.type)
    strides, _ = t.get_strides_and_offset()
    extent = 1 + sum((d - 1) * st for d, st in zip(t.shape, strides))
    meta = memref.extract_strided_metadata(value)
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    layout = ir.StridedLayoutAttr.get(dyn, [1])
    result = ir.MemRefType.get([extent], t.element_type, layout, t.memory_space)
    return memref.reinterpret_cast(result, meta[0], [meta[1]], [], [], [dyn], [extent], [1])


def _tile_kernel(x, wp, bases, x_at, w_at, j_lo, j_hi, unroll: int | None, bl: Blocking, compute: ir.Type,
                 accs=None):
    """acc[MR][NR/lanes] (+)= sum over j in [j_lo, j_hi) of broadcast(X[bases[r] + x_at + j]) *
    Wp[w_at + j*NR + :], for the MR pixels whose windows start at `bases` (the packed GEMM's
    microkernel with MR row pointers; unrolled by `unroll`, which divides the trip count;
    None, a runtime trip count: by 2, then the odd one out)."""
    if unroll is None:
        j_mid = arith.subi(j_hi, arith.remui(arith.subi(j_hi, j_lo), _index(2)))
        accs = _tile_kernel(x, wp, bases, x_at, w_at, j_lo, j_mid, 2, bl, compute, accs)
        return _tile_kernel(x, wp, bases, x_at, w_at, j_mid, j_hi, 1, bl, compute, accs)
    vt = ir.VectorType.get([bl.lanes], compute)
    regs = bl.nr // bl.lanes
    accs = accs if accs is not None else [_zero(vt) for _ in range(bl.mr * regs)]
    rows = [arith.addi(b, x_at) for b in bases]
    loop = _for(j_lo, j_hi, unroll, accs)
    with ir.InsertionPoint(loop.body):
        j = loop.induction_variable
        acc = list(loop.inner_iter_args)
        for u in range(unroll):
            ju = arith.addi(j, _index(u)) if u else j
            b_at = arith.addi(w_at, arith.muli(ju, _index(bl.nr)))
            bs = [vector.load(vt, wp, [arith.addi(b_at, _index(v * bl.lanes)) if v else b_at])
                  for v in range(regs)]
            for r in range(bl.mr):
                a = _convert(memref.load(x, [arith.addi(rows[r], ju)]), compute)
                av = vector.broadcast(vt, a)
                for v in range(regs):
                    acc[r * regs + v] = _mul_add(av, bs[v], acc[r * regs + v])
        scf.YieldOp(acc)
    return list(loop.results)


@dataclass(frozen=True)
class ConvDims:
    """What the kernels' loops are built from: a conv's sizes and input strides (elements),
    ints for a static shape or index values for a runtime-sized kernel (conv_library.py)."""

    oh: object
    ow: object
    co: object
    kw: object
    strides: tuple  # (sh, sw)
    dilations: tuple  # (dh, dw)
    x: tuple  # the input's strides along n, h, w (c has stride 1)
    merged: bool  # the (kw, ci) run of one kernel row is contiguous in X: one inner loop
    pixels: object  # n * oh * ow: the GEMM's M
    depth: object  # kh * kw * ci: the GEMM's K
    run: object  # the contiguous input elements of one tap: kw * ci when merged, else ci
    taps: object  # kh when merged, else kh * kw


def conv_dims(n, oh, ow, ci, co, kh, kw, strides, dilations, x, merged: bool) -> ConvDims:
    return ConvDims(oh, ow, co, kw, tuple(strides), tuple(dilations), tuple(x), merged,
                    _imul(_imul(n, oh), ow), _imul(_imul(kh, kw), ci),
                    _imul(kw, ci) if merged else ci, kh if merged else _imul(kh, kw))


def _dims(s: ConvShape, lay: _Layout) -> ConvDims:
    return conv_dims(s.n, s.oh, s.ow, s.ci, s.co, s.kh, s.kw, s.strides, s.dilations, lay.x[:3], lay.merged)


def _pixel_bases(m0, d: ConvDims, mr: int) -> list[ir.Value]:
    """For r < MR: the flat input offset where output pixel min(m0 + r, M - 1)'s window
    starts (a tile past the last pixel recomputes the last one; its rows are not stored).
    Pixel m0's (image, row, column) is divided out once; each next pixel steps one column,
    wrapping to the next row and image by compares and selects: LLVM's loop strength
    reduction spent ~15 ms on a 3x3 conv's MR udiv/urem pairs of the tile loop's variable."""
    sh, sw = d.strides
    b, oh, ow = _pixel_indices(m0, d)
    zero, one = _index(0), _index(1)

    def base_of(b, oh, ow):
        return arith.addi(arith.muli(b, _idx(d.x[0])),
                          arith.addi(arith.muli(oh, _idx(_imul(sh, d.x[1]))), arith.muli(ow, _idx(_imul(sw, d.x[2])))))

    bases = [base_of(b, oh, ow)]
    for r in range(1, mr):
        ow = arith.addi(ow, one)
        wrap = arith.cmpi(arith.CmpIPredicate.eq, ow, _idx(d.ow))
        ow = arith.select(wrap, zero, ow)
        oh = arith.select(wrap, arith.addi(oh, one), oh)
        wrap = arith.cmpi(arith.CmpIPredicate.eq, oh, _idx(d.oh))
        oh = arith.select(wrap, zero, oh)
        b = arith.select(wrap, arith.addi(b, one), b)
        base = base_of(b, oh, ow)
        if _ragged(d.pixels, mr):  # past the last pixel: the last one again
            inside = arith.cmpi(arith.CmpIPredicate.ult, arith.addi(m0, _index(r)), _idx(d.pixels))
            base = arith.select(inside, base, bases[-1])
        bases.append(base)
    return bases


def emit_direct_conv(op, s: ConvShape, lay: _Layout, register_bits: int, threads: int, overwrite: bool,
                     epilogue: Epilogue | None = None) -> bool:
    """At the current insertion point: the direct convolution of `op`'s operands; with
    `epilogue` (the output starting as zeros), applied to each tile when the whole sum stays
    in registers (small depth). Returns whether the epilogue was applied."""
    xb, wb, ob = (op.operands[i] for i in range(3))
    et = ir.MemRefType(ob.type).element_type
    k = s.depth
    # The weights as a [K, Co] (or [Co, K]) matrix.
    w_meta = memref.extract_strided_metadata(wb)
    tile_minor = lay.w[3] == 1
    w_src = (Operand(wb, w_meta[1], lay.w[2], lay.w[3]).view(k, s.co) if tile_minor
             else Operand(wb, w_meta[1], lay.w[3], lay.w[2]).view(s.co, k))

    def views():
        o_meta = memref.extract_strided_metadata(ob)
        return _flat(xb), Operand(ob, o_meta[1], lay.o[2], 1).view(s.pixels, s.co)

    threads = _threads(s, threads)  # as for a GEMM's multiply-adds
    k_blocked = _k_blocked(s, et, register_bits)
    if k_blocked or not overwrite:
        epilogue = None
    emit_conv_loops(w_src, tile_minor, views, _dims(s, lay), et, register_bits, threads, overwrite, k_blocked,
                    epilogue, s)
    if epilogue is not None:
        epilogue.finish()
    return epilogue is not None


def emit_conv_loops(w_src, tile_minor: bool, views, d: ConvDims, et: ir.Type, register_bits: int, threads: int,
                    overwrite, k_blocked: bool, epilogue: Epilogue | None = None,
                    shape: ConvShape | None = None) -> None:
    """The dense kernel's loops (module docstring) on `w_src` (the weights as a [K, Co]
    matrix, or [Co, K] unless tile_minor) and `views()`' (x, c): the input as a flat buffer
    from its first element and the output as a [pixels, Co] matrix (made after the weights
    are packed). overwrite: True, False,
    or an i1 value (a runtime-sized kernel); with `epilogue` (a static `shape`, one K block),
    each tile goes through the epilogue instead of into C."""
    compute = compute_type(et)
    bl = blocking(compute, register_bits)
    panels = _icdiv(d.co, bl.nr)
    k = d.depth
    # The weights packed into NR-wide panels.
    size = _imul(_imul(panels, k), bl.nr)
    if isinstance(size, int):
        wp = memref.alloc(ir.MemRefType.get([size], compute), [], [], alignment=64)
    else:
        wp = memref.alloc(ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], compute), [size], [], alignment=64)
    wp.owner.attributes[MARK] = ir.UnitAttr.get()
    _pack(w_src, wp, _index(0), _index(0), _idx(k), _idx(k), bl.nr, _idx(panels), tile_minor, d.co, compute)
    x, c_view = views()

    units = _icdiv(d.pixels, bl.mr)
    if isinstance(units, int):
        chunk = -(-units // max(1, min(threads, units))) * bl.mr
        parts = -(-d.pixels // chunk)
    else:  # runtime sizes: one part per thread (a part past the end has empty loops)
        parts, chunk = threads, _imul(_icdiv(units, threads), bl.mr)
    # K blocks: each tap's contiguous run of input elements (the (kw, ci) run of a kernel row
    # when merged, else ci) cut into equal chunks of at most the GEMM's KC, so a chunk of a
    # weight panel (KC x NR) stays in L1 while the block's tiles read it.
    run, taps = d.run, d.taps
    pieces = _icdiv(run, bl.kc)
    kc = _icdiv(run, pieces)
    unroll = (2 if run % 2 == 0 and kc % 2 == 0 else 1) if isinstance(kc, int) else None
    dh, dw = d.dilations
    row_bytes = _imul(_iadd(_imul(panels, bl.nr), kc if k_blocked else k), compute.width // 8)
    if BLOCK_TILES or isinstance(row_bytes, int):
        tiles = BLOCK_TILES or max(1, BLOCK_BYTES // row_bytes // bl.mr)
    else:
        tiles = arith.maxui(_index(1), arith.divui(_index(BLOCK_BYTES), arith.muli(row_bytes, _index(bl.mr))))
    mc = _imin(_imul(tiles, bl.mr), chunk)
    emitter = _EpilogueEmitter(epilogue, bl.lanes) if epilogue is not None else None
    vt_el = ir.VectorType.get([bl.lanes], et)
    mask_t = ir.VectorType.get([bl.lanes], ir.IntegerType.get_signless(1))

    def tap_offset(tap):
        """The input offset of a tap's run from the window start."""
        if d.merged:
            return arith.muli(tap, _idx(_imul(dh, d.x[1])))
        i, j = arith.divui(tap, _idx(d.kw)), arith.remui(tap, _idx(d.kw))
        return arith.addi(arith.muli(i, _idx(_imul(dh, d.x[1]))), arith.muli(j, _idx(_imul(dw, d.x[2]))))

    def whole_window(m_block, m_end):
        """Small depth (the whole weight panel fits the KC budget): each tile sums every tap
        in registers and writes the output once."""
        loop_p = _for(0, panels, 1)
        with ir.InsertionPoint(loop_p.body):
            panel = loop_p.induction_variable
            w_panel = arith.muli(panel, _idx(_imul(k, bl.nr)))
            col = arith.muli(panel, _index(bl.nr))
            loop_m = _for(m_block, m_end, bl.mr)
            with ir.InsertionPoint(loop_m.body):
                m0 = loop_m.induction_variable
                bases = _pixel_bases(m0, d, bl.mr)
                vt = ir.VectorType.get([bl.lanes], compute)
                loop_tap = _for(0, taps, 1, [_zero(vt) for _ in range(bl.mr * (bl.nr // bl.lanes))])
                with ir.InsertionPoint(loop_tap.body):
                    tap = loop_tap.induction_variable
                    w_at = arith.addi(w_panel, arith.muli(tap, _idx(_imul(run, bl.nr))))
                    scf.YieldOp(_tile_kernel(x, wp, bases, tap_offset(tap), w_at, _index(0), _idx(run), unroll,
                                             bl, compute, list(loop_tap.inner_iter_args)))
                if emitter is None:
                    _update_c(c_view, list(loop_tap.results), m0, col, bl, d.pixels, d.co, overwrite, et)
                else:
                    _store_tile(emitter, list(loop_tap.results), m0, col, bl, shape, vt_el, mask_t)
                scf.YieldOp([])
            scf.YieldOp([])

    def body(t):
        lo = arith.muli(t, _idx(chunk)) if t is not None else _index(0)
        hi = arith.minsi(arith.addi(lo, _idx(chunk)), _idx(d.pixels)) if t is not None else _idx(d.pixels)
        loop_mc = _for(lo, hi, mc)
        with ir.InsertionPoint(loop_mc.body):
            m_block = loop_mc.induction_variable
            m_end = arith.minsi(arith.addi(m_block, _idx(mc)), hi)
            if not k_blocked:
                whole_window(m_block, m_end)
                scf.YieldOp([])
                return
            loop_tap = _for(0, taps, 1)
            with ir.InsertionPoint(loop_tap.body):
                tap = loop_tap.induction_variable
                x_tap = tap_offset(tap)
                loop_k = _for(0, run, kc)
                with ir.InsertionPoint(loop_k.body):
                    j_lo = loop_k.induction_variable
                    j_hi = arith.minsi(arith.addi(j_lo, _idx(kc)), _idx(run)) if _ragged(run, kc) else \
                        arith.addi(j_lo, _idx(kc))
                    first = None
                    if overwrite is not False:  # the first K block overwrites the output, the others add
                        first = arith.andi(arith.cmpi(arith.CmpIPredicate.eq, tap, _index(0)),
                                           arith.cmpi(arith.CmpIPredicate.eq, j_lo, _index(0)))
                        if overwrite is not True:
                            first = arith.andi(overwrite, first)
                    loop_p = _for(0, panels, 1)
                    with ir.InsertionPoint(loop_p.body):
                        panel = loop_p.induction_variable
                        # Wp[panel][tap * run + j][:]
                        w_at = arith.muli(arith.addi(arith.muli(panel, _idx(k)), arith.muli(tap, _idx(run))),
                                          _index(bl.nr))
                        col = arith.muli(panel, _index(bl.nr))
                        loop_m = _for(m_block, m_end, bl.mr)
                        with ir.InsertionPoint(loop_m.body):
                            m0 = loop_m.induction_variable
                            bases = _pixel_bases(m0, d, bl.mr)
                            accs = _tile_kernel(x, wp, bases, x_tap, w_at, j_lo, j_hi, unroll, bl, compute)
                            whole = overwrite is True and taps == 1 and pieces == 1
                            _update_c(c_view, accs, m0, col, bl, d.pixels, d.co,
                                      True if whole else (first if overwrite is not False else False), et)
                            scf.YieldOp([])
                        scf.YieldOp([])
                    scf.YieldOp([])
                scf.YieldOp([])
            scf.YieldOp([])

    in_parts(parts, body)
    memref.dealloc(wp)


def _store_tile(emitter, accs, m0, col, bl: Blocking, s: ConvShape, vt_el, mask_t) -> None:
    """The dense kernel's tile through the epilogue: pixel m0 + r, channels col + v*lanes
    (rows past the last pixel skipped, channels past Co masked)."""
    regs = bl.nr // bl.lanes
    masks = [None] * regs
    if s.co % bl.nr:
        masks = [vector.create_mask(mask_t, [arith.subi(_index(s.co), arith.addi(col, _index(v * bl.lanes)))])
                 for v in range(regs)]
    c_ats = [arith.addi(col, _index(v * bl.lanes)) if v else col for v in range(regs)]
    channels = [emitter.channel_vectors(c_ats[v], masks[v]) for v in range(regs)]
    for r in range(bl.mr):
        m = arith.addi(m0, _index(r)) if r else m0
        guard = None
        if s.pixels % bl.mr:
            guard = scf.IfOp(arith.cmpi(arith.CmpIPredicate.slt, m, _index(s.pixels)))
            ip = ir.InsertionPoint(guard.then_block)
            ip.__enter__()
        for v in range(regs):
            emitter.store(_narrow(accs[r * regs + v], vt_el), m, c_ats[v], masks[v], channels[v], s)
        if guard is not None:
            scf.YieldOp([])
            ip.__exit__(None, None, None)


# --- depthwise: linalg.depthwise_conv_2d_nhwc_hwc (channel multiplier 1) --------------------
DEPTHWISE = "linalg.depthwise_conv_2d_nhwc_hwc"


def depthwise_shape(op) -> ConvShape | None:
    """The shape of a depthwise conv on static buffers (ci = co = channels), or None."""
    operands = _static_operands(op, DEPTHWISE)
    if operands is None:
        return None
    x, w, o = operands
    if len({t.element_type for t in (x, w, o)}) != 1 or compute_type(x.element_type) is None \
            or not isinstance(x.element_type, ir.FloatType):
        return None
    strides = _ints(op.attributes["strides"]) if "strides" in op.attributes else (1, 1)
    dilations = _ints(op.attributes["dilations"]) if "dilations" in op.attributes else (1, 1)
    n, h, wd, c = x.shape
    kh, kw, c2 = w.shape
    n2, oh, ow, c3 = o.shape
    if (n, c, c) != (n2, c2, c3) or 0 in (n, h, wd, c, kh, kw, oh, ow):
        return None
    xs, ws, os_ = (_static_strides(op.operands[i]) for i in range(3))
    if xs is None or ws is None or os_ is None or xs[3] != 1 or ws[2] != 1 or os_[3] != 1:
        return None
    return ConvShape(n, h, wd, c, kh, kw, c, oh, ow, strides, dilations)


def _masked_load(vt, base, at, mask):
    if mask is None:
        return vector.load(vt, base, [at])
    return vector.maskedload(vt, base, [at], mask, _zero(vt))


def emit_depthwise(op, s: ConvShape, register_bits: int, threads: int, overwrite: bool,
                   epilogue: Epilogue | None = None, source: ir.Value | None = None,
                   pad: tuple[int, int] | None = None) -> bool:
    """At the current insertion point: O[m, c] (+)= sum over taps of X[base(m) + tap + c] *
    W[tap, c], vectorized over channels: register tiles of MR pixels x NR channels (the GEMM's
    tile shape), each tap one vector load of W shared by the MR pixels' loads of X. The last
    channel chunk is masked when NR does not divide the channels.

    With `source` and `pad` (lo_h, lo_w), the op's input is `source` zero padded (its shape s.h x
    s.w): the kernel reads the source in place. A tile whose MR windows all lie inside it is
    the plain tile; any other reads each tap with a mask that is all false where the tap falls
    in the padding (zeros, no memory access), its address clamped to the buffer."""
    xb, wb, ob = (op.operands[i] for i in range(3))
    if source is not None:
        xb = source
    et = ir.MemRefType(ob.type).element_type
    compute = compute_type(et)
    bl = blocking(compute, register_bits)
    regs = bl.nr // bl.lanes
    xs, ws, os_ = (_static_strides(v) for v in (xb, wb, ob))
    lay = _Layout(xs, [], os_, False)
    x, w, o = _flat(xb), _flat(wb), _flat(ob)
    vt_el = ir.VectorType.get([bl.lanes], et)
    vt = ir.VectorType.get([bl.lanes], compute)
    mask_t = ir.VectorType.get([bl.lanes], ir.IntegerType.get_signless(1))
    tail = s.ci % bl.nr  # channels in the last chunk (0: whole)
    emitter = _EpilogueEmitter(epilogue, bl.lanes) if epilogue is not None and overwrite else None

    if s.pixels * s.ci * s.kh * s.kw < DEPTHWISE_PARALLEL_MIN_MACS:
        threads = 1
    units = -(-s.pixels // bl.mr)
    chunk = -(-units // max(1, min(threads, units))) * bl.mr
    parts = -(-s.pixels // chunk)
    dh, dw = s.dilations
    sh, sw = s.strides

    def tile_sum(c0, masks, bases, corner=None):
        """One tile's sums over the taps: `bases` the flat offsets of its pixels' window
        origins (all inside the input); or one pixel's `corner` (batch offset, row, column of
        its window origin, negative in the padding), whose tap loops then run over the taps
        inside the source only (bounds from the corner: no per-tap test, no masked load)."""
        regs = len(masks)
        pixels = len(bases) if bases is not None else 1
        if corner is None:
            h_lo, h_hi, w_lo, w_hi = _index(0), _index(s.kh), _index(0), _index(s.kw)
        else:
            nb, ih0, iw0 = corner

            def taps(origin, extent, k, d):
                """[lo, hi): the taps t with 0 <= origin + t*d < extent, clamped to [0, k]."""
                lo = arith.maxsi(arith.ceildivsi(arith.subi(_index(0), origin), _index(d)), _index(0))
                hi = arith.minsi(arith.ceildivsi(arith.subi(_index(extent), origin), _index(d)), _index(k))
                return arith.minsi(lo, _index(k)), arith.maxsi(hi, _index(0))

            h_lo, h_hi = taps(ih0, s.h, s.kh, dh)
            w_lo, w_hi = taps(iw0, s.w, s.kw, dw)
            bases = [arith.addi(nb, arith.addi(arith.muli(ih0, _index(xs[1])), arith.muli(iw0, _index(xs[2]))))]
        loop_h = _for(h_lo, h_hi, 1, [_zero(vt) for _ in range(pixels * regs)])
        with ir.InsertionPoint(loop_h.body):
            i = loop_h.induction_variable
            loop_w = _for(w_lo, w_hi, 1, list(loop_h.inner_iter_args))
            with ir.InsertionPoint(loop_w.body):
                j = loop_w.induction_variable
                acc = list(loop_w.inner_iter_args)
                x_tap = arith.addi(arith.muli(i, _index(dh * xs[1])), arith.muli(j, _index(dw * xs[2])))
                w_at = arith.addi(arith.addi(arith.muli(i, _index(ws[0])), arith.muli(j, _index(ws[1]))), c0)
                wv = [_convert(_masked_load(vt_el, w, arith.addi(w_at, _index(v * bl.lanes)) if v else w_at,
                                            masks[v]), vt) for v in range(regs)]
                for r in range(pixels):
                    at = arith.addi(bases[r], x_tap)
                    for v in range(regs):
                        xv = _convert(_masked_load(vt_el, x, arith.addi(at, _index(v * bl.lanes)) if v else at,
                                                   masks[v]), vt)
                        acc[r * regs + v] = _mul_add(xv, wv[v], acc[r * regs + v])
                scf.YieldOp(acc)
            scf.YieldOp(list(loop_w.results))
        return list(loop_h.results)

    def store(accs, pixels, c0, masks, guards=None):
        """Tile sums to the output (or through the epilogue): pixels as (n, oh, ow) index
        values, or as flat output pixels m; a pixel whose guard is false is skipped."""
        regs = len(masks)
        if emitter is not None:
            c_ats = [arith.addi(c0, _index(v * bl.lanes)) if v else c0 for v in range(regs)]
            channels = [emitter.channel_vectors(c_ats[v], masks[v]) for v in range(regs)]
        for r, pixel in enumerate(pixels):
            guard = None
            if guards is not None and guards[r] is not None:
                guard = scf.IfOp(guards[r])
                ip = ir.InsertionPoint(guard.then_block)
                ip.__enter__()
            if emitter is not None:
                for v in range(regs):
                    emitter.store(_narrow(accs[r * regs + v], vt_el), pixel, c_ats[v], masks[v], channels[v], s)
            else:
                if not isinstance(pixel, tuple):
                    pixel = _pixel_indices(pixel, s)
                n_, oh_, ow_ = pixel
                at = arith.addi(arith.addi(arith.muli(n_, _index(os_[0])), arith.muli(oh_, _index(os_[1]))),
                                arith.addi(arith.muli(ow_, _index(os_[2])), c0))
                for v in range(regs):
                    a = arith.addi(at, _index(v * bl.lanes)) if v else at
                    value = accs[r * regs + v]
                    if not overwrite:
                        value = arith.addf(_convert(_masked_load(vt_el, o, a, masks[v]), vt), value)
                    value = _narrow(value, vt_el)
                    if masks[v] is None:
                        st = vector.store(value, o, [a])
                    else:
                        st = vector.maskedstore(o, [a], masks[v], value)
                    st.attributes[MARK] = ir.UnitAttr.get()  # (a loop of one tile is folded away)
            if guard is not None:
                scf.YieldOp([])
                ip.__exit__(None, None, None)

    def channel_chunks(emit):
        """emit(c0, masks) per chunk of NR channels, the last one masked."""
        full = s.ci // bl.nr
        if full:
            loop_c = _for(0, full * bl.nr, bl.nr)
            with ir.InsertionPoint(loop_c.body):
                emit(loop_c.induction_variable, [None] * regs)
                scf.YieldOp([])
        if tail:
            masks = [vector.create_mask(mask_t, [_index(min(bl.lanes, tail - v * bl.lanes))])
                     for v in range(-(-tail // bl.lanes))]
            emit(_index(full * bl.nr), masks)

    def flat_tile(m0, c0, masks):
        """MR consecutive output pixels (n, oh, ow flattened), no padding to check."""
        accs = tile_sum(c0, masks, [arith.addi(b, c0) for b in _pixel_bases(m0, _dims(s, lay), bl.mr)])
        ms = [arith.addi(m0, _index(r)) if r else m0 for r in range(bl.mr)]
        guards = [arith.cmpi(arith.CmpIPredicate.slt, m, _index(s.pixels)) for m in ms] \
            if s.pixels % bl.mr else None
        store(accs, ms, c0, masks, guards)

    def body(t):
        lo = arith.muli(t, _index(chunk)) if t is not None else _index(0)
        hi = arith.minsi(arith.addi(lo, _index(chunk)), _index(s.pixels)) if t is not None else _index(s.pixels)
        loop_m = _for(lo, hi, bl.mr)
        with ir.InsertionPoint(loop_m.body):
            m0 = loop_m.induction_variable
            channel_chunks(lambda c0, masks: flat_tile(m0, c0, masks))
            scf.YieldOp([])

    if pad is not None:
        # Padding in the kernel: output rows one by one. On a row whose windows stay inside
        # the source vertically, the columns [ow_lo, ow_lo + MR*k) whose windows stay inside
        # horizontally run as plain MR-pixel tiles; every other pixel of the row (the left and
        # right edges, a row in the top or bottom padding, the last partial tile) runs alone,
        # over the taps that fall inside the source.
        oh_lo, ow_lo = -(-pad[0] // sh), -(-pad[1] // sw)
        oh_hi = (s.h - 1 - (s.kh - 1) * dh + pad[0]) // sh
        ow_hi = (s.w - 1 - (s.kw - 1) * dw + pad[1]) // sw
        inner = max(0, min(ow_hi, s.ow - 1) - ow_lo + 1) // bl.mr * bl.mr
        rows = s.n * s.oh
        if s.pixels * s.ci * s.kh * s.kw < DEPTHWISE_PARALLEL_MIN_MACS:
            threads = 1
        row_chunk = -(-rows // max(1, min(threads, rows)))
        row_parts = -(-rows // row_chunk)

        def corner(b, oh, ow, c0):
            return (arith.addi(arith.muli(b, _index(xs[0])), c0),
                    arith.subi(arith.muli(oh, _index(sh)), _index(pad[0])),
                    arith.subi(arith.muli(ow, _index(sw)), _index(pad[1])))

        def row_body(t):
            lo = arith.muli(t, _index(row_chunk)) if t is not None else _index(0)
            hi = arith.minsi(arith.addi(lo, _index(row_chunk)), _index(rows)) if t is not None else _index(rows)
            loop_r = _for(lo, hi, 1)
            with ir.InsertionPoint(loop_r.body):
                row = loop_r.induction_variable
                b, oh = arith.divui(row, _index(s.oh)), arith.remui(row, _index(s.oh))
                inside = arith.andi(arith.cmpi(arith.CmpIPredicate.sge, oh, _index(oh_lo)),
                                    arith.cmpi(arith.CmpIPredicate.sle, oh, _index(oh_hi)))
                # The plain tiles' columns [a, e): empty on a row in the vertical padding.
                a = arith.select(inside, _index(ow_lo), _index(0))
                e = arith.select(inside, _index(ow_lo + inner), _index(0))

                def plain(c0, masks):
                    loop_t = _for(a, e, bl.mr)
                    with ir.InsertionPoint(loop_t.body):
                        ow0 = loop_t.induction_variable
                        nb, ih, iw = corner(b, oh, ow0, c0)
                        origin = arith.addi(nb, arith.addi(arith.muli(ih, _index(xs[1])),
                                                           arith.muli(iw, _index(xs[2]))))
                        bases = [arith.addi(origin, _index(r * sw * xs[2])) if r else origin for r in range(bl.mr)]
                        owr = [arith.addi(ow0, _index(r)) if r else ow0 for r in range(bl.mr)]
                        store(tile_sum(c0, masks, bases), [(b, oh, ow) for ow in owr], c0, masks)
                        scf.YieldOp([])

                def edge(lo_col, hi_col):
                    def emit(c0, masks):
                        loop_p = _for(lo_col, hi_col, 1)
                        with ir.InsertionPoint(loop_p.body):
                            ow = loop_p.induction_variable
                            store(tile_sum(c0, masks, None, corner(b, oh, ow, c0)), [(b, oh, ow)], c0, masks)
                            scf.YieldOp([])
                    return emit

                if inner:
                    channel_chunks(plain)
                channel_chunks(edge(_index(0), a))
                channel_chunks(edge(e, _index(s.ow)))
                scf.YieldOp([])

        in_parts(row_parts, row_body)
        if emitter is not None:
            emitter.ep.finish()
        return emitter is not None

    in_parts(parts, body)
    if emitter is not None:
        emitter.ep.finish()
    return emitter is not None


# --- the elementwise epilogue (epilogue.py), stored by the kernels -------------------------

class _EpilogueEmitter:
    """Applies an Epilogue to vectors of one pixel's channels and stores them."""

    def __init__(self, ep: Epilogue, lanes: int):
        self.ep, self.lanes = ep, lanes
        self.out = _flat(ep.out)
        self.out_strides = _static_strides(ep.out)
        self.out_vt = ir.VectorType.get([lanes], ir.MemRefType(ep.out.type).element_type)
        self.flat = [(_flat(b) if k in ("full", "channel") else b) for k, b in zip(ep.kinds, ep.buffers)]
        self.strides = [(_static_strides(b) if k in ("full", "channel") else None)
                        for k, b in zip(ep.kinds, ep.buffers)]

    def channel_vectors(self, c_at, mask):
        """Per channel operand: its vector at channel offset c_at (loaded once per tile)."""
        result = {}
        for i, (kind, flat) in enumerate(zip(self.ep.kinds, self.flat)):
            if kind == "channel":
                el = ir.MemRefType(self.ep.buffers[i].type).element_type
                result[i] = _masked_load(ir.VectorType.get([self.lanes], el), flat, c_at, mask)
            elif kind == "scalar":
                el = ir.MemRefType(self.ep.buffers[i].type).element_type
                result[i] = vector.broadcast(ir.VectorType.get([self.lanes], el), memref.load(self.ep.buffers[i], []))
        return result

    def store(self, value, pixel, c_at, mask, channels: dict, shape: "ConvShape"):
        """Epilogue(value) stored at pixel (n, oh, ow) (index values), or at flat output pixel
        m (an index value), channels [c_at, +lanes)."""
        flat = not isinstance(pixel, tuple)
        indices = None

        def offset(strides):
            nonlocal indices
            if flat and strides[1] == shape.ow * strides[2] and strides[0] == shape.oh * strides[1]:
                return arith.addi(arith.muli(pixel, _index(strides[2])), c_at)  # (n, oh, ow) one dim
            if indices is None:
                indices = _pixel_indices(pixel, shape) if flat else pixel
            n, oh, ow = indices
            return arith.addi(arith.addi(arith.muli(n, _index(strides[0])), arith.muli(oh, _index(strides[1]))),
                              arith.addi(arith.muli(ow, _index(strides[2])), c_at))

        args = []
        for i, kind in enumerate(self.ep.kinds):
            if kind == "acc":
                args.append(value)
            elif kind == "full":
                el = ir.MemRefType(self.ep.buffers[i].type).element_type
                args.append(_masked_load(ir.VectorType.get([self.lanes], el), self.flat[i], offset(self.strides[i]),
                                         mask))
            else:
                args.append(channels[i])
        result = apply_body(self.ep.block, args, self.lanes)
        at = offset(self.out_strides)
        store = vector.store(result, self.out, [at]) if mask is None else \
            vector.maskedstore(self.out, [at], mask, result)
        store.attributes[MARK] = ir.UnitAttr.get()


def _pixel_indices(m, s: ConvShape | ConvDims):
    """(n, oh, ow) of flat output pixel m."""
    plane = _idx(_imul(s.oh, s.ow))
    b = arith.divui(m, plane)
    rest = arith.remui(m, plane)
    return b, arith.divui(rest, _idx(s.ow)), arith.remui(rest, _idx(s.ow))


# --- padding inside the depthwise kernel ----------------------------------------------------
# hlo-to-linalg marks a depthwise conv whose input it zero padded with PAD = [lo_h, lo_w]:
# the input buffer is then the source copied into [lo_h : lo_h + H, lo_w : lo_w + W] of a
# temporary whose borders are zeroed. The kernel reads the source itself instead (edge tiles
# masked, emit_depthwise), and the copy and the border fills, which only wrote that temporary,
# are erased.
PAD = "mlc.pad"
# Measurement switch: False keeps the padded copy.
PAD_IN_KERNEL = True


def _subview_parts(op):
    return [_static_sizes(op, k) for k in ("static_offsets", "static_sizes", "static_strides")]


_VIEW_OPS = ("memref.subview", "memref.cast", "memref.collapse_shape", "memref.expand_shape", "memref.reinterpret_cast")


def _views_of(value: ir.Value, out: list) -> None:
    """value and every view made from it (transitively)."""
    out.append(value)
    for use in value.uses:
        user = _op(use.owner)
        if user.name in _VIEW_OPS and use.operand_number == 0:
            _views_of(user.results[0], out)


def _row_slice_source(value: ir.Value):
    """(source, row index value) when `value` is subview(source)[i, 0, ...][1, full...][1...]
    (a row-fusion loop's slice), else (value, None)."""
    op = _owner_op(value)
    if op is None or op.name != "memref.subview":
        return value, None
    offsets, sizes, strides = _subview_parts(op)
    t = ir.MemRefType(op.operands[0].type)
    if (offsets[0] < 0 and offsets[1:] == [0] * (t.rank - 1) and sizes == [1] + list(t.shape[1:])
            and strides == [1] * t.rank and len(op.operands) == 2):
        return op.operands[0], op.operands[1]
    return value, None


def _writes(op) -> list:
    """Buffers an op may write (conservative: every memref operand of an op we do not know)."""
    name = op.name
    if name in ("linalg.fill", "linalg.copy", "linalg.generic", "linalg.transpose", "linalg.map") or \
            name.startswith("linalg."):
        n = len(op.operands)
        if segment_sizes(op):
            return inits(op)
        return [op.operands[n - 1]]
    if name == "memref.copy":
        return [op.operands[1]]
    if name in _PURE or name.startswith("arith.") or name.startswith("scf.") or name in (
            "memref.load", "vector.load", "vector.maskedload", "vector.transfer_read", "memref.alloc",
            "memref.alloca", "memref.dealloc"):
        return []
    return [v for v in op.operands if isinstance(v.type, ir.MemRefType)]


def padded_source(conv):
    """For a conv marked PAD: (source buffer, its writers to erase) when its input
    is a temporary only the pad wrote and the conv reads, and the source is not overwritten
    before the kernel runs; else None."""
    if not PAD_IN_KERNEL or PAD not in conv.attributes:
        return None
    lo = list(ir.DenseI64ArrayAttr(conv.attributes[PAD]))
    value = conv.operands[0]
    # Through hlo-to-linalg's cut (a subview at the origin) to the padded buffer.
    op = _owner_op(value)
    while op is not None and op.name == "memref.subview" and _subview_parts(op)[0] == [0] * 4:
        value = op.operands[0]
        op = _owner_op(value)
    padded = value
    if op is None or op.name not in ("memref.view", "memref.alloc", "memref.alloca"):
        return None
    views = []
    _views_of(padded, views)
    writers, interior = [], None
    for view in views:
        for use in view.uses:
            user = _op(use.owner)
            if user == conv or user.name == "memref.dealloc" or (user.name in _VIEW_OPS and use.operand_number == 0):
                continue
            if user.name in ("linalg.fill", "linalg.copy", "memref.copy") and \
                    use.operand_number == len(user.operands) - 1:
                writers.append(user)
                continue
            return None  # another reader
    # The interior copy: its target P[0, lo_h, lo_w, 0][n, H, W, c] (or a row of it).
    for writer in writers:
        if writer.name == "linalg.fill":
            continue
        target, row = _row_slice_source(writer.operands[1])
        source, source_row = _row_slice_source(writer.operands[0])
        if (row is None) != (source_row is None) or (row is not None and source_row != row):
            continue
        top = _owner_op(target)
        if top is None or top.name != "memref.subview" or top.operands[0] != padded or \
                list(ir.MemRefType(target.type).shape) != list(ir.MemRefType(source.type).shape):
            continue
        # The source as 4-D: unit dims dropped by the (rank-reducing) interior subview are
        # collapsed in the source alike (upstream's unit-dim folding).
        collapse = _owner_op(source)
        if collapse is not None and collapse.name == "memref.collapse_shape":
            source = collapse.operands[0]
        offsets, sizes, strides = _subview_parts(top)
        st = ir.MemRefType(source.type)
        if offsets == [0, lo[0], lo[1], 0] and strides == [1] * 4 and st.has_static_shape and st.rank == 4 and \
                sizes == list(st.shape) and st.element_type == ir.MemRefType(padded.type).element_type:
            interior = (writer, source)
    if interior is None:
        return None
    writer, source = interior
    strides = _static_strides(source)
    if strides is None or strides[3] != 1:
        return None
    # The source must keep its values until the kernel has run: nothing between the copy and
    # the conv writes its bytes (a scratch buffer reused after the copy, its last reader).
    ops = block_ops(conv)
    start = next((i for i, o in enumerate(ops) if _inside(writer, o)), None)
    if start is None:
        return None
    for o in ops[start:ops.index(conv)]:
        clash = []

        def visit(inner):
            if inner not in writers and any(_may_alias(v, source) for v in _writes(inner)):
                clash.append(inner)
            return ir.WalkResult.ADVANCE

        o.walk(visit)
        if clash:
            return None
    if _may_alias(conv.operands[2], source):
        return None
    return source, writers


def _erase_writers(writers) -> None:
    """Erases the pad's writers, then what only fed them: fills of private buffers (the
    border slabs) that nothing else reads, and loops left with nothing to do."""
    sources = [w.operands[0] for w in writers if w.name != "linalg.fill"]
    loops = []
    for w in writers:
        parent = w.parent
        while parent is not None and parent.name in ("scf.for", "scf.forall"):
            if parent.name == "scf.forall" and parent not in loops:
                loops.append(parent)
            parent = parent.parent
        w.erase()
    for value in sources:
        # The private buffer (or scratch view: one per temporary) the slab was copied from.
        root = value
        op = _owner_op(root)
        while op is not None and op.name in _VIEW_OPS:
            root = op.operands[0]
            op = _owner_op(root)
        if op is None or op.name not in ("memref.alloca", "memref.alloc", "memref.view"):
            continue
        views = []
        _views_of(root, views)
        users = [_op(u.owner) for v in views for u in v.uses]
        if all(u.name in _PURE or (u.name == "linalg.fill" and u.operands[1] in views) or
               u.name == "memref.dealloc" for u in users):
            for u in users:
                if u.name == "linalg.fill":
                    u.erase()
    for loop in loops:  # a loop is kept while anything in it has an effect (no nested foralls here)
        effects = []
        loop.walk(lambda o: (effects.append(o) if o != loop and _writes(o) else None, ir.WalkResult.ADVANCE)[1])
        if not effects and not len(loop.results):
            loop.erase()


# The views a fill's target is followed through to its buffer (not reshapes).
_SUBVIEW_OR_CAST = frozenset({"memref.subview", "memref.cast"})


def _is_fill(op) -> bool:
    """linalg.fill, or a generic that writes one scalar everywhere (a generalized fill)."""
    if op.name == "linalg.fill":
        return True
    if op.name != "linalg.generic" or len(op.operands) != 2 or len(op.results):
        return False
    body = list(op.regions[0].blocks[0].operations)
    return (len(body) == 1 and body[0].operation.name == "linalg.yield"
            and body[0].operands[0] == op.regions[0].blocks[0].arguments[0]
            and not isinstance(op.operands[0].type, ir.ShapedType))


def _drop_zero_fills(function, conv) -> None:
    """Erases the fills of the conv's output buffer (or views of it) that come before it: the
    zero init hlo-to-linalg made, which row fusion may have moved into another loop. The
    kernel overwrites every output element, so they are dead stores (a few ms on big outputs)."""
    target = conv.operands[2]
    fills = []

    def visit(op):
        if op == conv:
            return ir.WalkResult.INTERRUPT
        if _is_fill(op) and view_root(op.operands[len(op.operands) - 1], _SUBVIEW_OR_CAST) == target:
            fills.append(op)
        return ir.WalkResult.ADVANCE

    function.walk(visit)
    for fill in fills:
        fill.erase()


def _k_blocked(s: ConvShape, et: ir.Type, register_bits: int) -> bool:
    """Whether the dense kernel cuts K into blocks (depth above the GEMM's KC), else each tile
    sums the whole window in registers."""
    return K_BLOCKING if K_BLOCKING is not None else s.depth > blocking(compute_type(et), register_bits).kc


def _threads(s: ConvShape, threads: int) -> int:
    """The dense kernel's threads: one below the GEMM's rule on multiply-adds."""
    return 1 if s.pixels * s.co * s.depth < PACKED_PARALLEL_MIN_MNK else threads


def _call_kernel(module, op, bits: int, threads: int, overwrite: bool, epilogue) -> bool:
    """A dense conv whose tiles need no epilogue as a call of MLC's precompiled kernel
    (conv_library.py), which also writes the zero-padded input when hlo-to-linalg marked
    it (its fills and copy are then erased); False when the program keeps its own kernel."""
    s = conv_shape(op)
    lay = _layout(op, s)
    et = ir.MemRefType(op.operands[2].type).element_type
    k_blocked = _k_blocked(s, et, bits)
    if epilogue is not None and overwrite and not k_blocked:  # the generated kernel applies it
        return False
    variant = conv_library.variant_for(op, s, lay, bits, _threads(s, threads), k_blocked)
    if variant is None:
        return False
    found = padded_source(op)
    padding = None
    if found is not None:
        source, writers = found
        args = conv_library.padding_of(op, s, lay, source, tuple(ir.DenseI64ArrayAttr(op.attributes[PAD])))
        if args is not None:
            padding = (source, args)
    conv_library.emit_call(module, variant, op, s, lay, overwrite, padding)
    if padding is not None:
        _erase_writers(writers)
    return True


def _function_of(op):
    parent = op.parent
    while parent is not None and parent.name != "func.func":
        parent = parent.parent
    return parent


@dataclass(frozen=True)
class DirectConv(Pass):
    """Lowers 2-D NHWC x HWIO convolutions (linalg.conv_2d_nhwc_hwcf) to a direct,
    register-tiled convolution: packed weights, no im2col buffer, both cores; and 2-D
    depthwise ones (linalg.depthwise_conv_2d_nhwc_hwc) to vector code over channels. A
    conv's elementwise consumer (batch norm, bias, ReLU6, a residual add) is applied to the
    register tiles before they are stored, and erased; a depthwise conv marked mlc.pad reads
    its unpadded source in place (edge pixels masked) and its padded copy is erased.

    Expects: the `buffers` stage (before linalg-generalize-named-ops). Produces: scf loops
    over vector FMAs (an scf.forall over output pixels when big enough); convolutions it
    cannot take (strided channels, non-float) are left for the generic lowering.
    """

    name = "mlc-direct-conv"
    register_bits: int = 0  # 0 = the target's vector width
    threads: int = 0  # 0 = num_threads()

    def run(self, module: ir.Operation) -> None:
        found = []

        def visit(op):
            if (op.name == OP and supported(op)) or depthwise_shape(op) is not None:
                found.append(op)
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        if not found:
            return
        bits = self.register_bits or vector_register_bits()
        threads = self.threads or num_threads()
        # Last first: a later conv drops its zero fill, which row fusion may have put in the
        # loop holding an earlier conv's epilogue.
        for op in reversed(found):
            zero_fill = _zero_fill_before(op)
            # Overwrite the output when it starts as zeros: a zero fill right before, or
            # hlo-to-linalg's mark (its fill may have moved into another loop since).
            overwrite = zero_fill is not None or ZERO_INIT in op.attributes
            if zero_fill is None and ZERO_INIT in op.attributes:
                function = _function_of(op)
                if function is not None:
                    _drop_zero_fills(function.operation, op)
            padded = padded_source(op) if op.name == DEPTHWISE else None
            # What the kernel reads: the unpadded source when it pads (the padded buffer's
            # bytes are then free for the epilogue's output), else the conv's input.
            reads = [padded[0] if padded is not None else op.operands[0], op.operands[1]]
            epilogue = match_epilogue(op, [zero_fill] if zero_fill is not None else [], reads) \
                if overwrite else None
            if padded is not None and epilogue is not None and _may_alias(epilogue.out, padded[0]):
                padded = None
            with ir.InsertionPoint(op), op.location:
                if op.name == DEPTHWISE and padded is not None:
                    source, writers = padded
                    h, w = ir.MemRefType(source.type).shape[1:3]
                    s = depthwise_shape(op)
                    s = ConvShape(s.n, h, w, s.ci, s.kh, s.kw, s.co, s.oh, s.ow, s.strides, s.dilations)
                    lo = tuple(ir.DenseI64ArrayAttr(op.attributes[PAD]))
                    emit_depthwise(op, s, bits, threads, overwrite, epilogue, source, lo)
                    _erase_writers(writers)
                elif op.name == DEPTHWISE:
                    emit_depthwise(op, depthwise_shape(op), bits, threads, overwrite, epilogue)
                elif not _call_kernel(module, op, bits, threads, overwrite, epilogue):
                    s = conv_shape(op)
                    emit_direct_conv(op, s, _layout(op, s), bits, threads, overwrite, epilogue)
            op.erase()
            if zero_fill is not None:
                zero_fill.erase()
