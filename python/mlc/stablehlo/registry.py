"""The table of StableHLO/CHLO op converters: op name -> rule(converter, op) -> new values.

Ops with no entry whose name is an hlo op (`stablehlo.add` -> `hlo.add`) convert by the
generic rule in convert.py; every other op is rejected with its location."""

from __future__ import annotations

from typing import Callable

RULES: dict[str, Callable] = {}
# custom_call targets MLC knows the meaning of: call_target_name -> rule(converter, op).
CUSTOM_CALLS: dict[str, Callable] = {}


def load_rules() -> None:
    """Imports every module that registers rules (they fill RULES when imported)."""
    from . import (batch_norm, bits, chlo, chlo_special, collectives, control_flow,  # noqa: F401
                   dynamic, elementwise_regions, general_regions, linalg, op_rules,
                   select_and_scatter, tuples)


def custom_call_rule(*targets: str):
    def register(fn):
        for target in targets:
            CUSTOM_CALLS[target] = fn
        return fn
    return register


def rule(*names: str):
    def register(fn):
        for name in names:
            RULES[name] = fn
        return fn
    return register


# Ops outside MLC's scope (no side effects; the collectives of collectives.py only),
# rejected with the reason, even where the hlo table has a same-named op for MLC's own use.
_COLLECTIVES = ("all_to_all", "collective_permute", "partition_id", "replica_id")
_SIDE_EFFECTS = ("send", "recv", "infeed", "outfeed", "after_all", "create_token")
REJECTED: dict[str, str] = {
    **{f"stablehlo.{n}": "this collective is not supported (all_reduce, all_gather, reduce_scatter "
       "and collective_broadcast over one group of all processes are)" for n in _COLLECTIVES},
    **{f"stablehlo.{n}": "tokens and side-effecting ops are not supported" for n in _SIDE_EFFECTS},
}
