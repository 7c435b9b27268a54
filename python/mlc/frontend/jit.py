"""mlc.jit: trace a numpy-like function once per signature, compile it, cache it.

    f = mlc.jit(fun, static_argnums=(), static_argnames=())
    f(x, y)                      # trace + compile on a new signature, then only dispatch
    f.trace(x, y).lower().compile()   # the staged API (stages.py): Traced -> Lowered -> Compiled
    f.lower(x, y).as_text("linalg")   # the IR after a stage
    f.cache_info()               # hits, misses, size

Options (CompileOptions) come from `options=`, else from the environment at compile time;
`opt_level=`/`fusion=` override those two fields. Compiled code also goes to the persistent
cache (runtime/disk_cache.py), so another process tracing the same function loads it.

A signature is the arguments' nesting, each array's shape and dtype (Python scalars are
weakly typed), and the static arguments' values. Calls with a cached signature go straight
to the compiled code.
"""

from __future__ import annotations

import functools
import inspect
import logging
import threading
import warnings
from collections import namedtuple
from typing import Callable

import numpy as np
from mlir import ir
from mlir.dialects import func

from .. import config
from ..context import account, thread_context
from ..conversion.readonly_arguments import ALIASES_ATTR
from ..options import CompileOptions
from ..runtime.libraries import FORK_STATE
from . import methods as _methods  # noqa: F401  (binds Tracer operators)
from .core import DEFAULT_FLOAT, DEFAULT_INT, asarray, element_type
from .pytree import flatten, unflatten
from .stages import NOT_CHECKED, Compiled, Lowered, Traced, compile_for_call
from .tracing import TraceContext, Tracer, tracing, tracing_active

log = logging.getLogger("mlc")
CacheInfo = namedtuple("CacheInfo", ["hits", "misses", "size"])
__all__ = ["jit", "Jitted", "Traced", "Lowered", "Compiled", "STAGES"]


def __getattr__(name: str):
    if name == "STAGES":  # the stage names, imported with the pipeline on first use (stages.py)
        from . import stages
        return stages.STAGES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


class Jitted:
    """The function `mlc.jit` returns."""

    def __init__(self, fun: Callable, static_argnums=(), static_argnames=(), opt_level: int | None = None,
                 fusion: bool | None = None, options: CompileOptions | None = None,
                 donate_argnums=(), donate_argnames=()):
        if options is not None and not isinstance(options, CompileOptions):
            raise TypeError(f"options must be a CompileOptions, got {type(options).__name__}")
        self._overrides = dict(opt_level=opt_level, fusion=fusion)
        CompileOptions().replace(**self._overrides)  # a bad value fails here, at jit()
        self._options = options
        self.fun = fun
        functools.update_wrapper(self, fun, updated=())  # (not fun.__dict__: it would overwrite self.fun)
        if not hasattr(self, "__name__"):  # a callable object or a functools.partial
            self.__name__ = callable_name(fun)
        self.signature = inspect.signature(fun)
        static_argnums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
        static_argnames = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)
        params = list(self.signature.parameters)
        positional = [p.name for p in self.signature.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        for i in static_argnums:
            if not isinstance(i, int) or not -len(positional) <= i < len(positional):
                raise ValueError(f"jit of {callable_name(fun)}: static_argnums {i!r} is out of "
                                 f"range: it takes {len(positional)} named positional argument(s) "
                                 f"({', '.join(positional) or 'none'})")
        for name in static_argnames:
            if name not in params:
                raise ValueError(f"jit of {callable_name(fun)}: static_argnames {name!r} is "
                                 f"not a parameter ({', '.join(params) or 'none'})")
        self.static_argnums = frozenset(i % len(positional) for i in static_argnums)
        self.static_argnames = frozenset(static_argnames) | {positional[i] for i in self.static_argnums}
        self.donate_argnames = _donated_names(fun, params, positional, donate_argnums, donate_argnames,
                                              self.static_argnames)
        self._cache: dict = {}
        self._fast: dict = {}
        self._lock = threading.Lock()
        self._fork_generation = FORK_STATE["generation"]
        self._hits = self._misses = 0
        self._checked = None  # (arity, Compiled) tried first by the fast path (__call__)
        self._last_key = None
        self._compiles = 0
        # The fast path keys a call by its positional arrays' shapes and dtypes alone: right
        # when nothing else can vary, i.e. no static parameters and no **kwargs (parameters
        # left to their defaults are the same constants in every call of the same arity; a
        # *args parameter takes the rest of the positional arrays, in order, their number
        # in the key).
        self._fast_ok = not self.static_argnames and all(
            p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
            or (p.kind == p.KEYWORD_ONLY and p.default is not p.empty)
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
        # An exact ndarray's spec inline (a call per leaf, and dtype.str's new string per
        # leaf, were most of an optimizer step's dispatch over hundreds of parameters).
        specs = tuple([(x.shape, x.dtype, False) if type(x) is np.ndarray else _leaf_spec(x) for x in leaves])
        key = (structure, specs, tuple(sorted(static.items())))
        return key, leaves, structure, specs

    @property
    def options(self) -> CompileOptions | None:
        """The options given to jit (with opt_level/fusion applied); None: the environment's."""
        if self._options is None and all(v is None for v in self._overrides.values()):
            return None
        return (self._options or config.default_options()).replace(**self._overrides)

    # --- staged API ---------------------------------------------------------------------
    def trace_to_module(self, dynamic, static, structure, specs) -> Traced:
        # This thread's context, reused trace after trace (context.py): making one per
        # trace cost more than the trace of a small function.
        context = thread_context()
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
                    outputs["specs"] = [(t.shape, t.dtype) for t in out_tracers]
                    outputs["donated"] = [i for name, value in arguments.items()
                                          for i in range(*_leaf_range(arguments, name))
                                          if name in self.donate_argnames]
                    return [t.value for t in out_tracers]
            aliases = _pair_donations(outputs["donated"], specs, outputs["specs"])
            if aliases:
                table = [-1] * len(outputs["specs"])
                for k, i in aliases:
                    table[k] = i
                main.func_op.attributes[ALIASES_ATTR] = ir.DenseI64ArrayAttr.get(table)
            # The text (with locations) is printed only when needed (stages.Traced.hlo_text).
            traced = Traced(None, self._source_name(), specs, outputs["structure"], outputs["weak"],
                            self.options, module)
            account(context, len(traced._bytecode))
            traced.aliases = tuple(aliases)  # (result leaf, argument leaf): see stages.Compiled
            return traced

    def _call_fun(self, arguments: dict):
        """fun called with its bound arguments (name -> value), *args and **kwargs included."""
        ordered = {name: arguments[name] for name in self.signature.parameters if name in arguments}
        bound = inspect.BoundArguments(self.signature, ordered)
        return self.fun(*bound.args, **bound.kwargs)

    def _source_name(self) -> str:
        source = self.fun if inspect.isfunction(self.fun) or inspect.ismethod(self.fun) else type(self.fun)
        try:
            return f"{inspect.getsourcefile(source)}:{self.__name__}"
        except TypeError:
            return self.__name__

    def trace(self, *args, **kwargs) -> Traced:
        """The hlo module of `fun` for these arguments' signature."""
        dynamic, static = self._split(args, kwargs)
        _, _, structure, specs = self._key(dynamic, static)
        return self.trace_to_module(dynamic, static, structure, specs)

    def lower(self, *args, **kwargs) -> Lowered:
        """trace(...).lower(): the module bound to this jit's options."""
        return self.trace(*args, **kwargs).lower()

    # --- calling ------------------------------------------------------------------------
    def _compile(self, key, dynamic, static, structure, specs) -> Compiled:
        traced = self.trace_to_module(dynamic, static, structure, specs)
        self._compiles += 1
        if config.log_compiles():
            self._log_compile(key, specs)
        # The persistent cache first, keyed on the traced module; then verify and compile.
        return compile_for_call(traced, dump_name=f"{self.__name__}.{self._compiles}")

    def __call__(self, *args, **kwargs):
        if self._fork_generation != FORK_STATE["generation"]:
            self._after_fork()
        if tracing_active() and any(isinstance(x, Tracer) for x in flatten([args, kwargs])[0]):
            return self.fun(*args, **kwargs)  # jit inside jit: traced inline, as JAX does
        if self._fast_ok and not kwargs:
            checked = self._checked  # the last compiled fast-path entry its executable checks natively
            if checked is not None and len(args) == checked[0]:
                out = checked[1].call_checked(args)
                if out is not NOT_CHECKED:
                    self._hits += 1
                    return out
            try:
                key = tuple([(a.shape, a.dtype) for a in args])
            except AttributeError:  # not all arrays: the general path below
                key = None
            compiled = self._fast.get(key)  # only all-ndarray signatures are stored here
            if compiled is not None:
                self._hits += 1
                if compiled.checks_natively:
                    self._checked = (len(args), compiled)
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
        return compiled.call_leaves(leaves, matched=True)

    def _after_fork(self) -> None:
        """In a fork() child: the lock may have been held by a thread that does not exist
        here. The compiled executables stay (the thread pool starts afresh in a child)."""
        self._lock = threading.Lock()
        self._fork_generation = FORK_STATE["generation"]

    def cache_info(self) -> CacheInfo:
        return CacheInfo(self._hits, self._misses, len(self._cache))

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()
            self._fast.clear()
            self._checked = None

    # --- debugging ----------------------------------------------------------------------
    def _log_compile(self, key, specs) -> None:
        described = ", ".join(f"{d}{list(s)}{' (weak)' if w else ''}" for s, d, w in specs)
        log.warning("mlc.jit: compiling %s for (%s)", self.__name__, described)
        if self._last_key is not None:
            changes = _describe_change(self._last_key, key)
            log.warning("mlc.jit: %s re-compiled because %s", self.__name__, changes)
        self._last_key = key


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


def callable_name(fun) -> str:
    """A name for any callable: its own, a partial's function's, or its class's."""
    if hasattr(fun, "__name__"):
        return fun.__name__
    if isinstance(fun, functools.partial):
        return f"partial({callable_name(fun.func)})"
    return type(fun).__name__


def _donated_names(fun, params, positional, donate_argnums, donate_argnames, static) -> frozenset:
    """The parameters whose arrays results may reuse (JAX's donate_argnums/donate_argnames)."""
    nums = (donate_argnums,) if isinstance(donate_argnums, int) else tuple(donate_argnums)
    names = (donate_argnames,) if isinstance(donate_argnames, str) else tuple(donate_argnames)
    fun_name = callable_name(fun)
    for i in nums:
        if not isinstance(i, int) or not -len(positional) <= i < len(positional):
            raise ValueError(f"jit of {fun_name}: donate_argnums {i!r} is out of range: it takes "
                             f"{len(positional)} named positional argument(s)")
    for name in names:
        if name not in params:
            raise ValueError(f"jit of {fun_name}: donate_argnames {name!r} is not a parameter "
                             f"({', '.join(params) or 'none'})")
    donated = frozenset(names) | {positional[i % len(positional)] for i in nums}
    if donated & static:
        raise ValueError(f"jit of {fun_name}: static arguments cannot be donated: "
                         f"{sorted(donated & static)}")
    return donated


def _leaf_range(arguments: dict, name: str) -> tuple[int, int]:
    """The leaf indices of argument `name` among the flattened arguments (in their order)."""
    start = 0
    for key, value in arguments.items():
        n = len(flatten(value)[0])
        if key == name:
            return start, start + n
        start += n
    raise KeyError(name)


def _pair_donations(donated: list[int], in_specs, out_specs) -> list[tuple[int, int]]:
    """(result leaf, argument leaf) pairs: each result takes the first donated array of its
    shape and dtype not taken yet, as JAX pairs them. Booleans and Python scalars are not
    donated; a donated array no result can use draws JAX's warning."""
    free = [i for i in donated if not in_specs[i][2] and in_specs[i][1] != np.dtype(np.bool_)]
    pairs = []
    for k, (shape, dtype) in enumerate(out_specs):
        for i in free:
            if tuple(in_specs[i][0]) == tuple(shape) and in_specs[i][1] == dtype:
                pairs.append((k, i))
                free.remove(i)
                break
    if free:
        unused = ", ".join(f"{in_specs[i][1]}{list(in_specs[i][0])}" for i in free)
        warnings.warn(f"Some donated buffers were not usable: {unused}", stacklevel=4)
    return pairs


def jit(fun: Callable | None = None, *, static_argnums=(), static_argnames=(),
        options: CompileOptions | None = None, opt_level: int | None = None, fusion: bool | None = None,
        donate_argnums=(), donate_argnames=()):
    """Compiles `fun` per signature; usable as `@jit` or `@jit(static_argnums=...)`.
    `options` (CompileOptions) say how, default the environment's at compile time;
    opt_level and fusion override those fields (opt_level 0 turns the graph optimizations
    and LLVM's off; fusion=False compiles every op as its own kernel).

    donate_argnums / donate_argnames (JAX's): arrays of these arguments may be reused for
    results of the same shape and dtype. The compiled code then writes such a result into
    the donated numpy array in place (when that is safe, else it computes aside and copies
    in) and returns that very array: the donated array's old contents are gone afterwards
    (numpy arrays cannot be marked deleted as JAX's are; no warning is given). A donated
    array that is not a writable C-contiguous ndarray of the exact dtype is copied first
    and the copy returned; a donated array no result matches draws JAX's warning."""
    if fun is None:
        return lambda f: Jitted(f, static_argnums, static_argnames, opt_level, fusion, options,
                                donate_argnums, donate_argnames)
    if not callable(fun):
        raise TypeError(f"jit expects a function, got {type(fun).__name__}")
    return Jitted(fun, static_argnums, static_argnames, opt_level, fusion, options,
                  donate_argnums, donate_argnames)
