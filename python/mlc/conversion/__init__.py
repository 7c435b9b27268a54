"""Conversions out of the hlo dialect, and the passes that lower linalg to the LLVM dialect
(mlc/pipelines.py orders them)."""
