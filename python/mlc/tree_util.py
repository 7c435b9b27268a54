"""mlc.tree_util: JAX's pytree functions (tree_map, tree_leaves, tree_flatten, ...).

    params = {"w": w, "b": b}
    grads = mlc.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)

Containers are tuples, lists, dicts (sorted keys), NamedTuples and classes registered with
`register_pytree_node`; None is an empty node; everything else is a leaf.
"""

from __future__ import annotations

from typing import Any, Callable

from .frontend.pytree import (flatten, num_leaves, register_pytree_node, register_pytree_node_class,
                              unflatten)

__all__ = ["PyTreeDef", "tree_flatten", "tree_unflatten", "tree_leaves", "tree_structure", "tree_map",
           "tree_reduce", "tree_all", "register_pytree_node", "register_pytree_node_class"]


class PyTreeDef:
    """The structure of a pytree, without its leaves (hashable, comparable)."""

    def __init__(self, structure):
        self.structure = structure

    @property
    def num_leaves(self) -> int:
        return num_leaves(self.structure)

    def unflatten(self, leaves) -> Any:
        leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(f"too {'many' if len(leaves) > self.num_leaves else 'few'} leaves for "
                             f"{self}: expected {self.num_leaves}, got {len(leaves)}")
        return unflatten(self.structure, leaves)

    def __eq__(self, other) -> bool:
        return isinstance(other, PyTreeDef) and self.structure == other.structure

    def __hash__(self) -> int:
        return hash(self.structure)

    def __repr__(self) -> str:
        return f"PyTreeDef({_describe(self.structure)})"


def _describe(s) -> str:
    kind = s[0]
    if kind == "*":
        return "*"
    if kind == "none":
        return "None"
    if kind == "tuple":
        return "(" + ", ".join(_describe(c) for c in s[1]) + ("," if len(s[1]) == 1 else "") + ")"
    if kind == "list":
        return "[" + ", ".join(_describe(c) for c in s[1]) + "]"
    if kind == "dict":
        return "{" + ", ".join(f"{k!r}: {_describe(c)}" for k, c in zip(s[1], s[2])) + "}"
    if kind == "namedtuple":
        return f"{s[1].__name__}(" + ", ".join(_describe(c) for c in s[2]) + ")"
    return f"CustomNode({s[1].__name__}[{s[2]!r}], [" + ", ".join(_describe(c) for c in s[3]) + "])"


def tree_flatten(tree, is_leaf: Callable | None = None) -> tuple[list, PyTreeDef]:
    leaves, structure = flatten(tree, is_leaf)
    return leaves, PyTreeDef(structure)


def tree_unflatten(treedef: PyTreeDef, leaves) -> Any:
    return treedef.unflatten(leaves)


def tree_leaves(tree, is_leaf: Callable | None = None) -> list:
    return flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf: Callable | None = None) -> PyTreeDef:
    return PyTreeDef(flatten(tree, is_leaf)[1])


def tree_map(f: Callable, tree, *rest, is_leaf: Callable | None = None) -> Any:
    """f applied leaf by leaf to `tree` and the trees in `rest`, which must have tree's
    structure; the result has tree's structure."""
    leaves, structure = flatten(tree, is_leaf)
    others = []
    for i, other in enumerate(rest):
        other_leaves, other_structure = flatten(other, is_leaf)
        if other_structure != structure:
            raise ValueError(f"tree_map: tree {i + 1} has structure {_describe(other_structure)}, "
                             f"expected {_describe(structure)}")
        others.append(other_leaves)
    return unflatten(structure, [f(*xs) for xs in zip(leaves, *others)])


def tree_reduce(f: Callable, tree, initializer=..., is_leaf: Callable | None = None) -> Any:
    import functools
    leaves = tree_leaves(tree, is_leaf)
    return functools.reduce(f, leaves) if initializer is ... else functools.reduce(f, leaves, initializer)


def tree_all(tree) -> bool:
    return all(tree_leaves(tree))
