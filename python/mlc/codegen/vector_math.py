"""Pass `mlc-vector-math`: sin, cos, tan, cbrt, atan2 and pow (f32, f64) and f64 exp and log
on vectors become calls to glibc's vector math library (libmvec), one call per vector
register. (In the pipeline f32 pow never gets here: mlc-math-approx, which runs first,
computes it in f64, 1.5x faster than libmvec's powf on one Zen 4 core.)

    %y = math.sin %x : vector<16xf32>
  ->
    %lo = vector.extract_strided_slice %x {offsets = [0], sizes = [8], strides = [1]}
    %a = func.call @_ZGVdN8v_sinf(%lo) : (vector<8xf32>) -> vector<8xf32>     (AVX2)
    ... the upper half the same, both inserted into the result

Why: these have no vectorizable polynomial in MLC (sin and cos need a full-range argument
reduction, Payne-Hanek, to be right for large |x|), and the LLVM lowering of a vector
math.sin is one scalar libm call per lane (atan2 of 777k f32: 11 ms through libm, ~2 ns
an element through libmvec). tan, cbrt and atan2 came with glibc 2.35: each variant is
used only when the loaded libmvec has its symbol. libmvec's functions are full-range, with
the accuracy glibc documents (at most 4 ulp for these; test_math_approx.py checks them against
numpy over the whole f32 range). The variant follows the vector width MLC targets, capped
at what the host runs natively: `b` (SSE, 128-bit), `d` (AVX2, 256), `e` (AVX-512). The
cap matters: code generated for 512-bit vectors on an AVX2 host (MLC_VECTOR_BITS=512) is
correct because LLVM splits the vectors, but an AVX-512 libmvec call would be an illegal
instruction there. Without libmvec (not glibc, or glibc older than 2.22) the pass leaves
the ops to libm.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import func, vector

from ..runtime.libraries import find_libmvec, has_libmvec_function
from ..transforms.pass_base import Pass
from .externs import declare_external
from .target import cpu_flags, vector_register_bits

_ISA = {128: "b", 256: "d", 512: "e"}
# (math op, element bits) -> libmvec base name; the op's operand count is the variant's
# ("v" per vector argument in the name: _ZGVdN8vv_atan2f).
FUNCTIONS = {("math.sin", 32): "sinf", ("math.cos", 32): "cosf",
             ("math.sin", 64): "sin", ("math.cos", 64): "cos",
             ("math.exp", 64): "exp", ("math.log", 64): "log",
             ("math.tan", 32): "tanf", ("math.tan", 64): "tan",
             ("math.cbrt", 32): "cbrtf", ("math.cbrt", 64): "cbrt",
             ("math.atan2", 32): "atan2f", ("math.atan2", 64): "atan2",
             ("math.powf", 32): "powf", ("math.powf", 64): "pow"}


def native_bits() -> int:
    """The widest libmvec variant the host can execute (each needs its ISA: d = AVX2)."""
    flags = cpu_flags()
    return 512 if "avx512f" in flags else 256 if "avx2" in flags else 128


def variant_name(base: str, register_bits: int, lanes: int, arity: int = 1) -> str:
    """The vector ABI name of one libmvec variant, e.g. _ZGVdN8v_sinf, _ZGVdN8vv_powf."""
    return f"_ZGV{_ISA[register_bits]}N{lanes}{'v' * arity}_{base}"


@dataclass(frozen=True)
class VectorMath(Pass):
    """Replaces vector math.sin/cos (f32, f64) and math.exp/log (f64) with libmvec calls.

    Expects: vector math ops (after mlc-vectorize). Produces: func.call to libmvec's
    vector-ABI functions (declared private), per vector register; other ops unchanged.
    """

    name = "mlc-vector-math"
    register_bits: int = 0  # 0 = the target width (MLC_VECTOR_BITS or the host's); capped at the host's

    def run(self, module: ir.Operation) -> None:
        bits = min(self.register_bits or vector_register_bits(), native_bits())
        found = []

        names = {name for name, _ in FUNCTIONS}

        def visit(op):
            if op.name not in names:  # (the name first: reading a result type costs ~2 us)
                return ir.WalkResult.ADVANCE
            t = op.results[0].type if len(op.results) == 1 else None
            if isinstance(t, ir.VectorType) and t.rank == 1:
                key = (op.name, getattr(t.element_type, "width", 0))
                lanes = bits // key[1] if key[1] else 0
                if key in FUNCTIONS and isinstance(t.element_type, ir.FloatType) and lanes \
                        and t.shape[0] % lanes == 0:
                    found.append((op, FUNCTIONS[key], lanes))
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        if not found or find_libmvec() is None:
            return
        for op, base, lanes in found:
            t = ir.VectorType(op.results[0].type)
            piece = ir.VectorType.get([lanes], t.element_type)
            arity = len(op.operands)
            name = variant_name(base, bits, lanes, arity)
            if not has_libmvec_function(name):
                continue  # (an older glibc: libm, lane by lane)
            declare_external(module, name, ir.FunctionType.get([piece] * arity, [piece]))
            with ir.InsertionPoint(op), op.location:
                result = op.operands[0]  # any value of the type; every lane is overwritten
                for start in range(0, t.shape[0], lanes):
                    parts = [vector.extract_strided_slice(piece, x, [start], [lanes], [1]) for x in op.operands]
                    value = func.call([piece], ir.FlatSymbolRefAttr.get(name), parts)
                    result = vector.insert_strided_slice(value, result, [start], [1])
            op.results[0].replace_all_uses_with(result)
            op.erase()
