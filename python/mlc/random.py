"""mlc.random: JAX's counter-based random numbers (Threefry-2x32), bit for bit.

    key = mlc.random.PRNGKey(0)
    key, sub = mlc.random.split(key)
    w = mlc.random.normal(sub, (784, 128)) * 0.01
"""

from .frontend import methods as _methods  # noqa: F401  (binds Tracer operators)
from .frontend.random import (PRNGKey, bernoulli, bits, categorical, fold_in, key, normal, permutation,
                              randint, split, threefry2x32, uniform)

__all__ = ["PRNGKey", "key", "split", "fold_in", "bits", "uniform", "normal", "bernoulli", "randint",
           "categorical", "permutation", "threefry2x32"]
