"""Pass `hlo-fold`: constant folding. An hlo op whose operands are all constants becomes
an hlo.constant, computed with numpy under StableHLO's (and XLA's) semantics.

`size-limit` (default 1M elements) bounds the result size of a fold, so folding never
blows up a module (a broadcast of a scalar to a huge tensor stays a broadcast).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from mlir import ir

from ..dialects import hlo
from ..dialects.hlo.verify import signature_of
from ..dtypes import NUMPY_TO_MLIR, numpy_dtype
from .hlo_dce import dead_code_elimination
from .patterns import constant_array
from .hlo_verify import HloGraphPass

Evaluator = Callable[..., np.ndarray]
EVALUATORS: dict[str, Evaluator] = {}


def evaluates(*names: str):
    def register(fn):
        for name in names:
            EVALUATORS[name] = fn
        return fn
    return register


def _int_info(x):
    return np.iinfo(x.dtype)


@evaluates("add")
def _add(a, x, y, out):
    return x | y if x.dtype == np.bool_ else x + y


@evaluates("subtract")
def _subtract(a, x, y, out):
    return x - y


@evaluates("multiply")
def _multiply(a, x, y, out):
    return x & y if x.dtype == np.bool_ else x * y


@evaluates("atan2")
def _atan2(a, x, y, out):
    """atan2(y, x) as C's: atan2(+-0, +-0) is +-0 or +-pi. (Folded here, before the upstream
    math.atan2 folder, which answers NaN for two zeros, can see constants.)"""
    return np.arctan2(x, y)


@evaluates("divide")
def _divide(a, x, y, out):
    if x.dtype.kind == "f":
        return x / y
    safe = np.where(y == 0, 1, y)
    if x.dtype.kind == "u":
        return np.where(y == 0, _int_info(x).max, x // safe)
    q = np.trunc(x.astype(np.float64) / safe).astype(x.dtype) if x.dtype.itemsize < 8 else \
        np.sign(x) * np.sign(safe) * (np.abs(x) // np.abs(safe))
    overflow = (x == _int_info(x).min) & (y == -1)
    return np.where(y == 0, -1, np.where(overflow, x, q))


@evaluates("remainder")
def _remainder(a, x, y, out):
    if x.dtype.kind == "f":
        return np.fmod(x, y)
    safe = np.where((y == 0) | (y == -1), 1, y)
    return np.where(y == 0, x, np.fmod(x, safe))


@evaluates("maximum")
def _maximum(a, x, y, out):
    return np.maximum(x, y)


@evaluates("minimum")
def _minimum(a, x, y, out):
    return np.minimum(x, y)


@evaluates("and")
def _and(a, x, y, out):
    return x & y


@evaluates("or")
def _or(a, x, y, out):
    return x | y


@evaluates("xor")
def _xor(a, x, y, out):
    return x ^ y


_UNARY = {"negate": np.negative, "abs": np.abs, "exponential": np.exp, "log": np.log, "tanh": np.tanh,
          "sqrt": np.sqrt, "sine": np.sin, "cosine": np.cos, "floor": np.floor, "ceil": np.ceil,
          "round_nearest_even": np.rint, "not": np.invert, "exponential_minus_one": np.expm1,
          "log_plus_one": np.log1p, "cbrt": np.cbrt, "tan": np.tan, "is_finite": np.isfinite}
for _name, _fn in _UNARY.items():
    evaluates(_name)(lambda a, x, out, _fn=_fn: _fn(x))


@evaluates("rsqrt")
def _rsqrt(a, x, out):
    return 1 / np.sqrt(x)


@evaluates("logistic")
def _logistic(a, x, out):
    return 1 / (1 + np.exp(-x))


@evaluates("sign")
def _sign(a, x, out):
    return np.where(x > 0, 1, np.where(x < 0, -1, x)).astype(x.dtype)


_COMPARE = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
            "GT": np.greater, "GE": np.greater_equal}


@evaluates("compare")
def _compare(a, x, y, out):
    kind = a.get("compare_type")
    if kind == "TOTALORDER":
        return None  # rare in practice; left to run time
    if kind == "UNSIGNED" and x.dtype.kind == "i":
        x, y = x.view(f"u{x.itemsize}"), y.view(f"u{y.itemsize}")
    if kind == "SIGNED" and x.dtype.kind == "u":
        x, y = x.view(f"i{x.itemsize}"), y.view(f"i{y.itemsize}")
    return _COMPARE[a["comparison_direction"]](x, y)


@evaluates("select")
def _select(a, p, x, y, out):
    return np.where(p, x, y)


@evaluates("clamp")
def _clamp(a, low, x, high, out):
    return np.minimum(np.maximum(x, low), high)


@evaluates("convert")
def _convert(a, x, out):
    if out.kind == "b":
        return x != 0
    if x.dtype.kind == "f" and out.kind in "iu":
        info = np.iinfo(out)
        wide = np.nan_to_num(x.astype(np.float64), nan=0.0, posinf=np.inf, neginf=-np.inf)
        big, small = wide >= float(info.max) + 1, wide < float(info.min)
        inside = np.where(big | small, 0, np.trunc(wide)).astype(out)
        return np.where(big, info.max, np.where(small, info.min, inside))
    return x.astype(out)


@evaluates("broadcast_in_dim")
def _broadcast(a, x, out, shape):
    dims = a["broadcast_dimensions"]
    order = np.argsort(dims)
    placed = np.transpose(x, order) if x.ndim else x
    expanded = [1] * len(shape)
    for i, d in enumerate(sorted(dims)):
        expanded[d] = placed.shape[i]
    return np.broadcast_to(placed.reshape(expanded), shape)


@evaluates("reshape")
def _reshape(a, x, out, shape):
    return x.reshape(shape)


@evaluates("transpose")
def _transpose(a, x, out):
    return np.transpose(x, a["permutation"])


@evaluates("reverse")
def _reverse(a, x, out):
    return np.flip(x, a["dimensions"]) if a["dimensions"] else x


@evaluates("slice")
def _slice(a, x, out):
    return x[tuple(slice(s, l, t) for s, l, t in zip(a["start_indices"], a["limit_indices"], a["strides"]))]


_REDUCE = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum,
           "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


@evaluates("reduce")
def _reduce(a, x, init, out):
    ufunc = _REDUCE[a["kind"]]
    if x.dtype == np.bool_ and a["kind"] in ("add", "mul", "max", "min"):
        ufunc = {"add": np.logical_or, "mul": np.logical_and, "max": np.logical_or,
                 "min": np.logical_and}[a["kind"]]
    dims = tuple(a["dimensions"])
    reduced = ufunc.reduce(x, axis=dims, initial=init[()]) if x.size else np.full(
        [s for d, s in enumerate(x.shape) if d not in dims], init[()])
    return reduced


@evaluates("dot_general")
def _dot(a, x, y, out):
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    lx, ly = [None] * x.ndim, [None] * y.ndim
    batch = []
    for i, j in zip(a["lhs_batching_dimensions"], a["rhs_batching_dimensions"]):
        c = next(letters)
        lx[i] = ly[j] = c
        batch.append(c)
    for i, j in zip(a["lhs_contracting_dimensions"], a["rhs_contracting_dimensions"]):
        c = next(letters)
        lx[i] = ly[j] = c
    free = []
    for labels in (lx, ly):
        for k, c in enumerate(labels):
            if c is None:
                labels[k] = next(letters)
                free.append(labels[k])
    spec = f"{''.join(lx)},{''.join(ly)}->{''.join(batch + free)}"
    return np.einsum(spec, x.astype(out), y.astype(out))


def _has_numpy_types(op) -> bool:
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    return all(str(ir.RankedTensorType(t).element_type) in NUMPY_TO_MLIR.values() for t in types)


def _reads_only_constants(op) -> bool:
    for v in op.operands:
        if type(v) is ir.BlockArgument:  # (values come downcast: no owner to read)
            return False
        owner = v.owner
        if not isinstance(owner, ir.Operation | ir.OpView) or owner.name != "hlo.constant":
            return False
    return True


def fold_op(op, size_limit: int) -> bool:
    """Replaces `op` by a constant if it can be folded; returns whether it was."""
    name = op.name.removeprefix("hlo.")
    evaluator = EVALUATORS.get(name)
    # Cheapest test first: most ops of a real graph read a non-constant.
    if evaluator is None or not _reads_only_constants(op) or len(op.results) != 1 or not _has_numpy_types(op):
        return False
    result_type = ir.RankedTensorType(op.results[0].type)
    if np.prod(result_type.shape, dtype=np.int64) > size_limit:
        return False
    operands = [constant_array(v) for v in op.operands]
    if any(x is None for x in operands):
        return False
    out = numpy_dtype(result_type.element_type)
    extra = (tuple(result_type.shape),) if name in ("broadcast_in_dim", "reshape") else ()
    with np.errstate(all="ignore"):
        value = evaluator(signature_of(op).attributes, *operands, out, *extra)
    if value is None:
        return False
    value = np.ascontiguousarray(np.asarray(value).astype(out)).reshape(result_type.shape)
    with ir.InsertionPoint(op), op.location:
        folded = hlo.constant(value, result_type.element_type if out != np.bool_ else None)
    op.results[0].replace_all_uses_with(folded)
    op.erase()
    return True


def fold_constants(root: ir.Operation, size_limit: int) -> int:
    folded = 0
    for region in root.regions:
        for block in region.blocks:
            for op in [o.operation for o in block.operations]:
                if len(op.regions):
                    folded += fold_constants(op, size_limit)
                name = op.name
                if name.startswith("hlo.") and name != "hlo.constant":
                    folded += fold_op(op, size_limit)
    return folded


@dataclass(frozen=True)
class HloFold(HloGraphPass):
    """Folds hlo ops whose operands are all constants into constants (numpy, StableHLO rules).

    Expects and produces hlo with func/scf/tensor; constants left unused are erased. Option: size-limit, the largest result
    (in elements) a fold may create (default 1000000).
    """

    name = "hlo-fold"
    size_limit: int = 1_000_000

    def __post_init__(self):
        if self.size_limit < 0:
            raise ValueError(f"option size-limit must be >= 0, got {self.size_limit}")

    def run(self, module: ir.Operation) -> None:
        self.check_input(module)
        if fold_constants(module, self.size_limit):
            dead_code_elimination(module)  # the folded ops' constant operands, now unused
