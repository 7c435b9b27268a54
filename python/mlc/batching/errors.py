"""The error vmap raises when an op (or a use of it) has no batched form."""

from __future__ import annotations

from ..diagnostics import LocatedError


class BatchingError(LocatedError, ValueError):
    """An op of the program has no batching rule MLC can apply; `location` is the op's (the
    user's line when the program was traced)."""
