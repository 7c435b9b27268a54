"""docs/dialect.md, generated from the op table so the reference never drifts from the code."""

from __future__ import annotations

from .ops import ELEMENT_CLASSES, OPS

_INTRO = """# The `hlo` dialect

Generated from `python/mlc/dialects/hlo/ops.py` by `python tools/gen_dialect.py`; do not
edit by hand. The same table generates `dialects/hlo.irdl.mlir`.

`hlo.X` is StableHLO's `stablehlo.X` in generic form, with the same operand, result and
attribute names. StableHLO's dialect attributes are builtin ones: dimension lists are
`array<i64: ...>`, enums are strings, `hlo.constant`'s value is `dense<...>`. IRDL (LLVM 22)
has no regions with terminators and no heterogeneous variadic operands, so `hlo.reduce`
takes one input and one 0-d init value and names its combiner with `kind`; control flow is
upstream `scf.if`/`scf.while` over tensors and N-ary concatenation is `tensor.concat`.

Operands sharing a type letter must have identical types (IRDL checks this when parsing);
every other rule (shapes, element types, attribute values) is checked by `hlo-verify`,
which `hlo-to-linalg` runs first. All shapes are static. Integers are signless and treated
as signed; `i1` is a boolean.

Element types: f16, bf16, f32, f64; i1 (bool); i8, i16, i32, i64 (signed); ui8, ui16, ui32,
ui64 (unsigned). The "elements" column says which an op's operands accept; "lowering" says
what `hlo-to-linalg` makes of it.

| op | operands -> results | attributes | elements | semantics | lowering |
|---|---|---|---|---|---|
"""


def _signature(op) -> str:
    ins = ", ".join(f"{n}: {v}" for n, v in op.operands)
    outs = ", ".join(f"{n}: {v}" for n, v in op.results)
    return f"({ins}) -> {outs}"


def _attributes(op) -> str:
    kinds = {"i64_array": "array<i64>", "string": "string", "integer": "i64",
             "elements": "dense elements", "bool": "bool"}
    parts = [f"`{n}`: {kinds[k]}" for n, k in op.attributes]
    parts += [f"`{n}`: {kinds[k]} (optional)" for n, k in op.optional_attributes]
    return ", ".join(parts) or "-"


# What each op family becomes in hlo-to-linalg (python/mlc/conversion/hlo_to_linalg/).
_LOWERING = {
    "constant": "arith.constant / linalg.generic over linalg.index",
    "elementwise-unary": "linalg.generic + arith/math",
    "elementwise-binary": "linalg.generic + arith/math",
    "predicate": "linalg.generic + arith",
    "compare": "linalg.generic + arith.cmpf/cmpi",
    "select": "linalg.generic + arith.select",
    "clamp": "linalg.generic + max/min",
    "convert": "linalg.generic + arith casts",
    "bitcast": "linalg.generic + arith.bitcast",
    "shape": "linalg.generic/transpose, tensor slices and reshapes",
    "reduce": "linalg.fill + linalg.generic (reduction loops); a reduce_window over a whole axis (a running reduction: cumsum) as a scan in scf loops, row by row along the innermost axis",
    "dot": "linalg.fill + linalg.generic (contraction)",
    "indexing": "gather: linalg.generic + tensor.extract; scatter: scf.for nest + tensor.insert",
    "sort": "per row in scf loops over tensors: LSD radix sort (long rows of numbers), a stable two-way partition (boolean keys), merge sort, or for argsort's `limit` a selection",
    "collective": "calls to MPI_Allreduce / MPI_Allgather / MPI_Reduce_scatter_block / MPI_Bcast on buffers under mpiexec; the identity on one process",
}


def _elements(op) -> str:
    return "any" if op.elements == "any" else ELEMENT_CLASSES[op.elements]


def dialect_markdown() -> str:
    rows = [f"| `hlo.{op.name}` | `{_signature(op)}` | {_attributes(op)} | {_elements(op)} | "
            f"{op.summary} | {_LOWERING[op.family]} |" for op in OPS.values()]
    notes = """
## Details

- `hlo.compare`: `comparison_direction` is one of EQ, NE, GE, GT, LE, LT; `compare_type` is
  FLOAT, TOTALORDER, SIGNED or UNSIGNED and defaults to FLOAT for floats, UNSIGNED for i1
  and SIGNED for other integers. FLOAT comparisons are ordered except NE (true if either
  side is NaN); TOTALORDER is IEEE totalOrder (-NaN < -inf < -0 < +0 < inf < NaN).
- `hlo.convert`: float to narrower float rounds to nearest even; integer to float rounds to
  nearest; float to integer truncates toward zero, saturates at the integer's range and maps
  NaN to 0 (XLA's rule); integer narrowing wraps (keeps the low bits); i1 widens to 0/1 and
  anything converts to i1 as `x != 0`.
- `hlo.divide` on integers: x / 0 = -1 and INT_MIN / -1 = INT_MIN (XLA's rule), never a trap.
- `hlo.reduce`: `kind` and/or/xor need integer or i1 elements. On i1, add is `or`, mul is
  `and`, max is `or` and min is `and`. Float max/min propagate NaN.
- `hlo.dot_general`, `hlo.convolution`: the result element type may be wider than the
  operands' (e.g. i8 operands, i32 result); products are accumulated in the result type.
- Unsigned integers: arithmetic wraps; divide by 0 gives all ones, remainder by 0 gives x;
  compare defaults to UNSIGNED; convert zero-extends them and saturates floats to
  [0, 2^w - 1].
- `hlo.dynamic_slice`, `hlo.gather`: start indices are clamped so the slice lies in the
  operand, never read out of bounds. `hlo.scatter` drops an update whose window does not fit.
- Control flow and concatenation are upstream ops: `scf.if`, `scf.while`,
  `scf.index_switch` over tensors (hlo ops inside their regions are verified, optimized,
  fused and lowered like any other, each region's block on its own; `tensor.extract` turns
  a `tensor<i1>` into the predicate), and `tensor.concat`.

## Not supported yet

- Dynamic shapes (`?` dimensions) and unranked tensors: every shape is static.
- Ops with several inputs of different types (StableHLO's variadic reduce, sort with
  several operands and a comparator region, while/case bodies as hlo regions): IRDL in
  LLVM 22 cannot express them; use hlo.argmax/argmin/argsort and upstream scf instead.
- `rng_bit_generator`, `rng`, complex numbers, quantized types, `fft`, `triangular_solve`,
  `cholesky`, all_to_all, replica groups (collective_broadcast's root is process 0), `custom_call`, `precision_config`, convolution's
  `window_reversal`.
- Numpy has no bf16 dtype, so bf16 tensors cannot be function arguments or results; they
  live inside a computation (convert to and from f32).
"""
    return _INTRO + "\n".join(rows) + "\n" + notes
