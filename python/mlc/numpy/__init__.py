"""mlc.numpy: numpy's names and signatures, for functions traced by `mlc.jit`.

    import mlc, mlc.numpy as mnp

    @mlc.jit
    def f(x, w):
        return mnp.tanh(x @ w).sum(axis=-1)
"""

import numpy as _np

from ..frontend import methods as _methods  # noqa: F401  (binds Tracer operators)
from ..frontend.core import asarray, astype, broadcast_arrays, broadcast_to
from ..frontend.core import result_dtype as result_type
from ..frontend.creation import arange, eye, full, full_like, linspace, ones, ones_like, zeros, zeros_like
from ..frontend.indexing import getitem as _getitem  # noqa: F401
from ..frontend.linalg import dot, einsum, matmul, tensordot
from ..frontend.math import *  # noqa: F401,F403
from ..frontend.math import __all__ as _math_names
from ..frontend.promotion import promote_types
from ..frontend.reductions import (all, amax, amin, any, argmax, argmin, cumsum, max, mean, min,  # noqa: A004
                                   prod, std, sum, var)
from ..frontend.shapes import (concatenate, expand_dims, flip, moveaxis, pad, ravel, repeat, reshape,
                               split, squeeze, stack, swapaxes, tile, transpose)

array = asarray
float16, float32, float64 = _np.float16, _np.float32, _np.float64
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
bool_ = _np.bool_
pi, e, inf, nan = _np.pi, _np.e, _np.inf, _np.nan
newaxis = None


def __getattr__(name):
    if hasattr(_np, name):
        raise NotImplementedError(f"mlc.numpy.{name} is not implemented (numpy has it; MLC does not "
                                  f"compile it yet)")
    raise AttributeError(f"module 'mlc.numpy' has no attribute {name!r}")
