"""MLC's precompiled GEMM kernels: the packed kernel (packed_gemm.py) over runtime sizes,
compiled once per host and kept, called from every program's matmuls.

    linalg.generic {acc + lhs * rhs} ins(%a : memref<512x512xf32>, %b : ...) outs(%c : ...)
  ->                                                               (mlc-blas, "packed")
    func.call @mlc_gemm_f32_nn_m2_v512(%M, %N, %K, %a_base, %a_offset, %lda,
                                        %b_base, %b_offset, %ldb, %c_base, %c_offset, %ldc,
                                        %beta_zero)

XLA's CPU backend calls Eigen's matmul, compiled when XLA was built, where MLC generated
(and LLVM compiled) a packed kernel for each program's shapes: a 512^3 matmul's compile took
55-60 ms against jax.jit's 12-15 (benchmarks/results/compile_time.md, the table's rows), most
of it the kernel's MLIR passes and code generation. A kernel here is the same loop nest
(the same packing, 8x32 / 6x16 register tiles, cache blocks and thread split) emitted over
index arguments instead of constants: its edges are always guarded (rows past M skipped,
columns past N masked, panels zero padded), which costs nothing measurable beside the
K-long register loop. One kernel per `Variant`: each operand's layout, whether the threads
split the rows or the columns, the thread count and the vector width (the part of the
target that changes the code). Built, kept and linked by kernel_library.py.

Measured (Zen 4, AVX-512, two threads): a 512^3 matmul's compile 70-115 -> 16-25 ms (f64
below BLAS's size rule 51-76 -> 14-16), the corpus's blocks and the table's rows 4.9 ->
2.9 s in all; run times 0.98-1.02x the per-shape kernel's (square, skinny, ragged and
transposed shapes, f32 and f64); a kernel's build 0.12-0.35 s, once per host.

Taken: f32 or f64 operands and result (no widening, no fused epilogue, no int16 pairs), each
matrix with one unit-stride dimension, C row-major. Everything else, exported libraries
(CompileOptions.gemm_kernels is off there: the library must not depend on this cache) and
the ExecutionEngine JIT (it cannot link extra objects) keep the kernel generated in the
program.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from mlir import ir
from mlir.dialects import arith, func, memref

from .. import config
from .externs import declare_external
from .kernel_library import ELEMENT_TYPES
from .packed_gemm import GemmProblem, Operand, emit_gemm, splits_rows, stored_transposed

PREFIX = "mlc_gemm_"
_SYMBOL = re.compile(rf"{PREFIX}(f32|f64)_([nt])([nt])_([mn])(\d+)_v(\d+)$")


@dataclass(frozen=True)
class Variant:
    """What one precompiled kernel is specialized for (everything else is an argument)."""

    a_transposed: bool  # A stored [K, M] (M unit stride), else [M, K]
    b_transposed: bool  # B stored [N, K] (K unit stride), else [K, N]
    split_m: bool  # the threads share the rows (else the columns)
    threads: int
    register_bits: int
    dtype: str = "f32"  # the element type of A, B, C and the sums (ELEMENT_TYPES)
    kind: ClassVar[str] = "GEMM"

    @property
    def element_type(self) -> ir.Type:
        return ELEMENT_TYPES[self.dtype]()

    @property
    def symbol(self) -> str:
        t = lambda flag: "t" if flag else "n"  # noqa: E731
        return (f"{PREFIX}{self.dtype}_{t(self.a_transposed)}{t(self.b_transposed)}_"
                f"{'m' if self.split_m else 'n'}{self.threads}_v{self.register_bits}")

    @staticmethod
    def parse(symbol: str) -> "Variant | None":
        found = _SYMBOL.match(symbol)
        if found is None:
            return None
        dtype, a, b, split, threads, bits = found.groups()
        return Variant(a == "t", b == "t", split == "m", int(threads), int(bits), dtype)

    def build_module(self) -> ir.Module:
        """A module holding the kernel's function, as packed_gemm emits it (the `codegen` stage
        before mlc-blas's successors), in the current context."""
        with ir.Location.unknown():
            module = ir.Module.create()
            with ir.InsertionPoint(module.body):
                kernel = func.FuncOp(self.symbol, function_type(self))
                entry = kernel.add_entry_block()
            with ir.InsertionPoint(entry):
                m, n, k, a, a_off, lda, b, b_off, ldb, c, c_off, ldc, beta_zero = entry.arguments
                a_op = Operand(a, a_off, 1, lda) if self.a_transposed else Operand(a, a_off, lda, 1)
                b_op = Operand(b, b_off, 1, ldb) if self.b_transposed else Operand(b, b_off, ldb, 1)
                prob = GemmProblem(m, n, k, self.element_type, self.register_bits, self.threads, beta_zero,
                                   split_m=self.split_m)
                emit_gemm(prob, a_op, b_op, Operand(c, c_off, ldc, 1))
                func.ReturnOp([])
        return module


def function_type(variant: "Variant") -> ir.FunctionType:
    """(M, N, K, then base buffer, element offset and leading dimension of A, B and C,
    beta_zero) -> (): C (+)= A B, C overwritten when beta_zero."""
    index = ir.IndexType.get()
    base = ir.MemRefType.get([], variant.element_type)
    return ir.FunctionType.get([index] * 3 + [base, index, index] * 3 + [ir.IntegerType.get_signless(1)], [])


def _leading(x: Operand, transposed: bool) -> int | None:
    """The leading dimension of a matrix a kernel reads with layout `transposed`, or None
    when the other stride is not 1."""
    unit, leading = (x.row_stride, x.col_stride) if transposed else (x.col_stride, x.row_stride)
    return leading if unit == 1 else None


def variant_for(prob: GemmProblem, a: Operand, b: Operand, c: Operand) -> Variant | None:
    """The kernel that runs this GEMM (static sizes, the operands' strides known), or None
    when the program keeps its own (module docstring: what is taken)."""
    dtype = next((name for name, t in ELEMENT_TYPES.items() if prob.compute == t()), None)
    buffers = (a.value, b.value, c.value)
    if (dtype is None or not config.gemm_kernels_enabled() or prob.epilogue is not None or prob.pairs
            or any(ir.MemRefType(x.type).element_type != prob.compute for x in buffers) or a.unsigned or b.unsigned):
        return None
    a_t, b_t = stored_transposed(a, b)
    if _leading(a, a_t) is None or _leading(b, b_t) is None or _leading(c, False) is None:
        return None
    return Variant(a_t, b_t, splits_rows(prob), prob.threads, prob.register_bits, dtype)


def emit_call(module: ir.Operation, variant: Variant, prob: GemmProblem, a: Operand, b: Operand,
              c: Operand) -> None:
    """At the current insertion point: the call of `variant`'s kernel on these operands
    (declared in `module`)."""
    index = ir.IndexType.get()
    declare_external(module, variant.symbol, function_type(variant))
    args = [arith.constant(index, v) for v in (prob.m, prob.n, prob.k)]
    for x, transposed in ((a, variant.a_transposed), (b, variant.b_transposed), (c, False)):
        base = memref.extract_strided_metadata(x.value)[0]
        args += [base, x.offset, arith.constant(index, _leading(x, transposed))]
    args.append(arith.constant(ir.IntegerType.get_signless(1), int(bool(prob.beta_zero))))
    func.CallOp([], variant.symbol, args)
