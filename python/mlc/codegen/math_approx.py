"""Pass `mlc-math-approx`: f32 exp, log and tanh as polynomials in arith ops, scalar or vector.

LLVM has no vector exp/log/tanh on x86: `math.exp` on vector<16xf32> becomes sixteen
calls to libm's expf, and a call in a loop body also stops LLVM from vectorizing it. Like
XLA's CPU backend, MLC carries its own approximations, written as plain arith ops so they
vectorize with the loop around them (the constants are the classic Cephes minimax fits).

Measured against numpy's float64 result rounded to f32, over every f32 exponent and the
special values (see test/pytest/test_math_approx.py, which asserts these bounds):

    exp   max 1 ulp   x > 88.72 -> +inf, x < -103.97 -> 0 (subnormals kept), NaN -> NaN
    log   max 1 ulp   x < 0 -> NaN, 0 -> -inf, +inf -> +inf, subnormals exact in range
    tanh  max 2 ulp   saturates to +-1, keeps -0.0, NaN -> NaN

f64 (and every other type) is left alone: mlc-vector-math calls libmvec for it where it
can, libm otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mlir import ir
from mlir.dialects import arith, func, math

from ..dialects.hlo.types import element_type_of
from ..transforms.pass_base import Pass, apply_patterns

_CONTRACT = "#arith.fastmath<contract>"  # lets LLVM fuse a*b+c into one FMA


class _F32:
    """Builds arith ops on f32 scalars or vectors of f32 (constants splat to the shape)."""

    def __init__(self, t: ir.Type):
        self.type = t
        self.shape = list(ir.VectorType(t).shape) if isinstance(t, ir.VectorType) else None
        self.i32 = self._like(ir.IntegerType.get_signless(32))
        self.i1 = self._like(ir.IntegerType.get_signless(1))
        self.contract = ir.Attribute.parse(_CONTRACT)

    def _like(self, element: ir.Type) -> ir.Type:
        return ir.VectorType.get(self.shape, element) if self.shape is not None else element

    def f(self, value: float) -> ir.Value:
        return self._constant(self.type, ir.FloatAttr.get_f32(value))

    def i(self, value: int) -> ir.Value:
        return self._constant(self.i32, ir.IntegerAttr.get(ir.IntegerType.get_signless(32), value))

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
        return arith.bitcast(self.i32, x)

    def from_bits(self, n):
        return arith.bitcast(self.type, n)

    def pow2(self, n):
        """2^n as f32 for an i32 n in [-126, 127]: n + 127 in the exponent field."""
        return self.from_bits(arith.shli(arith.addi(n, self.i(127)), self.i(23)))


def exp_f32(b: _F32, x: ir.Value) -> ir.Value:
    """exp(x) = 2^n * e^r with n = round(x / ln 2), r = x - n ln 2 (two-part ln 2, so r is
    exact), e^r a degree-7 polynomial on |r| <= ln 2 / 2. 2^n is applied as 2^(n/2) 2^(n-n/2),
    so results near overflow and in the subnormal range are right too."""
    clamped = arith.minimumf(arith.maximumf(x, b.f(-104.0)), b.f(89.0))
    n = math.roundeven(b.mul(clamped, b.f(1.44269504088896341)))
    r = b.fma(n, b.f(-0.693359375), clamped)
    r = b.fma(n, b.f(2.12194440e-4), r)
    p = b.poly(r, [1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2,
                   1.6666665459e-1, 5.0000001201e-1])
    p = b.fma(b.mul(p, r), r, b.add(r, b.f(1.0)))
    ni = arith.fptosi(b.i32, n)
    half = arith.shrsi(ni, b.i(1))
    result = b.mul(b.mul(p, b.pow2(half)), b.pow2(arith.subi(ni, half)))
    return b.select(b.cmp("UNO", x, x), x, result)


def log_f32(b: _F32, x: ir.Value) -> ir.Value:
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


def tanh_f32(b: _F32, x: ir.Value) -> ir.Value:
    """tanh(x): an odd polynomial x + x^3 P(x^2) for |x| < 0.625, else
    sign(x) (1 - 2 / (exp(2|x|) + 1)), which saturates to +-1 with exp's overflow."""
    ax = math.absf(x)
    z = b.mul(x, x)
    small = b.fma(b.mul(b.poly(z, [-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2,
                                   1.33314422036e-1, -3.33332819422e-1]), z), x, x)
    big = b.add(b.f(1.0), arith.divf(b.f(-2.0), b.add(exp_f32(b, b.add(ax, ax)), b.f(1.0))))
    # copysign also gives tanh(-0.0) = -0.0, which the polynomial's x + ... would lose.
    return math.copysign(b.select(b.cmp("OLT", ax, b.f(0.625)), small, big), x)


Approximation = Callable[[_F32, ir.Value], ir.Value]
APPROXIMATIONS: dict[str, Approximation] = {
    "math.exp": exp_f32,
    "math.log": log_f32,
    "math.tanh": tanh_f32,
}


def _is_f32(t: ir.Type) -> bool:
    return isinstance(element_type_of(t), ir.F32Type)


def helper_name(op_name: str, t: ir.Type) -> str:
    """`__mlc_tanh_v8f32` for math.tanh on vector<8xf32>, `__mlc_exp_f32` on f32."""
    kind = op_name.removeprefix("math.")
    if isinstance(t, ir.VectorType):
        return f"__mlc_{kind}_v{'x'.join(map(str, ir.VectorType(t).shape))}f32"
    return f"__mlc_{kind}_f32"


def _call_helper(needed: dict):
    """math.tanh(x : T) -> func.call @__mlc_tanh_T(x), noting (op, T) in `needed`."""
    def pattern(op, rewriter):
        x = op.operands[0]
        if not _is_f32(x.type):
            return None
        name = helper_name(op.name, x.type)
        needed.setdefault(name, (op.name, x.type))
        with rewriter.ip, op.location:
            call = func.CallOp([x.type], ir.FlatSymbolRefAttr.get(name), [x])
        rewriter.replace_op(op, call.results)
        return True
    return pattern


def _define_helper(module: ir.Operation, name: str, op_name: str, t: ir.Type) -> None:
    """func.func private @name(x: T) -> T {alwaysinline}: the approximation, once."""
    with ir.Location.name(name), ir.InsertionPoint(module.regions[0].blocks[0]):
        fn = func.FuncOp(name, ([t], [t]), visibility="private")
        fn.attributes["passthrough"] = ir.ArrayAttr.get([ir.StringAttr.get("alwaysinline")])
        body = fn.add_entry_block()
        with ir.InsertionPoint(body):
            func.ReturnOp([APPROXIMATIONS[op_name](_F32(t), body.arguments[0])])


@dataclass(frozen=True)
class MathApprox(Pass):
    """Replaces f32 math.exp/log/tanh (scalar or vector) with polynomial approximations.

    Each (function, type) gets one private `alwaysinline` definition per module, called
    where the math op was: `math.tanh %x : vector<8xf32>` -> `func.call
    @__mlc_tanh_v8f32(%x)`. LLVM inlines the calls, so the machine code is the same as
    expanding in place, but the passes between here and LLVM see one call instead of ~40
    ops per use (a 1,600-op tanh chain spent 2.5 s of its compile in them), as XLA:CPU's
    own approximations are functions inlined by LLVM.

    Expects: any IR with math ops, in a module. Produces: func.call in their place and the
    definitions (arith/math.{roundeven,absf,copysign}); f64 and other types untouched (they
    become libm calls).
    """

    name = "mlc-math-approx"

    def run(self, module: ir.Operation) -> None:
        needed: dict[str, tuple[str, ir.Type]] = {}
        pattern = _call_helper(needed)
        apply_patterns(module, {name: [pattern] for name in APPROXIMATIONS})
        defined = {ir.StringAttr(o.attributes["sym_name"]).value
                   for o in module.regions[0].blocks[0].operations if o.operation.name == "func.func"}
        for name, (op_name, t) in needed.items():
            if name not in defined:
                _define_helper(module, name, op_name, t)
