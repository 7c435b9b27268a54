"""MLC's own GEMM: A and B packed into register-tile panels, a register-blocked microkernel,
cache blocking, threads: the loop structure of BLIS (and IREE's mmt4d), emitted as scf and
vector ops on buffers.

    for each thread's block of rows (or columns):               (scf.forall: both cores)
      for jc in N step NC:                 B block: stays in L3 / L2
        for pc in K step KC:
          pack B[pc:pc+KC, jc:jc+NC] -> Bp[NC/NR][KC][NR]      (zero padded to full panels)
          for ic in M step MC:
            pack A[ic:ic+MC, pc:pc+KC] -> Ap[MC/MR][KC][MR]     (A block: stays in L2)
            for jr, ir:                    one MR x NR tile of C
              acc[MR][NR] = 0 in vector registers
              for p in KC: acc += broadcast(Ap[ir][p][r]) * Bp[jr][p][:]   (MR*NR/lanes FMAs)
              C[tile] += acc                                    (masked at the edges)

Why packing: the microkernel then reads both operands sequentially from L1 (a B micro-panel
of KC x NR is 16 KB), whatever the operands' layout or transposition; the register tile
MR x NR is 6 x 16 f32 on AVX2 (12 accumulators: 2 FMA pipes x 5 cycles of latency plus
slack; 12 + 2 B registers + 1 broadcast of the 16 ymm registers) and 8 x 32 with 512-bit
vectors. Packing also widens: f16/bf16 operands are packed as f32 and the products summed
in f32 (rounded to the result type once per KC block when C is narrower), int8 as int32.

Integer sources of at most 16 bits (int8, uint8, int16) on a host with VNNI (`pairs`): A and
B are packed as int32 words each holding two consecutive k values as int16 (low half k,
high half k + 1), and one `vpdpwssd` per vector multiplies the 16-bit pairs and adds both
products into each int32 lane: 32 multiply-adds per 512-bit instruction, where the int32
kernel needs a multiply and an add for 16. Exact: every product of two 16-bit values and
every pair sum is an int32, and the accumulation wraps modulo 2^32 as the int32 kernel's.

Input: a `Gemm` (operands as 2-D strided views per batch index, from blas.gemm_operands).
The caller (mlc-blas, the operator-selection pass) decides which contractions come here.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, llvm, memref, scf, vector

from ..dialects.hlo.types import element_type_of
from .epilogue import apply_body
from .loops import in_parts

MARK = "mlc.packed_gemm"  # on the A panel buffer of every packed GEMM (for tests and readers of the IR)
EPILOGUE_MARK = "mlc.packed_epilogue"  # on the stores of a fused epilogue's output


@dataclass(frozen=True)
class Blocking:
    """Register tile MR x NR (NR a multiple of the vector length `lanes`) and cache blocks
    MC x KC (A, L2), KC x NC (B, L3) for one element type and vector width."""

    mr: int
    nr: int
    lanes: int
    mc: int
    kc: int
    nc: int


# Cache blocks per vector width: (bytes of a KC x NR micro-panel of B, bytes of the MC x KC
# block of A). AVX2 (Zen 1: 32 KB L1d, 512 KB L2): 16 KB and 144 KB. AVX-512 (Zen 4: 32 KB
# L1d, 1 MB L2), f32 square matmuls against OpenBLAS, best of 7-20 calls (GFLOP/s, 1024 /
# 2048): 16 KB/144 KB 82/83 (OpenBLAS 96/99), 32 KB/144 KB 98/97, 64 KB/512 KB 104-106/
# 99-103, 128 KB/512 KB 102/107; two threads 64 KB/512 KB 191-198 against 161-165 (OpenBLAS
# 186-194): KC = 512 k steps, the A block half of L2.
_BLOCK_BYTES = {256: (16384, 147456), 512: (65536, 524288)}


def blocking(compute: ir.Type, register_bits: int) -> Blocking:
    """The tile and cache blocks: NR two vector registers, MR 6 (16 registers: AVX2) or 8
    (32 registers: AVX-512); KC and MC from _BLOCK_BYTES (narrower vectors: AVX2's), NC
    large (L3)."""
    width = compute.width
    lanes = max(1, register_bits // width)
    nr = 2 * lanes
    mr = 8 if register_bits >= 512 else 6
    panel_bytes, a_bytes = _BLOCK_BYTES[512 if register_bits >= 512 else 256]
    kc = max(64, (panel_bytes // (nr * width // 8)) // 4 * 4)
    mc = max(mr, (a_bytes // (kc * width // 8)) // mr * mr)
    return Blocking(mr, nr, lanes, mc, kc, 4096 // nr * nr)


def _index(v: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), v)


def _idx(v) -> ir.Value:
    """An index value for a size that is a Python int (static) or already a value (a
    runtime-sized kernel, gemm_library.py)."""
    return v if isinstance(v, ir.Value) else _index(v)


def _ragged(total, tile: int) -> bool:
    """Whether the last `tile` of `total` may be partial: always for a runtime size."""
    return not isinstance(total, int) or total % tile != 0


def _unit(stride) -> bool:
    return isinstance(stride, int) and stride == 1


# Index arithmetic on sizes that are ints (folded here) or index values (emitted): one
# kernel emitter serves a static shape and a runtime-sized kernel (gemm_library.py,
# conv_library.py).
def _imul(a, b):
    return a * b if isinstance(a, int) and isinstance(b, int) else arith.muli(_idx(a), _idx(b))


def _iadd(a, b):
    """a + b; a value plus the int 0 is the value itself."""
    if isinstance(b, int) and (isinstance(a, int) or b == 0):
        return a + b if isinstance(a, int) else a
    return arith.addi(_idx(a), _idx(b))


def _icdiv(a, b):
    """ceil(a / b) for a, b > 0."""
    if isinstance(a, int) and isinstance(b, int):
        return -(-a // b)
    minus_one = _index(b - 1) if isinstance(b, int) else arith.subi(b, _index(1))
    return arith.divui(arith.addi(_idx(a), minus_one), _idx(b))


def _imin(a, b):
    return min(a, b) if isinstance(a, int) and isinstance(b, int) else arith.minsi(_idx(a), _idx(b))


@dataclass
class Operand:
    """One matrix of the GEMM: its buffer, the element offset of matrix (0, 0) and the strides
    of its logical rows and columns (one of them 1, or both for a vector)."""

    value: ir.Value
    offset: ir.Value
    row_stride: int | ir.Value  # (values: a runtime-sized kernel's leading dimension)
    col_stride: int | ir.Value
    unsigned: bool = False  # integer elements widen by zero extension (a uint8 source)

    def view(self, rows, cols) -> ir.Value:
        """A 2-D strided memref over the matrix (reinterpret_cast of the base buffer); sizes
        and strides static (ints) or dynamic (index values)."""
        t = ir.MemRefType(self.value.type)
        meta = memref.extract_strided_metadata(self.value)
        base = meta[0]
        dyn = ir.ShapedType.get_dynamic_stride_or_offset()
        sizes, strides = (rows, cols), (self.row_stride, self.col_stride)
        static_sizes = [v if isinstance(v, int) else ir.ShapedType.get_dynamic_size() for v in sizes]
        static_strides = [v if isinstance(v, int) else dyn for v in strides]
        layout = ir.StridedLayoutAttr.get(dyn, static_strides)
        result = ir.MemRefType.get(static_sizes, t.element_type, layout, t.memory_space)
        return memref.reinterpret_cast(result, base, [self.offset], [v for v in sizes if not isinstance(v, int)],
                                       [v for v in strides if not isinstance(v, int)], [dyn], static_sizes,
                                       static_strides)


def _convert(value: ir.Value, to: ir.Type, unsigned: bool = False) -> ir.Value:
    """Element (or vector) conversion to the compute type. Integers are sign-extended unless
    `unsigned` (a uint8 source of an int32 product): when the result type is the operands'
    type, the sum is only kept modulo 2^width, where sign and zero extension agree (ui8
    wraps like numpy's uint8)."""
    s_el, t_el = element_type_of(value.type), element_type_of(to)
    if s_el == t_el:
        return value
    if isinstance(t_el, ir.FloatType):
        if isinstance(s_el, ir.FloatType):
            return arith.extf(to, value) if s_el.width < t_el.width else arith.truncf(to, value)
        return arith.sitofp(to, value)
    if s_el.width < t_el.width:
        return arith.extui(to, value) if unsigned else arith.extsi(to, value)
    return arith.trunci(to, value)


def _narrow(value: ir.Value, to: ir.Type) -> ir.Value:
    """Compute type -> result element type (a C narrower than the accumulator)."""
    s_el, t_el = element_type_of(value.type), element_type_of(to)
    if s_el == t_el:
        return value
    if isinstance(t_el, ir.FloatType):
        return arith.truncf(to, value)
    return arith.trunci(to, value)


@dataclass
class GemmProblem:
    """C[M, N] (+)= A[M, K] B[K, N] in a compute type (the accumulator), over static sizes
    (ints) or, for a runtime-sized kernel (gemm_library.py), index values: then the edge
    tiles are always guarded and masked, `split_m` says how the threads share the work and
    `beta_zero` may be an i1 value."""

    m: int | ir.Value
    n: int | ir.Value
    k: int | ir.Value
    compute: ir.Type
    register_bits: int
    threads: int
    beta_zero: bool | ir.Value  # C is overwritten (its zero fill was dropped) rather than accumulated
    pairs: bool = False  # int16 pairs into int32 lanes (VNNI vpdpwssd): module docstring
    epilogue: object = None  # epilogue.Epilogue applied to each C tile (K within one block)
    split_m: bool | None = None  # threads split the rows (else the columns); None: from the sizes


def _is_float(t: ir.Type) -> bool:
    return isinstance(t, ir.FloatType)


def _mul_add(a, b, acc):
    """acc + a * b; floats with `contract`, which mlc-fma (hosts with FMA) and LLVM fuse
    into one FMA: an exported library for a CPU without FMA gets a multiply and an add,
    not a libm fma call per lane."""
    if _is_float(ir.VectorType(acc.type).element_type):
        contract = ir.Attribute.parse("#arith.fastmath<contract>")
        return arith.addf(acc, arith.mulf(a, b, fastmath=contract), fastmath=contract)
    return arith.addi(acc, arith.muli(a, b))


def _add(a, b):
    el = ir.VectorType(a.type).element_type
    return arith.addf(a, b) if _is_float(el) else arith.addi(a, b)


def _zero(t: ir.Type) -> ir.Value:
    if isinstance(t, ir.VectorType):
        el = t.element_type
        attr = ir.FloatAttr.get(el, 0.0) if _is_float(el) else ir.IntegerAttr.get(el, 0)
        return arith.constant(t, ir.DenseElementsAttr.get_splat(t, attr))
    return arith.constant(t, ir.FloatAttr.get(t, 0.0) if _is_float(t) else ir.IntegerAttr.get(t, 0))


def _for(lower, upper, step, iter_args=()):
    """An scf.for; returns (op, iv, args) with the insertion point to be set by the caller."""
    loop = scf.ForOp(lower if isinstance(lower, ir.Value) else _index(lower),
                     upper if isinstance(upper, ir.Value) else _index(upper),
                     step if isinstance(step, ir.Value) else _index(step), list(iter_args))
    return loop


def _square_block(tile: int, lanes: int) -> int:
    """The side S of the square blocks a [t, p] source is transposed in while packing: the
    largest power of two dividing `tile`, at most a vector (`lanes`); 0 below 4 (AVX2's
    6-row A tile: the scalar copy)."""
    side = 1
    while tile % (side * 2) == 0 and side * 2 <= lanes:
        side *= 2
    return side if side >= 4 else 0


def _transpose(rows: list) -> list:
    """out[j][i] = rows[i][j] for S vectors of S elements (S a power of two), in log2(S)
    stages of S shuffles: the stage of half-width h exchanges, between rows i and i + h
    (i & h == 0), the second h-element half of each 2h-element segment of row i with the
    first half of row i + h's. 64 shuffles for 16 x 16 f32 (LLVM picks vunpck/vpermt2)."""
    side = len(rows)
    rows = list(rows)
    h = side // 2
    while h:
        # Row i takes each segment's first half of itself then of row i + h; row i + h the
        # second halves (indices into the shuffle's concatenation of the two).
        first = [x for s in range(0, side, 2 * h) for x in list(range(s, s + h)) + list(range(side + s, side + s + h))]
        second = [x + h for x in first]
        for i in range(side):
            if not i & h:
                a, b = rows[i], rows[i + h]
                rows[i], rows[i + h] = vector.shuffle(a, b, first), vector.shuffle(a, b, second)
        h //= 2
    return rows


def _pack(src: ir.Value, dst: ir.Value, t0_block, p0_block, kc, kcp, tile: int,
          panels, tile_minor: bool, tiles_total: int, compute: ir.Type, unsigned: bool = False,
          pairs: bool = False, lanes: int = 1) -> None:
    """Packs a block of a matrix into tile panels: dst[(panel * kcp + p) * tile + t] =
    X(t0_block + panel * tile + t, p0_block + p), zero past the matrix and for p in [kc, kcp).

    tile_minor: `src` is indexed [p, t] and t is its unit-stride dimension, so a panel row is
    one vector copy (masked at the matrix edge); else `src` is indexed [t, p] with p unit
    stride (A as stored, B transposed): a panel's rows are read S values of p at a time as
    vectors and transposed in registers (`_transpose`, S x S blocks, S = `_square_block`),
    the ragged end of p and a panel past the matrix's edge element by element. A panel never
    runs past its block except at the matrix edge: blocks and thread chunks are whole panels.

    pairs (the VNNI kernel, compute int32): dst[(panel * kcp/2 + q) * tile + t] = the int32
    word of the 16-bit pair (X(t, 2q), X(t, 2q + 1)) (`_pair`), X zero for k >= kc (kcp is a
    multiple of 4, so pairs never straddle it); element by element.
    """
    src_el = ir.MemRefType(src.type).element_type
    rows, padded = (_icdiv(kc, 2), arith.divui(kcp, _index(2))) if pairs else (kc, kcp)
    kc_end = arith.addi(p0_block, kc) if pairs else None
    side = 0 if tile_minor or pairs else _square_block(tile, lanes)
    ragged = _ragged(tiles_total, tile)
    loop_panel = _for(0, panels, 1)
    with ir.InsertionPoint(loop_panel.body):
        panel = loop_panel.induction_variable
        t = arith.addi(t0_block, arith.muli(panel, _index(tile)))
        base = arith.muli(panel, arith.muli(padded, _index(tile)))

        def elementwise(first, last) -> None:
            """Panel rows [first, last) one element (or, tile_minor, one row) at a time."""
            loop_p = _for(first, last, 1)
            with ir.InsertionPoint(loop_p.body):
                step = loop_p.induction_variable
                if pairs:
                    p = arith.addi(p0_block, arith.muli(step, _index(2)))
                    p_next = arith.addi(p, _index(1))
                    second = arith.cmpi(arith.CmpIPredicate.slt, p_next, kc_end)  # an odd kc's last pair
                    p_next = arith.select(second, p_next, p)
                else:
                    p = arith.addi(p0_block, step)
                dst_at = arith.addi(base, arith.muli(step, _index(tile)))

                def row(read, zero):
                    """The value to store from `read(p)` (X at k = p, converted): the pair with
                    the next k (zero past kc) when packing pairs."""
                    if not pairs:
                        return read(p)
                    return _pair(read(p), arith.select(second, read(p_next), _zero(zero)))

                if tile_minor:
                    vt = ir.VectorType.get([tile], src_el)
                    wide = ir.VectorType.get([tile], compute)
                    perm = ir.AffineMapAttr.get(ir.AffineMap.get_minor_identity(2, 1))
                    in_bounds = [not ragged]
                    value = row(lambda k: _convert(vector.transfer_read(vt, src, [k, t], perm, _zero(src_el), in_bounds),
                                                   wide, unsigned), wide)
                    vector.store(value, dst, [dst_at])
                else:
                    zero_c = _zero(compute)

                    def element(i) -> None:
                        """Panel element i of this row (`i` an int, or an index value)."""
                        ti = _iadd(t, i)
                        ok = None
                        if ragged:  # the last panel reads past the matrix: zeros
                            ok = arith.cmpi(arith.CmpIPredicate.slt, ti, _idx(tiles_total))
                            ti = arith.select(ok, ti, _index(0))
                        x = row(lambda k: _convert(memref.load(src, [ti, k]), compute, unsigned), compute)
                        if ok is not None:
                            x = arith.select(ok, x, zero_c)
                        memref.store(x, dst, [_iadd(dst_at, i)])

                    if isinstance(tiles_total, int) or tile <= 8:  # unrolled: the panel's elements
                        for i in range(tile):
                            element(i)
                    else:  # a runtime-sized kernel's B panel: a loop (there this path packs the
                        # edges only; unrolled 32 times it tripled the kernel's LLVM time)
                        loop_i = _for(0, tile, 1)
                        with ir.InsertionPoint(loop_i.body):
                            element(loop_i.induction_variable)
                            scf.YieldOp([])
                scf.YieldOp([])

        def transposed() -> None:
            """Panel rows [0, kc - kc % S) as S x S blocks transposed in registers, then the rest."""
            vt = ir.VectorType.get([side], src_el)
            wide = ir.VectorType.get([side], compute)
            perm = ir.AffineMapAttr.get(ir.AffineMap.get_minor_identity(2, 1))
            whole = arith.muli(arith.divui(kc, _index(side)), _index(side))
            loop_q = _for(0, whole, side)
            with ir.InsertionPoint(loop_q.body):
                q = loop_q.induction_variable
                p = arith.addi(p0_block, q)
                for blk in range(tile // side):
                    t_blk = arith.addi(t, _index(blk * side)) if blk else t
                    block = [_convert(vector.transfer_read(vt, src, [arith.addi(t_blk, _index(i)) if i else t_blk, p],
                                                           perm, _zero(src_el), [True]), wide, unsigned)
                             for i in range(side)]
                    for j, column in enumerate(_transpose(block)):
                        at = arith.addi(base, arith.addi(arith.muli(arith.addi(q, _index(j)), _index(tile)),
                                                         _index(blk * side)))
                        vector.store(column, dst, [at])
                scf.YieldOp([])
            elementwise(whole, rows)

        if not side:
            elementwise(0, rows)
        elif not ragged:
            transposed()
        else:  # only a panel inside the matrix is read by whole blocks
            inside = arith.cmpi(arith.CmpIPredicate.sle, arith.addi(t, _index(tile)), _idx(tiles_total))
            branch = scf.IfOp(inside, [], has_else=True)
            with ir.InsertionPoint(branch.then_block):
                transposed()
                scf.YieldOp([])
            with ir.InsertionPoint(branch.else_block):
                elementwise(0, rows)
                scf.YieldOp([])
        # Rows in [kc, kcp) (pairs: [ceil(kc/2), kcp/2)): zeros (the microkernel's K loop
        # runs to the padded kcp).
        loop_z = _for(rows, padded, 1)
        with ir.InsertionPoint(loop_z.body):
            at = arith.addi(base, arith.muli(loop_z.induction_variable, _index(tile)))
            vector.store(_zero(ir.VectorType.get([tile], compute)), dst, [at])
            scf.YieldOp([])
        scf.YieldOp([])


def _pair(lo: ir.Value, hi: ir.Value) -> ir.Value:
    """Two int32 values of 16-bit range as one int32 word: lo in the low half, hi in the high."""
    t = lo.type
    el = element_type_of(t)

    def const(v):
        attr = ir.IntegerAttr.get(el, v)
        return arith.constant(t, ir.DenseElementsAttr.get_splat(t, attr) if isinstance(t, ir.VectorType) else attr)

    return arith.ori(arith.andi(lo, const(0xFFFF)), arith.shli(hi, const(16)))


def _microkernel(ap, bp, a_base, b_base, kcp, bl: Blocking, compute: ir.Type, pairs: bool = False):
    """acc[MR][NR/lanes] = sum over p < kcp of broadcast(Ap[a_base + p*MR + r]) * Bp[b_base + p*NR + :].
    Unrolled by 2 in p (kcp is a multiple of 4). With `pairs` (the VNNI kernel) each Ap and
    Bp element is an int32 word of two int16 k values: kcp/2 steps, each one vpdpwssd per
    accumulator multiplying the 16-bit halves and adding both products."""
    vt = ir.VectorType.get([bl.lanes], compute)
    regs = bl.nr // bl.lanes
    accs = [_zero(vt) for _ in range(bl.mr * regs)]
    if pairs:
        halves = ir.VectorType.get([2 * bl.lanes], ir.IntegerType.get_signless(16))
        intrinsic = f"llvm.x86.avx512.vpdpwssd.{bl.lanes * 32}"
        steps = arith.divui(kcp, _index(2))
        as_operand = lambda v: vector.bitcast(halves, v)  # noqa: E731
        update = lambda a, b, acc: llvm.call_intrinsic(vt, intrinsic, [acc, a, b], [], [])  # noqa: E731
    else:
        steps, as_operand, update = kcp, (lambda v: v), _mul_add
    unroll = 2
    loop = _for(0, steps, unroll, accs)
    with ir.InsertionPoint(loop.body):
        p = loop.induction_variable
        acc = list(loop.inner_iter_args)
        for u in range(unroll):
            pu = arith.addi(p, _index(u)) if u else p
            b_at = arith.addi(b_base, arith.muli(pu, _index(bl.nr)))
            bs = [as_operand(vector.load(vt, bp, [arith.addi(b_at, _index(j * bl.lanes))])) for j in range(regs)]
            a_at = arith.addi(a_base, arith.muli(pu, _index(bl.mr)))
            for r in range(bl.mr):
                av = as_operand(vector.broadcast(vt, memref.load(ap, [arith.addi(a_at, _index(r))])))
                for j in range(regs):
                    acc[r * regs + j] = update(av, bs[j], acc[r * regs + j])
        scf.YieldOp(acc)
    return list(loop.results)


def _update_c(c_view, accs, row, col, bl: Blocking, m_total: int, n_total: int, overwrite, c_el,
              epilogue=None) -> None:
    """C[row + r, col + j*lanes : +lanes] (+)= acc, rows past M skipped, columns past N
    masked (vector.transfer_read/write, not in bounds at the edge). With an `epilogue`
    the sum, rounded to C's type, goes through the consumer's body into its output instead
    of C."""
    regs = bl.nr // bl.lanes
    vt_c = ir.VectorType.get([bl.lanes], c_el)
    compute_vt = ir.VectorType(accs[0].type)
    perm = ir.AffineMapAttr.get(ir.AffineMap.get_minor_identity(2, 1))
    cols_in_bounds = not _ragged(n_total, bl.nr)
    for r in range(bl.mr):
        ri = arith.addi(row, _index(r))
        guard = None
        if _ragged(m_total, bl.mr):
            cond = arith.cmpi(arith.CmpIPredicate.slt, ri, _idx(m_total))
            guard = scf.IfOp(cond)
            ip = ir.InsertionPoint(guard.then_block)
            ip.__enter__()
        for j in range(regs):
            cj = arith.addi(col, _index(j * bl.lanes))
            value = accs[r * regs + j]
            if overwrite is not True:
                old = vector.transfer_read(vt_c, c_view, [ri, cj], perm, _zero(c_el), [cols_in_bounds])
                old = _convert(old, compute_vt)
                summed = _add(old, value)
                if overwrite is not False:  # dynamic: first K block with beta = 0 overwrites
                    summed = arith.select(overwrite, value, summed)
                value = summed
            if epilogue is not None:
                _store_through(epilogue, _narrow(value, vt_c), ri, cj, cols_in_bounds)
            else:
                vector.transfer_write(None, _narrow(value, vt_c), c_view, [ri, cj], perm, [cols_in_bounds])
        if guard is not None:
            scf.YieldOp([])
            ip.__exit__(None, None, None)


def _store_through(ep, value: ir.Value, row, col, in_bounds: bool) -> None:
    """The consumer's body on the C vector `value` at [row, col:+lanes] and the vectors its
    other inputs hold there ("full": the same index, "channel": col:+lanes of a vector along
    N, "scalar": broadcast), stored into its output (epilogue.Epilogue)."""
    lanes = ir.VectorType(value.type).shape[0]
    perm2 = ir.AffineMapAttr.get(ir.AffineMap.get_minor_identity(2, 1))
    perm1 = ir.AffineMapAttr.get(ir.AffineMap.get_minor_identity(1, 1))
    args = []
    for kind, buffer in zip(ep.kinds, ep.buffers):
        el = ir.MemRefType(buffer.type).element_type
        vt = ir.VectorType.get([lanes], el)
        if kind == "acc":
            args.append(value)
        elif kind == "full":
            args.append(vector.transfer_read(vt, buffer, [row, col], perm2, _zero(el), [in_bounds]))
        elif kind == "channel":
            args.append(vector.transfer_read(vt, buffer, [col], perm1, _zero(el), [in_bounds]))
        else:
            args.append(vector.broadcast(vt, memref.load(buffer, [])))
    result = apply_body(ep.block, args, lanes)
    store = vector.transfer_write(None, result, ep.out, [row, col], perm2, [in_bounds])
    store.operation.attributes[EPILOGUE_MARK] = ir.UnitAttr.get()


def stored_transposed(a: Operand, b: Operand) -> tuple[bool, bool]:
    """(A stored [K, M]: M unit stride, B stored [N, K]: its columns not unit stride), which
    decides the order packing reads each in."""
    return _unit(a.row_stride) and not _unit(a.col_stride), not _unit(b.col_stride)


def splits_rows(prob: GemmProblem) -> bool:
    """Whether the threads share the rows (enough of them), else the columns (skinny M)."""
    if prob.split_m is not None:
        return prob.split_m
    return prob.m >= prob.n or prob.n < 2 * blocking(prob.compute, prob.register_bits).nr * prob.threads


def emit_gemm(prob: GemmProblem, a: Operand, b: Operand, c: Operand) -> None:
    """At the current insertion point: C (+)= A B for one matrix (no batch), packed and
    register-tiled, the rows (or columns) split between prob.threads threads. With
    prob.epilogue (K within one KC block: each C tile is then final when it leaves the
    registers) the tiles go through the consumer into its output, and C is not written."""
    bl = blocking(prob.compute, prob.register_bits)
    static = all(isinstance(v, int) for v in (prob.m, prob.n, prob.k))
    assert prob.epilogue is None or (static and prob.k <= bl.kc), "an epilogue needs one K block"
    # Packing reads each operand in its memory order: [t, p] or [p, t] (tile index minor).
    a_minor, b_transposed = stored_transposed(a, b)  # a_minor: M is A's unit-stride dimension
    a_src = Operand(a.value, a.offset, a.col_stride, 1).view(prob.k, prob.m) if a_minor else a.view(prob.m, prob.k)
    b_minor = not b_transposed
    b_src = (b.view(prob.k, prob.n) if b_minor
             else Operand(b.value, b.offset, b.col_stride, b.row_stride).view(prob.n, prob.k))
    c_view = c.view(prob.m, prob.n)
    c_el = ir.MemRefType(c_view.type).element_type
    split_m = splits_rows(prob)
    if static:
        extent, unit = (prob.m, bl.mr) if split_m else (prob.n, bl.nr)
        units = -(-extent // unit)
        chunk = -(-units // max(1, min(prob.threads, units))) * unit
        parts = -(-extent // chunk)
        rows, cols = (min(prob.m, chunk), prob.n) if split_m else (prob.m, min(prob.n, chunk))
        kc_max = (min(bl.kc, prob.k) + 3) // 4 * 4
        mc = min(bl.mc, -(-rows // bl.mr) * bl.mr)
        nc = min(bl.nc, -(-cols // bl.nr) * bl.nr)
        a_size, b_size = mc * kc_max, nc * kc_max
    else:  # runtime sizes: one part per thread (a part past the end has empty loops)
        parts, mc, nc = prob.threads, bl.mc, bl.nc
        extent, unit = (_idx(prob.m), bl.mr) if split_m else (_idx(prob.n), bl.nr)
        chunk = arith.muli(_icdiv(_icdiv(extent, unit), parts), _index(unit))
        rows, cols = (_imin(_idx(prob.m), chunk), _idx(prob.n)) if split_m else (_idx(prob.m), _imin(_idx(prob.n), chunk))
        kc_max = _imin(_index(bl.kc), arith.muli(_icdiv(_idx(prob.k), 4), _index(4)))
        a_size = arith.muli(_imin(_index(mc), arith.muli(_icdiv(rows, bl.mr), _index(bl.mr))), kc_max)
        b_size = arith.muli(_imin(_index(nc), arith.muli(_icdiv(cols, bl.nr), _index(bl.nr))), kc_max)

    def panel_buffer(size):
        """A 64-byte aligned 1-D buffer of `size` (an int or an index value) compute elements."""
        if isinstance(size, int):
            return memref.alloc(ir.MemRefType.get([size], prob.compute), [], [], alignment=64)
        return memref.alloc(ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], prob.compute), [size], [],
                            alignment=64)

    def body(t):
        lo = arith.muli(t, _idx(chunk)) if t is not None else _index(0)
        hi = _imin(arith.addi(lo, _idx(chunk)), _idx(extent)) if t is not None else _idx(extent)
        m_lo, m_hi = (lo, hi) if split_m else (_index(0), _idx(prob.m))
        n_lo, n_hi = (_index(0), _idx(prob.n)) if split_m else (lo, hi)
        ap = panel_buffer(a_size)
        ap.owner.attributes[MARK] = ir.UnitAttr.get()
        bp = panel_buffer(b_size)
        loop_jc = _for(n_lo, n_hi, nc)
        with ir.InsertionPoint(loop_jc.body):
            jc = loop_jc.induction_variable
            n_panels = _icdiv(_imin(_index(nc), arith.subi(n_hi, jc)), bl.nr)
            loop_pc = _for(0, prob.k, bl.kc)
            with ir.InsertionPoint(loop_pc.body):
                pc = loop_pc.induction_variable
                kc = _imin(_index(bl.kc), arith.subi(_idx(prob.k), pc))
                kcp = arith.muli(_icdiv(kc, 4), _index(4))
                first_block = lambda: arith.cmpi(arith.CmpIPredicate.eq, pc, _index(0))  # noqa: E731
                if isinstance(prob.beta_zero, ir.Value):  # the first K block overwrites C when asked
                    overwrite = arith.andi(prob.beta_zero, first_block())
                elif (static and prob.k <= bl.kc) or not prob.beta_zero:
                    overwrite = prob.beta_zero
                else:  # the first K block overwrites C, the others accumulate
                    overwrite = first_block()
                _pack(b_src, bp, jc, pc, kc, kcp, bl.nr, n_panels, b_minor, prob.n, prob.compute, b.unsigned,
                      prob.pairs, bl.lanes)
                loop_ic = _for(m_lo, m_hi, mc)
                with ir.InsertionPoint(loop_ic.body):
                    ic = loop_ic.induction_variable
                    m_panels = _icdiv(_imin(_index(mc), arith.subi(m_hi, ic)), bl.mr)
                    _pack(a_src, ap, ic, pc, kc, kcp, bl.mr, m_panels, a_minor, prob.m, prob.compute, a.unsigned,
                          prob.pairs, bl.lanes)
                    loop_jr = _for(0, n_panels, 1)
                    with ir.InsertionPoint(loop_jr.body):
                        jr = loop_jr.induction_variable
                        loop_ir = _for(0, m_panels, 1)
                        with ir.InsertionPoint(loop_ir.body):
                            i_r = loop_ir.induction_variable
                            a_base = arith.muli(i_r, arith.muli(kcp, _index(bl.mr)))
                            b_base = arith.muli(jr, arith.muli(kcp, _index(bl.nr)))
                            if prob.pairs:  # kcp/2 words a panel row
                                a_base = arith.divui(a_base, _index(2))
                                b_base = arith.divui(b_base, _index(2))
                            accs = _microkernel(ap, bp, a_base, b_base, kcp, bl, prob.compute, prob.pairs)
                            row = arith.addi(ic, arith.muli(i_r, _index(bl.mr)))
                            col = arith.addi(jc, arith.muli(jr, _index(bl.nr)))
                            # (an epilogue only with one K block: emit_gemm's docstring)
                            _update_c(c_view, accs, row, col, bl, prob.m, prob.n, overwrite, c_el, prob.epilogue)
                            scf.YieldOp([])
                        scf.YieldOp([])
                    scf.YieldOp([])
                scf.YieldOp([])
            scf.YieldOp([])
        memref.dealloc(ap)
        memref.dealloc(bp)

    in_parts(parts, body)
