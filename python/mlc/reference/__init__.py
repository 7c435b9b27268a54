"""A reference interpreter of the `hlo` dialect in numpy: the oracle for differential tests.

`mlc.reference.run(module_or_text, *arrays, entry="main")` evaluates an hlo module op by op
and returns what `mlc.compile(text)(*arrays)` returns. One registry (`EVALUATORS`, op name
-> evaluator) is filled by the op-family modules: `elementwise` (arithmetic and float
functions), `integer` (bitwise ops and shifts), `conversion` (constant, iota, compare,
select, clamp, convert, bitcast_convert), `shape` (data movement, tensor.concat),
`indexing` (gather, scatter), `reduction` (reduce, argmax/argmin, reduce_window), `sort`,
`contraction` (dot_general, convolution) and `control` (func, scf, tensor, arith ops).
Each module's docstring states the semantics it implements.
"""

from __future__ import annotations

from . import (collectives, contraction, control, conversion, elementwise, indexing,  # noqa: F401
               integer, reduction, shape, sort)
from .interpreter import Interpreter, parse_and_verify, run
from .registry import EVALUATORS

__all__ = ["EVALUATORS", "Interpreter", "parse_and_verify", "run"]
