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
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, memref, scf, vector

from ..transforms.pass_base import Pass
from .blas import _zero_fill_before, compute_type
from .loops import forall
from .packed_gemm import (Blocking, Operand, _convert, _for, _index, _mul_add, _narrow, _pack,
                          _update_c, _zero, blocking)
from .target import num_threads, vector_register_bits

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


def _static_strides(value: ir.Value) -> list[int] | None:
    strides, _ = ir.MemRefType(value.type).get_strides_and_offset()
    return None if min(strides) < 0 else list(strides)


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


def _tile_kernel(x, wp, bases, x_at, w_at, j_lo, j_hi, unroll: int, bl: Blocking, compute: ir.Type, accs=None):
    """acc[MR][NR/lanes] (+)= sum over j in [j_lo, j_hi) of broadcast(X[bases[r] + x_at + j]) *
    Wp[w_at + j*NR + :], for the MR pixels whose windows start at `bases` (the packed GEMM's
    microkernel with MR row pointers; unrolled by `unroll`, which divides the trip count)."""
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


def _pixel_bases(m0, s: ConvShape, lay: _Layout, mr: int) -> list[ir.Value]:
    """For r < MR: the flat input offset where output pixel min(m0 + r, M - 1)'s window
    starts (a tile past the last pixel recomputes the last one; its rows are not stored)."""
    bases = []
    plane = s.oh * s.ow
    sh, sw = s.strides
    for r in range(mr):
        m = arith.addi(m0, _index(r)) if r else m0
        if s.pixels % mr:
            m = arith.minsi(m, _index(s.pixels - 1))
        b = arith.divui(m, _index(plane))
        rest = arith.remui(m, _index(plane))
        oh = arith.divui(rest, _index(s.ow))
        ow = arith.remui(rest, _index(s.ow))
        base = arith.addi(arith.muli(b, _index(lay.x[0])),
                          arith.addi(arith.muli(oh, _index(sh * lay.x[1])), arith.muli(ow, _index(sw * lay.x[2]))))
        bases.append(base)
    return bases


def emit_direct_conv(op, s: ConvShape, lay: _Layout, register_bits: int, threads: int, overwrite: bool) -> None:
    """At the current insertion point: the direct convolution of `op`'s operands."""
    xb, wb, ob = (op.operands[i] for i in range(3))
    et = ir.MemRefType(ob.type).element_type
    compute = compute_type(et)
    bl = blocking(compute, register_bits)
    panels = -(-s.co // bl.nr)
    k = s.depth
    # The weights as a [K, Co] (or [Co, K]) matrix, packed into NR-wide panels.
    w_meta = memref.extract_strided_metadata(wb)
    tile_minor = lay.w[3] == 1
    w_src = (Operand(wb, w_meta[1], lay.w[2], lay.w[3]).view(k, s.co) if tile_minor
             else Operand(wb, w_meta[1], lay.w[3], lay.w[2]).view(s.co, k))
    wp = memref.alloc(ir.MemRefType.get([panels * k * bl.nr], compute), [], [], alignment=64)
    wp.owner.attributes[MARK] = ir.UnitAttr.get()
    _pack(w_src, wp, _index(0), _index(0), _index(k), _index(k), bl.nr, _index(panels), tile_minor, s.co, compute)
    x = _flat(xb)
    o_meta = memref.extract_strided_metadata(ob)
    c_view = Operand(ob, o_meta[1], lay.o[2], 1).view(s.pixels, s.co)

    from .parallel import MIN_PARALLEL_ITERATIONS  # parallel.py imports blas, which this module imports

    if s.pixels * s.co * k < MIN_PARALLEL_ITERATIONS:
        threads = 1
    units = -(-s.pixels // bl.mr)
    chunk = -(-units // max(1, min(threads, units))) * bl.mr
    parts = -(-s.pixels // chunk)
    # K blocks: each tap's contiguous run of input elements (the (kw, ci) run of a kernel row
    # when merged, else ci) cut into equal chunks of at most the GEMM's KC, so a chunk of a
    # weight panel (KC x NR) stays in L1 while the block's tiles read it.
    run = s.kw * s.ci if lay.merged else s.ci
    taps = s.kh if lay.merged else s.kh * s.kw
    pieces = -(-run // bl.kc)
    kc = -(-run // pieces)
    unroll = 2 if run % 2 == 0 and kc % 2 == 0 else 1
    dh, dw = s.dilations
    k_blocked = K_BLOCKING if K_BLOCKING is not None else k > bl.kc
    row_bytes = (panels * bl.nr + (kc if k_blocked else k)) * compute.width // 8
    tiles = BLOCK_TILES or max(1, BLOCK_BYTES // row_bytes // bl.mr)
    mc = min(tiles * bl.mr, chunk)

    def tap_offset(tap):
        """The input offset of a tap's run from the window start."""
        if lay.merged:
            return arith.muli(tap, _index(dh * lay.x[1]))
        i, j = arith.divui(tap, _index(s.kw)), arith.remui(tap, _index(s.kw))
        return arith.addi(arith.muli(i, _index(dh * lay.x[1])), arith.muli(j, _index(dw * lay.x[2])))

    def whole_window(m_block, m_end):
        """Small depth (the whole weight panel fits the KC budget): each tile sums every tap
        in registers and writes the output once."""
        loop_p = _for(0, panels, 1)
        with ir.InsertionPoint(loop_p.body):
            panel = loop_p.induction_variable
            w_panel = arith.muli(panel, _index(k * bl.nr))
            col = arith.muli(panel, _index(bl.nr))
            loop_m = _for(m_block, m_end, bl.mr)
            with ir.InsertionPoint(loop_m.body):
                m0 = loop_m.induction_variable
                bases = _pixel_bases(m0, s, lay, bl.mr)
                vt = ir.VectorType.get([bl.lanes], compute)
                loop_tap = _for(0, taps, 1, [_zero(vt) for _ in range(bl.mr * (bl.nr // bl.lanes))])
                with ir.InsertionPoint(loop_tap.body):
                    tap = loop_tap.induction_variable
                    w_at = arith.addi(w_panel, arith.muli(tap, _index(run * bl.nr)))
                    scf.YieldOp(_tile_kernel(x, wp, bases, tap_offset(tap), w_at, _index(0), _index(run), unroll,
                                             bl, compute, list(loop_tap.inner_iter_args)))
                _update_c(c_view, list(loop_tap.results), m0, col, bl, s.pixels, s.co, overwrite, et)
                scf.YieldOp([])
            scf.YieldOp([])

    def body(t):
        lo = arith.muli(t, _index(chunk)) if t is not None else _index(0)
        hi = arith.minsi(arith.addi(lo, _index(chunk)), _index(s.pixels)) if t is not None else _index(s.pixels)
        loop_mc = _for(lo, hi, mc)
        with ir.InsertionPoint(loop_mc.body):
            m_block = loop_mc.induction_variable
            m_end = arith.minsi(arith.addi(m_block, _index(mc)), hi)
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
                    j_hi = arith.minsi(arith.addi(j_lo, _index(kc)), _index(run)) if run % kc else \
                        arith.addi(j_lo, _index(kc))
                    first = None
                    if overwrite:  # the first K block overwrites the output, the others add
                        first = arith.andi(arith.cmpi(arith.CmpIPredicate.eq, tap, _index(0)),
                                           arith.cmpi(arith.CmpIPredicate.eq, j_lo, _index(0)))
                    loop_p = _for(0, panels, 1)
                    with ir.InsertionPoint(loop_p.body):
                        panel = loop_p.induction_variable
                        # Wp[panel][tap * run + j][:]
                        w_at = arith.muli(arith.addi(arith.muli(panel, _index(k)), arith.muli(tap, _index(run))),
                                          _index(bl.nr))
                        col = arith.muli(panel, _index(bl.nr))
                        loop_m = _for(m_block, m_end, bl.mr)
                        with ir.InsertionPoint(loop_m.body):
                            m0 = loop_m.induction_variable
                            bases = _pixel_bases(m0, s, lay, bl.mr)
                            accs = _tile_kernel(x, wp, bases, x_tap, w_at, j_lo, j_hi, unroll, bl, compute)
                            whole = overwrite and taps == 1 and pieces == 1
                            _update_c(c_view, accs, m0, col, bl, s.pixels, s.co,
                                      True if whole else (first if overwrite else False), et)
                            scf.YieldOp([])
                        scf.YieldOp([])
                    scf.YieldOp([])
                scf.YieldOp([])
            scf.YieldOp([])

    if parts > 1:
        forall([parts], lambda ivs: body(ivs[0]))
    else:
        body(None)
    memref.dealloc(wp)


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


def emit_depthwise(op, s: ConvShape, register_bits: int, threads: int, overwrite: bool) -> None:
    """At the current insertion point: O[m, c] (+)= sum over taps of X[base(m) + tap + c] *
    W[tap, c], vectorized over channels: register tiles of MR pixels x NR channels (the GEMM's
    tile shape), each tap one vector load of W shared by the MR pixels' loads of X. The last
    channel chunk is masked when NR does not divide the channels."""
    xb, wb, ob = (op.operands[i] for i in range(3))
    et = ir.MemRefType(ob.type).element_type
    compute = compute_type(et)
    bl = blocking(compute, register_bits)
    regs = bl.nr // bl.lanes
    xs, ws, os_ = (_static_strides(op.operands[i]) for i in range(3))
    lay = _Layout(xs, [], os_, False)
    x, w, o = _flat(xb), _flat(wb), _flat(ob)
    vt_el = ir.VectorType.get([bl.lanes], et)
    vt = ir.VectorType.get([bl.lanes], compute)
    mask_t = ir.VectorType.get([bl.lanes], ir.IntegerType.get_signless(1))
    tail = s.ci % bl.nr  # channels in the last chunk (0: whole)

    from .parallel import MIN_PARALLEL_ITERATIONS  # parallel.py imports blas, which this module imports

    if s.pixels * s.ci * s.kh * s.kw < MIN_PARALLEL_ITERATIONS:
        threads = 1
    units = -(-s.pixels // bl.mr)
    chunk = -(-units // max(1, min(threads, units))) * bl.mr
    parts = -(-s.pixels // chunk)
    dh, dw = s.dilations
    plane = s.oh * s.ow

    def out_offset(m):
        b = arith.divui(m, _index(plane))
        rest = arith.remui(m, _index(plane))
        oh, ow = arith.divui(rest, _index(s.ow)), arith.remui(rest, _index(s.ow))
        return arith.addi(arith.muli(b, _index(os_[0])),
                          arith.addi(arith.muli(oh, _index(os_[1])), arith.muli(ow, _index(os_[2]))))

    def tile(m0, c0, masks):
        regs = len(masks)  # vectors per pixel in this chunk (the tail may need fewer)
        bases = [arith.addi(b, c0) for b in _pixel_bases(m0, s, lay, bl.mr)]
        loop_h = _for(0, s.kh, 1, [_zero(vt) for _ in range(bl.mr * regs)])
        with ir.InsertionPoint(loop_h.body):
            i = loop_h.induction_variable
            loop_w = _for(0, s.kw, 1, list(loop_h.inner_iter_args))
            with ir.InsertionPoint(loop_w.body):
                j = loop_w.induction_variable
                acc = list(loop_w.inner_iter_args)
                x_tap = arith.addi(arith.muli(i, _index(dh * xs[1])), arith.muli(j, _index(dw * xs[2])))
                w_at = arith.addi(arith.addi(arith.muli(i, _index(ws[0])), arith.muli(j, _index(ws[1]))), c0)
                wv = [_convert(_masked_load(vt_el, w, arith.addi(w_at, _index(v * bl.lanes)) if v else w_at,
                                            masks[v]), vt) for v in range(regs)]
                for r in range(bl.mr):
                    at = arith.addi(bases[r], x_tap)
                    for v in range(regs):
                        xv = _convert(_masked_load(vt_el, x, arith.addi(at, _index(v * bl.lanes)) if v else at,
                                                   masks[v]), vt)
                        acc[r * regs + v] = _mul_add(xv, wv[v], acc[r * regs + v])
                scf.YieldOp(acc)
            scf.YieldOp(list(loop_w.results))
        accs = list(loop_h.results)
        for r in range(bl.mr):
            m = arith.addi(m0, _index(r)) if r else m0
            guard = None
            if s.pixels % bl.mr:
                guard = scf.IfOp(arith.cmpi(arith.CmpIPredicate.slt, m, _index(s.pixels)))
                ip = ir.InsertionPoint(guard.then_block)
                ip.__enter__()
            at = arith.addi(out_offset(m), c0)
            for v in range(regs):
                a = arith.addi(at, _index(v * bl.lanes)) if v else at
                value = accs[r * regs + v]
                if not overwrite:
                    value = arith.addf(_convert(_masked_load(vt_el, o, a, masks[v]), vt), value)
                value = _narrow(value, vt_el)
                if masks[v] is None:
                    store = vector.store(value, o, [a])
                else:
                    store = vector.maskedstore(o, [a], masks[v], value)
                store.attributes[MARK] = ir.UnitAttr.get()  # (a loop of one tile is folded away)
            if guard is not None:
                scf.YieldOp([])
                ip.__exit__(None, None, None)

    def body(t):
        lo = arith.muli(t, _index(chunk)) if t is not None else _index(0)
        hi = arith.minsi(arith.addi(lo, _index(chunk)), _index(s.pixels)) if t is not None else _index(s.pixels)
        loop_m = _for(lo, hi, bl.mr)
        with ir.InsertionPoint(loop_m.body):
            m0 = loop_m.induction_variable
            full = s.ci // bl.nr
            if full:
                loop_c = _for(0, full * bl.nr, bl.nr)
                with ir.InsertionPoint(loop_c.body):
                    tile(m0, loop_c.induction_variable, [None] * regs)
                    scf.YieldOp([])
            if tail:
                c0 = _index(full * bl.nr)
                masks = [vector.create_mask(mask_t, [_index(min(bl.lanes, tail - v * bl.lanes))])
                         for v in range(-(-tail // bl.lanes))]
                tile(m0, c0, masks)
            scf.YieldOp([])

    if parts > 1:
        forall([parts], lambda ivs: body(ivs[0]))
    else:
        body(None)


def _root(value: ir.Value) -> ir.Value:
    """The buffer a view chain (subview, cast) starts from."""
    while True:
        owner = value.owner
        op = owner.operation if isinstance(owner, (ir.OpView, ir.Operation)) else None
        if op is None or op.name not in ("memref.subview", "memref.cast"):
            return value
        value = op.operands[0]


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
        if _is_fill(op) and _root(op.operands[len(op.operands) - 1]) == target:
            fills.append(op)
        return ir.WalkResult.ADVANCE

    function.walk(visit)
    for fill in fills:
        fill.erase()


def _function_of(op):
    parent = op.parent
    while parent is not None and parent.name != "func.func":
        parent = parent.parent
    return parent


@dataclass(frozen=True)
class DirectConv(Pass):
    """Lowers 2-D NHWC x HWIO convolutions (linalg.conv_2d_nhwc_hwcf) to a direct,
    register-tiled convolution: packed weights, no im2col buffer, both cores; and 2-D
    depthwise ones (linalg.depthwise_conv_2d_nhwc_hwc) to vector code over channels.

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
        for op in found:
            zero_fill = _zero_fill_before(op)
            # Overwrite the output when it starts as zeros: a zero fill right before, or
            # hlo-to-linalg's mark (its fill may have moved into another loop since).
            overwrite = zero_fill is not None or ZERO_INIT in op.attributes
            if zero_fill is None and ZERO_INIT in op.attributes:
                function = _function_of(op)
                if function is not None:
                    _drop_zero_fills(function.operation, op)
            with ir.InsertionPoint(op), op.location:
                if op.name == DEPTHWISE:
                    emit_depthwise(op, depthwise_shape(op), bits, threads, overwrite)
                else:
                    s = conv_shape(op)
                    emit_direct_conv(op, s, _layout(op, s), bits, threads, overwrite)
            op.erase()
            if zero_fill is not None:
                zero_fill.erase()
