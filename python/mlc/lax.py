"""mlc.lax: cond, switch, while_loop, fori_loop, scan, map, dot_general, conv_general_dilated,
reduce_window, reduce, dynamic_slice/dynamic_update_slice, select_n, top_k, the running
reductions cumsum/cumprod/cummax/cummin, erf/erfc/erf_inv/rsqrt, stop_gradient (jax.lax's
signatures), add/mul/max/min as reduction computations, and the collectives
psum/pmean/pmax/pmin/all_gather/psum_scatter/pbroadcast over the "processes" axis (mlc.distributed)."""

from .frontend import methods as _methods  # noqa: F401  (binds Tracer operators)
from .frontend.collectives import all_gather, pbroadcast, pmax, pmean, pmin, psum, psum_scatter
from .frontend.eager import eager_namespace as _eager_namespace
from .frontend.lax import (add, cond, conv_general_dilated, dot_general, fori_loop, max, min, mul,  # noqa: A004
                           reduce_window, scan, while_loop)
from .frontend.lax_extra import (broadcast, convert_element_type, cummax, cummin, cumprod, cumsum,
                                 dynamic_index_in_dim, dynamic_slice, dynamic_update_slice, integer_pow, iota,
                                 map, reduce, select_n, square, stop_gradient, switch)  # noqa: A004
from .frontend.math import abs, ceil, cos, exp, floor, log, log1p, rsqrt, sign, sin, sqrt, tanh  # noqa: A004
from .frontend.math import expm1
from .frontend.math import sigmoid as logistic
from .frontend.math import negative as neg
from .frontend.special import erf, erf_inv, erfc
from .frontend.sorting import top_k

__all__ = ["cond", "switch", "while_loop", "fori_loop", "scan", "map", "dot_general", "conv_general_dilated",
           "reduce_window", "reduce", "dynamic_slice", "dynamic_update_slice", "dynamic_index_in_dim", "select_n",
           "top_k", "cumsum", "cumprod", "cummax", "cummin", "erf", "erfc", "erf_inv", "rsqrt", "stop_gradient",
           "add", "mul", "max", "min", "abs", "neg", "sign", "floor", "ceil", "exp", "expm1", "log", "log1p",
           "sqrt", "sin", "cos", "tanh", "logistic", "square", "integer_pow", "broadcast", "iota",
           "convert_element_type", "psum", "pmean", "pmax", "pmin", "all_gather", "psum_scatter",
           "pbroadcast"]
# Control flow, collectives and the reduction computations keep their plain form (they
# take functions or name axes); the array functions also run outside jit.
_eager_namespace(globals(), [n for n in __all__ if n not in (
    "cond", "while_loop", "fori_loop", "scan", "add", "mul", "max", "min", "psum", "pmean",
    "pmax", "pmin", "all_gather", "psum_scatter", "pbroadcast", "stop_gradient")])
