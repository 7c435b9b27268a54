"""Known bugs: failures the bounded test and the long mode (`--skip-known`) let pass.

Each entry names the xfail regression test in test/pytest/fuzz/test_fuzz_regressions.py that
tracks the bug and a regex matched against the failure message (or, for a crash or a
hang, against the reproducer). Delete an entry when its bug is fixed.
"""

from __future__ import annotations

import re

KNOWN_BUGS: dict[str, str] = {}


def known(failure: str, message: str, reproducer: str = "") -> str | None:
    """The regression test accounting for this failure, or None."""
    if failure == "fuzzer-error":
        return None
    text = reproducer if failure in ("crash", "hang") else message
    for name, pattern in KNOWN_BUGS.items():
        if re.search(pattern, text):
            return name
    return None
