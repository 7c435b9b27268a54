"""Type promotion: JAX's lattice (`jax.numpy.promote_types` with 64-bit types enabled).

The result dtype of mixing dtypes is their least upper bound in this lattice, where an
edge a -> b means "a promotes to b"; `int*` and `float*` are the weak types of Python
ints and floats:

    bool -> int* -> uint8, int8
    uint8 -> uint16, int16     uint16 -> uint32, int32     uint32 -> uint64, int64
    int8 -> int16 -> int32 -> int64
    uint64, int64 -> float*
    float* -> bfloat16, float16 -> float32 -> float64

Unlike numpy, integers never widen floats (f32 + i32 -> f32, i32 + f16 -> f16), and mixed
signedness takes the smallest signed type that holds both (u32 + i32 -> i64, i8 + u8 ->
i16; u64 + i64 has none and lands on float* -> f64). A Python scalar is weak: it takes the
dtype of the array it meets (i8 array + 1 -> i8, f16 array + 1.0 -> f16). The result is
weak when the bound is a weak type (i32 array + 1.0 -> the default float, weak) or when
every input is weak; a weak bound is the default dtype of its kind (int32, float32) unless
a 64-bit array, or a weak 64-bit value computed from one, took part (i64 + 1.0 -> f64,
u64 + i64 -> f64, i32 + (u64 + i32) -> f64, as with 64-bit types on).
"""

from __future__ import annotations

import functools

import numpy as np

INT_WEAK, FLOAT_WEAK = "int*", "float*"

# node -> the nodes it promotes to directly (bfloat16 joins once numpy-side bf16 exists).
LATTICE: dict[str, tuple[str, ...]] = {
    "bool": (INT_WEAK,),
    INT_WEAK: ("uint8", "int8"),
    "uint8": ("uint16", "int16"),
    "uint16": ("uint32", "int32"),
    "uint32": ("uint64", "int64"),
    "uint64": (FLOAT_WEAK,),
    "int8": ("int16",),
    "int16": ("int32",),
    "int32": ("int64",),
    "int64": (FLOAT_WEAK,),
    FLOAT_WEAK: ("float16",),
    "float16": ("float32",),
    "float32": ("float64",),
    "float64": (),
}
# A bound that is a weak type becomes this dtype when no input fixes the width
# (promote_types with 64-bit types enabled).
_WEAK_AS_64 = {INT_WEAK: np.dtype(np.int64), FLOAT_WEAK: np.dtype(np.float64)}


@functools.cache
def _upper(node: str) -> frozenset[str]:
    """Every node `node` promotes to, itself included."""
    return frozenset({node}).union(*(_upper(n) for n in LATTICE[node]))


def _node(dtype: np.dtype, weak: bool) -> str:
    name = np.dtype(dtype).name
    if name not in LATTICE:
        raise TypeError(f"dtype {name} has no place in MLC's type promotion")
    if weak and name != "bool":
        return FLOAT_WEAK if np.dtype(dtype).kind == "f" else INT_WEAK
    return name


def _join(nodes) -> str:
    """The least upper bound of lattice nodes."""
    common = frozenset.intersection(*(_upper(n) for n in nodes))
    least = [n for n in common if _upper(n) == common]
    assert len(least) == 1, (nodes, common)
    return least[0]


def promote_types(a, b) -> np.dtype:
    """jax.numpy.promote_types: the dtype both a and b promote to (64-bit types enabled)."""
    bound = _join([_node(a, False), _node(b, False)])
    return _WEAK_AS_64.get(bound) or np.dtype(bound)


def join(dtypes_and_weak, default_int: np.dtype, default_float: np.dtype) -> tuple[np.dtype, bool]:
    """The (dtype, weak) of combining values given as (dtype, weak) pairs, as JAX's
    result_type: all inputs weak -> the strong bound, marked weak; else the bound of the
    lattice nodes, weak if it is a weak type. A weak bound takes the default dtype of its
    kind (Python scalars default to int32/float32 in MLC), or its 64-bit type when a 64-bit
    array or weak 64-bit value took part."""
    key = (*dtypes_and_weak, default_int, default_float)
    try:
        found = _JOINS.get(key)
    except TypeError:  # (an unhashable dtype-like: no memo)
        return _join_pairs(dtypes_and_weak, default_int, default_float)
    if found is None:
        found = _JOINS[key] = _join_pairs(dtypes_and_weak, default_int, default_float)
    return found


# join's answers by its arguments (dtypes, weak flags: immutable). Every elementwise op of
# a trace asks; a program asks about a handful of combinations.
_JOINS: dict = {}


def _join_pairs(dtypes_and_weak, default_int: np.dtype, default_float: np.dtype) -> tuple[np.dtype, bool]:
    pairs = [(np.dtype(d), bool(w)) for d, w in dtypes_and_weak]
    if all(d == pairs[0][0] for d, _ in pairs):
        dtype, weak = pairs[0][0], all(w for _, w in pairs)
        return dtype, weak and dtype != np.bool_
    if all(w for _, w in pairs):
        return np.dtype(_join([_node(d, False) for d, _ in pairs])), True
    bound = _join([_node(d, w) for d, w in pairs])
    if bound in _WEAK_AS_64:
        # A 64-bit array keeps 64 bits (u64 + i64 -> f64, i64 + 1.0 -> f64); else the default.
        # So does a weak 64-bit value: one only comes from a 64-bit array (Python scalars are
        # 32-bit), and JAX keeps it: i32 + (u64 + i32), a weak f64, is f64, not f32.
        wide = any(d.itemsize == 8 for d, _ in pairs)
        default = default_int if bound == INT_WEAK else default_float
        return (_WEAK_AS_64[bound] if wide else np.dtype(default)), True
    return np.dtype(bound), False
