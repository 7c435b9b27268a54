"""`numpy_programs()`: random user-level programs on `mlc.numpy`, run under `mlc.jit` and
checked against numpy eager.

A program is 1-3 steps over one or two input arrays (every dtype MLC takes, rank 0-3,
zero-size axes included): elementwise binary ops with another array or a Python scalar
(int, float, bool), unary functions, reductions (axis None / int / tuple, keepdims), shape
functions and strided, reversed and empty slices. The jitted function returns every step's
value; each step is checked *on its own*: numpy applies the step to the value MLC computed
for the previous step, so an inexact float never reaches a discontinuous step.

Oracle (MLC documents JAX's semantics, docs/frontend.md): the result dtype must be the one
`mlc.numpy.result_type` gives for elementwise ops (bool for comparisons, float32 for float
functions of integers, the operand's dtype for data movement), and so must its weak flag;
the previous step's value enters the promotion as weak if MLC reported it weak (i32 + 1.0
is a weak f32: adding an f16 array then gives f16, as in JAX); values are numpy's computed
in the dtype MLC reports (operands cast to it first, so integer overflow wraps as in JAX).
Tolerances as in compare.py: exact for integers, bools and data movement; 4 ulp for
+ - * and remainder; "transcendental" bounds for exp, log, sin, tanh, sqrt; sums and means
within 2 * eps * n * sum(|x|).

Exclusions: negative and sign of bool (numpy and JAX refuse them); integer floor_divide /
remainder by zero and INT_MIN // -1 (numpy returns 0 with a warning, XLA -1: divisors are
Python ints 1..7); float floor_divide (numpy's exact divmod and floor(x / y) legitimately
differ by one); astype from float to integer (numpy leaves out-of-range and NaN undefined);
max / min / argmax / argmin over an empty axis (both raise; more generally a program that
mlc.jit refuses is a finding only when numpy accepts it); Python int scalars outside the
array dtype's range (JAX refuses them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from . import dtypes as D
from .compare import TRANSCENDENTAL_RTOL

DTYPES = [D.NUMPY[n] for n in D.ALL]
BINARY_ARITH = ("add", "subtract", "multiply", "maximum", "minimum")
BINARY_BITS = ("bitwise_and", "bitwise_or", "bitwise_xor")
BINARY_CMP = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
UNARY_SAME = ("negative", "abs", "square", "sign")
UNARY_FLOAT_EXACT = ("floor", "ceil", "sqrt")
UNARY_TRANS = ("exp", "log", "sin", "tanh", "expm1", "log1p")
UNARY_BOOL = ("isnan", "isfinite", "logical_not")
REDUCTIONS = ("sum", "prod", "max", "min", "mean", "argmax", "argmin", "any", "all")


@dataclass
class Step:
    kind: str
    op: str
    params: dict

    def __repr__(self):
        return f"{self.op}({', '.join(f'{k}={v!r}' for k, v in self.params.items())})"


@dataclass
class NumpyProgram:
    inputs: list
    steps: list

    def source(self) -> str:
        """Python source of the jitted function (the reproducer)."""
        lines = ["def f(x, y):" if len(self.inputs) > 1 else "def f(x):", "    v0 = x"]
        for i, s in enumerate(self.steps):
            lines.append(f"    v{i + 1} = {_expr(s, f'v{i}')}")
        lines.append(f"    return ({', '.join(f'v{i + 1}' for i in range(len(self.steps)))},)")
        return "\n".join(lines)


def _expr(s: Step, v: str) -> str:
    p = s.params
    other = "y" if p.get("other") == "input" else repr(p.get("other"))
    if s.kind in ("binary", "bits", "cmp"):
        return f"mnp.{s.op}({v}, {other})" if not p.get("swap") else f"mnp.{s.op}({other}, {v})"
    if s.kind in ("unary", "unary_float", "trans", "unary_bool"):
        return f"mnp.{s.op}({v})"
    if s.kind == "mod":
        return f"mnp.remainder({v}, {p['other']!r})"
    if s.kind == "reduce":
        return f"mnp.{s.op}({v}, axis={p['axis']!r}" + (f", keepdims={p['keepdims']})" if s.op not in ("argmax", "argmin") else ")")
    if s.kind == "slice":
        return f"{v}[{', '.join(_slice_text(sl) for sl in p['slices'])}]" if p["slices"] else f"{v}[...]"
    if s.kind == "shape":
        args = "".join(f", {a!r}" for a in p["args"])
        return f"mnp.{s.op}({v}{args})"
    if s.kind == "concat":
        return f"mnp.{s.op}([{v}, {v}], axis={p['axis']})"
    if s.kind == "clip":
        return f"mnp.clip({v}, {p['lo']!r}, {p['hi']!r})"
    if s.kind == "where":
        return f"mnp.where({v} > {p['t']!r}, {v}, {p['other']!r})"
    if s.kind == "astype":
        return f"{v}.astype(mnp.{p['dtype']})"
    raise AssertionError(s.kind)


def _slice_text(sl):
    if isinstance(sl, int):
        return str(sl)
    a, b, c = sl
    return f"{'' if a is None else a}:{'' if b is None else b}:{'' if c is None else c}"


def _apply(mod, s: Step, v, y):
    """The step on value v with module `mod` (mlc.numpy or numpy); y is the second input."""
    p = s.params
    other = y if p.get("other") == "input" else p.get("other")
    if s.kind in ("binary", "bits", "cmp"):
        f = getattr(mod, s.op)
        return f(other, v) if p.get("swap") else f(v, other)
    if s.kind in ("unary", "unary_float", "trans", "unary_bool"):
        return getattr(mod, s.op)(v)
    if s.kind == "mod":
        return mod.remainder(v, p["other"])
    if s.kind == "reduce":
        kw = {} if s.op in ("argmax", "argmin") else {"keepdims": p["keepdims"]}
        return getattr(mod, s.op)(v, axis=p["axis"], **kw)
    if s.kind == "slice":
        return v[tuple(sl if isinstance(sl, int) else slice(*sl) for sl in p["slices"])]
    if s.kind == "shape":
        return getattr(mod, s.op)(v, *p["args"])
    if s.kind == "concat":
        return getattr(mod, s.op)([v, v], axis=p["axis"])
    if s.kind == "clip":
        return mod.clip(v, p["lo"], p["hi"])
    if s.kind == "where":
        return mod.where(v > p["t"], v, p["other"])
    if s.kind == "astype":
        return v.astype(getattr(mod, p["dtype"]))
    raise AssertionError(s.kind)


def _values(dt):
    name = D.NUMPY_NAME[dt] if hasattr(D, "NUMPY_NAME") else {v: k for k, v in D.NUMPY.items()}[dt]
    from .hlo_programs import _elements
    return _elements(name)


def _scalar(draw, dt, kind):
    """A Python scalar that fits dtype dt (JAX refuses out-of-range Python ints)."""
    if dt == np.bool_ and kind == "bits":
        return draw(st.booleans())
    if dt.kind == "u":
        return draw(st.one_of(st.integers(0, 7), st.booleans()))
    if dt.kind in "ib":
        return draw(st.one_of(st.integers(-3, 7), st.booleans()))
    return draw(st.one_of(st.integers(-3, 7), st.sampled_from([0.5, -1.5, 2.0, 0.0, -0.0, float("inf"), float("nan")])))


def _step(draw, v_shape, v_dtype, y):
    dt = np.dtype(v_dtype)
    rank = len(v_shape)
    kinds = ["binary", "cmp", "unary", "trans", "unary_bool", "reduce", "slice", "shape", "concat", "clip", "where", "astype"]
    if dt.kind in "iub":
        kinds.append("bits")
    if dt.kind in "iuf":
        kinds.append("mod")
    if dt.kind == "f":
        kinds.append("unary_float")
    kind = draw(st.sampled_from(kinds))
    use_y = y is not None and draw(st.booleans())
    if kind in ("binary", "cmp", "bits"):
        if use_y and (kind != "bits" or np.dtype(y.dtype).kind in "iub"):
            other = "input"
        else:
            other = _scalar(draw, dt, kind)
        ops = {"binary": BINARY_ARITH, "cmp": BINARY_CMP, "bits": BINARY_BITS}[kind]
        op = draw(st.sampled_from(ops))
        if dt == np.bool_ and op == "subtract":
            op = "add"
        return Step(kind, op, {"other": other, "swap": draw(st.booleans())})
    if kind == "unary":
        if dt == np.bool_:  # negative and sign refuse bool (as numpy and JAX do)
            op = draw(st.sampled_from(("logical_not", "abs", "square")))
            return Step("unary_bool", op, {}) if op == "logical_not" else Step(kind, op, {})
        op = draw(st.sampled_from(UNARY_SAME))
        if dt.kind == "u" and op == "negative":
            op = "abs"
        return Step(kind, op, {})
    if kind == "unary_float":
        return Step(kind, draw(st.sampled_from(UNARY_FLOAT_EXACT)), {})
    if kind == "trans":
        return Step(kind, draw(st.sampled_from(UNARY_TRANS)), {})
    if kind == "unary_bool":
        ops = UNARY_BOOL if dt.kind == "f" else ("logical_not",)
        return Step(kind, draw(st.sampled_from(ops)), {})
    if kind == "mod":
        d = draw(st.integers(1, 7)) if dt.kind in "iu" else draw(st.sampled_from([1.5, -2.0, 0.25, 3.0]))
        return Step(kind, "remainder", {"other": d})
    if kind == "reduce":
        op = draw(st.sampled_from(REDUCTIONS))
        if op in ("argmax", "argmin"):
            axis = draw(st.sampled_from([None] + list(range(rank))))
        elif rank and draw(st.booleans()):
            axis = tuple(sorted(draw(st.sets(st.integers(0, rank - 1), min_size=1))))
            if len(axis) == 1 and draw(st.booleans()):
                axis = axis[0] - rank if draw(st.booleans()) else axis[0]
        else:
            axis = None
        axes = range(rank) if axis is None else ([axis] if isinstance(axis, int) else axis)
        if op in ("max", "min", "argmax", "argmin") and any(v_shape[a] == 0 for a in axes):
            op = "sum"
            if axis is None and rank == 0:
                pass
        if op in ("argmax", "argmin") and rank == 0:
            op = "sum"
        return Step(kind, op, {"axis": axis, "keepdims": draw(st.booleans())})
    if kind == "slice":
        slices = []
        for n in v_shape[:draw(st.integers(0, rank))]:
            if n and draw(st.integers(0, 4)) == 0:
                slices.append(draw(st.integers(-n, n - 1)))
                continue
            step = draw(st.sampled_from([None, 1, 2, 3, -1, -2]))
            a = draw(st.one_of(st.none(), st.integers(-n - 2, n + 2)))
            b = draw(st.one_of(st.none(), st.integers(-n - 2, n + 2)))
            slices.append((a, b, step))
        return Step(kind, "getitem", {"slices": slices})
    if kind == "shape":
        choices = ["transpose", "flip", "expand_dims", "ravel", "reshape", "broadcast_to", "tile", "repeat", "squeeze"]
        op = draw(st.sampled_from(choices))
        if op == "transpose":
            args = [tuple(draw(st.permutations(range(rank))))]
        elif op == "flip":
            args = [draw(st.sampled_from([None] + list(range(rank))))]
        elif op == "expand_dims":
            args = [draw(st.integers(-rank - 1, rank))]
        elif op == "ravel":
            args = []
        elif op == "reshape":
            args = [(-1,) if draw(st.booleans()) or 0 in v_shape else tuple(reversed(v_shape))]
        elif op == "broadcast_to":
            args = [(draw(st.sampled_from([0, 1, 2, 3])),) + tuple(v_shape)]
        elif op == "tile":
            args = [tuple(draw(st.integers(0, 2)) for _ in range(draw(st.integers(1, 3))))]
        elif op == "repeat":
            args = [draw(st.integers(0, 2)), draw(st.sampled_from([None] + list(range(rank))))]
        else:
            ones = [i for i, n in enumerate(v_shape) if n == 1]
            args = [draw(st.sampled_from(ones))] if ones else []
        return Step(kind, op, {"args": args})
    if kind == "concat":
        if rank == 0:
            return Step("concat", "stack", {"axis": 0})
        op = draw(st.sampled_from(["concatenate", "stack"]))
        return Step(kind, op, {"axis": draw(st.integers(0, rank - (op == "concatenate")))})
    if kind == "clip":
        lo = _scalar(draw, dt, "clip") if dt != np.bool_ else 0
        hi = _scalar(draw, dt, "clip") if dt != np.bool_ else 1
        if isinstance(lo, float) and (lo != lo) or isinstance(hi, float) and (hi != hi):
            lo, hi = 0, 1
        if dt == np.bool_:
            return Step("unary_bool", "logical_not", {})
        return Step(kind, "clip", {"lo": lo, "hi": hi})
    if kind == "where":
        return Step(kind, "where", {"t": 0 if dt != np.bool_ else False, "other": _scalar(draw, dt, "where")})
    target = draw(st.sampled_from(["bool_", "int8", "int32", "int64", "uint8", "uint32", "float16", "float32", "float64"]))
    if dt.kind == "f" and target not in ("float16", "float32", "float64"):
        target = "float32"  # excluded: float -> integer astype of out-of-range values
    return Step("astype", "astype", {"dtype": target})


@st.composite
def numpy_programs(draw, max_steps=3):
    dt = draw(st.sampled_from(DTYPES))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    x = draw(hnp.arrays(dt, shape, elements=_values(dt), fill=st.nothing()))
    y = None
    if draw(st.booleans()):
        ydt = draw(st.sampled_from(DTYPES))
        yshape = shape[draw(st.integers(0, len(shape))):] if draw(st.booleans()) else shape
        y = draw(hnp.arrays(ydt, yshape, elements=_values(ydt), fill=st.nothing()))
    steps, v_shape, v_dtype = [], shape, dt
    for _ in range(draw(st.integers(1, max_steps))):
        s = _step(draw, v_shape, v_dtype, y)
        try:
            with np.errstate(all="ignore"):
                out = np.asarray(_apply(np, s, np.zeros(v_shape, v_dtype), y))
        except Exception:
            break  # numpy refuses it (a shape error): stop the chain here
        steps.append(s)
        v_shape, v_dtype = out.shape, out.dtype  # shape only: dtypes come from MLC's rules
        if s.kind == "cmp" or s.kind == "unary_bool":
            v_dtype = np.dtype(np.bool_)
    if not steps:
        steps = [Step("unary_bool", "logical_not", {})]
    return NumpyProgram([x] if y is None else [x, y], steps)


# ------------------------------------------------------------------------ the check

def _promoted(v, v_weak: bool, other) -> tuple[np.dtype, bool]:
    """(dtype, weak) of combining the previous step's value (weak as MLC reported it: e.g.
    i32 + 1.0 is a weak f32, which then takes an f16 array's dtype) with `other`."""
    from mlc.frontend.core import DEFAULT_FLOAT, DEFAULT_INT, _dtype_and_weak
    from mlc.frontend.promotion import join
    return join([(v.dtype, v_weak), _dtype_and_weak(other)], DEFAULT_INT, DEFAULT_FLOAT)


def _expected_dtype(s: Step, v, y, v_weak: bool = False):
    """(dtype, weak) the step must give, weak None where it is not checked; None if the
    dtype is not checked either."""
    other = y if s.params.get("other") == "input" else s.params.get("other")
    if s.kind in ("binary", "bits", "mod"):
        return _promoted(v, v_weak, other)
    if s.kind in ("cmp", "unary_bool"):
        return np.dtype(np.bool_), None
    if s.kind in ("trans",):
        return (v.dtype if v.dtype.kind == "f" else np.dtype(np.float32)), None
    if s.kind == "unary" and s.op == "square" and v.dtype == np.bool_:
        return np.dtype(np.int32), None  # JAX squares bools as the default int (numpy: int8)
    if s.kind in ("unary", "unary_float", "slice", "shape", "concat"):
        return v.dtype, None
    if s.kind == "astype":
        return np.dtype(s.params["dtype"]), None
    return None  # reductions, clip, where: numpy is run in the dtype MLC reports


def check_numpy_program(program: NumpyProgram):
    import mlc
    import mlc.numpy as mnp
    from .compare import compare

    inputs = program.inputs
    y = inputs[1] if len(inputs) > 1 else None

    def f(*args):
        v, yy = args[0], (args[1] if len(args) > 1 else None)
        outs = []
        for s in program.steps:
            v = _apply(mnp, s, v, yy)
            outs.append(v)
        return tuple(outs)

    try:
        lowered = mlc.jit(f).lower(*inputs)
        got = lowered.compile()(*inputs)
    except Exception as exc:
        try:  # numpy refuses it too (e.g. max of an empty axis): not a finding
            v = inputs[0]
            with np.errstate(all="ignore"):
                for s in program.steps:
                    v = _apply(np, s, np.asarray(v), y)
        except Exception:
            return None
        return "jit-error", f"{type(exc).__name__}: {str(exc)[:400]}"
    prev, prev_weak = inputs[0], False
    for i, (s, out, weak) in enumerate(zip(program.steps, got, lowered.out_weak)):
        out = np.asarray(out)
        want = _expected_dtype(s, np.asarray(prev), y, prev_weak)
        if want is not None and out.dtype != want[0]:
            return "dtype", f"step {i} {s}: dtype {out.dtype}, expected {want[0]}"
        if want is not None and want[1] is not None and weak != want[1]:
            return "dtype", f"step {i} {s}: weak {weak}, expected {want[1]} ({out.dtype})"
        dt = out.dtype
        with np.errstate(all="ignore"):
            if s.kind in ("binary", "bits", "mod"):
                other = y if s.params.get("other") == "input" else s.params.get("other")
                o = np.asarray(other).astype(dt)
                pv = np.asarray(prev).astype(dt)
                fn = getattr(np, s.op)
                want = fn(o, pv) if s.params.get("swap") else fn(pv, o)
            elif s.kind == "cmp":
                other = y if s.params.get("other") == "input" else s.params.get("other")
                cdt = _promoted(np.asarray(prev), prev_weak, other)[0]
                pv, o = np.asarray(prev).astype(cdt), np.asarray(other).astype(cdt)
                fn = getattr(np, s.op)
                want = fn(o, pv) if s.params.get("swap") else fn(pv, o)
            elif s.kind in ("trans", "unary_float"):
                want = getattr(np, s.op)(np.asarray(prev).astype(dt))
            elif s.kind == "reduce" and s.op in ("sum", "prod", "mean"):
                want = getattr(np, s.op)(np.asarray(prev), axis=s.params["axis"], keepdims=s.params["keepdims"], dtype=dt)
            elif s.kind == "reduce":
                want = np.asarray(_apply(np, s, np.asarray(prev), y)).astype(dt)
            elif s.kind in ("clip", "where"):
                want = _apply(np, s, np.asarray(prev).astype(dt), y)
            else:
                want = _apply(np, s, np.asarray(prev), y)
        want = np.asarray(want)
        if want.dtype != dt:
            want = want.astype(dt)
        tol, mags, bounds, terms = ["exact"], None, None, 1
        if dt.kind == "f":
            if s.kind == "trans":
                tol = ["transcendental"]
            elif s.kind == "reduce" and s.op in ("sum", "prod", "mean"):
                tol = ["sum"]
                a = np.abs(np.asarray(prev).astype(np.float64))
                fn = {"sum": np.sum, "prod": np.prod, "mean": np.mean}[s.op]
                where = dict(axis=s.params["axis"], keepdims=s.params["keepdims"])
                mags = [np.asarray(fn(a, **where))]
                # A product's partial products in any order are bounded by prod(max(|x|, 1)).
                bounds = [np.asarray(np.prod(np.maximum(a, 1), **where))] if s.op == "prod" else mags
                terms = max(int(np.asarray(prev).size), 1) + 1
            else:
                tol = ["float"]
        diff = compare([out], [want], tol, mags, terms, bounds)
        if diff is not None:
            return "mismatch", f"step {i} {s}: {diff}"
        prev, prev_weak = out, weak
    return None


def reproducer(program: NumpyProgram) -> str:
    return ("import numpy as np, mlc, mlc.numpy as mnp\n" + program.source() + "\n"
            "# inputs: see inputs.npz (x, y)\n")


__all__ = ["numpy_programs", "check_numpy_program", "NumpyProgram", "TRANSCENDENTAL_RTOL"]
