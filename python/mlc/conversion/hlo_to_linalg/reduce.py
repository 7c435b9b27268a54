"""Reductions. hlo.reduce -> linalg.fill of the init value, then a linalg.generic that
combines each input element into the output (reduction iterators on `dimensions`).
argmax/argmin -> one linalg.generic with two outputs (best value, its index).
reduce_window -> the input padded with the init value (edges and base dilation), then a
linalg.generic over (output dims, window dims) reading `out * stride + w * dilation`.
A reduce_window that is a running reduction along one axis (cumsum, cummax: a window of
the axis's whole length n, padded n-1 in front) instead becomes a scan, O(n) not O(n^2):

    reduce_window(x: n along axis a, init, window n, padding (n-1, 0))
  ->
    acc = fill(init); scf.for k in 0..n { acc = combine(x[k], acc); out[k] = acc }

(slices along `a`; the same additions in the same order as the window's, so the same
bits). Window k holds n-1-k copies of the init value as padding: the scan equals it when
combining init again changes nothing, i.e. init is the identity (add, mul, xor) or the
combiner is idempotent (max, min, and, or)."""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import arith, tensor

from ...dialects.hlo.shape_rules import optional_per_dim, padding_pairs
from ...dialects.hlo.types import is_bool, is_float

from .registry import (PARALLEL, REDUCTION, empty, fill, generic, identity_map, loop_index,
                       lowering, projection)
from .scalar import combine, const, extreme, identity
from .constant import splat_value
from ...codegen.views import reassociation, trailing_groups
from .loops import along, each_row, for_range, index
from .slicing import extract_slice, insert_slice, pad_tensor


# A long reduction along the innermost dim is split into LANES partial results: a serial
# chain of float adds runs at one add per ~4 cycles, while LANES independent accumulators
# are one vector add (mlc-vectorize keeps them in a vector register).
LANES = 16
SPLIT_THRESHOLD = 1024
# A long reduction with few results is also cut into CHUNKS independent pieces, a parallel
# outer loop that mlc-vectorize can share between threads.
CHUNKS = 8
CHUNK_THRESHOLD = 1 << 16
_WIDER = {"f32": ir.F64Type.get, "f16": ir.F32Type.get, "bf16": ir.F32Type.get}


def _reduce_generic(source, x_rank, dims, init, kind, et, unsigned, extra_parallel=0, convert=None):
    """combine(kind) of `source` over `dims` into `init`; trailing `extra_parallel` loops
    are kept (the lanes of a split reduction). `convert(element)` maps each element to
    the accumulator type `et` first (f32 -> f64 partial sums)."""
    rank = x_rank + extra_parallel
    kept = [d for d in range(rank) if d not in dims]
    iterators = [REDUCTION if d in dims else PARALLEL for d in range(rank)]
    if convert is not None:
        return generic([source], init, [identity_map(rank), projection(rank, kept)], iterators,
                       lambda v, acc: combine(kind, et, convert(v), acc, unsigned))
    return generic([source], init, [identity_map(rank), projection(rank, kept)], iterators,
                   lambda v, acc: combine(kind, et, v, acc, unsigned))


@lowering("reduce")
def lower_reduce(op, sig):
    x, _ = sig.operand_types
    result_type = op.results[0].type
    dims = sorted(sig.attributes["dimensions"])
    kind = sig.attributes["kind"]
    et = x.element_type
    unsigned = sig.operand_unsigned(0)
    init = fill(tensor.extract(op.operands[1], []), empty(result_type))
    n = x.shape[-1] if x.rank else 0
    neutral = identity(kind, et, unsigned) if not is_bool(et) else None
    wide = _WIDER.get(str(et))() if kind == "add" and str(et) in _WIDER else None
    trailing = _trailing_run(dims, x.rank)
    if neutral is not None and trailing and len(trailing) < len(dims):
        return [_reduce_in_two_steps(op, x, dims, trailing, kind, et, unsigned, wide, result_type)]
    if (neutral is None or not dims or dims[-1] != x.rank - 1 or n < SPLIT_THRESHOLD
            or n % LANES):
        if wide is None or math.prod(x.shape[d] for d in dims) < SPLIT_THRESHOLD:
            return [_reduce_generic(op.operands[0], x.rank, dims, init, kind, et, unsigned)]
        # A long float sum without lanes: one serial accumulator, kept in the wide type so
        # 1e8 f32 ones sum to 1e8, not to 2^24 where f32 stops counting.
        kept_shape = [s for d, s in enumerate(x.shape) if d not in dims]
        wide_init = fill(arith.extf(wide, tensor.extract(op.operands[1], [])),
                         empty(ir.RankedTensorType.get(kept_shape, wide)))
        total = _reduce_generic(op.operands[0], x.rank, dims, wide_init, kind, wide, unsigned,
                                convert=lambda v: arith.extf(wide, v))
        return [_narrow(total, result_type, et)]
    kept_shape = [s for d, s in enumerate(x.shape) if d not in dims]
    chunks = CHUNKS if (dims == [x.rank - 1] and n >= CHUNK_THRESHOLD and n % (CHUNKS * LANES) == 0
                        and math.prod(kept_shape) < CHUNKS) else 1
    # [..., n] -> [..., chunks, n / (chunks LANES), LANES]; reduce the middle dim (and the
    # other reduced dims) into [kept..., chunks, LANES] partial results, then those.
    middle = n // (chunks * LANES)
    split_shape = list(x.shape[:-1]) + ([chunks] if chunks > 1 else []) + [middle, LANES]
    extra = len(split_shape) - x.rank
    split = tensor.expand_shape(ir.RankedTensorType.get(split_shape, et), op.operands[0],
                                reassociation(trailing_groups(x.rank - 1, len(split_shape))), [], split_shape)
    partial_dims = dims[:-1] + [len(split_shape) - 2]
    partial_shape = kept_shape + ([chunks] if chunks > 1 else []) + [LANES]
    # Sums accumulate their lanes in a wider type: f32 in f64 (the lanes are memory-bound
    # anyway, and the result is more accurate than numpy's pairwise f32 sum,
    # test_vectorize.py), f16 and bf16 in f32 (as XLA does).
    acc_t = wide or et
    partial_type = ir.RankedTensorType.get(partial_shape, acc_t)
    partial = _reduce_generic(split, x.rank, partial_dims,
                              fill(identity(kind, acc_t, unsigned), empty(partial_type)),
                              kind, acc_t, unsigned, extra_parallel=extra,
                              convert=(lambda v: arith.extf(wide, v)) if wide else None)
    last = list(range(len(kept_shape), len(partial_shape)))
    if wide is None:
        return [_reduce_generic(partial, len(partial_shape), last, init, kind, et, unsigned)]
    # The lanes are summed in the wide type too, with the init value; one rounding at the end.
    wide_result = ir.RankedTensorType.get(kept_shape, wide)
    wide_init = fill(arith.extf(wide, tensor.extract(op.operands[1], [])), empty(wide_result))
    total = _reduce_generic(partial, len(partial_shape), last, wide_init, kind, wide, unsigned)
    return [_narrow(total, result_type, et)]


def _trailing_run(dims: list[int], rank: int) -> list[int]:
    """The reduced dims that end the shape with no kept dim among them (dims sorted)."""
    run = []
    for d in range(rank - 1, -1, -1):
        if d not in dims:
            break
        run.insert(0, d)
    return run


def _reduce_in_two_steps(op, x, dims, trailing, kind, et, unsigned, wide, result_type):
    """reduce(x, dims) with a kept dim between the reduced ones (a batch norm's mean over N,
    H and W of NCHW; a max over axes 0 and 2) -> reduce the trailing run first (rows, on
    contiguous memory: mlc-vectorize's row reductions), then the other dims of that smaller
    result (columns, vectorized along the kept dims). As one loop nest the innermost kept
    loop sat between reductions, which upstream's vectorizer reduced lane by lane: NCHW
    mean over (0, 2, 3) 1.5 ms, max over (0, 2) of (64, 128, 96) 3.7 ms (numpy 0.33, 0.35).
    Float sums keep their partial results in the wide type, rounded once at the end."""
    reduced = math.prod(x.shape[d] for d in dims)
    acc_t = wide if wide is not None and reduced >= SPLIT_THRESHOLD else et
    convert = (lambda v: arith.extf(acc_t, v)) if acc_t != et else None
    partial_shape = [s for d, s in enumerate(x.shape) if d not in trailing]
    partial_init = fill(identity(kind, acc_t, unsigned), empty(ir.RankedTensorType.get(partial_shape, acc_t)))
    partial = _reduce_generic(op.operands[0], x.rank, trailing, partial_init, kind, acc_t, unsigned, convert=convert)
    rest = [d for d in dims if d not in trailing]  # (the same positions in partial: trailing dims are last)
    start = tensor.extract(op.operands[1], [])
    kept_shape = list(ir.RankedTensorType(result_type).shape)
    total_init = fill(arith.extf(acc_t, start) if acc_t != et else start,
                      empty(ir.RankedTensorType.get(kept_shape, acc_t)))
    total = _reduce_generic(partial, len(partial_shape), rest, total_init, kind, acc_t, unsigned)
    return total if acc_t == et else _narrow(total, result_type, et)


def _narrow(total, result_type, et):
    """The wide partial result rounded once to the result's element type."""
    rank = result_type.rank
    return generic([total], empty(result_type), [identity_map(rank), identity_map(rank)], [PARALLEL] * rank,
                   lambda v, _out: arith.truncf(et, v))


@lowering("argmax", "argmin")
def lower_arg_reduce(op, sig):
    """argmax(x, d) -> two reductions along d, each of one combiner (so mlc-vectorize runs
    both on vectors, where one loop carrying (best, index) stays scalar):

        best  = max over d of x                      (NaN-propagating: a NaN is the max)
        index = min over d of (x == best or x != x ? position : n)

    The first position holding the best value wins, and the first NaN if there is one: what
    a single pass taking only strictly better elements gives (JAX's ties and NaNs)."""
    (x,) = sig.operand_types
    dim = sig.attributes["dimension"]
    result_type = op.results[0].type
    et, it = x.element_type, result_type.element_type
    kind = "max" if sig.name == "argmax" else "min"
    unsigned = sig.operand_unsigned(0) or is_bool(et)
    kept = [d for d in range(x.rank) if d != dim]
    out_map = projection(x.rank, kept)
    iterators = [REDUCTION if d == dim else PARALLEL for d in range(x.rank)]
    maps = [identity_map(x.rank), out_map, out_map]
    best_type = ir.RankedTensorType.get(result_type.shape, et)
    best_init = fill(extreme(et, kind == "min", unsigned), empty(best_type))
    best = generic([op.operands[0]], best_init, [identity_map(x.rank), out_map], iterators,
                   lambda v, acc: _best(kind, et, v, acc, unsigned))
    n = x.shape[dim]
    index_init = fill(const(it, n), empty(result_type))

    def first_match(v, b, acc):
        if is_float(et):
            match = arith.ori(arith.cmpf(arith.CmpFPredicate.OEQ, v, b), arith.cmpf(arith.CmpFPredicate.UNO, v, v))
        else:
            match = arith.cmpi(arith.CmpIPredicate.eq, v, b)
        return arith.minsi(arith.select(match, loop_index(dim, it), const(it, n)), acc)

    return [generic([op.operands[0], best], index_init, maps, iterators, first_match)]


def _best(kind: str, et: ir.Type, v: ir.Value, acc: ir.Value, unsigned: bool) -> ir.Value:
    """argmax's best value: `maximumf(v, acc) fastmath<nsz>` (min for argmin) on floats.
    It is compared with `==` only, where -0.0 equals +0.0, so which zero it holds does not
    matter: without signed zeros x86 lowers the NaN-propagating max to vmaxps and a NaN
    blend (3 instructions, not 6; argmax of (1000, 777) f32 on one thread 137 -> 112 us)."""
    if not is_float(et):
        return combine(kind, et, v, acc, unsigned)
    nsz = ir.Attribute.parse("#arith.fastmath<nsz>")
    return (arith.maximumf if kind == "max" else arith.minimumf)(v, acc, fastmath=nsz)


# Combiners for which combining the init value again changes nothing, whatever it is.
_IDEMPOTENT = frozenset({"max", "min", "and", "or"})
# Otherwise the init value must be the combiner's identity.
_IDENTITY = {"add": 0, "xor": 0, "mul": 1}


def _splat_number(value: ir.Value):
    """The single element of a splat constant (hlo or arith, through a signless cast), else None."""
    while not isinstance(value, ir.BlockArgument) and value.owner.name == "builtin.unrealized_conversion_cast":
        value = value.owner.operands[0]
    if isinstance(value, ir.BlockArgument) or value.owner.name not in ("arith.constant", "hlo.constant"):
        return None
    return splat_value(value.owner.attributes["value"])


def _scan_axis(op, sig, shape, window, strides, base, dilations, padding) -> int | None:
    """The axis of a running reduction (see the module docstring), else None."""
    if any(v != 1 for v in (*strides, *base, *dilations)):
        return None
    axes = [d for d, w in enumerate(window) if w != 1]
    if len(axes) != 1:
        return None
    (axis,), kind = axes, sig.attributes["kind"]
    n = shape[axis]
    expected = [(n - 1, 0) if d == axis else (0, 0) for d in range(len(shape))]
    if window[axis] != n or list(padding) != expected:
        return None
    if kind in _IDEMPOTENT:
        return axis
    return axis if kind in _IDENTITY and _splat_number(op.operands[1]) == _IDENTITY[kind] else None


def _lower_scan(op, sig, axis: int):
    x_type = sig.operand_types[0]
    rank, et = x_type.rank, x_type.element_type
    slab = ir.RankedTensorType.get([1 if d == axis else s for d, s in enumerate(x_type.shape)], et)
    kind, unsigned = sig.attributes["kind"], sig.operand_unsigned(0)
    result = empty(op.results[0].type)
    if math.prod(slab.shape) == 1:
        # One running value (a 1-D scan): carried as a scalar. As a one-element tensor, the
        # unit-dim folding left its buffer out of place, a malloc and free per element
        # (cumsum of 1e6: 10 ms; numpy 3.8).
        def scalar_step(k, carried):
            acc, out = carried
            at = [k if d == axis else index(0) for d in range(rank)]
            acc = combine(kind, et, tensor.extract(op.operands[0], at), acc, unsigned)
            return [acc, tensor.insert(acc, out, at)]

        return [for_range(index(0), index(x_type.shape[axis]), index(1),
                          [tensor.extract(op.operands[1], []), result], scalar_step)[1]]
    if axis == rank - 1:
        return [_scan_rows(op, kind, et, unsigned, result)]
    start = fill(tensor.extract(op.operands[1], []), empty(slab))

    def step(k, carried):
        acc, out = carried
        offsets = [k if d == axis else 0 for d in range(rank)]
        acc = generic([extract_slice(op.operands[0], slab, offsets)], acc, [identity_map(rank)] * 2,
                      [PARALLEL] * rank, lambda v, a: combine(kind, et, v, a, unsigned))
        return [acc, insert_slice(acc, out, offsets)]

    return [for_range(index(0), index(x_type.shape[axis]), index(1), [start, result], step)[1]]


# A scan step in simple ops (a load, the combiner, a store), for the thread rule.
_SCAN_STEP_COST = 3


def _scan_rows(op, kind: str, et: ir.Type, unsigned: bool, result: ir.Value) -> ir.Value:
    """A running reduction along the innermost axis, row by row: each row's elements are
    contiguous, read in order into one running scalar (the rows on the thread pool when
    worth it). The slab form would step through the rows' k-th elements, one per cache
    line: (1000, 777) f32 cumsum 3.2 ms, numpy 3.0."""
    x = op.operands[0]
    shape = list(ir.RankedTensorType(x.type).shape)
    axis, n = len(shape) - 1, shape[-1]
    init = tensor.extract(op.operands[1], [])

    def scan_row(row, outs, write_row=None):
        at = row if write_row is None else write_row

        def step(k, carried):
            acc, out = carried
            acc = combine(kind, et, tensor.extract(x, along(row, axis, k)), acc, unsigned)
            return [acc, tensor.insert(acc, out, along(at, axis, k))]

        return [for_range(index(0), index(n), index(1), [init, outs[0]], step)[1]]

    return each_row(shape, axis, n, [result], n * _SCAN_STEP_COST, scan_row)[0]


@lowering("reduce_window")
def lower_reduce_window(op, sig):
    x, _ = sig.operand_types
    rank = x.rank
    a = sig.attributes
    window = a["window_dimensions"]
    strides = optional_per_dim(sig, "window_strides", rank, 1)
    base = optional_per_dim(sig, "base_dilations", rank, 1)
    dilations = optional_per_dim(sig, "window_dilations", rank, 1)
    padding = padding_pairs(sig, rank)
    axis = _scan_axis(op, sig, x.shape, window, strides, base, dilations, padding)
    if axis is not None:
        return _lower_scan(op, sig, axis)
    init_scalar = tensor.extract(op.operands[1], [])
    source = op.operands[0]
    if any(b != 1 for b in base) or any(p != (0, 0) for p in padding):
        source = pad_tensor(source, init_scalar, [lo for lo, _ in padding], [hi for _, hi in padding],
                            [b - 1 for b in base])
    result_type = op.results[0].type
    # Only the elements some window reads: then the loops cover the input exactly, which
    # upstream's unit-dim folding assumes (a tail past the last window made it build a
    # generic with mismatched operand sizes).
    source_type = ir.RankedTensorType(source.type)
    read = [(o - 1) * s + (w - 1) * d + 1 for o, s, w, d in zip(result_type.shape, strides, window, dilations)]
    if read != list(source_type.shape):
        source = extract_slice(source, ir.RankedTensorType.get(read, source_type.element_type), [0] * rank)
    init = fill(init_scalar, empty(result_type))
    # Loops: output dims 0..rank-1, then window dims rank..2*rank-1. The window's extent comes
    # from a shape-only operand (never read), as linalg's pooling ops do.
    n_loops = 2 * rank
    in_exprs = [ir.AffineExpr.get_add(
        ir.AffineExpr.get_mul(ir.AffineDimExpr.get(d), ir.AffineConstantExpr.get(strides[d])),
        ir.AffineExpr.get_mul(ir.AffineDimExpr.get(rank + d), ir.AffineConstantExpr.get(dilations[d])))
        for d in range(rank)]
    window_shape = empty(ir.RankedTensorType.get(list(window), x.element_type))
    maps = [ir.AffineMap.get(n_loops, 0, in_exprs), projection(n_loops, range(rank, n_loops)),
            projection(n_loops, range(rank))]
    kind, et, unsigned = a["kind"], x.element_type, sig.operand_unsigned(0)
    return [generic([source, window_shape], init, maps, [PARALLEL] * rank + [REDUCTION] * rank,
                    lambda v, _w, acc: combine(kind, et, v, acc, unsigned))]
