"""hlo-simplify's patterns, one module per op family; importing them registers them."""

from . import dot, elementwise, gather, reduce, shape  # noqa: F401
