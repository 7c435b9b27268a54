"""mlc.lax: cond, while_loop, fori_loop, scan, dot_general, conv_general_dilated, reduce_window
(jax.lax's signatures), add/mul/max/min for reduce_window's computation, and the
collectives psum/pmean/pmax/pmin/all_gather/psum_scatter over the "processes" axis (mlc.distributed)."""

from .frontend import methods as _methods  # noqa: F401  (binds Tracer operators)
from .frontend.lax import (add, cond, conv_general_dilated, dot_general, fori_loop, max, min, mul,  # noqa: A004
                           reduce_window, scan, while_loop)
from .frontend.collectives import all_gather, pbroadcast, pmax, pmean, pmin, psum, psum_scatter

__all__ = ["cond", "while_loop", "fori_loop", "scan", "dot_general", "conv_general_dilated", "reduce_window",
           "add", "mul", "max", "min", "psum", "pmean", "pmax", "pmin", "all_gather", "psum_scatter",
           "pbroadcast"]
