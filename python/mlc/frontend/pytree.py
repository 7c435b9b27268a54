"""Nested tuples, lists and dicts of arrays ("pytrees"), flattened to leaves and a
hashable structure description, and rebuilt from them."""

from __future__ import annotations

from typing import Any

LEAF = ("*",)


def flatten(tree) -> tuple[list, Any]:
    leaves: list = []

    def walk(node):
        if isinstance(node, tuple) and not hasattr(node, "_fields"):
            return ("tuple", tuple(walk(c) for c in node))
        if isinstance(node, list):
            return ("list", tuple(walk(c) for c in node))
        if isinstance(node, dict):
            keys = tuple(sorted(node))
            return ("dict", keys, tuple(walk(node[k]) for k in keys))
        if node is None:
            return ("none",)
        leaves.append(node)
        return LEAF

    return leaves, walk(tree)


def unflatten(structure, leaves) -> Any:
    it = iter(leaves)

    def build(node):
        kind = node[0]
        if kind == "*":
            return next(it)
        if kind == "none":
            return None
        if kind == "tuple":
            return tuple(build(c) for c in node[1])
        if kind == "list":
            return [build(c) for c in node[1]]
        return {k: build(c) for k, c in zip(node[1], node[2])}

    return build(structure)
