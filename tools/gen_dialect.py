#!/usr/bin/env python3
"""Regenerates dialects/hlo.irdl.mlir and docs/dialect.md from the hlo op table.

    python tools/gen_dialect.py          # write both files
    python tools/gen_dialect.py --check  # exit 1 if either is out of date
"""

import sys
from pathlib import Path

from mlc.dialects.hlo.docs import dialect_markdown
from mlc.dialects.hlo.irdl import irdl_text

ROOT = Path(__file__).resolve().parent.parent
OUTPUTS = {ROOT / "dialects" / "hlo.irdl.mlir": irdl_text, ROOT / "docs" / "dialect.md": dialect_markdown}


def main() -> int:
    check = "--check" in sys.argv[1:]
    stale = []
    for path, generate in OUTPUTS.items():
        text = generate()
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.relative_to(ROOT))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    for path in stale:
        print(f"{path} is out of date: run python tools/gen_dialect.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
