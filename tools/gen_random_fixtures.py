"""Regenerates test/pytest/data/random_jax.json: values of jax.random (jax 0.10.2, its
default Threefry generator) that test_random.py compares mlc.random with.

    pip install jax==0.10.2 && python tools/gen_random_fixtures.py

Run it in its own process: jax's MLIR bindings cannot share a process with MLC's.
"""

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

SEEDS = [0, 42, 2**40 + 7]


def main() -> None:
    cases = []
    for seed in SEEDS:  # 32-bit mode (jax's default); a seed past 2^32 as its raw key words
        key = jnp.array([seed >> 32, seed & 0xFFFFFFFF], jnp.uint32)
        logits = jnp.log(jnp.array([[0.1, 0.2, 0.7]] * 6, jnp.float32))
        cases.append({
            "seed": seed,
            "key": key.tolist(),
            "split3": jax.random.split(key, 3).tolist(),
            "fold_in7": jax.random.fold_in(key, 7).tolist(),
            "bits_2x3": jax.random.bits(key, (2, 3)).tolist(),
            "bits_u8": jax.random.bits(key, (5,), jnp.uint8).tolist(),
            "uniform_f32": np.asarray(jax.random.uniform(key, (7,))).view(np.uint32).tolist(),
            "uniform_f16": np.asarray(jax.random.uniform(key, (7,), jnp.float16)).view(np.uint16).tolist(),
            "uniform_range": np.asarray(jax.random.uniform(key, (4,), minval=-3.0, maxval=5.0)).tolist(),
            "normal": np.asarray(jax.random.normal(key, (9,))).tolist(),
            "randint_0_10": jax.random.randint(key, (8,), 0, 10).tolist(),
            "randint_neg": jax.random.randint(key, (8,), -5, 1000).tolist(),
            "randint_i8": jax.random.randint(key, (8,), 0, 100, jnp.int8).tolist(),
            "bernoulli": jax.random.bernoulli(key, 0.3, (10,)).tolist(),
            "categorical": jax.random.categorical(key, logits).tolist(),
            "permutation10": jax.random.permutation(key, 10).tolist(),
        })
    out = Path(__file__).resolve().parents[1] / "test" / "pytest" / "data" / "random_jax.json"
    out.write_text(json.dumps({"jax": jax.__version__, "cases": cases}, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
