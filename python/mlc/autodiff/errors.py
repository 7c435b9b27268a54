"""The error autodiff raises when a program cannot be differentiated."""

from __future__ import annotations

from ..diagnostics import LocatedError
from ..diagnostics import user_line as describe  # noqa: F401  (the name other modules import)


class DifferentiationError(LocatedError, TypeError):
    """This program (or this op of it) has no derivative MLC can build; `location` is the
    op's (the user's line when the program was traced)."""
