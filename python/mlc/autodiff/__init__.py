"""Automatic differentiation as a transformation of hlo IR.

`rules/` holds one derivative rule per op (registered in `registry.py`), `vjp.py` and
`jvp.py` the reverse and forward walkers over a list of ops, `functions.py` the derivative
functions the `hlo-grad` / `hlo-jvp` passes build, and `api.py` / `custom.py` JAX's API
(grad, value_and_grad, vjp, jvp, jacfwd, jacrev, hessian, custom_vjp, custom_jvp,
stop_gradient) on top of the tracer. The API modules import the frontend; everything else
only the dialect, so the passes work on any hlo module.
"""

from .errors import DifferentiationError

_API = ("grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "hessian")
_CUSTOM = ("custom_vjp", "custom_jvp", "stop_gradient")

__all__ = ["DifferentiationError", *_API, *_CUSTOM]


def __getattr__(name):
    # The API needs the frontend, which the passes do not: import it on first use.
    if name in _API:
        from . import api
        return getattr(api, name)
    if name in _CUSTOM:
        from . import custom
        return getattr(custom, name)
    raise AttributeError(name)
