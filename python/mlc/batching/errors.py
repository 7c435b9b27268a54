"""The error vmap raises when an op (or a use of it) has no batched form."""

from __future__ import annotations

from mlir import ir

from ..autodiff.errors import describe


class BatchingError(ValueError):
    """An op of the program has no batching rule MLC can apply; `location` is the op's (the
    user's line when the program was traced)."""

    def __init__(self, message: str, location: ir.Location | None = None):
        self.message = message
        self.location = location
        where = describe(location)
        super().__init__(f"{where}: {message}" if where else message)
