"""mlc.numpy.linalg: det, slogdet, solve, inv, cholesky, matrix_power and norm for small
dense matrices (frontend/dense_linalg.py says how), batched over leading axes."""

from ..frontend.dense_linalg import cholesky, det, inv, matrix_power, norm, slogdet, solve
from ..frontend.eager import eager_namespace as _eager_namespace

__all__ = ["cholesky", "det", "inv", "matrix_power", "norm", "slogdet", "solve"]
_eager_namespace(globals(), __all__)


def __getattr__(name):
    import numpy as _np
    if hasattr(_np.linalg, name):
        raise NotImplementedError(f"mlc.numpy.linalg.{name} is not implemented (numpy has it; MLC does not "
                                  f"compile it yet)")
    raise AttributeError(f"module 'mlc.numpy.linalg' has no attribute {name!r}")
