"""mlc.jit: trace a numpy-like function once per signature, compile it, cache it.

    f = mlc.jit(fun, static_argnums=(), static_argnames=())
    f(x, y)                      # trace + compile on a new signature, then only dispatch
    f.lower(x, y).as_text()      # the staged API: Lowered -> .compile() -> Compiled
    f.cache_info()               # hits, misses, size

A signature is the arguments' nesting, each array's shape and dtype (Python scalars are
weakly typed), and the static arguments' values. Calls with a cached signature go straight
to the compiled code.
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import threading
from collections import namedtuple
from typing import Callable

import numpy as np
from mlir import ir
from mlir.dialects import func

from .. import config
from ..compiler import compile as compile_module
from ..compiler import lower as lower_module
from ..context import make_context
from ..diagnostics import parse_module
from ..pipelines import STAGE_NAMES
from ..runtime.executable import Executable
from ..runtime.libraries import FORK_STATE
from . import methods as _methods  # noqa: F401  (binds Tracer operators)
from .core import DEFAULT_FLOAT, DEFAULT_INT, asarray, element_type
from .pytree import flatten, unflatten
from .tracing import TraceContext, Tracer, tracing, tracing_active

log = logging.getLogger("mlc")
CacheInfo = namedtuple("CacheInfo", ["hits", "misses", "size"])
STAGES = tuple(STAGE_NAMES)


def _leaf_spec(x) -> tuple:
    """(shape, dtype, weak) of an argument leaf; a TypeError for anything that is not an array,
    and for a numpy masked array (its mask would be silently dropped)."""
    if isinstance(x, np.ndarray):
        if type(x) is not np.ndarray and isinstance(x, np.ma.MaskedArray):
            raise TypeError("jit arguments cannot be numpy masked arrays (numpy.ma.MaskedArray): "
                            "MLC computes on the data and would silently ignore the mask; pass "
                            "x.filled(value), or x.data and the mask (np.ma.getmaskarray(x)) as "
                            "separate arrays and combine them with mlc.numpy.where")
        return x.shape, x.dtype, False
    if isinstance(x, (bool, np.bool_)):
        return (), np.dtype(np.bool_), not isinstance(x, np.bool_)
    if isinstance(x, (int, float)) and not isinstance(x, np.generic):
        return (), DEFAULT_INT if isinstance(x, int) else DEFAULT_FLOAT, True
    if isinstance(x, np.generic):
        return (), x.dtype, False
    raise TypeError(f"jit arguments must be numpy arrays, Python scalars, or tuples/lists/dicts "
                    f"of them; got {type(x).__name__} (mark it static with static_argnums if it is "
                    f"a compile-time constant)")


class Lowered:
    """A traced function as an hlo module, not yet compiled."""

    def __init__(self, hlo_text: str, name: str, in_specs, out_structure, out_weak, opt_level: int = 2,
                 fusion: bool = True):
        self.hlo_text = hlo_text  # with locations: diagnostics point at the user's lines
        self.opt_level = opt_level
        self.fusion = fusion
        self.name = name
        self.in_specs = in_specs
        self.out_structure = out_structure
        self.out_weak = out_weak

    def as_text(self, stage: str = "hlo", debug_info: bool = False) -> str:
        """The module after `stage`; with `debug_info`, each op's source location too."""
        if stage not in STAGES:
            raise ValueError(f"unknown stage {stage!r}; stages: {', '.join(STAGES)}")
        module = parse_module(self.hlo_text, make_context(), self.name)
        if stage != "hlo":
            lower_module(module, stage, self.name, self.opt_level, self.fusion)
        return module.operation.get_asm(enable_debug_info=debug_info)

    def compiler_ir(self) -> str:
        return self.as_text()

    def compile(self) -> "Compiled":
        executable = compile_module(self.hlo_text, entry="main", source_name=self.name,
                                    opt_level=self.opt_level, fusion=self.fusion)
        return Compiled(self, executable)


class Compiled:
    """A compiled signature of a jit function: call it with arguments of that signature."""

    def __init__(self, lowered: Lowered, executable: Executable):
        self.lowered = lowered
        self.executable = executable
        self._single = lowered.out_structure == ("*",)

    def as_text(self, stage: str = "llvm") -> str:
        return self.lowered.as_text(stage)

    def _buffers(self):
        from ..analysis import analyze
        if getattr(self, "_analysis", None) is None:
            module = parse_module(self.lowered.hlo_text, make_context(), self.lowered.name)
            lower_module(module, "buffers", self.lowered.name, self.lowered.opt_level, self.lowered.fusion)
            self._analysis = analyze(module)
        return self._analysis

    def cost_analysis(self) -> dict:
        """kernels (loop nests), flops, bytes read and written, temporary buffer bytes."""
        a = self._buffers()
        return {k: a[k] for k in ("kernels", "flops", "bytes_read", "bytes_written", "temp_bytes")}

    def memory_analysis(self) -> dict:
        """argument, output and temporary buffer sizes in bytes, as JAX's memory_analysis."""
        def size(specs):
            return sum(int(np.prod(s.shape, dtype=np.int64)) * s.dtype.itemsize for s in specs)
        return {"argument_size_in_bytes": size(self.executable.inputs),
                "output_size_in_bytes": size(self.executable.outputs),
                "temp_size_in_bytes": self._buffers()["temp_bytes"]}

    def call_arrays(self, arrays):
        """The fast path: positional numpy arrays, exactly the compiled signature's."""
        out = self.executable(*arrays)
        if self._single:
            return out
        return unflatten(self.lowered.out_structure, list(out) if isinstance(out, tuple) else [out])

    def call_leaves(self, leaves):
        arrays = [x if isinstance(x, np.ndarray) else np.asarray(x, dtype=spec[1])
                  for x, spec in zip(leaves, self.lowered.in_specs)]
        out = self.executable(*arrays)
        if self._single:
            return out
        out = out if isinstance(out, tuple) else (out,)
        return unflatten(self.lowered.out_structure, list(out))

    def __call__(self, *args):
        leaves, _ = flatten(list(args))
        return self.call_leaves(leaves)


class Jitted:
    """The function `mlc.jit` returns."""

    def __init__(self, fun: Callable, static_argnums=(), static_argnames=(), opt_level: int = 2,
                 fusion: bool = True):
        if not 0 <= opt_level <= 3:
            raise ValueError(f"opt_level must be 0..3, got {opt_level}")
        self.fun = fun
        self.opt_level = opt_level
        self.fusion = fusion
        functools.update_wrapper(self, fun)
        self.signature = inspect.signature(fun)
        static_argnums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
        static_argnames = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)
        params = list(self.signature.parameters)
        positional = [p.name for p in self.signature.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        for i in static_argnums:
            if not isinstance(i, int) or not -len(positional) <= i < len(positional):
                raise ValueError(f"jit of {getattr(fun, '__name__', 'function')}: static_argnums {i!r} is out of "
                                 f"range: it takes {len(positional)} named positional argument(s) "
                                 f"({', '.join(positional) or 'none'})")
        for name in static_argnames:
            if name not in params:
                raise ValueError(f"jit of {getattr(fun, '__name__', 'function')}: static_argnames {name!r} is "
                                 f"not a parameter ({', '.join(params) or 'none'})")
        self.static_argnums = frozenset(i % len(positional) for i in static_argnums)
        self.static_argnames = frozenset(static_argnames) | {positional[i] for i in self.static_argnums}
        self._cache: dict = {}
        self._fast: dict = {}
        self._lock = threading.Lock()
        self._fork_generation = FORK_STATE["generation"]
        self._hits = self._misses = 0
        self._last_key = None
        self._compiles = 0
        self._fast_ok = not self.static_argnames and all(
            p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
            for p in self.signature.parameters.values())

    # --- signature --------------------------------------------------------------------
    def _split(self, args, kwargs):
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.__name__}(): {e}") from None
        # Defaults are not arguments: Python supplies them while tracing, as constants.
        dynamic, static = {}, {}
        for name, value in bound.arguments.items():
            (static if name in self.static_argnames else dynamic)[name] = value
        for name, value in static.items():
            try:
                hash(value)
            except TypeError:
                raise TypeError(f"static argument {name!r} of {self.__name__} must be hashable, got "
                                f"{type(value).__name__}; pass a tuple instead of a list") from None
        return dynamic, static

    def _key(self, dynamic, static):
        # Leaves in parameter order, so the compiled function's arguments read as the user's.
        leaves, structure = flatten(list(dynamic.values()))
        structure = (tuple(dynamic), structure)
        specs = tuple(_leaf_spec(x) for x in leaves)
        key = (structure, tuple((s, d.str, w) for s, d, w in specs), tuple(sorted(static.items())))
        return key, leaves, structure, specs

    # --- staged API ---------------------------------------------------------------------
    def trace_to_module(self, dynamic, static, structure, specs) -> Lowered:
        context = make_context()
        with context, ir.Location.unknown():
            module = ir.Module.create()
            trace = TraceContext(module, context)
            arg_types = [ir.RankedTensorType.get(list(s), element_type(d)) for s, d, _ in specs]
            outputs = {}
            with ir.InsertionPoint(module.body), tracing(trace):
                @func.FuncOp.from_py_func(*arg_types, name="main")
                def main(*values):
                    tracers = [Tracer(v, s, d, w) for v, (s, d, w) in zip(values, specs)]
                    names, tree = structure
                    arguments = dict(zip(names, unflatten(tree, tracers)))
                    result = self._call_fun({**arguments, **static})
                    out_leaves, out_structure = flatten(result)
                    out_tracers = [asarray(x) for x in out_leaves]
                    outputs["structure"] = out_structure
                    outputs["weak"] = [t.weak for t in out_tracers]
                    return [t.value for t in out_tracers]
            text = module.operation.get_asm(enable_debug_info=True)
            return Lowered(text, self._source_name(), specs, outputs["structure"], outputs["weak"],
                           self.opt_level, self.fusion)

    def _call_fun(self, arguments: dict):
        """fun called with its bound arguments (name -> value), *args and **kwargs included."""
        ordered = {name: arguments[name] for name in self.signature.parameters if name in arguments}
        bound = inspect.BoundArguments(self.signature, ordered)
        return self.fun(*bound.args, **bound.kwargs)

    def _source_name(self) -> str:
        try:
            return f"{inspect.getsourcefile(self.fun)}:{self.fun.__name__}"
        except TypeError:
            return self.fun.__name__

    def lower(self, *args, **kwargs) -> Lowered:
        dynamic, static = self._split(args, kwargs)
        _, _, structure, specs = self._key(dynamic, static)
        return self.trace_to_module(dynamic, static, structure, specs)

    def trace(self, *args, **kwargs) -> Lowered:
        return self.lower(*args, **kwargs)

    # --- calling ------------------------------------------------------------------------
    def _compile(self, key, dynamic, static, structure, specs) -> Compiled:
        lowered = self.trace_to_module(dynamic, static, structure, specs)
        compiled = lowered.compile()
        self._compiles += 1
        if config.log_compiles():
            self._log_compile(key, specs)
        if config.dump_dir():
            self._dump(lowered)
        return compiled

    def __call__(self, *args, **kwargs):
        if self._fork_generation != FORK_STATE["generation"]:
            self._after_fork()
        if tracing_active() and any(isinstance(x, Tracer) for x in flatten([args, kwargs])[0]):
            return self.fun(*args, **kwargs)  # jit inside jit: traced inline, as JAX does
        if self._fast_ok and not kwargs:
            try:
                key = tuple([(a.shape, a.dtype) for a in args])
            except AttributeError:  # not all arrays: the general path below
                key = None
            compiled = self._fast.get(key)  # only all-ndarray signatures are stored here
            if compiled is not None:
                self._hits += 1
                return compiled.call_arrays(args)
        dynamic, static = self._split(args, kwargs)
        key, leaves, structure, specs = self._key(dynamic, static)
        compiled = self._cache.get(key)
        if compiled is None:
            with self._lock:
                compiled = self._cache.get(key)
                if compiled is None:
                    self._misses += 1
                    compiled = self._compile(key, dynamic, static, structure, specs)
                    self._cache[key] = compiled
                    if self._fast_ok and not kwargs and all(type(a) is np.ndarray for a in args):
                        self._fast[tuple((a.shape, a.dtype) for a in args)] = compiled
                else:
                    self._hits += 1
        else:
            self._hits += 1
        return compiled.call_leaves(leaves)

    def _after_fork(self) -> None:
        """In a fork() child: executables with parallel loops would wait on the parent's
        threads, and a lock may have been held by a thread that does not exist here. Start
        afresh; new compiles run single-threaded (codegen.target.num_threads)."""
        self._lock = threading.Lock()
        self._cache, self._fast = {}, {}
        self._fork_generation = FORK_STATE["generation"]

    def cache_info(self) -> CacheInfo:
        return CacheInfo(self._hits, self._misses, len(self._cache))

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()
            self._fast.clear()

    # --- debugging ----------------------------------------------------------------------
    def _log_compile(self, key, specs) -> None:
        described = ", ".join(f"{d}{list(s)}{' (weak)' if w else ''}" for s, d, w in specs)
        log.warning("mlc.jit: compiling %s for (%s)", self.__name__, described)
        if self._last_key is not None:
            changes = _describe_change(self._last_key, key)
            log.warning("mlc.jit: %s re-compiled because %s", self.__name__, changes)
        self._last_key = key

    def _dump(self, lowered: Lowered) -> None:
        directory = config.dump_dir()
        os.makedirs(directory, exist_ok=True)
        stem = os.path.join(directory, f"{self.__name__}.{self._compiles}")
        for stage in STAGES:
            with open(f"{stem}.{stage}.mlir", "w") as f:
                f.write(lowered.as_text(stage))


def _describe_change(old, new) -> str:
    if old[0] != new[0]:
        return "the argument structure changed"
    parts = []
    for i, (a, b) in enumerate(zip(old[1], new[1])):
        if a != b:
            parts.append(f"argument leaf {i} changed from {np.dtype(a[1])}{list(a[0])} to "
                         f"{np.dtype(b[1])}{list(b[0])}")
    if old[2] != new[2]:
        parts.append(f"static arguments changed from {dict(old[2])} to {dict(new[2])}")
    return "; ".join(parts) or "the signature changed"


def jit(fun: Callable | None = None, *, static_argnums=(), static_argnames=(), opt_level: int = 2,
        fusion: bool = True):
    """Compiles `fun` per signature; usable as `@jit` or `@jit(static_argnums=...)`.
    opt_level 0 turns the graph optimizations (hlo-optimize) and LLVM's off; fusion=False
    compiles every op as its own kernel."""
    if fun is None:
        return lambda f: Jitted(f, static_argnums, static_argnames, opt_level, fusion)
    if not callable(fun):
        raise TypeError(f"jit expects a function, got {type(fun).__name__}")
    return Jitted(fun, static_argnums, static_argnames, opt_level, fusion)
