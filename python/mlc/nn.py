"""mlc.nn: relu, gelu, sigmoid, silu, softmax, log_softmax, logsumexp, one_hot, layer_norm."""

from .frontend import methods as _methods  # noqa: F401  (binds Tracer operators)
from .frontend.nn import erf, gelu, layer_norm, log_softmax, logsumexp, one_hot, relu, sigmoid, silu, softmax

__all__ = ["relu", "gelu", "sigmoid", "silu", "softmax", "log_softmax", "logsumexp", "one_hot",
           "layer_norm", "erf"]
