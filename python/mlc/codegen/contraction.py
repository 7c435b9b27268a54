"""Recognizes a matrix multiplication in a linalg.generic on buffers and names its loops.

hlo-to-linalg lowers every dot_general to a generic whose body is `acc + lhs * rhs`; the
matmul strategies (BLAS calls, tiled vector code) need to know which loop is M, N, K and
which are batch loops, and how each operand lays those dims out in memory. An operand may
be widened in the body first (`acc + ext(lhs) * ext(rhs)`, mlc-fold-widening): then its
element type is narrower than the contraction's (`Contraction.sources`).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

ROWS = 4  # MR of mlc-tile-matmul: output rows per register tile
_BODIES = (("arith.mulf", "arith.addf"), ("arith.muli", "arith.addi"))
# Widenings an operand may go through in the body: name -> whether integers zero-extend.
WIDENINGS = {"arith.extsi": False, "arith.extui": True, "arith.extf": False}


@dataclass(frozen=True)
class Contraction:
    """C[batch..., M, N] += A[batch..., M, K] * B[batch..., K, N] in some layout.

    `*_dims` are each operand's loop indices in memory order (outer to inner); `m`, `n`,
    `k` are groups of loops that act as one matrix dimension (e.g. (n, oh, ow) rows of a
    convolution as a matmul), in the order the output (m, n) or lhs (k) lays them out;
    `batch` the batch loops; `extents` all loop sizes.
    """

    m: tuple[int, ...]
    n: tuple[int, ...]
    k: tuple[int, ...]
    batch: tuple[int, ...]
    extents: tuple[int, ...]
    lhs_dims: tuple[int, ...]
    rhs_dims: tuple[int, ...]
    out_dims: tuple[int, ...]
    element_type: ir.Type
    # Widened operands (mlc-fold-widening): (lhs, rhs) element types as stored, and
    # whether each widens by zero extension; () when both are element_type.
    sources: tuple = ()
    unsigned: tuple[bool, bool] = (False, False)

    @property
    def widened(self) -> bool:
        return bool(self.sources)

    @property
    def is_vector(self) -> bool:
        """A vector-matrix or matrix-vector product: no M or no N loop (match_contraction's
        `vectors`)."""
        return not self.m or not self.n

    def size(self, group: tuple[int, ...]) -> int:
        """The extent of a loop group taken as one dimension."""
        total = 1
        for d in group:
            total *= self.extents[d]
        return total

    @property
    def mnk(self) -> int:
        return self.size(self.m) * self.size(self.n) * self.size(self.k)


def _map_dims(attr) -> tuple[int, ...] | None:
    amap = ir.AffineMapAttr(attr).value
    if not amap.is_projected_permutation:
        return None
    return tuple(ir.AffineDimExpr(e).position for e in amap.results)


def _multiply_accumulate(op) -> tuple[bool, bool] | None:
    """For a body `yield acc + a * b` (either operand order) on floats or integers, nothing
    else, where a and b may each be widened first (WIDENINGS): whether each zero-extends;
    else None."""
    block = op.regions[0].blocks[0]
    ops = list(block.operations)
    a, b, acc = list(block.arguments)
    factors, unsigned = {a: a, b: b}, [False, False]
    while ops and ops[0].operation.name in WIDENINGS and ops[0].operands[0] in (a, b) \
            and factors[ops[0].operands[0]] == ops[0].operands[0]:
        source = ops[0].operands[0]
        factors[source] = ops[0].results[0]
        unsigned[0 if source == a else 1] = WIDENINGS[ops[0].operation.name]
        ops = ops[1:]
    if len(ops) != 3 or tuple(o.operation.name for o in ops[:2]) not in _BODIES:
        return None
    mul, add, yield_ = ops
    if {mul.operands[0], mul.operands[1]} != {factors[a], factors[b]} or a == b:
        return None
    if {add.operands[0], add.operands[1]} != {acc, mul.results[0]}:
        return None
    return (unsigned[0], unsigned[1]) if yield_.operands[0] == add.results[0] else None


def _static_extents(op, maps, n_loops) -> tuple[int, ...] | None:
    extents = [None] * n_loops
    for value, dims in zip(op.operands, maps):
        t = value.type
        if not isinstance(t, ir.ShapedType) or not t.has_static_shape:
            return None
        for size, d in zip(t.shape, dims):
            extents[d] = size
    return None if None in extents else tuple(extents)


def match_contraction(op, vectors: bool = False) -> Contraction | None:
    """The Contraction a linalg.generic (on tensors or buffers) computes, or None if it is not one
    matmul of one element type (at least one M, N and K loop; any number of batch loops).
    vectors: also a vector-matrix or matrix-vector product (no M or no N loop: a unit dim
    that linalg-fold-unit-extent-dims removed, x[1, K] @ w[K, N]), whose group is then
    empty (size 1); only mlc-blas takes those."""
    if op.name != "linalg.generic" or len(op.operands) != 3:
        return None
    unsigned = _multiply_accumulate(op)
    if unsigned is None:
        return None
    maps = [_map_dims(a) for a in op.attributes["indexing_maps"]]
    if None in maps:
        return None
    lhs, rhs, out = maps
    n_loops = len(op.attributes["iterator_types"])
    types = [ir.ShapedType(v.type).element_type for v in op.operands]
    element = types[2]
    sources = () if types[0] == types[1] == element else (types[0], types[1])
    roles: dict[str, list[int]] = {"m": [], "n": [], "k": [], "batch": []}
    for d in range(n_loops):
        where = (d in lhs, d in rhs, d in out)
        role = {(True, False, True): "m", (False, True, True): "n", (True, True, False): "k",
                (True, True, True): "batch"}.get(where)
        if role is None:
            return None
        roles[role].append(d)
    if not roles["k"] or not (roles["m"] or vectors) or not (roles["n"] or vectors) \
            or not (roles["m"] or roles["n"]):
        return None
    extents = _static_extents(op, maps, n_loops)
    if extents is None or 0 in extents:
        return None  # an empty loop has nothing to tile (upstream's tiler asserts on one)

    def in_order(group, dims):
        return tuple(sorted(group, key=dims.index))

    return Contraction(in_order(roles["m"], out), in_order(roles["n"], out), in_order(roles["k"], lhs),
                       tuple(roles["batch"]), extents, lhs, rhs, out, element, sources,
                       unsigned if sources else (False, False))


def _batch_dims_outer(dims: tuple[int, ...], batch: tuple[int, ...]) -> bool:
    """Whether every batch loop comes before every other loop in this memory order."""
    inner = [d in batch for d in dims]
    return inner == sorted(inner, reverse=True)


def register_tile(c: Contraction, register_bits: int) -> tuple[int, ...] | None:
    """Loop tile sizes for mlc-tile-matmul's register tiles of a single-loop M, N, K
    contraction: batch 1, M ROWS (or M when smaller), N up to two vector registers
    (`tile_lanes`, `column_tile`), K whole. A tile need not divide its extent: mlc-tile-matmul
    peels the last, smaller tile of M (M = 17: 4 tiles of 4 rows, then 1) and of N (N = 10:
    8 columns, then 2; `remainders`). None when the contraction cannot be register-tiled
    (several loops per dimension, an element type of no whole bytes, N not the output's
    innermost dim, batch dims between an operand's tiled dims, no column tile fits N)."""
    if len(c.m) != 1 or len(c.n) != 1 or len(c.k) != 1:
        return None
    lanes = tile_lanes(c, register_bits)
    m, n = c.m[0], c.n[0]
    if lanes is None or c.out_dims[-1] != n:
        return None
    if c.rhs_dims[-1] != n:
        # B stored transposed (x @ k^T): each k step would read a tile row as NR elements
        # one row of B apart; the packed kernel transposes B once while packing. Measured on
        # q @ k^T / 8, (8, 512, 64) x (8, 512, 64), AVX-512: 3.1-4.5 ms tiled with the
        # scale fused, 2.0-2.3 ms packed (the scale a separate loop).
        return None
    if not all(_batch_dims_outer(dims, c.batch) for dims in (c.lhs_dims, c.rhs_dims, c.out_dims)):
        # A batch dim between an operand's tiled dims (q of shape (B, S, H, dh) read as
        # [b, h] x (S, dh)) makes the tile's vector reads skip a memory dim, which the
        # transfer lowering MLC runs does not handle (it read past the buffer: a segfault
        # on attention); the packed kernel loops over such batch dims instead.
        return None
    sizes = [0] * len(c.extents)
    for b in c.batch:
        sizes[b] = 1
    rows = min(ROWS, c.extents[m])
    width = column_tile(c.extents[n], lanes, tile_rows(c.extents[m], rows))
    if width is None:
        return None
    sizes[m], sizes[n] = rows, width
    return tuple(sizes)


def _power_of_two(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def tile_rows(m: int, rows: int) -> set[int]:
    """The row counts of M's tiles above 1 (`rows`, and M's remainder): no N tile may have
    one of them as width. On a square tile (4 x 4: q k^T of 4 tokens) the broadcast B read,
    once mlc-vectorize's transfer_permutation_patterns and the canonicalizer are through,
    is broadcast along the wrong dimension (every row of the product read B's row i): wrong
    results."""
    return {rows, m % rows} - {0, 1}


def column_tile(n: int, lanes: int, rows: set[int]) -> int | None:
    """NR for N columns: the widest power of two up to `lanes` and N, or half of it, that is
    not a row count (tile_rows) and leaves no remainder or a remainder that is one more
    power-of-two tile (not a row count either): N = 10 is 8 + 2, 33 is 16 + 1 (32 + 1 with
    512-bit f32). A vector row of another width (vector<10xf32>) is lowered through a stack
    temporary LLVM does not promote to registers (2.5x slower than the packed kernel on
    64 x 256 x 10); a remainder of several tiles (127 = 7 x 16 + 8 + 4 + 2 + 1) is not
    supported: None, and the contraction is packed."""
    widest = min(lanes, 1 << (n.bit_length() - 1))
    for width in (widest, widest // 2):
        rest = n % width if width else -1
        if width and width not in rows and (rest == 0 or (_power_of_two(rest) and rest not in rows)):
            return width
    return None


def tile_lanes(c: Contraction, register_bits: int) -> int | None:
    """NR of the register tile: the elements of two vector registers (8 accumulators with
    ROWS = 4 hide the FMA latency); None for an element type of no whole bytes."""
    width = getattr(c.element_type, "width", None)
    if not width or width % 8:
        return None
    return 2 * register_bits // width


def remainders(c: Contraction, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """The loops whose extent the tile size does not divide (M = 17 in tiles of 4, N = 10 in
    tiles of 8): each ends in one smaller tile, which mlc-tile-matmul peels off."""
    return tuple(d for d, s in enumerate(sizes) if s and c.extents[d] % s)
