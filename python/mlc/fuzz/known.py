"""Known bugs: failures the bounded test and the long mode (`--skip-known`) let pass.

Each entry names the xfail regression test in test/pytest/test_fuzz_regressions.py that
tracks the bug and a regex matched against the failure message (or, for a crash or a
hang, against the reproducer). Delete an entry when its bug is fixed.
"""

from __future__ import annotations

import re

KNOWN_BUGS = {
    "test_reduce_window_empty_operand_drops_init": r"^$",  # a mismatch: matched in known() below
}


def known(failure: str, message: str, reproducer: str = "") -> str | None:
    """The regression test accounting for this failure, or None."""
    if failure == "fuzzer-error":
        return None
    text = reproducer if failure in ("crash", "hang") else message
    if failure == "mismatch" and message.startswith("O2:") and any(
            re.search(r"\(tensor<(\d+x)*0x", line)
            for line in reproducer.splitlines() if "hlo.reduce_window" in line):
        return "test_reduce_window_empty_operand_drops_init"
    for name, pattern in KNOWN_BUGS.items():
        if re.search(pattern, text):
            return name
    return None
