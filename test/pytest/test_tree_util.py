"""Pytrees: NamedTuples come back as their own class through jit, None leaves stay None,
user classes registered with register_pytree_node work as arguments and results, and
mlc.tree_util's functions agree with JAX's documented behaviour."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
from mlc import tree_util as tu


class AdamState(NamedTuple):
    mu: dict
    nu: dict
    count: np.ndarray


class Linear:
    """A user class: weights are children, the activation name is static aux data."""

    def __init__(self, w, b, activation="relu"):
        self.w, self.b, self.activation = w, b, activation


tu.register_pytree_node(Linear, lambda m: ((m.w, m.b), m.activation), lambda aux, c: Linear(*c, activation=aux))


@tu.register_pytree_node_class
class Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def tree_flatten(self):
        return (self.a, self.b), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def params(rng):
    return {"w": rng.standard_normal((3, 2)).astype(np.float32), "b": np.zeros(2, np.float32)}


def test_namedtuple_state_round_trips_through_jit():
    rng = np.random.default_rng(0)
    p = params(rng)
    state = AdamState(mu=p, nu=p, count=np.int32(0))

    @mlc.jit
    def update(s, g):
        mu = tu.tree_map(lambda m, x: 0.9 * m + 0.1 * x, s.mu, g)
        return AdamState(mu=mu, nu=s.nu, count=s.count + 1)

    out = update(state, p)
    assert type(out) is AdamState
    assert set(out.mu) == {"w", "b"} and out.count == 1
    np.testing.assert_allclose(out.mu["w"], p["w"], rtol=1e-6)


def test_none_leaves_stay_none():
    out = mlc.jit(lambda x, nothing: (x * 2, None, {"a": None, "b": x}))(np.ones(2, np.float32), None)
    assert out[1] is None and out[2]["a"] is None
    np.testing.assert_array_equal(out[2]["b"], np.ones(2))


def test_registered_class_as_argument_and_result():
    rng = np.random.default_rng(1)
    layer = Linear(rng.standard_normal((3, 2)).astype(np.float32), np.ones(2, np.float32), "tanh")
    x = rng.standard_normal((4, 3)).astype(np.float32)

    @mlc.jit
    def apply(m, v):
        y = v @ m.w + m.b
        return Linear(m.w * 2, y.sum(axis=0), m.activation), (mnp.tanh(y) if m.activation == "tanh" else y)

    new, y = apply(layer, x)
    assert isinstance(new, Linear) and new.activation == "tanh"
    np.testing.assert_allclose(y, np.tanh(x @ layer.w + layer.b), rtol=1e-5)
    np.testing.assert_allclose(new.w, layer.w * 2)
    # aux data is part of the signature: another activation compiles again.
    apply(Linear(layer.w, layer.b, "relu"), x)
    assert apply.cache_info().misses == 2


def test_tree_functions():
    tree = {"b": [1, (2, None)], "a": AdamState(3, 4, 5), "c": Pair(6, 7)}
    leaves, treedef = tu.tree_flatten(tree)
    assert leaves == [3, 4, 5, 1, 2, 6, 7]  # dict keys sorted
    assert treedef.num_leaves == 7
    rebuilt = tu.tree_unflatten(treedef, [x * 10 for x in leaves])
    assert rebuilt["a"] == AdamState(30, 40, 50) and rebuilt["b"] == [10, (20, None)]
    assert isinstance(rebuilt["c"], Pair) and rebuilt["c"].b == 70
    assert tu.tree_leaves(tu.tree_map(lambda x, y: x + y, tree, tree)) == [2 * x for x in leaves]
    assert tu.tree_structure(tree) == treedef
    assert tu.tree_reduce(lambda a, b: a + b, tree) == sum(leaves)
    assert tu.tree_leaves([1, [2, 3], 4], is_leaf=lambda n: isinstance(n, list) and len(n) == 2) == [1, [2, 3], 4]
    with pytest.raises(ValueError, match="too few leaves"):
        treedef.unflatten([1, 2])
    with pytest.raises(ValueError, match="tree_map: tree 1 has structure"):
        tu.tree_map(lambda a, b: a, [1, 2], [1])


def test_dict_with_mixed_key_types():
    out = mlc.jit(lambda d: {k: v + 1 for k, v in d.items()})({1: np.ones(2), "a": np.zeros(2)})
    np.testing.assert_array_equal(out[1], 2 * np.ones(2))
    np.testing.assert_array_equal(out["a"], np.ones(2))


def test_registering_a_builtin_is_an_error():
    with pytest.raises(ValueError, match="already registered"):
        tu.register_pytree_node(tuple, lambda t: (t, None), lambda a, c: tuple(c))


@pytest.mark.parametrize("tree", ["list", "dict", "nested"])
def test_results_die_with_their_last_reference(tree):
    """A jit call's pytree results are freed as soon as the caller drops them, with the cyclic
    GC off: flatten/unflatten once recursed through closures that called themselves (a
    reference cycle holding the leaves), so results, and the result pool's blocks behind
    them, lived until a GC pass: pmean of 50 tensors allocated 19 MB of fresh pages per
    call (8 -> 60 ms)."""
    import gc
    import weakref
    rng = np.random.default_rng(5)
    x = rng.standard_normal((512, 600)).astype(np.float32)  # > the pool's MIN_BYTES
    wrap = {"list": lambda a: [a, a], "dict": lambda a: {"p": a, "q": a},
            "nested": lambda a: {"p": [a, (a, None)]}}[tree]
    f = mlc.jit(lambda t: mlc.tree_util.tree_map(lambda v: v * 2.0, t))
    f(wrap(x))
    gc.disable()
    try:
        out = f(wrap(x))
        leaves = mlc.tree_util.tree_leaves(out)
        np.testing.assert_array_equal(leaves[0], x * np.float32(2.0))
        refs = [weakref.ref(leaf) for leaf in leaves]
        del out, leaves
        assert all(r() is None for r in refs)
    finally:
        gc.enable()


def test_a_class_registered_after_it_was_a_leaf_becomes_a_node():
    """Types met as leaves are remembered (a fast path for arrays); registering one later
    makes it a node all the same."""
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

    assert len(tu.tree_leaves([Pair(1, 2), Pair(3, 4)])) == 2
    tu.register_pytree_node(Pair, lambda p: ((p.a, p.b), None), lambda _, c: Pair(*c))
    assert tu.tree_leaves([Pair(1, 2), Pair(3, 4)]) == [1, 2, 3, 4]


@pytest.mark.parametrize("tree", [
    [np.float32(1), np.float32(2)],                     # all of a leaf type met before: taken whole
    (np.float32(1), None, [np.float32(2)], {}),          # mixed: child by child
    {"b": [np.float32(1), 2.0], "a": (np.float32(3),)},  # dict values through the same path
    [[], (), [np.float32(4), [np.float32(5)]]],
])
def test_flatten_takes_whole_leaf_lists_with_the_same_structure(tree):
    """A container of leaves only is flattened in one step: the leaves, their order and the
    structure are those of the child-by-child walk (the first flatten, before the leaf types
    are known, walks child by child), and unflatten rebuilds the same tree."""
    from mlc.frontend import pytree
    known = set(pytree._LEAF_TYPES)
    try:
        pytree._LEAF_TYPES.clear()
        leaves, walked = pytree.flatten(tree)
        pytree._LEAF_TYPES.update({np.float32, float})
        fast_leaves, fast = pytree.flatten(tree)
    finally:
        pytree._LEAF_TYPES.clear()
        pytree._LEAF_TYPES.update(known)
    assert fast == walked and all(a is b for a, b in zip(fast_leaves, leaves)) and len(fast_leaves) == len(leaves)
    rebuilt = pytree.unflatten(fast, fast_leaves)
    assert pytree.flatten(rebuilt)[1] == walked and type(rebuilt) is type(tree)
    assert all(a is b for a, b in zip(pytree.flatten(rebuilt)[0], leaves))
