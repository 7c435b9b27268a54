"""mlc.random: counter-based random numbers, bit for bit JAX's default generator.

A key is a uint32[2] array. Every draw is a pure function of (key, shape): Threefry-2x32
(20 rounds; Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011) of the
key and the row-major element counter split into (high, low) 32-bit words, the layout JAX
uses with `jax_threefry_partitionable` (its default). So

    bits(key, shape)      = y0 ^ y1,  (y0, y1) = threefry(key, (counter_hi, counter_lo))
    split(key, n)[i]      = (y0[i], y1[i]) over the counter i = 0 .. n-1
    fold_in(key, d)       = threefry(key, (0, d))
    uniform               = mantissa bits under the exponent of 1.0, minus 1, scaled
    normal                = sqrt(2) * erfinv(uniform(-1, 1))   (Giles' f32 erfinv)

The functions trace into hlo inside `mlc.jit`; called on concrete keys outside jit they
compile themselves once per shape (a key is then a numpy uint32 array).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..dialects import hlo
from . import math as m
from . import reductions as r
from .core import asarray, astype, broadcast_to, constant, element_type, wrap
from .shapes import reshape, stack
from .tracing import Tracer, emit, tracing_active

_U32 = np.dtype(np.uint32)
_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA  # Threefry's key-schedule constant


def _u32(value) -> Tracer:
    return constant(np.asarray(value, _U32))


def _rotate_left(x: Tracer, bits: int) -> Tracer:
    return m.bitwise_or(m.left_shift(x, _u32(bits)), m.right_shift(x, _u32(32 - bits)))


def threefry2x32(key: Tracer, x0: Tracer, x1: Tracer) -> tuple[Tracer, Tracer]:
    """Threefry-2x32 with 20 rounds of the counter words (x0, x1) under `key` (uint32[2])."""
    k0, k1 = key[0], key[1]
    keys = [k0, k1, m.bitwise_xor(m.bitwise_xor(k0, k1), _u32(_PARITY))]
    x0, x1 = m.add(x0, k0), m.add(x1, k1)
    for i in range(5):  # five groups of four rounds, a key injection after each
        for bits in _ROTATIONS[i % 2]:
            x0 = m.add(x0, x1)
            x1 = m.bitwise_xor(_rotate_left(x1, bits), x0)
        x0 = m.add(x0, keys[(i + 1) % 3])
        x1 = m.add(m.add(x1, keys[(i + 2) % 3]), _u32(i + 1))
    return x0, x1


def _counters(shape) -> tuple[Tracer, Tracer]:
    """The row-major index of every element of `shape` as (high, low) uint32 words."""
    n = math.prod(shape)
    if n >= 2 ** 64:
        raise ValueError(f"cannot draw {n} random values (at most 2^64 per key)")
    low = wrap(emit(hlo.iota, [n], element_type(_U32), 0))
    if n > 2 ** 32:
        wide = wrap(emit(hlo.iota, [n], element_type(np.dtype(np.uint64)), 0))
        high = astype(m.right_shift(wide, constant(np.asarray(32, np.uint64))), _U32)
    else:
        high = broadcast_to(_u32(0), (n,))
    return reshape(high, shape), reshape(low, shape)


def _shape(shape) -> tuple[int, ...]:
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)


def _check_key(key) -> Tracer:
    key = asarray(key)
    if key.shape != (2,) or key.dtype != _U32:
        raise TypeError(f"a random key is a uint32[2] array (from mlc.random.PRNGKey), got "
                        f"{key.dtype}{list(key.shape)}")
    return key


def _eager(fn):
    """Outside jit, `fn` compiles itself (per static arguments) and runs on numpy keys;
    array arguments (logits) are passed to the compiled function, the rest is static."""
    @functools.wraps(fn)
    def wrapper(key, *args, **kwargs):
        if tracing_active():
            return fn(key, *args, **kwargs)
        arrays = tuple(i for i, a in enumerate(args) if isinstance(a, np.ndarray))
        static = tuple(None if i in arrays else a for i, a in enumerate(args))
        compiled = _compiled(fn, static, arrays, tuple(sorted(kwargs.items())))
        return compiled(np.asarray(key), *[args[i] for i in arrays])
    return wrapper


@functools.lru_cache(maxsize=256)
def _compiled(fn, static, arrays, kwargs):
    from .jit import jit

    def call(key, *dynamic):
        args = list(static)
        for i, value in zip(arrays, dynamic):
            args[i] = value
        return fn(key, *args, **dict(kwargs))
    return jit(call)


def PRNGKey(seed) -> np.ndarray | Tracer:  # noqa: N802 - JAX's name
    """The key of an integer seed: [seed >> 32, seed & 0xFFFFFFFF] as uint32."""
    if isinstance(seed, Tracer):
        if seed.dtype.kind not in "iu":
            raise TypeError(f"a seed is an integer, got {seed.dtype}")
        low = astype(seed, _U32)
        high = astype(m.right_shift(astype(seed, np.int64), constant(np.asarray(32, np.int64))), _U32) \
            if seed.dtype.itemsize == 8 else _u32(0)
        return stack([high, low])
    seed = int(seed)
    return np.array([(seed >> 32) & 0xFFFFFFFF, seed & 0xFFFFFFFF], _U32)


key = PRNGKey


@_eager
def split(key, num: int = 2):
    """num new keys (num, 2) from one."""
    hi, lo = _counters((int(num),))
    y0, y1 = threefry2x32(_check_key(key), hi, lo)
    return stack([y0, y1], axis=-1)


def fold_in(key, data):
    """A new key from `key` and an integer (e.g. a step number)."""
    if not tracing_active():
        return _compiled_fold_in()(np.asarray(key), np.asarray(data, _U32))
    data = astype(asarray(data), _U32)
    y0, y1 = threefry2x32(_check_key(key), reshape(_u32(0), (1,)), reshape(data, (1,)))
    return reshape(stack([y0, y1]), (2,))


@functools.cache
def _compiled_fold_in():
    from .jit import jit
    return jit(fold_in)


@_eager
def bits(key, shape=(), dtype=np.uint32):
    """Uniform random bits: uint32 (or uint8/16, the low bits) of the given shape."""
    shape, dtype = _shape(shape), np.dtype(dtype)
    if dtype not in (np.dtype(np.uint8), np.dtype(np.uint16), _U32):
        raise TypeError(f"bits of dtype {dtype}: use uint8, uint16 or uint32")
    hi, lo = _counters(shape)
    y0, y1 = threefry2x32(_check_key(key), hi, lo)
    out = m.bitwise_xor(y0, y1)
    return out if dtype == _U32 else astype(out, dtype)


_MANTISSA = {np.dtype(np.float16): (10, 16, 0x3C00), np.dtype(np.float32): (23, 32, 0x3F800000)}


@_eager
def uniform(key, shape=(), dtype=np.float32, minval=0.0, maxval=1.0):
    """Floats in [minval, maxval): random mantissa bits under 1.0's exponent, minus 1."""
    shape, dtype = _shape(shape), np.dtype(dtype)
    if dtype not in _MANTISSA:
        raise TypeError(f"uniform of dtype {dtype}: float16 or float32")
    mantissa, width, one = _MANTISSA[dtype]
    uint = np.dtype(f"uint{width}")
    raw = bits(key, shape, uint)
    field = m.bitwise_or(m.right_shift(raw, constant(np.asarray(width - mantissa, uint))),
                         constant(np.asarray(one, uint)))
    unit = m.subtract(wrap(emit(hlo.bitcast_convert, field.value, element_type(dtype))), constant(np.asarray(1, dtype)))
    lo, hi = constant(np.asarray(minval, dtype)), constant(np.asarray(maxval, dtype))
    scaled = m.add(m.multiply(unit, m.subtract(hi, lo)), lo)
    return m.maximum(lo, scaled)


def _erfinv(x: Tracer) -> Tracer:
    """erfinv in f32 (M. Giles, "Approximating the erfinv function", GPU Gems 2010)."""
    w = m.negative(m.log(m.multiply(m.subtract(1.0, x), m.add(1.0, x))))
    central = m.subtract(w, 2.5)
    p = None
    for c in (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
              -0.00125372503, -0.00417768164, 0.246640727, 1.50140941):
        p = constant(np.float32(c)) if p is None else m.add(m.multiply(p, central), np.float32(c))
    tail = m.subtract(m.sqrt(w), 3.0)
    q = None
    for c in (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
              -0.0076224613, 0.00943887047, 1.00167406, 2.83297682):
        q = constant(np.float32(c)) if q is None else m.add(m.multiply(q, tail), np.float32(c))
    return m.multiply(m.where(m.less(w, 5.0), p, q), x)


@_eager
def normal(key, shape=(), dtype=np.float32):
    """Standard normal values: sqrt(2) * erfinv(u), u uniform in (-1, 1)."""
    shape, dtype = _shape(shape), np.dtype(dtype)
    lo = np.nextafter(np.float32(-1), np.float32(0))
    u = uniform(key, shape, np.float32, lo, 1.0)
    return astype(m.multiply(np.float32(math.sqrt(2)), _erfinv(u)), dtype)


@_eager
def bernoulli(key, p=0.5, shape=()):
    """True with probability p (a dropout mask is bernoulli(key, keep, x.shape))."""
    return m.less(uniform(key, _shape(shape)), p)


@_eager
def randint(key, shape, minval, maxval, dtype=np.int32):
    """Integers in [minval, maxval): two 32-bit draws combined modulo the span, as JAX (an
    empty range gives minval)."""
    shape, dtype = _shape(shape), np.dtype(dtype)
    if dtype.kind not in "iu" or dtype.itemsize > 4:
        raise TypeError(f"randint of dtype {dtype}: an integer type of at most 32 bits")
    nbits = 32  # 8- and 16-bit types draw 32 bits too, as JAX
    uint = _U32
    info = np.iinfo(dtype)
    lo, hi = max(int(minval), info.min), min(int(maxval), info.max)
    span = hi - lo if hi > lo else 1
    k1, k2 = split(key)
    higher, lower = bits(k1, shape, uint), bits(k2, shape, uint)
    # higher * 2^32 + lower modulo the span, in 32-bit (wrapping) arithmetic: the weight
    # of the higher draw is 2^32 mod span = (2^16 mod span)^2 mod span.
    multiplier = (pow(2, nbits // 2, span) ** 2) % span
    span_u = constant(np.asarray(span, uint))
    offset = m.remainder(m.add(m.multiply(m.remainder(higher, span_u), constant(np.asarray(multiplier, uint))),
                               m.remainder(lower, span_u)), span_u)
    return astype(m.add(astype(offset, np.int64), constant(np.asarray(lo, np.int64))), dtype)


@_eager
def categorical(key, logits, axis=-1):
    """Indices drawn with probabilities softmax(logits) along `axis` (Gumbel-max)."""
    logits = asarray(logits)
    tiny = np.finfo(np.float32).tiny
    u = uniform(key, logits.shape, np.float32, tiny, 1.0)
    gumbel = m.negative(m.log(m.negative(m.log(u))))
    return r.argmax(m.add(logits, gumbel), axis=axis)


@_eager
def permutation(key, n: int):
    """A random permutation of range(n): rounds of sorting by random bits (stable)."""
    n = int(n)
    x = wrap(emit(hlo.iota, [n], element_type(np.dtype(np.int32)), 0))
    rounds = math.ceil(3 * math.log(max(1, n)) / math.log(2 ** 32 - 1))
    for _ in range(rounds):
        key, sub = split(key)
        order = wrap(emit(hlo.argsort, bits(sub, (n,)).value, 0, index_type=element_type(np.dtype(np.int32))))
        x = x[order]
    return x


__all__ = ["PRNGKey", "key", "split", "fold_in", "bits", "uniform", "normal", "bernoulli", "randint",
           "categorical", "permutation", "threefry2x32"]
