"""Pytrees: nested containers of arrays, flattened to leaves and a hashable structure
description, and rebuilt from them (JAX's tree_util).

Containers: tuple, list, dict (keys in sorted order), NamedTuple (rebuilt as its own
class), None (a node with no leaves), and any class registered with
`register_pytree_node(cls, flatten, unflatten)`: `flatten(obj) -> (children, aux_data)`,
`unflatten(aux_data, children) -> obj`, aux_data hashable (it is part of a jit signature).
Everything else is a leaf.

A structure is a nested tuple: `("*",)` for a leaf, `("none",)`, `("tuple", children)`,
`("list", children)`, `("dict", keys, children)`, `("namedtuple", cls, children)` and
`("custom", cls, aux_data, children)`.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

LEAF = ("*",)
# Deeper nesting is almost surely a cycle or a runaway structure; it would otherwise end in
# a RecursionError from deep inside the walk.
MAX_DEPTH = 256

# cls -> (flatten, unflatten) for user classes (register_pytree_node).
_CUSTOM: dict[type, tuple[Callable, Callable]] = {}
# Types met as leaves (no container, no registered node): the next one of them is a leaf at
# once, without the node checks (a training step's hundreds of parameter arrays).
_LEAF_TYPES: set[type] = set()


def register_pytree_node(cls: type, flatten_fn: Callable, unflatten_fn: Callable) -> None:
    """Makes instances of `cls` pytree nodes: flatten_fn(x) -> (children, aux_data) and
    unflatten_fn(aux_data, children) -> x."""
    if not isinstance(cls, type):
        raise TypeError(f"register_pytree_node takes a class, got {cls!r}")
    if cls in _CUSTOM or cls in (tuple, list, dict, type(None)):
        raise ValueError(f"{cls.__name__} is already registered as a pytree node")
    _CUSTOM[cls] = (flatten_fn, unflatten_fn)
    _LEAF_TYPES.discard(cls)


def register_pytree_node_class(cls: type) -> type:
    """Class decorator: `cls.tree_flatten(self) -> (children, aux)` and the classmethod
    `cls.tree_unflatten(aux, children)` make it a pytree node."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def _sorted_keys(d: dict) -> tuple:
    try:
        return tuple(sorted(d))
    except TypeError:  # mixed key types (1 and "a"): by type name, then value
        return tuple(sorted(d, key=lambda k: (type(k).__name__, repr(k))))


def _is_namedtuple(node) -> bool:
    return isinstance(node, tuple) and hasattr(type(node), "_fields")


# flatten and unflatten recurse through module-level functions, not nested closures: a
# closure that calls itself is a reference cycle, which would hold the leaves it saw (a
# call's result arrays, and so the result pool's blocks) until the cyclic GC ran.
def flatten(tree, is_leaf: Callable | None = None) -> tuple[list, Any]:
    leaves: list = []
    return leaves, _flatten(tree, is_leaf, leaves, 1)


def _flatten(node, is_leaf, leaves: list, depth: int):
    if depth > MAX_DEPTH:
        raise ValueError(f"pytree nested deeper than {MAX_DEPTH} levels (a container that "
                         f"contains itself?); flatten it or pass arrays instead")
    if is_leaf is not None and is_leaf(node):
        leaves.append(node)
        return LEAF
    if type(node) in _LEAF_TYPES:
        leaves.append(node)
        return LEAF
    if node is None:
        return ("none",)
    depth += 1
    custom = _CUSTOM.get(type(node))
    if custom is not None:
        children, aux = custom[0](node)
        return ("custom", type(node), aux, tuple(_flatten(c, is_leaf, leaves, depth) for c in children))
    if _is_namedtuple(node):
        return ("namedtuple", type(node), tuple(_flatten(c, is_leaf, leaves, depth) for c in node))
    if isinstance(node, tuple):
        return ("tuple", _children(node, is_leaf, leaves, depth))
    if isinstance(node, list):
        return ("list", _children(node, is_leaf, leaves, depth))
    if isinstance(node, dict):
        keys = _sorted_keys(node)
        return ("dict", keys, _children([node[k] for k in keys], is_leaf, leaves, depth))
    _LEAF_TYPES.add(type(node))
    leaves.append(node)
    return LEAF


def _children(nodes, is_leaf, leaves: list, depth: int) -> tuple:
    """The structures of a container's children. A container of known leaf types only (a
    list of parameter arrays) is taken whole, without a call per child."""
    if is_leaf is None and _LEAF_TYPES.issuperset(map(type, nodes)):
        leaves.extend(nodes)
        return (LEAF,) * len(nodes)
    return tuple(_flatten(c, is_leaf, leaves, depth) for c in nodes)


def unflatten(structure, leaves) -> Any:
    return _build(structure, iter(leaves))


def _build(node, it):
    kind = node[0]
    if kind == "*":
        return next(it)
    if kind == "none":
        return None
    if kind == "tuple":
        return tuple(_build_children(node[1], it))
    if kind == "list":
        return _build_children(node[1], it)
    if kind == "namedtuple":
        return node[1](*_build_children(node[2], it))
    if kind == "custom":
        return _CUSTOM[node[1]][1](node[2], _build_children(node[3], it))
    return dict(zip(node[1], _build_children(node[2], it)))


def _build_children(children: tuple, it) -> list:
    if children.count(LEAF) == len(children):  # all leaves (a list of parameters): no call per child
        return list(itertools.islice(it, len(children)))
    return [_build(c, it) for c in children]


def num_leaves(structure) -> int:
    if structure == LEAF:
        return 1
    children = structure[-1] if structure[0] != "none" else ()
    return sum(num_leaves(c) for c in children)
