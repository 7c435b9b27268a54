"""Batching (vmap) as a transformation of hlo IR.

Design choice: an IR transformation, like autodiff, not trace-time rules. `mlc.vmap(f)`
traces f *inline* at per-example shapes (each mapped input stands in as a slice of the
batched array), then `walker.Batcher` walks the ops the trace appended and emits, for each
op that reads a batched value, its batched form given by the op's rule in `rules/`
(registered in `registry.py`); the per-example ops left dead are erased. Why IR and not
trace time: the rules then see every op the way every other pass does (the same table
`dialects/hlo/ops.py`, including ops no Python API emits, scf control flow and ops that
grad already emitted), so vmap composes with grad in both orders and with jit for free,
and the pass `hlo-vmap` (functions.py) runs the very same rules from `mlc-opt`.

Convention: a batched value carries its batch dimension first (dim 0, size B); an
unbatched value is the op's own value. A scalar produced by `tensor.extract` of a batched
0-d tensor (a cond/while predicate, a case index) is represented by the rank-1 tensor of
its B values. `api.py` moves user axes (in_axes/out_axes) to and from dim 0 at the
boundary only.
"""

from .errors import BatchingError

__all__ = ["BatchingError", "vmap"]


def __getattr__(name):
    # The API needs the frontend, which the pass does not: import it on first use.
    if name == "vmap":
        from .api import vmap
        return vmap
    raise AttributeError(name)
