"""Pass `mlc-math-approx`: exp, log, tanh, logistic and pow as polynomials in arith ops (f32,
and f16 computed in f32), scalar or vector.

LLVM has no vector exp/log/tanh on x86: `math.exp` on vector<16xf32> becomes sixteen
calls to libm's expf, and a call in a loop body also stops LLVM from vectorizing it. Like
XLA's CPU backend, MLC carries its own approximations, written as plain arith ops so they
vectorize with the loop around them.

Measured against numpy's float64 result rounded to f32, over every f32 exponent, every
1021st float of [-20, 20] and the special values (test/pytest/codegen/test_math_approx.py asserts
the bounds in the second column; the first is what an FMA host measures):

    exp       1 ulp / 1   x > 88.72 -> +inf, x < -103.97 -> 0 (subnormals kept), NaN -> NaN
    log       1 ulp / 1   x < 0 -> NaN, 0 -> -inf, +inf -> +inf, subnormals exact in range
    tanh      1 ulp / 2   saturates to +-1 (from |x| = 9.01, as rounding does), keeps -0.0, NaN
    logistic  2 ulp / 2   for results >= 2^-126; 0 for x < -87.68 (subnormal results below
                          x = -87.33 are approximate), 1 from x = 16.6, NaN -> NaN
    pow       1 ulp / 1   computed in f64 (log2 by the atanh series, 2^f by Taylor), rounded
                          once: over- and underflow and subnormal results round right;
                          C99's special cases (test_pow_f32_special_values)

Arithmetic instructions per 8 lanes in a vector loop (AVX2 + FMA, LLVM 22; constant loads
and register moves not counted): exp 18 (Cephes' form with roundeven and minimumf took 27),
tanh 27 (43), logistic 19 (28 as 1 / (1 + exp(-x))), one vdivps each. What makes them cheap:

- Clamps are compare + select with the limit first, which x86's min/max implement in one
  instruction that returns the other operand for NaN: NaN flows through every step, and no
  final NaN select is needed (arith.minimumf/maximumf add compares and blends for NaN).
- n = round(x / ln 2) is one FMA adding 1.5 * 2^23, which also leaves n in the low
  mantissa bits: 2^n is a shift of those bits, with no roundeven/fptosi.
- tanh and logistic use e = e^-|x| or e^-2|x|, in (0, 1]: no overflow handling, one power
  of two, and one division each (1 - 2e / (1 + e); e / (1 + e) or 1 / (1 + e)).

The divisions stay divisions. Measured on an AMD Zen (AVX2) host, tanh(x) * logistic(x) on
1e7 floats: a reciprocal estimate (vrcpps) with the two Newton steps tanh's error bound
needs (6 instructions for one vdivps) ran 1.2x slower; with one step, which only
logistic's looser bound tolerates, no faster than the division. The loop is bound by its
FMA pipes and dependency chains, not by the divider (one vdivps per 8 lanes per function).

pow: (1000, 777) f32 ** 1.7 on one Zen 4 core 1.62 -> 1.05-1.1 ms (glibc's libmvec
`_ZGVeN16vv_powf` before; numpy's own AVX-512 powf ~1.0 ms), half that on two threads.
Its f64 steps are ~40 instructions per 8 lanes; dividing in f32 with a Newton step in f64
instead of one vdivpd was slower (1.27 ms): the FMA pipes, not the divider, bound it.

f64 (and every other type) is left alone: mlc-vector-math calls libmvec for it where it
can, libm otherwise.
"""

from __future__ import annotations

import math as _math
from dataclasses import dataclass
from typing import Callable

from mlir import ir
from mlir.dialects import arith, func, math

from ..dialects.hlo.types import element_type_of
from ..transforms.pass_base import Pass, apply_patterns
from ..transforms.patterns import producer

_CONTRACT = "#arith.fastmath<contract>"  # lets LLVM fuse a*b+c into one FMA


class _Floats:
    """Builds arith ops on scalars or vectors of `t`'s float type, f32 or f64 (pow's internal
    precision), constants splat to the shape; `ints` is the same shape of integers of the
    float's width (what bits() gives)."""

    def __init__(self, t: ir.Type):
        self.type = t
        self.shape = list(ir.VectorType(t).shape) if isinstance(t, ir.VectorType) else None
        self.width = 64 if isinstance(element_type_of(t), ir.F64Type) else 32
        self.int = ir.IntegerType.get_signless(self.width)
        self.ints = self._like(self.int)
        self.i1 = self._like(ir.IntegerType.get_signless(1))
        self.contract = ir.Attribute.parse(_CONTRACT)

    def _like(self, element: ir.Type) -> ir.Type:
        return ir.VectorType.get(self.shape, element) if self.shape is not None else element

    def f(self, value: float) -> ir.Value:
        scalar = ir.FloatAttr.get_f32(value) if self.width == 32 else ir.FloatAttr.get_f64(value)
        return self._constant(self.type, scalar)

    def i(self, value: int) -> ir.Value:
        return self._constant(self.ints, ir.IntegerAttr.get(self.int, value))

    def _constant(self, t: ir.Type, scalar: ir.Attribute) -> ir.Value:
        if self.shape is None:
            return arith.constant(t, scalar)
        return arith.constant(t, ir.DenseElementsAttr.get_splat(t, scalar))

    def mul(self, a, b):
        return arith.mulf(a, b, fastmath=self.contract)

    def add(self, a, b):
        return arith.addf(a, b, fastmath=self.contract)

    def fma(self, a, b, c):
        """a * b + c, fused by LLVM where the CPU has FMA."""
        return self.add(self.mul(a, b), c)

    def poly(self, x, coefficients: list[float]) -> ir.Value:
        """Horner: c[0] x^(n-1) + ... + c[n-1]."""
        acc = self.f(coefficients[0])
        for c in coefficients[1:]:
            acc = self.fma(acc, x, self.f(c))
        return acc

    def select(self, cond, a, b):
        return arith.select(cond, a, b)

    def cmp(self, predicate: str, a, b):
        return arith.cmpf(getattr(arith.CmpFPredicate, predicate), a, b)

    def bits(self, x):
        return arith.bitcast(self.ints, x)

    def from_bits(self, n):
        return arith.bitcast(self.type, n)



# e^w on |w| <= ln 2 / 2, 1 + w + c2 w^2 + ... + c6 w^6: a minimax fit of the relative error
# (1/300 ulp before rounding the coefficients to f32); Horner with FMAs.
_EXP_POLY = [1.3812953839078546e-3, 8.36942344903946e-3, 4.166845977306366e-2, 1.6666515171527863e-1,
             4.999999403953552e-1, 1.0, 1.0]
_LOG2E = 1.44269504088896341
# ln 2 = _LN2_HI + _LN2_LO; _LN2_HI has 9 significant bits, so n * _LN2_HI is exact for
# |n| < 2^15 even without an FMA: the reduced argument x - n ln 2 loses nothing.
_LN2_HI, _LN2_LO = 0.693359375, -2.12194440e-4
# Adding 1.5 * 2^23 rounds an f32 of magnitude < 2^22 to an integer (round to nearest even)
# and leaves that integer in the low mantissa bits: bits(_SHIFTER + n) = 0x4B400000 + n.
# The exponent field then needs only a shift: (bits << 23) keeps the low 9 bits of n + c,
# so a shifter of 1.5 * 2^23 + 127 gives (n + 127) << 23 = 2^n directly.
_SHIFTER = 12582912.0


def _min_keeping_nan(b: "_Floats", x, limit: float):
    """min(x, limit), NaN for NaN x: one vminps (x86's min returns its second operand
    when either is NaN, which is what LLVM's select(limit < x, limit, x) maps onto);
    arith.minimumf costs a compare and a blend more."""
    c = b.f(limit)
    return b.select(b.cmp("OLT", c, x), c, x)


def _max_keeping_nan(b: "_Floats", x, limit: float):
    c = b.f(limit)
    return b.select(b.cmp("OGT", c, x), c, x)


def _exp_of_negative(b: "_Floats", t, scale: float):
    """e^(-scale t) for t in [0, 87.9 / scale] (scale 1 or 2), NaN for NaN t; below
    e^-87.68 (2^-126.5) the result flushes to 0: 2^n for n = -127 is the bit pattern 0.

    n = round(-scale t / ln 2) and its 2^n come from one FMA with a shifter; the reduced
    argument is w = -scale (t + n ln2 / scale) = -scale r, and e^w is the polynomial of
    _EXP_POLY with its coefficients times (-scale)^i, evaluated in r (powers of two: exact)."""
    kf = b.fma(t, b.f(-scale * _LOG2E), b.f(_SHIFTER + 127.0))
    n = b.add(kf, b.f(-(_SHIFTER + 127.0)))
    r = b.fma(n, b.f(_LN2_HI / scale), t)
    r = b.fma(n, b.f(_LN2_LO / scale), r)
    degree = len(_EXP_POLY) - 1
    p = b.poly(r, [c * (-scale) ** (degree - i) for i, c in enumerate(_EXP_POLY)])
    return b.mul(p, b.from_bits(arith.shli(b.bits(kf), b.i(23))))


def exp_f32(b: _Floats, x: ir.Value) -> ir.Value:
    """exp(x) = 2^n e^r with n = round(x / ln 2) (an FMA with a shifter, which also leaves
    n in the integer bits), r = x - n ln 2 (two-part ln 2, exact), e^r the degree-6 fit above.
    2^n is applied as 2^(n >> 1) 2^(n - (n >> 1)), so results near overflow and in the
    subnormal range are right too. NaN passes through every step (the clamps keep it)."""
    clamped = _min_keeping_nan(b, _max_keeping_nan(b, x, -104.0), 89.0)
    # 254 in the shifter: bits = 0x4B400000 + n + 254, and (n + 254) >> 1 = (n >> 1) + 127.
    kf = b.fma(clamped, b.f(_LOG2E), b.f(_SHIFTER + 254.0))
    n = b.add(kf, b.f(-(_SHIFTER + 254.0)))
    r = b.fma(n, b.f(-_LN2_HI), clamped)
    r = b.fma(n, b.f(-_LN2_LO), r)
    p = b.poly(r, _EXP_POLY)
    bits = b.bits(kf)
    half = arith.shrsi(bits, b.i(1))                                # (n >> 1) + 127 in the low bits
    first = b.from_bits(arith.shli(half, b.i(23)))                  # 2^(n >> 1)
    second = b.from_bits(arith.shli(arith.subi(bits, half), b.i(23)))  # 2^(n - (n >> 1))
    return b.mul(b.mul(p, first), second)


def log_f32(b: _Floats, x: ir.Value) -> ir.Value:
    """log(x) = e ln 2 + log(m) with x = m 2^e, m in [sqrt(1/2), sqrt(2)); log(1 + f) is
    f - f^2/2 + f^3 P(f). Subnormal x is scaled by 2^23 first; x <= 0, inf, NaN selected."""
    subnormal = b.cmp("OLT", x, b.f(1.17549435e-38))
    scaled = b.select(subnormal, b.mul(x, b.f(8388608.0)), x)
    bits = b.bits(scaled)
    exponent = arith.subi(arith.shrui(bits, b.i(23)), b.i(126))
    exponent = b.select(subnormal, arith.subi(exponent, b.i(23)), exponent)
    m = b.from_bits(arith.ori(arith.andi(bits, b.i(0x007FFFFF)), b.i(0x3F000000)))  # [0.5, 1)
    small = b.cmp("OLT", m, b.f(0.707106781186547524))
    e = arith.sitofp(b.type, exponent)
    e = b.select(small, b.add(e, b.f(-1.0)), e)
    f = b.add(b.select(small, b.add(m, m), m), b.f(-1.0))
    z = b.mul(f, f)
    p = b.poly(f, [7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                   1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                   3.3333331174e-1])
    y = b.mul(b.mul(p, f), z)
    y = b.fma(e, b.f(-2.12194440e-4), y)
    y = b.fma(z, b.f(-0.5), y)
    result = b.fma(e, b.f(0.693359375), b.add(f, y))
    result = b.select(b.cmp("OEQ", x, b.f(float("inf"))), x, result)
    result = b.select(b.cmp("OEQ", x, b.f(0.0)), b.f(float("-inf")), result)
    return b.select(b.cmp("ULT", x, b.f(0.0)), b.f(float("nan")), result)  # x < 0 or NaN


def _with_sign_of(b: _Floats, magnitude, x):
    """copysign for a magnitude known to have its sign bit clear: one and, one or."""
    sign = arith.andi(b.bits(x), b.i(-0x80000000))
    return b.from_bits(arith.ori(b.bits(magnitude), sign))


# tanh(t) = t + t^3 P(t^2) on [0, 0.55): a minimax fit of the relative error (0.6 ulp before
# rounding). At 0.55, tanh = 0.5005: the exp branch's absolute error is a smaller fraction
# of an ulp from there on than below 0.5, so one coefficient fewer than Cephes' fit to 0.625.
_TANH_SMALL_BELOW = 0.55
_TANH_POLY = [1.6437578946352005e-2, -5.267181247472763e-2, 1.3320724666118622e-1, -3.333294689655304e-1]


def tanh_f32(b: _Floats, x: ir.Value) -> ir.Value:
    """tanh(t), t = |x|: an odd polynomial t + t^3 P(t^2) for t < 0.55, else
    1 - 2 e / (1 + e) with e = e^(-2t) (which cannot overflow; t is clamped at 9.5, past
    which tanh rounds to 1); then the sign bit of x, which also gives tanh(-0.0) = -0.0.
    NaN stays NaN through the clamp and takes the exp branch."""
    t = _min_keeping_nan(b, math.absf(x), 9.5)
    z = b.mul(t, t)
    small = b.fma(b.mul(b.poly(z, _TANH_POLY), z), t, t)
    e = _exp_of_negative(b, t, 2.0)
    big = b.fma(arith.divf(e, b.add(e, b.f(1.0))), b.f(-2.0), b.f(1.0))
    return _with_sign_of(b, b.select(b.cmp("OLT", t, b.f(_TANH_SMALL_BELOW)), small, big), x)


def logistic_f32(b: _Floats, x: ir.Value) -> ir.Value:
    """1 / (1 + e^-x) from e = e^-|x|, which cannot overflow: 1 / (1 + e) for x >= 0 and
    e / (1 + e) for x < 0 (one division either way). |x| is clamped at 88 (e = 0 past
    e^-87.68, so the result is 0 below x = -87.68 instead of a subnormal); NaN stays NaN."""
    e = _exp_of_negative(b, _min_keeping_nan(b, math.absf(x), 88.0), 1.0)
    numerator = b.select(b.cmp("OLT", x, b.f(0.0)), e, b.f(1.0))
    return arith.divf(numerator, b.add(e, b.f(1.0)))


# log2(m) = (2 / ln 2) atanh(s) with s = (m - 1) / (m + 1), m in [sqrt(1/2), sqrt(2)): the
# series 2 s (1 + s^2/3 + ... + s^10/11) / ln 2 (|s| < 0.1716: the next term is below 5e-11
# of the sum, so |t| = |y log2 x| <= 160 is off by less than 1e-8). 2^f on |f| <= 1/2:
# Taylor, (ln 2)^k / k! to k = 7 (error below 6e-9, 0.1 ulp of f32).
_LN2 = 0.6931471805599453
_LOG2_SERIES = [2.0 / ((2 * k + 1) * _LN2) for k in reversed(range(6))]
_EXP2_TAYLOR = [_LN2 ** k / _math.factorial(k) for k in reversed(range(8))]
_SHIFTER_F64 = 6755399441055744.0  # 1.5 * 2^52: adding it rounds an f64 below 2^51 to an integer


def pow_f32(b: _Floats, x: ir.Value, y: ir.Value) -> ir.Value:
    """x^y = 2^(y log2|x|) in f64, rounded to f32 once, then C99's cases as selects.

    In f32 alone, y log2|x| (up to ~150 where the result is still a float) would carry up to
    ~150 ulp of error into 2^t; in f64, log2 from the atanh series (one division) and 2^f
    from Taylor are good to ~1e-8, a fraction of an f32 ulp. An f32 |x| is a normal f64
    (no subnormal path): its exponent is read from the bits. t is clamped to [-160, 130],
    past f32's range both ways (the rounding to f32 gives 0 or inf, and subnormal results
    round once). Then: a finite x < 0 with y not an integer is NaN; a negative x (or -0.0)
    with an odd integer y flips the sign; y = 0 or x = 1 give 1 (even with a NaN), |x| = 1
    with y = +-inf gives 1; any other NaN gives NaN. glibc's libmvec powf took 2.0 ns an element
    on Zen 4 against numpy's own AVX-512 powf's 1.15 (power was 0.86x numpy)."""
    wide = ir.VectorType.get(b.shape, ir.F64Type.get()) if b.shape is not None else ir.F64Type.get()
    d = _Floats(wide)
    xd, yd = arith.extf(wide, x), arith.extf(wide, y)
    ax = math.absf(xd)
    bits = d.bits(ax)
    exponent = arith.sitofp(wide, arith.subi(arith.shrui(bits, d.i(52)), d.i(1023)))
    m = d.from_bits(arith.ori(arith.andi(bits, d.i(0x000FFFFFFFFFFFFF)), d.i(0x3FF0000000000000)))  # [1, 2)
    high = d.cmp("OGT", m, d.f(1.4142135623730951))
    m = d.select(high, d.mul(m, d.f(0.5)), m)
    exponent = d.select(high, d.add(exponent, d.f(1.0)), exponent)
    s = arith.divf(d.add(m, d.f(-1.0)), d.add(m, d.f(1.0)))
    log2x = d.fma(d.poly(d.mul(s, s), _LOG2_SERIES), s, exponent)
    # log2 0 = -inf and log2 inf = inf (the bits alone say -1023 and 1024): t is then +-inf
    # for any y != 0, so 0^y and inf^y are 0 or inf even for the tiniest y.
    log2x = d.select(d.cmp("OEQ", ax, d.f(0.0)), d.f(float("-inf")), log2x)
    log2x = d.select(d.cmp("OEQ", ax, d.f(float("inf"))), d.f(float("inf")), log2x)
    t = _min_keeping_nan(d, _max_keeping_nan(d, d.mul(yd, log2x), -160.0), 130.0)
    kd = d.add(t, d.f(_SHIFTER_F64))  # n = round(t) in its low bits
    f = arith.subf(t, d.add(kd, d.f(-_SHIFTER_F64)))  # t - n, exact, in [-1/2, 1/2]
    scale = d.from_bits(arith.shli(arith.addi(d.bits(kd), d.i(1023)), d.i(52)))  # 2^n
    magnitude = arith.truncf(b.type, d.mul(d.poly(f, _EXP2_TAYLOR), scale))
    # C99's cases, on the f32 operands.
    integer = b.cmp("OEQ", math.floor(y), y)  # (+-inf counts: even)
    half = b.mul(y, b.f(0.5))
    odd = arith.andi(integer, b.cmp("ONE", math.floor(half), half))
    negative = arith.cmpi(arith.CmpIPredicate.slt, b.bits(x), b.i(0))  # the sign bit (-0.0 too)
    flip = arith.andi(negative, odd)
    result = b.from_bits(arith.xori(b.bits(magnitude), arith.select(flip, b.i(-0x80000000), b.i(0))))
    finite_negative = arith.andi(b.cmp("OLT", x, b.f(0.0)), b.cmp("ONE", x, b.f(float("-inf"))))
    fractional = b.cmp("UNE", math.floor(y), y)  # (NaN too: NaN either way)
    result = b.select(arith.andi(finite_negative, fractional), b.f(float("nan")), result)
    result = b.select(b.cmp("UNO", x, y), b.f(float("nan")), result)
    unit_inf = arith.andi(b.cmp("OEQ", math.absf(x), b.f(1.0)), b.cmp("OEQ", math.absf(y), b.f(float("inf"))))
    one = arith.ori(arith.ori(b.cmp("OEQ", y, b.f(0.0)), b.cmp("OEQ", x, b.f(1.0))), unit_inf)
    return b.select(one, b.f(1.0), result)


Approximation = Callable[..., ir.Value]  # (builder, *operands) -> result
APPROXIMATIONS: dict[str, Approximation] = {
    "math.exp": exp_f32,
    "math.log": log_f32,
    "math.tanh": tanh_f32,
    "logistic": logistic_f32,
    "math.powf": pow_f32,
}


def _arity(kind: str) -> int:
    """How many operands the approximation of `kind` takes (its parameters after the builder)."""
    return APPROXIMATIONS[kind].__code__.co_argcount - 1


def _is_f32(t: ir.Type) -> bool:
    return isinstance(element_type_of(t), ir.F32Type)


def _is_narrow(t: ir.Type) -> bool:
    """f16: computed in f32 and rounded once (every f16 value is an f32; F16C converts a
    vector in one instruction). bf16 is left alone: MLC's frontend has no bf16, and on AVX2
    LLVM truncates f32 to bf16 with a libgcc call per element."""
    return isinstance(element_type_of(t), ir.F16Type)


def _as_f32(t: ir.Type) -> ir.Type:
    f32 = ir.F32Type.get()
    return ir.VectorType.get(ir.VectorType(t).shape, f32) if isinstance(t, ir.VectorType) else f32


def _approximate(kind: str, operands: list, needed: dict) -> ir.Value | None:
    """The call of the f32 helper for `kind` on `operands` (all of one type; f16 ones:
    extended, the result truncated), noting the helper in `needed`; None for other types."""
    t = operands[0].type
    f32 = _is_f32(t)
    if not (f32 or _is_narrow(t)):
        return None
    wide = t if f32 else _as_f32(t)
    name = helper_name(kind, wide)
    needed.setdefault(name, (kind, wide))
    if f32:
        return _call(name, operands)
    return arith.truncf(t, _call(name, [arith.extf(wide, x) for x in operands]))


def helper_name(op_name: str, t: ir.Type) -> str:
    """`__mlc_tanh_v8f32` for math.tanh on vector<8xf32>, `__mlc_exp_f32` on f32."""
    kind = op_name.removeprefix("math.")
    if isinstance(t, ir.VectorType):
        return f"__mlc_{kind}_v{'x'.join(map(str, ir.VectorType(t).shape))}f32"
    return f"__mlc_{kind}_f32"


def _call(name: str, operands: list) -> ir.Value:
    # The op itself, not func.CallOp's generated builder (~30 us a call against ~7: a
    # chain of thousands of tanh pays it per op).
    return ir.Operation.create("func.call", results=[operands[0].type], operands=list(operands),
                               attributes={"callee": ir.FlatSymbolRefAttr.get(name)}).result


def _call_helper(needed: dict):
    """math.tanh(x : T) -> func.call @__mlc_tanh_T(x) (math.powf(x, y) -> @__mlc_powf_T(x, y)),
    noting (op, T) in `needed`."""
    def pattern(op, rewriter):
        x = op.operands[0]
        if not (_is_f32(x.type) or _is_narrow(x.type)):
            return None
        with rewriter.ip, op.location:
            result = _approximate(op.name, list(op.operands), needed)
        rewriter.replace_op(op, [result])
        return True
    return pattern


def _is_one(value: ir.Value) -> bool:
    """`value` is 1.0: an arith.constant (scalar or splat) or a vector.broadcast of one."""
    broadcast = producer(value, "vector.broadcast")
    if broadcast is not None:
        value = broadcast.operands[0]
    op = producer(value, "arith.constant")
    if op is None:
        return False
    attr = op.attributes["value"]
    if isinstance(attr, ir.DenseElementsAttr):
        if not attr.is_splat:
            return False
        attr = attr.get_splat_value()
    return isinstance(attr, ir.FloatAttr) and ir.FloatAttr(attr).value == 1.0


def _logistic_operand(div: ir.Operation):
    """x when `div` is 1 / (1 + exp(-x)) (hlo.logistic as hlo-to-linalg writes it), else None."""
    if not _is_one(div.operands[0]):
        return None
    add = producer(div.operands[1], "arith.addf")
    if add is None:
        return None
    for i in (0, 1):
        exp = producer(add.operands[i], "math.exp")
        if exp is not None and _is_one(add.operands[1 - i]):
            neg = producer(exp.operands[0], "arith.negf")
            return neg.operands[0] if neg is not None else None
    return None


def _call_logistic(needed: dict):
    """1 / (1 + exp(-x)) -> func.call @__mlc_logistic_T(x): one exp that cannot overflow and
    one division (the exp and negation go when nothing else uses them)."""
    def pattern(op, rewriter):
        x = _logistic_operand(op.operation)
        if x is None or not (_is_f32(x.type) or _is_narrow(x.type)):
            return None
        with rewriter.ip, op.location:
            result = _approximate("logistic", [x], needed)
        rewriter.replace_op(op, [result])
        return True
    return pattern


def _define_helper(module: ir.Operation, name: str, op_name: str, t: ir.Type) -> None:
    """func.func private @name(x: T, ...) -> T {alwaysinline}: the approximation, once."""
    with ir.Location.name(name), ir.InsertionPoint(module.regions[0].blocks[0]):
        fn = func.FuncOp(name, ([t] * _arity(op_name), [t]), visibility="private")
        fn.attributes["passthrough"] = ir.ArrayAttr.get([ir.StringAttr.get("alwaysinline")])
        body = fn.add_entry_block()
        with ir.InsertionPoint(body):
            func.ReturnOp([APPROXIMATIONS[op_name](_Floats(t), *body.arguments)])


@dataclass(frozen=True)
class MathApprox(Pass):
    """Replaces f32 and f16 exp, log, tanh, logistic and pow with polynomial approximations.

    The ops: math.exp/log/tanh/powf, scalar or vector, and arith.divf(1, 1 + math.exp(-x)), which
    is how hlo-to-linalg writes hlo.logistic (one exp that cannot overflow, see
    logistic_f32, instead of an exp and a division by 1 + e^-x).

    Each (function, type) gets one private `alwaysinline` definition per module, called
    where the math op was: `math.tanh %x : vector<8xf32>` -> `func.call
    @__mlc_tanh_v8f32(%x)`. LLVM inlines the calls (up to mlc-inline-budget's compile-time budget), so the
    machine code is the same as expanding in place, but the passes between here and LLVM see one call instead of ~30
    ops per use (a 1,600-op tanh chain spent 2.5 s of its compile in them), as XLA:CPU's
    own approximations are functions inlined by LLVM. f16 calls the f32 definition between
    arith.extf and arith.truncf.

    Expects: any IR with math ops, in a module. Produces: func.call in their place and the
    definitions (arith and math.absf); f64, bf16 and other types untouched (they become
    libm calls).
    """

    name = "mlc-math-approx"

    def run(self, module: ir.Operation) -> None:
        needed: dict[str, tuple[str, ir.Type]] = {}
        # Logistic first, so its exp is not expanded on its own.
        apply_patterns(module, {"arith.divf": [_call_logistic(needed)]})
        pattern = _call_helper(needed)
        apply_patterns(module, {name: [pattern] for name in APPROXIMATIONS if name.startswith("math.")})
        defined = {ir.StringAttr(o.attributes["sym_name"]).value
                   for o in module.regions[0].blocks[0].operations if o.operation.name == "func.func"}
        for name, (op_name, t) in needed.items():
            if name not in defined:
                _define_helper(module, name, op_name, t)
