"""`hlo_programs()`: a hypothesis strategy of random, well-typed hlo functions with inputs.

A program is built op by op with the typed builders of `mlc.dialects.hlo` (so every op is
checked by its shape rule as it is made) over a pool of values: each step draws an op of
`OPS` (every op of the table can be drawn), draws the attribute values its shape rule
accepts, and takes its operands from the pool or from fresh function arguments. Shapes
have rank 0-3 with dims drawn from {0, 1, 2, 3, 5, 8}; element types are i1, i8..i64,
ui8..ui64, f16, f32, f64 (bf16 only inside, as f32 -> bf16 -> f32). Inputs mix edge values
(NaN, +-inf, -0.0, subnormals, INT_MIN, max values) with ordinary ones.

Control flow (CONTROL_FLOW): scf.if on a 0-d i1 value, scf.index_switch on a 0-d i32/i64
value (cases drawn from -1..4, so the selector also misses them), and scf.while running a
counter from 0 to a drawn 0-3 with 1-2 carried values, as the frontends emit them over
tensors. Each region is drawn by the same generator over the enclosing pool (outer values
stay visible; a loop body adds its carried values) and yields pool values of the result
types; what a region makes is not visible after it, and its sinks are dropped.

Exact and inexact ops. Ops whose float results two correct implementations may round
differently (transcendentals, power, atan2, and float sums/products: reduce and
reduce_window add/mul, dot_general, convolution, scatter add/mul) are *sinks*: their
results are program outputs and never operands of further ops, so a rounding difference is
never amplified by a later discontinuous op (floor, compare, convert to int, sort, ...).
Each output is tagged with its tolerance class (see compare.py).

Exclusions (results that are legitimately implementation-defined, never generated):
- bitcast_convert *from a float* is applied only to function arguments: the sign and
  payload of a NaN that an op produces are not specified (IEEE 754 / StableHLO), and
  bitcast would expose them.
- Nothing else is excluded: float -> int convert of NaN / out-of-range values, integer
  x/0, INT_MIN/-1, shifts >= bit width, clamped dynamic_slice/gather starts and dropped
  scatter windows are all defined by MLC's docs (docs/dialect.md, XLA's rules), so they
  are generated on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from mlir import ir
from mlir.dialects import arith, func, scf, tensor

from ..context import make_context
from ..dialects import hlo
from ..dialects.hlo.ops import OPS
from ..dialects.hlo.types import HloTypeError
from . import dtypes as D

DIMS = (0, 1, 2, 3, 5, 8)  # 8: whole vector tiles (transposes, 8-lane kernels)
TRANSCENDENTAL = ("exponential", "exponential_minus_one", "log", "log_plus_one", "logistic",
                  "tanh", "rsqrt", "cbrt", "sine", "cosine", "tan", "atan2", "power")
ALL_OPS = tuple(OPS)
# What the frontends put around hlo ops (lax.cond / while_loop / fori_loop, StableHLO's
# case): drawn like ops, each region filled by the same generator (nested up to MAX_DEPTH).
CONTROL_FLOW = ("scf.if", "scf.while", "scf.index_switch")
MAX_DEPTH = 2


@dataclass
class Program:
    """A generated module, its inputs and what the comparison needs to know."""

    text: str
    inputs: list
    ops: list = field(default_factory=list)        # op names, in program order
    tolerance: list = field(default_factory=list)  # per output: "exact" | "float" | "transcendental" | "sum"
    terms: int = 1                                 # the most terms any sum output adds

    def describe(self) -> str:
        return f"{len(self.ops)} ops ({', '.join(sorted(set(self.ops)))}), {len(self.inputs)} inputs"


def _tt(shape, name):
    return ir.RankedTensorType.get(list(shape), ir.Type.parse(name))


def _name(value) -> str:
    return str(ir.RankedTensorType(value.type).element_type)


def _shape(value) -> list:
    return list(ir.RankedTensorType(value.type).shape)


class _Gen:
    """The state of one program being drawn."""

    def __init__(self, draw):
        self.draw = draw
        self.block = None
        self.args: list = []          # (value, name, shape, role)
        self.pool: list = []          # values further ops may use
        self.outputs: list = []       # (value, tolerance class)
        self.ops: list = []
        self.terms = 1

    # ------------------------------------------------------------------ draws
    def d(self, strategy):
        return self.draw(strategy)

    def shape(self, min_rank=0, max_rank=3):
        rank = self.d(st.integers(min_rank, max_rank))
        return [self.d(st.sampled_from(DIMS)) for _ in range(rank)]

    def elem(self, cls="any"):
        return self.d(st.sampled_from(D.CLASSES[cls]))

    def arg(self, shape, name, role="data"):
        value = self.block.add_argument(_tt(shape, name), ir.Location.unknown())
        self.args.append((value, name, list(shape), role))
        return value

    def value(self, cls="any", shape=None, name=None, fresh_p=0.25, rank_min=0):
        """A pool value of element class `cls` (and shape / element type when given), or a new argument."""
        fits = [v for v in self.pool
                if _name(v) in D.CLASSES[cls] and (shape is None or _shape(v) == list(shape))
                and (name is None or _name(v) == name) and len(_shape(v)) >= rank_min]
        if fits and self.d(st.integers(0, 99)) >= int(fresh_p * 100):
            return self.d(st.sampled_from(fits))
        return self.arg(shape if shape is not None else self.shape(min_rank=rank_min),
                        name or self.elem(cls))

    def scalar_of(self, name):
        """A 0-d value of element type `name`: a constant or an argument."""
        if self.d(st.booleans()):
            return self.arg([], name)
        return hlo.constant(np.array(self.d(_elements(name)), D.NUMPY[name]), ir.Type.parse(name))

    def add(self, value, tolerance="exact"):
        if tolerance == "exact":
            self.pool.append(value)
        else:
            self.outputs.append((value, tolerance))
        return value


# ---------------------------------------------------------------------- input values

def _elements(name: str, role: str = "data"):
    dt = D.NUMPY[name]
    if name == "i1":
        return st.booleans()
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if role == "index":
            return st.integers(max(int(info.min), -3), min(int(info.max), 7))
        return st.one_of(st.sampled_from(D.edge_values(name)), st.integers(max(int(info.min), -9), 9),
                         st.integers(int(info.min), int(info.max)))
    width = dt.itemsize * 8
    return st.one_of(st.sampled_from(D.edge_values(name)),
                     st.floats(-8, 8, width=width).map(lambda x: round(x * 4) / 4),
                     st.floats(-10, 10, width=width),
                     st.floats(width=width, allow_nan=True, allow_infinity=True))


def _array(draw, name, shape, role):
    return draw(hnp.arrays(D.NUMPY[name], tuple(shape), elements=_elements(name, role), fill=st.nothing()))


# ---------------------------------------------------------------------- one applier per op family

def _elementwise(g: _Gen, op: str):
    opdef = OPS[op]
    x = g.value(opdef.elements)
    builder = getattr(hlo, op if hasattr(hlo, op) and op not in ("and", "or", "not", "abs") else
                      {"and": "and_", "or": "or_", "not": "not_", "abs": "abs"}[op])
    tol = "transcendental" if op in TRANSCENDENTAL and D.is_float(_name(x)) else "exact"
    if op == "power" and not D.is_float(_name(x)):
        tol = "exact"
    if opdef.family == "elementwise-binary":
        y = g.value(shape=_shape(x), name=_name(x), fresh_p=0.5)
        if op.startswith("shift") and g.d(st.booleans()):
            y = g.arg(_shape(x), _name(x), role="index")
        return g.add(builder(x, y), tol)
    return g.add(builder(x), tol)


def _is_finite(g):
    return g.add(hlo.is_finite(g.value("float")))


def _compare(g):
    x = g.value()
    y = g.value(shape=_shape(x), name=_name(x), fresh_p=0.5)
    direction = g.d(st.sampled_from(["EQ", "NE", "GE", "GT", "LE", "LT"]))
    name = _name(x)
    types = [None] + (["FLOAT", "TOTALORDER"] if D.is_float(name) else ["SIGNED", "UNSIGNED"])
    return g.add(hlo.compare(x, y, direction, g.d(st.sampled_from(types))))


def _clamp(g):
    x = g.value("number")
    bounds = []
    for _ in range(2):
        if g.d(st.booleans()):
            bounds.append(g.scalar_of(_name(x)))
        else:
            bounds.append(g.value(shape=_shape(x), name=_name(x), fresh_p=0.7))
    return g.add(hlo.clamp(bounds[0], x, bounds[1]))


def _select(g):
    x = g.value()
    y = g.value(shape=_shape(x), name=_name(x), fresh_p=0.5)
    pred = g.value(shape=[] if g.d(st.booleans()) else _shape(x), name="i1", fresh_p=0.5)
    return g.add(hlo.select(pred, x, y))


def _convert(g):
    x = g.value()
    target = g.elem()
    if D.HAVE_BF16 and _name(x) == "f32" and g.d(st.integers(0, 3)) == 0:
        via = hlo.convert(x, ir.BF16Type.get())
        g.ops.append("convert")
        return g.add(hlo.convert(via, ir.F32Type.get()))
    return g.add(hlo.convert(x, ir.Type.parse(target)))


def _bitcast(g):
    src = g.elem("any")
    if src == "i1":
        src = "i32"
    same = [n for n in D.ALL if n != "i1" and D.bit_width(n) == D.bit_width(src) and n != src]
    dst = g.d(st.sampled_from(same))
    if D.is_float(src):  # a NaN an op made has unspecified bits: bitcast arguments only
        x = g.arg(g.shape(), src)
    else:
        x = g.value(name=src)
    return g.add(hlo.bitcast_convert(x, ir.Type.parse(dst)))


def _broadcast(g):
    x = g.value()
    shape = _shape(x)
    extra = g.d(st.integers(0, 3 - len(shape))) if len(shape) < 3 else 0
    rank = len(shape) + extra
    dims = g.d(st.permutations(range(rank)))[:len(shape)]
    if g.d(st.booleans()):
        dims = sorted(dims)
    out = [g.d(st.sampled_from(DIMS)) for _ in range(rank)]
    for i, d in enumerate(dims):
        out[d] = shape[i] if shape[i] != 1 else g.d(st.sampled_from([1, out[d]]))
    return g.add(hlo.broadcast_in_dim(x, out, dims))


def _reverse(g):
    x = g.value()
    dims = sorted(g.d(st.sets(st.integers(0, max(len(_shape(x)) - 1, 0)), max_size=len(_shape(x)))))
    return g.add(hlo.reverse(x, dims if _shape(x) else []))


def _slice(g):
    x = g.value()
    starts, limits, strides = [], [], []
    for n in _shape(x):
        s = g.d(st.integers(0, n))
        starts.append(s)
        limits.append(g.d(st.integers(s, n)))
        strides.append(g.d(st.integers(1, 3)))
    return g.add(hlo.slice(x, starts, limits, strides))


def _start_scalars(g, rank):
    name = g.elem("int")
    return [g.arg([], name, role="index") for _ in range(rank)]


def _dynamic_slice(g):
    x = g.value()
    sizes = [g.d(st.integers(0, n)) for n in _shape(x)]
    return g.add(hlo.dynamic_slice(x, _start_scalars(g, len(sizes)), sizes))


def _dynamic_update_slice(g):
    x = g.value()
    ushape = [g.d(st.integers(0, n)) for n in _shape(x)]
    update = g.value(shape=ushape, name=_name(x), fresh_p=0.6)
    return g.add(hlo.dynamic_update_slice(x, update, _start_scalars(g, len(ushape))))


def _pad(g):
    x = g.value()
    lows, highs, interiors = [], [], []
    for n in _shape(x):
        interior = g.d(st.integers(0, 2))
        size = n + max(n - 1, 0) * interior
        low = g.d(st.integers(-size, 3))
        high = g.d(st.integers(-(size + low), 3)) if size + low >= 0 else g.d(st.integers(0, 3))
        if size + low + high < 0:
            high = -(size + low)
        lows.append(low), highs.append(high), interiors.append(interior)
    return g.add(hlo.pad(x, g.scalar_of(_name(x)), lows, highs, interiors))


def _reshape(g):
    x = g.value()
    n = int(np.prod(_shape(x)))
    rank = g.d(st.integers(0, 3))
    if n == 0:
        out = [g.d(st.sampled_from(DIMS)) for _ in range(max(rank, 1))]
        out[g.d(st.integers(0, len(out) - 1))] = 0
    else:
        out, left = [], n
        for _ in range(max(rank - 1, 0)):
            divisors = [k for k in range(1, left + 1) if left % k == 0]
            k = g.d(st.sampled_from(divisors))
            out.append(k)
            left //= k
        if rank == 0 and n != 1:
            out = [n]
        elif rank > 0:
            out.append(left)
    return g.add(hlo.reshape(x, out))


def _transpose(g):
    x = g.value()
    return g.add(hlo.transpose(x, g.d(st.permutations(range(len(_shape(x)))))))


def _reduce(g):
    x = g.value()
    name = _name(x)
    kinds = ["add", "mul", "max", "min"] + (["and", "or", "xor"] if not D.is_float(name) else [])
    kind = g.d(st.sampled_from(kinds))
    dims = sorted(g.d(st.sets(st.integers(0, max(len(_shape(x)) - 1, 0)), max_size=len(_shape(x))))) if _shape(x) else []
    tol = "sum" if D.is_float(name) and kind in ("add", "mul") else "exact"
    if tol == "sum":
        g.terms = max(g.terms, int(np.prod([_shape(x)[d] for d in dims])) + 1)
    return g.add(hlo.reduce(x, g.scalar_of(name), dims, kind), tol)


def _argminmax(g, op):
    x = g.value(rank_min=1)
    dims = [d for d, n in enumerate(_shape(x)) if n > 0]
    if not dims:
        x = g.arg([g.d(st.sampled_from(DIMS[1:])) for _ in range(g.d(st.integers(1, 3)))], _name(x))
        dims = list(range(len(_shape(x))))
    dim = g.d(st.sampled_from(dims))
    index = ir.Type.parse(g.d(st.sampled_from(["i32", "i64"])))
    return g.add(getattr(hlo, op)(x, dim, index))


def _reduce_window(g):
    x = g.value()
    name = _name(x)
    kinds = ["add", "mul", "max", "min"] + (["and", "or", "xor"] if not D.is_float(name) else [])
    kind = g.d(st.sampled_from(kinds))
    window, strides, base, wdil, padding = [], [], [], [], []
    for n in _shape(x):
        b = g.d(st.integers(1, 2))
        lo, hi = g.d(st.integers(0, 2)), g.d(st.integers(0, 2))
        padded = (n - 1) * b + 1 + lo + hi if n else lo + hi
        if padded < 1:
            hi += 1
            padded += 1
        wd = g.d(st.integers(1, 2))
        w = g.d(st.integers(1, max(1, (padded - 1) // wd + 1)))
        window.append(w), strides.append(g.d(st.integers(1, 3))), base.append(b), wdil.append(wd)
        padding.append((lo, hi))
    tol = "sum" if D.is_float(name) and kind in ("add", "mul") else "exact"
    if tol == "sum":
        g.terms = max(g.terms, int(np.prod(window)) + 1 if window else 2)
    optional = g.d(st.booleans())
    return g.add(hlo.reduce_window(x, g.scalar_of(name), window, kind,
                                   window_strides=strides if optional or any(s != 1 for s in strides) else None,
                                   base_dilations=base, window_dilations=wdil,
                                   padding=padding if _shape(x) else None), tol)


def _dot_general(g):
    name = g.elem("any")
    nb = g.d(st.integers(0, 1))
    nc = g.d(st.integers(0, 2))
    batch = [g.d(st.sampled_from(DIMS)) for _ in range(nb)]
    contract = [g.d(st.sampled_from(DIMS)) for _ in range(nc)]
    lfree = [g.d(st.sampled_from(DIMS)) for _ in range(g.d(st.integers(0, 1)))]
    rfree = [g.d(st.sampled_from(DIMS)) for _ in range(g.d(st.integers(0, 1)))]

    def layout(free):
        roles = [("b", i) for i in range(nb)] + [("c", i) for i in range(nc)] + [("f", i) for i in range(len(free))]
        roles = g.d(st.permutations(roles))
        shape = [{"b": batch, "c": contract, "f": free}[r][i] for r, i in roles]
        bd = [roles.index(("b", i)) for i in range(nb)]
        cd = [roles.index(("c", i)) for i in range(nc)]
        return shape, bd, cd

    ls, lb, lc = layout(lfree)
    rs, rb, rc = layout(rfree)
    lhs = g.value(shape=ls, name=name, fresh_p=0.5)
    rhs = g.value(shape=rs, name=name, fresh_p=0.5)
    result = None
    if name in ("i8", "i16", "f16") and g.d(st.booleans()):
        result = ir.Type.parse({"i8": "i32", "i16": "i64", "f16": "f32"}[name])
    tol = "sum" if D.is_float(name) else "exact"
    g.terms = max(g.terms, int(np.prod(contract)) + 1)
    return g.add(hlo.dot_general(lhs, rhs, lb, rb, lc, rc, result_element_type=result), tol)


def _convolution(g):
    name = g.elem("number")
    ns = g.d(st.integers(1, 2))
    rank = ns + 2
    fg = g.d(st.sampled_from([1, 1, 2]))
    bg = 1 if fg > 1 else g.d(st.sampled_from([1, 1, 2]))
    batch = g.d(st.sampled_from([1, 2])) * bg
    cin_g = g.d(st.integers(1, 2))
    cout = g.d(st.integers(1, 2)) * fg * bg
    spatial = [g.d(st.integers(1, 5)) for _ in range(ns)]
    kernel = [g.d(st.integers(1, 3)) for _ in range(ns)]
    strides = [g.d(st.integers(1, 2)) for _ in range(ns)]
    ldil = [g.d(st.integers(1, 2)) for _ in range(ns)]
    rdil = [g.d(st.integers(1, 2)) for _ in range(ns)]
    padding = []
    for i in range(ns):
        lo, hi = g.d(st.integers(0, 2)), g.d(st.integers(0, 2))
        padded = (spatial[i] - 1) * ldil[i] + 1 + lo + hi
        span = (kernel[i] - 1) * rdil[i] + 1
        if padded < span:
            hi += span - padded
        padding.append((lo, hi))
    lp, kp, op_ = (g.d(st.permutations(range(rank))) for _ in range(3))
    lshape = [0] * rank
    lshape[lp[0]], lshape[lp[1]] = batch, cin_g * fg
    for i in range(ns):
        lshape[lp[2 + i]] = spatial[i]
    kshape = [0] * rank
    kshape[kp[0]], kshape[kp[1]] = cin_g, cout
    for i in range(ns):
        kshape[kp[2 + i]] = kernel[i]
    lhs = g.value(shape=lshape, name=name, fresh_p=0.5)
    rhs = g.value(shape=kshape, name=name, fresh_p=0.5)
    g.terms = max(g.terms, cin_g * int(np.prod(kernel)) + 1)
    return g.add(hlo.convolution(
        lhs, rhs, input_batch_dimension=lp[0], input_feature_dimension=lp[1],
        input_spatial_dimensions=lp[2:], kernel_input_feature_dimension=kp[0],
        kernel_output_feature_dimension=kp[1], kernel_spatial_dimensions=kp[2:],
        output_batch_dimension=op_[0], output_feature_dimension=op_[1],
        output_spatial_dimensions=op_[2:], window_strides=strides, padding=padding,
        lhs_dilation=ldil, rhs_dilation=rdil, feature_group_count=fg, batch_group_count=bg),
        "sum" if D.is_float(name) else "exact")


def _index_tensor(g, batch_shape, n, trailing):
    name = g.d(st.sampled_from(["i32", "i64", "ui32", "i8"]))
    shape = batch_shape + [n] if trailing else [n] + batch_shape
    return g.arg(shape, name, role="index"), (len(batch_shape) if trailing else 0)


def _gather(g):
    x = g.value(rank_min=1)
    shape = _shape(x)
    r = len(shape)
    start_map = g.d(st.permutations(range(r)))[:g.d(st.integers(1, r))]
    collapsible = [d for d in range(r) if shape[d] >= 1]
    collapsed = sorted(g.d(st.sets(st.sampled_from(collapsible), max_size=len(collapsible)))) if collapsible else []
    sizes = [1 if d in collapsed else g.d(st.integers(0, shape[d])) for d in range(r)]
    batch_shape = [g.d(st.sampled_from((0, 1, 2, 3))) for _ in range(g.d(st.integers(0, 2)))]
    trailing = g.d(st.booleans()) or not batch_shape
    indices, ivd = _index_tensor(g, batch_shape, len(start_map), trailing)
    result_rank = len(batch_shape) + r - len(collapsed)
    offset_dims = sorted(g.d(st.permutations(range(result_rank)))[:r - len(collapsed)])
    return g.add(hlo.gather(x, indices, offset_dims=offset_dims, collapsed_slice_dims=collapsed,
                            start_index_map=start_map, index_vector_dim=ivd, slice_sizes=sizes,
                            indices_are_sorted=g.d(st.sampled_from([None, False]))))


def _scatter(g):
    x = g.value(rank_min=1)
    shape = _shape(x)
    r = len(shape)
    to_operand = g.d(st.permutations(range(r)))[:g.d(st.integers(1, r))]
    insertable = [d for d in range(r) if shape[d] >= 1]
    inserted = sorted(g.d(st.sets(st.sampled_from(insertable), max_size=len(insertable)))) if insertable else []
    window = [g.d(st.integers(0, shape[d])) for d in range(r) if d not in inserted]
    batch_shape = [g.d(st.sampled_from((0, 1, 2, 3))) for _ in range(g.d(st.integers(0, 2)))]
    indices, ivd = _index_tensor(g, batch_shape, len(to_operand), g.d(st.booleans()) or not batch_shape)
    urank = len(batch_shape) + len(window)
    window_dims = sorted(g.d(st.permutations(range(urank)))[:len(window)])
    ushape, bi, wi = [], iter(batch_shape), iter(window)
    for d in range(urank):
        ushape.append(next(wi) if d in window_dims else next(bi))
    updates = g.value(shape=ushape, name=_name(x), fresh_p=0.7)
    kind = g.d(st.sampled_from(["set", "add", "mul", "max", "min"]))
    tol = "sum" if D.is_float(_name(x)) and kind in ("add", "mul") else "exact"
    if tol == "sum":
        g.terms = max(g.terms, int(np.prod(batch_shape)) + 1)
    return g.add(hlo.scatter(x, indices, updates, update_window_dims=window_dims,
                             inserted_window_dims=inserted, scatter_dims_to_operand_dims=to_operand,
                             index_vector_dim=ivd, kind=kind), tol)


def _sort(g, op):
    x = g.value(rank_min=1)
    dim = g.d(st.integers(0, len(_shape(x)) - 1))
    desc = g.d(st.booleans())
    if op == "sort":
        return g.add(hlo.sort(x, dim, descending=desc, is_stable=g.d(st.sampled_from([None, True, False]))))
    n = _shape(x)[dim]
    limit = g.d(st.one_of(st.none(), st.integers(0, n)))  # top-k: a selection per row
    return g.add(hlo.argsort(x, dim, descending=desc, index_type=ir.Type.parse(g.d(st.sampled_from(["i32", "i64"]))),
                             limit=limit))


def _constant(g):
    name = g.elem()
    shape = g.shape()
    array = g.d(hnp.arrays(D.NUMPY[name], tuple(shape), elements=_elements(name), fill=st.nothing()))
    if name == "i1":  # DenseElementsAttr.get cannot take a numpy bool buffer of rank > 0
        body = str(array.tolist()).replace("True", "true").replace("False", "false")
        if array.size == 0 or array.ndim == 0:
            body = "true" if array.size and array.all() else "false"
        attr = ir.Attribute.parse(f"dense<{body}> : {D.tensor_type(shape, 'i1')}")
        return g.add(hlo.constant(attr))
    return g.add(hlo.constant(array, ir.Type.parse(name)))


def _iota(g):
    shape = g.shape(min_rank=1)
    name = g.d(st.sampled_from(D.INTS + D.FLOATS))  # iota has no i1 form (the shape rule refuses it)
    return g.add(hlo.iota(shape, ir.Type.parse(name), g.d(st.integers(0, len(shape) - 1))))


APPLIERS = {
    "constant": _constant, "iota": _iota, "is_finite": _is_finite, "compare": _compare,
    "clamp": _clamp, "select": _select, "convert": _convert, "bitcast_convert": _bitcast,
    "broadcast_in_dim": _broadcast, "reverse": _reverse, "slice": _slice,
    "dynamic_slice": _dynamic_slice, "dynamic_update_slice": _dynamic_update_slice, "pad": _pad,
    "reshape": _reshape, "transpose": _transpose, "reduce": _reduce,
    "argmax": lambda g: _argminmax(g, "argmax"), "argmin": lambda g: _argminmax(g, "argmin"),
    "reduce_window": _reduce_window, "convolution": _convolution, "dot_general": _dot_general,
    "gather": _gather, "scatter": _scatter, "sort": lambda g: _sort(g, "sort"),
    "argsort": lambda g: _sort(g, "argsort"),
    # One process: the collectives are the identity, compiled and in the reference alike.
    "all_reduce": lambda g: g.add(hlo.all_reduce(g.value("number"), g.d(st.sampled_from(["add", "mul", "max", "min"])))),
    "all_gather": lambda g: g.add(hlo.all_gather(g.value("number", rank_min=1), 0, 1)),
    "reduce_scatter": lambda g: g.add(hlo.reduce_scatter(g.value("number", rank_min=1), 0, "add", 1)),
    "collective_broadcast": lambda g: g.add(hlo.collective_broadcast(g.value("number"))),
}
for _op, _def in OPS.items():
    if _def.family in ("elementwise-unary", "elementwise-binary"):
        APPLIERS[_op] = (lambda op: lambda g: _elementwise(g, op))(_op)
assert set(APPLIERS) == set(OPS), set(OPS) ^ set(APPLIERS)


# ---------------------------------------------------------------------- control flow

def _step(g: _Gen, choices, depth: int = 0) -> None:
    """Draws one op of `choices` (control flow only below MAX_DEPTH) at the insertion point."""
    op = g.d(st.sampled_from(choices))
    if op in CONTROL_FLOW and depth >= MAX_DEPTH:
        return
    try:
        if op in CONTROL_FLOW:
            CONTROL_APPLIERS[op](g, choices, depth)
        else:
            APPLIERS[op](g)
    except HloTypeError:
        return  # an attribute draw the rule refuses: skip that op
    g.ops.append(op)


def _region(g: _Gen, block, types, choices, depth: int, visible=(), fixed=()) -> None:
    """Fills `block` with 0-3 drawn ops over the pool plus `visible`, then yields `fixed` and
    one pool value of each of `types`; the pool and the sinks are as before afterwards."""
    pool, outputs = list(g.pool), list(g.outputs)
    g.pool += list(visible)
    with ir.InsertionPoint(block):
        for _ in range(g.d(st.integers(0, 3))):
            _step(g, choices, depth + 1)
        drawn = [g.d(st.sampled_from([v for v in g.pool if v.type == t])) for t in types]
        scf.YieldOp(list(fixed) + drawn)
    g.pool, g.outputs = pool, outputs


def _carried(g: _Gen) -> list:
    """1-2 pool values (new arguments, added to the pool, when the pool is short) a region op
    yields or carries: each region finds at least that value of the type it must yield."""
    values = [g.value(fresh_p=0.2) for _ in range(g.d(st.integers(1, 2)))]
    g.pool += [v for v in values if v not in g.pool]
    return values


def _scalar(value):
    return tensor.extract(value, [])


def _if(g: _Gen, choices, depth: int):
    pred = _scalar(g.value(shape=[], name="i1", fresh_p=0.5))
    types = [v.type for v in _carried(g)]
    branch = scf.IfOp(pred, types, has_else=True)
    for block in (branch.then_block, branch.else_block):
        _region(g, block, types, choices, depth)
    for r in branch.results:
        g.add(r)


def _index_switch(g: _Gen, choices, depth: int):
    selector = arith.index_cast(ir.IndexType.get(), _scalar(g.arg([], g.d(st.sampled_from(["i32", "i64"])), "index")))
    cases = sorted(g.d(st.sets(st.integers(-1, 4), min_size=0, max_size=3)))
    types = [v.type for v in _carried(g)]
    switch = scf.IndexSwitchOp(types, selector, cases)
    for block in [switch.default_block] + [switch.case_block(i) for i in range(len(cases))]:
        _region(g, block, types, choices, depth)
    for r in switch.results:
        g.add(r)


def _while(g: _Gen, choices, depth: int):
    """for (i = 0; i < n; i++) carried = body(carried), as lax.fori_loop traces it."""
    i32 = ir.Type.parse("i32")
    zero, one, n = (hlo.constant(np.array(k, np.int32), i32) for k in (0, 1, g.d(st.integers(0, 3))))
    inits = [zero] + _carried(g)
    types = [v.type for v in inits]
    loop = scf.WhileOp(types, inits)
    before = loop.before.blocks.append(*types)
    with ir.InsertionPoint(before):
        scf.ConditionOp(_scalar(hlo.compare(before.arguments[0], n, "LT")), list(before.arguments))
    after = loop.after.blocks.append(*types)
    with ir.InsertionPoint(after):
        count = hlo.add(after.arguments[0], one)
    _region(g, after, types[1:], choices, depth, visible=list(after.arguments)[1:], fixed=[count])
    for r in list(loop.results)[1:]:
        g.add(r)


CONTROL_APPLIERS = {"scf.if": _if, "scf.index_switch": _index_switch, "scf.while": _while}


class GeneratorRejected(Exception):
    """The generator drew an op its shape rule refused (a generator limitation, not a bug)."""


@st.composite
def hlo_programs(draw, ops=ALL_OPS, max_ops=6, max_outputs=3, control_flow=True):
    """A `Program`: a random well-typed @main over the ops `ops` (and CONTROL_FLOW's
    regions when control_flow), with inputs drawn for it."""
    g = _Gen(draw)
    ctx = make_context()
    with ctx, ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            fn = func.FuncOp("main", ir.FunctionType.get([], []))
        g.block = fn.add_entry_block()
        with ir.InsertionPoint(g.block):
            choices = tuple(ops) + (CONTROL_FLOW if control_flow else ())
            for _ in range(draw(st.integers(1, max_ops))):
                _step(g, choices)
            outs = g.outputs[:max_outputs]
            if g.pool and (not outs or draw(st.booleans())):
                outs.append((g.pool[-1], "exact"))
            if not outs:
                outs = [(g.value(), "exact")]
            values = [v for v, _ in outs]
            func.ReturnOp(values)
        fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
            [a[0].type for a in g.args], [v.type for v in values]))
        tolerance = []
        for v, tol in outs:
            if tol != "exact" or not D.is_float(_name(v)):
                tolerance.append(tol)
            else:
                tolerance.append("float")
        text = str(module)
    inputs = [_array(draw, name, shape, role) for _, name, shape, role in g.args]
    return Program(text, inputs, g.ops, tolerance, g.terms)
