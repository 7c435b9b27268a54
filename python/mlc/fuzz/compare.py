"""Running a program compiled and in the reference interpreter, and comparing the results.

`check_hlo(text, inputs, tolerance, terms)` compiles `text` twice (`opt_level=0,
fusion=False` and the defaults), runs both and `mlc.reference.run` on the same inputs, and
returns None or a one-line description of the first disagreement.

Tolerances, per output (the tolerance class comes from the generator, hlo_programs.py):
- integers and bools: exact, same dtype, same shape.
- "float" (floats computed by exactly rounded ops only: + - * /, sqrt, min/max, rounding,
  data movement, conversions...): |a - e| <= 4 ulp (4 * eps * |e|), subnormals with an
  absolute floor of 4 * the smallest subnormal.
- "transcendental" (exp, log, tanh, logistic, sin, cos, tan, cbrt, rsqrt, atan2, power):
  relative 4e-3 (f16), 2e-5 (f32), 1e-12 (f64), with an absolute floor of the same size
  (sin(x) near a multiple of pi, exp underflowing...); an infinity may meet a value
  within that relative bound of the largest finite one (exp near overflow).
- "sum" (float reduce / reduce_window add or mul, dot_general, convolution, scatter add/mul):
  |a - e| <= 2 * eps * terms * M, M = the same op on |operands| (sum(|x|), the reference
  interpreter run again with those operands made absolute), `terms` the most terms any sum
  of the program adds. Where B overflows (> max / 4 of the result type, B = M but with
  products of max(|x|, 1), a bound on every partial product in any order) the element is
  not checked: the order of the terms decides inf or NaN (f16 0 * -65504 * 2.5 is -0.0
  from the left, NaN from the right). Nor where a partial product can be subnormal in some
  order (0 < L < the smallest normal, L = the products of min(|x|, 1)): there it keeps
  fewer bits, so two orders differ by more than the bound (fuzz run 28: f64 -1 * -1.44 *
  2.2e-308 * 4.2e-3 * ...). Elsewhere, where M is NaN both must be NaN.
- everywhere: NaN positions must match exactly, and an infinity must meet the same
  infinity (except as stated above). The sign of zero is not checked.
"""

from __future__ import annotations

import numpy as np

from .. import compile as mlc_compile
from ..reference import interpreter as ref_interp
from ..reference.registry import is_float_dtype

LEVELS = (("O0", dict(opt_level=0, fusion=False)), ("O2", dict()))
TRANSCENDENTAL_RTOL = {np.dtype(np.float16): 4e-3, np.dtype(np.float32): 2e-5,
                       np.dtype(np.float64): 1e-12}
_SUM_OPS = {"hlo.dot_general", "hlo.convolution"}
_SUM_KINDS = {"hlo.reduce", "hlo.reduce_window", "hlo.scatter"}


def as_list(result) -> list:
    return list(result) if isinstance(result, tuple) else [result]


class _MagnitudeInterpreter(ref_interp.Interpreter):
    """The reference, but float sums and products take |operands|: gives sum(|x|) per element.
    product_bound "ceiling": products take max(|x|, 1) instead, which bounds every partial
    product from above; "floor": min(|x|, 1), from below."""

    def __init__(self, module, product_bound: str | None = None):
        super().__init__(module)
        self.product_bound = product_bound

    def evaluate(self, op, operands, frame):
        name = op.name
        summing, product = name in _SUM_OPS, False
        if name in _SUM_KINDS:
            from mlir import ir
            kind = ir.StringAttr(op.attributes["kind"]).value
            summing, product = kind in ("add", "mul"), kind == "mul"
        if summing:
            bound = self.product_bound if product else None
            clamp = {"ceiling": np.maximum, "floor": np.minimum}.get(bound)
            operands = [(clamp(np.abs(v), np.ones((), np.asarray(v).dtype)) if clamp else np.abs(v))
                        if is_float_dtype(np.asarray(v).dtype) else v for v in operands]
        return super().evaluate(op, operands, frame)


def magnitudes(text: str, inputs, product_bound: str | None = None) -> list:
    module = ref_interp.parse_and_verify(text)
    with module.context, np.errstate(all="ignore"):
        interpreter = _MagnitudeInterpreter(module, product_bound)
        return as_list(tuple(interpreter.call("main", [np.array(a) for a in inputs])))


def _float_mismatch(a, e, cls, mag, terms, bound):
    dt = e.dtype
    info = np.finfo(dt)
    a64, e64 = a.astype(np.float64), e.astype(np.float64)
    bad = np.isnan(a64) != np.isnan(e64)
    both = ~np.isnan(a64) & ~np.isnan(e64)
    if cls == "float":
        tol = 4 * float(info.eps) * np.abs(e64) + 4 * float(info.smallest_subnormal)
        big = np.zeros_like(bad)
    elif cls == "transcendental":
        rtol = TRANSCENDENTAL_RTOL[np.dtype(dt)]
        tol = rtol * np.abs(e64) + rtol
        big = (np.abs(a64) >= float(info.max) * (1 - rtol)) & (np.abs(e64) >= float(info.max) * (1 - rtol)) \
            & (np.sign(a64) == np.sign(e64))
    else:  # sum
        m = np.asarray(mag).astype(np.float64)
        b = np.asarray(mag if bound is None else bound).astype(np.float64)
        tol = 2 * float(info.eps) * terms * m + 4 * float(info.smallest_subnormal)
        skip = np.isinf(b) | (b > float(info.max) / 4)
        bad = np.where(np.isnan(m) & ~skip, np.isnan(a64) != np.isnan(e64), bad & ~skip)
        both = both & ~skip & ~np.isnan(m)
        big = np.zeros_like(bad)
    with np.errstate(all="ignore"):
        inf = both & (np.isinf(a64) | np.isinf(e64))
        bad_inf = inf & (a64 != e64) & ~big
        fin = both & ~inf
        bad_fin = fin & ~(np.abs(a64 - e64) <= tol)
    return bad | bad_inf | bad_fin


def compare(actual: list, expected: list, tolerance: list, mags: list | None = None, terms: int = 1,
            bounds: list | None = None):
    """None, or what differs first (output index, position, values). bounds: B per output
    (module docstring), default mags."""
    if len(actual) != len(expected):
        return f"{len(actual)} results, expected {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected)):
        a, e = np.asarray(a), np.asarray(e)
        if a.dtype != e.dtype or a.shape != e.shape:
            return f"result {i}: {a.dtype}{list(a.shape)}, expected {e.dtype}{list(e.shape)}"
        cls = tolerance[i] if i < len(tolerance) else "exact"
        if is_float_dtype(e.dtype):
            bad = _float_mismatch(a, e, "float" if cls == "exact" else cls,
                                  mags[i] if mags is not None else None, terms,
                                  bounds[i] if bounds is not None else None)
        else:
            bad = a != e
        if np.any(bad):
            where = tuple(int(k) for k in np.argwhere(bad)[0])
            n = int(np.count_nonzero(bad))
            return (f"result {i} ({cls}, {e.dtype}{list(e.shape)}): {n} elements differ, first at "
                    f"{list(where)}: got {a[where]!r}, expected {e[where]!r}")
    return None


def _unless_subnormal(bound, floor):
    """B, made inf (not checked) where a partial product can be subnormal (module docstring)."""
    b, f = np.asarray(bound), np.asarray(floor)
    if not is_float_dtype(f.dtype):
        return bound
    with np.errstate(all="ignore"):
        return np.where((f > 0) & (f < np.finfo(f.dtype).tiny), np.inf, b).astype(b.dtype)


def check_hlo(text: str, inputs, tolerance, terms: int = 1, levels=LEVELS):
    """None when every compiled level agrees with the reference; else (kind, message)."""
    try:
        expected = as_list(ref_interp.run(text, *inputs))
    except Exception as exc:  # the oracle refused a verified program: a finding too
        return "reference-error", f"reference: {type(exc).__name__}: {exc}"
    mags = bounds = None
    if "sum" in tolerance:
        mags = bounds = magnitudes(text, inputs)
        if 'kind = "mul"' in text:
            bounds = [_unless_subnormal(b, f) for b, f in zip(magnitudes(text, inputs, product_bound="ceiling"),
                                                              magnitudes(text, inputs, product_bound="floor"))]
    for level, kwargs in levels:
        try:
            fn = mlc_compile(text, **kwargs)
        except Exception as exc:
            return "compile-error", f"{level}: compile raised {type(exc).__name__}: {str(exc)[:400]}"
        try:
            actual = as_list(fn(*[np.array(a) for a in inputs]))
        except Exception as exc:
            return "run-error", f"{level}: run raised {type(exc).__name__}: {str(exc)[:400]}"
        diff = compare(actual, expected, tolerance, mags, terms, bounds)
        if diff is not None:
            return "mismatch", f"{level}: {diff}"
    return None
