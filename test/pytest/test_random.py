"""mlc.random against stored jax.random values (test/pytest/data/random_jax.json, written by
tools/gen_random_fixtures.py with jax 0.10.2): keys, split, fold_in, bits, uniform,
randint, bernoulli, categorical and permutation bit for bit; normal within 2 ulp (MLC's
f32 erfinv polynomial is Giles', as XLA's, but rounds differently); eager and under jit."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
import mlc.random as random

DATA = json.loads((Path(__file__).parent / "data" / "random_jax.json").read_text())
CASES = {c["seed"]: c for c in DATA["cases"]}
LOGITS = np.log(np.array([[0.1, 0.2, 0.7]] * 6, np.float32))


def key_of(case) -> np.ndarray:
    return np.array(case["key"], np.uint32)


@pytest.mark.parametrize("seed", CASES)
def test_keys(seed):
    np.testing.assert_array_equal(random.PRNGKey(seed), CASES[seed]["key"])
    assert random.PRNGKey(seed).dtype == np.uint32


DRAWS = {
    "split3": (lambda k: random.split(k, 3), np.uint32),
    "fold_in7": (lambda k: random.fold_in(k, 7), np.uint32),
    "bits_2x3": (lambda k: random.bits(k, (2, 3)), np.uint32),
    "bits_u8": (lambda k: random.bits(k, (5,), np.uint8), np.uint8),
    "uniform_f32": (lambda k: random.uniform(k, (7,)).view(np.uint32), np.uint32),
    "uniform_f16": (lambda k: random.uniform(k, (7,), np.float16).view(np.uint16), np.uint16),
    "randint_0_10": (lambda k: random.randint(k, (8,), 0, 10), np.int32),
    "randint_neg": (lambda k: random.randint(k, (8,), -5, 1000), np.int32),
    "randint_i8": (lambda k: random.randint(k, (8,), 0, 100, np.int8), np.int8),
    "bernoulli": (lambda k: random.bernoulli(k, 0.3, (10,)), np.bool_),
    "categorical": (lambda k: random.categorical(k, LOGITS), np.int32),
    "permutation10": (lambda k: random.permutation(k, 10), np.int32),
}


@pytest.mark.parametrize("name", DRAWS)
@pytest.mark.parametrize("seed", CASES)
def test_bit_exact_with_jax_eagerly(name, seed):
    fn, dtype = DRAWS[name]
    got = fn(key_of(CASES[seed]))
    want = np.array(CASES[seed][name], dtype)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed", CASES)
def test_bit_exact_inside_jit(seed):
    case = CASES[seed]

    @mlc.jit
    def draws(k):
        k1, k2 = random.split(k)
        return (random.split(k, 3), random.uniform(k, (7,)), random.bits(k, (2, 3)),
                random.randint(k, (8,), 0, 10), random.permutation(k, 10), k1, k2)

    split3, uniform, bits, randint, perm, k1, k2 = draws(key_of(case))
    np.testing.assert_array_equal(split3, case["split3"])
    np.testing.assert_array_equal(uniform.view(np.uint32), case["uniform_f32"])
    np.testing.assert_array_equal(bits, case["bits_2x3"])
    np.testing.assert_array_equal(randint, case["randint_0_10"])
    np.testing.assert_array_equal(perm, case["permutation10"])
    np.testing.assert_array_equal(np.stack([k1, k2]), random.split(key_of(case), 2))


@pytest.mark.parametrize("seed", CASES)
def test_normal_and_ranges_close_to_jax(seed):
    case = CASES[seed]
    np.testing.assert_allclose(random.normal(key_of(case), (9,)), case["normal"], rtol=3e-7, atol=3e-7)
    got = random.uniform(key_of(case), (4,), minval=-3.0, maxval=5.0)
    np.testing.assert_allclose(got, case["uniform_range"], rtol=1e-7)


def test_distributions_are_plausible():
    """Moments of 1e6 draws (seeded): a check that no bit pattern is systematically off."""
    k = random.PRNGKey(0)
    u = random.uniform(k, (1_000_000,))
    n = random.normal(k, (1_000_000,))
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 2e-3
    assert abs(n.mean()) < 5e-3 and abs(n.std() - 1) < 5e-3
    counts = np.bincount(random.randint(k, (100_000,), 0, 7), minlength=7)
    assert counts.min() > 13_500 and counts.max() < 15_100
    assert sorted(random.permutation(k, 1000)) == list(range(1000))


def test_dropout_mask_in_a_training_step():
    @mlc.jit
    def dropout(k, x):
        keep = random.bernoulli(k, 0.9, x.shape)
        return mnp.where(keep, x / 0.9, 0.0)

    x = np.ones((256, 256), np.float32)
    y = dropout(random.PRNGKey(3), x)
    assert abs((y == 0).mean() - 0.1) < 0.01
    np.testing.assert_array_equal(y, dropout(random.PRNGKey(3), x))  # same key, same mask


def test_a_wrong_key_is_a_type_error():
    with pytest.raises(TypeError, match="a random key is a uint32\\[2\\] array"):
        random.uniform(np.zeros(3, np.uint32), (2,))
