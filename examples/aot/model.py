"""A small classifier exported ahead of time: softmax(relu(x @ W1 + b1) @ W2 + b2).

    python examples/aot/model.py OUT_DIR     # writes OUT_DIR/libclassifier.so, classifier.h

The weights are constants of the compiled code (closed over, from a fixed seed), so the C
program passes only the batch `x` (4 x 16 float32) and gets the probabilities (4 x 10).
"""

from __future__ import annotations

import os
import sys

import numpy as np

import mlc
import mlc.nn as nn
import mlc.numpy as mnp

BATCH, FEATURES, HIDDEN, CLASSES = 4, 16, 32, 10
_rng = np.random.default_rng(0)
W1 = (_rng.standard_normal((FEATURES, HIDDEN)) / 4).astype(np.float32)
B1 = (_rng.standard_normal(HIDDEN) / 10).astype(np.float32)
W2 = (_rng.standard_normal((HIDDEN, CLASSES)) / 6).astype(np.float32)
B2 = (_rng.standard_normal(CLASSES) / 10).astype(np.float32)


@mlc.jit
def classifier(x):
    hidden = mnp.maximum(x @ W1 + B1, 0.0)
    return nn.softmax(hidden @ W2 + B2)


def example_input() -> np.ndarray:
    """The batch main.c builds: x[i][j] = ((i * 16 + j) % 7) * 0.25 - 0.75."""
    return ((np.arange(BATCH * FEATURES) % 7) * 0.25 - 0.75).astype(np.float32).reshape(BATCH, FEATURES)


def reference(x: np.ndarray) -> np.ndarray:
    """numpy's answer, to check the exported library against."""
    logits = np.maximum(x @ W1 + B1, 0) @ W2 + B2
    e = np.exp(logits - logits.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def export(out_dir: str, cpu: str = "portable") -> tuple[str, str]:
    """Compiles `classifier` for a (4, 16) float32 batch and exports it; returns (library, header)."""
    os.makedirs(out_dir, exist_ok=True)
    library = os.path.join(out_dir, "libclassifier.so")
    compiled = classifier.lower(example_input()).compile()
    header = compiled.export_library(library, name="classifier", cpu=cpu)
    return library, header


if __name__ == "__main__":
    library, header = export(sys.argv[1] if len(sys.argv) > 1 else "build")
    print(f"wrote {library} and {header}")
