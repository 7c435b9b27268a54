"""MLIR contexts for MLC: which dialects they load, and one reusable context per thread.

    make_context()    a new context (for tools, tests, one-off parses)
    thread_context()  the calling thread's compile context, reused across traces/compiles
    prepare_for_passes(context)   every registered dialect loaded, before a pipeline runs

Creating a context used to cost 10-15 ms per trace/compile: `ir.Context()` loads every
upstream dialect (about 9 ms, the transform dialect alone 5 ms), then the hlo IRDL dialect
was parsed from text (2.5 ms). Now a context loads only the dialects a trace builds ops of
(builtin, func, arith, tensor, scf: about 1.5 ms) plus hlo, whose IRDL module is parsed
from bytecode after the first time in a process (1.6 ms). The other registered dialects
load on demand: the parser loads what it reads, and `prepare_for_passes` loads them all
once per context before the first pass manager runs (Python passes build linalg, memref,
vector... ops without declaring them, and loading a dialect while a pass manager runs
fails an assertion, which these wheels keep: the process aborts).

The bindings are not thread-safe, so a context is only ever used by one thread at a time.
`thread_context()` keeps one per thread, created with MLIR's multithreading off (no pass
manager thread pool: nothing to join after fork(), no idle workers per thread). Code that
takes a module from elsewhere checks `owned_by_this_thread(module.context)` and parses a
copy (bytecode or text) into its own context when another thread's context holds it.

A reused context keeps every type and attribute it ever uniqued (MLIR never frees them):
constants, locations, symbol names. So a thread's context is replaced after `MAX_USES`
traces/compiles or once the modules traced or parsed into it pass `MAX_BYTES` (their
bytecode or text: large constants, mostly), whichever comes first; the old one is freed
when the last module in it (a compiled function holds its module) is. A context a Python
exception left inside the pass manager is replaced at once (`discard`).
"""

from __future__ import annotations

import io
import os
import threading

from mlir import ir
from mlir.dialects import irdl

from .dialects.hlo import irdl as _hlo_irdl

# Dialects a trace creates ops in from Python (func.func, tensor.concat/extract,
# scf.if/while/index_switch, arith.index_cast); builtin holds module and the types.
TRACE_DIALECTS = ("builtin", "func", "arith", "tensor", "scf")

MAX_USES = 256
MAX_BYTES = 16 << 20

_IRDL_LOCK = threading.Lock()
_IRDL_BYTECODE: bytes | None = None  # the hlo IRDL module as bytecode, made once per process
_FORK_GENERATION = [0]
_LOCAL = threading.local()


def _load_hlo(context: ir.Context) -> None:
    """Registers the hlo dialect in `context`: the IRDL text generated from the op table,
    parsed as bytecode after the first time (the same module, 40% faster to read)."""
    global _IRDL_BYTECODE
    _hlo_irdl._register_python_module()
    data = _IRDL_BYTECODE
    with context, ir.Location.unknown():
        if data is not None:
            irdl.load_dialects(ir.Module.parse(data))
            return
        module = ir.Module.parse(_hlo_irdl.irdl_text())
        irdl.load_dialects(module)
        buffer = io.BytesIO()
        module.operation.write_bytecode(buffer)
        with _IRDL_LOCK:
            _IRDL_BYTECODE = buffer.getvalue()


def _new_context(multithreading: bool) -> ir.Context:
    # load_on_create_dialects=[] keeps ir.Context from loading every registered dialect;
    # the registry is still attached, so the rest load on demand.
    context = ir.Context(load_on_create_dialects=[])
    if not multithreading:
        context.enable_multithreading(False)
    for name in TRACE_DIALECTS:
        context.get_dialect_descriptor(name)  # loads it (without importing its Python module)
    _load_hlo(context)
    context._mlc_all_dialects = False
    return context


def make_context() -> ir.Context:
    """A new context with the trace dialects and hlo loaded (other dialects on demand).
    Its multithreading is MLIR's default (on)."""
    return _new_context(multithreading=True)


def thread_context() -> ir.Context:
    """The calling thread's reusable context (see the module docstring); replaced after
    MAX_USES calls or MAX_BYTES of module text (`account`)."""
    state = getattr(_LOCAL, "state", None)
    if state is None or state[0] != _FORK_GENERATION[0] or state[2] >= MAX_USES or state[3] >= MAX_BYTES:
        context = _new_context(multithreading=False)
        context._mlc_owner = (threading.get_ident(), _FORK_GENERATION[0])
        state = _LOCAL.state = [_FORK_GENERATION[0], context, 0, 0]
    state[2] += 1
    return state[1]


def account(context: ir.Context, text_bytes: int) -> None:
    """Counts `text_bytes` of module text (constants, mostly) against `context`'s budget
    when it is this thread's context."""
    state = getattr(_LOCAL, "state", None)
    if state is not None and state[1] is context:
        state[3] += text_bytes


def discard(context: ir.Context) -> None:
    """Stops reusing `context` (this thread's next thread_context() makes a new one). For a
    context a Python exception unwound through the pass manager: the manager's exit
    bookkeeping did not run, and MLIR aborts the process on the next dialect load or
    threading change in that context."""
    context._mlc_discarded = True
    state = getattr(_LOCAL, "state", None)
    if state is not None and state[1] is context:
        _LOCAL.state = None


def owned_by_this_thread(context: ir.Context) -> bool:
    """Whether `context` is this thread's compile context, or a context no thread owns
    (made by make_context or by the user: whoever holds it uses it)."""
    owner = getattr(context, "_mlc_owner", None)
    if owner is None:
        return not getattr(context, "_mlc_discarded", False)
    return owner == (threading.get_ident(), _FORK_GENERATION[0]) and not getattr(context, "_mlc_discarded", False)


def prepare_for_passes(context: ir.Context) -> None:
    """Loads every registered dialect into `context` (once): passes written in Python
    create ops of dialects nothing declared to the pass manager."""
    if not getattr(context, "_mlc_all_dialects", False):
        context.load_all_available_dialects()
        try:
            context._mlc_all_dialects = True
        except AttributeError:  # a context type without attributes: load again next time (cheap)
            pass


def _after_fork_in_child() -> None:
    # The child's threads start with new contexts: thread idents of the parent's threads
    # may be reused by the child's, and the parent's contexts are not the child's to share.
    # (They have no thread pool, so freeing them in the child is safe.)
    _FORK_GENERATION[0] += 1


os.register_at_fork(after_in_child=_after_fork_in_child)
