"""StableHLO import: run (and differentiate) the programs JAX and other frontends export.

`to_hlo(text)` converts StableHLO text, in the generic form or the pretty form `as_text()`
prints, to hlo text; `load(text_or_path)` gives a callable program (numpy in and out, or
traced values inside mlc.jit / mlc.grad). Unsupported input raises StableHloError naming
the op and its line."""

from .errors import StableHloError
from .importer import is_stablehlo, parse_stablehlo, to_hlo, to_hlo_module
from .program import Program, load

__all__ = ["StableHloError", "Program", "load", "to_hlo", "to_hlo_module", "is_stablehlo",
           "parse_stablehlo"]
