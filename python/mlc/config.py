"""The one place MLC reads environment variables.

MLC_DUMP_DIR=dir     write the IR of every stage of every jit compile into dir
MLC_LOG_COMPILES=1   log each jit compile (signature, and what changed on a re-compile)
MLC_NUM_THREADS=n    reserved for the CPU backend's thread count
"""

from __future__ import annotations

import os


def dump_dir() -> str | None:
    return os.environ.get("MLC_DUMP_DIR") or None


def log_compiles() -> bool:
    return os.environ.get("MLC_LOG_COMPILES", "0") not in ("", "0", "false", "False")
