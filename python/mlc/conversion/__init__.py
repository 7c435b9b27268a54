"""Conversions out of the hlo dialect, and the lowering of linalg to the LLVM dialect."""
