"""einsum planning: a subscripts string and operands -> diagonals, sums, a sequence of
pairwise dot_generals and a final transpose (see linalg.einsum for the rules)."""

from __future__ import annotations

import itertools

import numpy as np

from .core import asarray, astype, broadcast_to, result_dtype
from .promotion import promote_types
from .reductions import sum as reduce_sum
from .selection import diagonal
from .shapes import transpose

# Stand-ins for the '...' dims: characters no subscripts string uses (letters only).
_ELLIPSIS_NAMES = [chr(c) for c in range(0x3B1, 0x3C9)]  # Greek letters


def _parse(subscripts: str, shapes):
    subscripts = subscripts.replace(" ", "")
    inputs, arrow, output = subscripts.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: {len(terms)} terms in {subscripts!r} for {len(shapes)} operands")
    for t in terms + [output]:
        bad = set(t.replace("...", "")) - set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        if bad:
            raise ValueError(f"einsum: invalid subscript characters {sorted(bad)} in {subscripts!r}")
    n_ellipsis = 0
    for t, shape in zip(terms, shapes):
        if "..." in t:
            n_ellipsis = max(n_ellipsis, len(shape) - (len(t) - 3))
    names = _ELLIPSIS_NAMES[:n_ellipsis]
    expanded = []
    for t, shape in zip(terms, shapes):
        if "..." in t:
            k = len(shape) - (len(t) - 3)
            if k < 0:
                raise ValueError(f"einsum: term {t!r} has more letters than its operand's {len(shape)} dims")
            t = t.replace("...", "".join(names[n_ellipsis - k:]))
        if len(t) != len(shape):
            raise ValueError(f"einsum: term {t!r} does not match an operand of shape {tuple(shape)}")
        expanded.append(t)
    if arrow:
        output = output.replace("...", "".join(names))
        if len(set(output)) != len(output):
            raise ValueError(f"einsum: output subscript {output!r} repeats a letter")
        for c in output:
            if not any(c in t for t in expanded):
                raise ValueError(f"einsum: output letter {c!r} appears in no input")
    else:
        letters = "".join(expanded)
        once = sorted(c for c in set(letters) if letters.count(c) == 1 and c not in names)
        output = "".join(names) + "".join(once)
    return expanded, output


def _sizes(terms, ops):
    sizes = {}
    for t, x in zip(terms, ops):
        for c, s in zip(t, x.shape):
            if sizes.get(c, 1) == 1:
                sizes[c] = s
            elif s not in (1, sizes[c]):
                raise ValueError(f"einsum: letter {c!r} has sizes {sizes[c]} and {s}")
    return sizes


def _take_diagonals(term: str, x):
    while True:
        repeated = next((c for c in term if term.count(c) > 1), None)
        if repeated is None:
            return term, x
        i = term.index(repeated)
        j = term.index(repeated, i + 1)
        x = diagonal(x, 0, i, j)
        term = "".join(c for k, c in enumerate(term) if k not in (i, j)) + repeated


def _sum_unneeded(term: str, x, needed: set):
    summed = tuple(d for d, c in enumerate(term) if c not in needed)
    if not summed:
        return term, x
    return "".join(c for c in term if c in needed), reduce_sum(x, summed)


def _contract(ta, a, tb, b, needed: set):
    from .linalg import dot_general
    batch = [c for c in ta if c in tb and c in needed]
    contract = [c for c in ta if c in tb and c not in needed]
    out = dot_general(a, b, ([ta.index(c) for c in contract], [tb.index(c) for c in contract]),
                      ([ta.index(c) for c in batch], [tb.index(c) for c in batch]))
    return "".join(batch) + "".join(c for c in ta if c not in tb) + "".join(c for c in tb if c not in ta), out


def _path(optimize, terms, sizes, output):
    n = len(terms)
    if optimize is False or optimize in ("none", None):
        return [(0, 1)] * (n - 1)
    if isinstance(optimize, (list, tuple)):
        path = [tuple(p) for p in optimize if p != "einsum_path"]
        if len(path) != n - 1 or any(len(p) != 2 for p in path):
            raise ValueError(f"einsum: an explicit path needs {n - 1} pairs, got {optimize!r}")
        return path
    if optimize not in (True, "greedy", "optimal", "auto"):
        raise ValueError(f"einsum: optimize must be 'greedy', False or a path, got {optimize!r}")
    path, live = [], list(terms)
    while len(live) > 1:
        best = None
        for i, j in itertools.combinations(range(len(live)), 2):
            rest = [t for k, t in enumerate(live) if k not in (i, j)]
            needed = set(output).union(*rest) if rest else set(output)
            kept = set(live[i] + live[j]) & needed
            cost = int(np.prod([sizes[c] for c in kept], dtype=np.int64))
            if best is None or cost < best[0]:
                best = (cost, i, j, "".join(sorted(kept)))
        _, i, j, kept = best
        path.append((i, j))
        live = [t for k, t in enumerate(live) if k not in (i, j)] + [kept]
    return path


def plan(subscripts: str, operands, optimize, preferred_element_type):
    ops = [asarray(x) for x in operands]
    if not ops:
        raise ValueError("einsum: at least one operand is required")
    terms, output = _parse(subscripts, [x.shape for x in ops])
    dtype = result_dtype(*ops)
    if preferred_element_type is not None:
        dtype = promote_types(dtype, preferred_element_type)
    ops = [astype(x, dtype) for x in ops]
    diagonals = [_take_diagonals(t, x) for t, x in zip(terms, ops)]
    terms, ops = [t for t, _ in diagonals], [x for _, x in diagonals]
    sizes = _sizes(terms, ops)
    ops = [broadcast_to(x, tuple(sizes[c] for c in t)) for t, x in zip(terms, ops)]
    path = _path(optimize, terms, sizes, output)
    live = list(zip(terms, ops))
    for i, j in path:
        if not (0 <= i < len(live) and 0 <= j < len(live) and i != j):
            raise ValueError(f"einsum: path step {(i, j)} is out of range")
        rest = [t for k, (t, _) in enumerate(live) if k not in (i, j)]
        needed_a = set(output).union(live[j][0], *rest)
        needed_b = set(output).union(live[i][0], *rest)
        ta, a = _sum_unneeded(*live[i], needed_a)
        tb, b = _sum_unneeded(*live[j], needed_b)
        pair = _contract(ta, a, tb, b, set(output).union(*rest))
        live = [p for k, p in enumerate(live) if k not in (i, j)] + [pair]
    (term, x), = live
    term, x = _sum_unneeded(term, x, set(output))
    x = transpose(x, [term.index(c) for c in output])
    return x if preferred_element_type is None else astype(x, preferred_element_type)
