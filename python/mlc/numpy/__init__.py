"""mlc.numpy: numpy's names and signatures, for functions traced by `mlc.jit`.

    import mlc, mlc.numpy as mnp

    @mlc.jit
    def f(x, w):
        return mnp.tanh(x @ w).sum(axis=-1)

Outside jit the functions also run on numpy arrays (each compiles itself once per
signature: frontend/eager.py). A numpy name MLC does not compile raises
NotImplementedError saying so.
"""

import numpy as _np

from ..frontend import methods as _methods  # noqa: F401  (binds Tracer operators)
from ..frontend.closeness import allclose, array_equal, array_equiv, isclose, nan_to_num
from ..frontend.core import asarray, astype, broadcast_arrays, broadcast_to
from ..frontend.core import result_dtype as result_type
from ..frontend.creation import arange, eye, full, full_like, linspace, ones, ones_like, zeros, zeros_like
from ..frontend.eager import eager_namespace as _eager_namespace
from ..frontend.indexing import getitem as _getitem  # noqa: F401
from ..frontend.linalg import dot, einsum, matmul, tensordot
from ..frontend.math import *  # noqa: F401,F403
from ..frontend.math import __all__ as _math_names
from ..frontend.nan_reductions import (nanargmax, nanargmin, nancumprod, nancumsum, nanmax, nanmean, nanmin,
                                       nanprod, nanstd, nansum, nanvar)
from ..frontend.products import cross, inner, kron, outer, vdot
from ..frontend.promotion import promote_types
from ..frontend.reductions import (all, amax, amin, any, argmax, argmin, max, mean, min,  # noqa: A004
                                   prod, std, sum, var)
from ..frontend.polynomial import polyval
from ..frontend.scans import cummax, cummin, cumprod, cumsum, diff, ediff1d, trapezoid
from ..frontend.selection import (argwhere, count_nonzero, diag, diagonal, flatnonzero, nonzero, ravel_multi_index,
                                  take, take_along_axis, trace, tril, triu, unravel_index)
from ..frontend.shapes import (concatenate, expand_dims, flip, moveaxis, pad, ravel, repeat, reshape,
                               split, squeeze, stack, swapaxes, tile, transpose)
from ..frontend.sorting import (argpartition, argsort, digitize, isin, lexsort, median, nanmedian, nanpercentile,
                                nanquantile, partition, percentile, quantile, searchsorted, sort, unique)
from ..frontend.stacking import (atleast_1d, atleast_2d, atleast_3d, column_stack, dstack, empty, empty_like,
                                 fliplr, flipud, hstack, identity, meshgrid, ndim, roll, rot90, shape, size, tri,
                                 vstack)
from ..frontend.statistics import average, bincount, corrcoef, cov, histogram, histogram_bin_edges, interp, ptp
from ..frontend.tracing import Tracer as _Tracer
from ..frontend.transcendental import (arccos, arccosh, arcsin, arcsinh, arctan, arctanh, cosh, deg2rad, degrees,
                                       exp2, heaviside, hypot, log2, log10, logaddexp, logaddexp2, rad2deg, radians,
                                       sinc, sinh)
from . import linalg  # noqa: E402

array = asarray
float16, float32, float64 = _np.float16, _np.float32, _np.float64
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
bool_ = _np.bool_
pi, e, inf, nan, euler_gamma = _np.pi, _np.e, _np.inf, _np.nan, _np.euler_gamma
newaxis = None
# The abstract dtype classes, for issubdtype(x.dtype, mnp.floating).
dtype, generic, number, inexact, floating, integer = _np.dtype, _np.generic, _np.number, _np.inexact, \
    _np.floating, _np.integer
signedinteger, unsignedinteger, issubdtype = _np.signedinteger, _np.unsignedinteger, _np.issubdtype
# bfloat16 is not here: MLC's dtypes are numpy's, and numpy has no bfloat16.


def _dtype_of(x):
    return x.dtype if isinstance(x, (_Tracer, _np.ndarray, _np.generic)) else x


def finfo(dtype):
    """numpy.finfo (machine limits of a float dtype, of an array's dtype too)."""
    return _np.finfo(_dtype_of(dtype))


def iinfo(int_type):
    """numpy.iinfo (limits of an integer dtype, of an array's dtype too)."""
    return _np.iinfo(_dtype_of(int_type))


def can_cast(from_, to, casting="safe"):
    return _np.can_cast(_dtype_of(from_), to, casting)


_NOT_ARRAY_FUNCTIONS = {"result_type", "promote_types", "finfo", "iinfo", "issubdtype", "can_cast", "ndim",
                        "shape", "size", "dtype"}
_eager_namespace(globals(), [n for n in list(globals()) if not n.startswith("_") and n not in _NOT_ARRAY_FUNCTIONS])


def __getattr__(name):
    if hasattr(_np, name):
        raise NotImplementedError(f"mlc.numpy.{name} is not implemented (numpy has it; MLC does not "
                                  f"compile it yet)")
    raise AttributeError(f"module 'mlc.numpy' has no attribute {name!r}")
