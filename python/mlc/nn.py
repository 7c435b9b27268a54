"""mlc.nn: jax.nn's activations and normalizations: relu, relu6, gelu, sigmoid, silu/swish,
softplus, log_sigmoid, leaky_relu, elu, celu, selu, glu, hard_tanh, hard_sigmoid,
hard_silu/hard_swish, soft_sign, squareplus, mish, softmax, log_softmax, logsumexp,
standardize, one_hot, layer_norm (and erf)."""

from .frontend import methods as _methods  # noqa: F401  (binds Tracer operators)
from .frontend.eager import eager_namespace as _eager_namespace
from .frontend.nn import (celu, elu, erf, gelu, glu, hard_sigmoid, hard_silu, hard_swish, hard_tanh, layer_norm,
                          leaky_relu, log_sigmoid, log_softmax, logsumexp, mish, one_hot, relu, relu6, selu,
                          sigmoid, silu, soft_sign, softmax, softplus, softsign, squareplus, standardize, swish)

__all__ = ["relu", "relu6", "gelu", "sigmoid", "silu", "swish", "softplus", "log_sigmoid", "leaky_relu", "elu",
           "celu", "selu", "glu", "hard_tanh", "hard_sigmoid", "hard_silu", "hard_swish", "soft_sign", "softsign",
           "squareplus", "mish", "softmax", "log_softmax", "logsumexp", "standardize", "one_hot", "layer_norm",
           "erf"]
_eager_namespace(globals(), __all__)
